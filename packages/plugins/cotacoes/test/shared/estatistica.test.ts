// Statistics and methods of the pesquisa de preços (pure, exact decimals). Expected figures were
// computed independently with Python's fractions/decimal (exact rationals, half-up rounding).
import { describe, expect, it } from 'vitest';
import { aplicarMetodo, estatisticas, type ValorSerie } from '../../src/shared/estatistica';

/** A series with ids p0, p1, … in the given order. */
const serie = (...valores: string[]): ValorSerie[] => valores.map((valor, i) => ({ id: `p${i}`, valor }));
const EXEMPLO = serie('50', '130', '162', '164', '170', '200', '500');

describe('worked example of domain.md (50, 130, 162, 164, 170, 200, 500)', () => {
  it('statistics: mean 196,57, median 164,00, CV 72,2 %', () => {
    expect(estatisticas(['50', '130', '162', '164', '170', '200', '500'])).toEqual({
      n: 7,
      media: '196.57',
      mediana: '164.00',
      menor: '50',
      maior: '500',
      desvioPadrao: '141.98',
      cv: '72.2',
    });
  });

  it('média saneada (once): ±1 SD drops 50 and 500; mean of the rest 165,20 (CV 15,1 %)', () => {
    const r = aplicarMetodo(EXEMPLO, 'media_saneada', false);
    expect(r.valor).toBe('165.20');
    expect(r.descartados).toEqual([
      { id: 'p0', motivo: 'Abaixo de média − 1 DP (R$ 54,59).' },
      { id: 'p6', motivo: 'Acima de média + 1 DP (R$ 338,56).' },
    ]);
    expect(r.mantidos).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    expect(r.estatisticas?.media).toBe('196.57');
    expect(r.estatisticasFinais).toEqual({ n: 5, media: '165.20', mediana: '164.00', menor: '130', maior: '200', desvioPadrao: '24.92', cv: '15.1' });
    expect(r.criterio).toBe(
      'Média saneada: 2 de 7 preços fora de média ± 1 DP (R$ 54,59 a R$ 338,56) descartados; CV dos restantes 15,1% ≤ 25%: média dos 5 preços mantidos, R$ 165,20.',
    );
  });

  it('intervalo da mediana gives 164,00 (keeps 123,00 to 205,00)', () => {
    const r = aplicarMetodo(EXEMPLO, 'intervalo_mediana', false);
    expect(r.valor).toBe('164.00');
    expect(r.descartados).toEqual([
      { id: 'p0', motivo: 'Abaixo de 75% da mediana (R$ 123,00).' },
      { id: 'p6', motivo: 'Acima de 125% da mediana (R$ 205,00).' },
    ]);
    expect(r.mantidos).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    expect(r.estatisticasFinais?.mediana).toBe('164.00');
    expect(r.criterio).toBe(
      'Intervalo da mediana: 2 de 7 preços fora de 75% a 125% da mediana (R$ 123,00 a R$ 205,00) descartados; mediana dos 5 preços mantidos, R$ 164,00.',
    );
  });

  it('média, mediana and menor over the whole series, nothing dropped', () => {
    const media = aplicarMetodo(EXEMPLO, 'media', false);
    expect(media.valor).toBe('196.57');
    expect(media.criterio).toBe('Média dos 7 preços válidos: R$ 196,57.');
    expect(media.descartados).toEqual([]);
    expect(media.mantidos).toHaveLength(7);
    expect(media.estatisticasFinais).toEqual(media.estatisticas);

    const mediana = aplicarMetodo(EXEMPLO, 'mediana', true);
    expect(mediana.valor).toBe('164.00');
    expect(mediana.criterio).toBe('Mediana dos 7 preços válidos: R$ 164,00.');

    const menor = aplicarMetodo(EXEMPLO, 'menor', false);
    expect(menor.valor).toBe('50.00');
    expect(menor.criterio).toBe('Menor dos 7 preços válidos: R$ 50,00.');
    expect(menor.descartados).toEqual([]);
  });

  it('média saneada iterated (issue 18): one round, the CV of the rest (15,1 %) is not above 25 %: 165,20', () => {
    const r = aplicarMetodo(EXEMPLO, 'media_saneada', true);
    expect(r.descartados).toEqual([
      { id: 'p0', motivo: 'Abaixo de média − 1 DP (R$ 54,59).' },
      { id: 'p6', motivo: 'Acima de média + 1 DP (R$ 338,56).' },
    ]);
    expect(r.mantidos).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    expect(r.valor).toBe('165.20');
    expect(r.parada).toBe('cv');
    expect(r.rodadas).toEqual([
      {
        rodada: 1,
        estatisticas: { n: 7, media: '196.57', mediana: '164.00', menor: '50', maior: '500', desvioPadrao: '141.98', cv: '72.2' },
        limiteInferior: '54.59',
        limiteSuperior: '338.56',
        mantidos: ['p1', 'p2', 'p3', 'p4', 'p5'],
        descartados: ['p0', 'p6'],
      },
    ]);
    expect(r.estatisticasFinais).toEqual({ n: 5, media: '165.20', mediana: '164.00', menor: '130', maior: '200', desvioPadrao: '24.92', cv: '15.1' });
    expect(r.criterio).toBe(
      'Média saneada: 2 de 7 preços fora de média ± 1 DP (R$ 54,59 a R$ 338,56) descartados; sem nova rodada: o CV dos restantes não passa de 25%; CV dos restantes 15,1% ≤ 25%: média dos 5 preços mantidos, R$ 165,20.',
    );
  });
});

