// GET /api/analise/consumo and /consumo/documentos against a hand-computed fixture (./fixtures.ts), on PGlite
// and PostgreSQL. The approved requisições are written with SQL so each approval (and the requisição's
// aprovada_em, the last of its round) has a chosen instant (America/Sao_Paulo, UTC−3): one at 23:30 on the
// last day of a month belongs to that month, not to the next one as in UTC.
import { describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import { type Consumo, type DocumentosConsumo, type OpcoesConsumo, consumoSchema, documentosConsumoSchema } from '../../src/shared/index.js';
import { fixtureConsumo } from './fixtures.js';
import { plugins } from './plugins.js';

type Erro = { error: { code: string; message: string; fields?: Record<string, string> } };

describeEachDatabase('analise: consumo', { plugins }, (t) => {
  let fx: Record<string, string>;
  let admin: string;
  let edu: { token: string; id: string };
  let semTag: string;

  beforeAll(async () => {
    ({ fx, admin, edu, semTag } = await fixtureConsumo(t.server));
  });

  const get = (path: string, token = admin) => t.server.request(`/api/analise/${path}`, { token });
  const consumo = async (query: string, token = admin): Promise<Consumo> => {
    const res = await get(`consumo?${query}`, token);
    expect(res.status, await res.clone().text()).toBe(200);
    return consumoSchema.parse(await res.json());
  };
  const documentos = async (query: string, token = admin): Promise<DocumentosConsumo> => {
    const res = await get(`consumo/documentos?${query}`, token);
    expect(res.status, await res.clone().text()).toBe(200);
    return documentosConsumoSchema.parse(await res.json());
  };
  const v = (quantidade: string, valor: string) => ({ quantidade, valor });
  const Z = v('0.00', '0.00');

  it('per centro de custo, month by month: exact sums, zero months, totals and consumo médio mensal', async () => {
    const c = await consumo('de=2026-01&ate=2026-04');
    expect(c.meses).toEqual(['2026-01', '2026-02', '2026-03', '2026-04']);
    expect(c.series).toEqual([
      {
        id: fx.edu,
        nome: '02 – Secretaria de Educação',
        meses: [v('15.00', '269.01'), v('1.00', '25.50'), Z, Z],
        total: v('16.00', '294.51'),
        media: v('4.00', '73.6275'),
      },
      { id: fx.sau, nome: '03 – Secretaria de Saúde', meses: [Z, Z, v('5.00', '127.75'), Z], total: v('5.00', '127.75'), media: v('1.25', '31.9375') },
      { id: fx.obr, nome: '04 – Secretaria de Obras', meses: [Z, Z, Z, v('1.00', '5.00')], total: v('1.00', '5.00'), media: v('0.25', '1.25') },
    ]);
    expect(c.total).toMatchObject({
      meses: [v('15.00', '269.01'), v('1.00', '25.50'), v('5.00', '127.75'), v('1.00', '5.00')],
      total: v('22.00', '427.26'),
      media: v('5.50', '106.815'),
    });
    expect(c.grupos).toEqual([
      {
        id: fx.ga,
        nome: 'Material de expediente',
        meses: [v('13.00', '259.00'), v('1.00', '25.50'), v('5.00', '127.75'), Z],
        total: v('19.00', '412.25'),
        media: v('4.75', '103.0625'),
      },
      { id: fx.gb, nome: 'Material de limpeza', meses: [v('2.00', '10.01'), Z, Z, v('1.00', '5.00')], total: v('3.00', '15.01'), media: v('0.75', '3.7525') },
    ]);
  });

  it('the month boundary is 00:00 in America/Sao_Paulo, at both ends of the period', async () => {
    // 31/12/2025 23:30 local is December: not in January
    expect((await consumo('de=2026-01&ate=2026-01')).total.total).toEqual(v('15.00', '269.01'));
    // 30/04 23:30 local is April; 01/05 00:30 local is May
    expect((await consumo('de=2026-04&ate=2026-04')).total.total).toEqual(v('1.00', '5.00'));
    expect((await consumo('de=2026-05&ate=2026-05')).total.total).toEqual(v('40.00', '2000.00'));
    expect((await consumo('de=2025-12&ate=2025-12')).total.total).toEqual(v('40.00', '1000.00'));
  });

  it('an average the months do not divide exactly: four decimals; a period with nothing: zeros', async () => {
    const c = await consumo(`de=2026-01&ate=2026-03&centroCustoId=${fx.sau}`);
    expect(c.total.media).toEqual(v('1.6667', '42.5833'));
    const vazio = await consumo('de=2024-01&ate=2024-02');
    expect(vazio).toMatchObject({ series: [], grupos: [], total: { meses: [Z, Z], total: Z, media: Z } });
  });

  it('per núcleo de consumo (a centro in two núcleos counts in each, once in the total) and by grupo, subgrupo, product', async () => {
    const c = await consumo('de=2026-01&ate=2026-04&por=nucleo');
    expect(c.series.map((s) => [s.nome, s.total.valor, s.meses.map((m) => m.valor)])).toEqual([
      ['Núcleo Social', '422.26', ['269.01', '25.50', '127.75', '0.00']],
      ['Núcleo Escolar', '294.51', ['269.01', '25.50', '0.00', '0.00']],
      ['Sem núcleo de consumo', '5.00', ['0.00', '0.00', '0.00', '5.00']],
    ]);
    expect(c.total.total.valor).toBe('427.26');
    const social = await consumo(`de=2026-01&ate=2026-04&por=nucleo&nucleoId=${fx.social}`);
    expect(social.series.map((s) => [s.nome, s.total.valor])).toEqual([['Núcleo Social', '422.26']]);
    expect((await consumo(`de=2026-01&ate=2026-04&por=grupo&grupoId=${fx.gb}`)).series.map((s) => [s.nome, s.total.valor])).toEqual([
      ['Material de limpeza', '15.01'],
    ]);
    expect((await consumo(`de=2026-01&ate=2026-04&subgrupoId=${fx.papelaria}`)).total.total).toEqual(v('16.00', '408.25'));
    expect((await consumo(`de=2026-01&ate=2026-04&produtoId=${fx.caneta}`)).total.total).toEqual(v('3.00', '4.00'));
  });

  it('drill-down: the requisições behind a figure add up to it, with number, dates and link', async () => {
    const d = await documentos(`de=2026-01&ate=2026-04&centroCustoId=${fx.edu}&mes=2026-01`);
    expect(d.items).toEqual([
      {
        id: fx.r1,
        numero: '1/2026',
        data: '2026-01-02',
        aprovadaEm: '2026-01-10',
        centroCusto: '02 – Secretaria de Educação',
        quantidade: '13.00',
        valor: '259.00',
        href: `/requisicao/edit/${fx.r1}`,
      },
      expect.objectContaining({ id: fx.r2, numero: '2/2026', aprovadaEm: '2026-01-31', valor: '10.01' }),
    ]);
    expect(d.total).toEqual(v('15.00', '269.01'));
    expect(d.quantidadeDocumentos).toBe(2);
    const grupo = await documentos(`de=2026-01&ate=2026-04&grupoId=${fx.ga}&mes=2026-03`);
    expect(grupo.items.map((i) => [i.id, i.valor])).toEqual([[fx.r4, '127.75']]);
    const periodo = await documentos(`de=2026-01&ate=2026-04&nucleoId=${fx.escolar}`);
    expect(periodo.items.map((i) => i.numero)).toEqual(['1/2026', '2/2026', '3/2026']);
    expect(periodo.total.valor).toBe('294.51');
  });

  it("row scope: a centro's user sees only their centros in every figure, list and choice", async () => {
    const c = await consumo('de=2026-01&ate=2026-04&por=nucleo', edu.token);
    expect(c.series.map((s) => [s.nome, s.total.valor])).toEqual([
      ['Núcleo Escolar', '294.51'],
      ['Núcleo Social', '294.51'],
    ]);
    expect(c.total.total.valor).toBe('294.51');
    expect(c.grupos.map((s) => [s.nome, s.total.valor])).toEqual([
      ['Material de expediente', '284.50'],
      ['Material de limpeza', '10.01'],
    ]);
    expect((await consumo(`de=2026-01&ate=2026-04&centroCustoId=${fx.sau}`, edu.token)).total.total).toEqual(Z);
    expect((await documentos(`de=2026-01&ate=2026-04&centroCustoId=${fx.sau}`, edu.token)).items).toEqual([]);
    const opcoes = (await (await get('consumo/opcoes', edu.token)).json()) as OpcoesConsumo;
    expect(opcoes.centros).toEqual([{ id: fx.edu, nome: '02 – Secretaria de Educação' }]);
    expect(opcoes.grupos.map((g) => g.nome)).toEqual(['Material de expediente', 'Material de limpeza']);
  });

  it('tag 106: 403 without it, 401 without a session; listed in the OpenAPI document with the tag', async () => {
    for (const path of ['consumo?de=2026-01&ate=2026-04', 'consumo/documentos?de=2026-01&ate=2026-04', 'consumo/opcoes', 'consumo/produtos?q=papel']) {
      expect((await get(path, semTag)).status, path).toBe(403);
      expect((await t.server.request(`/api/analise/${path}`)).status, path).toBe(401);
    }
    const doc = (await (await t.server.request('/api/openapi.json')).json()) as { paths: Record<string, { get?: Record<string, unknown> }> };
    expect(doc.paths['/api/analise/consumo']?.get?.['x-permission-tag']).toBe(106);
  });

  it('hostile filters: 400 naming the field in pt-BR, never 5xx', async () => {
    const casos: [string, string][] = [
      ['de=2026-13&ate=2026-12', 'de'],
      ['de=abc&ate=2026-12', 'de'],
      ['ate=2026-12', 'de'],
      ["de=2026-01'%20OR%201=1--&ate=2026-02", 'de'],
      ['de=2026-03&ate=2026-01', 'ate'],
      ['de=2023-01&ate=2026-01', 'ate'],
      ['de=2026-01&ate=2026-02&centroCustoId=1%3BDROP%20TABLE%20requisicoes', 'centroCustoId'],
      ['de=2026-01&ate=2026-02&nucleoId=x', 'nucleoId'],
      ['de=2026-01&ate=2026-02&grupoId=', 'grupoId'],
      ['de=2026-01&ate=2026-02&subgrupoId=00000000-0000-0000-0000-00000000000g', 'subgrupoId'],
      ['de=2026-01&ate=2026-02&produtoId=%00', 'produtoId'],
      ['de=2026-01&ate=2026-02&por=produto', 'por'],
      ['de=2026-01&ate=2026-02&mes=2026-05', 'mes'],
    ];
    for (const [query, campo] of casos) {
      for (const path of ['consumo', 'consumo/documentos']) {
        const res = await get(`${path}?${query}`);
        expect(res.status, `${path}?${query}`).toBe(400);
        const body = (await res.json()) as Erro;
        expect(body.error.fields?.[campo], `${path}?${query}`).toMatch(/[a-zà-ú]/);
      }
    }
    // any hostile value in any parameter of any route: an answer, never a 5xx
    const hostis = ['\u0000', '__proto__', 'toString', '', ' ', '1e400', 'NaN', '-1', "'; DROP TABLE usuarios; --", '9999-12', '0000-01', 'x'.repeat(5000)];
    for (const campo of ['de', 'ate', 'centroCustoId', 'nucleoId', 'grupoId', 'subgrupoId', 'produtoId', 'por', 'mes', 'q']) {
      for (const valor of hostis) {
        for (const path of ['consumo', 'consumo/documentos', 'consumo/opcoes', 'consumo/produtos']) {
          const query = new URLSearchParams({ de: '2026-01', ate: '2026-02', [campo]: valor });
          expect((await get(`${path}?${query}`)).status, `${path} ${campo}=${valor.slice(0, 20)}`).toBeLessThan(500);
        }
      }
    }
    expect((await get('consumo?de=9999-12&ate=9999-12')).status).toBe(200);
    expect((await get('consumo?de=2026-01&ate=2026-03')).status).toBe(200);
    expect((await get('consumo?de=2024-01&ate=2026-12')).status).toBe(200); // 36 months
    expect((await get('consumo?de=2026-01&de=2027-01&ate=2026-02')).status).toBeLessThan(500);
    const produtos = await get(`consumo/produtos?q=${encodeURIComponent("%' OR 1=1 --")}`);
    expect(produtos.status).toBe(200);
    expect(await produtos.json()).toEqual({ items: [] });
    expect((await get(`consumo/produtos?q=${'a'.repeat(101)}`)).status).toBe(400);
    expect(((await (await get('consumo/produtos?q=sulfite')).json()) as { items: unknown[] }).items).toEqual([
      { id: fx.papel, nome: '000001 – Papel sulfite A4' },
    ]);
  });

  it("the month is the requisição's aprovada_em (its date for one approved with no approval in its round); two approvals at the same instant count once", async () => {
    const ins = (table: string, values: Record<string, unknown>) => t.server.insert(table, { entidade_id: fx.ent, ...values });
    // aprovada_em as @app/requisicoes holds it: the last approval of the round, else the date (its migration 0005)
    const requisicao = async (numero: number, data: string, quantidade: string, aprovadaEm = `${data} 00:00:00-03`) => {
      const id = await ins('requisicoes', {
        numero,
        ano: 2024,
        data,
        status: 'aprovada',
        aprovada_em: aprovadaEm,
        centro_custo_id: fx.edu,
        tipo_solicitacao_id: fx.tipo,
        categoria: 'compras',
        justificativa: 'Consumo de 2024.',
        solicitante_id: edu.id,
        solicitante_nome: 'Pessoa edu',
        ciclo: 1,
      });
      await ins('requisicao_itens', { requisicao_id: id, ordem: 1, produto_id: fx.papel, quantidade, valor_unitario: '1', valor_total: quantidade });
      return id;
    };
    await requisicao(901, '2024-06-10', '3');
    const empatada = await requisicao(902, '2024-05-02', '4', '2024-06-20 10:00:00-03');
    for (const [nivel, usuario] of [
      [1, fx.adminId],
      [2, edu.id],
    ] as const) {
      await ins('requisicao_aprovacoes', {
        requisicao_id: empatada,
        ciclo: 1,
        nivel,
        usuario_id: usuario,
        usuario_nome: 'Aprovador',
        created_at: '2024-06-20 10:00:00-03',
      });
    }
    const c = await consumo('de=2024-06&ate=2024-06');
    expect(c.total.total).toEqual(v('7.00', '7.00'));
    expect((await consumo('de=2024-05&ate=2024-05')).total.total).toEqual(Z);
    const docs = await documentos('de=2024-06&ate=2024-06');
    expect(docs.items.map((d) => [d.numero, d.aprovadaEm, d.quantidade])).toEqual([
      ['901/2024', '2024-06-10', '3.00'],
      ['902/2024', '2024-06-20', '4.00'],
    ]);
  });
});
