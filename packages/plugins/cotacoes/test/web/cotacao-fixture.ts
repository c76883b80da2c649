// A GET /cotacoes/:id/mapa answer for the page tests of the collection page and the mapa comparativo,
// typed by MapaCotacao: 3 items, 4 invited suppliers (one with an expired quote, one that did not
// answer), prices of other sources (one an outlier), one winner chosen by a person, one item with
// fewer than three valid prices. The evaluation is written out as the server would answer it.
import { onTestFinished, vi } from 'vitest';
import type { CotacaoCabecalho, MapaCotacao, PrecoListado, SituacaoPreco } from '../../src/shared/index';

export const COT = '00000000-0000-4000-8000-0000000000c1';
export const P1 = '00000000-0000-4000-8000-0000000000a1';
export const P2 = '00000000-0000-4000-8000-0000000000a2';
export const P3 = '00000000-0000-4000-8000-0000000000a3';
export const F1 = '00000000-0000-4000-8000-0000000000f1';
export const F2 = '00000000-0000-4000-8000-0000000000f2';
export const F3 = '00000000-0000-4000-8000-0000000000f3';
export const F4 = '00000000-0000-4000-8000-0000000000f4';
export const C1 = '00000000-0000-4000-8000-0000000000b1';
export const C2 = '00000000-0000-4000-8000-0000000000b2';
export const C3 = '00000000-0000-4000-8000-0000000000b3';
export const C4 = '00000000-0000-4000-8000-0000000000b4';
/** Price ids: item × supplier (fornecedor) or item × source. */
export const PR = {
  p1f1: '00000000-0000-4000-8000-000000000111',
  p1f2: '00000000-0000-4000-8000-000000000112',
  p1f4: '00000000-0000-4000-8000-000000000114',
  p1midia: '00000000-0000-4000-8000-000000000121',
  p1painel: '00000000-0000-4000-8000-000000000122',
  p1contrato: '00000000-0000-4000-8000-000000000123',
  p2f1: '00000000-0000-4000-8000-000000000211',
  p2f2: '00000000-0000-4000-8000-000000000212',
  p2nota: '00000000-0000-4000-8000-000000000221',
  p3f1: '00000000-0000-4000-8000-000000000311',
  p3f4: '00000000-0000-4000-8000-000000000314',
  p3painel: '00000000-0000-4000-8000-000000000321',
} as const;

export const NOMES = { [F1]: 'Alfa Papelaria Ltda', [F2]: 'Beta Comércio de Papéis', [F3]: 'Gama Distribuidora', [F4]: 'Delta Suprimentos' } as Record<
  string,
  string
>;
export const MAPA_URL = `/api/cotacoes/cotacoes/${COT}/mapa`;
export const BASE = `/api/cotacoes/cotacoes/${COT}`;

const convite = (id: string, fornecedorId: string, over: Partial<MapaCotacao['convites'][number]> = {}): MapaCotacao['convites'][number] => ({
  id,
  fornecedorId,
  fornecedorNome: NOMES[fornecedorId]!,
  fornecedorDocumento: '11222333000181',
  fornecedorEmail: 'vendas@example.com',
  situacao: 'respondeu',
  motivoEscolha: null,
  motivoNaoResposta: null,
  convidadoEm: '2026-02-20T12:00:00.000Z',
  dataProposta: '2026-02-25T13:00:00.000Z',
  validade: '2026-06-30',
  precos: 3,
  ...over,
});

const preco = (id: string, produtoId: string, valorUnitario: string, over: Partial<PrecoListado> = {}): PrecoListado => ({
  id,
  produtoId,
  fonte: 'fornecedor',
  fonteDescricao: over.fornecedorId ? `Proposta de ${NOMES[over.fornecedorId]}` : 'Fonte',
  fornecedorId: null,
  fornecedorNome: over.fornecedorId ? NOMES[over.fornecedorId]! : null,
  valorUnitario,
  marca: null,
  dataColeta: '2026-02-25T13:00:00.000Z',
  validade: null,
  link: null,
  evidencia: null,
  coletadoPorNome: 'Maria Souza',
  inclusaoMotivo: null,
  exclusaoMotivo: null,
  version: 1,
  ...over,
});

const usado = (precoId: string): SituacaoPreco => ({ precoId, valido: true, usado: true, exclusao: null, motivo: null, incluidoPorDecisao: false });

