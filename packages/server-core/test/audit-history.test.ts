import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { type DbOrTx, type HistoryNames, auditChanges, auditValues, recordHistory } from '../src/index.js';
import { describeEachDatabase } from '../src/testing.js';

const P1 = '11111111-1111-4111-8111-111111111111';
const P2 = '22222222-2222-4222-8222-222222222222';
const P3 = '33333333-3333-4333-8333-333333333333';
const byName: Record<string, string> = { [P1]: 'Caneta azul', [P2]: 'Lápis preto', [P3]: 'Borracha' };
const name = (campo: string, value: string) => (campo === 'produtoId' ? (byName[value] ?? value) : value);
const opts = { name, referenceFields: ['produtoId'] };

describe('auditChanges (pure)', () => {
  it("on 'criar' lists the fields set, without bookkeeping or empty fields", () => {
    const r = auditChanges({
      acao: 'criar',
      antes: null,
      depois: {
        id: 'x',
        entidadeId: 'e',
        version: 1,
        createdAt: 't',
        updatedAt: 't',
        busca: 'b',
        assunto: 'Papel',
        observacao: '',
        prioridade: 'alta',
        urgente: false,
      },
    });
    expect(r).toEqual({
      motivo: null,
      duplicadoDe: null,
      mudancas: [
        { campo: 'assunto', antes: null, depois: 'Papel' },
        { campo: 'prioridade', antes: null, depois: 'alta' },
        { campo: 'urgente', antes: null, depois: false },
      ],
    });
  });

  it("on 'alterar' only the fields that differ; on 'excluir' what the record had", () => {
    expect(
      auditChanges({ acao: 'alterar', antes: { assunto: 'A', total: '10.00', version: 1 }, depois: { assunto: 'B', total: '10.00', version: 2 } }).mudancas,
    ).toEqual([{ campo: 'assunto', antes: 'A', depois: 'B' }]);
    // what writeAudit stores (only the changed keys; a removed key is null on the other side)
    const stored = auditValues({ a: 1, b: 'x', obs: null }, { a: 1, b: 'y', obs: 'novo' });
    expect(auditChanges({ acao: 'alterar', ...stored }).mudancas).toEqual([
      { campo: 'b', antes: 'x', depois: 'y' },
      { campo: 'obs', antes: null, depois: 'novo' },
    ]);
    expect(auditChanges({ acao: 'excluir', antes: { nome: 'Lápis', ativo: true }, depois: null }).mudancas).toEqual([
      { campo: 'nome', antes: 'Lápis', depois: null },
      { campo: 'ativo', antes: true, depois: null },
    ]);
  });

  it('takes the reason of a transition and the origin of a duplicate apart; names ids', () => {
    expect(auditChanges({ acao: 'devolver', antes: { status: 'enviado' }, depois: { status: 'devolvido', motivo: '  Falta o orçamento. ' } })).toEqual({
      motivo: 'Falta o orçamento.',
      duplicadoDe: null,
      mudancas: [{ campo: 'status', antes: 'enviado', depois: 'devolvido' }],
    });
    expect(auditChanges({ acao: 'enviar', antes: { status: 'rascunho' }, depois: { status: 'enviado', motivo: null } }).motivo).toBeNull();
    // on 'alterar' a field called motivo is content, not a reason
    expect(auditChanges({ acao: 'alterar', antes: { motivo: 'a' }, depois: { motivo: 'b' } })).toMatchObject({
      motivo: null,
      mudancas: [{ campo: 'motivo', antes: 'a', depois: 'b' }],
    });
    const dup = auditChanges(
      { acao: 'criar', antes: null, depois: { duplicadoDe: P1, assunto: 'X' } },
      { name: (campo, v) => (campo === 'duplicadoDe' && v === P1 ? '12/2026' : v) },
    );
    expect(dup).toEqual({ motivo: null, duplicadoDe: '12/2026', mudancas: [{ campo: 'assunto', antes: null, depois: 'X' }] });
    expect(auditChanges({ acao: 'alterar', antes: { produtoId: P1, tags: [P1, 'x'] }, depois: { produtoId: P2, tags: [P2] } }, opts).mudancas).toEqual([
      { campo: 'produtoId', antes: 'Caneta azul', depois: 'Lápis preto' },
      { campo: 'tags', antes: [P1, 'x'], depois: [P2] }, // not a reference field: as stored
    ]);
  });

  it('activation rows do not repeat "ativo" as a change; values that are not objects are one change', () => {
    expect(auditChanges({ acao: 'desativar', antes: { ativo: true }, depois: { ativo: false } }).mudancas).toEqual([]);
    expect(auditChanges({ acao: 'x', antes: 'a', depois: 'b' }).mudancas).toEqual([{ campo: '(valor)', antes: 'a', depois: 'b' }]);
    expect(auditChanges({ acao: 'entrar', antes: null, depois: null }).mudancas).toEqual([]);
    // a driver that answers jsonb as text
    expect(auditChanges({ acao: 'alterar', antes: '{"a":1}', depois: '{"a":2}' }).mudancas).toEqual([{ campo: 'a', antes: 1, depois: 2 }]);
  });

  describe('line items', () => {
    const item = (produtoId: string, quantidade: string, extra: Record<string, unknown> = {}) => ({ produtoId, quantidade, valorUnitario: '2.50', ...extra });

    it('count, added and removed items named by their product, changed items with their fields', () => {
      const r = auditChanges(
        {
          acao: 'alterar',
          antes: { itens: [item(P1, '2'), item(P2, '1')] },
          depois: { itens: [item(P1, '5'), item(P3, '1'), item(P3, '4')] },
        },
        opts,
      );
      expect(r.mudancas).toEqual([
        {
          campo: 'itens',
          antes: 2,
          depois: 3,
          itens: {
            adicionados: ['Borracha', 'Borracha'],
            removidos: ['Lápis preto'],
            alterados: [{ item: 'Caneta azul', mudancas: [{ campo: 'quantidade', antes: '2', depois: '5' }] }],
          },
        },
      ]);
    });

    it('pairs by item id when every item has one (a product swapped in place is a change, not add/remove)', () => {
      const r = auditChanges(
        {
          acao: 'alterar',
          antes: { itens: [item(P1, '1', { id: 'i1' }), item(P2, '1', { id: 'i2' })] },
          depois: { itens: [item(P3, '1', { id: 'i1' }), item(P2, '1', { id: 'i2' })] },
        },
        opts,
      );
      expect(r.mudancas[0]!.itens).toEqual({
        adicionados: [],
        removidos: [],
        alterados: [{ item: 'Borracha', mudancas: [{ campo: 'produtoId', antes: 'Caneta azul', depois: 'Borracha' }] }],
      });
    });

    it("on 'criar' every item is added; the same product twice pairs in order; without references, by position", () => {
      expect(auditChanges({ acao: 'criar', antes: null, depois: { itens: [item(P1, '1'), item(P2, '1')] } }, opts).mudancas).toEqual([
        { campo: 'itens', antes: null, depois: 2, itens: { adicionados: ['Caneta azul', 'Lápis preto'], removidos: [], alterados: [] } },
      ]);
      expect(
        auditChanges({ acao: 'alterar', antes: { itens: [item(P1, '1'), item(P1, '2')] }, depois: { itens: [item(P1, '1'), item(P1, '3')] } }, opts)
          .mudancas[0]!.itens,
      ).toEqual({ adicionados: [], removidos: [], alterados: [{ item: 'Caneta azul', mudancas: [{ campo: 'quantidade', antes: '2', depois: '3' }] }] });
      expect(
        auditChanges({ acao: 'alterar', antes: { itens: [{ descricao: 'A', q: 1 }] }, depois: { itens: [{ descricao: 'A', q: 2 }, { q: 1 }] } }).mudancas[0],
      ).toEqual({
        campo: 'itens',
        antes: 1,
        depois: 2,
        itens: { adicionados: ['Item 2'], removidos: [], alterados: [{ item: 'A', mudancas: [{ campo: 'q', antes: 1, depois: 2 }] }] },
      });
      expect(auditChanges({ acao: 'alterar', antes: { itens: [item(P1, '1')] }, depois: { itens: [] } }, opts).mudancas).toEqual([
        { campo: 'itens', antes: 1, depois: null, itens: { adicionados: [], removidos: ['Caneta azul'], alterados: [] } },
      ]);
    });
  });
});

