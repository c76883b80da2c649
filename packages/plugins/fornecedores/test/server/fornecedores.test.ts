import { cnpjCheckDigits, cpfCheckDigits } from '@app/br';
import { parseSpreadsheet } from '@app/server-core';
import registros from '@app/registros/server';
import { type ErrorBody, describeEachDatabase, migrationsOnly, withoutSeed } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import fornecedoresPlugin from '../../src/server/index.js';
import type { Fornecedor } from '../../src/shared/index.js';
import { type Fixture, createRamos } from './helpers.js';

type Page = { items: Fornecedor[]; total: number };
type ImportBody = {
  ok: boolean;
  dryRun: boolean;
  total: number;
  imported: number;
  errorCount: number;
  errors: { linha: number; coluna: string; motivo: string }[];
};

const cnpj = (base: string) => `${base}${cnpjCheckDigits(base)}`;
const cpf = (base: string) => `${base}${cpfCheckDigits(base)}`;

describeEachDatabase('fornecedores API', { plugins: [migrationsOnly(registros), withoutSeed(fornecedoresPlugin)] }, (t) => {
  let token: string;
  let camaraToken: string;
  let pref: Fixture;
  let cam: Fixture;

  beforeAll(async () => {
    ({ prefeitura: pref, camara: cam } = await createRamos(t.server));
    token = (await t.server.signIn(undefined, undefined, pref.entidadeId)).token;
    camaraToken = (await t.server.signIn(undefined, undefined, cam.entidadeId)).token;
  });

  const api = (path: string, init: { method?: string; json?: unknown; token?: string } = {}) =>
    t.server.request(`/api/fornecedores${path}`, { token, ...init });

  const body = (overrides: Record<string, unknown> = {}) => ({
    documento: '12.abc.345/01de-35',
    razaoSocial: 'Nova Era Tecnologia Ltda',
    nomeFantasia: 'Nova Era',
    logradouro: 'Rua Barão de Jundiaí',
    numero: '1120',
    complemento: '',
    bairro: 'Centro',
    cep: '13201-010',
    municipio: 'Jundiaí',
    uf: 'sp',
    contatos: [{ nome: 'Larissa Okada', email: 'Larissa@NovaEra.example.com', telefone: '(11) 3035-0800' }],
    ramoIds: [pref.informatica, pref.papelaria],
    situacao: 'ativo',
    ...overrides,
  });

  const create = async (json: Record<string, unknown>, as = token) => {
    const res = await api('/fornecedores', { json, token: as });
    return { res, body: (await res.json()) as Fornecedor & ErrorBody };
  };

  it('creates a supplier with an alphanumeric CNPJ: stored upper case without mask, shown masked, tipo pessoa derived', async () => {
    const { res, body: f } = await create(body());
    expect(res.status).toBe(201);
    expect(f).toMatchObject({
      documento: '12ABC34501DE35',
      documentoFormatado: '12.ABC.345/01DE-35',
      tipoPessoa: 'juridica',
      cep: '13201010',
      uf: 'SP',
      complemento: null,
      contatos: [{ nome: 'Larissa Okada', email: 'larissa@novaera.example.com', telefone: '1130350800' }],
      situacao: 'ativo',
      ativo: true,
      version: 1,
    });
    expect([...f.ramoIds].sort()).toEqual([pref.informatica, pref.papelaria].sort());
    expect(f.ramos.map((r) => r.nome)).toEqual(['Comércio atacadista de equipamentos de informática', 'Comércio varejista de artigos de papelaria']);
    const read = (await (await api(`/fornecedores/${f.id}`)).json()) as Fornecedor;
    expect(read.documentoFormatado).toBe('12.ABC.345/01DE-35');
    const [stored] = await t.server.sql<{ documento: string; tipo_pessoa: string }>('SELECT documento, tipo_pessoa FROM fornecedores WHERE id = $1', [f.id]);
    expect(stored).toEqual({ documento: '12ABC34501DE35', tipo_pessoa: 'juridica' });
  });

  it('accepts a CPF (pessoa física) and a numeric CNPJ', async () => {
    const pf = await create(body({ documento: '529.982.247-25', razaoSocial: 'Maria Aparecida Gonçalves', nomeFantasia: null }));
    expect(pf.res.status).toBe(201);
    expect(pf.body).toMatchObject({ documento: '52998224725', documentoFormatado: '529.982.247-25', tipoPessoa: 'fisica' });
    const pj = await create(body({ documento: cnpj('184736250001'), razaoSocial: 'Papelaria Aliança Ltda' }));
    expect(pj.res.status).toBe(201);
    expect(pj.body.documentoFormatado).toBe(`18.473.625/0001-${cnpjCheckDigits('184736250001')}`);
  });

  it('invalid CPF/CNPJ → 400 with fields.documento in pt-BR', async () => {
    const badCnpj = await create(body({ documento: '12.ABC.345/01DE-36' }));
    expect(badCnpj.res.status).toBe(400);
    expect(badCnpj.body.error.fields).toEqual({ documento: 'CNPJ inválido: confira os dígitos verificadores.' });
    const badCpf = await create(body({ documento: '529.982.247-24' }));
    expect(badCpf.body.error.fields?.documento).toBe('CPF inválido: confira os dígitos verificadores.');
    const sameDigits = await create(body({ documento: '111.111.111-11' }));
    expect(sameDigits.body.error.fields?.documento).toBe('CPF inválido: confira os dígitos verificadores.');
    const short = await create(body({ documento: '1234' }));
    expect(short.body.error.fields?.documento).toBe('Informe um CPF (11 dígitos) ou um CNPJ (14 caracteres).');
    const letterInCheckDigits = await create(body({ documento: '12ABC34501DEAB' }));
    expect(letterInCheckDigits.body.error.fields?.documento).toBe('CNPJ inválido: confira os dígitos verificadores.');
  });

  it('the same CPF/CNPJ cannot be registered twice in an entidade (409), but may in another', async () => {
    const dup = await create(body({ documento: '12ABC34501DE35', razaoSocial: 'Outra razão' }));
    expect(dup.res.status).toBe(409);
    expect(dup.body.error).toEqual({
      code: 'duplicate',
      message: 'Já existe um fornecedor com este CPF/CNPJ nesta entidade.',
      fields: { documento: 'Já existe um fornecedor com este CPF/CNPJ nesta entidade.' },
    });
    const other = await create(body({ ramoIds: [cam.informatica] }), camaraToken);
    expect(other.res.status).toBe(201);
  });

  it('validates address, contacts, ramos (at least one, of the entidade, active) and the impedimento', async () => {
    const bad = await create(body({ cep: '123', uf: 'XX', logradouro: '', contatos: [{ nome: '', email: 'x@', telefone: '123' }], ramoIds: [] }));
    expect(bad.res.status).toBe(400);
    expect(bad.body.error.fields).toMatchObject({
      cep: 'O CEP tem 8 dígitos.',
      uf: 'UF inválida.',
      logradouro: 'Informe o logradouro.',
      'contatos.0.nome': 'Informe o nome do contato.',
      'contatos.0.email': 'E-mail inválido.',
      'contatos.0.telefone': 'Telefone com DDD: 10 ou 11 dígitos.',
      ramoIds: 'Escolha ao menos um ramo de atividade.',
    });
    const otherEntidade = await create(body({ documento: cnpj('273615480001'), ramoIds: [cam.papelaria] }));
    expect(otherEntidade.body.error.fields).toEqual({ ramoIds: 'Escolha ramos de atividade cadastrados em Registros.' });
    const inactive = await create(body({ documento: cnpj('273615480001'), ramoIds: [pref.inativo] }));
    expect(inactive.body.error.fields).toEqual({ ramoIds: 'Ramo de atividade desativado: Comércio varejista de combustíveis.' });

    const impedido = await create(body({ documento: cnpj('273615480001'), situacao: 'impedido' }));
    expect(impedido.res.status).toBe(400);
    expect(impedido.body.error.fields).toEqual({
      impedimentoMotivo: 'Informe o motivo do impedimento.',
      impedimentoDe: 'Informe o início do impedimento.',
      impedimentoAte: 'Informe o fim do impedimento.',
    });
    const reversed = await create(
      body({ documento: cnpj('273615480001'), situacao: 'impedido', impedimentoMotivo: 'Sanção', impedimentoDe: '2026-05-01', impedimentoAte: '2026-04-01' }),
    );
    expect(reversed.body.error.fields).toEqual({ impedimentoAte: 'O fim do impedimento é anterior ao início.' });
    const ok = await create(
      body({
        documento: cnpj('273615480001'),
        situacao: 'impedido',
        impedimentoMotivo: 'Suspensão temporária (art. 156, III)',
        impedimentoDe: '01/03/2026',
        impedimentoAte: '2027-02-28',
      }),
    );
    expect(ok.res.status).toBe(201);
    expect(ok.body).toMatchObject({ situacao: 'impedido', impedimentoDe: '2026-03-01', impedimentoAte: '2027-02-28', ativo: true });
  });

  it('updates with the version read (ramos replaced, impedimento cleared when no longer impedido); stale → 409', async () => {
    const { body: f } = await create(
      body({ documento: cnpj('315062970001'), situacao: 'impedido', impedimentoMotivo: 'Sanção', impedimentoDe: '2026-01-01', impedimentoAte: '2026-12-31' }),
    );
    const res = await api(`/fornecedores/${f.id}`, {
      method: 'PUT',
      json: body({ documento: f.documento, ramoIds: [pref.limpeza], situacao: 'ativo', impedimentoMotivo: 'Sanção', version: 1 }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()) as Fornecedor).toMatchObject({
      version: 2,
      ramoIds: [pref.limpeza],
      situacao: 'ativo',
      impedimentoMotivo: null,
      impedimentoDe: null,
      impedimentoAte: null,
    });
    const stale = await api(`/fornecedores/${f.id}`, { method: 'PUT', json: body({ documento: f.documento, version: 1 }) });
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as ErrorBody).error.code).toBe('stale');
    const [audit] = await t.server.sql<{ antes: Record<string, unknown>; depois: Record<string, unknown> }>(
      "SELECT antes, depois FROM audit_log WHERE registro = $1 AND acao = 'alterar'",
      [f.id],
    );
    expect(audit?.antes).toMatchObject({ situacao: 'impedido' });
    expect(audit?.depois).toMatchObject({ situacao: 'ativo', ramoIds: [pref.limpeza] });
  });

  it('desativar makes it inativo and hides it from pickers; ativar brings it back', async () => {
    const { body: f } = await create(body({ documento: cnpj('421987360001'), razaoSocial: 'Higienix Distribuidora' }));
    const off = (await (await api(`/fornecedores/${f.id}/desativar`, { method: 'POST' })).json()) as Fornecedor;
    expect(off).toMatchObject({ ativo: false, situacao: 'inativo' });
    expect(((await (await api('/fornecedores?ativo=true&q=higienix')).json()) as Page).total).toBe(0);
    expect(((await (await api('/fornecedores?ativo=todos&q=higienix')).json()) as Page).total).toBe(1);
    const on = (await (await api(`/fornecedores/${f.id}/ativar`, { method: 'POST' })).json()) as Fornecedor;
    expect(on).toMatchObject({ ativo: true, situacao: 'ativo' });
  });

  it('searches by masked or unmasked document and by name without accents', async () => {
    const byMask = (await (await api(`/fornecedores?q=${encodeURIComponent('12.ABC.345')}`)).json()) as Page;
    expect(byMask.items.map((f) => f.documento)).toEqual(['12ABC34501DE35']);
    const byName = (await (await api('/fornecedores?q=goncalves')).json()) as Page;
    expect(byName.items.map((f) => f.razaoSocial)).toEqual(['Maria Aparecida Gonçalves']);
    const pf = (await (await api('/fornecedores?tipoPessoa=fisica')).json()) as Page;
    expect(pf.items.every((f) => f.tipoPessoa === 'fisica')).toBe(true);
  });

  it('deletes a supplier nothing uses; one in use answers 409 saying where', async () => {
    const { body: free } = await create(body({ documento: cnpj('562384190001') }));
    expect((await api(`/fornecedores/${free.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`/fornecedores/${free.id}`)).status).toBe(404);
    expect(await t.server.sql('SELECT * FROM fornecedor_ramos WHERE fornecedor_id = $1', [free.id])).toEqual([]);

    // test-only reference: a table of a future plugin pointing at fornecedores
    await t.server.withRawClient((raw) =>
      raw.exec(`CREATE TABLE teste_cotacoes (id serial PRIMARY KEY, fornecedor_id uuid NOT NULL REFERENCES fornecedores (id));
        COMMENT ON TABLE teste_cotacoes IS 'cotação|cotações';`),
    );
    const { body: used } = await create(body({ documento: cnpj('648201530001') }));
    await t.server.sql('INSERT INTO teste_cotacoes (fornecedor_id) VALUES ($1), ($1)', [used.id]);
    const del = await api(`/fornecedores/${used.id}`, { method: 'DELETE' });
    expect(del.status).toBe(409);
    expect(await del.json()).toEqual({
      error: { code: 'in_use', message: 'Usado em 2 cotações. Para tirá-lo das listas de escolha, desative-o.' },
    });
  });

  it('keeps entidades apart (404 across entidades)', async () => {
    const { body: f } = await create(body({ documento: cnpj('710492860001') }));
    expect((await api(`/fornecedores/${f.id}`, { token: camaraToken })).status).toBe(404);
    expect((await api(`/fornecedores/${f.id}`, { token: camaraToken, method: 'PUT', json: body({ version: 1, ramoIds: [cam.papelaria] }) })).status).toBe(404);
    expect((await api(`/fornecedores/${f.id}`, { token: camaraToken, method: 'DELETE' })).status).toBe(404);
    const list = (await (await api('/fornecedores?ativo=todos', { token: camaraToken })).json()) as Page;
    expect(list.items.map((x) => x.id)).not.toContain(f.id);
  });

  it('import: a dry run with one bad row reports line, column and reason and imports nothing; then a clean import', async () => {
    const header =
      'CPF/CNPJ;Razão social;Nome fantasia;Logradouro;Número;Complemento;Bairro;CEP;Município;UF;Ramos de atividade;Contato - nome;Contato - e-mail;Contato - telefone;Situação;Motivo do impedimento;Impedido de;Impedido até';
    const good = [
      `${cnpj('837462510001')};Medfarma Distribuidora Ltda;Medfarma;Avenida Brasil;2750;;Jardim Chapadão;13070-178;Campinas;SP;4761003 | Limpeza em prédios e em domicílios;Marcelo Tavares;vendas@medfarma.example.com;(19) 3272-8800;;;;`,
      // CNPJ typed as a number in a spreadsheet (leading zero lost) and CEP without its zero
      `${cnpj('093847120001').slice(1)};Cerealista Boa Safra Ltda;;Rua Marechal Deodoro;820;;Centro;1310200;São Paulo;sp;comercio varejista de artigos de papelaria;;;;Impedido;Sanção administrativa;01/03/2026;28/02/2027`,
      `9Z8Y7X6W0001${cnpjCheckDigits('9Z8Y7X6W0001')};Bem Nutrir Alimentação Coletiva Ltda;Bem Nutrir;Avenida Andrade Neves;707;;Centro;13013-161;Campinas;SP;4651601;;;;;;;`,
    ];
    const bad = `${cnpj('904518370001').slice(0, 13)}9;Vitalis Hospitalar Ltda;;Rua Padre Eustáquio;1890;;Padre Eustáquio;30720-100;Belo Horizonte;MG;4761003;;;;;;;`;
    const before = ((await (await api('/fornecedores?ativo=todos', { token: camaraToken })).json()) as Page).total;
    const dry = (await (
      await t.server.upload('/api/fornecedores/fornecedores/importar?dryRun=true', camaraToken, { content: [header, ...good, bad].join('\n') })
    ).json()) as ImportBody;
    const wrong = `${cnpj('904518370001').slice(0, 13)}9` === cnpj('904518370001');
    expect(wrong).toBe(false);
    expect(dry).toEqual({
      ok: false,
      dryRun: true,
      total: 4,
      imported: 0,
      errorCount: 1,
      errors: [{ linha: 5, coluna: 'CPF/CNPJ', motivo: 'CNPJ inválido: confira os dígitos verificadores.' }],
    });
    const refused = (await (
      await t.server.upload('/api/fornecedores/fornecedores/importar?dryRun=false', camaraToken, { content: [header, ...good, bad].join('\n') })
    ).json()) as ImportBody;
    expect(refused).toMatchObject({ ok: false, imported: 0 });
    expect(((await (await api('/fornecedores?ativo=todos', { token: camaraToken })).json()) as Page).total).toBe(before);

    const clean = [header, ...good].join('\n');
    const imported = (await (
      await t.server.upload('/api/fornecedores/fornecedores/importar?dryRun=false', camaraToken, { content: clean })
    ).json()) as ImportBody;
    expect(imported).toEqual({ ok: true, dryRun: false, total: 3, imported: 3, errorCount: 0, errors: [] });
    const list = (await (await api('/fornecedores?ativo=todos&sort=razaoSocial', { token: camaraToken })).json()) as Page;
    const byName = Object.fromEntries(list.items.map((f) => [f.razaoSocial, f]));
    expect(byName['Medfarma Distribuidora Ltda']).toMatchObject({
      contatos: [{ nome: 'Marcelo Tavares', email: 'vendas@medfarma.example.com', telefone: '1932728800' }],
      ramos: [
        { id: cam.papelaria, nome: 'Comércio varejista de artigos de papelaria' },
        { id: cam.limpeza, nome: 'Limpeza em prédios e em domicílios' },
      ],
    });
    expect(byName['Cerealista Boa Safra Ltda']).toMatchObject({
      documento: cnpj('093847120001'),
      cep: '01310200',
      uf: 'SP',
      situacao: 'impedido',
      impedimentoDe: '2026-03-01',
      impedimentoAte: '2027-02-28',
    });
    expect(byName['Bem Nutrir Alimentação Coletiva Ltda']?.documentoFormatado).toMatch(/^9Z\.8Y7\.X6W\/0001-\d\d$/);

    // again: duplicates against the database
    const again = (await (await t.server.upload('/api/fornecedores/fornecedores/importar', camaraToken, { content: clean })).json()) as ImportBody;
    expect(again.errors.map((e) => [e.linha, e.coluna, e.motivo])).toEqual([
      [2, 'CPF/CNPJ', 'Já existe um fornecedor com este CPF/CNPJ nesta entidade.'],
      [3, 'CPF/CNPJ', 'Já existe um fornecedor com este CPF/CNPJ nesta entidade.'],
      [4, 'CPF/CNPJ', 'Já existe um fornecedor com este CPF/CNPJ nesta entidade.'],
    ]);
  });

  it('import reports duplicates inside the file, unknown ramos and impedimento without dates', async () => {
    const csv = [
      'CPF/CNPJ,Razão social,Logradouro,CEP,Município,UF,Ramos de atividade,Situação',
      `${cpf('385172640')},João Batista da Silva,Rua Petronilha Antunes,13201-075,Jundiaí,SP,Chaveiro,Ativo`,
      `${cpf('385172640')},João B. Silva,Rua Petronilha Antunes,13201-075,Jundiaí,SP,4761003,Ativo`,
      `${cnpj('126384950001')},Pharmasul S.A.,Avenida Assis Brasil,91010-003,Porto Alegre,RS,4761003,Impedido`,
      `${cnpj('239475180001')},Cirúrgica Horizonte,Rua Padre Anchieta,80410-030,Curitiba,PR,Comércio varejista de combustíveis,suspenso`,
    ].join('\n');
    const result = (await (await t.server.upload('/api/fornecedores/fornecedores/importar?dryRun=true', token, { content: csv })).json()) as ImportBody;
    expect(result.errors).toEqual([
      { linha: 2, coluna: 'Ramos de atividade', motivo: "Ramo de atividade 'Chaveiro' não encontrado em Registros (informe o nome ou o CNAE)." },
      { linha: 3, coluna: 'CPF/CNPJ', motivo: 'CPF/CNPJ repetido no arquivo (já aparece na linha 2).' },
      { linha: 4, coluna: 'Motivo do impedimento', motivo: 'Informe o motivo do impedimento.' },
      { linha: 4, coluna: 'Impedido de', motivo: 'Informe o início do impedimento.' },
      { linha: 4, coluna: 'Impedido até', motivo: 'Informe o fim do impedimento.' },
      { linha: 5, coluna: 'Situação', motivo: 'Use Ativo, Inativo ou Impedido.' },
    ]);
  });

  it("serves the template ('Baixar modelo') and exports with the document masked", async () => {
    const res = await api('/fornecedores/modelo');
    expect(res.status).toBe(200);
    const sheet = await parseSpreadsheet(new Uint8Array(await res.arrayBuffer()));
    expect(sheet.headers.slice(0, 3)).toEqual(['CPF/CNPJ', 'Razão social', 'Nome fantasia']);
    const exported = await parseSpreadsheet(new Uint8Array(await (await api('/fornecedores.csv?q=12ABC')).arrayBuffer()));
    expect(exported.rows[0]?.cells).toMatchObject({ 'CPF/CNPJ': '12.ABC.345/01DE-35', 'Tipo de pessoa': 'Pessoa jurídica', CEP: '13201-010' });
  });

  it('exports the impedimento dates as dd/mm/aaaa (CSV and XLSX), never the ISO date of the row', async () => {
    const criado = await create(
      body({
        documento: cnpj('418273650001'),
        razaoSocial: 'Datas Exportadas Ltda',
        situacao: 'impedido',
        impedimentoMotivo: 'Impedimento de licitar (art. 156, III)',
        impedimentoDe: '2026-01-31',
        impedimentoAte: '31/01/2027',
      }),
    );
    expect(criado.res.status).toBe(201);
    for (const formato of ['csv', 'xlsx']) {
      const res = await api(`/fornecedores.${formato}?q=${encodeURIComponent('Datas Exportadas')}`);
      expect(res.status).toBe(200);
      const sheet = await parseSpreadsheet(new Uint8Array(await res.arrayBuffer()));
      expect(
        sheet.rows.map((r) => r.cells),
        formato,
      ).toEqual([expect.objectContaining({ Situação: 'Impedido', 'Impedido de': '31/01/2026', 'Impedido até': '31/01/2027' })]);
    }
    // a supplier that is not impedido: blank cells
    expect((await create(body({ documento: cnpj('529384760001'), razaoSocial: 'Datas Ativas Ltda' }))).res.status).toBe(201);
    const ativo = await parseSpreadsheet(new Uint8Array(await (await api(`/fornecedores.csv?q=${encodeURIComponent('Datas Ativas')}`)).arrayBuffer()));
    expect(ativo.rows.map((r) => [r.cells.Situação, r.cells['Impedido de'], r.cells['Impedido até']])).toEqual([['Ativo', '', '']]);
  });

  it('the OpenAPI document lists the routes with tag 26', async () => {
    const doc = (await (await t.server.request('/api/openapi.json')).json()) as { paths: Record<string, Record<string, { 'x-permission-tag'?: number }>> };
    expect(doc.paths['/api/fornecedores/fornecedores/importar']?.post?.['x-permission-tag']).toBe(26);
    expect(doc.paths['/api/fornecedores/fornecedores/{id}']?.put?.['x-permission-tag']).toBe(26);
  });
});
