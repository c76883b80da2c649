// The reports cotações contribute to /reports (the kit's RELATORIOS point), run through @app/relatorios
// on PGlite (and PostgreSQL with TEST_DATABASE_URL): 'Cotações: mapa comparativo e memória de cálculo'
// (items, valid prices by the rules of avaliarCotacao, estimated value) and the pendência
// 'Requisições aprovadas sem cotação'. The fixture is written with SQL and the figures computed by hand.
import fornecedoresPlugin from '@app/fornecedores/server';
import memorandosPlugin from '@app/memorandos/server';
import produtosPlugin from '@app/produtos/server';
import registrosPlugin from '@app/registros/server';
import relatoriosPlugin from '@app/relatorios/server';
import requisicoesPlugin from '@app/requisicoes/server';
import { parseSpreadsheet } from '@app/server-core';
import { type ErrorBody, describeEachDatabase, withoutSeed } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import cotacoesPlugin from '../../src/server/index.js';
import { dia } from './helpers.js';

type Resultado = { linhas: Record<string, unknown>[]; totais: Record<string, string>; filtrosUsados: { label: string; valor: string }[] };
type User = { token: string; id: string };

const RELATORIOS_TAG = 105;
const REQUISICOES_TAG = 39;
const COTACOES_TAG = 73;

