// Pendências at /reports (the kit's RELATORIOS point, group 'Pendências'): the demands not yet taken to
// their next step, each with its age in days (from the document's date to today in America/Sao_Paulo),
// oldest first, in the person's centros de custo. Requisições contribute the two they can read:
// memorandos aceitos with no live pré-requisição (read through @app/memorandos' exported tables; the
// link is pre_requisicoes.memorando_id, this plugin's own), and pré-requisições enviadas or
// parcialmente atendidas, whose items still wait for requisições. (Requisições aprovadas without a
// cotação are contributed by cotações, the plugin that knows the cotações.)
import { today } from '@app/br';
import { formatNumero } from '@app/documents';
import { memorandos } from '@app/memorandos/server';
import { centroCustoFiltro, centrosCusto } from '@app/registros/server';
import { centroCustoScope } from '@app/server-core';
import { and, asc, eq, inArray, ne, or, sql } from '@app/server-core/orm';
import { PRE_REQUISICAO_CONVERSIVEL, type PreRequisicaoStatus, fluxoPreRequisicao } from '../shared/index.js';
import { relatorio } from './relatorios.js';
import { preRequisicoes } from './tables.js';

/** A pendência: a document waiting for its next step, with its age (the same columns in both reports). */
const pendencia = (report: Omit<Parameters<typeof relatorio>[1], 'columns'>) =>
  relatorio('Pendências', {
    ...report,
    columns: [
      { key: 'documento', label: 'Documento' },
      { key: 'data', label: 'Data', type: 'date' },
      { key: 'secretaria', label: 'Secretaria' },
      { key: 'solicitante', label: 'Solicitante' },
      { key: 'objeto', label: 'Objeto' },
      { key: 'situacao', label: 'Situação' },
      { key: 'idade', label: 'Idade (dias)', type: 'integer' },
    ],
  });

/**
 * What both read of a document: its number, its date and age (days to today in São Paulo: a date minus a
 * date is an integer in PostgreSQL), the centro joined, the solicitante and the object.
 */
const documento = (t: typeof memorandos | typeof preRequisicoes, objeto: typeof memorandos.assunto | typeof preRequisicoes.justificativa) => ({
  numero: t.numero,
  ano: t.ano,
  data: t.data,
  secretaria: centrosCusto.nome,
  solicitante: t.solicitanteNome,
  objeto,
  idade: sql<number>`(${today()}::date - ${t.data})::int`,
});

export const memorandosSemPreRequisicao = pendencia({
  id: 'requisicoes.memorandos-sem-pre-requisicao',
  title: 'Memorandos aceitos sem pré-requisição',
  description:
    'Memorandos aceitos que ainda não deram origem a uma pré-requisição (uma cancelada não conta), com a idade em dias desde a data do memorando; os de origem ou destino nos seus centros de custo.',
  filters: [centroCustoFiltro],
  async load(ctx, f, limit) {
    const rows = await ctx.db
      .select(documento(memorandos, memorandos.assunto))
      .from(memorandos)
      .innerJoin(centrosCusto, eq(centrosCusto.id, memorandos.origemId))
      .where(
        and(
          eq(memorandos.entidadeId, ctx.entidadeId),
          eq(memorandos.status, 'aceito'),
          centroCustoScope(ctx, memorandos.origemId, memorandos.destinoId),
          f.centro ? or(eq(memorandos.origemId, f.centro), eq(memorandos.destinoId, f.centro)) : undefined,
          sql`NOT EXISTS (SELECT 1 FROM ${preRequisicoes} WHERE ${preRequisicoes.memorandoId} = ${memorandos.id} AND ${ne(preRequisicoes.status, 'cancelada')})`,
        ),
      )
      .orderBy(asc(memorandos.data), asc(memorandos.ano), asc(memorandos.numero))
      .limit(limit);
    return rows.map(({ numero, ano, ...r }) => ({ ...r, documento: formatNumero(numero, ano), situacao: 'Aceito, sem pré-requisição' }));
  },
});

export const preRequisicoesEmAberto = pendencia({
  id: 'requisicoes.pre-requisicoes-em-aberto',
  title: 'Pré-requisições não convertidas em requisições',
  description:
    'Pré-requisições enviadas ou parcialmente atendidas, cujos itens ainda esperam requisições, com a idade em dias desde a data da pré-requisição; as dos seus centros de custo.',
  filters: [
    centroCustoFiltro,
    {
      name: 'situacao',
      label: 'Situação',
      kind: 'select',
      options: PRE_REQUISICAO_CONVERSIVEL.map((value) => ({ value, label: fluxoPreRequisicao.states[value].label })),
    },
  ],
  async load(ctx, f, limit) {
    const rows = await ctx.db
      .select({ ...documento(preRequisicoes, preRequisicoes.justificativa), status: preRequisicoes.status })
      .from(preRequisicoes)
      .innerJoin(centrosCusto, eq(centrosCusto.id, preRequisicoes.centroCustoId))
      .where(
        and(
          eq(preRequisicoes.entidadeId, ctx.entidadeId),
          inArray(preRequisicoes.status, f.situacao ? [f.situacao as PreRequisicaoStatus] : [...PRE_REQUISICAO_CONVERSIVEL]),
          centroCustoScope(ctx, preRequisicoes.centroCustoId),
          f.centro ? eq(preRequisicoes.centroCustoId, f.centro) : undefined,
        ),
      )
      .orderBy(asc(preRequisicoes.data), asc(preRequisicoes.ano), asc(preRequisicoes.numero))
      .limit(limit);
    return rows.map(({ numero, ano, status, ...r }) => ({
      ...r,
      documento: formatNumero(numero, ano),
      situacao: fluxoPreRequisicao.states[status].label,
    }));
  },
});
