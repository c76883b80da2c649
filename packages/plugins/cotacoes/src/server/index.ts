// @app/cotacoes/server: 'Cotações' (tag 73) under /api/cotacoes: the pesquisa de preços of IN SEGES/ME
// 65/2021. The routes:
//   cotações (document kit): GET/POST /cotacoes, GET/PUT/DELETE /cotacoes/:id, /cotacoes.csv|.xlsx,
//     POST /cotacoes/:id/iniciar|concluir|cancelar|duplicar, GET /cotacoes/:id/historico,
//     POST /cotacoes/de-requisicao, GET /cotacoes/:id/mapa;
//   invitations and answers (fornecedores.ts), prices, decisions and evidence (precos.ts), winners and
//     the justification (decisoes.ts), forms, import and memória de cálculo (documentos.ts);
//   pickers: GET /centros-custo, /produtos, /fornecedores, /requisicoes-aprovadas;
//   GET/PUT /configuracao (the entidade's default method; PUT with tag 3);
//   reports (GET /api/relatorios, kit RELATORIOS): the cotações and the requisições aprovadas sem cotação (relatorios.ts);
//   external price sources contributed to COTACAO_FONTES_EXTERNAS (fontes-externas.ts: "Buscar no PNCP").
import { formatDate, formatDateTime, optionalDateTimeSchema, today } from '@app/br';
import { formatDecimal } from '@app/documents';
import { fornecedores } from '@app/fornecedores/server';
import { produtos, produtosLookup } from '@app/produtos/server';
import { centrosCusto, centrosCustoLookup, unidades } from '@app/registros/server';
import { requisicaoItens, requisicoes } from '@app/requisicoes/server';
import {
  AppError,
  INDICADORES,
  RASCUNHOS_ALHEIOS_TAG_INFO,
  RELATORIOS,
  centroCustoScope,
  contribute,
  defineDocumentResource,
  defineLookup,
  documentLineItems,
  defineServerPlugin,
  VOCABULARIO_AUDITORIA,
} from '@app/server-core';
import { and, eq, inArray, notInArray, sql } from '@app/server-core/orm';
import { alias } from '@app/server-core/pg-core';
import { z } from 'zod';
import {
  AUTORIDADE_TAG,
  AUTORIDADE_TAG_NOME,
  COTACOES_TAG,
  COTACOES_TAG_NOME,
  FONTE_CURTA,
  METODO_LABEL,
  type Metodo,
  SITUACAO_CONVITE_LABEL,
  cotacaoInputSchema,
  fluxoCotacao,
} from '../shared/index.js';
import { carregarCotacao } from './carregar.js';
import { conferirAprovacao } from './justificativa.js';
import { emailDoFornecedor, isoSqlNull, pertence } from './comum.js';
import { congelarConclusao, notificarConvidados, validarConclusao } from './conclusao.js';
import { registrarConfiguracao } from './configuracao.js';
import { registrarDecisoes } from './decisoes.js';
import { arquivosDaCotacao, registrarDocumentos } from './documentos.js';
import { registrarConvites } from './fornecedores.js';
import { registrarFontesExternas } from './fontes-externas.js';
import { apagarEvidenciasSoltas, registrarPrecos } from './precos.js';
import { deRequisicao } from './requisicoes.js';
import { cotacoesComPoucosPrecos } from './indicadores.js';
import { cotacoesRelatorio, requisicoesSemCotacao } from './relatorios.js';
import { seedCotacoes } from './seed.js';
import { cotacaoItens, cotacaoPrecos, cotacoes } from './tables.js';

export * from './tables.js';
export {
  COTACAO_FONTES_EXTERNAS,
  type ConsultaPrecosExternos,
  type FontePrecosExterna,
  type PaginaDaFonte,
  type PrecoDaFonte,
} from './fontes-externas.js';

const centro = alias(centrosCusto, 'centro');
const unidade = alias(unidades, 'unidade');
const requisicao = alias(requisicoes, 'requisicao');

const produtoRef = {
  produtoId: {
    table: produtos,
    active: produtos.ativo,
    message: 'Escolha um produto ou serviço do catálogo.',
    inactiveMessage: 'Este produto está desativado: escolha outro.',
  },
};

/**
 * `iniciar`: a `prazo` sent with it becomes the cotação's deadline (it must be ahead: the invitations
 * carry it), audited with the transition; `semPrazo: true` on a cotação without one is recorded.
 */
