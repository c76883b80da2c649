// The reports analise contributes to /reports, run through @app/relatorios on PGlite (and PostgreSQL with
// TEST_DATABASE_URL) over the API tests' fixtures (./fixtures.ts): the figures equal GET /api/analise/consumo's
// and /precos' for the same person and filters, in the person's centros, 404 without tag 106, 400 for
// hostile filters, and the XLSX read back.
import { parseSpreadsheet } from '@app/server-core';
import { type ErrorBody, describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
// @app/relatorios' build, by path (a test-only use; built before this package's tests, @app/cotacoes depending on it)
import relatorios from '@app/relatorios/server';
import { type Consumo, type Precos, pontosDe, rotuloMes } from '../../src/shared/index.js';
import { type Fixture, fixtureConsumo, fixturePrecos } from './fixtures.js';
import { plugins } from './plugins.js';
import { consumoRelatorio, historicoPrecos } from '../../src/server/relatorios.js';

const RELATORIOS_TAG = 105;
type Resultado = { linhas: Record<string, unknown>[]; totais: Record<string, string>; filtrosUsados: { label: string; valor: string }[] };

describeEachDatabase('analise: Consumo por centro de custo e mês at /reports', { plugins: [...plugins, relatorios] }, (t) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await fixtureConsumo(t.server, [RELATORIOS_TAG]);
  });
  const get = (path: string, token = f.admin) => t.server.request(path, { token });
  const json = async <R>(res: Response, status: number): Promise<R> => {
    const text = await res.text();
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
    return JSON.parse(text) as R;
  };
  const linhas = async (query: string, token = f.admin) => json<Resultado>(await get(`/api/relatorios/analise.consumo/linhas?${query}`, token), 200);
  const api = async (query: string, token = f.admin) => json<Consumo>(await get(`/api/analise/consumo?${query}`, token), 200);
  /** The API's series as the report's rows: one per series and month. */
  const comoLinhas = (c: Consumo) => c.series.flatMap((s) => s.meses.map((v, i) => ({ nome: s.nome, mes: rotuloMes(c.meses[i]!), ...v })));

  it('one row per centro de custo and month, zero months included, exact totals: the API figures', async () => {
    const r = await linhas('de=01/2026&ate=04/2026');
    const linha = (nome: string, mes: string, quantidade: string, valor: string) => ({ nome, mes, quantidade, valor });
    expect(r.linhas).toEqual([
      linha('02 – Secretaria de Educação', 'jan/2026', '15.00', '269.01'),
      linha('02 – Secretaria de Educação', 'fev/2026', '1.00', '25.50'),
      linha('02 – Secretaria de Educação', 'mar/2026', '0.00', '0.00'),
      linha('02 – Secretaria de Educação', 'abr/2026', '0.00', '0.00'),
      linha('03 – Secretaria de Saúde', 'jan/2026', '0.00', '0.00'),
      linha('03 – Secretaria de Saúde', 'fev/2026', '0.00', '0.00'),
      linha('03 – Secretaria de Saúde', 'mar/2026', '5.00', '127.75'),
      linha('03 – Secretaria de Saúde', 'abr/2026', '0.00', '0.00'),
      linha('04 – Secretaria de Obras', 'jan/2026', '0.00', '0.00'),
      linha('04 – Secretaria de Obras', 'fev/2026', '0.00', '0.00'),
      linha('04 – Secretaria de Obras', 'mar/2026', '0.00', '0.00'),
      linha('04 – Secretaria de Obras', 'abr/2026', '1.00', '5.00'),
    ]);
    const c = await api('de=2026-01&ate=2026-04');
    expect(r.linhas).toEqual(comoLinhas(c));
    expect(r.totais).toEqual({ quantidade: '22.00', valor: '427.26' });
    expect(r.totais).toEqual(c.total.total);
    expect(r.filtrosUsados).toEqual([
      { label: 'Mês inicial (mm/aaaa)', valor: '01/2026' },
      { label: 'Mês final (mm/aaaa)', valor: '04/2026' },
      { label: 'Uma linha por', valor: 'Centro de custo' },
    ]);
  });

  it('the consumption page filters: núcleo, grupo, subgrupo, product and centro give the API figures; aaaa-mm too', async () => {
    const casos: [string, string][] = [
      ['por=nucleo', 'por=nucleo'],
      [`por=nucleo&nucleo=${f.fx.social}`, `por=nucleo&nucleoId=${f.fx.social}`],
      [`por=grupo&grupo=${f.fx.gb}`, `por=grupo&grupoId=${f.fx.gb}`],
      [`subgrupo=${f.fx.papelaria}`, `subgrupoId=${f.fx.papelaria}`],
      [`produto=${f.fx.caneta}`, `produtoId=${f.fx.caneta}`],
      [`centro=${f.fx.sau}`, `centroCustoId=${f.fx.sau}`],
    ];
    for (const [relatorio, consulta] of casos) {
      const r = await linhas(`de=2026-01&ate=04/2026&${relatorio}`);
      expect(r.linhas, relatorio).toEqual(comoLinhas(await api(`de=2026-01&ate=2026-04&${consulta}`)));
    }
    // per núcleo a centro in two núcleos counts in each: Social 21 and 422.26 + Escolar 16 and 294.51 + sem núcleo 1 and 5.00
    expect((await linhas('de=01/2026&ate=04/2026&por=nucleo')).totais).toEqual({ quantidade: '38.00', valor: '721.77' });
    const produto = await linhas(`de=01/2026&ate=04/2026&produto=${f.fx.caneta}`);
    expect(produto.filtrosUsados).toContainEqual({ label: 'Produto ou serviço', valor: '000002 – Caneta esferográfica azul' });
    expect(produto.totais).toEqual({ quantidade: '3.00', valor: '4.00' });
    // a period with nothing: no rows
    expect(await linhas('de=01/2024&ate=02/2024')).toMatchObject({ linhas: [], totais: { quantidade: '0.00', valor: '0.00' } });
  });

  it("the PDF's chart: the report's rows drawn by ECharts as SVG, the months in order whatever the rows' order", async () => {
    const r = await linhas('de=01/2026&ate=04/2026&ordem=valor&direcao=desc');
    const grafico = consumoRelatorio.chart!(r.linhas, {});
    expect(grafico?.height).toBeGreaterThan(0);
    const svg = grafico!.svg;
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('Valor por mês');
    for (const nome of ['02 – Secretaria de Educação', '03 – Secretaria de Saúde', '04 – Secretaria de Obras']) expect(svg).toContain(nome);
    const meses = ['jan/2026', 'fev/2026', 'mar/2026', 'abr/2026'].map((m) => svg.indexOf(`>${m}<`));
    expect(meses.every((i) => i > 0)).toBe(true);
    expect([...meses].sort((a, b) => a - b)).toEqual(meses);
    expect(consumoRelatorio.chart!([], {})).toBeNull();
    const pdf = await get('/api/relatorios/analise.consumo/pdf?de=01/2026&ate=04/2026');
    expect(pdf.status).toBe(200);
    expect(new TextDecoder().decode((await pdf.arrayBuffer()).slice(0, 5))).toBe('%PDF-');
  });

  it("row scope: a centro's user sees only their centros' rows, as the API answers them", async () => {
    const r = await linhas('de=01/2026&ate=04/2026', f.edu.token);
    expect(r.linhas.map((l) => l.nome)).toEqual(Array(4).fill('02 – Secretaria de Educação'));
    expect(r.linhas).toEqual(comoLinhas(await api('de=2026-01&ate=2026-04', f.edu.token)));
    expect(r.totais).toEqual({ quantidade: '16.00', valor: '294.51' });
    const nucleos = await linhas('de=01/2026&ate=04/2026&por=nucleo', f.edu.token);
    expect([...new Set(nucleos.linhas.map((l) => l.nome))]).toEqual(['Núcleo Escolar', 'Núcleo Social']);
    // another centro is no choice of theirs
    const centros = await json<{ filtros: { name: string; options?: { value: string; label: string }[] }[] }>(
      await get('/api/relatorios/analise.consumo', f.edu.token),
      200,
    );
    expect(centros.filtros.find((x) => x.name === 'centro')?.options).toEqual([{ value: f.fx.edu, label: '02 – Secretaria de Educação' }]);
    expect(centros.filtros.find((x) => x.name === 'subgrupo')?.options).toEqual([{ value: f.fx.papelaria, label: 'Material de expediente › Papelaria' }]);
    const body = await json<ErrorBody>(await get(`/api/relatorios/analise.consumo/linhas?de=01/2026&ate=04/2026&centro=${f.fx.sau}`, f.edu.token), 400);
    expect(Object.keys(body.error.fields ?? {})).toContain('centro');
  });

  it('tag 106: listed for those who hold it, 404 for the report without it', async () => {
    const catalogo = async (token: string) => (await json<{ items: { id: string; group: string }[] }>(await get('/api/relatorios', token), 200)).items;
    expect(await catalogo(f.edu.token)).toContainEqual(expect.objectContaining({ id: 'analise.consumo', group: 'Análise de consumo e preços' }));
    expect((await catalogo(f.semTag)).map((r) => r.id).filter((id) => id.startsWith('analise.'))).toEqual([]);
    for (const path of ['', '/linhas?de=01/2026&ate=04/2026', '/xlsx?de=01/2026&ate=04/2026', '/pdf']) {
      expect((await get(`/api/relatorios/analise.consumo${path}`, f.semTag)).status, path).toBe(404);
    }
  });

  it('hostile filters: 400 naming the filter in pt-BR, never 5xx', async () => {
    const casos: [string, string][] = [
      ['de=13/2026&ate=12/2026', 'de'],
      ['de=abc&ate=12/2026', 'de'],
      ['de=2026-01-01&ate=12/2026', 'de'],
      ["de=01/2026'%20OR%201=1--&ate=02/2026", 'de'],
      ['de=01/2026&ate=2026-13', 'ate'],
      ['de=03/2026&ate=01/2026', 'ate'],
      ['de=01/2023&ate=01/2026', 'ate'],
      ['de=01/2026&ate=02/2026&por=produto', 'por'],
      ['de=01/2026&ate=02/2026&centro=1%3BDROP%20TABLE%20requisicoes', 'centro'],
      ['de=01/2026&ate=02/2026&nucleo=x', 'nucleo'],
      ['de=01/2026&ate=02/2026&grupo=00000000-0000-4000-8000-000000000000', 'grupo'],
      ['de=01/2026&ate=02/2026&subgrupo=%00', 'subgrupo'],
      ['de=01/2026&ate=02/2026&produto=papel', 'produto'],
      ['de=01/2026&ate=02/2026&ordem=valor;DROP', 'ordem'],
    ];
    for (const [query, campo] of casos) {
      const body = await json<ErrorBody>(await get(`/api/relatorios/analise.consumo/linhas?${query}`), 400).catch((e: Error) => {
        throw new Error(`${query}: ${e.message}`);
      });
      expect(body.error.fields?.[campo], query).toMatch(/[a-zà-ú]/);
      expect(body.error.message, query).toMatch(/[a-zà-ú]/);
    }
    const hostis = ['\u0000', '__proto__', 'toString', ' ', '1e400', 'NaN', '-1', "'; DROP TABLE usuarios; --", '12/9999', '00/0000', 'x'.repeat(5000)];
    for (const campo of ['de', 'ate', 'por', 'centro', 'nucleo', 'grupo', 'subgrupo', 'produto', 'ordem', 'direcao']) {
      for (const valor of hostis) {
        const query = new URLSearchParams({ de: '01/2026', ate: '02/2026', [campo]: valor });
        expect((await get(`/api/relatorios/analise.consumo/linhas?${query}`)).status, `${campo}=${valor.slice(0, 20)}`).toBeLessThan(500);
      }
    }
  });

  it('downloads the XLSX: the rows and the totals read back', async () => {
    const xlsx = await get('/api/relatorios/analise.consumo/xlsx?de=01/2026&ate=02/2026', f.edu.token);
    expect(xlsx.status).toBe(200);
    const planilha = await parseSpreadsheet(new Uint8Array(await xlsx.arrayBuffer()), { filename: 'r.xlsx' }, undefined, {
      headerFirstCell: 'Centro de custo, núcleo ou grupo',
    });
    expect(planilha.headers).toEqual(['Centro de custo, núcleo ou grupo', 'Mês', 'Quantidade', 'Valor']);
    expect(planilha.rows.map((row) => Object.values(row.cells))).toEqual([
      ['02 – Secretaria de Educação', 'jan/2026', '15', '269.01'],
      ['02 – Secretaria de Educação', 'fev/2026', '1', '25.5'],
      ['Total', '', '16', '294.51'],
    ]);
  });
});