export function mapaDeExemplo(over: { cotacao?: Partial<CotacaoCabecalho>; podeEditar?: boolean; podeAprovarJustificativa?: boolean } = {}): MapaCotacao {
  return {
    cotacao: {
      id: COT,
      numero: 12,
      ano: 2026,
      status: 'em_coleta',
      objeto: 'Material de expediente para as escolas municipais',
      centroCustoId: '00000000-0000-4000-8000-0000000000d1',
      centroCustoNome: '02 – Secretaria de Educação',
      requisicaoId: null,
      requisicaoNumero: '7/2026',
      dataReferencia: '2026-03-01',
      prazo: '2026-03-10T20:00:00.000Z',
      metodo: 'media_saneada',
      iterar: false,
      observacoes: null,
      responsavelNome: 'Maria Souza',
      justificativa: null,
      justificativaPorNome: null,
      justificativaEm: null,
      justificativaAprovadaPorNome: null,
      justificativaAprovadaEm: null,
      justificativaAnuladaEm: null,
      justificativaAnuladaAprovador: null,
      justificativaAnuladaMotivo: null,
      valorTotal: '0.00',
      concluidaEm: null,
      version: 4,
      ...over.cotacao,
    },
    itens: [
      {
        id: 'i1',
        produtoId: P1,
        ordem: 1,
        codigo: '0001',
        descricao: 'Papel sulfite A4',
        unidade: 'RESMA',
        quantidade: '100',
        valorReferencia: '30.0000',
        requisicaoItemId: null,
        codigoCatalogo: null,
      },
      {
        id: 'i2',
        produtoId: P2,
        ordem: 2,
        codigo: '0002',
        descricao: 'Caneta esferográfica azul',
        unidade: 'UN',
        quantidade: '500',
        valorReferencia: '0',
        requisicaoItemId: null,
        codigoCatalogo: null,
      },
      {
        id: 'i3',
        produtoId: P3,
        ordem: 3,
        codigo: '0003',
        descricao: 'Grampeador de mesa',
        unidade: 'UN',
        quantidade: '10',
        valorReferencia: '0',
        requisicaoItemId: null,
        codigoCatalogo: null,
      },
    ],
    convites: [
      convite(C1, F1),
      convite(C2, F2, { validade: '2026-01-10', dataProposta: '2025-12-10T13:00:00.000Z', precos: 2 }),
      convite(C3, F3, { situacao: 'nao_respondeu', motivoNaoResposta: 'Sem retorno após dois contatos.', dataProposta: null, validade: null, precos: 0 }),
      convite(C4, F4, { validade: '2026-12-31', precos: 2 }),
    ],
    precos: [
      preco(PR.p1f1, P1, '25.5', { fornecedorId: F1, marca: 'Chamex' }),
      preco(PR.p1f2, P1, '24', { fornecedorId: F2, validade: '2026-01-10', dataColeta: '2025-12-10T13:00:00.000Z' }),
      preco(PR.p1f4, P1, '26.4', { fornecedorId: F4 }),
      preco(PR.p1midia, P1, '27.9', {
        fonte: 'midia',
        fonteDescricao: 'Loja Exemplo',
        link: 'https://loja.example.com/papel',
        evidencia: { id: '00000000-0000-4000-8000-0000000000e1', nome: 'loja-papel.pdf', tipo: 'application/pdf', tamanho: 1200, sha256: 'ab'.repeat(32) },
      }),
      preco(PR.p1painel, P1, '26', { fonte: 'painel', fonteDescricao: 'Painel de Preços, compra 90012/2025' }),
      preco(PR.p1contrato, P1, '40', { fonte: 'contrato', fonteDescricao: 'Contrato 15/2025 da Prefeitura Vizinha' }),
      preco(PR.p2f1, P2, '1.2', { fornecedorId: F1 }),
      preco(PR.p2f2, P2, '1.1', { fornecedorId: F2, validade: '2026-01-10', exclusaoMotivo: 'Marca não atende à especificação.' }),
      preco(PR.p2nota, P2, '1.35', { fonte: 'nota_fiscal', fonteDescricao: 'NF-e 4512 de Papelaria Central' }),
      preco(PR.p3f1, P3, '45', { fornecedorId: F1 }),
      preco(PR.p3f4, P3, '48', { fornecedorId: F4 }),
      preco(PR.p3painel, P3, '50', { fonte: 'painel', fonteDescricao: 'Painel de Preços, compra 1234/2025' }),
    ],
    vencedores: [
      {
        produtoId: P3,
        precoId: PR.p3f4,
        motivo: 'Prazo de entrega menor e garantia estendida.',
        escolhidoPorNome: 'Maria Souza',
        escolhidoEm: '2026-03-02T12:00:00.000Z',
      },
    ],
    avaliacao: {
      precos: [
        usado(PR.p1f1),
        {
          precoId: PR.p1f2,
          valido: false,
          usado: false,
          exclusao: 'vencido',
          motivo: 'Proposta vencida em 10/01/2026, antes da data de referência (01/03/2026).',
          incluidoPorDecisao: false,
        },
        usado(PR.p1f4),
        usado(PR.p1midia),
        usado(PR.p1painel),
        { precoId: PR.p1contrato, valido: true, usado: false, exclusao: 'estatistica', motivo: 'Acima de média + 1 DP (R$ 35,34).', incluidoPorDecisao: false },
        usado(PR.p2f1),
        { precoId: PR.p2f2, valido: false, usado: false, exclusao: 'manual', motivo: 'Marca não atende à especificação.', incluidoPorDecisao: false },
        usado(PR.p2nota),
        usado(PR.p3f1),
        usado(PR.p3f4),
        usado(PR.p3painel),
      ],
      itens: [
        {
          produtoId: P1,
          estatisticas: { n: 5, media: '29.16', mediana: '26.40', menor: '25.5', maior: '40', desvioPadrao: '6.18', cv: '21.2' },
          estatisticasFinais: { n: 4, media: '26.45', mediana: '26.20', menor: '25.5', maior: '27.9', desvioPadrao: '1.03', cv: '3.9' },
          valorEstimado: '26.45',
          valorTotal: '2645.00',
          criterio: 'CV dos restantes 3,9% ≤ 25%: média dos 4 preços mantidos.',
          rodadas: [
            {
              rodada: 1,
              estatisticas: { n: 5, media: '29.16', mediana: '26.40', menor: '25.5', maior: '40', desvioPadrao: '6.18', cv: '21.2' },
              limiteInferior: '22.98',
              limiteSuperior: '35.34',
              mantidos: [PR.p1f1, PR.p1f4, PR.p1midia, PR.p1painel],
              descartados: [PR.p1contrato],
            },
          ],
          parada: 'uma_vez',
          menosDeTres: false,
          vencedor: { precoId: PR.p1f1, fornecedorId: F1, valorUnitario: '25.5', valorTotal: '2550.00', escolhido: false, motivo: null },
          menores: [PR.p1f1],
        },
        {
          produtoId: P2,
          estatisticas: { n: 2, media: '1.28', mediana: '1.28', menor: '1.2', maior: '1.35', desvioPadrao: '0.11', cv: '8.3' },
          estatisticasFinais: { n: 2, media: '1.28', mediana: '1.28', menor: '1.2', maior: '1.35', desvioPadrao: '0.11', cv: '8.3' },
          valorEstimado: '1.28',
          valorTotal: '640.00',
          criterio: 'CV dos restantes 8,3% ≤ 25%: média dos 2 preços mantidos.',
          rodadas: [],
          parada: 'uma_vez',
          menosDeTres: true,
          vencedor: { precoId: PR.p2f1, fornecedorId: F1, valorUnitario: '1.2', valorTotal: '600.00', escolhido: false, motivo: null },
          menores: [PR.p2f1],
        },
        {
          produtoId: P3,
          estatisticas: { n: 3, media: '47.67', mediana: '48.00', menor: '45', maior: '50', desvioPadrao: '2.52', cv: '5.3' },
          estatisticasFinais: { n: 3, media: '47.67', mediana: '48.00', menor: '45', maior: '50', desvioPadrao: '2.52', cv: '5.3' },
          valorEstimado: '47.67',
          valorTotal: '476.70',
          criterio: 'CV dos restantes 5,3% ≤ 25%: média dos 3 preços mantidos.',
          rodadas: [],
          parada: 'uma_vez',
          menosDeTres: false,
          vencedor: {
            precoId: PR.p3f4,
            fornecedorId: F4,
            valorUnitario: '48',
            valorTotal: '480.00',
            escolhido: true,
            motivo: 'Prazo de entrega menor e garantia estendida.',
          },
          menores: [PR.p3f1],
        },
      ],
      fornecedores: [
        { fornecedorId: F1, totalCotado: '3600.00', totalVencido: '3150.00', itensCotados: 3, itensVencidos: 2 },
        { fornecedorId: F2, totalCotado: '0.00', totalVencido: '0.00', itensCotados: 0, itensVencidos: 0 },
        { fornecedorId: F3, totalCotado: '0.00', totalVencido: '0.00', itensCotados: 0, itensVencidos: 0 },
        { fornecedorId: F4, totalCotado: '3120.00', totalVencido: '480.00', itensCotados: 2, itensVencidos: 1 },
      ],
      valorEstimadoTotal: '3761.70',
      valorVencedoresTotal: '3630.00',
      itensMenosDeTres: [P2],
    },
    podeEditar: over.podeEditar ?? true,
    podeAprovarJustificativa: over.podeAprovarJustificativa ?? false,
  };
}

/**
 * Downloads in jsdom (no object URLs, no navigation): URL.createObjectURL stubbed and the anchor's
 * click caught; undone when the test ends. The spy's `mock.contexts` are the clicked anchors.
 */
export function stubDownloads() {
  const had = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
  Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:arquivo'), revokeObjectURL: vi.fn() });
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
  onTestFinished(() => {
    click.mockRestore();
    Object.assign(URL, { createObjectURL: had.create, revokeObjectURL: had.revoke });
  });
  return click;
}