function prazoAoIniciar(
  row: Record<string, unknown>,
  body: Record<string, unknown>,
): { set?: Record<string, unknown>; audit?: Record<string, unknown> } | undefined {
  const prazo = typeof body.prazo === 'string' ? body.prazo : null;
  if (prazo) {
    if (new Date(prazo).getTime() <= Date.now()) {
      throw new AppError(400, 'validation_error', 'Verifique os campos destacados.', { prazo: 'O prazo de resposta deve ser depois de agora.' });
    }
    return { set: { prazo } };
  }
  if (!row.prazo && body.semPrazo === true) return { audit: { semPrazo: true } };
  return undefined;
}

/** How the records a cotação refers to are named: its timeline and the Logs de Auditoria. */
const NOMES = {
  centroCustoId: { table: 'registros_centros_custo', label: "codigo || ' – ' || nome" },
  produtoId: { table: 'produtos', label: "codigo || ' – ' || descricao" },
  requisicaoId: { table: 'requisicoes', label: "numero || '/' || ano" },
  responsavelId: { table: 'usuarios', label: 'nome', scoped: false },
  fornecedorId: { table: 'fornecedores', label: 'razao_social' },
  evidenciaId: { table: 'cotacao_evidencias', label: 'nome' },
  precoId: { table: 'cotacao_precos', label: 'fonte_descricao' },
} as const;

