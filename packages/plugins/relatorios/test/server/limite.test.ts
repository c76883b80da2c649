// RELATORIOS_MAX_LINHAS: the rows above which a report has no preview nor direct file (the background
// instead) — 10 000 by default, lowered for the end-to-end tests (apps/web/e2e/serve.mjs), never raised.
import type { ReportDefinition, RequestContext } from '@app/server-core';
import { afterEach, describe, expect, it } from 'vitest';
import { limiteDoAmbiente } from '../../src/server/arquivos.js';
import { descrever, executar, lerFiltros } from '../../src/server/executar.js';
import { MAX_LINHAS } from '../../src/shared/index.js';

const original = process.env.RELATORIOS_MAX_LINHAS;
afterEach(() => {
  if (original === undefined) delete process.env.RELATORIOS_MAX_LINHAS;
  else process.env.RELATORIOS_MAX_LINHAS = original;
});

describe('RELATORIOS_MAX_LINHAS', () => {
  it('10 000 when unset or empty; an integer from 1 to 10 000 otherwise, anything else stops the start', () => {
    delete process.env.RELATORIOS_MAX_LINHAS;
    expect(limiteDoAmbiente()).toBe(MAX_LINHAS);
    process.env.RELATORIOS_MAX_LINHAS = ' ';
    expect(limiteDoAmbiente()).toBe(10_000);
    for (const [valor, limite] of [
      ['25', 25],
      ['1', 1],
      [' 10000 ', 10_000],
    ] as const) {
      process.env.RELATORIOS_MAX_LINHAS = valor;
      expect(limiteDoAmbiente()).toBe(limite);
    }
    for (const valor of ['0', '-5', '10001', '2.5', 'abc', '1e3x']) {
      process.env.RELATORIOS_MAX_LINHAS = valor;
      expect(() => limiteDoAmbiente(), valor).toThrow(/RELATORIOS_MAX_LINHAS must be an integer from 1 to 10000/);
    }
  });

  it('a report over the limit: 400 naming it (fields.linhas = demais, the page offers the background); at the limit: its rows', async () => {
    const report = {
      id: 'teste.linhas',
      title: 'Linhas',
      description: '',
      group: 'Teste',
      tag: 1,
      filters: [],
      columns: [{ key: 'n', label: 'N', type: 'integer', total: true }],
      load: async (_ctx: RequestContext, _f: unknown, limit: number) => Array.from({ length: Math.min(limit, 30) }, (_, i) => ({ n: i + 1 })),
    } as unknown as ReportDefinition;
    const ctx = {} as RequestContext;
    const relatorio = await descrever(report, ctx);
    const execucao = lerFiltros(relatorio, {});
    await expect(executar(report, relatorio, ctx, execucao, 25)).rejects.toMatchObject({
      status: 400,
      message: 'O relatório passa de 25 linhas: restrinja o período ou os filtros, ou gere o PDF ou o XLSX em segundo plano.',
      fields: { linhas: 'demais' },
    });
    const { linhas, totais } = await executar(report, relatorio, ctx, execucao, 30);
    expect(linhas).toHaveLength(30);
    expect(totais).toEqual({ n: '465' });
    // the default: 10 000
    expect((await executar(report, relatorio, ctx, execucao)).linhas).toHaveLength(30);
  });
});