describe('média saneada iterated: rounds only while the CV of the rest is above 25 %, never below three prices', () => {
  // Figures computed independently with Python's fractions (exact) and decimal (half-up rounding).
  it('CV of the rest exactly 25 % stops (63 would sit on the bound, 113 would drop in a 2nd round)', () => {
    // round 1 on 63, 65, 84, 95, 113, 1000 drops 1000; the rest: mean 84, variance 441 = (84 / 4)², CV 25 %
    const r = aplicarMetodo(serie('63', '65', '84', '95', '113', '1000'), 'media_saneada', true);
    expect(r.parada).toBe('cv');
    expect(r.rodadas).toHaveLength(1);
    expect(r.rodadas[0]).toMatchObject({
      estatisticas: { n: 6, media: '236.67', desvioPadrao: '374.43', cv: '158.2' },
      limiteInferior: '-137.76',
      limiteSuperior: '611.09',
      descartados: ['p5'],
    });
    expect(r.descartados.map((d) => d.id)).toEqual(['p5']);
    expect(r.estatisticasFinais).toMatchObject({ n: 5, media: '84.00', desvioPadrao: '21.00', cv: '25.0' });
    expect(r.valor).toBe('84.00');
  });

  it('CV of the rest just above 25 % iterates: 114 drops in the 2nd round, then CV 20,1 % stops', () => {
    const r = aplicarMetodo(serie('63', '65', '84', '95', '114', '1000'), 'media_saneada', true);
    expect(
      r.rodadas.map((x) => [
        x.estatisticas.n,
        x.estatisticas.media,
        x.estatisticas.desvioPadrao,
        x.estatisticas.cv,
        x.limiteInferior,
        x.limiteSuperior,
        x.descartados,
      ]),
    ).toEqual([
      [6, '236.83', '374.36', '158.1', '-137.53', '611.19', ['p5']],
      [5, '84.20', '21.35', '25.4', '62.85', '105.55', ['p4']],
    ]);
    expect(r.rodadas[1]!.mantidos).toEqual(['p0', 'p1', 'p2', 'p3']);
    expect(r.descartados).toEqual([
      { id: 'p5', motivo: 'Acima de média + 1 DP (R$ 611,19).' },
      { id: 'p4', motivo: 'Acima de média + 1 DP da 2ª rodada (R$ 105,55).' },
    ]);
    expect(r.parada).toBe('cv');
    expect(r.estatisticasFinais).toMatchObject({ n: 4, media: '76.75', desvioPadrao: '15.41', cv: '20.1' });
    expect(r.valor).toBe('76.75');
    expect(r.criterio).toBe(
      'Média saneada: 2 de 6 preços descartados em 2 rodadas de média ± 1 DP (1ª rodada: -R$ 137,53 a R$ 611,19); sem nova rodada: o CV dos restantes não passa de 25%; CV dos restantes 20,1% ≤ 25%: média dos 4 preços mantidos, R$ 76,75.',
    );
    // once, the same series stops after the first round whatever the CV
    const once = aplicarMetodo(serie('63', '65', '84', '95', '114', '1000'), 'media_saneada', false);
    expect(once.rodadas).toHaveLength(1);
    expect(once.parada).toBe('uma_vez');
    expect(once.valor).toBe('84.00'); // median of 63, 65, 84, 95, 114 (CV 25,4 % > 25 %)
  });

  it('never leaves fewer than three prices: a 2nd round that would keep 2 is not applied', () => {
    // round 1 drops 1000; 10, 11, 30 have CV 66,3 % and 30 is outside 17 ± 11,27, but dropping it leaves 2
    const r = aplicarMetodo(serie('10', '11', '30', '1000'), 'media_saneada', true);
    expect(r.rodadas).toHaveLength(1);
    expect(r.parada).toBe('minimo');
    expect(r.mantidos).toEqual(['p0', 'p1', 'p2']);
    expect(r.estatisticasFinais).toMatchObject({ n: 3, media: '17.00', mediana: '11.00', desvioPadrao: '11.27', cv: '66.3' });
    expect(r.valor).toBe('11.00');
    expect(r.criterio).toBe(
      'Média saneada: 1 de 4 preços fora de média ± 1 DP (-R$ 228,84 a R$ 754,34) descartado; a rodada seguinte deixaria menos de 3 preços e não foi aplicada; CV dos restantes 66,3% > 25%: mediana dos 3 preços mantidos, R$ 11,00.',
    );
  });

  it('the other methods report no rounds', () => {
    for (const metodo of ['media', 'mediana', 'menor', 'intervalo_mediana'] as const) {
      expect(aplicarMetodo(EXEMPLO, metodo, true)).toMatchObject({ rodadas: [], parada: null });
    }
  });
});

