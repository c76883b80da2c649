// The price history marks atypical prices in one pass (atipicosDaMediana) instead of running @app/cotacoes'
// whole `aplicarMetodo(serie, 'intervalo_mediana')`: the same prices, with the same reasons word for word,
// on hand-picked edges (the band's bounds exactly, no price within the band, one price, four places,
// the column's largest values) and on seeded random series.
import { aplicarMetodo } from '@app/cotacoes/shared';
import { fromUnits } from '@app/documents';
import { describe, expect, it } from 'vitest';
import { atipicosDaMediana, unidades } from '../../src/server/precos.js';

/** The exact median in units of 10^-5 (as the history computes it), from unit values (10^-4). */
function mediana5(valores: number[]): bigint {
  const v = [...valores].sort((a, b) => a - b);
  const meio = v.length >> 1;
  return v.length % 2 ? BigInt(v[meio]!) * 10n : (BigInt(v[meio - 1]!) + BigInt(v[meio]!)) * 5n;
}

/** Both ways on the same prices ('26.9000' as the column gives them): the marks, in order. */
function comparar(textos: string[]) {
  const valores = textos.map(unidades);
  const nosso = atipicosDaMediana(valores, mediana5(valores));
  const metodo = aplicarMetodo(
    textos.map((valor, i) => ({ id: String(i), valor })),
    'intervalo_mediana',
    false,
  );
  const motivos = new Map(metodo.descartados.map((d) => [d.id, d.motivo]));
  return { nosso, esperado: { motivos: textos.map((_v, i) => motivos.get(String(i)) ?? null), quantidade: metodo.descartados.length } };
}

/** A small deterministic generator (the same series on every run). */
function aleatorio(semente: number) {
  let s = semente >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('analise: atypical prices (intervalo da mediana) in one pass', () => {
  it('reads the column text exactly in units of 10^-4', () => {
    expect(['26.9000', '0.0125', '12', '99999999999.9999', '0.0001', '26.9'].map(unidades)).toEqual([269000, 125, 120000, 999999999999999, 1, 269000]);
    // beyond 2^53 only past the column's precision: the largest value is exact
    expect(fromUnits(BigInt(unidades('99999999999.9999')), 4)).toBe('99999999999.9999');
  });

  it('the fixture of the API test: 50.00 above and 12.00 below the band of 19.65 to 32.75', () => {
    const { nosso, esperado } = comparar(['25.0000', '26.9000', '25.5000', '27.5000', '26.9000', '50.0000', '24.0000', '12.0000']);
    expect(nosso).toEqual(esperado);
    expect(nosso.motivos.filter(Boolean)).toEqual(['Acima de 125% da mediana (R$ 32,75).', 'Abaixo de 75% da mediana (R$ 19,65).']);
  });

  it('edges: the bounds themselves are inside; no price within the band marks none; one price; four places; half a cent', () => {
    const casos = [
      ['75.0000', '100.0000', '125.0000', '74.9999', '125.0001'],
      ['10.0000', '100.0000'], // median 55: 41,25 to 68,75 holds neither
      ['1.0000', '2.0000', '100.0000', '200.0000'],
      ['42.0000'],
      ['0.0125', '0.0126', '0.0200', '0.0090', '0.0093', '0.0094'],
      ['0.0101', '0.0102', '0.0103', '0.0300'], // bounds of fractions of a cent: rounded half away from zero
      ['33.3300', '33.3400', '0.0100', '1000.0000', '33.3350'],
      ['99999999999.9999', '99999999999.9998', '1.0000', '80000000000.0000'],
    ];
    for (const precos of casos) {
      const { nosso, esperado } = comparar(precos);
      expect(nosso, precos.join(' ')).toEqual(esperado);
    }
  });

  it('seeded random series of 1 to 400 prices agree with aplicarMetodo', () => {
    const r = aleatorio(22);
    for (let k = 0; k < 300; k++) {
      const n = 1 + Math.floor(r() * 400);
      const base = 1 + Math.floor(r() * 5_000_000);
      const espalhamento = r() * 1.5;
      const precos = Array.from({ length: n }, () => fromUnits(BigInt(Math.max(1, Math.round(base * (1 + (r() - 0.5) * 2 * espalhamento)))), 4));
      const { nosso, esperado } = comparar(precos);
      expect(nosso, precos.join(' ')).toEqual(esperado);
    }
  });
});
