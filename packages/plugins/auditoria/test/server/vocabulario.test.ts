// The Logs de Auditoria show every plugin's rows, so they speak each plugin's words: a plugin
// contributes the labels of the codes it stores (server-core's VOCABULARIO_AUDITORIA) and the list
// answers the labels, never the codes; another plugin's words never apply to a row.
import { VOCABULARIO_AUDITORIA, contribute, defineServerPlugin } from '@app/server-core';
import { describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import auditoria from '../../src/server/index.js';
import type { LogItem, LogPage } from '../../src/shared/index.js';

const compras = defineServerPlugin({
  id: 'compras-teste',
  version: '1.0.0',
  core: '^1.0.0',
  tags: [],
  contributes: [
    contribute(VOCABULARIO_AUDITORIA, {
      campos: { status: 'Situação', metodo: 'Método', 'itens.fonte': 'Fonte do preço' },
      valores: { status: { em_coleta: { label: 'Em coleta' }, concluida: { label: 'Concluída' } }, metodo: { media_saneada: 'Média saneada' } },
    }),
    // a second contribution of the same plugin adds to the first
    contribute(VOCABULARIO_AUDITORIA, { valores: { fonte: { nota_fiscal: 'Nota fiscal' } } }),
  ],
  routes: () => undefined,
});

describeEachDatabase('Logs de Auditoria: the words of each plugin', { plugins: [auditoria, compras], seed: true }, (t) => {
  let rows: LogItem[] = [];

  beforeAll(async () => {
    const { prefeitura } = await t.server.demoEntidades();
    const insert = (plugin: string, acao: string, antes: unknown, depois: unknown) =>
      t.server.sql(
        `INSERT INTO audit_log (at, entidade_id, plugin, registro, acao, antes, depois)
         VALUES ('2030-01-01T12:00:00Z', $1, $2, 'reg-vocabulario', $3, $4::jsonb, $5::jsonb)`,
        [prefeitura, plugin, acao, antes === null ? null : JSON.stringify(antes), JSON.stringify(depois)],
      );
    await insert('compras-teste', 'concluir', { status: 'em_coleta', metodo: 'media' }, { status: 'concluida', metodo: 'media_saneada' });
    await insert('compras-teste', 'alterar', { itens: [{ descricao: 'Papel', fonte: 'painel' }] }, { itens: [{ descricao: 'Papel', fonte: 'nota_fiscal' }] });
    // the same codes in another plugin's row: not translated by compras-teste's words
    await insert('outro', 'alterar', { status: 'em_coleta' }, { status: 'concluida' });
    const { token } = await t.server.signIn('admin', 'demo1234', prefeitura);
    const res = await t.server.request('/api/auditoria/logs?registro=reg-vocabulario', { token });
    expect(res.status).toBe(200);
    rows = ((await res.json()) as LogPage).items;
    expect(rows).toHaveLength(3);
  }, 120_000);

  it("labels the stored values and the fields of the row's plugin; a code without a label stays as stored", () => {
    const concluir = rows.find((r) => r.acao === 'concluir')!;
    // (in jsonb key order: the page orders them)
    expect([...concluir.mudancas].sort((a, b) => a.campo.localeCompare(b.campo))).toEqual([
      { campo: 'metodo', rotulo: 'Método', antes: 'media', depois: 'Média saneada' },
      { campo: 'status', rotulo: 'Situação', antes: 'Em coleta', depois: 'Concluída' },
    ]);
  });

  it("labels a line item's fields, from both contributions of the plugin", () => {
    const alterar = rows.find((r) => r.plugin === 'compras-teste' && r.acao === 'alterar')!;
    expect(alterar.mudancas[0]!.itens!.alterados).toEqual([
      { item: 'Papel', mudancas: [{ campo: 'fonte', rotulo: 'Fonte do preço', antes: 'painel', depois: 'Nota fiscal' }] },
    ]);
  });

  it("another plugin's row keeps its codes (it contributed no words)", () => {
    const outro = rows.find((r) => r.plugin === 'outro')!;
    expect(outro.mudancas).toEqual([{ campo: 'status', antes: 'em_coleta', depois: 'concluida' }]);
  });
});
