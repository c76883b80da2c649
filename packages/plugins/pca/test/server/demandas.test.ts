// GET /planos/:id/demandas (./src/server/demandas.ts) on a real database (PGlite; PostgreSQL too with
// TEST_DATABASE_URL): each accepted DFD of the plan's year with the Classes/Grupos of its lines, classified
// as the consolidation classifies them, and those Classes/Grupos with how many DFDs have lines in each.
// Fixture (grupos 0750 Artigos de expediente and S01 Serviços gerais of the catalogue):
//   papel    own catalogue, grupo 0750                                   → Grupo 0750
//   caneta   CATMAT 461997, CNBS Classe 7510 Artigos de escritório, 0750 → Classe 7510 (the CNBS, not its grupo)
//   envelope CATMAT 461998 without CNBS Classe, grupo 0750               → Grupo 0750 (as consolidar: a pendência)
//   limpeza  service, CATSER 24139, CNBS Grupo 172 Serviços de limpeza   → Grupo 172
//   copa     service, own catalogue, grupo S01                           → Grupo S01
//   Educação, DFD A: papel, caneta (two Classes/Grupos)    Saúde, DFD B: limpeza, copa    Saúde, DFD C: envelope
//   DFD D: Educação's, for the PCA of another year (not listed)
import { describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import { type User, areasEPessoas, json, pcaApi, pcaPlugins } from './harness.js';
import { PCA_TAG } from '../../src/shared/index.js';

type Classe = { chave: string; tipo: 'classe' | 'grupo' | null; codigo: string | null; nome: string | null; dfds: number };
type Demandas = {
  items: { id: string; numero: number; origemNome: string; plano: { id: string } | null; classes: string[] }[];
  classes: Classe[];
  truncated: boolean;
};

describeEachDatabase('@app/pca: the DFDs of the year with their Classes/Grupos (GET /planos/:id/demandas)', { plugins: pcaPlugins() }, (t) => {
  let educacao: string;
  let saude: string;
  let compras: string;
  let p: Record<'papel' | 'caneta' | 'envelope' | 'limpeza' | 'copa', string>;
  let edu: User;
  let sau: User;
  let aceitante: User;
  let setor: User;
  let setorEdu: User;
  const dfds: Record<'a' | 'b' | 'c' | 'd', string> = { a: '', b: '', c: '', d: '' };

  const { pca, dfd: novoDfd } = pcaApi(t);
  /** An accepted DFD of `origemId` for the PCA of `anoPca`, one line per product. */
  const dfd = (autor: User, origemId: string, produtoIds: string[], anoPca = 2027) =>
    novoDfd({
      autor,
      origemId,
      destinoId: compras,
      aceitante,
      linhas: produtoIds.map((produtoId) => [produtoId, '2', '1,50']),
      anoPca,
      dataDesejada: `${anoPca}-03-10`,
    });
  const novoPlano = async (codigoUnidade: string) =>
    json<{ id: string; version: number }>(await pca('', setor, { json: { anoPca: 2027, codigoUnidade, centroCustoId: compras } }), 201);

  beforeAll(async () => {
    const { prefeitura: entidade_id } = await t.server.demoEntidades();
    const ins = (table: string, values: Record<string, unknown>) => t.server.insert(table, { entidade_id, ...values });
    const expediente = await ins('registros_grupos', { codigo: '0750', nome: 'Artigos de expediente' });
    const servicos = await ins('registros_grupos', { codigo: 'S01', nome: 'Serviços gerais' });
    const un = await ins('registros_unidades', { sigla: 'UN', descricao: 'Unidade' });
    const produto = (codigo: string, descricao: string, extra: Record<string, unknown> = {}) =>
      ins('produtos', { codigo, descricao, tipo: 'material', grupo_id: expediente, unidade_id: un, ...extra });
    p = {
      papel: await produto('000001', 'Papel sulfite A4'),
      caneta: await produto('000002', 'Caneta esferográfica azul', {
        codigo_catalogo: '461997',
        classe_cnbs_codigo: '7510',
        classe_cnbs_nome: 'Artigos de escritório',
      }),
      envelope: await produto('000003', 'Envelope pardo A4', { codigo_catalogo: '461998' }),
      limpeza: await produto('000004', 'Limpeza predial', {
        tipo: 'servico',
        grupo_id: servicos,
        codigo_catalogo: '24139',
        classe_cnbs_codigo: '172',
        classe_cnbs_nome: 'Serviços de limpeza',
      }),
      copa: await produto('000005', 'Serviço de copa', { tipo: 'servico', grupo_id: servicos }),
    };
    ({ educacao, saude, compras, edu, sau, aceitante, setor } = await areasEPessoas(t.server, entidade_id));
    // a person of the setor who also answers for Educação
    setorEdu = await t.server.createUser({ login: 'setor-edu', tags: [PCA_TAG], centros: [educacao] });
    dfds.a = await dfd(edu, educacao, [p.papel, p.caneta]);
    dfds.b = await dfd(sau, saude, [p.limpeza, p.copa]);
    dfds.c = await dfd(sau, saude, [p.envelope]);
    dfds.d = await dfd(edu, educacao, [p.papel], 2028);
  });

  it('answers each DFD’s Classes/Grupos as the consolidation classifies its lines (a DFD in two lists both), and each with its DFDs', async () => {
    const plano = await novoPlano('U1');
    const lido = await json<Demandas>(await pca(`/${plano.id}/demandas`, setor), 200);
    expect(lido.truncated).toBe(false);
    // by origin and number; D is of another year
    expect(lido.items.map((d) => [d.id, d.origemNome, d.classes, d.plano])).toEqual([
      [dfds.a, 'Secretaria de Educação', ['grupo:0750', 'cnbs:7510'], null],
      [dfds.b, 'Secretaria de Saúde', ['cnbs:172', 'grupo:S01'], null],
      [dfds.c, 'Secretaria de Saúde', ['grupo:0750'], null],
    ]);
    // by code (numbers in their order)
    expect(lido.classes).toEqual([
      { chave: 'cnbs:172', tipo: 'grupo', codigo: '172', nome: 'Serviços de limpeza', dfds: 1 },
      { chave: 'grupo:0750', tipo: 'grupo', codigo: '0750', nome: 'Artigos de expediente', dfds: 2 },
      { chave: 'cnbs:7510', tipo: 'classe', codigo: '7510', nome: 'Artigos de escritório', dfds: 1 },
      { chave: 'grupo:S01', tipo: 'grupo', codigo: 'S01', nome: 'Serviços gerais', dfds: 1 },
    ]);

    // the consolidation puts the lines under the very same Classes/Grupos
    await json(
      await pca(`/${plano.id}`, setor, {
        method: 'PUT',
        json: { anoPca: 2027, codigoUnidade: 'U1', centroCustoId: compras, version: plano.version, memorandoIds: [dfds.a, dfds.b, dfds.c] },
      }),
      200,
    );
    const consolidado = await json<{ itens: { descricao: string; classificacaoSuperiorCodigo: string; classificacaoSuperiorNome: string }[] }>(
      await pca(`/${plano.id}`, setor),
      200,
    );
    const superior = Object.fromEntries(consolidado.itens.map((i) => [i.descricao, `${i.classificacaoSuperiorCodigo} – ${i.classificacaoSuperiorNome}`]));
    expect(superior).toEqual({
      'Papel sulfite A4': '0750 – Artigos de expediente',
      'Caneta esferográfica azul': '7510 – Artigos de escritório',
      'Envelope pardo A4': '0750 – Artigos de expediente',
      'Limpeza predial': '172 – Serviços de limpeza',
      'Serviço de copa': 'S01 – Serviços gerais',
    });
    // consolidated: each DFD says the plan it is in
    const depois = await json<Demandas>(await pca(`/${plano.id}/demandas`, setor), 200);
    expect(depois.items.map((d) => d.plano?.id)).toEqual([plano.id, plano.id, plano.id]);
  });

  it('the person’s scope: the DFDs of her centros only, and the Classes/Grupos counted over them', async () => {
    const plano = await novoPlano('U2');
    // the plan is Compras': a person of Educação only does not see it, nor its DFDs
    expect((await pca(`/${plano.id}/demandas`, setorEdu)).status).toBe(404);
    const deEdu = await json<{ id: string; version: number }>(
      await pca('', setorEdu, { json: { anoPca: 2027, codigoUnidade: 'U3', centroCustoId: educacao } }),
      201,
    );
    const visto = await json<Demandas>(await pca(`/${deEdu.id}/demandas`, setorEdu), 200);
    expect(visto.items.map((d) => [d.id, d.classes])).toEqual([[dfds.a, ['grupo:0750', 'cnbs:7510']]]);
    expect(visto.classes.map((c) => [c.chave, c.dfds])).toEqual([
      ['grupo:0750', 1],
      ['cnbs:7510', 1],
    ]);
  });

  it('without tag 101: refused', async () => {
    const plano = await novoPlano('U4');
    const res = await pca(`/${plano.id}/demandas`, edu);
    expect(res.status).toBe(403);
  });
});
