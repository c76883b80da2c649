// @app/requisicoes/server: 'Pré-requisições e requisições' (tag 39) under /api/requisicoes. See
// README-like summary at defineServerPlugin below; the routes:
//   pré-requisições (kit): GET/POST /pre-requisicoes, GET/PUT/DELETE /pre-requisicoes/:id, .csv/.xlsx,
//     POST /pre-requisicoes/:id/enviar|devolver|cancelar|duplicar, GET /pre-requisicoes/:id/historico,
//     POST /pre-requisicoes/de-memorando, GET /pre-requisicoes/memorandos-aceitos, GET /pre-requisicoes/itens-pendentes;
//   requisições (kit): GET/POST /requisicoes (?aguardandoMinha=1), GET/PUT/DELETE /requisicoes/:id, .csv/.xlsx,
//     POST /requisicoes/:id/enviar|aprovar|reprovar|devolver|cancelar|duplicar, GET /requisicoes/:id/historico,
//     GET /requisicoes/:id.pdf, GET /requisicoes/:id/aprovacao, GET /requisicoes/:id/dispensa,
//     GET /requisicoes/aguardando-minha-aprovacao/contagem (the menu count: the PENDENCIAS provider's count);
//   pendências (GET /api/pendencias, kit): contributed from ./pendencias.ts;
//   reports (GET /api/relatorios, kit RELATORIOS): por período and acumulado de dispensa (./relatorios.ts), pendências (./relatorios-pendencias.ts);
//   administration (tag 3): /alcadas and /limites-dispensa (CRUD);
//   pickers: GET /centros-custo, /tipos-solicitacao, /produtos.
import { formatDate, today } from '@app/br';
import { formatDecimal } from '@app/documents';
import { produtos, produtosLookup } from '@app/produtos/server';
import { centrosCusto, centrosCustoLookup, tiposSolicitacao, unidades } from '@app/registros/server';
import {
  AppError,
  type CrudColumn,
  type CrudWriteContext,
  type RequestContext,
  centroCustoScope,
  defineCrudResource,
  defineDocumentResource,
  defineLookup,
  contribute,
  defineServerPlugin,
  documentLineItems,
  notFound,
  INDICADORES,
  PENDENCIAS,
  RASCUNHOS_ALHEIOS_TAG_INFO,
  RELATORIOS,
  VOCABULARIO_AUDITORIA,
} from '@app/server-core';
import { eq, sql } from '@app/server-core/orm';
import { ADMIN_TAG } from '@app/core/tags';
import { type AnyPgColumn, alias } from '@app/server-core/pg-core';
import { z } from 'zod';
import {
  CATEGORIA_ARTIGO,
  CATEGORIA_LABEL,
  CATEGORIAS,
  type Categoria,
  REQUISICOES_TAG,
  REQUISICOES_TAG_NOME,
  alcadaInputSchema,
  alertaDispensaSchema,
  alertasDispensaSchema,
  fluxoPreRequisicao,
  fluxoRequisicao,
  itemPendenteSchema,
  limiteDispensaInputSchema,
  preRequisicaoInputSchema,
  requisicaoInputSchema,
} from '../shared/index.js';
import { aprovacao, atualizarAprovadaEm } from './aprovacao.js';
import { atendimento } from './atendimento.js';
import { deMemorando } from './memorando.js';
import { alertasDaRequisicao, alertasVistos, recalcularGrupos } from './dispensa.js';
import { aprovacoesParadas, gruposPertoDoLimite } from './indicadores.js';
import { PENDENCIAS_REQUISICOES } from './pendencias.js';
import { dispensaAcumulado, requisicoesPorPeriodo } from './relatorios.js';
import { memorandosSemPreRequisicao, preRequisicoesEmAberto } from './relatorios-pendencias.js';
import { requisicaoPdf } from './pdf.js';
import { seedRequisicoes } from './seed.js';
import { alcadas, limitesDispensa, preRequisicaoItens, preRequisicoes, requisicaoItens, requisicoes } from './tables.js';

export * from './tables.js';
export { registrarPesquisaDePrecos } from './pesquisa.js';
export { DISPENSA_PLANEJADO, type PlanejamentoDispensa, limiteDoAno } from './dispensa.js';

type Row = Record<string, unknown>;

const centro = alias(centrosCusto, 'centro');
const tipo = alias(tiposSolicitacao, 'tipo');
const unidade = alias(unidades, 'unidade');

const pertence = (ctx: RequestContext, centroId: unknown) => ctx.todosCentros || ctx.centrosCusto.includes(String(centroId));