describe('média saneada', () => {
  it('iterating stops when the CV of the rest is not above 25 %', () => {
    const s = serie('50', '100', '100', '100', '101', '101', '101', '200');
    const r = aplicarMetodo(s, 'media_saneada', true);
    expect(r.descartados.map((d) => d.id)).toEqual(['p0', 'p7']);
    expect(r.valor).toBe('100.50');
    expect(r.criterio).toBe(
      'Média saneada: 2 de 8 preços fora de média ± 1 DP (R$ 64,96 a R$ 148,29) descartados; sem nova rodada: o CV dos restantes não passa de 25%; CV dos restantes 0,5% ≤ 25%: média dos 6 preços mantidos, R$ 100,50.',
    );
    // the same series once gives the same result (nothing more to drop), without the note
    expect(aplicarMetodo(s, 'media_saneada', false).criterio).not.toContain('rodada');
  });

  it('the first round applies even when it leaves fewer than three prices; no further round then', () => {
    const r = aplicarMetodo(serie('1', '1', '10'), 'media_saneada', true);
    expect(r.descartados).toEqual([{ id: 'p2', motivo: 'Acima de média + 1 DP (R$ 9,20).' }]);
    expect(r.valor).toBe('1.00');
    expect(r.criterio).toBe(
      'Média saneada: 1 de 3 preços fora de média ± 1 DP (-R$ 1,20 a R$ 9,20) descartado; restaram menos de 3 preços, sem nova rodada; CV dos restantes 0,0% ≤ 25%: média dos 2 preços mantidos, R$ 1,00.',
    );
  });

  it('CV exactly 25 % uses the mean; values exactly at média ± 1 DP stay', () => {
    const r = aplicarMetodo(serie('3', '4', '5'), 'media_saneada', true);
    expect(r.estatisticas).toMatchObject({ media: '4.00', desvioPadrao: '1.00', cv: '25.0' });
    expect(r.descartados).toEqual([]);
    expect(r.valor).toBe('4.00');
    expect(r.criterio).toBe('Média saneada: nenhum preço fora de média ± 1 DP (R$ 3,00 a R$ 5,00); CV 25,0% ≤ 25%: média dos 3 preços válidos, R$ 4,00.');
    // a ten-thousandth below the lower bound is out
    const fora = aplicarMetodo(serie('2.9999', '4', '5'), 'media_saneada', false);
    expect(fora.descartados).toEqual([{ id: 'p0', motivo: 'Abaixo de média − 1 DP (R$ 3,00).' }]);
    expect(fora.valor).toBe('4.50');
  });

  it('CV a hair above 25 % (printed 25,0 %) uses the median, and says so', () => {
    const s = serie('33', '34', '52', '52');
    expect(estatisticas(s.map((v) => v.valor))).toMatchObject({ media: '42.75', mediana: '43.00', desvioPadrao: '10.69', cv: '25.0' });
    const r = aplicarMetodo(s, 'media_saneada', false);
    expect(r.descartados).toEqual([]);
    expect(r.valor).toBe('43.00');
    expect(r.criterio).toBe(
      'Média saneada: nenhum preço fora de média ± 1 DP (R$ 32,06 a R$ 53,44); CV acima de 25% (25,0% arredondado): mediana dos 4 preços válidos, R$ 43,00.',
    );
  });

  it('after dropping, a CV over 25 % takes the median of what is left (negative lower bound printed)', () => {
    const r = aplicarMetodo(serie('33', '34', '52', '52', '1000'), 'media_saneada', false);
    expect(r.descartados).toEqual([{ id: 'p4', motivo: 'Acima de média + 1 DP (R$ 662,40).' }]);
    expect(r.estatisticasFinais).toMatchObject({ n: 4, media: '42.75', mediana: '43.00', cv: '25.0' });
    expect(r.valor).toBe('43.00');
    expect(r.criterio).toContain('(-R$ 194,00 a R$ 662,40)');
    expect(r.criterio).toContain('CV dos restantes acima de 25% (25,0% arredondado): mediana dos 4 preços mantidos, R$ 43,00.');
  });

  it('a clear CV over 25 % without drops: median', () => {
    const r = aplicarMetodo(serie('10', '30'), 'media_saneada', false);
    expect(r.descartados).toEqual([]);
    expect(r.criterio).toBe('Média saneada: nenhum preço fora de média ± 1 DP (R$ 5,86 a R$ 34,14); CV 70,7% > 25%: mediana dos 2 preços válidos, R$ 20,00.');
  });
});

