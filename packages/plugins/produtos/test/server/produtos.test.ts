import { contribute, defineServerPlugin, parseSpreadsheet } from '@app/server-core';
import registros from '@app/registros/server';
import { type ErrorBody, describeEachDatabase, migrationsOnly, withoutSeed } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import produtos, { PRODUTO_USOS } from '../../src/server/index.js';
import type { Produto } from '../../src/shared/index.js';
import { type Fixture, createRegistros } from './helpers.js';

type Page = { items: Produto[]; total: number; page: number; pageSize: number };
type ImportBody = {
  ok: boolean;
  dryRun: boolean;
  total: number;
  imported: number;
  errorCount: number;
  errors: { linha: number; coluna: string; motivo: string }[];
};

/** Products the 'fichas' plugin says it uses (its own tables, in a real plugin). */
const fichasUsam = new Set<string>();
/** A plugin that tells where a product is used through the PRODUTO_USOS extension point. */
const fichas = defineServerPlugin({
  id: 'fichas',
  version: '1.0.0',
  core: '^1.0.0',
  tags: [],
  contributes: [contribute(PRODUTO_USOS, async (_db, produto) => (fichasUsam.has(produto.id) ? ['Ficha 3/2026'] : []))],
  routes: () => undefined,
});

describeEachDatabase('produtos API', { plugins: [migrationsOnly(registros), withoutSeed(produtos), fichas] }, (t) => {
  let token: string;
  let camaraToken: string;
  let consultaToken: string;
  let pref: Fixture;
  let cam: Fixture;

  beforeAll(async () => {
    ({ prefeitura: pref, camara: cam } = await createRegistros(t.server));
    token = (await t.server.signIn(undefined, undefined, pref.entidadeId)).token;
    camaraToken = (await t.server.signIn(undefined, undefined, cam.entidadeId)).token;
    consultaToken = (await t.server.signIn('consulta', 'demo1234')).token;
  });

  const api = (path: string, init: { method?: string; json?: unknown; token?: string } = {}) => t.server.request(`/api/produtos${path}`, { token, ...init });

  const papel = () => ({
    descricao: 'Papel sulfite A4 75 g/m², resma 500 folhas',
    tipo: 'material',
    grupoId: pref.expediente,
    subGrupoId: pref.papelaria,
    unidadeId: pref.resma,
    tipoMaterialId: pref.consumo,
    codigoCatalogo: '461800',
    especificacao: 'Formato 210 x 297 mm.',
  });

  const create = async (body: Record<string, unknown>, as = token) => {
    const res = await api('/produtos', { json: body, token: as });
    return { res, body: (await res.json()) as Produto & ErrorBody };
  };

  it('creates a product with the next código, answers the registry names, and reads it back', async () => {
    const { res, body } = await create(papel());
    expect(res.status).toBe(201);
    expect(body).toMatchObject({
      codigo: '000001',
      descricao: 'Papel sulfite A4 75 g/m², resma 500 folhas',
      tipo: 'material',
      grupoNome: 'Material de expediente',
      subGrupoNome: 'Papelaria',
      unidadeSigla: 'RESMA',
      tipoMaterialNome: 'Consumo',
      codigoCatalogo: '461800',
      ativo: true,
      version: 1,
    });
    expect(body).not.toHaveProperty('entidadeId');
    expect(body).not.toHaveProperty('busca');
    const read = await api(`/produtos/${body.id}`);
    expect(read.status).toBe(200);
    expect(((await read.json()) as Produto).descricao).toBe(body.descricao);
    const second = await create({ ...papel(), descricao: 'Caneta esferográfica azul', subGrupoId: null, unidadeId: pref.un, codigoCatalogo: '' });
    expect(second.body.codigo).toBe('000002');
    expect(second.body.codigoCatalogo).toBeNull();
    // audited
    const [audit] = await t.server.sql<{ acao: string }>(`SELECT acao FROM audit_log WHERE plugin = 'produtos' AND registro = $1`, [body.id]);
    expect(audit?.acao).toBe('criar');
  });

  it('lists with accent-insensitive search, sort and the ativo filter of pickers', async () => {
    const res = await api('/produtos?q=CANETA%20esferografica&sort=-codigo');
    const page = (await res.json()) as Page;
    expect(page.total).toBe(1);
    expect(page.items[0]?.descricao).toBe('Caneta esferográfica azul');
    const all = (await (await api('/produtos?ativo=true&sort=codigo&pageSize=50')).json()) as Page;
    expect(all.items.map((p) => p.codigo).slice(0, 2)).toEqual(['000001', '000002']);
  });

  it('validates: required fields, sub-grupo of the grupo, registries of the entidade, active registries (400 with fields)', async () => {
    const empty = await create({ tipo: 'material' });
    expect(empty.res.status).toBe(400);
    expect(Object.keys(empty.body.error.fields ?? {})).toEqual(expect.arrayContaining(['descricao', 'grupoId', 'unidadeId']));
    expect(empty.body.error.fields?.descricao).toBe('Informe a descrição.');

    const wrongSub = await create({ ...papel(), descricao: 'Pasta AZ lombo largo', subGrupoId: pref.manutencao });
    expect(wrongSub.res.status).toBe(400);
    expect(wrongSub.body.error.fields).toEqual({ subGrupoId: 'O sub-grupo não pertence ao grupo escolhido.' });

    const otherEntidade = await create({ ...papel(), descricao: 'Pasta AZ lombo largo', grupoId: cam.expediente, subGrupoId: null });
    expect(otherEntidade.res.status).toBe(400);
    expect(otherEntidade.body.error.fields?.grupoId).toBe('Escolha um grupo cadastrado em Registros.');

    const inactive = await create({ ...papel(), descricao: 'Pasta AZ lombo largo', grupoId: pref.limpezaInativo, subGrupoId: null, unidadeId: pref.cxInativa });
    expect(inactive.res.status).toBe(400);
    expect(inactive.body.error.fields).toEqual({ grupoId: 'Este grupo está desativado.', unidadeId: 'Esta unidade está desativada.' });

    const badCatmat = await create({ ...papel(), descricao: 'Pasta AZ lombo largo', codigoCatalogo: '46A' });
    expect(badCatmat.body.error.fields?.codigoCatalogo).toBe('O código CATMAT/CATSER tem apenas números (até 9 dígitos).');
  });

  it('a service has no tipo de material', async () => {
    const { res, body } = await create({
      descricao: 'Serviço de manutenção de ar-condicionado split',
      tipo: 'servico',
      grupoId: pref.servicos,
      subGrupoId: pref.manutencao,
      unidadeId: pref.sv,
      tipoMaterialId: pref.consumo,
    });
    expect(res.status).toBe(201);
    expect(body.tipoMaterialId).toBeNull();
  });

  it('keeps the CNBS classification the PCA sends: classe/grupo and PDM, code and name together, a PDM only for materials', async () => {
    const metade = await create({ ...papel(), descricao: 'Papel sulfite A4 reciclado', classeCnbsCodigo: '7530', pdmCodigo: ' ', pdmDescricao: 'Papel A4' });
    expect(metade.res.status).toBe(400);
    expect(metade.body.error.fields).toEqual({
      classeCnbsNome: 'Informe também o nome da classe ou grupo do CNBS.',
      pdmCodigo: 'Informe também o código do PDM.',
    });
    const letras = await create({ ...papel(), descricao: 'Papel sulfite A4 reciclado', classeCnbsCodigo: '75A', classeCnbsNome: 'Papelaria' });
    expect(letras.body.error.fields?.classeCnbsCodigo).toBe('O código da classe ou grupo do CNBS tem apenas números (até 10 dígitos).');
    const servico = await create({
      descricao: 'Serviço de dedetização',
      tipo: 'servico',
      grupoId: pref.servicos,
      unidadeId: pref.sv,
      pdmCodigo: '123',
      pdmDescricao: 'Dedetização',
    });
    expect(servico.body.error.fields?.pdmCodigo).toBe('PDM só se aplica a materiais.');
    const ok = await create({
      ...papel(),
      descricao: 'Papel sulfite A4 reciclado',
      classeCnbsCodigo: ' 7530 ',
      classeCnbsNome: 'Artigos de papelaria',
      pdmCodigo: '4408',
      pdmDescricao: 'Papel A4',
    });
    expect(ok.res.status).toBe(201);
    expect(ok.body).toMatchObject({ classeCnbsCodigo: '7530', classeCnbsNome: 'Artigos de papelaria', pdmCodigo: '4408', pdmDescricao: 'Papel A4' });
  });

  it('refuses a duplicate código or descrição (case and accents ignored) with 409', async () => {
    const codigo = await create({ ...papel(), codigo: '000001', descricao: 'Outro item qualquer' });
    expect(codigo.res.status).toBe(409);
    expect(codigo.body.error).toMatchObject({ code: 'duplicate', fields: { codigo: 'Já existe um produto com este código.' } });
    const descricao = await create({ ...papel(), descricao: 'PAPEL SULFITE A4 75 G/M², RESMA 500 FOLHAS' });
    expect(descricao.res.status).toBe(409);
    expect(descricao.body.error.fields?.descricao).toBe('Já existe um produto com esta descrição.');
    const accents = await create({ ...papel(), descricao: 'Caneta esferografica azul' });
    expect(accents.res.status).toBe(409);
    expect(accents.body.error).toMatchObject({ code: 'duplicate', fields: { descricao: 'Já existe um produto com esta descrição.' } });
  });

  it('updates with the version read; a stale version answers 409', async () => {
    const { body: created } = await create({ ...papel(), descricao: 'Clipe galvanizado nº 2/0, caixa 500 g', subGrupoId: null, unidadeId: pref.un });
    const ok = await api(`/produtos/${created.id}`, {
      method: 'PUT',
      json: {
        ...papel(),
        descricao: created.descricao,
        codigo: created.codigo,
        subGrupoId: null,
        unidadeId: pref.un,
        especificacao: 'Aço galvanizado',
        version: 1,
      },
    });
    expect(ok.status).toBe(200);
    const updated = (await ok.json()) as Produto;
    expect(updated).toMatchObject({ version: 2, especificacao: 'Aço galvanizado', codigo: created.codigo });
    const stale = await api(`/produtos/${created.id}`, { method: 'PUT', json: { ...papel(), descricao: 'Clipe nº 2/0', version: 1 } });
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as ErrorBody).error.code).toBe('stale');
    const audit = await t.server.sql<{ antes: Record<string, unknown>; depois: Record<string, unknown> }>(
      `SELECT antes, depois FROM audit_log WHERE registro = $1 AND acao = 'alterar'`,
      [created.id],
    );
    expect(audit[0]?.depois).toMatchObject({ especificacao: 'Aço galvanizado', version: 2 });
  });

  it('a product used by a document: no delete, no new descrição (409 saying where); deactivating hides it from pickers', async () => {
    const { body: p } = await create({ ...papel(), descricao: 'Grampeador de mesa 26/6', subGrupoId: null, unidadeId: pref.un });
    // test-only reference: a document of another plugin records the use
    await t.server.sql(
      `INSERT INTO produto_usos (entidade_id, produto_id, origem, documento_id, descricao) VALUES ($1, $2, 'memorandos', 'm-12', 'Memorando 12/2026')`,
      [pref.entidadeId, p.id],
    );
    const del = await api(`/produtos/${p.id}`, { method: 'DELETE' });
    expect(del.status).toBe(409);
    expect(await del.json()).toEqual({
      error: { code: 'in_use', message: 'Usado em Memorando 12/2026. Para tirá-lo das listas de escolha, desative-o.' },
    });
    const rename = await api(`/produtos/${p.id}`, {
      method: 'PUT',
      json: { ...papel(), descricao: 'Grampeador 26/6 novo', subGrupoId: null, unidadeId: pref.un, version: 1 },
    });
    expect(rename.status).toBe(409);
    const renameBody = (await rename.json()) as ErrorBody;
    expect(renameBody.error.code).toBe('in_use');
    expect(renameBody.error.fields?.descricao).toBe(
      'A descrição não pode ser alterada: o produto é usado em Memorando 12/2026. Desative-o e cadastre um novo produto com a nova descrição.',
    );
    // other fields may still change
    const other = await api(`/produtos/${p.id}`, {
      method: 'PUT',
      json: { ...papel(), descricao: p.descricao, subGrupoId: null, unidadeId: pref.un, codigoCatalogo: '150495', version: 1 },
    });
    expect(other.status).toBe(200);
    const usos = (await (await api(`/produtos/${p.id}/usos`)).json()) as { emUso: boolean; texto: string };
    expect(usos).toMatchObject({ emUso: true, texto: 'Usado em Memorando 12/2026' });

    const off = await api(`/produtos/${p.id}/desativar`, { method: 'POST' });
    expect(off.status).toBe(200);
    const pickers = (await (await api('/produtos?ativo=true&q=grampeador')).json()) as Page;
    expect(pickers.total).toBe(0);
    const todos = (await (await api('/produtos?ativo=todos&q=grampeador')).json()) as Page;
    expect(todos.items.map((x) => x.ativo)).toEqual([false]);
    expect((await api(`/produtos/${p.id}`)).status).toBe(200);

    // a plugin can also answer through a checker contributed to PRODUTO_USOS
    await t.server.sql('DELETE FROM produto_usos WHERE produto_id = $1', [p.id]);
    fichasUsam.add(p.id);
    try {
      const blocked = await api(`/produtos/${p.id}`, { method: 'DELETE' });
      expect(blocked.status).toBe(409);
      expect(((await blocked.json()) as ErrorBody).error.message).toBe('Usado em Ficha 3/2026. Para tirá-lo das listas de escolha, desative-o.');
      expect(await (await api(`/produtos/${p.id}/usos`)).json()).toEqual({
        emUso: true,
        texto: 'Usado em Ficha 3/2026',
        usos: [{ origem: 'fichas', descricao: 'Ficha 3/2026' }],
      });
    } finally {
      fichasUsam.delete(p.id);
    }
    expect(await (await api(`/produtos/${p.id}/usos`)).json()).toEqual({ emUso: false, texto: null, usos: [] });
    expect((await api(`/produtos/${p.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`/produtos/${p.id}`)).status).toBe(404);
  });

  it('keeps entidades apart: another entidade gets 404 and does not list it', async () => {
    const { body: p } = await create({ ...papel(), descricao: 'Envelope saco kraft 24 x 34 cm', subGrupoId: null, unidadeId: pref.un });
    expect((await api(`/produtos/${p.id}`, { token: camaraToken })).status).toBe(404);
    expect((await api(`/produtos/${p.id}`, { token: camaraToken, method: 'PUT', json: { ...papel(), descricao: 'x x x', version: 1 } })).status).toBe(404);
    expect((await api(`/produtos/${p.id}`, { token: camaraToken, method: 'DELETE' })).status).toBe(404);
    expect((await api(`/produtos/${p.id}/desativar`, { token: camaraToken, method: 'POST' })).status).toBe(404);
    expect((await api(`/produtos/${p.id}/usos`, { token: camaraToken })).status).toBe(404);
    const list = (await (await api('/produtos?ativo=todos', { token: camaraToken })).json()) as Page;
    expect(list.total).toBe(0);
    // the câmara numbers its own códigos
    const own = await create(
      { ...papel(), grupoId: cam.expediente, subGrupoId: cam.papelaria, unidadeId: cam.resma, tipoMaterialId: cam.consumo },
      camaraToken,
    );
    expect(own.res.status).toBe(201);
    expect(own.body.codigo).toBe('000001');
  });

  it('needs tag 25', async () => {
    expect((await api('/produtos', { token: consultaToken })).status).toBe(403);
    expect((await t.server.request('/api/produtos/produtos')).status).toBe(401);
  });

  it('import: a dry run with one bad row reports line, column and reason and imports nothing; then a clean import', async () => {
    const before = (await (await api('/produtos?ativo=todos', { token: camaraToken })).json()) as Page;
    const header = 'Código;Descrição;Tipo;Grupo;Sub-grupo;Unidade;Tipo de material;CATMAT/CATSER;Especificação;Ativo';
    const good = [
      ';Lápis preto nº 2 sextavado;Material;01;Papelaria;UN;Consumo;;;Sim',
      'S-10;Serviço de chaveiro;Serviço;Serviços;;SV;;;Abertura e cópia;',
      ';Borracha branca macia nº 40;material;material de expediente;;unidade;consumo;;;',
    ];
    const bad = ';Cola branca 90 g;Material;01;Papelaria;LITRO;Consumo;;;Sim';
    const dry = await t.server.upload('/api/produtos/produtos/importar?dryRun=true', camaraToken, { content: [header, ...good, bad].join('\n') });
    expect(dry.status).toBe(200);
    const dryBody = (await dry.json()) as ImportBody;
    expect(dryBody).toEqual({
      ok: false,
      dryRun: true,
      total: 4,
      imported: 0,
      errorCount: 1,
      errors: [{ linha: 5, coluna: 'Unidade', motivo: "Unidade 'LITRO' não encontrada em Registros (informe a sigla ou a descrição)." }],
    });
    // without dryRun the same file imports nothing either
    const refused = (await (
      await t.server.upload('/api/produtos/produtos/importar?dryRun=false', camaraToken, { content: [header, ...good, bad].join('\n') })
    ).json()) as ImportBody;
    expect(refused).toMatchObject({ ok: false, imported: 0 });
    const after = (await (await api('/produtos?ativo=todos', { token: camaraToken })).json()) as Page;
    expect(after.total).toBe(before.total);

    const clean = [header, ...good].join('\r\n');
    expect((await (await t.server.upload('/api/produtos/produtos/importar', camaraToken, { content: clean })).json()) as ImportBody).toMatchObject({
      ok: true,
      dryRun: true,
      total: 3,
      imported: 0,
    });
    const imported = (await (await t.server.upload('/api/produtos/produtos/importar?dryRun=false', camaraToken, { content: clean })).json()) as ImportBody;
    expect(imported).toEqual({ ok: true, dryRun: false, total: 3, imported: 3, errorCount: 0, errors: [] });
    const list = (await (await api('/produtos?ativo=todos&sort=codigo', { token: camaraToken })).json()) as Page;
    expect(list.items.map((p) => [p.codigo, p.descricao, p.tipo, p.unidadeSigla, p.tipoMaterialNome])).toEqual([
      ['000001', 'Papel sulfite A4 75 g/m², resma 500 folhas', 'material', 'RESMA', 'Consumo'],
      ['000002', 'Lápis preto nº 2 sextavado', 'material', 'UN', 'Consumo'],
      ['000003', 'Borracha branca macia nº 40', 'material', 'UN', 'Consumo'],
      ['S-10', 'Serviço de chaveiro', 'servico', 'SV', null],
    ]);
    const audit = await t.server.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE plugin = 'produtos' AND acao = 'importar' AND entidade_id = $1`,
      [cam.entidadeId],
    );
    expect(audit[0]?.n).toBe(3);
    // the same file again: every row is a duplicate now
    const again = (await (await t.server.upload('/api/produtos/produtos/importar?dryRun=true', camaraToken, { content: clean })).json()) as ImportBody;
    expect(again.errors).toEqual([
      { linha: 2, coluna: 'Descrição', motivo: 'Já existe um produto com esta descrição.' },
      { linha: 3, coluna: 'Código', motivo: 'Já existe um produto com este código.' },
      { linha: 3, coluna: 'Descrição', motivo: 'Já existe um produto com esta descrição.' },
      { linha: 4, coluna: 'Descrição', motivo: 'Já existe um produto com esta descrição.' },
    ]);
  });

  it('import reports schema problems and duplicates inside the file', async () => {
    const csv = [
      'Descrição,Tipo,Grupo,Unidade,Tipo de material,Ativo',
      'Régua 30 cm,Material,01,UN,,talvez',
      'Régua 30 cm,Material,01,UN,,',
      'Xy,Objeto,01,UN,,',
      'Serviço de poda,Serviço,02,SV,Consumo,',
      'Tesoura 21 cm,Material,Grupo que não existe,UN,,',
    ].join('\n');
    const cnbs = ['Descrição,Tipo,Grupo,Unidade,Classe/grupo CNBS,PDM,Descrição do PDM', 'Grampeador 26/6,Material,01,UN,7510,,'].join('\n');
    const semNome = (await (await t.server.upload('/api/produtos/produtos/importar?dryRun=true', token, { content: cnbs })).json()) as ImportBody;
    expect(semNome.errors).toEqual([{ linha: 2, coluna: 'Nome da classe/grupo CNBS', motivo: 'Informe também o nome da classe ou grupo do CNBS.' }]);
    const body = (await (await t.server.upload('/api/produtos/produtos/importar?dryRun=true', token, { content: csv })).json()) as ImportBody;
    expect(body.errors).toEqual([
      { linha: 2, coluna: 'Ativo', motivo: 'Use Sim ou Não.' },
      { linha: 4, coluna: 'Descrição', motivo: 'Informe a descrição (ao menos 3 caracteres).' },
      { linha: 4, coluna: 'Tipo', motivo: 'Informe Material ou Serviço.' },
      { linha: 5, coluna: 'Tipo de material', motivo: 'Tipo de material só se aplica a materiais.' },
      { linha: 6, coluna: 'Grupo', motivo: "Grupo 'Grupo que não existe' não encontrado em Registros (informe o código ou o nome)." },
    ]);
    // row 3 repeats row 2, but row 2 is invalid, so only valid rows are compared
  });

  it("serves the template ('Baixar modelo') with the import columns, and the export uses the same headers", async () => {
    const res = await api('/produtos/modelo');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('modelo-produtos.xlsx');
    const sheet = await parseSpreadsheet(new Uint8Array(await res.arrayBuffer()));
    const headers = [
      'Código',
      'Descrição',
      'Tipo',
      'Grupo',
      'Sub-grupo',
      'Unidade',
      'Tipo de material',
      'CATMAT/CATSER',
      'Classe/grupo CNBS',
      'Nome da classe/grupo CNBS',
      'PDM',
      'Descrição do PDM',
      'Especificação',
      'Ativo',
    ];
    expect(sheet.headers).toEqual(headers);
    const csv = await api('/produtos/modelo?formato=csv');
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const exported = await api('/produtos.csv?ativo=todos');
    expect(exported.status).toBe(200);
    const exportedSheet = await parseSpreadsheet(new Uint8Array(await exported.arrayBuffer()));
    expect(exportedSheet.headers).toEqual(headers);
    expect(exportedSheet.rows[0]?.cells.Tipo).toMatch(/^(Material|Serviço)$/);
  });

  it('imports an XLSX file: the list export of one entidade imported into another', async () => {
    const xlsx = await api('/produtos.xlsx?q=clipe&ativo=todos');
    expect(xlsx.status).toBe(200);
    const bytes = new Uint8Array(await xlsx.arrayBuffer());
    const res = await t.server.app.request('/api/produtos/produtos/importar?dryRun=false', {
      method: 'POST',
      body: bytes,
      headers: {
        authorization: `Bearer ${camaraToken}`,
        'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        'x-filename': 'produtos.xlsx',
      },
    });
    expect(await res.json()).toEqual({ ok: true, dryRun: false, total: 1, imported: 1, errorCount: 0, errors: [] });
    const list = (await (await api('/produtos?q=clipe', { token: camaraToken })).json()) as Page;
    expect(list.items.map((p) => [p.descricao, p.grupoNome, p.unidadeSigla, p.especificacao])).toEqual([
      ['Clipe galvanizado nº 2/0, caixa 500 g', 'Material de expediente', 'UN', 'Aço galvanizado'],
    ]);
    expect(list.items[0]?.grupoId).toBe(cam.expediente);
  });

  it('sorts by the grupo name (joined) in pt-BR order, both ways, then by descrição', async () => {
    const aguas = await t.server.insert('registros_grupos', { entidade_id: pref.entidadeId, codigo: '09', nome: 'Águas e saneamento' });
    for (const [descricao, grupoId] of [
      ['Ordenar: hipoclorito de sódio 1 L', aguas],
      ['Ordenar: bloco de notas', pref.expediente],
      ['Ordenar: agenda anual', pref.expediente],
      ['Ordenar: manutenção de calhas', pref.servicos],
    ] as const) {
      expect((await create({ descricao, tipo: 'material', grupoId, unidadeId: pref.un })).res.status).toBe(201);
    }
    const order = async (sort: string) => ((await (await api(`/produtos?q=ordenar&sort=${sort}`)).json()) as Page).items.map((p) => [p.grupoNome, p.descricao]);
    const ascending = [
      ['Águas e saneamento', 'Ordenar: hipoclorito de sódio 1 L'],
      ['Material de expediente', 'Ordenar: agenda anual'],
      ['Material de expediente', 'Ordenar: bloco de notas'],
      ['Serviços', 'Ordenar: manutenção de calhas'],
    ];
    expect(await order('grupoNome')).toEqual(ascending);
    expect(await order('-grupoNome')).toEqual([ascending[3], ascending[1], ascending[2], ascending[0]]);
    expect(await order('unidadeSigla')).toHaveLength(4);
  });
});