const referencias = {
  centroCustoId: { table: centrosCusto, active: centrosCusto.ativo, message: 'Escolha um centro de custo cadastrado em Registros.' },
  tipoSolicitacaoId: { table: tiposSolicitacao, active: tiposSolicitacao.ativo, message: 'Escolha um tipo de solicitação cadastrado em Registros.' },
};
const history = {
  names: {
    centroCustoId: { table: 'registros_centros_custo', label: "codigo || ' – ' || nome" },
    tipoSolicitacaoId: { table: 'registros_tipos_solicitacao', label: 'nome' },
    produtoId: { table: 'produtos', label: "codigo || ' – ' || descricao" },
    solicitanteId: { table: 'usuarios', label: 'nome', scoped: false },
  },
  // aprovadaEm: the approval's own moment (the timeline entry's time), not a change to show
  skip: ['solicitanteNome', 'aprovadaEm'],
} as const;

/**
 * What both documents declare alike: the path and kind, the label, the scope and the defaults, that only
 * their centro de custo changes them (and names a centro of the person's), the references and the history.
 */
const documento = <T extends typeof preRequisicoes | typeof requisicoes>(path: string, table: T, singular: string, plural: string) => ({
  path,
  tag: REQUISICOES_TAG,
  kind: `requisicoes${path}`,
  table,
  label: { singular, plural, documento: singular[0]!.toUpperCase() + singular.slice(1), feminino: true },
  scope: (ctx: RequestContext) => centroCustoScope(ctx, table.centroCustoId),
  defaults: (ctx: RequestContext) => ({ solicitanteId: ctx.user.id, solicitanteNome: ctx.user.nome, data: today() }),
  canEdit: (row: Row, ctx: RequestContext) => (pertence(ctx, row.centroCustoId) ? null : `Só o centro de custo da ${singular} pode alterá-la.`),
  validate: async (_tx: unknown, data: { centroCustoId: string }, write: CrudWriteContext) =>
    pertence(write.ctx, data.centroCustoId) ? undefined : { centroCustoId: 'Escolha um centro de custo ao qual você pertence.' },
  references: referencias,
  history,
});

/** The header list of both documents (same columns): the centro and the tipo joined, filters, the period. */
const lista = (t: typeof preRequisicoes | typeof requisicoes) => ({
  joins: [
    { table: centro, on: eq(centro.id, t.centroCustoId) },
    { table: tipo, on: eq(tipo.id, t.tipoSolicitacaoId) },
  ],
  extra: { centroCustoCodigo: centro.codigo, centroCustoNome: centro.nome, tipoSolicitacaoNome: tipo.nome },
  busca: t.busca,
  defaultSort: '-numero',
  filters: { centroCustoId: t.centroCustoId, tipoSolicitacaoId: t.tipoSolicitacaoId, solicitanteId: t.solicitanteId },
  ranges: { data: t.data },
});

/** The lines of both documents: the product and its unit joined, the product checked against the catalogue. */
const itens = (t: typeof preRequisicaoItens | typeof requisicaoItens, documentColumn: AnyPgColumn, documentTotalColumn: AnyPgColumn) => ({
  ...documentLineItems(t, documentColumn, documentTotalColumn),
  references: {
    produtoId: {
      table: produtos,
      active: produtos.ativo,
      message: 'Escolha um produto ou serviço do catálogo.',
      inactiveMessage: 'Este produto está desativado: escolha outro.',
    },
  },
  joins: [
    { table: produtos, on: eq(produtos.id, t.produtoId) },
    { table: unidade, on: eq(unidade.id, produtos.unidadeId) },
  ],
});
const produtoExtra = { produtoCodigo: produtos.codigo, produtoDescricao: produtos.descricao, unidadeSigla: unidade.sigla };

/** Export columns: money as '1.234,56' (empty when absent), dates dd/mm/aaaa, the category's label. */
const moeda = (key: string, header: string): CrudColumn => ({
  key,
  header,
  value: (row) => (row[key] ? formatDecimal(row[key] as string, { min: 2 }) : ''),
});
const categoria: CrudColumn = { key: 'categoria', header: 'Categoria', value: (row) => CATEGORIA_LABEL[row.categoria as Categoria] };
/** A categoria column's label and legal basis in SQL ('Obras e serviços de engenharia art. 75, I, da Lei 14.133/2021'), for a search. */
const categoriaTexto = (column: AnyPgColumn) =>
  sql`CASE ${column} ${sql.join(
    CATEGORIAS.map((c) => sql`WHEN ${c} THEN ${`${CATEGORIA_LABEL[c]} ${CATEGORIA_ARTIGO[c]}`}`),
    sql` `,
  )} END`;
