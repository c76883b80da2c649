// Cotações on the home page (the kit's INDICADORES point): the cotações em coleta, in the person's
// centros, with an item short of MINIMO_PRECOS valid prices (the rule of avaliarCotacao, in SQL as the
// 'cotacoes.cotacoes' report counts it), leading to that report filtered the same way.
import { type IndicadorProvider, centroCustoScope } from '@app/server-core';
import { and, count, eq, sql } from '@app/server-core/orm';
import { COTACOES_TAG, MINIMO_PRECOS } from '../shared/index.js';
import { itensAbaixoDoMinimo } from './relatorios.js';
import { cotacoes } from './tables.js';

export const cotacoesComPoucosPrecos: IndicadorProvider = {
  id: 'cotacoes.poucos-precos',
  label: `Cotações em coleta com menos de ${MINIMO_PRECOS} preços válidos`,
  href: '/reports/cotacoes.cotacoes?situacao=em_coleta&precos=poucos',
  tag: COTACOES_TAG,
  async medir(ctx) {
    const [linha] = await ctx.db
      .select({ emColeta: count(), abaixo: sql<number>`count(*) FILTER (WHERE ${itensAbaixoDoMinimo} > 0)::int` })
      .from(cotacoes)
      .where(and(eq(cotacoes.entidadeId, ctx.entidadeId), eq(cotacoes.status, 'em_coleta'), centroCustoScope(ctx, cotacoes.centroCustoId)));
    const emColeta = Number(linha?.emColeta ?? 0);
    const abaixo = Number(linha?.abaixo ?? 0);
    if (emColeta === 0) return null;
    const de = `${abaixo} de ${emColeta} ${emColeta === 1 ? 'cotação' : 'cotações'} em coleta`;
    if (abaixo === 0) return { valor: '0', nivel: 'normal', detalhe: `Todas as cotações em coleta têm ao menos ${MINIMO_PRECOS} preços válidos por item.` };
    return {
      valor: String(abaixo),
      nivel: 'atencao',
      detalhe: `${de} ${abaixo === 1 ? 'tem' : 'têm'} item com menos de ${MINIMO_PRECOS} preços válidos: colete mais preços ou justifique.`,
    };
  },
};