describeEachDatabase('analise: Histórico de preços por produto at /reports', { plugins: [...plugins, relatorios] }, (t) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await fixturePrecos(t.server, [RELATORIOS_TAG]);
  });
  const get = (path: string, token = f.admin) => t.server.request(path, { token });
  const json = async <R>(res: Response, status: number): Promise<R> => {
    const text = await res.text();
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
    return JSON.parse(text) as R;
  };
  const linhas = async (query: string, token = f.admin) => json<Resultado>(await get(`/api/relatorios/analise.historico-precos/linhas?${query}`, token), 200);
  const api = async (query: string, token = f.admin) => json<Precos>(await get(`/api/analise/precos?${query}`, token), 200);
  const comoLinhas = (p: Precos) =>
    pontosDe(p).map((x) => ({
      data: x.data,
      fonte: x.fonte,
      fornecedor: x.fornecedor,
      documento: x.documento,
      valor: x.valor,
      atipico: x.atipico ? 'Sim' : 'Não',
      motivo: x.atipico,
    }));

  it('one row per price, oldest first, with source, supplier, document and the atypical ones: the API figures', async () => {
    const r = await linhas(`produto=${f.fx.papel}`);
    const linha = (data: string, fonte: string, fornecedor: string | null, documento: string, valor: string, motivo: string | null = null) => ({
      data,
      fonte,
      fornecedor,
      documento,
      valor,
      atipico: motivo ? 'Sim' : 'Não',
      motivo,
    });
    expect(r.linhas).toEqual([
      linha('2026-02-01', 'Valor estimado da requisição', null, 'Requisição 1/2026', '25.00'),
      linha('2026-03-05', 'Painel de preços', null, 'Cotação 1/2026', '26.90'),
      linha('2026-03-10', 'Fornecedor', 'Papelaria Aliança Ltda', 'Cotação 1/2026', '25.50'),
      linha('2026-03-11', 'Fornecedor', 'Distribuidora Paulista de Papéis S.A.', 'Cotação 1/2026', '27.50'),
      linha('2026-03-20', 'Preço estimado da cotação', null, 'Cotação 1/2026', '26.90'),
      linha('2026-04-15', 'Nota fiscal', null, 'Cotação 2/2026', '50.00', 'Acima de 125% da mediana (R$ 32,75).'),
      linha('2026-05-02', 'Fornecedor', 'Papelaria Aliança Ltda', 'Cotação 2/2026', '24.00'),
      linha('2026-06-01', 'Valor estimado da requisição', null, 'Requisição 2/2026', '12.00', 'Abaixo de 75% da mediana (R$ 19,65).'),
    ]);
    expect(r.linhas).toEqual(comoLinhas(await api(`produtoId=${f.fx.papel}`)));
    expect(r.filtrosUsados).toEqual([{ label: 'Produto ou serviço', valor: '000001 – Papel sulfite A4' }]);
    // four places kept; the period in São Paulo days, dd/mm/aaaa or aaaa-mm-dd, the atypical ones of the period's median
    const caneta = await linhas(`produto=${f.fx.caneta}&ate=11/03/2026`);
    expect(caneta.linhas.map((l) => l.valor)).toEqual(['0.0125', '0.0126']);
    const periodo = await linhas(`produto=${f.fx.papel}&de=11/03/2026&ate=2026-04-15`);
    expect(periodo.linhas).toEqual(comoLinhas(await api(`produtoId=${f.fx.papel}&de=2026-03-11&ate=2026-04-15`)));
    expect(periodo.linhas.map((l) => [l.data, l.atipico])).toEqual([
      ['2026-03-11', 'Não'],
      ['2026-03-20', 'Não'],
      ['2026-04-15', 'Sim'],
    ]);
    expect((await linhas(`produto=${f.fx.clipe}`)).linhas).toEqual([]);
  });

  it("the PDF's chart: every price on its day (dd/mm/aaaa), the atypical ones apart, the median line", async () => {
    const r = await linhas(`produto=${f.fx.papel}`);
    const svg = historicoPrecos.chart!(r.linhas, {})!.svg;
    expect(svg).toContain('Preço unitário (R$) por data');
    for (const texto of ['01/02/2026', '01/06/2026', 'Preços', 'Atípicos', 'Mediana']) expect(svg).toContain(texto);
    const pdf = await get(`/api/relatorios/analise.historico-precos/pdf?produto=${f.fx.papel}`);
    expect(pdf.status).toBe(200);
  });

  it("row scope: a centro's user sees only the prices of their centros' documents, as the API answers them", async () => {
    const r = await linhas(`produto=${f.fx.papel}`, f.edu.token);
    expect(r.linhas.map((l) => [l.data, l.documento, l.atipico])).toEqual([
      ['2026-02-01', 'Requisição 1/2026', 'Não'],
      ['2026-03-05', 'Cotação 1/2026', 'Não'],
      ['2026-03-10', 'Cotação 1/2026', 'Não'],
      ['2026-03-11', 'Cotação 1/2026', 'Não'],
      ['2026-03-20', 'Cotação 1/2026', 'Não'],
    ]);
    expect(r.linhas).toEqual(comoLinhas(await api(`produtoId=${f.fx.papel}`, f.edu.token)));
  });

  it('tag 106: 404 for the report without it', async () => {
    for (const path of ['', `/linhas?produto=${f.fx.papel}`, `/xlsx?produto=${f.fx.papel}`]) {
      expect((await get(`/api/relatorios/analise.historico-precos${path}`, f.semTag)).status, path).toBe(404);
    }
  });

  it('the product is required: 400 with a pt-BR message; hostile filters give 400, never 5xx', async () => {
    const sem = await json<ErrorBody>(await get('/api/relatorios/analise.historico-precos/linhas'), 400);
    expect(sem.error.message).toBe('Produto ou serviço: informe um valor.');
    expect(sem.error.fields).toEqual({ produto: 'Produto ou serviço: informe um valor.' });
    const casos: [string, string][] = [
      ['produto=', 'produto'],
      ['produto=papel', 'produto'],
      ['produto=00000000-0000-4000-8000-000000000000', 'produto'],
      ["produto=' OR 1=1 --", 'produto'],
      [`produto=${f.fx.papel}&de=31/02/2026`, 'de'],
      [`produto=${f.fx.papel}&de=2026-13-01`, 'de'],
      [`produto=${f.fx.papel}&de=abc`, 'de'],
      [`produto=${f.fx.papel}&de=01/03/2026&ate=01/02/2026`, 'ate'],
      [`produto=${f.fx.papel}&ordem=preco`, 'ordem'],
    ];
    for (const [query, campo] of casos) {
      const body = await json<ErrorBody>(await get(`/api/relatorios/analise.historico-precos/linhas?${query}`), 400).catch((e: Error) => {
        throw new Error(`${query}: ${e.message}`);
      });
      expect(body.error.fields?.[campo], query).toMatch(/[a-zà-ú]/);
    }
    const hostis = ['\u0000', '__proto__', 'toString', ' ', '1e400', 'NaN', '-1', "'; DROP TABLE usuarios; --", '9999-12-31', '0001-01-01', 'x'.repeat(5000)];
    for (const campo of ['produto', 'de', 'ate', 'ordem', 'direcao']) {
      for (const valor of hostis) {
        const query = new URLSearchParams({ produto: f.fx.papel!, [campo]: valor });
        expect((await get(`/api/relatorios/analise.historico-precos/linhas?${query}`)).status, `${campo}=${valor.slice(0, 20)}`).toBeLessThan(500);
      }
    }
  });

  it('downloads the XLSX: every price of the period read back, the atypical ones by the median of the period (24.00)', async () => {
    const xlsx = await get(`/api/relatorios/analise.historico-precos/xlsx?produto=${f.fx.papel}&de=2026-04-01`);
    expect(xlsx.status).toBe(200);
    const planilha = await parseSpreadsheet(new Uint8Array(await xlsx.arrayBuffer()), { filename: 'r.xlsx' }, undefined, { headerFirstCell: 'Data' });
    expect(planilha.headers).toEqual(['Data', 'Fonte', 'Fornecedor', 'Documento', 'Preço unitário (R$)', 'Atípico', 'Por que é atípico']);
    expect(planilha.rows.map((row) => Object.values(row.cells))).toEqual([
      ['15/04/2026', 'Nota fiscal', '', 'Cotação 2/2026', '50', 'Sim', 'Acima de 125% da mediana (R$ 30,00).'],
      ['02/05/2026', 'Fornecedor', 'Papelaria Aliança Ltda', 'Cotação 2/2026', '24', 'Não', ''],
      ['01/06/2026', 'Valor estimado da requisição', '', 'Requisição 2/2026', '12', 'Sim', 'Abaixo de 75% da mediana (R$ 18,00).'],
    ]);
  });
});
