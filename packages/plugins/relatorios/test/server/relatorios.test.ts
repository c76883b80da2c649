// Reports at /reports on a real database (PGlite; PostgreSQL too with TEST_DATABASE_URL), through the
// report requisições contribute to the kit's RELATORIOS point: the catalogue by tag, the person's
// centros in the rows and in the choices, exact totals and sort, hostile filters (400, never 5xx),
// and the PDF and XLSX read back.
import memorandosPlugin from '@app/memorandos/server';
import produtosPlugin from '@app/produtos/server';
import registrosPlugin from '@app/registros/server';
import requisicoesPlugin from '@app/requisicoes/server';
import { parseSpreadsheet } from '@app/server-core';
import { type ErrorBody, describeEachDatabase, withoutSeed } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import plugin from '../../src/server/index.js';
import { RELATORIOS_TAG, type Relatorio, type Resultado } from '../../src/shared/index.js';
import { pdfText } from './pdf.js';

const REQUISICOES_TAG = 39;
const ID = 'requisicoes.por-periodo';
type User = { token: string; id: string };

describeEachDatabase(
  '@app/relatorios: reports contributed by the plugins',
  { plugins: [withoutSeed(registrosPlugin), withoutSeed(produtosPlugin), withoutSeed(memorandosPlugin), withoutSeed(requisicoesPlugin), plugin] },
  (t) => {
    let educacao: string;
    let saude: string;
    let todos: User;
    let edu: User;
    let soRelatorios: User;
    let soRequisicoes: User;

    const get = (path: string, u: User) => t.server.request(`/api/relatorios${path}`, { token: u.token });
    const json = async <R>(res: Response, status: number): Promise<R> => {
      const text = await res.text();
      if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
      return JSON.parse(text) as R;
    };
    const linhas = (query: string, u: User = todos) => get(`/${ID}/linhas${query}`, u);

    beforeAll(async () => {
      const { prefeitura: entidade_id } = await t.server.demoEntidades();
      const ins = (table: string, values: Record<string, unknown>) => t.server.insert(table, { entidade_id, ...values });
      educacao = await ins('registros_centros_custo', { codigo: '02', nome: 'Secretaria de Educação' });
      saude = await ins('registros_centros_custo', { codigo: '03', nome: 'Secretaria de Saúde' });
      const tipo = await ins('registros_tipos_solicitacao', { nome: 'Material de consumo' });
      const grupo = await ins('registros_grupos', { codigo: '7510', nome: 'Artigos de expediente' });
      const un = await ins('registros_unidades', { sigla: 'UN', descricao: 'Unidade' });
      const produto = await ins('produtos', { codigo: '000001', descricao: 'Papel sulfite A4', tipo: 'material', grupo_id: grupo, unidade_id: un });
      todos = await t.server.createUser({ login: 'gestor', tags: [RELATORIOS_TAG, REQUISICOES_TAG], todosCentros: true });
      edu = await t.server.createUser({ login: 'edu', tags: [RELATORIOS_TAG, REQUISICOES_TAG], centros: [educacao] });
      soRelatorios = await t.server.createUser({ login: 'leitor', tags: [RELATORIOS_TAG] });
      soRequisicoes = await t.server.createUser({ login: 'req', tags: [REQUISICOES_TAG] });
      const requisicao = async (numero: number, data: string, centro: string, status: string, valor: string, justificativa: string, itens: number) => {
        const id = await ins('requisicoes', {
          numero,
          ano: 2026,
          data,
          status,
          valor_total: valor,
          centro_custo_id: centro,
          tipo_solicitacao_id: tipo,
          categoria: 'compras',
          justificativa,
          solicitante_id: edu.id,
          solicitante_nome: 'Maria Souza',
        });
        for (let i = 0; i < itens; i++) {
          await ins('requisicao_itens', { requisicao_id: id, ordem: i + 1, produto_id: produto, quantidade: '1', valor_unitario: '1', valor_total: '1' });
        }
      };
      await requisicao(1, '2026-01-10', educacao, 'aprovada', '0.10', 'Papel para as escolas', 2);
      await requisicao(2, '2026-01-31', educacao, 'em_aprovacao', '9.99', 'Canetas esferográficas', 1);
      await requisicao(3, '2026-02-01', educacao, 'aprovada', '10.00', 'Merenda escolar', 3);
      await requisicao(4, '2026-01-15', saude, 'aprovada', '1234.56', 'Luvas de procedimento', 1);
      await requisicao(5, '2025-12-31', saude, 'cancelada', '0.20', 'Máscaras descartáveis', 0);
    });

    it('lists the reports whose tag the person holds; without /reports 403, without the report tag 404', async () => {
      const catalogo = await json<{ items: { id: string; group: string }[] }>(await get('', todos), 200);
      expect(catalogo.items).toContainEqual(expect.objectContaining({ id: ID, group: 'Requisições' }));
      expect((await json<{ items: unknown[] }>(await get('', soRelatorios), 200)).items).toEqual([]);
      expect((await get('', soRequisicoes)).status).toBe(403);
      expect((await get(`/${ID}`, soRelatorios)).status).toBe(404);
      expect((await linhas('', soRelatorios)).status).toBe(404);
      expect((await get('/nao.existe/linhas', todos)).status).toBe(404);
      expect((await get(`/${'x'.repeat(300)}`, todos)).status).toBe(400);
    });

    it('reads the rows in the person centros: their rows, their choices, a centro of another → 400', async () => {
      const relatorio = await json<Relatorio>(await get(`/${ID}`, edu), 200);
      expect(relatorio.filtros.find((f) => f.name === 'centro')?.options).toEqual([{ value: educacao, label: 'Secretaria de Educação (02)' }]);
      const minhas = await json<Resultado>(await linhas('', edu), 200);
      expect(minhas.linhas.map((l) => l.numero)).toEqual(['3/2026', '2/2026', '1/2026']);
      expect(minhas.totais).toEqual({ itens: '6', valor: '20.09' });
      const outra = await json<ErrorBody>(await linhas(`?centro=${saude}`, edu), 400);
      expect(outra.error.fields).toEqual({ centro: 'Secretaria (centro de custo): escolha uma das opções.' });
      const deSaude = await json<Resultado>(await linhas(`?centro=${saude}`), 200);
      expect(deSaude.linhas.map((l) => l.numero)).toEqual(['4/2026', '5/2026']);
      expect(deSaude.filtrosUsados).toEqual([{ label: 'Secretaria (centro de custo)', valor: 'Secretaria de Saúde (03)' }]);
    });

    it('filters by period (dd/mm/aaaa or aaaa-mm-dd), situation and text; sums exactly; sorts by any column', async () => {
      const janeiro = await json<Resultado>(await linhas('?de=01/01/2026&ate=2026-01-31&ordem=valor&direcao=desc'), 200);
      // 9,99 before 0,10 and after 1.234,56: a decimal sort, not a text sort
      expect(janeiro.linhas.map((l) => [l.numero, l.valor, l.situacao])).toEqual([
        ['4/2026', '1234.56', 'Aprovada'],
        ['2/2026', '9.99', 'Em aprovação'],
        ['1/2026', '0.10', 'Aprovada'],
      ]);
      expect(janeiro).toMatchObject({ totalLinhas: 3, totais: { itens: '4', valor: '1244.65' }, ordem: 'valor', direcao: 'desc' });
      expect(janeiro.filtrosUsados).toEqual([
        { label: 'Data inicial', valor: '01/01/2026' },
        { label: 'Data final', valor: '31/01/2026' },
      ]);
      const aprovadas = await json<Resultado>(await linhas('?situacao=aprovada&ordem=data'), 200);
      expect(aprovadas.linhas.map((l) => l.data)).toEqual(['2026-01-10', '2026-01-15', '2026-02-01']);
      const busca = await json<Resultado>(await linhas('?busca=MERENDA'), 200);
      expect(busca.linhas.map((l) => l.objeto)).toEqual(['Merenda escolar']);
      const nada = await json<Resultado>(await linhas('?de=01/01/2030'), 200);
      expect(nada).toMatchObject({ linhas: [], totalLinhas: 0, totais: { itens: '0', valor: '0.00' } });
    });

    it('answers 400 naming the field for hostile filters, never 5xx', async () => {
      const casos: [string, string][] = [
        ['?de=2026-02-30', 'de'],
        ['?de=31/13/2026', 'de'],
        ['?de=abc', 'de'],
        ['?de=2026-02-01&ate=2026-01-01', 'ate'],
        ["?centro=' OR 1=1 --", 'centro'],
        ['?centro=00000000-0000-0000-0000-000000000000', 'centro'],
        ['?situacao=rascunho%27', 'situacao'],
        [`?busca=${'a'.repeat(201)}`, 'busca'],
        ['?busca=%00', 'busca'],
        ['?ordem=senha', 'ordem'],
        ['?direcao=up', 'direcao'],
      ];
      for (const [query, campo] of casos) {
        const res = await linhas(query);
        const body = await json<ErrorBody>(res, 400).catch((e: Error) => {
          throw new Error(`${query}: ${e.message}`);
        });
        expect(Object.keys(body.error.fields ?? {}), query).toContain(campo);
        for (const format of ['pdf', 'xlsx']) expect((await get(`/${ID}/${format}${query}`, todos)).status, `${format} ${query}`).toBe(400);
      }
    });

    it('prints the PDF and the XLSX with the title, the entidade, the filters, who and when, all rows and the totals', async () => {
      const pdf = await get(`/${ID}/pdf?de=01/01/2026&ate=31/01/2026&ordem=valor`, todos);
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(pdf.headers.get('content-disposition')).toBe('inline; filename="requisicoes-por-secretaria-solicitante-e-periodo.pdf"');
      const texto = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
      for (const esperado of [
        'Requisições por secretaria, solicitante e período',
        'Data inicial',
        '01/01/2026',
        '31/01/2026',
        'Gerado por',
        'Luvas de procedimento',
        'R$ 0,10',
        'R$ 1.234,56',
        'Total',
        'R$ 1.244,65',
        'Página 1 de 1',
      ]) {
        expect(texto).toContain(esperado);
      }
      expect(texto).not.toContain('Merenda escolar');
      expect(texto.indexOf('R$ 0,10')).toBeLessThan(texto.indexOf('R$ 9,99'));

      const xlsx = await get(`/${ID}/xlsx?situacao=aprovada`, todos);
      expect(xlsx.headers.get('content-disposition')).toContain('attachment; filename="requisicoes-por-secretaria-solicitante-e-periodo.xlsx"');
      const planilha = await parseSpreadsheet(new Uint8Array(await xlsx.arrayBuffer()), { filename: 'r.xlsx' }, undefined, { headerFirstCell: 'Número' });
      expect(planilha.headers).toEqual(['Número', 'Data', 'Secretaria', 'Solicitante', 'Objeto', 'Itens', 'Situação', 'Valor']);
      const valores = planilha.rows.map((r) => [r.cells.Número, r.cells.Valor]);
      expect(valores).toEqual([
        ['3/2026', '10'],
        ['4/2026', '1234.56'],
        ['1/2026', '0.1'],
        ['Total', '1244.66'],
      ]);

      // every file a person takes away is audited, as the download of one made in the background: who, which report, the format, rows and filters
      const baixados = await t.server.sql<{ acao: string; registro: string; usuario_id: string; entidade_id: string; depois: unknown }>(
        "SELECT acao, registro, usuario_id, entidade_id, depois FROM audit_log WHERE plugin = 'relatorios' AND acao = 'baixar_relatorio' ORDER BY id",
      );
      const { prefeitura } = await t.server.demoEntidades();
      expect(baixados).toEqual([
        {
          acao: 'baixar_relatorio',
          registro: ID,
          usuario_id: todos.id,
          entidade_id: prefeitura,
          depois: {
            relatorio: ID,
            formato: 'pdf',
            linhas: 3,
            filtros: [
              { label: 'Data inicial', valor: '01/01/2026' },
              { label: 'Data final', valor: '31/01/2026' },
            ],
          },
        },
        {
          acao: 'baixar_relatorio',
          registro: ID,
          usuario_id: todos.id,
          entidade_id: prefeitura,
          depois: { relatorio: ID, formato: 'xlsx', linhas: 3, filtros: [{ label: 'Situação', valor: 'Aprovada' }] },
        },
      ]);
      // a file refused (a filter invalid) is not a download
      expect((await get(`/${ID}/xlsx?de=31/02/2026`, todos)).status).toBe(400);
      expect(await t.server.sql("SELECT id FROM audit_log WHERE acao = 'baixar_relatorio'")).toHaveLength(2);
    });
  },
);