describeEachDatabase('recordHistory', {}, (t) => {
  const plugin = 'teste';
  const registro = randomUUID();
  let ent: { a: string; b: string };
  let admin: { id: string; nome: string };
  let prod: { caneta: string; lapis: string; foreign: string; gone: string };

  const insert = (entidadeId: string, acao: string, antes: unknown, depois: unknown, usuarioId: string | null = admin.id, reg = registro) => {
    const v = auditValues(antes, depois);
    return t.server.sql('INSERT INTO audit_log (usuario_id, entidade_id, plugin, registro, acao, antes, depois) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
      usuarioId,
      entidadeId,
      plugin,
      reg,
      acao,
      v.antes === null ? null : JSON.stringify(v.antes),
      v.depois === null ? null : JSON.stringify(v.depois),
    ]);
  };
  const names: HistoryNames = {
    produtoId: { table: 'produtos_historia', label: "codigo || ' – ' || descricao" },
    perfilId: { table: 'perfis', label: 'nome' },
    responsavelId: { table: 'usuarios', label: 'nome', scoped: false },
    duplicadoDe: { table: 'documentos_historia', label: "numero || '/' || ano" },
  };

  beforeAll(async () => {
    const ents = await t.server.sql<{ id: string; nome: string }>('SELECT id, nome FROM entidades ORDER BY nome');
    ent = { a: ents.find((e) => e.nome.startsWith('Prefeitura'))!.id, b: ents.find((e) => e.nome.startsWith('Câmara'))!.id };
    admin = (await t.server.sql<{ id: string; nome: string }>("SELECT id::text, nome FROM usuarios WHERE login = 'admin'"))[0]!;
    await t.server.sql(
      `CREATE TABLE produtos_historia (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), entidade_id uuid NOT NULL, codigo text, descricao text)`,
    );
    await t.server.sql(`CREATE TABLE documentos_historia (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), entidade_id uuid NOT NULL, numero int, ano int)`);
    const add = async (entidadeId: string, codigo: string, descricao: string) =>
      (
        await t.server.sql<{ id: string }>('INSERT INTO produtos_historia (entidade_id, codigo, descricao) VALUES ($1, $2, $3) RETURNING id::text', [
          entidadeId,
          codigo,
          descricao,
        ])
      )[0]!.id;
    prod = {
      caneta: await add(ent.a, '000001', 'Caneta azul'),
      lapis: await add(ent.a, '000002', 'Lápis preto'),
      foreign: await add(ent.b, '900001', 'Produto da Câmara'),
      gone: randomUUID(),
    };
    const [origem] = await t.server.sql<{ id: string }>('INSERT INTO documentos_historia (entidade_id, numero, ano) VALUES ($1, 12, 2026) RETURNING id::text', [
      ent.a,
    ]);
    const [perfil] = await t.server.sql<{ id: string }>("SELECT id::text FROM perfis WHERE entidade_id = $1 AND nome = 'Administrador'", [ent.a]);

    const v1 = { assunto: 'Papel', responsavelId: admin.id, perfilId: perfil!.id, itens: [{ produtoId: prod.caneta, quantidade: '2.0000' }] };
    await insert(ent.a, 'criar', null, { id: registro, version: 1, duplicadoDe: origem!.id, ...v1 });
    await insert(
      ent.a,
      'alterar',
      { ...v1, version: 1 },
      {
        ...v1,
        version: 2,
        assunto: 'Papel A4',
        itens: [
          { produtoId: prod.caneta, quantidade: '3.0000' },
          { produtoId: prod.lapis, quantidade: '1.0000' },
          { produtoId: prod.foreign, quantidade: '1' },
          { produtoId: prod.gone, quantidade: '1' },
        ],
      },
    );
    await insert(ent.a, 'enviar', { status: 'rascunho' }, { status: 'enviado', motivo: null });
    await insert(ent.a, 'devolver', { status: 'enviado' }, { status: 'devolvido', motivo: 'Falta o orçamento.' }, null);
    // another entidade's rows under the same plugin and registro never show
    await insert(ent.b, 'alterar', { assunto: 'x' }, { assunto: 'y' });
    // another record
    await insert(ent.a, 'alterar', { assunto: 'z' }, { assunto: 'w' }, admin.id, randomUUID());
  });

  const counted = (db: DbOrTx) => {
    const calls: string[] = [];
    const proxy = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop === 'execute') {
          return (query: Parameters<DbOrTx['execute']>[0]) => {
            calls.push(String(prop));
            return target.execute(query);
          };
        }
        return Reflect.get(target, prop, receiver);
      },
    });
    return { db: proxy, calls };
  };

  it('newest first, who, when, action, reason; names instead of ids; one query per referenced table', async () => {
    const { db, calls } = counted(t.server.db);
    const history = await recordHistory(db, { entidadeId: ent.a, plugin, registro, names });
    // rows + produtos_historia + perfis + usuarios + documentos_historia
    expect(calls).toHaveLength(5);
    expect(history.truncated).toBe(false);
    expect(history.items.map((e) => e.acao)).toEqual(['devolver', 'enviar', 'alterar', 'criar']);
    expect(history.items.every((e, i, all) => i === 0 || e.id < all[i - 1]!.id)).toBe(true);
    const [devolver, enviar, alterar, criar] = history.items;
    expect(devolver).toMatchObject({ usuario: null, motivo: 'Falta o orçamento.', mudancas: [{ campo: 'status', antes: 'enviado', depois: 'devolvido' }] });
    expect(devolver!.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(enviar).toMatchObject({ usuario: { id: admin.id, nome: admin.nome }, motivo: null });
    expect(criar!.duplicadoDe).toBe('12/2026');
    // jsonb keeps keys in its own order (shorter first): the web orders them by its labels
    const byCampo = (list: { campo: string }[]) => [...list].sort((a, b) => a.campo.localeCompare(b.campo));
    expect(byCampo(criar!.mudancas)).toEqual([
      { campo: 'assunto', antes: null, depois: 'Papel' },
      { campo: 'itens', antes: null, depois: 1, itens: { adicionados: ['000001 – Caneta azul'], removidos: [], alterados: [] } },
      { campo: 'perfilId', antes: null, depois: 'Administrador' },
      { campo: 'responsavelId', antes: null, depois: admin.nome },
    ]);
    expect(byCampo(alterar!.mudancas)).toEqual([
      { campo: 'assunto', antes: 'Papel', depois: 'Papel A4' },
      {
        campo: 'itens',
        antes: 1,
        depois: 4,
        itens: {
          // a product of another entidade, and one that no longer exists, are not named
          adicionados: ['000002 – Lápis preto', prod.foreign, prod.gone],
          removidos: [],
          alterados: [{ item: '000001 – Caneta azul', mudancas: [{ campo: 'quantidade', antes: '2.0000', depois: '3.0000' }] }],
        },
      },
    ]);
    expect(JSON.stringify(history)).not.toContain(prod.caneta);
  });

  it("only the entidade's rows of that plugin and record", async () => {
    const other = await recordHistory(t.server.db, { entidadeId: ent.b, plugin, registro, names });
    expect(other.items.map((e) => e.mudancas)).toEqual([[{ campo: 'assunto', antes: 'x', depois: 'y' }]]);
    expect((await recordHistory(t.server.db, { entidadeId: ent.a, plugin: 'outro', registro })).items).toEqual([]);
    // without names: ids as stored
    const raw = await recordHistory(t.server.db, { entidadeId: ent.a, plugin, registro });
    expect(raw.items.at(-1)!.duplicadoDe).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps the newest rows up to the limit and says it left some out', async () => {
    const page = await recordHistory(t.server.db, { entidadeId: ent.a, plugin, registro, limit: 2 });
    expect(page.items.map((e) => e.acao)).toEqual(['devolver', 'enviar']);
    expect(page.truncated).toBe(true);
  });

  it('refuses a names source that is not a table name or carries a statement', async () => {
    await expect(
      recordHistory(t.server.db, { entidadeId: ent.a, plugin, registro, names: { produtoId: { table: 'x; DROP', label: 'nome' } } }),
    ).rejects.toThrow(/invalid table/);
    await expect(
      recordHistory(t.server.db, { entidadeId: ent.a, plugin, registro, names: { produtoId: { table: 'produtos_historia', label: 'nome; DROP TABLE x' } } }),
    ).rejects.toThrow(/invalid label/);
  });
});
