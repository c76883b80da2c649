// The suggested quantity of a product for the plan's year (GET /planos/:id/sugestao?produtoId=&fator=):
// the consumo médio mensal of the last 12 whole months before today (America/Sao_Paulo) × 12 × the factor,
// rounded up to the unit of supply, with the quantities of the plan's 3 previous calendar years beside it.
// Read only over @app/requisicoes' tables: the lines of the approved requisições (as @app/analise counts
// consumption) of the person's centros de custo, in the entidade — the plan is made by the setor de
// contratações for the areas' demand, so the areas' requisições are what it plans for, and a person limited
// to some centros sees only theirs (the row scope of every figure). A line counts at the moment of its
// approval, the requisição's `aprovada_em` (kept by @app/requisicoes: the last approval of the round; the
// requisição's date for one approved before it was stored with no approval in its round), as @app/analise
// dates consumption.
// Sums, product and rounding by the database on numeric: no float.
import { TIME_ZONE, today } from '@app/br';
import { parseCanonical } from '@app/documents';
import { produtos } from '@app/produtos/server';
import { unidades } from '@app/registros/server';
import { requisicoes } from '@app/requisicoes/server';
import { AppError, type DbOrTx, type DocumentResource, type PluginRouter, type RequestContext, centroCustoScope } from '@app/server-core';
import { and, eq, sql } from '@app/server-core/orm';
import { z } from 'zod';
import { PCA_PATH, PCA_TAG, type SugestaoQuantidade, sugestaoQuerySchema, sugestaoSchema } from '../shared/index.js';

const TZ = sql.raw(`'${TIME_ZONE}'`);
/** The catalogue has no quantity multiple per product or unidade: the suggestion is rounded up to a whole unit. */
const MULTIPLO = '1';
const ANOS = 3;

const mes = (a: number, m: number) => `${a}-${String(m).padStart(2, '0')}`;

/** The last 12 whole months before `hoje` ('AAAA-MM-DD'): from the first day of `de` to the first day of the current month (exclusive). */
function dozeMeses(hoje: string): { de: string; ate: string; inicio: string; fim: string } {
  const [a, m] = hoje.split('-').map(Number) as [number, number];
  const [aa, ma] = m === 1 ? [a - 1, 12] : [a, m - 1];
  return { de: mes(a - 1, m), ate: mes(aa, ma), inicio: `${mes(a - 1, m)}-01`, fim: `${mes(a, m)}-01` };
}

/** '10.5000' → '10.5', '0E-20'/null → '0'. */
const exato = (text: string | null | undefined) => parseCanonical(text ?? '0') ?? '0';

type Linha = { total: string; media: string; sugerida: string } & Record<`a${number}`, string>;

async function sugestao(
  db: DbOrTx,
  ctx: Pick<RequestContext, 'entidadeId' | 'todosCentros' | 'leituraControleInterno' | 'centrosCusto'>,
  plano: { anoPca: number },
  produto: { id: string; unidadeSigla: string; unidadeDescricao: string },
  fator: string,
  hoje: string = today(),
): Promise<SugestaoQuantidade> {
  const janela = dozeMeses(hoje);
  const anos = Array.from({ length: ANOS }, (_, i) => plano.anoPca - 1 - i);
  const instante = (dia: string) => sql`(${dia}::timestamp AT TIME ZONE ${TZ})`;
  const noPeriodo = sql`l.em >= ${instante(janela.inicio)} AND l.em < ${instante(janela.fim)}`;
  const doAno = (ano: number) =>
    sql`coalesce(sum(l.quantidade) FILTER (WHERE l.em >= ${instante(`${ano}-01-01`)} AND l.em < ${instante(`${ano + 1}-01-01`)}), 0)::text AS ${sql.raw(`a${ano}`)}`;
  const total = sql`coalesce(sum(l.quantidade) FILTER (WHERE ${noPeriodo}), 0)`;
  const { rows } = await db.execute<Linha>(sql`WITH l AS (
      SELECT i.quantidade, requisicoes.aprovada_em AS em
        FROM requisicoes
        JOIN requisicao_itens i ON i.requisicao_id = requisicoes.id
       WHERE requisicoes.entidade_id = ${ctx.entidadeId} AND ${centroCustoScope(ctx, requisicoes.centroCustoId) ?? sql`true`}
         AND requisicoes.status = 'aprovada' AND i.produto_id = ${produto.id} AND i.entidade_id = ${ctx.entidadeId})
    SELECT ${total}::text AS total,
           round(${total} / 12, 4)::text AS media,
           (ceil(${total} * ${fator}::numeric / ${MULTIPLO}::numeric) * ${MULTIPLO}::numeric)::text AS sugerida,
           ${sql.join(anos.map(doAno), sql`, `)}
      FROM l`);
  const linha = rows[0]!;
  const porAno = anos.map((ano) => ({ ano, quantidade: exato(linha[`a${ano}`]) }));
  const totalDozeMeses = exato(linha.total);
  return {
    anoPca: plano.anoPca,
    unidade: { sigla: produto.unidadeSigla, descricao: produto.unidadeDescricao },
    periodo: { de: janela.de, ate: janela.ate },
    totalDozeMeses,
    mediaMensal: exato(linha.media),
    fator,
    multiplo: MULTIPLO,
    quantidade: exato(linha.sugerida),
    anos: porAno,
    semConsumo: totalDozeMeses === '0' && porAno.every((a) => a.quantidade === '0'),
  };
}

export function registrarSugestao(router: PluginRouter, plano: DocumentResource) {
  router.route({
    method: 'get',
    path: `${PCA_PATH}/:id/sugestao`,
    tag: PCA_TAG,
    summary: 'Sugestão de quantidade de um produto para o ano do plano',
    description:
      'Consumo médio mensal dos últimos 12 meses completos (America/Sao_Paulo) × 12 × fator (padrão 1), arredondado para cima à unidade de fornecimento ' +
      '(o catálogo não tem múltiplo: unidade inteira), com as quantidades dos 3 anos anteriores ao do plano. Itens das requisições que contam ' +
      '(em aprovação e aprovadas) do centro de custo do plano, pela data da aprovação.',
    request: { params: z.object({ id: z.string() }), query: sugestaoQuerySchema },
    responses: { 200: sugestaoSchema, 404: { description: 'Não encontrado' } },
    handler: async (c, ctx) => {
      const { produtoId, fator } = c.req.valid('query');
      const row = await plano.crud.readOne(ctx.db, c.req.valid('param').id, ctx);
      if (!row) throw new AppError(404, 'not_found', 'Não encontrado.');
      const [produto] = await ctx.db
        .select({ id: produtos.id, unidadeSigla: unidades.sigla, unidadeDescricao: unidades.descricao })
        .from(produtos)
        .innerJoin(unidades, eq(unidades.id, produtos.unidadeId))
        .where(and(eq(produtos.id, produtoId), eq(produtos.entidadeId, ctx.entidadeId)))
        .limit(1);
      if (!produto) throw new AppError(404, 'not_found', 'Produto ou serviço não encontrado.');
      const feito = await sugestao(ctx.db, ctx, { anoPca: Number(row.anoPca) }, produto, fator ?? '1');
      return c.json(feito, 200);
    },
  });
}
