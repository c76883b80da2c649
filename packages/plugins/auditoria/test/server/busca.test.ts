// What the Logs de Auditoria table shows is what its filters accept: action and plugin names, and a
// record's código or name in the free-text search; each row's changes come named (no UUIDs).
import { randomUUID } from 'node:crypto';
import { PgDialect } from '@app/server-core/pg-core';
import { describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import auditoria from '../../src/server/index.js';
import { sql } from '@app/server-core/orm';
import { SEARCH_TEXT, listSql, resolveFilters } from '../../src/server/queries.js';
import { type LogItem, type LogPage, acaoNome, acoesDoFiltro, pluginsDoFiltro } from '../../src/shared/index.js';

describe('filter texts → codes (pure)', () => {
  it('actions: code, name with or without accents, synonyms, part of a name; unknown text is a code', () => {
    expect(acoesDoFiltro('alterar')).toEqual(['alterar']);
    expect(acoesDoFiltro('Alteração')).toEqual(['alterar']);
    expect(acoesDoFiltro(' ALTERACAO ')).toEqual(['alterar']);
    expect(acoesDoFiltro('Inclusão')).toEqual(['criar']);
    expect(acoesDoFiltro('Criação')).toEqual(['criar']);
    // not desativar, which contains it; 'reativar' is the legacy code of the same action (old rows keep it)
    expect(acoesDoFiltro('Ativação')).toEqual(['ativar', 'reativar']);
    expect(acoesDoFiltro('ativar')).toEqual(['ativar', 'reativar']);
    expect(acoesDoFiltro('Desativação')).toEqual(['desativar']);
    expect(acoesDoFiltro('reativar')).toEqual(['reativar']);
    expect(acaoNome('reativar')).toBe('Ativação');
    expect(acoesDoFiltro('entrada')).toEqual(['entrar', 'entrar_falhou']);
    expect(acoesDoFiltro('devolver')).toEqual(['devolver']);
  });

  it('plugins: id, part of its permission name, Sistema for core; unknown text is an id', () => {
    const plugins = [
      { id: 'produtos', tags: [{ nome: 'Produtos e Serviços' }] },
      { id: 'registros', tags: [{ nome: 'Grupos' }, { nome: 'Unidades de fornecimento' }] },
    ];
    expect(pluginsDoFiltro('produtos', plugins)).toEqual(['produtos']);
    expect(pluginsDoFiltro('Produtos', plugins)).toEqual(['produtos']);
    expect(pluginsDoFiltro('servicos', plugins)).toEqual(['produtos']);
    expect(pluginsDoFiltro('unidades', plugins)).toEqual(['registros']);
    expect(pluginsDoFiltro('Sistema', plugins)).toEqual(['core']);
    expect(pluginsDoFiltro('memorandos', plugins)).toEqual(['memorandos']);
    expect(pluginsDoFiltro('Memorandos', plugins)).toEqual(['memorandos']);
  });
});

describeEachDatabase('@app/auditoria: filters by what the table shows, named changes', { plugins: [auditoria], seed: true }, (t) => {
  let token = '';
  let camaraToken = '';
  const ids = { produto: randomUUID(), grupo: randomUUID(), memorando: randomUUID(), copia: randomUUID(), outro: randomUUID() };
  let ent: { prefeitura: string; camara: string };
  let admin = '';

  const page = async (query: string, tk = token) => {
    const res = await t.server.request(`/api/auditoria/logs?${query}`, { token: tk });
    expect(res.status, query).toBe(200);
    return (await res.json()) as LogPage;
  };
  const rowsOf = async (query: string, tk = token) => (await page(`${query}&limit=200`, tk)).items;
  const insert = (entidade: string, plugin: string, registro: string, acao: string, antes: unknown, depois: unknown) =>
    t.server.sql('INSERT INTO audit_log (usuario_id, entidade_id, plugin, registro, acao, antes, depois) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
      admin,
      entidade,
      plugin,
      registro,
      acao,
      antes === null ? null : JSON.stringify(antes),
      depois === null ? null : JSON.stringify(depois),
    ]);

  beforeAll(async () => {
    ent = await t.server.demoEntidades();
    admin = (await t.server.sql<{ id: string }>("SELECT id::text AS id FROM usuarios WHERE login = 'admin'"))[0]!.id;
    // filler: 3 000 rows that match nothing searched below
    await t.server.sql(
      `INSERT INTO audit_log (usuario_id, entidade_id, plugin, registro, acao, antes, depois)
       SELECT $1::uuid, $2::uuid, 'fornecedores', md5(g::text)::uuid::text, CASE WHEN g % 2 = 0 THEN 'criar' ELSE 'alterar' END,
              NULL, jsonb_build_object('razaoSocial', 'Fornecedor ' || g, 'cidade', 'Jundiaí')
         FROM generate_series(1, 3000) g`,
      [admin, ent.prefeitura],
    );
    const p = ent.prefeitura;
    await insert(p, 'registros', ids.grupo, 'criar', null, { id: ids.grupo, codigo: '01', nome: 'Material de escritório', ativo: true });
    await insert(p, 'produtos', ids.produto, 'criar', null, {
      id: ids.produto,
      codigo: '000123',
      descricao: 'Caneta esferográfica azul',
      grupoId: ids.grupo,
      ativo: true,
      version: 1,
      busca: '000123 caneta esferografica azul',
    });
    await insert(p, 'produtos', ids.produto, 'alterar', { precoReferencia: '1.50', version: 1 }, { precoReferencia: '2.00', version: 2 });
    await insert(p, 'produtos', ids.produto, 'desativar', { ativo: true }, { ativo: false });
    await insert(p, 'memorandos', ids.memorando, 'criar', null, {
      numero: 12,
      ano: 2026,
      assunto: 'Papel',
      itens: [{ produtoId: ids.produto, quantidade: '2.0000' }],
    });
    await insert(p, 'memorandos', ids.memorando, 'devolver', { status: 'enviado' }, { status: 'devolvido', motivo: 'Falta o orçamento.' });
    await insert(p, 'memorandos', ids.copia, 'criar', null, { numero: 13, ano: 2026, assunto: 'Papel', duplicadoDe: ids.memorando });
    // an id nobody can name stays as it is
    await insert(p, 'memorandos', ids.outro, 'alterar', { responsavelId: null }, { responsavelId: ids.outro });
    // the same text in the Câmara never shows
    await insert(ent.camara, 'produtos', randomUUID(), 'criar', null, { codigo: '000123', descricao: 'Caneta esferográfica azul' });
    await t.server.sql('ANALYZE audit_log');
    token = (await t.server.signIn('admin', 'demo1234', ent.prefeitura)).token;
    camaraToken = (await t.server.signIn('admin', 'demo1234', ent.camara)).token;
  }, 120_000);

  describe('free-text search (busca)', () => {
    it('finds a record by its código or its name, accent- and case-insensitively, with every row of that record', async () => {
      const byName = await rowsOf('busca=esferografica');
      expect(byName.map((r) => [r.plugin, r.acao])).toEqual([
        ['produtos', 'desativar'],
        ['produtos', 'alterar'],
        ['produtos', 'criar'],
      ]);
      expect(byName.every((r) => r.registro === ids.produto)).toBe(true);
      expect((await rowsOf('busca=000123')).map((r) => r.id)).toEqual(byName.map((r) => r.id));
      expect((await rowsOf('busca=ESFEROGRÁFICA%20AZUL')).map((r) => r.id)).toEqual(byName.map((r) => r.id));
      // the grupo's name finds the grupo (the product's rows hold its id, not its name)
      expect((await rowsOf('busca=escritorio')).map((r) => r.registro)).toEqual([ids.grupo]);
      expect(await rowsOf('busca=nada%20disso')).toEqual([]);
      // LIKE's wildcards are taken literally
      expect(await rowsOf('busca=%25%25%25')).toEqual([]);
      // a document by its number: every row of it (the devolução holds no name, it is found through the record)
      expect((await rowsOf('busca=12/2026')).map((r) => [r.registro, r.acao])).toEqual([
        [ids.memorando, 'devolver'],
        [ids.memorando, 'criar'],
      ]);
      // combined with the other filters
      expect((await rowsOf('busca=000123&acao=Alteração')).map((r) => r.acao)).toEqual(['alterar']);
    });

    it("never finds another entidade's rows", async () => {
      const camara = await rowsOf('busca=000123', camaraToken);
      expect(camara).toHaveLength(1);
      expect(camara[0]!.registro).not.toBe(ids.produto);
    });

    it('asks for at least 3 characters (pt-BR), in the list and the CSV', async () => {
      for (const path of ['/logs', '/logs.csv']) {
        const res = await t.server.request(`/api/auditoria${path}?busca=ab`, { token });
        expect(res.status).toBe(400);
        expect(((await res.json()) as { error: { fields: Record<string, string> } }).error.fields.busca).toBe('Pesquisa: digite ao menos 3 caracteres.');
      }
    });

    it('the CSV exports what the search found', async () => {
      const text = await (await t.server.request('/api/auditoria/logs.csv?busca=000123', { token })).text();
      const lines = text
        .replace(/^\uFEFF/, '')
        .split('\r\n')
        .filter(Boolean);
      expect(lines).toHaveLength(1 + 3);
      expect(lines.slice(1).every((l) => l.includes(ids.produto))).toBe(true);
    });

    it('the search expression is the one the trigram index of migration 0002 indexes', async () => {
      // (on a table this small the planner may prefer the entidade's index; at 100 000 rows it takes this one)
      const q = new PgDialect().sqlToQuery(
        sql`SELECT a.id FROM audit_log a WHERE a.depois IS NOT NULL AND ${SEARCH_TEXT} LIKE '%' || compras_busca(${'esferografica'}) || '%'`,
      );
      const plan = await t.server.withRawClient(async (raw) => {
        await raw.exec('SET enable_seqscan = off');
        try {
          return (await raw.query<Record<string, string>>(`EXPLAIN ${q.sql}`, q.params)).map((r) => Object.values(r)[0]).join('\n');
        } finally {
          await raw.exec('RESET enable_seqscan');
        }
      });
      expect(plan).toMatch(/audit_log_busca_idx/);
    });

    it('the list behind a search reads the rows found by id and by record (indexes), never a scan of the trail', async () => {
      for (const busca of ['000123', 'fornecedor 12']) {
        const resolved = await resolveFilters(t.server.db, { busca }, { entidadeId: ent.prefeitura });
        expect(resolved.busca!.ids.length).toBeGreaterThan(0);
        const { rows } = await t.server.db.execute<Record<string, string>>(sql`EXPLAIN ${listSql(resolved, ent.prefeitura, undefined, 51)}`);
        const plan = rows.map((r) => Object.values(r)[0]).join('\n');
        expect(plan, busca).not.toMatch(/Seq Scan on audit_log/);
      }
      await expect(resolveFilters(t.server.db, { busca: 'abc' })).rejects.toThrow(/needs the entidade/);
    });
  });

  describe('action and plugin filters accept what the table shows', () => {
    it("Ação 'Alteração' (any case, without accents) is 'alterar'; 'Inclusão' and 'Criação' are 'criar'", async () => {
      const codes = await rowsOf('acao=alterar');
      expect(codes.length).toBeGreaterThan(0);
      expect((await rowsOf(`acao=${encodeURIComponent('Alteração')}`)).map((r) => r.id)).toEqual(codes.map((r) => r.id));
      expect((await rowsOf('acao=alteracao')).map((r) => r.id)).toEqual(codes.map((r) => r.id));
      const criar = await rowsOf('acao=criar');
      expect((await rowsOf(`acao=${encodeURIComponent('Inclusão')}`)).map((r) => r.id)).toEqual(criar.map((r) => r.id));
      expect((await rowsOf(`acao=${encodeURIComponent('Criação')}`)).map((r) => r.id)).toEqual(criar.map((r) => r.id));
      expect((await rowsOf('acao=Entrada')).every((r) => r.acao === 'entrar' || r.acao === 'entrar_falhou')).toBe(true);
      expect((await rowsOf('acao=Entrada')).length).toBeGreaterThan(0);
    });

    it("Plugin by its name: 'Logs de Auditoria' is auditoria, 'Sistema' is core; an id still works", async () => {
      const sistema = await rowsOf('plugin=Sistema');
      expect(sistema.length).toBeGreaterThan(0);
      expect(sistema.every((r) => r.plugin === 'core')).toBe(true);
      await t.server.request('/api/auditoria/logs.csv?de=2000-01-01', { token }); // audited under 'auditoria'
      const logs = await rowsOf(`plugin=${encodeURIComponent('logs de auditoria')}`);
      expect(logs.length).toBeGreaterThan(0);
      expect(logs.every((r) => r.plugin === 'auditoria')).toBe(true);
      expect((await rowsOf('plugin=produtos')).map((r) => r.acao)).toEqual(['desativar', 'alterar', 'criar']);
    });
  });

  describe('each row comes named and described', () => {
    const find = (rows: LogItem[], registro: string, acao: string) => rows.find((r) => r.registro === registro && r.acao === acao)!;

    it('the record named from its own audit trail; changes with names instead of ids, bookkeeping left out', async () => {
      const rows = await rowsOf('plugin=produtos');
      const criado = find(rows, ids.produto, 'criar');
      expect(criado.registroNome).toBe('000123 – Caneta esferográfica azul');
      expect(criado.mudancas).toEqual(
        expect.arrayContaining([
          { campo: 'codigo', antes: null, depois: '000123' },
          { campo: 'grupoId', antes: null, depois: '01 – Material de escritório' },
        ]),
      );
      expect(criado.mudancas.map((m) => m.campo).sort()).toEqual(['ativo', 'codigo', 'descricao', 'grupoId']);
      expect(find(rows, ids.produto, 'alterar').mudancas).toEqual([{ campo: 'precoReferencia', antes: '1.50', depois: '2.00' }]);
      expect(find(rows, ids.produto, 'desativar').mudancas).toEqual([]);
    });

    it('documents: number/year as the name, line items named, the reason, the origin of a duplicate', async () => {
      const rows = await rowsOf('plugin=memorandos');
      const criado = find(rows, ids.memorando, 'criar');
      expect(criado.registroNome).toBe('12/2026 – Papel');
      expect(criado.mudancas.find((m) => m.campo === 'itens')).toEqual({
        campo: 'itens',
        antes: null,
        depois: 1,
        itens: { adicionados: ['000123 – Caneta esferográfica azul'], removidos: [], alterados: [] },
      });
      expect(find(rows, ids.memorando, 'devolver')).toMatchObject({
        motivo: 'Falta o orçamento.',
        mudancas: [{ campo: 'status', antes: 'enviado', depois: 'devolvido' }],
      });
      expect(find(rows, ids.copia, 'criar').duplicadoDe).toBe('12/2026 – Papel');
      const unnamed = find(rows, ids.outro, 'alterar');
      expect(unnamed.registroNome).toBeNull();
      expect(unnamed.mudancas).toEqual([{ campo: 'responsavelId', antes: null, depois: ids.outro }]);
    });

    it('users and perfis of the entidade by their names', async () => {
      const [perfil] = await t.server.sql<{ id: string }>("SELECT id::text AS id FROM perfis WHERE entidade_id = $1 AND nome = 'Administrador'", [
        ent.prefeitura,
      ]);
      const registro = randomUUID();
      await insert(ent.prefeitura, 'usuarios', registro, 'alterar', { perfilId: null, gestorId: null }, { perfilId: perfil!.id, gestorId: admin });
      const [row] = await rowsOf(`registro=${registro}`);
      expect(row!.mudancas).toEqual(
        expect.arrayContaining([
          { campo: 'perfilId', antes: null, depois: 'Administrador' },
          { campo: 'gestorId', antes: null, depois: 'Administrador do Sistema' },
        ]),
      );
    });
  });
});
