// @app/br's comprasBusca is the SQL compras_busca (migrations/0003_busca.sql) in JavaScript: the
// same result for every character a Brazilian form or spreadsheet brings, on both engines.
import { comprasBusca } from '@app/br';
import { expect, it } from 'vitest';
import { comprasBusca as fromServerCore } from '../src/index.js';
import { describeEachDatabase } from '../src/testing.js';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i)).join('');

/** Every printable ASCII and Latin-1 character, one by one and together, and text as people type it. */
const CORPUS: string[] = [
  ...range(0x20, 0x7e),
  ...range(0xa0, 0xff),
  range(0x20, 0x7e),
  range(0xa0, 0xff),
  'AÇÚCAR CRISTAL, PACOTE 5 KG',
  'Açúcar cristal, pacote 5 kg',
  'Pão francês; maçã; LIMÃO; cajá; côco; pêssego; abóbora; açaí; caqui; ÍNDIGO',
  'São João d’Aliança – GO',
  'Secretaria Municipal de Educação (SME) — Almoxarifado nº 2',
  '1ª Vara; 2º Ofício; Nº 12/2026; nª; Aº',
  'Papel A4 75 g/m², resma 500 fls. (caixa c/ 10) @ R$ 1.234,56 = 50% + 10%',
  '  espaços   múltiplos\tTAB\r\nlinha  ',
  'ÀÁÂÃÄÅ àáâãäå ÈÉÊË èéêë ÌÍÎÏ ìíîï ÒÓÔÕÖØ òóôõöø ÙÚÛÜ ùúûü Ç ç Ñ ñ Ý ý ÿ',
  'Æsir Ðóra Þór straße ×÷ µ ¿¡ « » § ¶ ° ± ¹²³ ¼½¾',
  // decomposed (NFD) text: neither side folds the combining marks
  'Ação'.normalize('NFD'),
  'SÃO PAULO'.normalize('NFD'),
  // beyond Latin-1: one character stays one character on both sides
  'İSTANBUL ıi ΟΔΟΣ Σ Œuvre œ Šš Žž Ÿ ẞ ĞÜŞ БОРЩ',
  '',
];

it('@app/server-core exports the same function (no copy)', () => {
  expect(fromServerCore).toBe(comprasBusca);
});

it('folds case and Portuguese accents, keeps the rest', () => {
  expect(comprasBusca('AÇÚCAR Refinado Nº 1, 2ª via')).toBe('acucar refinado no 1, 2a via');
  expect(comprasBusca('  Pão — Maçã ')).toBe('  pao — maca ');
});

describeEachDatabase('comprasBusca agrees with SQL compras_busca', {}, (t) => {
  it('for every character of the corpus, alone and in text', async () => {
    const rows = await t.server.sql<{ i: number; v: string }>(
      'SELECT i::int AS i, compras_busca(v) AS v FROM unnest($1::text[]) WITH ORDINALITY AS c(v, i) ORDER BY i',
      [CORPUS],
    );
    expect(rows.map((r) => r.v)).toEqual(CORPUS.map(comprasBusca));
  });
});
