// The background job sorts and sums a piece at a time with a pause between pieces (issue 22: 50 000
// rows at once held the server's thread): the same order — stable, empty cells last, either
// direction — and the same exact sums as the direct path.
import type { ReportDefinition, RequestContext } from '@app/server-core';
import { describe, expect, it } from 'vitest';
import { type Linha, descrever, ordenar, ordenarAosPoucos, somar, somarAosPoucos } from '../../src/server/executar.js';

const report = {
  id: 'teste.linhas',
  title: 'Linhas',
  description: '',
  group: 'Teste',
  tag: 1,
  filters: [],
  columns: [
    { key: 'id', label: 'Id', type: 'integer' },
    { key: 'nome', label: 'Nome' },
    { key: 'valor', label: 'Valor', type: 'money', total: true },
    { key: 'qtd', label: 'Quantidade', type: 'decimal', total: true },
  ],
  load: async () => [],
} as unknown as ReportDefinition;

/** 4 567 rows (more than two pieces of 2 000), with repeated keys (stability) and empty cells. */
const linhas = (): Linha[] =>
  Array.from({ length: 4_567 }, (_, i) => ({
    id: i,
    nome: i % 11 === 0 ? null : ['Ágata', 'bruno', 'Carla', 'álvaro', 'Beto'][(i * 7) % 5],
    valor: i % 13 === 0 ? '' : `${(i * 37) % 1000}.${String(i % 100).padStart(2, '0')}`,
    qtd: `${i % 17}.${i % 10}125`,
  }));

describe('ordenarAosPoucos and somarAosPoucos', () => {
  it('sort as ordenar does (stable, empty cells last, asc and desc), pausing between pieces', async () => {
    const relatorio = await descrever(report, {} as RequestContext);
    for (const ordem of ['nome', 'valor', 'id', null]) {
      for (const direcao of ['asc', 'desc'] as const) {
        const esperado = linhas();
        ordenar(esperado, relatorio, { ordem, direcao });
        const obtido = linhas();
        let pausas = 0;
        await ordenarAosPoucos(obtido, relatorio, { ordem, direcao }, async () => {
          pausas++;
        });
        expect(obtido.map((l) => l.id)).toEqual(esperado.map((l) => l.id));
        if (ordem) expect(pausas).toBeGreaterThan(2);
      }
    }
  });

  it('sum exactly as somar does', async () => {
    const relatorio = await descrever(report, {} as RequestContext);
    let pausas = 0;
    const totais = await somarAosPoucos(linhas(), relatorio, async () => {
      pausas++;
    });
    expect(totais).toEqual(somar(linhas(), relatorio));
    expect(Object.keys(totais)).toEqual(['valor', 'qtd']);
    expect(pausas).toBeGreaterThan(4);
  });
});
