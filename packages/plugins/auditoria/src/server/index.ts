// @app/auditoria/server: the audit trail of the session's entidade: keyset-paginated list, CSV export
// (streamed) and the hash-chain verification. Tag 90.
import { timeParts } from '@app/br';
import {
  RELATORIOS,
  VOCABULARIO_AUDITORIA,
  auditAnchorSummary,
  auditCheckpointProblem,
  contribute,
  defineServerPlugin,
  perfis,
  verifyAuditChain,
} from '@app/server-core';
import { and, eq, inArray, sql } from '@app/server-core/orm';
import {
  AUDITORIA_TAG,
  FILTER_KEYS,
  type LogFilters,
  type LogPage,
  logFiltersSchema,
  logPageSchema,
  logQuerySchema,
  type Verificacao,
  verificacaoSchema,
} from '../shared/index.js';
import { CSV_HEADER, csvLine, csvRow, enrichRows, fetchPage, resolveFilters } from './queries.js';
import { atividadePorPeriodo } from './relatorios.js';

/** Rows fetched per query while streaming the CSV. */
const CSV_BATCH = 1000;

function filtersOf(input: LogFilters): LogFilters {
  const out: LogFilters = {};
  for (const key of FILTER_KEYS) if (input[key]) out[key] = input[key];
  return out;
}

const fileStamp = () => {
  const p = timeParts(new Date());
  return `${p.year}${p.month}${p.day}-${p.hour}${p.minute}`;
};

