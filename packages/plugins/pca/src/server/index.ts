// @app/pca/server: the Plano de Contratações Anual under /api/pca (tag 101), from defineDocumentResource:
//   GET/POST /planos, GET/PUT/DELETE /planos/:id (DELETE: 409, numbered), GET /planos.csv|.xlsx,
//   POST /planos/:id/enviar|aprovar|devolver|publicar|revisar|desistir|cancelar, GET /planos/:id/historico, GET /planos/{id}.pdf,
//   GET /planos/:id/itens.xlsx (the items with the PNCP's columns);
//   GET /planos/:id/demandas (the accepted DFDs of the plan's year with their lines' Classes/Grupos, for the consolidation, ./demandas.ts);
//   GET /centros-custo; GET /produtos;
//   GET /planos/:id/itens/:numeroItem/dfds (the DFD lines of one item, the drill-down);
//   GET/POST /planos/:id/contratacoes, PUT/DELETE /planos/:id/contratacoes/:contratacaoId (./contratacoes.ts);
//   GET/POST /planos/:id/itens-manuais, PUT/DELETE /planos/:id/itens-manuais/:manualId (./manuais.ts);
//   POST /planos/:id/itens/:itemId/recusar|aceitar (the autoridade, tag 102, ./recusas.ts);
//   GET /planos/:id/sugestao?produtoId=&fator= (a product's suggested quantity for the plan's year, ./sugestao.ts);
//   GET/POST /loas, GET/PUT/DELETE /loas/:id (tag 3: the publication date of each year's budget law, read by revisar).
// publicar hands the plan to the plugins contributing to PCA_PUBLICACAO (@app/pncp) in the same transaction;
// cancelar is refused (409) while one of them still holds the plan (impedeCancelamento: its message says what to do).
// Fracionamento: each grupo's total against the year's dispensa limit (`fracionamento`, ./fracionamento.ts),
// and the plans' amounts per grupo given to requisições' dispensa alert (DISPENSA_PLANEJADO).
// The DFDs are the kit's many → one link (memorandoIds): locked, scoped, eligible, one live plan each,
// audited on each DFD, released on cancel, a DFD's arquivar/cancelar refused while in a plan.
import { formatDate, today } from '@app/br';
import { formatNumero } from '@app/documents';
import { memorandos } from '@app/memorandos/server';
import { produtosLookup } from '@app/produtos/server';
import { centrosCusto, centrosCustoLookup } from '@app/registros/server';
import { DISPENSA_PLANEJADO } from '@app/requisicoes/server';
import {
  AppError,
  type DbOrTx,
  type DocumentSource,
  RASCUNHOS_ALHEIOS_TAG_INFO,
  INDICADORES,
  PENDENCIAS,
  RELATORIOS,
  VOCABULARIO_AUDITORIA,
  type RequestContext,
  centroCustoScope,
  contribute,
  defineCrudResource,
  defineDocumentResource,
  defineLookup,
  defineServerPlugin,
} from '@app/server-core';
import { ADMIN_TAG as PCA_ADMIN_TAG } from '@app/core/tags';
import { and, eq, inArray, isNull, ne, or, sql } from '@app/server-core/orm';
import { z } from 'zod';
import {
  CATEGORIA_ITEM_PCA,
  LOA_PATH,
  PCA_APROVAR_TAG,
  PCA_APROVAR_TAG_NOME,
  PCA_PATH,
  PCA_TAG,
  PCA_TAG_NOME,
  fluxo,
  loaInputSchema,
  pcaSchema,
} from '../shared/index.js';
import { consolidar, itensPendentes, memorandosDoPlano, mensagemPendencias } from './consolidar.js';
import { contratacoesVazias, lerContratacoes, registrarContratacoes } from './contratacoes.js';
import { lerDemandas } from './demandas.js';
import { lerManuais, registrarManuais } from './manuais.js';
import { registrarRecusas } from './recusas.js';
import { abrirRevisao, desistirDaRevisao, guardarVersao, justificativaPncp, lerLoa, lerRevisao, revisarBody } from './revisao.js';
import { lerFracionamento, planejamentoDispensa } from './fracionamento.js';
import { lerFontes, lerItens, lerMemorandos, lerTotais } from './leitura.js';
import { planoPdf } from './pdf.js';
import { planilhaItens } from './planilha.js';
import { PCA_PUBLICACAO, type PcaPublicador } from './publicacao.js';
import { gastoContraPlano } from './indicadores.js';
import { PCA_A_CONSOLIDAR } from './pendencias.js';
import { escopoDosPlanos, pcaCalendario, pcaPorCategoria, pcaPorUnidade } from './relatorios.js';
import { seedPca } from './seed.js';
import { registrarSugestao } from './sugestao.js';
import { pcaLoas, pcaPlanos } from './tables.js';