describe('edge cases', () => {
  it('empty series', () => {
    expect(estatisticas([])).toBeNull();
    for (const metodo of ['media', 'mediana', 'menor', 'media_saneada', 'intervalo_mediana'] as const) {
      expect(aplicarMetodo([], metodo, true)).toEqual({
        valor: null,
        mantidos: [],
        descartados: [],
        estatisticas: null,
        estatisticasFinais: null,
        criterio: 'Nenhum preço válido.',
        rodadas: [],
        parada: null,
      });
    }
  });

  it('one price: SD 0, CV 0, every method gives it (rounded to cents)', () => {
    expect(estatisticas(['12.3456'])).toEqual({
      n: 1,
      media: '12.35',
      mediana: '12.35',
      menor: '12.3456',
      maior: '12.3456',
      desvioPadrao: '0.00',
      cv: '0.0',
    });
    for (const metodo of ['media', 'mediana', 'menor', 'media_saneada', 'intervalo_mediana'] as const) {
      const r = aplicarMetodo(serie('12.3456'), metodo, true);
      expect(r.valor).toBe('12.35');
      expect(r.mantidos).toEqual(['p0']);
      expect(r.descartados).toEqual([]);
    }
    expect(aplicarMetodo(serie('12.3456'), 'media', false).criterio).toBe('Média do único preço válido: R$ 12,35.');
    expect(aplicarMetodo(serie('12.3456'), 'intervalo_mediana', false).criterio).toBe(
      'Intervalo da mediana: o único preço está entre 75% e 125% da mediana (R$ 9,26 a R$ 15,43); mediana do único preço válido, R$ 12,35.',
    );
  });

  it('all prices equal (SD 0): nothing dropped, iterating or not', () => {
    const s = serie('10', '10.00', '10.0000');
    expect(estatisticas(s.map((v) => v.valor))).toEqual({ n: 3, media: '10.00', mediana: '10.00', menor: '10', maior: '10', desvioPadrao: '0.00', cv: '0.0' });
    for (const iterar of [false, true]) {
      const r = aplicarMetodo(s, 'media_saneada', iterar);
      expect(r.descartados).toEqual([]);
      expect(r.valor).toBe('10.00');
    }
    expect(aplicarMetodo(s, 'intervalo_mediana', false).descartados).toEqual([]);
  });

  it('n = 2: SD of two values, nothing can be dropped by ±1 SD; the median interval may keep none', () => {
    expect(estatisticas(['10', '30'])).toMatchObject({ media: '20.00', mediana: '20.00', desvioPadrao: '14.14', cv: '70.7' });
    const r = aplicarMetodo(serie('10', '30'), 'intervalo_mediana', false);
    // 10 and 30 are both outside 15..25: nothing is dropped and the median of all is used
    expect(r.descartados).toEqual([]);
    expect(r.mantidos).toEqual(['p0', 'p1']);
    expect(r.valor).toBe('20.00');
    expect(r.criterio).toBe(
      'Intervalo da mediana: nenhum preço entre 75% e 125% da mediana (R$ 15,00 a R$ 25,00); usa-se a mediana dos 2 preços válidos, R$ 20,00.',
    );
  });

  it('median: ties, even counts, half a cent rounds away from zero', () => {
    expect(estatisticas(['30', '20', '10', '20'])?.mediana).toBe('20.00');
    expect(estatisticas(['40', '10', '30', '20'])?.mediana).toBe('25.00');
    expect(estatisticas(['1.01', '1.00'])?.mediana).toBe('1.01'); // 1,005
    expect(estatisticas(['1.0001', '1.0048'])?.mediana).toBe('1.00'); // 1,00245
    // the input order does not matter
    expect(aplicarMetodo(serie('170', '500', '50', '164', '200', '130', '162'), 'mediana', false).valor).toBe('164.00');
  });

  it('the median interval bounds are inclusive', () => {
    // median 100: 75 and 125 stay, 74.9999 and 125.0001 go
    const r = aplicarMetodo(serie('74.9999', '75', '100', '100', '100', '125', '125.0001'), 'intervalo_mediana', false);
    expect(r.mantidos).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    expect(r.descartados).toEqual([
      { id: 'p0', motivo: 'Abaixo de 75% da mediana (R$ 75,00).' },
      { id: 'p6', motivo: 'Acima de 125% da mediana (R$ 125,00).' },
    ]);
    expect(r.valor).toBe('100.00');
  });
});

