// GET /api/analise/precos against a hand-computed fixture (./fixtures.ts), on PGlite and PostgreSQL. The cotações, their
// prices and the requisições are written with SQL so each price has a chosen instant (America/Sao_Paulo,
// UTC−3): a price collected at 23:30 on 11/03 is a price of 11/03, not of 12/03 as in UTC.
//
// Papel sulfite, every price the admin sees (oldest first):
//   01/02 Requisição 1/2026 (Educação, aprovada)      25.00
//   05/03 Cotação 1/2026 painel                      26.90
//   10/03 Cotação 1/2026 Papelaria Aliança           25.50
//   11/03 Cotação 1/2026 Distribuidora Paulista      27.50   (23:30 local)
//   20/03 Cotação 1/2026 preço estimado (concluída)  26.90
//   15/04 Cotação 2/2026 nota fiscal (Saúde)         50.00   atypical: above 125% of the median
//   02/05 Cotação 2/2026 Papelaria Aliança           24.00
//   01/06 Requisição 2/2026 (Saúde, em aprovação)    12.00   atypical: below 75% of the median
// Sorted: 12 24 25 25.5 26.9 26.9 27.5 50 → median (25.5 + 26.9) / 2 = 26.20; band 19.65 to 32.75;
// variation 25.00 → 12.00 = −52.00 %. Out: a price excluded from the calculation (40.00), a cancelled
// cotação (10.00), a draft requisição (99.00), a cancelled one (98.00), another product's prices.
import { describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import { type PontoPreco, type Precos, pontosDe, precosSchema } from '../../src/shared/index.js';
import { fixturePrecos } from './fixtures.js';
import { plugins } from './plugins.js';

type Erro = { error: { code: string; message: string; fields?: Record<string, string> } };

describeEachDatabase('analise: preços', { plugins }, (t) => {
  let fx: Record<string, string>;
  let admin: string;
  let edu: { token: string; id: string };
  let semTag: string;

  beforeAll(async () => {
    ({ fx, admin, edu, semTag } = await fixturePrecos(t.server));
  });

  const get = (path: string, token = admin) => t.server.request(`/api/analise/${path}`, { token });
  const precos = async (query: string, token = admin): Promise<Precos> => {
    const res = await get(`precos?${query}`, token);
    expect(res.status, await res.clone().text()).toBe(200);
    return precosSchema.parse(await res.json());
  };
  const linha = (p: PontoPreco) => [p.data, p.valor, p.fonte, p.documento, p.fornecedor, p.atipico];

  it('every source of the product, oldest first, with its day in São Paulo, source, document and supplier', async () => {
    const p = await precos(`produtoId=${fx.papel}`);
    expect(p.produto).toEqual({ id: fx.papel, nome: '000001 – Papel sulfite A4', unidade: 'RESMA' });
    expect(pontosDe(p).map(linha)).toEqual([
      ['2026-02-01', '25.00', 'Valor estimado da requisição', 'Requisição 1/2026', null, null],
      ['2026-03-05', '26.90', 'Painel de preços', 'Cotação 1/2026', null, null],
      ['2026-03-10', '25.50', 'Fornecedor', 'Cotação 1/2026', 'Papelaria Aliança Ltda', null],
      ['2026-03-11', '27.50', 'Fornecedor', 'Cotação 1/2026', 'Distribuidora Paulista de Papéis S.A.', null],
      ['2026-03-20', '26.90', 'Preço estimado da cotação', 'Cotação 1/2026', null, null],
      ['2026-04-15', '50.00', 'Nota fiscal', 'Cotação 2/2026', null, 'Acima de 125% da mediana (R$ 32,75).'],
      ['2026-05-02', '24.00', 'Fornecedor', 'Cotação 2/2026', 'Papelaria Aliança Ltda', null],
      ['2026-06-01', '12.00', 'Valor estimado da requisição', 'Requisição 2/2026', null, 'Abaixo de 75% da mediana (R$ 19,65).'],
    ]);
    expect(pontosDe(p).map((x) => x.origem)).toEqual([
      'estimado_requisicao',
      'coletado',
      'coletado',
      'coletado',
      'estimado_cotacao',
      'coletado',
      'coletado',
      'estimado_requisicao',
    ]);
    expect(pontosDe(p)[0]!.href).toBe(`/requisicao/edit/${fx.r1}`);
    expect(pontosDe(p)[1]).toMatchObject({ href: `/cotacao/edit/${fx.c1}`, descricao: 'Fonte painel' });
    // as sent: one array per field, each repeated text once (the documents, sources, suppliers and reasons)
    expect(p.pontos.valor).toEqual(['25.00', '26.90', '25.50', '27.50', '26.90', '50.00', '24.00', '12.00']);
    expect(p.dicionarios.documentos).toEqual([
      { rotulo: 'Requisição 1/2026', href: `/requisicao/edit/${fx.r1}` },
      { rotulo: 'Cotação 1/2026', href: `/cotacao/edit/${fx.c1}` },
      { rotulo: 'Cotação 2/2026', href: expect.stringMatching(/^\/cotacao\/edit\//) },
      { rotulo: 'Requisição 2/2026', href: expect.stringMatching(/^\/requisicao\/edit\//) },
    ]);
    expect(p.pontos.documento).toEqual([0, 1, 1, 1, 1, 2, 2, 3]);
    expect(p.dicionarios.fornecedores).toEqual(['Papelaria Aliança Ltda', 'Distribuidora Paulista de Papéis S.A.']);
    expect(p.pontos.fornecedor).toEqual([null, null, 0, 1, null, null, 0, null]);
    expect(p.dicionarios.motivos).toEqual(['Acima de 125% da mediana (R$ 32,75).', 'Abaixo de 75% da mediana (R$ 19,65).']);
    expect(p.pontos.atipico).toEqual([null, null, null, null, null, 0, null, 1]);
    expect(p.dicionarios.fontes.map((f) => f.nome)).toEqual([
      'Valor estimado da requisição',
      'Painel de preços',
      'Fornecedor',
      'Preço estimado da cotação',
      'Nota fiscal',
    ]);
  });

  it('summary: exact median, lowest, highest, first, last, variation, band and atypical prices; suppliers compared', async () => {
    const p = await precos(`produtoId=${fx.papel}`);
    expect(p.resumo).toEqual({
      quantidade: 8,
      mediana: '26.20',
      menor: '12.00',
      maior: '50.00',
      primeiro: '25.00',
      ultimo: '12.00',
      variacao: '-52.00',
      faixa: { inferior: '19.65', superior: '32.75' },
      atipicos: 2,
    });
    expect(p.fornecedores).toEqual([
      { nome: 'Papelaria Aliança Ltda', quantidade: 2, menor: '24.00', mediana: '24.75', ultimo: '24.00', ultimaData: '2026-05-02' },
      { nome: 'Distribuidora Paulista de Papéis S.A.', quantidade: 1, menor: '27.50', mediana: '27.50', ultimo: '27.50', ultimaData: '2026-03-11' },
    ]);
  });

  it('unit values of four places: the median of two is exact (five places), so are the band and the variation', async () => {
    const p = await precos(`produtoId=${fx.caneta}`);
    expect(pontosDe(p).map((x) => [x.valor, x.origem])).toEqual([
      ['0.0125', 'coletado'],
      ['0.0126', 'coletado'],
      ['0.0126', 'estimado_cotacao'],
    ]);
    expect(p.resumo).toMatchObject({ mediana: '0.0126', variacao: '0.80', faixa: { inferior: '0.00945', superior: '0.01575' }, atipicos: 0 });
    const dois = await precos(`produtoId=${fx.caneta}&ate=2026-03-11`);
    expect(dois.resumo).toMatchObject({ quantidade: 2, mediana: '0.01255', faixa: { inferior: '0.0094125', superior: '0.0156875' } });
    expect(dois.fornecedores.map((f) => [f.nome, f.mediana])).toEqual([
      ['Papelaria Aliança Ltda', '0.0125'],
      ['Distribuidora Paulista de Papéis S.A.', '0.0126'],
    ]);
  });

  it('the period counts days in America/Sao_Paulo (23:30 on 11/03 is 11/03) and takes dd/mm/aaaa too', async () => {
    const p = await precos(`produtoId=${fx.papel}&de=2026-03-11&ate=2026-04-15`);
    expect(p).toMatchObject({ de: '2026-03-11', ate: '2026-04-15' });
    expect(pontosDe(p).map((x) => [x.data, x.valor, x.atipico !== null])).toEqual([
      ['2026-03-11', '27.50', false],
      ['2026-03-20', '26.90', false],
      ['2026-04-15', '50.00', true],
    ]);
    // 22.50 / 27.50 = 81.8181…%
    expect(p.resumo).toMatchObject({ quantidade: 3, mediana: '27.50', variacao: '81.82', faixa: { inferior: '20.625', superior: '34.375' } });
    expect((await precos(`produtoId=${fx.papel}&de=2026-03-12&ate=2026-04-15`)).pontos.data).toEqual(['2026-03-20', '2026-04-15']);
    expect(await precos(`produtoId=${fx.papel}&de=11/03/2026&ate=15/04/2026`)).toEqual(p);
  });

  it('nothing in the period: no figures; a product never priced: empty', async () => {
    const vazio = await precos(`produtoId=${fx.papel}&de=2025-01-01&ate=2025-12-31`);
    expect(vazio).toMatchObject({
      pontos: { data: [], valor: [], fonte: [], documento: [], fornecedor: [], descricao: [], atipico: [] },
      dicionarios: { fontes: [], documentos: [], fornecedores: [], descricoes: [], motivos: [] },
      fornecedores: [],
      resumo: { quantidade: 0, mediana: null, menor: null, maior: null, primeiro: null, ultimo: null, variacao: null, faixa: null, atipicos: 0 },
    });
    const um = await precos(`produtoId=${fx.papel}&de=2026-02-01&ate=2026-02-01`);
    expect(um.resumo).toMatchObject({ quantidade: 1, mediana: '25.00', primeiro: '25.00', ultimo: '25.00', variacao: null, atipicos: 0 });
    expect((await precos(`produtoId=${fx.clipe}`)).resumo.quantidade).toBe(0);
  });

  it("row scope: a centro's user sees only the prices of their centros' cotações and requisições", async () => {
    const p = await precos(`produtoId=${fx.papel}`, edu.token);
    expect(pontosDe(p).map((x) => [x.data, x.valor, x.documento])).toEqual([
      ['2026-02-01', '25.00', 'Requisição 1/2026'],
      ['2026-03-05', '26.90', 'Cotação 1/2026'],
      ['2026-03-10', '25.50', 'Cotação 1/2026'],
      ['2026-03-11', '27.50', 'Cotação 1/2026'],
      ['2026-03-20', '26.90', 'Cotação 1/2026'],
    ]);
    // 25 25.5 26.9 26.9 27.5: median 26.90, band 20.175 to 33.625, nothing atypical; 25.00 → 26.90 = +7.60 %
    expect(p.resumo).toMatchObject({ quantidade: 5, mediana: '26.90', variacao: '7.60', atipicos: 0, faixa: { inferior: '20.175', superior: '33.625' } });
    expect(p.fornecedores.map((f) => [f.nome, f.quantidade, f.ultimo])).toEqual([
      ['Papelaria Aliança Ltda', 1, '25.50'],
      ['Distribuidora Paulista de Papéis S.A.', 1, '27.50'],
    ]);
  });

  it('tag 106: 403 without it, 401 without a session; 404 for a product that does not exist or is of another entidade', async () => {
    for (const path of [`precos?produtoId=${fx.papel}`, 'produtos?q=papel', `produtos/${fx.papel}`]) {
      expect((await get(path, semTag)).status, path).toBe(403);
      expect((await t.server.request(`/api/analise/${path}`)).status, path).toBe(401);
    }
    const outro = await get('precos?produtoId=00000000-0000-4000-8000-000000000000');
    expect(outro.status).toBe(404);
    expect(((await outro.json()) as Erro).error.message).toBe('Produto ou serviço não encontrado.');
    const camara = (await t.server.demoEntidades()).camara;
    const un = await t.server.insert('registros_unidades', { entidade_id: camara, sigla: 'UN', descricao: 'Unidade' });
    const grupo = await t.server.insert('registros_grupos', { entidade_id: camara, codigo: 'GC', nome: 'Grupo da Câmara' });
    const daCamara = await t.server.insert('produtos', {
      entidade_id: camara,
      codigo: '000001',
      descricao: 'Papel da Câmara',
      tipo: 'material',
      grupo_id: grupo,
      unidade_id: un,
    });
    expect((await get(`precos?produtoId=${daCamara}`)).status).toBe(404);
    const doc = (await (await t.server.request('/api/openapi.json')).json()) as { paths: Record<string, { get?: Record<string, unknown> }> };
    expect(doc.paths['/api/analise/precos']?.get?.['x-permission-tag']).toBe(106);
  });

  it('the catalogue picker answers the products with code, unit and grupo', async () => {
    const res = await get('produtos?q=sulfite&ativo=todos');
    expect(res.status).toBe(200);
    const { items } = (await res.json()) as { items: Record<string, unknown>[] };
    expect(items).toEqual([expect.objectContaining({ id: fx.papel, codigo: '000001', descricao: 'Papel sulfite A4', unidadeSigla: 'RESMA' })]);
  });

  it('hostile filters: 400 naming the field in pt-BR, never 5xx', async () => {
    const casos: [string, string][] = [
      ['', 'produtoId'],
      ['produtoId=', 'produtoId'],
      ['produtoId=papel', 'produtoId'],
      ['produtoId=1%3BDROP%20TABLE%20produtos', 'produtoId'],
      [`produtoId=${fx.papel}&de=2026-13-01`, 'de'],
      [`produtoId=${fx.papel}&de=31/02/2026`, 'de'],
      [`produtoId=${fx.papel}&de=abc`, 'de'],
      [`produtoId=${fx.papel}&de=2026-01-01'%20OR%201=1--`, 'de'],
      [`produtoId=${fx.papel}&ate=0000-01-01`, 'ate'],
      [`produtoId=${fx.papel}&de=2026-03-01&ate=2026-02-01`, 'ate'],
    ];
    for (const [query, campo] of casos) {
      const res = await get(`precos?${query}`);
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as Erro;
      expect(body.error.fields?.[campo], query).toMatch(/[a-zà-ú]/);
    }
    const hostis = [
      '\u0000',
      '__proto__',
      'toString',
      '',
      ' ',
      '1e400',
      'NaN',
      '-1',
      "'; DROP TABLE usuarios; --",
      '9999-12-31',
      '0001-01-01',
      'x'.repeat(5000),
    ];
    for (const campo of ['produtoId', 'de', 'ate']) {
      for (const valor of hostis) {
        const query = new URLSearchParams({ produtoId: fx.papel!, [campo]: valor });
        expect((await get(`precos?${query}`)).status, `${campo}=${valor.slice(0, 20)}`).toBeLessThan(500);
      }
    }
    expect((await get(`precos?produtoId=${fx.papel}&de=0001-01-01&ate=9999-12-31`)).status).toBe(200);
    expect((await get(`precos?produtoId=${fx.papel}&produtoId=${fx.caneta}`)).status).toBeLessThan(500);
    expect((await get(`produtos?q=${encodeURIComponent("%' OR 1=1 --")}`)).status).toBe(200);
  });
});