describeEachDatabase(
  '@app/cotacoes: the cotações and the requisições aprovadas sem cotação at /reports',
  {
    plugins: [
      withoutSeed(registrosPlugin),
      withoutSeed(produtosPlugin),
      withoutSeed(fornecedoresPlugin),
      withoutSeed(memorandosPlugin),
      withoutSeed(requisicoesPlugin),
      withoutSeed(cotacoesPlugin),
      relatoriosPlugin,
    ],
  },
  (t) => {
    let gestor: User;
    let edu: User;
    let semCotacoes: User;
    let saude: string;

    const get = (path: string, u: User) => t.server.request(`/api/relatorios${path}`, { token: u.token });
    const json = async <R>(res: Response, status: number): Promise<R> => {
      const text = await res.text();
      if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
      return JSON.parse(text) as R;
    };
    const linhas = async (id: string, query: string, u: User = gestor) => json<Resultado>(await get(`/${id}/linhas${query}`, u), 200);

    beforeAll(async () => {
      const { prefeitura: entidade_id } = await t.server.demoEntidades();
      const ins = (table: string, values: Record<string, unknown>) => t.server.insert(table, { entidade_id, ...values });
      const educacao = await ins('registros_centros_custo', { codigo: '02', nome: 'Secretaria de Educação' });
      saude = await ins('registros_centros_custo', { codigo: '03', nome: 'Secretaria de Saúde' });
      const tipo = await ins('registros_tipos_solicitacao', { nome: 'Material de consumo' });
      const grupo = await ins('registros_grupos', { codigo: 'GA', nome: 'Material de expediente' });
      const un = await ins('registros_unidades', { sigla: 'UN', descricao: 'Unidade' });
      const produto = (codigo: string, descricao: string) => ins('produtos', { codigo, descricao, tipo: 'material', grupo_id: grupo, unidade_id: un });
      const papel = await produto('000001', 'Papel sulfite A4');
      const caneta = await produto('000002', 'Caneta esferográfica azul');
      const luva = await produto('000003', 'Luva de procedimento');
      const fornecedor = await ins('fornecedores', {
        documento: '11222333000181',
        razao_social: 'Papelaria Central Ltda.',
        logradouro: 'Rua Direita, 10',
        cep: '01001000',
        municipio: 'São Paulo',
        uf: 'SP',
      });
      gestor = await t.server.createUser({ login: 'gestor', tags: [RELATORIOS_TAG, COTACOES_TAG], todosCentros: true });
      edu = await t.server.createUser({ login: 'edu', tags: [RELATORIOS_TAG, COTACOES_TAG], centros: [educacao] });
      semCotacoes = await t.server.createUser({ login: 'requisitante', tags: [RELATORIOS_TAG, REQUISICOES_TAG], todosCentros: true });
      const adminId = (await t.server.sql<{ id: string }>("SELECT id FROM usuarios WHERE login = 'admin'"))[0]!.id;

      // ---- requisições (the one item each is what a cotação's item may point to)
      const requisicao = async (numero: number, data: string, status: string, centro: string, justificativa: string, produtoId: string) => {
        const id = await ins('requisicoes', {
          numero,
          ano: Number(data.slice(0, 4)),
          data,
          status,
          valor_total: '10.00',
          centro_custo_id: centro,
          tipo_solicitacao_id: tipo,
          categoria: 'compras',
          justificativa,
          solicitante_id: edu.id,
          solicitante_nome: 'Maria Souza',
        });
        const item = await ins('requisicao_itens', {
          requisicao_id: id,
          ordem: 1,
          produto_id: produtoId,
          quantidade: '1',
          valor_unitario: '10',
          valor_total: '10',
        });
        return { id, item };
      };
      const ra = await requisicao(1, dia(-50), 'aprovada', educacao, 'Papel para as escolas.', papel); // cotação by the header
      const rb = await requisicao(2, dia(-40), 'aprovada', saude, 'Luvas para os postos.', luva); // cotação by an item
      const rc = await requisicao(3, dia(-30), 'aprovada', educacao, 'Canetas para a secretaria.', caneta); // only a cancelled cotação
      await requisicao(4, dia(-20), 'aprovada', saude, 'Luvas para o hospital.', luva); // none
      await requisicao(5, dia(-10), 'em_aprovacao', educacao, 'Papel para a biblioteca.', papel); // not approved

      // ---- cotações
      const cotacao = (numero: number, data: string, status: string, centro: string, objeto: string, valor: string, requisicaoId: string | null) =>
        ins('cotacoes', {
          numero,
          ano: 2026,
          data,
          status,
          objeto,
          centro_custo_id: centro,
          requisicao_id: requisicaoId,
          data_referencia: '2026-08-31',
          metodo: 'media',
          responsavel_id: adminId,
          responsavel_nome: 'Administrador',
          valor_total: valor,
        });
      const item = (cotacaoId: string, ordem: number, produtoId: string, requisicaoItemId: string | null = null) =>
        ins('cotacao_itens', { cotacao_id: cotacaoId, ordem, produto_id: produtoId, quantidade: '2', requisicao_item_id: requisicaoItemId });
      const c1 = await cotacao(1, '2026-09-01', 'em_coleta', educacao, 'Material de expediente para as escolas', '10.00', ra.id);
      await item(c1, 1, papel, ra.item);
      await item(c1, 2, caneta);
      await ins('cotacao_fornecedores', { cotacao_id: c1, fornecedor_id: fornecedor, situacao: 'respondeu' });
      const preco = (produtoId: string, fonte: string, dataColeta: string, extra: Record<string, unknown> = {}) =>
        ins('cotacao_precos', {
          cotacao_id: c1,
          produto_id: produtoId,
          fonte,
          fonte_descricao: `Fonte ${fonte}`,
          valor_unitario: '1.5',
          data_coleta: dataColeta,
          coletado_por: adminId,
          coletado_por_nome: 'Administrador',
          ...extra,
        });
      // reference date 31/08/2026: mídia and fornecedor up to 6 months (28/02/2026), contrato and nota fiscal 12 (31/08/2025)
      await preco(papel, 'painel', '2020-01-01T12:00:00-03:00'); // valid: the painel has no age limit
      await preco(papel, 'midia', '2026-02-28T02:30:00Z'); // 27/02 23:30 in São Paulo: too old
      await preco(papel, 'midia', '2026-02-28T12:00:00-03:00'); // valid: the oldest day accepted
      await preco(caneta, 'contrato', '2026-08-01T12:00:00-03:00', { exclusao_motivo: 'Preço fora da realidade do mercado.' }); // excluded
      await preco(caneta, 'midia', '2025-01-01T12:00:00-03:00', { inclusao_motivo: 'Único preço disponível na região.' }); // old, included
      await preco(caneta, 'fornecedor', '2026-08-20T12:00:00-03:00', { fornecedor_id: fornecedor, validade: '2026-08-30' }); // expired
      await preco(papel, 'fornecedor', '2026-08-20T12:00:00-03:00', { fornecedor_id: fornecedor, validade: '2026-08-31' }); // valid up to the day
      await preco(caneta, 'nota_fiscal', '2025-08-31T12:00:00-03:00'); // valid: the oldest day accepted
      const c2 = await cotacao(2, '2026-09-10', 'concluida', saude, 'Luvas de procedimento para os postos', '1234.56', null);
      await item(c2, 1, luva, rb.item);
      const c3 = await cotacao(3, '2026-09-20', 'cancelada', educacao, 'Canetas esferográficas para a secretaria', '0.10', rc.id);
      await item(c3, 1, caneta);
    });

    it('lists the reports to those holding Cotações, and not to others', async () => {
      const ids = async (u: User) => (await json<{ items: { id: string; group: string }[] }>(await get('', u), 200)).items;
      expect(await ids(gestor)).toContainEqual(expect.objectContaining({ id: 'cotacoes.cotacoes', group: 'Cotações' }));
      expect(await ids(gestor)).toContainEqual(expect.objectContaining({ id: 'cotacoes.requisicoes-sem-cotacao', group: 'Pendências' }));
      expect((await ids(semCotacoes)).map((r) => r.id).filter((id) => id.startsWith('cotacoes.'))).toEqual([]);
      expect((await get('/cotacoes.cotacoes/linhas', semCotacoes)).status).toBe(404);
      expect((await get('/cotacoes.requisicoes-sem-cotacao/linhas', semCotacoes)).status).toBe(404);
    });

    it('lists each cotação with its items, valid prices and estimated value; exact totals', async () => {
      const r = await linhas('cotacoes.cotacoes', '');
      expect(r.linhas).toEqual([
        {
          numero: '1/2026',
          data: '2026-09-01',
          secretaria: 'Secretaria de Educação',
          objeto: 'Material de expediente para as escolas',
          situacao: 'Em coleta',
          itens: 2,
          precosValidos: 5,
          itensAbaixo: 1, // the caneta: 2 valid prices; the papel has 3
          valor: '10.00',
        },
        {
          numero: '2/2026',
          data: '2026-09-10',
          secretaria: 'Secretaria de Saúde',
          objeto: 'Luvas de procedimento para os postos',
          situacao: 'Concluída',
          itens: 1,
          precosValidos: 0,
          itensAbaixo: 1,
          valor: '1234.56',
        },
        {
          numero: '3/2026',
          data: '2026-09-20',
          secretaria: 'Secretaria de Educação',
          objeto: 'Canetas esferográficas para a secretaria',
          situacao: 'Cancelada',
          itens: 1,
          precosValidos: 0,
          itensAbaixo: 1,
          valor: '0.10',
        },
      ]);
      expect(r.totais).toEqual({ itens: '4', precosValidos: '5', itensAbaixo: '3', valor: '1244.66' });
      const periodo = await linhas('cotacoes.cotacoes', '?de=05/09/2026&ate=2026-09-30&ordem=valor&direcao=desc');
      expect(periodo.linhas.map((l) => l.numero)).toEqual(['2/2026', '3/2026']);
      expect((await linhas('cotacoes.cotacoes', '?situacao=concluida')).linhas.map((l) => l.numero)).toEqual(['2/2026']);
      expect((await linhas('cotacoes.cotacoes', '?situacao=em_coleta&precos=poucos')).linhas.map((l) => l.numero)).toEqual(['1/2026']);
    });

    it("measures the home page's indicator: cotações em coleta with an item short of 3 valid prices, in the person's centros", async () => {
      const indicador = async (u: User) =>
        (await json<{ items: { id: string }[] }>(await t.server.request('/api/indicadores', { token: u.token }), 200)).items.find(
          (i) => i.id === 'cotacoes.poucos-precos',
        );
      const esperado = {
        id: 'cotacoes.poucos-precos',
        label: 'Cotações em coleta com menos de 3 preços válidos',
        href: '/reports/cotacoes.cotacoes?situacao=em_coleta&precos=poucos',
        valor: '1',
        nivel: 'atencao',
        detalhe: '1 de 1 cotação em coleta tem item com menos de 3 preços válidos: colete mais preços ou justifique.',
      };
      expect(await indicador(gestor)).toEqual(esperado);
      expect(await indicador(edu)).toEqual(esperado);
      // no cotação em coleta in Saúde: nothing to measure; without the tag: not measured
      const daSaude = await t.server.createUser({ login: 'saude', tags: [COTACOES_TAG], centros: [saude] });
      expect(await indicador(daSaude)).toBeUndefined();
      expect(await indicador(semCotacoes)).toBeUndefined();
    });

    it('reads the cotações and the pendências in the person centros', async () => {
      const minhas = await linhas('cotacoes.cotacoes', '', edu);
      expect(minhas.linhas.map((l) => l.numero)).toEqual(['1/2026', '3/2026']);
      expect(minhas.totais).toEqual({ itens: '3', precosValidos: '5', itensAbaixo: '2', valor: '10.10' });
      expect((await linhas('cotacoes.requisicoes-sem-cotacao', '', edu)).linhas.map((l) => l.objeto)).toEqual(['Canetas para a secretaria.']);
    });

    it('requisições aprovadas sem cotação: none by the header nor by an item, a cancelled one does not count; age in days', async () => {
      const r = await linhas('cotacoes.requisicoes-sem-cotacao', '');
      expect(r.linhas).toEqual([
        {
          documento: `3/${dia(-30).slice(0, 4)}`,
          data: dia(-30),
          secretaria: 'Secretaria de Educação',
          solicitante: 'Maria Souza',
          objeto: 'Canetas para a secretaria.',
          situacao: 'Aprovada, sem cotação',
          idade: 30,
        },
        {
          documento: `4/${dia(-20).slice(0, 4)}`,
          data: dia(-20),
          secretaria: 'Secretaria de Saúde',
          solicitante: 'Maria Souza',
          objeto: 'Luvas para o hospital.',
          situacao: 'Aprovada, sem cotação',
          idade: 20,
        },
      ]);
      expect((await linhas('cotacoes.requisicoes-sem-cotacao', `?centro=${saude}`)).linhas.map((l) => l.objeto)).toEqual(['Luvas para o hospital.']);
    });

    it('answers 400 naming the field for hostile filters, never 5xx', async () => {
      const casos: [string, string, string, User][] = [
        ['cotacoes.cotacoes', '?de=2026-02-30', 'de', gestor],
        ['cotacoes.cotacoes', '?de=2026-09-02&ate=2026-09-01', 'ate', gestor],
        ['cotacoes.cotacoes', '?situacao=aberta', 'situacao', gestor],
        ['cotacoes.cotacoes', '?precos=todos', 'precos', gestor],
        ['cotacoes.cotacoes', `?centro=${saude}`, 'centro', edu],
        ['cotacoes.cotacoes', '?ordem=objeto;DROP', 'ordem', gestor],
        ['cotacoes.requisicoes-sem-cotacao', "?centro=' OR 1=1 --", 'centro', gestor],
        ['cotacoes.requisicoes-sem-cotacao', `?centro=${saude}`, 'centro', edu],
      ];
      for (const [id, query, campo, u] of casos) {
        const body = await json<ErrorBody>(await get(`/${id}/linhas${query}`, u), 400).catch((e: Error) => {
          throw new Error(`${id}${query}: ${e.message}`);
        });
        expect(Object.keys(body.error.fields ?? {}), `${id}${query}`).toContain(campo);
      }
    });

    it('prints the cotações as PDF and XLSX', async () => {
      const pdf = await get('/cotacoes.cotacoes/pdf', gestor);
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(new TextDecoder().decode((await pdf.arrayBuffer()).slice(0, 5))).toBe('%PDF-');
      const xlsx = await get('/cotacoes.cotacoes/xlsx', edu);
      expect(xlsx.status).toBe(200);
      const planilha = await parseSpreadsheet(new Uint8Array(await xlsx.arrayBuffer()), { filename: 'r.xlsx' }, undefined, { headerFirstCell: 'Número' });
      expect(planilha.headers).toEqual([
        'Número',
        'Data',
        'Secretaria',
        'Objeto',
        'Situação',
        'Itens',
        'Preços válidos',
        'Itens com menos de 3 preços',
        'Valor estimado',
      ]);
      expect(planilha.rows.map((row) => [row.cells.Número, row.cells['Preços válidos'], row.cells['Valor estimado']])).toEqual([
        ['1/2026', '5', '10'],
        ['3/2026', '0', '0.1'],
        ['Total', '5', '10.1'],
      ]);
    });
  },
);
