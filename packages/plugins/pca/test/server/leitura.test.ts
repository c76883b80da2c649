// What GET /planos/:id reads of a consolidated plan (./src/server/leitura.ts) on a real database (PGlite;
// PostgreSQL too with TEST_DATABASE_URL): each item's count of DFD lines and of lines added without DFD,
// and the totals by requesting unit — each DFD line by its DFD's origin, a line added by hand by the plan's
// setor, an item asked by two units counted in both. Hand-computed fixture (all in one grupo, unit UN):
//   Educação, DFD A: papel 10 × 2,50 = 25,00; caneta 4 × 1,25 = 5,00
//   Saúde, DFD B:    papel 20 × 2,50 = 50,00; clipes 3 × 0,50 = 1,50
//   Saúde, DFD C:    papel 2 × 2,50 = 5,00
//   Compras (the setor), without DFD: clipes 5 × 0,50 = 2,50
// Items by description: 1 caneta (1 DFD line), 2 clipes (1 + 1 without DFD), 3 papel (3 DFD lines).
// By unit: Saúde 56,50 (papel, clipes), Educação 30,00 (papel, caneta), Compras e Licitações 2,50 (clipes).
import { describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import { type Linha, type User, areasEPessoas, json, pcaApi, pcaPlugins } from './harness.js';

type Lido = {
  id: string;
  version: number;
  codigoUnidade: string;
  valorTotal: string;
  itens: { numeroItem: number; descricao: string; valorTotal: string; dfds: number; manuais: number }[];
  totais: { porCategoria: { rotulo: string; itens: number; valor: string }[]; porUnidade: { rotulo: string; itens: number; valor: string }[] };
};

describeEachDatabase('@app/pca: the plan as GET /planos/:id reads it', { plugins: pcaPlugins() }, (t) => {
  let educacao: string;
  let saude: string;
  let compras: string;
  let p: Record<'papel' | 'caneta' | 'clipes', string>;
  let edu: User;
  let sau: User;
  let aceitante: User;
  let setor: User;

  const { pca, dfd: novoDfd } = pcaApi(t);
  /** An accepted DFD of `origemId` for the PCA of 2027. */
  const dfd = (autor: User, origemId: string, linhas: Linha[]) =>
    novoDfd({ autor, origemId, destinoId: compras, aceitante, linhas, anoPca: 2027, dataDesejada: '2027-03-10' });

  beforeAll(async () => {
    const { prefeitura: entidade_id } = await t.server.demoEntidades();
    const ins = (table: string, values: Record<string, unknown>) => t.server.insert(table, { entidade_id, ...values });
    const grupo = await ins('registros_grupos', { codigo: '7510', nome: 'Artigos de expediente' });
    const un = await ins('registros_unidades', { sigla: 'UN', descricao: 'Unidade' });
    const produto = (codigo: string, descricao: string) => ins('produtos', { codigo, descricao, tipo: 'material', grupo_id: grupo, unidade_id: un });
    p = {
      papel: await produto('000001', 'Papel sulfite A4'),
      caneta: await produto('000002', 'Caneta esferográfica azul'),
      clipes: await produto('000003', 'Clipes 2/0'),
    };
    ({ educacao, saude, compras, edu, sau, aceitante, setor } = await areasEPessoas(t.server, entidade_id));
  });

  it('counts each item’s DFD lines and lines without DFD, and totals by requesting unit (the setor for lines added by hand), exactly', async () => {
    const a = await dfd(edu, educacao, [
      [p.papel, '10', '2,50'],
      [p.caneta, '4', '1,25'],
    ]);
    const b = await dfd(sau, saude, [
      [p.papel, '20', '2,50'],
      [p.clipes, '3', '0,50'],
    ]);
    const c = await dfd(sau, saude, [[p.papel, '2', '2,50']]);
    const corpo = { anoPca: 2027, codigoUnidade: 'U1', centroCustoId: compras };
    let plano = await json<Lido>(await pca('', setor, { json: corpo }), 201);
    plano = await json<Lido>(await pca(`/${plano.id}`, setor, { method: 'PUT', json: { ...corpo, version: plano.version, memorandoIds: [a, b, c] } }), 200);
    await json(
      await pca(`/${plano.id}/itens-manuais`, setor, {
        json: {
          produtoId: p.clipes,
          categoriaItemPca: 1,
          quantidade: '5',
          valorUnitario: '0,50',
          dataDesejada: '2027-03-15',
          justificativa: 'Reserva do almoxarifado central.',
        },
      }),
      201,
    );
    const lido = await json<Lido>(await pca(`/${plano.id}`, setor), 200);
    expect(lido.itens.map(({ numeroItem, descricao, valorTotal, dfds, manuais }) => ({ numeroItem, descricao, valorTotal, dfds, manuais }))).toEqual([
      { numeroItem: 1, descricao: 'Caneta esferográfica azul', valorTotal: '5.0000', dfds: 1, manuais: 0 },
      { numeroItem: 2, descricao: 'Clipes 2/0', valorTotal: '4.0000', dfds: 1, manuais: 1 },
      { numeroItem: 3, descricao: 'Papel sulfite A4', valorTotal: '80.0000', dfds: 3, manuais: 0 },
    ]);
    expect(lido.valorTotal).toBe('89.0000');
    // an item asked by two units counts in both, with each one's part; the largest value first
    expect(lido.totais.porUnidade).toEqual([
      { rotulo: 'Secretaria de Saúde', itens: 2, valor: '56.5000' },
      { rotulo: 'Secretaria de Educação', itens: 2, valor: '30.0000' },
      { rotulo: 'Compras e Licitações', itens: 1, valor: '2.5000' },
    ]);
    expect(lido.totais.porCategoria).toEqual([{ rotulo: 'Material', itens: 3, valor: '89.0000' }]);
  });

  it('an item asked by several DFDs of one unit counts once for it; units with the same value by name', async () => {
    // two DFDs of Educação for the same product (one item), and Saúde's with the same value
    const a = await dfd(edu, educacao, [[p.caneta, '2', '1,25']]);
    const b = await dfd(edu, educacao, [[p.caneta, '2', '1,25']]);
    const c = await dfd(sau, saude, [[p.clipes, '10', '0,50']]);
    const corpo = { anoPca: 2027, codigoUnidade: 'U2', centroCustoId: compras };
    let plano = await json<Lido>(await pca('', setor, { json: corpo }), 201);
    plano = await json<Lido>(await pca(`/${plano.id}`, setor, { method: 'PUT', json: { ...corpo, version: plano.version, memorandoIds: [c, b, a] } }), 200);
    plano = await json<Lido>(await pca(`/${plano.id}`, setor), 200);
    expect(plano.itens.map((i) => [i.descricao, i.dfds, i.manuais])).toEqual([
      ['Caneta esferográfica azul', 2, 0],
      ['Clipes 2/0', 1, 0],
    ]);
    expect(plano.totais.porUnidade).toEqual([
      { rotulo: 'Secretaria de Educação', itens: 1, valor: '5.0000' },
      { rotulo: 'Secretaria de Saúde', itens: 1, valor: '5.0000' },
    ]);
  });
});