export default defineServerPlugin({
  id: 'cotacoes',
  version: __PKG_VERSION__,
  core: '^1.0.0',
  dependsOn: ['registros', 'produtos', 'fornecedores', 'requisicoes'],
  tags: [{ tag: COTACOES_TAG, nome: COTACOES_TAG_NOME }, { tag: AUTORIDADE_TAG, nome: AUTORIDADE_TAG_NOME }, RASCUNHOS_ALHEIOS_TAG_INFO],
  contributes: [
    contribute(RELATORIOS, cotacoesRelatorio),
    contribute(RELATORIOS, requisicoesSemCotacao),
    contribute(INDICADORES, cotacoesComPoucosPrecos),
    // the Logs de Auditoria show these codes by their labels, and the ids by the names the timeline gives them
    contribute(VOCABULARIO_AUDITORIA, {
      nomes: NOMES,
      campos: {
        status: 'Situação',
        metodo: 'Método',
        fonte: 'Fonte',
        situacao: 'Situação do convite',
        centroCustoId: 'Centro de custo',
        semPrazo: 'Iniciada sem prazo de resposta',
      },
      valores: { status: fluxoCotacao.states, metodo: METODO_LABEL, fonte: FONTE_CURTA, situacao: SITUACAO_CONVITE_LABEL },
    }),
  ],
  migrations: new URL('../../migrations/', import.meta.url),
  routes(router) {
    const tag = COTACOES_TAG;

    // ---- pickers under tag 73 (a comprador need not hold Cadastros, Produtos nor Fornecedores)
    defineLookup(router, centrosCustoLookup(tag));
    defineLookup(router, produtosLookup(tag));
    defineLookup(router, {
      path: '/fornecedores',
      tag,
      summary: 'Fornecedores que podem ser convidados (ativos, não impedidos)',
      table: fornecedores,
      fields: {
        nome: fornecedores.razaoSocial,
        documento: fornecedores.documento,
        email: emailDoFornecedor,
        situacao: fornecedores.situacao,
      },
      busca: fornecedores.busca,
      order: fornecedores.razaoSocial,
      where: () => sql`${fornecedores.situacao} <> 'impedido'`,
    });
    registrarConfiguracao(router);

    // ---- cotações (document kit)
    const doc = defineDocumentResource(router, {
      path: '/cotacoes',
      tag,
      kind: 'cotacoes/cotacoes',
      table: cotacoes,
      flow: fluxoCotacao,
      schema: cotacaoInputSchema,
      label: { singular: 'cotação', plural: 'cotações', documento: 'Cotação', feminino: true },
      roles: (row, ctx) => (pertence(ctx, row.centroCustoId) ? ['comprador'] : []),
      scope: (ctx) => centroCustoScope(ctx, cotacoes.centroCustoId),
      defaults: (ctx) => ({ responsavelId: ctx.user.id, responsavelNome: ctx.user.nome, data: today() }),
      toRow: (data) => {
        const { itens: _itens, ...header } = data;
        return header;
      },
      canEdit: (row, ctx) => (pertence(ctx, row.centroCustoId) ? null : 'Só o centro de custo da cotação pode alterá-la.'),
      // segregation (kit): the authors of the requisições it prices (and of their sources) are authors of the cotação
      sources: async (tx, id) => {
        const { rows } = await tx.execute<{ id: string }>(sql`
          SELECT requisicao_id AS id FROM cotacoes WHERE id = ${id}::uuid AND requisicao_id IS NOT NULL
          UNION SELECT ri.requisicao_id FROM cotacao_itens ci JOIN requisicao_itens ri ON ri.id = ci.requisicao_item_id WHERE ci.cotacao_id = ${id}::uuid`);
        return rows.map((r) => r.id);
      },
      validate: async (tx, data, write) => {
        const fields: Record<string, string> = {};
        if (!pertence(write.ctx, data.centroCustoId)) fields.centroCustoId = 'Escolha um centro de custo ao qual você pertence.';
        const ligados = data.itens.map((item, i) => ({ ...item, i })).filter((item) => item.requisicaoItemId);
        if (data.requisicaoId) {
          // the requisição is already locked and checked by the kit's link (404 / 400 / 409 naming the live cotação)
          const [req] = await tx.select({ centroCustoId: requisicoes.centroCustoId }).from(requisicoes).where(eq(requisicoes.id, data.requisicaoId));
          if (req?.centroCustoId !== data.centroCustoId) fields.centroCustoId = 'Use o centro de custo da requisição.';
        }
        if (ligados.length) {
          const ids = ligados.map((l) => l.requisicaoItemId!);
          const daRequisicao = data.requisicaoId ? and(inArray(requisicaoItens.id, ids), eq(requisicaoItens.requisicaoId, data.requisicaoId)) : undefined;
          const fontes = daRequisicao
            ? await tx.select({ id: requisicaoItens.id, produtoId: requisicaoItens.produtoId }).from(requisicaoItens).where(daRequisicao)
            : [];
          for (const l of ligados) {
            const fonte = fontes.find((f) => f.id === l.requisicaoItemId);
            if (!fonte) fields[`itens.${l.i}.requisicaoItemId`] = 'Este item não é da requisição da cotação.';
            else if (fonte.produtoId !== l.produtoId) fields[`itens.${l.i}.produtoId`] = 'O produto deve ser o do item da requisição.';
          }
        }
        return Object.keys(fields).length ? fields : undefined;
      },
      afterSave: async (tx, id, _data, write) => {
        // prices (and winners) of the products taken out of the items go with them: the deferred key
        // of cotacao_precos to the items would refuse the COMMIT otherwise
        const fora = await tx
          .delete(cotacaoPrecos)
          .where(and(eq(cotacaoPrecos.cotacaoId, id), write.produtoIds.length ? notInArray(cotacaoPrecos.produtoId, write.produtoIds) : undefined))
          .returning({
            produtoId: cotacaoPrecos.produtoId,
            fonte: cotacaoPrecos.fonte,
            fonteDescricao: cotacaoPrecos.fonteDescricao,
            valorUnitario: cotacaoPrecos.valorUnitario,
            evidenciaId: cotacaoPrecos.evidenciaId,
          });
        if (fora.length) {
          await apagarEvidenciasSoltas(
            tx,
            fora.map((p) => p.evidenciaId),
          );
          write.audit({
            registro: id,
            acao: 'excluir_precos',
            antes: { precos: fora.map(({ evidenciaId: _e, ...p }) => p) },
            depois: { motivo: 'Itens retirados da cotação.' },
          });
        }
        // items, quantities, reference date or method changed: an approval of the justification that no longer covers it is voided
        if (write.current) await conferirAprovacao(tx, write.ctx, id, write.audit, carregarCotacao);
      },
      // iniciar: the web's dialog asks, on a cotação without a deadline, for the `prazo` (set with the
      // transition) or for `semPrazo: true` (starting without one, recorded in the audit)
      transitionBody: {
        iniciar: {
          prazo: optionalDateTimeSchema('Prazo de resposta').optional(),
          semPrazo: z.boolean({ error: 'Informe se a coleta começa sem prazo de resposta.' }).optional(),
        },
      },
      resolveTransition: async (tx, name, row, body, ctx) => {
        if (name === 'concluir') return validarConclusao(tx, ctx, String(row.id));
        if (name === 'iniciar') return prazoAoIniciar(row, body);
        return undefined;
      },
      onTransition: async (tx, name, before, _body, ctx, { audit }) => {
        if (name === 'concluir') await congelarConclusao(tx, ctx, before, audit);
        if (name === 'iniciar') await notificarConvidados(tx, ctx, before);
      },
      references: {
        centroCustoId: { table: centrosCusto, active: centrosCusto.ativo, message: 'Escolha um centro de custo cadastrado em Registros.' },
      },
      items: {
        ...documentLineItems(cotacaoItens, cotacaoItens.cotacaoId, cotacoes.valorTotal),
        references: produtoRef,
        joins: [
          { table: produtos, on: eq(produtos.id, cotacaoItens.produtoId) },
          { table: unidade, on: eq(unidade.id, produtos.unidadeId) },
        ],
        extra: { produtoCodigo: produtos.codigo, produtoDescricao: produtos.descricao, unidadeSigla: unidade.sigla },
      },
      duplicate: { reset: ['requisicaoId', 'prazo', 'itens.*.requisicaoItemId'], today: ['dataReferencia'] },
      // made from an approved requisição (kit links): picker /requisicoes-aprovadas, POST /cotacoes/de-requisicao,
      // the checks of POST/PUT naming requisicaoId, release on cancel
      links: [deRequisicao],
      // the memória de cálculo and each supplier's blank form, as PDF and XLSX (documentos.ts)
      files: arquivosDaCotacao,
      history: {
        names: NOMES,
        skip: ['responsavelNome'],
      },
      list: {
        joins: [
          { table: centro, on: eq(centro.id, cotacoes.centroCustoId) },
          { table: requisicao, on: eq(requisicao.id, cotacoes.requisicaoId) },
        ],
        extra: {
          // instants as ISO text in UTC (the same on both engines)
          prazo: isoSqlNull(cotacoes.prazo),
          concluidaEm: isoSqlNull(cotacoes.concluidaEm),
          justificativaEm: isoSqlNull(cotacoes.justificativaEm),
          justificativaAprovadaEm: isoSqlNull(cotacoes.justificativaAprovadaEm),
          centroCustoCodigo: centro.codigo,
          centroCustoNome: centro.nome,
          requisicaoNumero: sql<string | null>`CASE WHEN ${requisicao.id} IS NULL THEN NULL ELSE ${requisicao.numero} || '/' || ${requisicao.ano} END`,
          quantidadeItens: sql<number>`(SELECT count(*)::int FROM cotacao_itens ci WHERE ci.cotacao_id = cotacoes.id)`,
          quantidadePrecos: sql<number>`(SELECT count(*)::int FROM cotacao_precos cp WHERE cp.cotacao_id = cotacoes.id)`,
        },
        busca: cotacoes.busca,
        sortable: ['numero', 'data', 'status', 'objeto', 'centroCustoNome', 'prazo', 'quantidadeItens', 'quantidadePrecos', 'valorTotal'],
        defaultSort: '-numero',
        filters: { centroCustoId: cotacoes.centroCustoId, requisicaoId: cotacoes.requisicaoId },
        ranges: { data: cotacoes.data, prazo: cotacoes.prazo },
        columns: [
          { key: 'numero', header: 'Número' },
          { key: 'data', header: 'Data', value: (row) => formatDate(row.data as string | null) },
          { key: 'status', header: 'Situação' },
          { key: 'objeto', header: 'Objeto' },
          { key: 'centroCustoNome', header: 'Centro de custo' },
          { key: 'requisicaoNumero', header: 'Requisição' },
          { key: 'quantidadeItens', header: 'Itens' },
          { key: 'quantidadePrecos', header: 'Preços coletados' },
          { key: 'prazo', header: 'Prazo de resposta', value: (row) => formatDateTime(row.prazo as string | null) },
          { key: 'metodo', header: 'Método', value: (row) => METODO_LABEL[row.metodo as Metodo] },
          { key: 'responsavelNome', header: 'Responsável' },
          { key: 'valorTotal', header: 'Valor estimado', value: (row) => formatDecimal(row.valorTotal as string, { min: 2 }) },
        ],
        exportName: 'cotacoes',
      },
    });

    router.route({
      method: 'get',
      path: '/cotacoes/:id/mapa',
      tag,
      summary: 'Mapa comparativo da cotação',
      description:
        'Tudo de uma vez: cabeçalho, itens, fornecedores convidados, todos os preços (com fonte, data, evidência e decisões), vencedores escolhidos e a avaliação (preços válidos e excluídos com o motivo, estatísticas e preço estimado por item pelo método, menores preços, vencedores e totais por fornecedor).',
      request: { params: z.object({ id: z.string() }) },
      responses: { 200: { description: 'MapaCotacao (ver @app/cotacoes/shared)' }, 404: { description: 'Não encontrada' } },
      handler: async (c, ctx) => c.json(await carregarCotacao(ctx.db, ctx, c.req.valid('param').id), 200),
    });

    const convites = registrarConvites(router, doc);
    registrarFontesExternas(router, doc, registrarPrecos(router, doc));
    registrarDecisoes(router, doc);
    registrarDocumentos(router, convites);
  },
  seed: seedCotacoes,
});
