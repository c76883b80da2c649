// The PCA on the home page (the kit's INDICADORES point): what the year's requisições ask for against
// what the year's approved plans set aside, in the person's scope, leading to the plan by category.
import { today } from '@app/br';
import { formatMoney } from '@app/documents';
import { requisicoes } from '@app/requisicoes/server';
import { REQUISICAO_CONTA_DISPENSA } from '@app/requisicoes/shared';
import { type IndicadorProvider, centroCustoScope } from '@app/server-core';
import { and, eq, inArray, isNull, sql } from '@app/server-core/orm';
import { PCA_TAG, type PcaStatus } from '../shared/index.js';
import { escopoDosPlanos } from './relatorios.js';
import { pcaItens, pcaPlanos } from './tables.js';

/** Plans whose items stand approved: approved, published, and those under revision (approved before). */
const PLANO_VALE: readonly PcaStatus[] = ['aprovado', 'publicado', 'em_revisao'];

export const gastoContraPlano: IndicadorProvider = {
  id: 'pca.gasto-contra-plano',
  label: 'Solicitado no ano × Plano de Contratações Anual',
  href: '/reports/pca.por-categoria',
  tag: PCA_TAG,
  async medir(ctx) {
    const ano = Number(today().slice(0, 4));
    const planejado = ctx.db
      .select({ valor: sql<string | null>`sum(${pcaItens.valorTotal})`.as('planejado_valor') })
      .from(pcaItens)
      .innerJoin(pcaPlanos, eq(pcaPlanos.id, pcaItens.planoId))
      .where(
        and(
          eq(pcaPlanos.entidadeId, ctx.entidadeId),
          eq(pcaPlanos.anoPca, ano),
          inArray(pcaPlanos.status, [...PLANO_VALE]),
          isNull(pcaItens.recusaMotivo),
          escopoDosPlanos(ctx),
        ),
      )
      .as('planejado');
    const solicitado = ctx.db
      .select({ valor: sql<string | null>`sum(${requisicoes.valorTotal})`.as('solicitado_valor') })
      .from(requisicoes)
      .where(
        and(
          eq(requisicoes.entidadeId, ctx.entidadeId),
          eq(requisicoes.ano, ano),
          inArray(requisicoes.status, [...REQUISICAO_CONTA_DISPENSA]),
          centroCustoScope(ctx, requisicoes.centroCustoId),
        ),
      )
      .as('solicitado');
    // exact in SQL: numeric sums and comparisons; the percentage cut (never rounded up) to one place for showing
    const [linha] = await ctx.db
      .select({
        planejado: sql<string>`coalesce(${planejado.valor}, 0)::text`,
        solicitado: sql<string>`coalesce(${solicitado.valor}, 0)::text`,
        percentual: sql<
          string | null
        >`CASE WHEN coalesce(${planejado.valor}, 0) > 0 THEN trunc(coalesce(${solicitado.valor}, 0) * 100 / ${planejado.valor}, 1)::text END`,
        acima: sql<boolean>`coalesce(${solicitado.valor}, 0) > coalesce(${planejado.valor}, 0)`,
        perto: sql<boolean>`coalesce(${solicitado.valor}, 0) * 100 >= coalesce(${planejado.valor}, 0) * 80`,
      })
      .from(planejado)
      .crossJoin(solicitado);
    const { planejado: p, solicitado: s, percentual, acima, perto } = linha!;
    const valor = `${formatMoney(s)} de ${formatMoney(p)}`;
    const href = `/reports/pca.por-categoria?ano=${ano}`;
    if (percentual === null) {
      if (Number(s) === 0) return null;
      return { valor, href, nivel: 'atencao', detalhe: `Requisições de ${ano} sem plano aprovado para o ano.` };
    }
    const texto = `${percentual.replace('.', ',')} % do planejado para ${ano}`;
    if (acima) return { valor, href, nivel: 'critico', detalhe: `${texto}: acima do plano.` };
    if (perto) return { valor, href, nivel: 'atencao', detalhe: `${texto}: perto do total do plano.` };
    return { valor, href, nivel: 'normal', detalhe: `${texto}.` };
  },
};
