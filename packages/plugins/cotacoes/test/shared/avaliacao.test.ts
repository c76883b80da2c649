// The evaluation of a cotação (pure): which prices count (manual decisions, age in São Paulo's
// calendar, quote validity), the method per item, the winners and the totals.
import { describe, expect, it } from 'vitest';
import { avaliarCotacao, type EntradaAvaliacao, type ItemAvaliado, limiteDeIdade, type PrecoAvaliado } from '../../src/shared/avaliacao';

const REF = '2026-05-12';

const item = (produtoId: string, quantidade = '1', ordem = 1): ItemAvaliado => ({
  produtoId,
  ordem,
  codigo: produtoId.toUpperCase(),
  descricao: `Produto ${produtoId}`,
  unidade: 'UN',
  quantidade,
});

let seq = 0;
/** A price; defaults: a site price collected at noon (São Paulo) of the reference date. */
const preco = (p: Partial<PrecoAvaliado> & { produtoId: string; valorUnitario: string }): PrecoAvaliado => ({
  id: p.id ?? `preco-${++seq}`,
  fonte: 'midia',
  fornecedorId: null,
  dataColeta: '2026-05-12T15:00:00Z',
  validade: null,
  inclusaoMotivo: null,
  exclusaoMotivo: null,
  ...p,
});
/** A supplier quote. */
const cotado = (id: string, produtoId: string, fornecedorId: string, valorUnitario: string, extra: Partial<PrecoAvaliado> = {}) =>
  preco({ id, produtoId, fornecedorId, valorUnitario, fonte: 'fornecedor', validade: '2026-06-30', ...extra });

const entrada = (e: Partial<EntradaAvaliacao>): EntradaAvaliacao => ({
  dataReferencia: REF,
  metodo: 'media_saneada',
  iterar: false,
  itens: [],
  precos: [],
  fornecedores: [],
  vencedores: [],
  ...e,
});

const situacao = (a: ReturnType<typeof avaliarCotacao>, id: string) => a.precos.find((p) => p.precoId === id);

describe('limiteDeIdade', () => {
  it('subtracts calendar months per source; painel has no limit', () => {
    expect(limiteDeIdade(REF, 'midia')).toBe('2025-11-12');
    expect(limiteDeIdade(REF, 'fornecedor')).toBe('2025-11-12');
    expect(limiteDeIdade(REF, 'contrato')).toBe('2025-05-12');
    expect(limiteDeIdade(REF, 'nota_fiscal')).toBe('2025-05-12');
    expect(limiteDeIdade(REF, 'painel')).toBeNull();
    expect(limiteDeIdade('2026-01-15', 'midia')).toBe('2025-07-15');
  });

  it('clamps the day to the end of the month (31/08 − 6 months)', () => {
    expect(limiteDeIdade('2026-08-31', 'midia')).toBe('2026-02-28');
    expect(limiteDeIdade('2024-08-31', 'midia')).toBe('2024-02-29');
    expect(limiteDeIdade('2024-02-29', 'contrato')).toBe('2023-02-28');
    expect(limiteDeIdade('2026-03-31', 'fornecedor')).toBe('2025-09-30');
  });
});

