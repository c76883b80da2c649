// Requisições on the home page (the kit's INDICADORES point), each leading to what details it:
// - the grupos of the catalogue near (≥ 80 %) or over the year's dispensa limit, counted by the
//   'Acumulado de dispensa' report itself (one computation of the figure), in the person's scope;
// - the approvals kit's queue: requisições waiting for the person's decision longer than 5 days.
import { today } from '@app/br';
import type { IndicadorProvider } from '@app/server-core';
import { REQUISICOES_TAG } from '../shared/index.js';
import { aprovacao } from './aprovacao.js';
import { SITUACAO_DISPENSA, dispensaAcumulado } from './relatorios.js';

export const gruposPertoDoLimite: IndicadorProvider = {
  id: 'requisicoes.dispensa',
  label: 'Grupos perto do limite de dispensa',
  href: '/reports/requisicoes.dispensa-acumulado',
  tag: REQUISICOES_TAG,
  async medir(ctx) {
    const ano = today().slice(0, 4);
    const linhas = await dispensaAcumulado.load(ctx, { ano }, Number.MAX_SAFE_INTEGER);
    if (linhas.length === 0) return null;
    const acima = linhas.filter((l) => l.situacao === SITUACAO_DISPENSA.acima).length;
    const perto = linhas.filter((l) => l.situacao === SITUACAO_DISPENSA.perto).length;
    const href = `/reports/requisicoes.dispensa-acumulado?ano=${ano}`;
    const grupos = (n: number) => `${n} ${n === 1 ? 'grupo' : 'grupos'}`;
    if (acima + perto === 0)
      return { valor: '0', nivel: 'normal', href, detalhe: `Nenhum dos ${grupos(linhas.length)} com requisições em ${ano} chega a 80 % do limite.` };
    const partes = [perto ? `${grupos(perto)} com 80 % ou mais do limite` : '', acima ? `${grupos(acima)} acima do limite` : ''].filter(Boolean);
    return { valor: grupos(acima + perto), nivel: acima ? 'critico' : 'atencao', href, detalhe: `Em ${ano}: ${partes.join(', ')}.` };
  },
};

export const aprovacoesParadas: IndicadorProvider = aprovacao.indicador({
  id: 'requisicoes.aprovacoes-paradas',
  label: 'Aprovações paradas há mais de 5 dias',
  href: '/requisicao?aguardandoMinha=1',
  dias: 5,
  documentos: { um: 'requisição', varios: 'requisições' },
});