const col = {
  numero: { key: 'numero', header: 'Número' },
  data: { key: 'data', header: 'Data', value: (row: Row) => formatDate(String(row.data ?? '')) },
  status: { key: 'status', header: 'Situação' },
  centro: { key: 'centroCustoNome', header: 'Centro de custo' },
  tipo: { key: 'tipoSolicitacaoNome', header: 'Tipo de solicitação' },
  solicitante: { key: 'solicitanteNome', header: 'Solicitante' },
  valor: moeda('valorTotal', 'Valor estimado'),
};

export default defineServerPlugin({
  id: 'requisicoes',
  version: __PKG_VERSION__,
  core: '^1.0.0',
  dependsOn: ['registros', 'produtos', 'memorandos'],
  tags: [{ tag: REQUISICOES_TAG, nome: REQUISICOES_TAG_NOME }, RASCUNHOS_ALHEIOS_TAG_INFO],
  contributes: [
    ...PENDENCIAS_REQUISICOES.map((p) => contribute(PENDENCIAS, p)),
    contribute(INDICADORES, gruposPertoDoLimite),
    contribute(INDICADORES, aprovacoesParadas),
    ...[requisicoesPorPeriodo, dispensaAcumulado, memorandosSemPreRequisicao, preRequisicoesEmAberto].map((r) => contribute(RELATORIOS, r)),
    // the Logs de Auditoria show these codes by their labels (both flows: the same words for the same states)
    contribute(VOCABULARIO_AUDITORIA, {
      nomes: history.names,
      campos: { status: 'Situação', categoria: 'Categoria', centroCustoId: 'Centro de custo', tipoSolicitacaoId: 'Tipo de solicitação' },
      valores: { status: { ...fluxoPreRequisicao.states, ...fluxoRequisicao.states }, categoria: CATEGORIA_LABEL },
    }),
  ],
  migrations: new URL('../../migrations/', import.meta.url),
  routes(router) {
    const tag = REQUISICOES_TAG;

    // ---- pickers under tag 39 (a requisitante holds neither Cadastros nor Produtos)
    defineLookup(router, centrosCustoLookup(tag));
    defineLookup(router, {
      path: '/tipos-solicitacao',
      tag,
      summary: 'Tipos de solicitação',
      table: tiposSolicitacao,
      fields: { nome: tiposSolicitacao.nome, prazoDias: tiposSolicitacao.prazoDias },
      busca: tiposSolicitacao.busca,
      order: tiposSolicitacao.nome,
    });
    defineLookup(router, produtosLookup(tag));

    // ---- pré-requisições (the fixed paths before the kit's '/:id'; the memorandos picker: the link's)
    atendimento.picker(router, {
      path: '/pre-requisicoes/itens-pendentes',
      tag,
      summary: 'Itens de pré-requisições a converter em requisição',
      description: 'Itens das pré-requisições enviadas ou parcialmente atendidas com quantidade pendente (no escopo de centros de custo).',
      fields: {
        preRequisicaoId: preRequisicoes.id,
        preRequisicaoNumero: preRequisicoes.numero,
        preRequisicaoAno: preRequisicoes.ano,
        centroCustoId: preRequisicoes.centroCustoId,
        centroCustoNome: centrosCusto.nome,
        tipoSolicitacaoId: preRequisicoes.tipoSolicitacaoId,
        produtoId: preRequisicaoItens.produtoId,
        produtoCodigo: produtos.codigo,
        produtoDescricao: produtos.descricao,
        unidadeSigla: unidades.sigla,
        valorUnitario: sql<string>`${preRequisicaoItens.valorUnitario}::text`,
      },
      schema: itemPendenteSchema,
      joins: [
        { table: centrosCusto, on: eq(centrosCusto.id, preRequisicoes.centroCustoId) },
        { table: produtos, on: eq(produtos.id, preRequisicaoItens.produtoId) },
        { table: unidades, on: eq(unidades.id, produtos.unidadeId) },
      ],
      filters: { preRequisicaoId: preRequisicoes.id, centroCustoId: preRequisicoes.centroCustoId },
      search: produtos.busca,
    });

    const papeisPre = (row: Row, ctx: RequestContext) => {
      const out: string[] = [];
      if (pertence(ctx, row.centroCustoId)) out.push('origem');
      if (ctx.todosCentros && row.solicitanteId !== ctx.user.id) out.push('compras');
      return out;
    };
    defineDocumentResource(router, {
      ...documento('/pre-requisicoes', preRequisicoes, 'pré-requisição', 'pré-requisições'),
      flow: fluxoPreRequisicao,
      schema: preRequisicaoInputSchema,
      roles: papeisPre,
      // made from an accepted memorando (kit links): picker, POST /pre-requisicoes/de-memorando, the checks of
      // POST/PUT naming memorandoId, release on cancel; the memorando's authors are authors of the pré-requisição
      links: [deMemorando],
      items: {
        ...itens(preRequisicaoItens, preRequisicaoItens.preRequisicaoId, preRequisicoes.valorTotal),
        extra: {
          id: preRequisicaoItens.id,
          ...produtoExtra,
          // what requisições cover of the item (numeric), what is left, and which requisições converted it
          atendido: sql<string>`${atendimento.covered(preRequisicaoItens.id)}::numeric(15,4)::text`,
          pendente: sql<string>`greatest(${preRequisicaoItens.quantidade} - ${atendimento.covered(preRequisicaoItens.id)}, 0)::numeric(15,4)::text`,
          requisicoes: atendimento.coveringDocuments(preRequisicaoItens.id),
        },
      },
      duplicate: { reset: ['memorandoId'] },
      list: {
        ...lista(preRequisicoes),
        sortable: ['numero', 'data', 'status', 'centroCustoNome', 'solicitanteNome', 'valorTotal'],
        columns: [col.numero, col.data, col.status, col.centro, col.tipo, col.solicitante, col.valor],
        exportName: 'pre-requisicoes',
      },
    });

    // ---- requisições
    const req = defineDocumentResource(router, {
      ...documento('/requisicoes', requisicoes, 'requisição', 'requisições'),
      flow: fluxoRequisicao,
      schema: requisicaoInputSchema,
      roles: (row, ctx) => (pertence(ctx, row.centroCustoId) ? ['editor'] : []),
      // alçadas (kit): role 'aprovador', ?aguardandoMinha=1, levels on enviar/aprovar/reprovar/devolver, e-mails, /:id/aprovacao, the menu count
      approvals: aprovacao,
      list: {
        ...lista(requisicoes),
        extra: { ...lista(requisicoes).extra, centroCustoResponsavel: centro.responsavelNome },
        sortable: ['numero', 'data', 'status', 'categoria', 'centroCustoNome', 'solicitanteNome', 'valorTotal'],
        sets: { categoria: { column: requisicoes.categoria, values: CATEGORIAS } },
        columns: [
          ...[col.numero, col.data, col.status, categoria, col.centro, col.tipo, col.solicitante, { key: 'dotacao', header: 'Dotação' }, col.valor],
          ...[moeda('valorAprovado', 'Valor aprovado'), moeda('valorPesquisado', 'Valor pesquisado')],
        ],
        exportName: 'requisicoes',
      },
      // aprovar: `ciente: true` when the requisição has a dispensa alert (400 otherwise), recorded in the audit
      transitionBody: { aprovar: { ciente: z.boolean({ error: 'Informe se viu o alerta de limite de dispensa.' }).optional() } },
      toRow: ({ itens: _itens, ...header }) => header,
      // pré-requisição items covered by quantity (kit): checks and locks on save, status fed back and audited on
      // the pré-requisição, release on cancelar/reprovar; the authors of the pré-requisições are authors of the requisição
      coverage: atendimento,
      afterSave: (tx, id) => recalcularGrupos(tx, id),
      resolveTransition: async (tx, name, row, body, ctx) => {
        if (name !== 'aprovar') return undefined;
        // the dispensa alert is shown where the decision is taken and acknowledged: `ciente` (audited)
        const alertas = await alertasDaRequisicao(tx, ctx, String(row.id));
        if (alertas.length && body.ciente !== true) {
          throw new AppError(400, 'validation_error', 'Confirme que viu o alerta de limite de dispensa antes de aprovar.', {
            ciente: 'Marque que você viu o alerta de limite de dispensa (possível fracionamento) antes de aprovar.',
          });
        }
        return alertas.length ? { audit: { alertasDispensaVistos: alertasVistos(alertas) } } : undefined;
      },
      onTransition: async (tx, name, before) => {
        await recalcularGrupos(tx, String(before.id));
        // the moment of approval, in the approval's transaction (cleared should a transition ever leave 'aprovada')
        if (name === 'aprovar' || before.status === 'aprovada') await atualizarAprovadaEm(tx, String(before.id));
      },
      items: {
        ...itens(requisicaoItens, requisicaoItens.requisicaoId, requisicoes.valorTotal),
        extra: {
          ...produtoExtra,
          grupoId: produtos.grupoId,
          preRequisicao: sql`(SELECT json_build_object('id', p.id, 'numero', p.numero, 'ano', p.ano)
                                FROM pre_requisicao_itens pi JOIN pre_requisicoes p ON p.id = pi.pre_requisicao_id
                               WHERE pi.id = ${requisicaoItens.preRequisicaoItemId})`,
        },
      },
      expandOne: async (db, row, ctx) => ({ ...row, alertasDispensa: await alertasDaRequisicao(db, ctx, String(row.id)) }),
      oneShape: { alertasDispensa: z.array(alertaDispensaSchema) },
      // levels, returns and rejections with reasons, sources, dispensa alert, signatures of who acted (pdf.ts)
      pdf: requisicaoPdf,
    });

    router.route({
      method: 'get',
      path: '/requisicoes/:id/dispensa',
      tag,
      summary: 'Alerta de fracionamento (limite de dispensa)',
      description:
        'Para cada grupo dos itens: a soma do ano das requisições em aprovação e aprovadas da entidade, na categoria (esta incluída só se for uma delas; senão somada à parte em `totalComEsta`), quando passa do limite de dispensa do ano (art. 75 I/II).',
      request: { params: z.object({ id: z.string() }) },
      responses: { 200: alertasDispensaSchema, 404: { description: 'Não encontrada' } },
      handler: async (c, ctx) => {
        const row = await req.crud.readOne(ctx.db, c.req.valid('param').id, ctx);
        if (!row) throw notFound();
        return c.json({ items: await alertasDaRequisicao(ctx.db, ctx, String(row.id)) }, 200);
      },
    });

    // ---- administration (tag 3): approval levels and dispensa limits, audited by the CRUD kit
    defineCrudResource(router, {
      path: '/alcadas',
      tag: ADMIN_TAG,
      table: alcadas,
      label: { singular: 'alçada', plural: 'alçadas' },
      schema: alcadaInputSchema as unknown as z.ZodObject,
      references: { centroCustoId: referencias.centroCustoId },
      // the perfis and the people named must be of this entidade
      validate: async (tx, data, write) => {
        const fields: Record<string, string> = {};
        for (const [campo, tabela, coluna, message] of [
          ['perfis', 'perfis', 'id', 'Escolha perfis desta entidade.'],
          ['usuarios', 'usuario_entidades', 'usuario_id', 'Escolha usuários desta entidade.'],
          ['substitutos', 'usuario_entidades', 'usuario_id', 'Escolha usuários desta entidade.'],
        ] as const) {
          const ids = (data as Record<typeof campo, string[]>)[campo];
          if (!ids.length) continue;
          const { rows } = await tx.execute<{ n: number }>(
            sql`SELECT count(*)::int AS n FROM ${sql.identifier(tabela)} WHERE entidade_id = ${write.entidadeId}::uuid AND ${sql.identifier(coluna)} = ANY(${`{${ids.join(',')}}`}::uuid[])`,
          );
          if (Number(rows[0]?.n) !== new Set(ids).size) fields[campo] = message;
        }
        return Object.keys(fields).length ? fields : undefined;
      },
      unique: [{ fields: ['nivel', 'centroCustoId'], message: 'Já existe este nível para este centro de custo.' }],
      // the list's search: the level's number and name (a few rows per entidade: no stored search column)
      searchColumns: [sql`${alcadas.nivel}::text`, sql`${alcadas.nome}`],
      sortable: ['nivel', 'valorMinimo', 'nome'],
      defaultSort: 'nivel',
      extra: { valorMinimoTexto: sql<string>`${alcadas.valorMinimo}::text` },
      columns: [{ key: 'nivel', header: 'Nível' }, { key: 'nome', header: 'Nome' }, moeda('valorMinimo', 'A partir de (R$)')],
    });
    defineCrudResource(router, {
      path: '/limites-dispensa',
      tag: ADMIN_TAG,
      table: limitesDispensa,
      label: { singular: 'limite de dispensa', plural: 'limites de dispensa' },
      schema: limiteDispensaInputSchema,
      unique: [{ fields: ['ano', 'categoria'], message: 'Já existe o limite deste ano para esta categoria.' }],
      // the list's search: the year, the category as the page shows it and its legal basis ('obras',
      // 'engenharia', 'art. 75, II'); a few rows per entidade: no stored search column
      searchColumns: [sql`${limitesDispensa.ano}::text`, categoriaTexto(limitesDispensa.categoria)],
      sortable: ['ano', 'categoria', 'valor'],
      defaultSort: '-ano',
      columns: [{ key: 'ano', header: 'Ano' }, categoria, moeda('valor', 'Limite (R$)')],
    });
  },
  seed: seedRequisicoes,
});