describe('which prices count', () => {
  it('6 months to the day is valid, one day more is old; a contract keeps 1 year', () => {
    const a = avaliarCotacao(
      entrada({
        itens: [item('a')],
        precos: [
          preco({ id: 'limite', produtoId: 'a', valorUnitario: '10', dataColeta: '2025-11-12T15:00:00Z' }),
          preco({ id: 'velho', produtoId: 'a', valorUnitario: '10', dataColeta: '2025-11-11T15:00:00Z' }),
          preco({ id: 'contrato-ok', produtoId: 'a', fonte: 'contrato', valorUnitario: '10', dataColeta: '2025-05-12T15:00:00Z' }),
          preco({ id: 'contrato-velho', produtoId: 'a', fonte: 'contrato', valorUnitario: '10', dataColeta: '2025-05-11T15:00:00Z' }),
          preco({ id: 'painel', produtoId: 'a', fonte: 'painel', valorUnitario: '10', dataColeta: '2019-01-01T15:00:00Z' }),
        ],
      }),
    );
    expect(situacao(a, 'limite')).toEqual({ precoId: 'limite', valido: true, usado: true, exclusao: null, motivo: null, incluidoPorDecisao: false });
    expect(situacao(a, 'velho')).toEqual({
      precoId: 'velho',
      valido: false,
      usado: false,
      exclusao: 'antigo',
      motivo: 'Preço de 11/11/2025, anterior a 6 meses da data de referência (12/05/2026); o mais antigo aceito é de 12/11/2025.',
      incluidoPorDecisao: false,
    });
    expect(situacao(a, 'contrato-ok')?.valido).toBe(true);
    expect(situacao(a, 'contrato-velho')).toMatchObject({
      exclusao: 'antigo',
      motivo: 'Preço de 11/05/2025, anterior a 1 ano da data de referência (12/05/2026); o mais antigo aceito é de 12/05/2025.',
    });
    expect(situacao(a, 'painel')?.valido).toBe(true);
    expect(a.itens[0]?.estatisticas?.n).toBe(3);
  });

  it("reads the price's day in São Paulo: 02:30 UTC is still the previous day there", () => {
    const a = avaliarCotacao(
      entrada({
        itens: [item('a')],
        precos: [
          preco({ id: 'madrugada', produtoId: 'a', valorUnitario: '10', dataColeta: '2025-11-12T02:30:00Z' }), // 11/11 23:30 in SP
          preco({ id: 'meia-noite', produtoId: 'a', valorUnitario: '10', dataColeta: '2025-11-12T03:00:00Z' }), // 12/11 00:00 in SP
          preco({ id: 'com-offset', produtoId: 'a', valorUnitario: '10', dataColeta: '2025-11-11T23:30:00-03:00' }),
        ],
      }),
    );
    expect(situacao(a, 'madrugada')).toMatchObject({ exclusao: 'antigo', motivo: expect.stringContaining('Preço de 11/11/2025') });
    expect(situacao(a, 'meia-noite')?.valido).toBe(true);
    expect(situacao(a, 'com-offset')?.exclusao).toBe('antigo');
  });

  it('a quote valid until the reference date counts; one that ended the day before is expired', () => {
    const a = avaliarCotacao(
      entrada({
        itens: [item('a')],
        fornecedores: [{ fornecedorId: 'f1', nome: 'Alfa', situacao: 'respondeu' }],
        precos: [
          cotado('ate-hoje', 'a', 'f1', '10', { validade: REF }),
          cotado('vencida', 'a', 'f1', '10', { validade: '2026-05-11' }),
          cotado('sem-validade', 'a', 'f1', '10', { validade: null }),
        ],
      }),
    );
    expect(situacao(a, 'ate-hoje')?.valido).toBe(true);
    expect(situacao(a, 'sem-validade')?.valido).toBe(true);
    expect(situacao(a, 'vencida')).toEqual({
      precoId: 'vencida',
      valido: false,
      usado: false,
      exclusao: 'vencido',
      motivo: 'Proposta válida até 11/05/2026, antes da data de referência (12/05/2026).',
      incluidoPorDecisao: false,
    });
  });

  it("a person's decisions: exclusion wins over everything; inclusion brings back old or expired prices", () => {
    const a = avaliarCotacao(
      entrada({
        itens: [item('a')],
        fornecedores: [{ fornecedorId: 'f1', nome: 'Alfa', situacao: 'respondeu' }],
        precos: [
          preco({
            id: 'excluido',
            produtoId: 'a',
            valorUnitario: '10',
            exclusaoMotivo: 'Marca diferente da pedida.',
            inclusaoMotivo: 'Único do mercado local.',
          }),
          preco({ id: 'velho-incluido', produtoId: 'a', valorUnitario: '11', dataColeta: '2024-01-10T15:00:00Z', inclusaoMotivo: 'Único do mercado local.' }),
          cotado('vencida-incluida', 'a', 'f1', '12', { validade: '2026-01-01', inclusaoMotivo: 'Fornecedor confirmou por telefone.' }),
          preco({ id: 'novo-incluido', produtoId: 'a', valorUnitario: '13', inclusaoMotivo: 'Sem efeito: o preço já vale.' }),
          cotado('velho-vencido', 'a', 'f1', '14', { dataColeta: '2025-01-01T15:00:00Z', validade: '2025-02-01' }),
        ],
      }),
    );
    expect(situacao(a, 'excluido')).toEqual({
      precoId: 'excluido',
      valido: false,
      usado: false,
      exclusao: 'manual',
      motivo: 'Excluído por decisão: Marca diferente da pedida.',
      incluidoPorDecisao: false,
    });
    expect(situacao(a, 'velho-incluido')).toMatchObject({ valido: true, usado: true, exclusao: null, incluidoPorDecisao: true });
    expect(situacao(a, 'vencida-incluida')).toMatchObject({ valido: true, exclusao: null, incluidoPorDecisao: true });
    expect(situacao(a, 'novo-incluido')).toMatchObject({ valido: true, incluidoPorDecisao: false });
    // old takes precedence over expired
    expect(situacao(a, 'velho-vencido')?.exclusao).toBe('antigo');
    expect(a.itens[0]?.estatisticas).toMatchObject({ n: 3, media: '12.00' });
    // the output keeps the input order of the prices
    expect(a.precos.map((p) => p.precoId)).toEqual(['excluido', 'velho-incluido', 'vencida-incluida', 'novo-incluido', 'velho-vencido']);
  });
});