type Row = Record<string, unknown>;
const objeto = z.object({}).loose();

const papeis = (row: Row, ctx: RequestContext) => [
  ...(ctx.todosCentros || ctx.centrosCusto.includes(String(row.centroCustoId)) ? ['setor'] : []),
  ...(ctx.hasTag(PCA_APROVAR_TAG) ? ['autoridade'] : []),
];

/** The DFDs (accepted memorandos) as the plan sees them: read only, in the person's centros. */
const dfd: DocumentSource = {
  kind: 'memorandos/memorandos',
  table: memorandos,
  label: { documento: 'Memorando' },
  scope: (ctx) => centroCustoScope(ctx, memorandos.origemId, memorandos.destinoId),
  busca: memorandos.busca,
};

export {
  PCA_PUBLICACAO,
  type AcaoPublicacao,
  type ItemForaDoPlano,
  type PlanoPublicado,
  type SituacaoItemPublicado,
  type SituacaoPublicacao,
  itensPublicaveis,
  planoPublicavel,
} from './publicacao.js';

/** How the records a plan refers to are named: its timeline and the Logs de Auditoria. */
const NOMES = { centroCustoId: { table: 'registros_centros_custo', label: "codigo || ' – ' || nome" } } as const;

export default defineServerPlugin({
  id: 'pca',
  version: __PKG_VERSION__,
  core: '^1.0.0',
  dependsOn: ['registros', 'produtos', 'memorandos', 'requisicoes'],
  tags: [{ tag: PCA_TAG, nome: PCA_TAG_NOME }, { tag: PCA_APROVAR_TAG, nome: PCA_APROVAR_TAG_NOME }, RASCUNHOS_ALHEIOS_TAG_INFO],
  // requisições' dispensa alert shows (and counts) what the year's plans set aside for the grupo; the reports
  // at /reports, the indicator on the home page and the DFDs waiting for consolidation on the dashboard
  contributes: [
    contribute(DISPENSA_PLANEJADO, planejamentoDispensa),
    contribute(RELATORIOS, pcaPorCategoria),
    contribute(RELATORIOS, pcaPorUnidade),
    contribute(RELATORIOS, pcaCalendario),
    contribute(INDICADORES, gastoContraPlano),
    contribute(PENDENCIAS, PCA_A_CONSOLIDAR),
    // the Logs de Auditoria show these codes by their labels
    contribute(VOCABULARIO_AUDITORIA, {
      nomes: NOMES,
      campos: { status: 'Situação', centroCustoId: 'Centro de custo', dataPublicacao: 'Data de publicação', lei: 'Lei' },
      valores: { status: fluxo.states },
    }),
  ],
  migrations: new URL('../../migrations/', import.meta.url),
  routes(router, plugin) {
    defineLookup(router, centrosCustoLookup(PCA_TAG, 'origem'));
    // the catalogue picker of the lines added without DFD: GET /api/pca/produtos
    defineLookup(router, produtosLookup(PCA_TAG));
    // what the first publisher that answers says (the PNCP: the one that took the plan)
    const doPublicador = async <T>(pergunta: (p: PcaPublicador) => Promise<T | null> | undefined): Promise<T | null> => {
      for (const { value } of plugin.contributions(PCA_PUBLICACAO)) {
        const resposta = (await pergunta(value)) ?? null;
        if (resposta) return resposta;
      }
      return null;
    };
    // the plan's items, each with what the publisher says of it (the PNCP: published, changed…)
    const itensComSituacao = async (db: DbOrTx, planoId: string, entidadeId: string) => {
      const situacoes = await doPublicador((p) => p.situacaoItens?.(db, planoId, entidadeId));
      return (await lerItens(db, planoId)).map((i) => ({ ...i, publicacao: situacoes?.[Number(i.numeroItem)] ?? null }));
    };
    const plano = defineDocumentResource(router, {
      path: PCA_PATH,
      tag: PCA_TAG,
      table: pcaPlanos,
      flow: fluxo,
      schema: pcaSchema,
      label: { singular: 'plano', plural: 'planos', documento: 'Plano de Contratações Anual' },
      roles: papeis,
      // the setor de contratações' centro; the autoridade competente sees every plan of the entidade
      scope: escopoDosPlanos,
      defaults: (ctx) => ({ solicitanteId: ctx.user.id, solicitanteNome: ctx.user.nome, data: today() }),
      canEdit: (row, ctx) => (papeis(row, ctx).includes('setor') ? null : 'Só o setor de contratações do plano pode alterá-lo.'),
      references: { centroCustoId: { table: centrosCusto, active: centrosCusto.ativo, message: 'Escolha um centro de custo cadastrado em Registros.' } },
      links: [
        {
          source: dfd,
          cardinality: 'many',
          field: 'memorandoIds',
          states: ['aceito'],
          refuse: ['arquivar', 'cancelar'],
          messages: {
            used: (t) => `Este memorando já está consolidado no Plano de Contratações Anual ${t.numeroTexto}.`,
            notEligible: 'Escolha memorandos (DFD) aceitos.',
          },
        },
      ],
      validate: async (tx, data, write): Promise<Record<string, string> | undefined> => {
        const { ctx } = write;
        if (!ctx.todosCentros && !ctx.centrosCusto.includes(data.centroCustoId)) return { centroCustoId: 'Escolha um centro de custo ao qual você pertence.' };
        const [outro] = await tx
          .select({ numero: pcaPlanos.numero, ano: pcaPlanos.ano })
          .from(pcaPlanos)
          .where(
            and(
              eq(pcaPlanos.entidadeId, write.entidadeId),
              eq(pcaPlanos.anoPca, data.anoPca),
              eq(pcaPlanos.codigoUnidade, data.codigoUnidade),
              ne(pcaPlanos.status, 'cancelado'),
              write.id ? ne(pcaPlanos.id, write.id) : undefined,
            ),
          )
          .limit(1);
        if (outro) {
          const message = `Já existe o Plano de Contratações Anual ${formatNumero(outro.numero, outro.ano)} de ${data.anoPca} para esta unidade.`;
          throw new AppError(409, 'duplicate', message, { anoPca: message });
        }
        // every DFD is for the plan's year
        const ids = data.memorandoIds ?? (write.id ? (await memorandosDoPlano(tx, write.id)).map((r) => r.id) : []);
        if (ids.length === 0) return undefined;
        const [fora] = await tx
          .select({ numero: memorandos.numero, ano: memorandos.ano, anoPca: memorandos.anoPca })
          .from(memorandos)
          .where(and(inArray(memorandos.id, ids), or(isNull(memorandos.anoPca), ne(memorandos.anoPca, data.anoPca))))
          .limit(1);
        if (!fora) return undefined;
        const de = fora.anoPca ? `é do PCA de ${fora.anoPca}` : 'não indica o ano do PCA';
        return { memorandoIds: `O Memorando ${formatNumero(fora.numero, fora.ano)} ${de}, não de ${data.anoPca}.` };
      },
      // enviar: the items consolidated again from the DFDs and the catalogue as they are now (a product fixed
      // since is taken), and refused while an item lacks what the PNCP requires (the checks before approval)
      transitionBody: { revisar: revisarBody },
      resolveTransition: async (tx, name, row, body, ctx): Promise<{ to?: string; set?: Row; audit?: Row } | undefined> => {
        // the next version: a justification outside the revision windows
        if (name === 'revisar') return abrirRevisao(tx, row, body, ctx.entidadeId);
        // back to the version under revision as it stood
        if (name === 'desistir') return desistirDaRevisao(tx, row, ctx, plano.crud);
        // a plan a publisher still holds (the PNCP) is not cancelled here: the publisher says what to do first
        if (name === 'cancelar') {
          const impedimento = await doPublicador((p) => p.impedeCancelamento?.(tx, String(row.id), ctx.entidadeId));
          if (impedimento) throw new AppError(409, 'publicado', impedimento);
          return undefined;
        }
        if (name !== 'enviar') return undefined;
        await consolidar(tx, String(row.id), ctx.entidadeId);
        const pendentes = await itensPendentes(tx, String(row.id));
        if (pendentes.length) throw new AppError(409, 'pendencias', mensagemPendencias(pendentes));
        const vazias = contratacoesVazias(await lerContratacoes(tx, String(row.id)));
        if (vazias) throw new AppError(409, 'pendencias', vazias);
        return undefined;
      },
      // publicar: every publisher (the PNCP integration) takes the plan in this transaction
      onTransition: async (tx, name, before, _body, ctx, { audit }) => {
        // each approved version's items, for the next version to show what changed
        if (name === 'aprovar') await guardarVersao(tx, before, ctx.entidadeId);
        if (name !== 'publicar') return;
        const plano = {
          id: String(before.id),
          entidadeId: ctx.entidadeId,
          numero: Number(before.numero),
          ano: Number(before.ano),
          anoPca: Number(before.anoPca),
          codigoUnidade: String(before.codigoUnidade),
          ...(Number(before.versao) > 1 ? { justificativa: justificativaPncp(before) } : {}),
        };
        for (const { value } of ctx.contributions(PCA_PUBLICACAO)) await value.publicar(tx, plano, ctx, audit);
      },
      // the plan's items, from the DFDs linked now (the kit saved the links just before)
      afterSave: (tx, id, _data, write) => consolidar(tx, id, write.entidadeId),
      expandOne: async (db, row, ctx) => ({
        ...row,
        itens: await itensComSituacao(db, String(row.id), ctx.entidadeId),
        // the items a revision took out that the publisher (the PNCP) holds or held: to delete there, or deleted on a date
        itensForaDoPlano: (await doPublicador((p) => p.itensForaDoPlano?.(db, String(row.id), ctx.entidadeId))) ?? [],
        totais: await lerTotais(db, String(row.id), CATEGORIA_ITEM_PCA),
        // each grupo's total against the year's dispensa limit ("exige licitação")
        fracionamento: await lerFracionamento(db, { id: String(row.id), entidadeId: ctx.entidadeId, anoPca: Number(row.anoPca) }),
        memorandos: await lerMemorandos(db, String(row.id)),
        // the contratações planejadas (the calendar is drawn from them)
        contratacoes: await lerContratacoes(db, String(row.id)),
        // under revision: what changed since the approved version
        revisao: await lerRevisao(db, row),
        // the entidade's record of the budget law of the plan's year (a revision window follows it)
        loa: await lerLoa(db, ctx.entidadeId, Number(row.anoPca)),
        // the lines the setor added without DFD, with their justification
        manuais: await lerManuais(db, String(row.id)),
        // what the publishers (the PNCP) say of the plan
        publicacoes: (
          await Promise.all(plugin.contributions(PCA_PUBLICACAO).map(({ value }) => value.situacao?.(db, String(row.id), ctx.entidadeId, ctx) ?? null))
        ).filter((s) => s !== null),
      }),
      oneShape: {
        totais: objeto,
        ...Object.fromEntries(
          ['fracionamento', 'itens', 'itensForaDoPlano', 'memorandos', 'contratacoes', 'manuais', 'publicacoes'].map((k) => [k, z.array(objeto)]),
        ),
        revisao: objeto.nullable(),
        loa: objeto.nullable(),
      },
      duplicate: false,
      pdf: planoPdf,
      // the items with the PNCP's columns: GET /planos/:id/itens.xlsx
      files: { itens: planilhaItens },
      history: {
        names: NOMES,
        skip: ['solicitanteNome'],
      },
      list: {
        joins: [{ table: centrosCusto, on: eq(centrosCusto.id, pcaPlanos.centroCustoId) }],
        extra: { centroCustoNome: centrosCusto.nome },
        busca: pcaPlanos.busca,
        sortable: ['numero', 'anoPca', 'codigoUnidade', 'status', 'valorTotal'],
        defaultSort: '-numero',
        columns: [
          { key: 'numero', header: 'Número' },
          { key: 'anoPca', header: 'Ano do plano' },
          { key: 'codigoUnidade', header: 'Unidade PNCP' },
          { key: 'status', header: 'Situação' },
          { key: 'centroCustoNome', header: 'Setor' },
          { key: 'valorTotal', header: 'Valor total', value: (row) => ({ decimal: String(row.valorTotal), places: 4 }) },
        ],
        exportName: 'planos-contratacoes-anuais',
      },
    });

    // the contratações planejadas and the lines added without DFD, changed while the plan is elaborated
    const editaveis = fluxo.stateNames.filter((s) => fluxo.isEditable(s));
    registrarContratacoes(router, plano, editaveis);
    registrarManuais(router, plano, editaveis);
    // the autoridade refuses single items (with a reason) while the plan is under approval
    registrarRecusas(router, plano);
    // the suggested quantity of a product for the plan's year, from the plan's centro's requisições
    registrarSugestao(router, plano);

    // the entidade's settings (tag 3): when each year's budget law was published (GET/POST /api/pca/loas…)
    defineCrudResource(router, {
      path: LOA_PATH,
      tag: PCA_ADMIN_TAG,
      table: pcaLoas,
      label: { singular: 'publicação da LOA', plural: 'publicações da LOA' },
      schema: loaInputSchema,
      unique: [{ fields: ['ano'], message: 'Já está registrada a publicação da LOA deste ano.' }],
      // the list's search: the year or the law (a few rows per entidade: no stored search column)
      searchColumns: [sql`${pcaLoas.ano}::text`, pcaLoas.lei],
      sortable: ['ano', 'dataPublicacao'],
      defaultSort: '-ano',
      columns: [
        { key: 'ano', header: 'Ano' },
        { key: 'dataPublicacao', header: 'Data de publicação', value: (row) => formatDate(String(row.dataPublicacao)) },
        { key: 'lei', header: 'Lei' },
      ],
    });

    router.route({
      method: 'get',
      path: `${PCA_PATH}/:id/itens/:numeroItem/dfds`,
      tag: PCA_TAG,
      summary: 'Linhas de DFD de um item do plano',
      description: 'As linhas dos memorandos (DFD) consolidadas no item, com a origem, a data desejada, a quantidade e o valor de cada uma.',
      request: { params: z.object({ id: z.string(), numeroItem: z.coerce.number().int().min(1).max(1_000_000) }) },
      responses: { 200: z.object({ items: z.array(objeto) }), 404: { description: 'Não encontrado' } },
      handler: async (c, ctx) => {
        const { id, numeroItem } = c.req.valid('param');
        const row = await plano.crud.readOne(ctx.db, id, ctx);
        if (!row) throw new AppError(404, 'not_found', 'Não encontrado.');
        return c.json({ items: await lerFontes(ctx.db, String(row.id), numeroItem) }, 200);
      },
    });

    router.route({
      method: 'get',
      path: `${PCA_PATH}/:id/demandas`,
      tag: PCA_TAG,
      summary: 'Memorandos (DFD) aceitos do ano do plano',
      description:
        'Os memorandos aceitos com o ano do PCA deste plano, no escopo da pessoa, por origem e número (até 20 000; `truncated` diz se havia mais), com o plano (não cancelado) em que cada um está consolidado e as chaves das Classes/Grupos das suas linhas (`classes`, como a consolidação as classifica: a Classe/Grupo do CNBS do produto com código CATMAT/CATSER, senão o grupo do catálogo); e essas Classes/Grupos (`classes`), com código, nome e quantos memorandos têm linhas em cada uma.',
      request: { params: z.object({ id: z.string() }) },
      responses: {
        200: z.object({ items: z.array(objeto), classes: z.array(objeto), truncated: z.boolean() }),
        404: { description: 'Não encontrado' },
      },
      handler: async (c, ctx) => {
        const row = await plano.crud.readOne(ctx.db, c.req.valid('param').id, ctx);
        if (!row) throw new AppError(404, 'not_found', 'Não encontrado.');
        const filtro = and(
          eq(memorandos.entidadeId, ctx.entidadeId),
          eq(memorandos.status, 'aceito'),
          eq(memorandos.anoPca, Number(row.anoPca)),
          dfd.scope!(ctx),
        );
        return c.json(await lerDemandas(ctx.db, ctx.entidadeId, filtro), 200);
      },
    });
  },
  seed: seedPca,
});