describe('exactness', () => {
  it('0.1 + 0.2 style values: 0.1 is exactly at média − 1 DP and stays', () => {
    expect(estatisticas(['0.1', '0.2', '0.3'])).toEqual({ n: 3, media: '0.20', mediana: '0.20', menor: '0.1', maior: '0.3', desvioPadrao: '0.10', cv: '50.0' });
    const r = aplicarMetodo(serie('0.1', '0.2', '0.3'), 'media_saneada', true);
    expect(r.descartados).toEqual([]);
    expect(r.valor).toBe('0.20'); // CV 50 % → median
  });

  it('rounds half away from zero where binary floats would not (1,005 → 1,01)', () => {
    expect(estatisticas(['1.005', '1.005'])).toMatchObject({ media: '1.01', mediana: '1.01', desvioPadrao: '0.00' });
    expect(aplicarMetodo(serie('1.005'), 'menor', false).valor).toBe('1.01');
  });

  it('four-decimal unit prices keep their lowest and highest exact', () => {
    const e = estatisticas(['0.0130', '0.0125', '0.0135']);
    expect(e).toEqual({ n: 3, media: '0.01', mediana: '0.01', menor: '0.0125', maior: '0.0135', desvioPadrao: '0.00', cv: '3.8' });
  });

  it('large values do not lose precision', () => {
    const e = estatisticas(['99999999999.9999', '99999999999.9998', '99999999999.9997']);
    // mean 99 999 999 999,9998; SD 0,0001; CV ≈ 1e-13 %
    expect(e).toEqual({
      n: 3,
      media: '100000000000.00',
      mediana: '100000000000.00',
      menor: '99999999999.9997',
      maior: '99999999999.9999',
      desvioPadrao: '0.00',
      cv: '0.0',
    });
    expect(estatisticas(['12345678901.23', '12345678901.25'])?.media).toBe('12345678901.24');
  });

  it('the standard deviation is rounded exactly, a tie at half a cent away from zero', () => {
    // 10; 10,005; 10,01 → variance 0,000025, SD exactly 0,005 → 0,01
    expect(estatisticas(['10', '10.005', '10.01'])?.desvioPadrao).toBe('0.01');
    // 10; 10,0049; 10,0098 → SD exactly 0,0049 → 0,00
    expect(estatisticas(['10', '10.0049', '10.0098'])?.desvioPadrao).toBe('0.00');
    // 2 and 2,01: mean 2,005 → 2,01; SD 0,00707… → 0,01; CV 0,35…% → 0,4
    expect(estatisticas(['2', '2.01'])).toMatchObject({ media: '2.01', desvioPadrao: '0.01', cv: '0.4' });
  });

  it('rejects a value that is not a decimal', () => {
    expect(() => estatisticas(['1,5'])).toThrow();
  });
});
