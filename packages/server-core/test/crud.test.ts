import { inflateRawSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { searchTerms, STALE_MESSAGE } from '../src/kit/crud.js';
import { describeEachDatabase } from '../src/testing.js';
import { toCsv } from '../src/formats/xlsx.js';
import { crudPlugin } from './fixtures/crud-plugin.js';

type Item = { id: string; codigo: string; nome: string; quantidade: number | null; ativo: boolean; version: number } & Record<string, unknown>;
type PageBody = { items: Item[]; total: number; page: number; pageSize: number };
type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

/** Files of a ZIP archive (as the kit writes them: deflate, sizes in the local headers). */
function unzip(bytes: Uint8Array): Map<string, string> {
  const buf = Buffer.from(bytes);
  const files = new Map<string, string>();
  let offset = 0;
  while (buf.readUInt32LE(offset) === 0x04034b50) {
    const method = buf.readUInt16LE(offset + 8);
    const size = buf.readUInt32LE(offset + 18);
    const nameLength = buf.readUInt16LE(offset + 26);
    const extraLength = buf.readUInt16LE(offset + 28);
    const name = buf.subarray(offset + 30, offset + 30 + nameLength).toString('utf8');
    const start = offset + 30 + nameLength + extraLength;
    const data = buf.subarray(start, start + size);
    files.set(name, (method === 8 ? inflateRawSync(data) : data).toString('utf8'));
    offset = start + size;
  }
  return files;
}

/** Cell texts of sheet1, row by row. */
function sheetRows(xml: string): string[][] {
  return [...xml.matchAll(/<row [^>]*>(.*?)<\/row>/g)].map((row) =>
    [...row[1]!.matchAll(/<c [^>]*>(?:<is><t[^>]*>(.*?)<\/t><\/is>|<v>(.*?)<\/v>)<\/c>/g)].map((c) => c[1] ?? c[2] ?? ''),
  );
}

describe('search terms', () => {
  it('splits words and escapes LIKE wildcards', () => {
    expect(searchTerms('  açúcar   50%  a_b ')).toEqual(['açúcar', '50\\%', 'a\\_b']);
    expect(searchTerms('')).toEqual([]);
  });
  it('writes CSV for Excel pt-BR: BOM, semicolons, quotes, defused formulas', () => {
    expect(
      toCsv(
        ['A', 'B'],
        [
          ['x;y', '=1+1'],
          [1.5, true],
          ['-3', null],
        ],
      ),
    ).toBe('\uFEFFA;B\r\n"x;y";\'=1+1\r\n1,5;Sim\r\n-3;\r\n');
  });
});

describeEachDatabase('defineCrudResource', { plugins: [crudPlugin] }, (t) => {
  let token: string;
  let camara: string;
  const req = (path: string, init: Parameters<typeof t.server.request>[1] = {}) => t.server.request(`/api/crud${path}`, { token, ...init });
  const create = async (body: Record<string, unknown>, as = token) => {
    const res = await t.server.request('/api/crud/grupos', { token: as, json: body });
    if (res.status !== 201) throw new Error(`POST /grupos answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as Item;
  };
  const list = async (query: string, as = token) => {
    const res = await t.server.request(`/api/crud/grupos?${query}`, { token: as });
    expect(res.status).toBe(200);
    return (await res.json()) as PageBody;
  };

  beforeAll(async () => {
    const { entidades } = await t.server.signIn();
    const idOf = (prefix: string) => entidades.find((e) => e.nome.startsWith(prefix))!.id;
    token = (await t.server.signIn('admin', 'demo1234', idOf('Prefeitura'))).token;
    camara = (await t.server.signIn('admin', 'demo1234', idOf('Câmara'))).token;
    for (const [codigo, nome, quantidade] of [
      ['001', 'Açúcar cristal', 10],
      ['002', 'Café torrado e moído', 5],
      ['003', 'Material de Expediente', null],
      ['004', 'Material de Limpeza', 7],
      ['005', 'ÁGUA MINERAL', 2],
    ] as const) {
      await create({ codigo, nome, quantidade });
    }
    // the same names in another entidade must never show up here
    await create({ codigo: '001', nome: 'Açúcar da Câmara' }, camara);
  });

  it('creates (201) with version 1, active, audited', async () => {
    const item = await create({ codigo: '120', nome: 'Gêneros Alimentícios' });
    expect(item).toMatchObject({ codigo: '120', nome: 'Gêneros Alimentícios', quantidade: null, ativo: true, version: 1 });
    expect(item).not.toHaveProperty('entidadeId');
    expect(item).not.toHaveProperty('busca');
    const audit = await t.server.sql<{ acao: string; depois: Record<string, unknown> }>('SELECT acao, depois FROM audit_log WHERE registro = $1', [item.id]);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ acao: 'criar', depois: { codigo: '120', nome: 'Gêneros Alimentícios' } });
  });

  it('reads one record; another entidade gets 404, and so does a malformed id', async () => {
    const item = await create({ codigo: '121', nome: 'Medicamentos' });
    const res = await req(`/grupos/${item.id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: item.id, nome: 'Medicamentos' });
    const other = await t.server.request(`/api/crud/grupos/${item.id}`, { token: camara });
    expect(other.status).toBe(404);
    expect(((await other.json()) as ErrorBody).error.code).toBe('not_found');
    expect((await req('/grupos/nao-e-um-uuid')).status).toBe(404);
  });

  it('validates the body with the shared schema (400, pt-BR fields)', async () => {
    const res = await req('/grupos', { json: { codigo: '', nome: 'ab' } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).error.fields).toEqual({
      codigo: 'Informe o código.',
      nome: 'Informe o nome (ao menos 3 letras).',
    });
  });

  it('searches without accents nor case: "acucar" finds "Açúcar", "agua" finds "ÁGUA"', async () => {
    expect((await list('q=acucar')).items.map((i) => i.nome)).toEqual(['Açúcar cristal']);
    expect((await list('q=AÇUCAR%20crist')).items.map((i) => i.nome)).toEqual(['Açúcar cristal']);
    expect((await list('q=agua')).items.map((i) => i.nome)).toEqual(['ÁGUA MINERAL']);
    // every word must match, in any order; the code is searchable too
    expect((await list('q=limpeza%20material')).items.map((i) => i.nome)).toEqual(['Material de Limpeza']);
    expect((await list('q=003')).items.map((i) => i.nome)).toEqual(['Material de Expediente']);
    // LIKE wildcards are literal
    expect((await list('q=%25')).total).toBe(0);
    // the other entidade sees only its own
    const theirs = await list('q=acucar', camara);
    expect(theirs.items.map((i) => i.nome)).toEqual(['Açúcar da Câmara']);
  });

  it('sorts by any sortable field, accent-insensitive for text, both directions; refuses other fields', async () => {
    const byNome = await list('q=a&sort=nome&pageSize=100');
    const names = byNome.items.map((i) => i.nome);
    expect(names.indexOf('Açúcar cristal')).toBeLessThan(names.indexOf('ÁGUA MINERAL'));
    expect(names.indexOf('ÁGUA MINERAL')).toBeLessThan(names.indexOf('Café torrado e moído'));
    const byCodigoDesc = await list('sort=-codigo&pageSize=3');
    expect(byCodigoDesc.items.map((i) => i.codigo)).toEqual(['121', '120', '005']);
    const byQuantidade = await list('sort=-quantidade&q=00&pageSize=3');
    // NULLS FIRST when descending in PostgreSQL
    expect(byQuantidade.items.map((i) => i.quantidade)).toEqual([null, 10, 7]);
    const bad = await req('/grupos?sort=busca');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ErrorBody).error.fields).toEqual({ sort: "Não é possível ordenar por 'busca'." });
  });

  it('pages: { items, total, page, pageSize }', async () => {
    const all = await list('q=00&sort=codigo&pageSize=2');
    expect(all.total).toBe(5);
    expect(all.items.map((i) => i.codigo)).toEqual(['001', '002']);
    const p3 = await list('q=00&sort=codigo&pageSize=2&page=3');
    expect(p3).toMatchObject({ total: 5, page: 3, pageSize: 2 });
    expect(p3.items.map((i) => i.codigo)).toEqual(['005']);
    expect((await list('q=00&page=9')).items).toEqual([]);
  });

  it('updates with the current version (200, version + 1, field-level audit)', async () => {
    const item = await create({ codigo: '130', nome: 'Serviços de Manutenção' });
    const res = await req(`/grupos/${item.id}`, {
      method: 'PUT',
      json: { codigo: '130', nome: 'Serviços de Manutenção Predial', quantidade: null, version: 1 },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ nome: 'Serviços de Manutenção Predial', version: 2 });
    const [audit] = await t.server.sql<{ antes: unknown; depois: unknown }>("SELECT antes, depois FROM audit_log WHERE registro = $1 AND acao = 'alterar'", [
      item.id,
    ]);
    expect(audit).toEqual({
      antes: { nome: 'Serviços de Manutenção', version: 1 },
      depois: { nome: 'Serviços de Manutenção Predial', version: 2 },
    });
  });

  it('answers 409 stale to a PUT with an old version, with the pt-BR message', async () => {
    const item = await create({ codigo: '131', nome: 'Material Elétrico' });
    const first = await req(`/grupos/${item.id}`, { method: 'PUT', json: { codigo: '131', nome: 'Material Elétrico e Eletrônico', version: 1 } });
    expect(first.status).toBe(200);
    const second = await req(`/grupos/${item.id}`, { method: 'PUT', json: { codigo: '131', nome: 'Outro nome', version: 1 } });
    expect(second.status).toBe(409);
    expect(await second.json()).toEqual({ error: { code: 'stale', message: STALE_MESSAGE } });
    expect(STALE_MESSAGE).toBe('Este registro foi alterado por outra pessoa. Recarregue para ver a versão atual.');
    const current = (await (await req(`/grupos/${item.id}`)).json()) as Item;
    expect(current).toMatchObject({ nome: 'Material Elétrico e Eletrônico', version: 2 });
  });

  it('refuses a duplicate code with the declared message (409 duplicate, with the field)', async () => {
    const res = await req('/grupos', { json: { codigo: '001', nome: 'Outro grupo' } });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      error: { code: 'duplicate', message: 'Já existe um grupo com este código.', fields: { codigo: 'Já existe um grupo com este código.' } },
    });
    // the same code in another entidade is fine (and changing a record to its own code too)
    await create({ codigo: '005', nome: 'Água da Câmara' }, camara);
    const own = (await list('q=005')).items[0]!;
    const same = await req(`/grupos/${own.id}`, { method: 'PUT', json: { codigo: '005', nome: own.nome, quantidade: 3, version: own.version } });
    expect(same.status).toBe(200);
  });

  it('deactivates and activates; the list filters ativo=true (default) | false | todos', async () => {
    const item = await create({ codigo: '140', nome: 'Material Esportivo' });
    const off = await req(`/grupos/${item.id}/desativar`, { method: 'POST' });
    expect(off.status).toBe(200);
    expect(await off.json()).toMatchObject({ ativo: false, version: 2 });
    expect((await list('q=esportivo')).total).toBe(0);
    expect((await list('q=esportivo&ativo=false')).items.map((i) => i.id)).toEqual([item.id]);
    expect((await list('q=esportivo&ativo=todos')).total).toBe(1);
    const on = await req(`/grupos/${item.id}/ativar`, { method: 'POST' });
    expect(await on.json()).toMatchObject({ ativo: true, version: 3 });
    const acoes = await t.server.sql<{ acao: string }>('SELECT acao FROM audit_log WHERE registro = $1 ORDER BY id', [item.id]);
    expect(acoes.map((a) => a.acao)).toEqual(['criar', 'desativar', 'ativar']);
    expect((await t.server.request(`/api/crud/grupos/${item.id}/desativar`, { method: 'POST', token: camara })).status).toBe(404);
  });

  it('refuses to delete a record in use (409 saying where), deletes a free one (204)', async () => {
    const grupo = await create({ codigo: '150', nome: 'Material de Construção' });
    for (const nome of ['Cimento', 'Areia']) {
      const res = await req('/subgrupos', { json: { grupoId: grupo.id, nome } });
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ nome, grupoNome: 'Material de Construção' });
    }
    const res = await req(`/grupos/${grupo.id}`, { method: 'DELETE' });
    expect(res.status).toBe(409);
    const body = (await res.json()) as ErrorBody;
    expect(body.error.code).toBe('in_use');
    expect(body.error.message).toMatch(/^Usado em 2 sub-grupos\./);

    const free = await create({ codigo: '151', nome: 'Grupo provisório' });
    expect((await t.server.request(`/api/crud/grupos/${free.id}`, { method: 'DELETE', token: camara })).status).toBe(404);
    const del = await req(`/grupos/${free.id}`, { method: 'DELETE' });
    expect(del.status).toBe(204);
    expect((await req(`/grupos/${free.id}`)).status).toBe(404);
    const [audit] = await t.server.sql<{ antes: Record<string, unknown> }>("SELECT antes FROM audit_log WHERE registro = $1 AND acao = 'excluir'", [free.id]);
    expect(audit?.antes).toMatchObject({ codigo: '151', nome: 'Grupo provisório' });
  });

  it('checks references in the same entidade, filters by them, and sorts by a computed field', async () => {
    const theirs = await create({ codigo: '160', nome: 'Grupo da Câmara' }, camara);
    const res = await req('/subgrupos', { json: { grupoId: theirs.id, nome: 'Intruso' } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).error.fields).toEqual({ grupoId: 'Selecione um grupo desta entidade.' });

    const a = await create({ codigo: '161', nome: 'Alimentos' });
    const z = await create({ codigo: '162', nome: 'Zeladoria' });
    await req('/subgrupos', { json: { grupoId: z.id, nome: 'Vassouras' } });
    await req('/subgrupos', { json: { grupoId: a.id, nome: 'Vagens' } });
    const byGrupo = (await (await req('/subgrupos?q=va&sort=grupoNome')).json()) as PageBody;
    expect(byGrupo.items.map((i) => i.nome)).toEqual(['Vagens', 'Vassouras']);
    const filtered = (await (await req(`/subgrupos?grupoId=${z.id}`)).json()) as PageBody;
    expect(filtered.items.map((i) => i.nome)).toEqual(['Vassouras']);
    expect((await req('/subgrupos?grupoId=x')).status).toBe(400);
  });

  it('exports what the list shows as CSV (same filters and sort, every page)', async () => {
    const res = await req('/grupos.csv?q=material&sort=-nome&pageSize=1');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="grupos-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // UTF-8 BOM: Excel reads the accents
    const lines = new TextDecoder().decode(bytes).trimEnd().split('\r\n');
    expect(lines[0]).toBe('Código;Nome;Quantidade;Ativo');
    expect(lines.slice(1)).toEqual([
      '140;Material Esportivo;;Sim',
      '131;Material Elétrico e Eletrônico;;Sim',
      '004;Material de Limpeza;7;Sim',
      '003;Material de Expediente;;Sim',
      '150;Material de Construção;;Sim',
    ]);
    expect((await t.server.request('/api/crud/grupos.csv', { token: camara }).then((r) => r.text())).includes('Material')).toBe(false);
  });

  it('exports XLSX: a real workbook with the header and typed cells', async () => {
    const res = await req('/grupos.xlsx?q=acucar');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
    const files = unzip(bytes);
    expect([...files.keys()].sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    expect(files.get('xl/workbook.xml')).toContain('<sheet name="Grupos"');
    const sheet = files.get('xl/worksheets/sheet1.xml')!;
    expect(sheetRows(sheet)).toEqual([
      ['Código', 'Nome', 'Quantidade', 'Ativo'],
      ['001', 'Açúcar cristal', '10', 'Sim'],
    ]);
    expect(sheet).toContain('<c r="C2"><v>10</v></c>');
  });

  it('lists the routes in OpenAPI with the tag', async () => {
    const doc = (await (await t.server.request('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, { 'x-permission-tag'?: number; tags?: string[] }>>;
    };
    for (const [path, method] of [
      ['/api/crud/grupos', 'get'],
      ['/api/crud/grupos', 'post'],
      ['/api/crud/grupos/{id}', 'get'],
      ['/api/crud/grupos/{id}', 'put'],
      ['/api/crud/grupos/{id}', 'delete'],
      ['/api/crud/grupos/{id}/desativar', 'post'],
      ['/api/crud/grupos/{id}/ativar', 'post'],
      ['/api/crud/grupos.csv', 'get'],
      ['/api/crud/grupos.xlsx', 'get'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toMatchObject({ 'x-permission-tag': 24, tags: ['crud'] });
    }
  });

  it('needs the tag (403 for a user without it)', async () => {
    const consulta = (await t.server.signIn('consulta', 'demo1234')).token;
    expect((await t.server.request('/api/crud/grupos', { token: consulta })).status).toBe(403);
    expect((await t.server.request('/api/crud/grupos.csv', { token: consulta })).status).toBe(403);
  });
});