describe('per item', () => {
  const exemplo = (metodo: EntradaAvaliacao['metodo'], iterar = false) =>
    avaliarCotacao(
      entrada({
        metodo,
        iterar,
        itens: [item('a', '3')],
        fornecedores: [
          { fornecedorId: 'f1', nome: 'Alfa', situacao: 'respondeu' },
          { fornecedorId: 'f2', nome: 'Beta', situacao: 'respondeu' },
          { fornecedorId: 'f3', nome: 'Gama', situacao: 'respondeu' },
          { fornecedorId: 'f4', nome: 'Delta', situacao: 'nao_respondeu' },
        ],
        precos: [
          cotado('p50', 'a', 'f1', '50'),
          preco({ id: 'p130', produtoId: 'a', valorUnitario: '130' }),
          cotado('p162', 'a', 'f2', '162'),
          preco({ id: 'p164', produtoId: 'a', fonte: 'painel', valorUnitario: '164' }),
          cotado('p170', 'a', 'f3', '170'),
          preco({ id: 'p200', produtoId: 'a', fonte: 'contrato', valorUnitario: '200' }),
          preco({ id: 'p500', produtoId: 'a', fonte: 'nota_fiscal', valorUnitario: '500' }),
          preco({ id: 'velho', produtoId: 'a', valorUnitario: '1', dataColeta: '2020-01-01T12:00:00Z' }),
        ],
      }),
    );

  it('the worked example through the whole evaluation (média saneada)', () => {
    const a = exemplo('media_saneada');
    const r = a.itens[0]!;
    expect(r.estatisticas).toMatchObject({ n: 7, media: '196.57', mediana: '164.00', cv: '72.2' });
    expect(r.estatisticasFinais).toMatchObject({ n: 5, media: '165.20', cv: '15.1' });
    expect(r.valorEstimado).toBe('165.20');
    expect(r.valorTotal).toBe('495.60');
    expect(r.menosDeTres).toBe(false);
    expect(r.criterio).toContain('média dos 5 preços mantidos, R$ 165,20.');
    expect(situacao(a, 'p50')).toEqual({
      precoId: 'p50',
      valido: true,
      usado: false,
      exclusao: 'estatistica',
      motivo: 'Abaixo de média − 1 DP (R$ 54,59).',
      incluidoPorDecisao: false,
    });
    expect(situacao(a, 'p500')).toMatchObject({ valido: true, usado: false, exclusao: 'estatistica', motivo: 'Acima de média + 1 DP (R$ 338,56).' });
    expect(situacao(a, 'velho')?.exclusao).toBe('antigo');
    // the outlier 50 (inexequível) is not the default winner: the lowest used supplier price is 162
    expect(r.menores).toEqual(['p162']);
    expect(r.vencedor).toEqual({ precoId: 'p162', fornecedorId: 'f2', valorUnitario: '162', valorTotal: '486.00', escolhido: false, motivo: null });
    expect(a.valorEstimadoTotal).toBe('495.60');
    expect(a.valorVencedoresTotal).toBe('486.00');
    expect(a.itensMenosDeTres).toEqual([]);
  });

  it('the other methods on the same prices', () => {
    expect(exemplo('intervalo_mediana').itens[0]?.valorEstimado).toBe('164.00');
    expect(exemplo('media').itens[0]?.valorEstimado).toBe('196.57');
    expect(exemplo('mediana').itens[0]?.valorEstimado).toBe('164.00');
    const menor = exemplo('menor');
    expect(menor.itens[0]?.valorEstimado).toBe('50.00');
    expect(menor.itens[0]?.valorTotal).toBe('150.00');
    // nothing is an outlier under 'menor': 50 is the lowest and the winner
    expect(menor.itens[0]?.vencedor?.precoId).toBe('p50');
    const iterado = exemplo('media_saneada', true);
    // iterated: the CV of the rest (15,1 %) is not above 25 %, so one round only (issue 18)
    expect(iterado.itens[0]?.valorEstimado).toBe('165.20');
    expect(situacao(iterado, 'p130')).toMatchObject({ valido: true, usado: true, exclusao: null });
    expect(iterado.itens[0]?.rodadas.map((r) => r.descartados)).toEqual([['p50', 'p500']]);
  });

  it('a person may choose another winner (even an outlier) with a reason; an invalid choice falls back to the lowest', () => {
    const entradaDoExemplo = (): EntradaAvaliacao =>
      entrada({
        itens: [item('a', '3')],
        fornecedores: [
          { fornecedorId: 'f1', nome: 'Alfa', situacao: 'respondeu' },
          { fornecedorId: 'f2', nome: 'Beta', situacao: 'respondeu' },
          { fornecedorId: 'f3', nome: 'Gama', situacao: 'respondeu' },
        ],
        precos: [
          cotado('p50', 'a', 'f1', '50'),
          preco({ id: 'p130', produtoId: 'a', valorUnitario: '130' }),
          cotado('p162', 'a', 'f2', '162'),
          preco({ id: 'p164', produtoId: 'a', fonte: 'painel', valorUnitario: '164' }),
          cotado('p170', 'a', 'f3', '170'),
          preco({ id: 'p200', produtoId: 'a', fonte: 'contrato', valorUnitario: '200' }),
          preco({ id: 'p500', produtoId: 'a', fonte: 'nota_fiscal', valorUnitario: '500' }),
          cotado('vencida', 'a', 'f3', '100', { validade: '2026-01-01' }),
        ],
      });
    const escolha = (precoId: string) =>
      avaliarCotacao({ ...entradaDoExemplo(), vencedores: [{ produtoId: 'a', precoId, motivo: 'Prazo de entrega menor e garantia estendida.' }] });
    const base = avaliarCotacao(entradaDoExemplo());
    expect(base.itens[0]?.vencedor?.precoId).toBe('p162');

    const outro = escolha('p170');
    expect(outro.itens[0]?.vencedor).toEqual({
      precoId: 'p170',
      fornecedorId: 'f3',
      valorUnitario: '170',
      valorTotal: '510.00',
      escolhido: true,
      motivo: 'Prazo de entrega menor e garantia estendida.',
    });
    expect(outro.itens[0]?.menores).toEqual(['p162']); // the lowest stays highlighted
    expect(outro.valorVencedoresTotal).toBe('510.00');
    expect(outro.fornecedores.find((f) => f.fornecedorId === 'f3')).toMatchObject({ totalVencido: '510.00', itensVencidos: 1 });
    expect(outro.fornecedores.find((f) => f.fornecedorId === 'f2')).toMatchObject({ totalVencido: '0.00', itensVencidos: 0 });

    // an outlier is valid, so a person may choose it
    expect(escolha('p50').itens[0]?.vencedor).toMatchObject({ precoId: 'p50', escolhido: true });
    // not a supplier price, an expired quote, an unknown id: back to the lowest
    for (const invalido of ['p164', 'vencida', 'nao-existe']) {
      expect(escolha(invalido).itens[0]?.vencedor).toMatchObject({ precoId: 'p162', escolhido: false, motivo: null });
    }
  });

  it('ties for the lowest: all highlighted, the winner by supplier name', () => {
    const a = avaliarCotacao(
      entrada({
        metodo: 'menor',
        itens: [item('a', '2')],
        fornecedores: [
          { fornecedorId: 'f1', nome: 'Zeta Comércio', situacao: 'respondeu' },
          { fornecedorId: 'f2', nome: 'Ômega Ltda', situacao: 'respondeu' },
          { fornecedorId: 'f3', nome: 'Alfa', situacao: 'respondeu' },
        ],
        precos: [cotado('z', 'a', 'f1', '10.5'), cotado('o', 'a', 'f2', '10.50'), cotado('a', 'a', 'f3', '11')],
      }),
    );
    expect(a.itens[0]?.menores).toEqual(['o', 'z']);
    expect(a.itens[0]?.vencedor).toMatchObject({ precoId: 'o', fornecedorId: 'f2', valorTotal: '21.00' });
  });

  it('items with fewer than three valid prices, and with none', () => {
    const a = avaliarCotacao(
      entrada({
        itens: [item('b', '1', 2), item('a', '1', 1), item('c', '1', 3)],
        precos: [
          preco({ produtoId: 'a', valorUnitario: '10' }),
          preco({ produtoId: 'a', valorUnitario: '11' }),
          preco({ produtoId: 'a', valorUnitario: '12' }),
          preco({ produtoId: 'b', valorUnitario: '10' }),
          preco({ produtoId: 'b', valorUnitario: '11' }),
          preco({ produtoId: 'b', valorUnitario: '12', exclusaoMotivo: 'Produto de outra especificação.' }),
        ],
      }),
    );
    // items come back in their order
    expect(a.itens.map((i) => i.produtoId)).toEqual(['a', 'b', 'c']);
    expect(a.itens.map((i) => i.menosDeTres)).toEqual([false, true, true]);
    expect(a.itensMenosDeTres).toEqual(['b', 'c']);
    const c = a.itens[2]!;
    expect(c).toEqual({
      produtoId: 'c',
      estatisticas: null,
      estatisticasFinais: null,
      valorEstimado: null,
      valorTotal: null,
      criterio: 'Nenhum preço válido.',
      rodadas: [],
      parada: null,
      menosDeTres: true,
      vencedor: null,
      menores: [],
    });
    expect(a.itens[1]?.valorEstimado).toBe('10.50');
    // no supplier quote: no winner
    expect(a.itens[0]?.vencedor).toBeNull();
    expect(a.valorEstimadoTotal).toBe('21.50');
    expect(a.valorVencedoresTotal).toBe('0.00');
  });

  it('supplier totals: quoted items (valid prices) and won items', () => {
    const a = avaliarCotacao(
      entrada({
        metodo: 'menor',
        itens: [item('a', '10', 1), item('b', '2.5', 2), item('c', '4', 3)],
        fornecedores: [
          { fornecedorId: 'f1', nome: 'Alfa', situacao: 'respondeu' },
          { fornecedorId: 'f2', nome: 'Beta', situacao: 'respondeu' },
          { fornecedorId: 'f3', nome: 'Gama', situacao: 'nao_respondeu' },
        ],
        precos: [
          cotado('a1', 'a', 'f1', '1.0015'),
          cotado('a2', 'a', 'f2', '1.1'),
          cotado('b1', 'b', 'f1', '10.015'),
          cotado('b2', 'b', 'f2', '9.99'),
          cotado('c1', 'c', 'f1', '5', { exclusaoMotivo: 'Proposta sem assinatura.' }),
          cotado('c2', 'c', 'f2', '6', { validade: '2026-05-01' }),
        ],
      }),
    );
    expect(a.fornecedores).toEqual([
      // a: 10 × 1,0015 = 10,015 → 10,02; b: 2,5 × 10,015 = 25,0375 → 25,04
      { fornecedorId: 'f1', totalCotado: '35.06', totalVencido: '10.02', itensCotados: 2, itensVencidos: 1 },
      // a: 11,00; b: 2,5 × 9,99 = 24,975 → 24,98
      { fornecedorId: 'f2', totalCotado: '35.98', totalVencido: '24.98', itensCotados: 2, itensVencidos: 1 },
      { fornecedorId: 'f3', totalCotado: '0.00', totalVencido: '0.00', itensCotados: 0, itensVencidos: 0 },
    ]);
    expect(a.itens.map((i) => i.vencedor?.precoId ?? null)).toEqual(['a1', 'b2', null]);
    expect(a.valorVencedoresTotal).toBe('35.00');
    // menor: the estimate is the lowest rounded to cents, then × quantity
    expect(a.itens.map((i) => i.valorTotal)).toEqual(['10.00', '24.98', null]);
    expect(a.valorEstimadoTotal).toBe('34.98');
  });

  it('exact totals with large quantities and four-decimal prices', () => {
    const a = avaliarCotacao(
      entrada({
        metodo: 'media',
        itens: [item('a', '99999999999.9999')],
        fornecedores: [{ fornecedorId: 'f1', nome: 'Alfa', situacao: 'respondeu' }],
        precos: [cotado('x', 'a', 'f1', '0.1'), preco({ produtoId: 'a', valorUnitario: '0.2' }), preco({ produtoId: 'a', valorUnitario: '0.3' })],
      }),
    );
    const r = a.itens[0]!;
    expect(r.valorEstimado).toBe('0.20');
    // 99 999 999 999,9999 × 0,20 = 19 999 999 999,99998 → 20 000 000 000,00
    expect(r.valorTotal).toBe('20000000000.00');
    // 99 999 999 999,9999 × 0,1 = 9 999 999 999,99999 → 10 000 000 000,00
    expect(r.vencedor?.valorTotal).toBe('10000000000.00');
    expect(a.valorEstimadoTotal).toBe('20000000000.00');
  });
});