export default defineServerPlugin({
  id: 'auditoria',
  version: __PKG_VERSION__,
  core: '^1.0.0',
  tags: [{ tag: AUDITORIA_TAG, nome: 'Logs de Auditoria' }],
  contributes: [contribute(RELATORIOS, atividadePorPeriodo)],
  migrations: new URL('../../migrations/', import.meta.url),
  routes(router) {
    router.route({
      method: 'get',
      path: '/logs',
      tag: AUDITORIA_TAG,
      summary: 'Registros de auditoria da entidade (mais recentes primeiro)',
      description:
        'Paginação por cursor: passe em cursor o nextCursor da página anterior (o id do último registro mostrado). de/ate: dias (aaaa-mm-dd) em America/Sao_Paulo, inclusive. usuario: id, ou parte do login ou do nome. acao: código (alterar) ou nome (Alteração). plugin: id (produtos) ou parte do nome (Produtos, Sistema). busca: texto de um registro como a tabela o mostra (código, descrição, nome), sem distinção de acentos: os registros de auditoria que o contêm e todos os do mesmo registro. Cada item traz o nome do registro e as alterações campo a campo, com nomes no lugar de identificadores.',
      request: { query: logQuerySchema },
      responses: { 200: logPageSchema },
      handler: async (c, ctx) => {
        const { cursor, limit, ...filters } = c.req.valid('query');
        const resolved = await resolveFilters(ctx.db, filtersOf(filters), { entidadeId: ctx.entidadeId, plugins: ctx.plugins });
        const page = await fetchPage(ctx.db, resolved, ctx.entidadeId, cursor, limit);
        const items = await enrichRows(ctx.db, ctx.entidadeId, page.items, ctx.contributions(VOCABULARIO_AUDITORIA));
        const body: LogPage = {
          items: items.map(({ quando: _q, ...item }) => item),
          nextCursor: page.nextCursor,
          ...(resolved.busca?.limitada ? { buscaLimitada: true } : {}),
        };
        return c.json(body, 200);
      },
    });

    router.route({
      method: 'get',
      path: '/logs.csv',
      tag: AUDITORIA_TAG,
      summary: 'Exportar os registros filtrados em CSV',
      description:
        "Mesmos filtros da lista. UTF-8 com BOM, separador ';' (Excel em português), horário de America/Sao_Paulo (dd/mm/aaaa HH:mm:ss). A exportação fica registrada na auditoria.",
      request: { query: logFiltersSchema },
      responses: { 200: { description: 'Arquivo CSV (text/csv)' } },
      handler: async (c, ctx) => {
        const filters = filtersOf(c.req.valid('query'));
        // who exported what is itself audited (personal data leaves the system)
        await ctx.mutate(async (_tx, audit) => {
          audit({ acao: 'exportar_csv', registro: null, depois: { filtros: filters } });
        });
        const resolved = await resolveFilters(ctx.db, filters, { entidadeId: ctx.entidadeId, plugins: ctx.plugins });
        const encoder = new TextEncoder();
        let cursor: string | undefined;
        let started = false;
        let finished = false;
        const stream = new ReadableStream<Uint8Array>({
          async pull(controller) {
            if (!started) {
              started = true;
              controller.enqueue(encoder.encode(`\uFEFF${csvLine(CSV_HEADER)}`));
              return;
            }
            if (finished) return;
            try {
              const page = await fetchPage(ctx.db, resolved, ctx.entidadeId, cursor, CSV_BATCH);
              if (page.items.length) controller.enqueue(encoder.encode(page.items.map(csvRow).join('')));
              if (page.nextCursor) cursor = page.nextCursor;
              else {
                finished = true;
                controller.close();
              }
            } catch (err) {
              ctx.logger.error('audit CSV export failed', err);
              controller.error(err);
            }
          },
        });
        return new Response(stream, {
          status: 200,
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': `attachment; filename="logs-auditoria-${fileStamp()}.csv"`,
            'cache-control': 'no-store',
          },
        });
      },
    });

    router.route({
      method: 'get',
      path: '/verificacao',
      tag: AUDITORIA_TAG,
      summary: 'Verificar a integridade da trilha de auditoria',
      description:
        'Recalcula o hash de cada registro, confere o encadeamento e os pontos de controle assinados fora do banco (verifyAuditChain, AUDIT_CHECKPOINT_KEY). Aponta o primeiro registro editado, forjado ou removido.',
      responses: { 200: verificacaoSchema },
      handler: async (c, ctx) => {
        // with the checkpoint key createServer was given (AUDIT_CHECKPOINT_KEY), if any
        const result = await verifyAuditChain(ctx.db);
        const problem = auditCheckpointProblem(result);
        const body: Verificacao = result.ok
          ? {
              ok: true,
              checked: result.checked,
              brokenAt: null,
              reason: null,
              verificadoEm: new Date().toISOString(),
              mensagem: `Trilha íntegra: ${result.checked.toLocaleString('pt-BR')} registros verificados.`,
              ancora: auditAnchorSummary(result),
            }
          : {
              ok: false,
              checked: result.checked,
              brokenAt: result.brokenAt,
              reason: result.reason,
              verificadoEm: new Date().toISOString(),
              ancora: auditAnchorSummary(result),
              mensagem: problem
                ? `Trilha violada: ${problem}`
                : result.reason === 'hash_mismatch'
                  ? `Trilha violada: o registro nº ${result.brokenAt} foi alterado depois de gravado.`
                  : `Trilha violada: o encadeamento se rompe no registro nº ${result.brokenAt} (registro removido ou inserido fora da ordem).`,
            };
        return c.json(body, 200);
      },
    });
  },
  async seed(ctx) {
    // The demo Administrador perfis get tag 90 too (when this plugin is enabled after the first start,
    // server-core's core seed has already given them the tags of the plugins enabled then).
    await ctx.mutate(async (tx, audit) => {
      const rows = await tx
        .select({ id: perfis.id, entidadeId: perfis.entidadeId, tags: perfis.tags })
        .from(perfis)
        .where(
          and(
            inArray(perfis.entidadeId, [ctx.entidades.prefeitura.id, ctx.entidades.camara.id]),
            eq(perfis.nome, 'Administrador'),
            sql`NOT (${AUDITORIA_TAG} = ANY(${perfis.tags}))`,
          ),
        );
      for (const row of rows) {
        const tags = [...row.tags, AUDITORIA_TAG].sort((a, b) => a - b);
        await tx.update(perfis).set({ tags }).where(eq(perfis.id, row.id));
        audit({ registro: row.id, acao: 'alterar', antes: { tags: row.tags }, depois: { tags }, entidadeId: row.entidadeId });
      }
    });
  },
});
