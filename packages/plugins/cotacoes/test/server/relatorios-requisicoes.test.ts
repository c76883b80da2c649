// The reports requisições contribute to /reports (the kit's RELATORIOS point), run through
// @app/relatorios on PGlite (and PostgreSQL with TEST_DATABASE_URL): 'Acumulado de dispensa por grupo
// e ano' and the pendências 'Memorandos aceitos sem pré-requisição' and 'Pré-requisições não
// convertidas em requisições'. They are tested here, in a package that depends on both requisições and
// @app/relatorios: requisições cannot take @app/relatorios as a devDependency, since @app/relatorios
// already takes requisições for its own tests (a cycle of workspace packages).
// The fixture is written with SQL and the figures computed by hand.
import { today } from '@app/br';
import fornecedoresPlugin from '@app/fornecedores/server';
import memorandosPlugin from '@app/memorandos/server';
import produtosPlugin from '@app/produtos/server';
import registrosPlugin from '@app/registros/server';
import relatoriosPlugin from '@app/relatorios/server';
import requisicoesPlugin from '@app/requisicoes/server';
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
  '@app/requisicoes: acumulado de dispensa and pendências at /reports',
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
    let leitor: User;
    let comprador: User;
    let educacao: string;
    let saude: string;

    const get = (path: string, u: User) => t.server.request(`/api/relatorios${path}`, { token: u.token });
    const json = async <R>(res: Response, status: number): Promise<R> => {
      const text = await res.text();
      if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
      return JSON.parse(text) as R;
    };
    const linhas = async (id: string, query: string, u: User = gestor) => json<Resultado>(await get(`/${id}/linhas${query}`, u), 200);
    const ano = (data: string) => Number(data.slice(0, 4));

    beforeAll(async () => {
      const { prefeitura: entidade_id } = await t.server.demoEntidades();
      const ins = (table: string, values: Record<string, unknown>) => t.server.insert(table, { entidade_id, ...values });
      educacao = await ins('registros_centros_custo', { codigo: '02', nome: 'Secretaria de Educação' });
      saude = await ins('registros_centros_custo', { codigo: '03', nome: 'Secretaria de Saúde' });
      const compras = await ins('registros_centros_custo', { codigo: '01.01', nome: 'Compras e Licitações' });
      const tipo = await ins('registros_tipos_solicitacao', { nome: 'Material de consumo' });
      const grupoA = await ins('registros_grupos', { codigo: 'GA', nome: 'Material de expediente' });
      const grupoB = await ins('registros_grupos', { codigo: 'GB', nome: 'Material de construção' });
      const un = await ins('registros_unidades', { sigla: 'UN', descricao: 'Unidade' });
      await ins('produtos', { codigo: '000001', descricao: 'Papel sulfite A4', tipo: 'material', grupo_id: grupoA, unidade_id: un });
      gestor = await t.server.createUser({ login: 'gestor', tags: [RELATORIOS_TAG, REQUISICOES_TAG], todosCentros: true });
      edu = await t.server.createUser({ login: 'edu', tags: [RELATORIOS_TAG, REQUISICOES_TAG], centros: [educacao] });
      leitor = await t.server.createUser({ login: 'leitor', tags: [RELATORIOS_TAG] });
      comprador = await t.server.createUser({ login: 'comprador', tags: [RELATORIOS_TAG, COTACOES_TAG], todosCentros: true });

      // ---- dispensa: the entidade's own compras limit of 2026 is R$ 1.000,00 (obras: the legal 130.984,20)
      await t.server.sql(
        `INSERT INTO requisicao_limites_dispensa (entidade_id, ano, categoria, valor) VALUES ($1, 2026, 'compras', 1000)
         ON CONFLICT (entidade_id, ano, categoria) DO UPDATE SET valor = excluded.valor`,
        [entidade_id],
      );
      const requisicao = async (numero: number, a: number, centro: string, status: string, categoria: string, grupo: string, valor: string, conta: boolean) => {
        const id = await ins('requisicoes', {
          numero,
          ano: a,
          data: `${a}-03-10`,
          status,
          valor_total: valor,
          centro_custo_id: centro,
          tipo_solicitacao_id: tipo,
          categoria,
          justificativa: 'Compra para o exercício.',
          solicitante_id: edu.id,
          solicitante_nome: 'Maria Souza',
        });
        await t.server.sql(
          'INSERT INTO requisicao_grupos (requisicao_id, entidade_id, grupo_id, ano, categoria, valor, conta) VALUES ($1, $2, $3, $4, $5, $6, $7)',
          [id, entidade_id, grupo, a, categoria, valor, conta],
        );
      };
      await requisicao(1, 2026, educacao, 'aprovada', 'compras', grupoA, '600.00', true);
      await requisicao(2, 2026, saude, 'em_aprovacao', 'compras', grupoA, '250.01', true);
      await requisicao(3, 2026, educacao, 'rascunho', 'compras', grupoA, '500.00', false); // not counted
      await requisicao(4, 2026, saude, 'aprovada', 'compras', grupoB, '1000.01', true);
      await requisicao(5, 2026, educacao, 'aprovada', 'obras', grupoB, '130984.20', true);
      await requisicao(1, 2025, educacao, 'aprovada', 'compras', grupoA, '100.00', true);
      await requisicao(1, 2024, educacao, 'aprovada', 'compras', grupoA, '10.00', true);

      // ---- pendências: memorandos aceitos and pré-requisições, dated back from today (São Paulo)
      const memorando = (numero: number, data: string, status: string, origem: string, destino: string, assunto: string) =>
        ins('memorandos', {
          numero,
          ano: ano(data),
          data,
          status,
          origem_id: origem,
          destino_id: destino,
          solicitante_id: edu.id,
          solicitante_nome: 'Maria Souza',
          assunto,
          justificativa: 'Demanda do setor para o ano.',
        });
      const preRequisicao = (numero: number, data: string, status: string, centro: string, justificativa: string, memorandoId: string | null = null) =>
        ins('pre_requisicoes', {
          numero,
          ano: ano(data),
          data,
          status,
          centro_custo_id: centro,
          tipo_solicitacao_id: tipo,
          solicitante_id: edu.id,
          solicitante_nome: 'João Lima',
          justificativa,
          memorando_id: memorandoId,
        });
      await memorando(1, dia(-30), 'aceito', educacao, compras, 'Material de expediente');
      const m2 = await memorando(2, dia(-20), 'aceito', saude, compras, 'Luvas de procedimento');
      const m3 = await memorando(3, dia(-10), 'aceito', saude, compras, 'Máscaras descartáveis');
      await memorando(4, dia(-9), 'enviado', educacao, compras, 'Cadeiras escolares');
      await memorando(5, dia(-3), 'aceito', saude, educacao, 'Cartilhas de saúde bucal');
      await preRequisicao(1, dia(-15), 'enviada', educacao, 'Papel para as escolas.');
      await preRequisicao(2, dia(-40), 'parcialmente_atendida', saude, 'Seringas e agulhas.');
      await preRequisicao(3, dia(-60), 'atendida', educacao, 'Canetas para a secretaria.');
      await preRequisicao(4, dia(-2), 'rascunho', educacao, 'Apagadores para as salas.');
      await preRequisicao(5, dia(-5), 'enviada', saude, 'Luvas de procedimento.', m2);
      await preRequisicao(6, dia(-8), 'cancelada', saude, 'Máscaras descartáveis.', m3); // cancelled: the memorando is pending again
    });

    it('lists the reports to those holding Pré-requisições e requisições, and not to others', async () => {
      const ids = async (u: User) => (await json<{ items: { id: string; group: string }[] }>(await get('', u), 200)).items;
      const doGestor = await ids(gestor);
      expect(doGestor).toContainEqual(expect.objectContaining({ id: 'requisicoes.dispensa-acumulado', group: 'Requisições' }));
      expect(doGestor).toContainEqual(expect.objectContaining({ id: 'requisicoes.memorandos-sem-pre-requisicao', group: 'Pendências' }));
      expect(doGestor).toContainEqual(expect.objectContaining({ id: 'requisicoes.pre-requisicoes-em-aberto', group: 'Pendências' }));
      expect((await ids(leitor)).map((r) => r.id)).toEqual([]);
      const doComprador = (await ids(comprador)).map((r) => r.id);
      expect(doComprador.filter((id) => id.startsWith('requisicoes.'))).toEqual([]);
      for (const id of ['requisicoes.dispensa-acumulado', 'requisicoes.memorandos-sem-pre-requisicao', 'requisicoes.pre-requisicoes-em-aberto']) {
        expect((await get(`/${id}/linhas`, comprador)).status, id).toBe(404);
      }
    });

    it('acumulado de dispensa: the year total per grupo and category against the limit, exact; the entidade for who sees every centro', async () => {
      const r = await linhas('requisicoes.dispensa-acumulado', '?ano=2026');
      expect(r.linhas).toEqual([
        {
          grupo: 'GA – Material de expediente',
          categoria: 'Compras e outros serviços',
          requisicoes: 2,
          total: '850.01',
          limite: '1000.00',
          saldo: '149.99',
          percentual: '85.00',
          situacao: '80 % ou mais do limite',
        },
        {
          grupo: 'GB – Material de construção',
          categoria: 'Compras e outros serviços',
          requisicoes: 1,
          total: '1000.01',
          limite: '1000.00',
          saldo: '-0.01',
          percentual: '100.00',
          situacao: 'Acima do limite',
        },
        {
          grupo: 'GB – Material de construção',
          categoria: 'Obras e serviços de engenharia',
          requisicoes: 1,
          total: '130984.20',
          limite: '130984.20',
          saldo: '0.00',
          percentual: '100.00',
          situacao: '80 % ou mais do limite', // at the limit, not above it
        },
      ]);
      expect(r.totais).toEqual({ requisicoes: '4', total: '132834.22' });
      // the default year is the current one (São Paulo)
      const padrao = await linhas('requisicoes.dispensa-acumulado', '');
      expect(padrao.filtrosUsados).toEqual([{ label: 'Ano', valor: today().slice(0, 4) }]);
      // the legal limit of 2025 (no own row above it), rounded half up to hundredths of a percent
      expect((await linhas('requisicoes.dispensa-acumulado', '?ano=2025')).linhas).toEqual([
        {
          grupo: 'GA – Material de expediente',
          categoria: 'Compras e outros serviços',
          requisicoes: 1,
          total: '100.00',
          limite: '62725.59',
          saldo: '62625.59',
          percentual: '0.16',
          situacao: 'Abaixo de 80 % do limite',
        },
      ]);
      // no limit known for 2024: the cells stay empty
      expect((await linhas('requisicoes.dispensa-acumulado', '?ano=2024')).linhas).toEqual([
        {
          grupo: 'GA – Material de expediente',
          categoria: 'Compras e outros serviços',
          requisicoes: 1,
          total: '10.00',
          limite: null,
          saldo: null,
          percentual: null,
          situacao: 'Sem limite para o ano',
        },
      ]);
      const obras = await linhas('requisicoes.dispensa-acumulado', '?ano=2026&categoria=obras');
      expect(obras.linhas.map((l) => [l.grupo, l.categoria])).toEqual([['GB – Material de construção', 'Obras e serviços de engenharia']]);
      const acima = await linhas('requisicoes.dispensa-acumulado', `?ano=2026&situacao=${encodeURIComponent('Acima do limite')}`);
      expect(acima.linhas.map((l) => [l.grupo, l.total])).toEqual([['GB – Material de construção', '1000.01']]);
      expect(acima.filtrosUsados).toContainEqual({ label: 'Situação', valor: 'Acima do limite' });
    });

    it('acumulado de dispensa: a person of some centros sees only the requisições of their centros', async () => {
      const r = await linhas('requisicoes.dispensa-acumulado', '?ano=2026', edu);
      expect(r.linhas.map((l) => [l.grupo, l.categoria, l.requisicoes, l.total, l.saldo, l.percentual, l.situacao])).toEqual([
        ['GA – Material de expediente', 'Compras e outros serviços', 1, '600.00', '400.00', '60.00', 'Abaixo de 80 % do limite'],
        ['GB – Material de construção', 'Obras e serviços de engenharia', 1, '130984.20', '0.00', '100.00', '80 % ou mais do limite'],
      ]);
      expect(r.totais).toEqual({ requisicoes: '2', total: '131584.20' });
    });

    it("the home page's indicator counts the report's grupos at 80 % or more of this year's limit, in the person's scope", async () => {
      const ano = today().slice(0, 4);
      const indicador = async (u: User) =>
        (await json<{ items: { id: string }[] }>(await t.server.request('/api/indicadores', { token: u.token }), 200)).items.find(
          (i) => i.id === 'requisicoes.dispensa',
        );
      const esperado = (linhas: Record<string, unknown>[]) => {
        if (linhas.length === 0) return undefined;
        const acima = linhas.filter((l) => l.situacao === 'Acima do limite').length;
        const perto = linhas.filter((l) => l.situacao === '80 % ou mais do limite').length;
        const grupos = (n: number) => `${n} ${n === 1 ? 'grupo' : 'grupos'}`;
        const base = { id: 'requisicoes.dispensa', label: 'Grupos perto do limite de dispensa', href: `/reports/requisicoes.dispensa-acumulado?ano=${ano}` };
        if (acima + perto === 0)
          return { ...base, valor: '0', nivel: 'normal', detalhe: `Nenhum dos ${grupos(linhas.length)} com requisições em ${ano} chega a 80 % do limite.` };
        const partes = [perto ? `${grupos(perto)} com 80 % ou mais do limite` : '', acima ? `${grupos(acima)} acima do limite` : ''].filter(Boolean);
        return { ...base, valor: grupos(acima + perto), nivel: acima ? 'critico' : 'atencao', detalhe: `Em ${ano}: ${partes.join(', ')}.` };
      };
      for (const u of [gestor, edu]) expect(await indicador(u)).toEqual(esperado((await linhas('requisicoes.dispensa-acumulado', `?ano=${ano}`, u)).linhas));
      if (ano === '2026') {
        // the fixture's year, by hand: the entidade has one grupo above the limit and two at 80 % or more; Educação one at the limit
        expect(await indicador(gestor)).toMatchObject({
          valor: '3 grupos',
          nivel: 'critico',
          detalhe: 'Em 2026: 2 grupos com 80 % ou mais do limite, 1 grupo acima do limite.',
        });
        expect(await indicador(edu)).toMatchObject({ valor: '1 grupo', nivel: 'atencao', detalhe: 'Em 2026: 1 grupo com 80 % ou mais do limite.' });
      }
      // without Pré-requisições e requisições: not measured
      expect(await indicador(comprador)).toBeUndefined();
    });

    it('memorandos aceitos sem pré-requisição: age in days, oldest first, origin or destination in the person centros', async () => {
      const r = await linhas('requisicoes.memorandos-sem-pre-requisicao', '');
      expect(r.linhas).toEqual([
        {
          documento: `1/${ano(dia(-30))}`,
          data: dia(-30),
          secretaria: 'Secretaria de Educação',
          solicitante: 'Maria Souza',
          objeto: 'Material de expediente',
          situacao: 'Aceito, sem pré-requisição',
          idade: 30,
        },
        expect.objectContaining({ documento: `3/${ano(dia(-10))}`, objeto: 'Máscaras descartáveis', secretaria: 'Secretaria de Saúde', idade: 10 }),
        expect.objectContaining({ documento: `5/${ano(dia(-3))}`, objeto: 'Cartilhas de saúde bucal', idade: 3 }),
      ]);
      // Educação: its own memorando and the one sent to it; not Saúde's to Compras
      expect((await linhas('requisicoes.memorandos-sem-pre-requisicao', '', edu)).linhas.map((l) => l.objeto)).toEqual([
        'Material de expediente',
        'Cartilhas de saúde bucal',
      ]);
      expect((await linhas('requisicoes.memorandos-sem-pre-requisicao', `?centro=${saude}`)).linhas.map((l) => l.objeto)).toEqual([
        'Máscaras descartáveis',
        'Cartilhas de saúde bucal',
      ]);
    });

    it('pré-requisições não convertidas: enviadas and parcialmente atendidas, in the person centros', async () => {
      const r = await linhas('requisicoes.pre-requisicoes-em-aberto', '');
      expect(r.linhas).toEqual([
        {
          documento: `2/${ano(dia(-40))}`,
          data: dia(-40),
          secretaria: 'Secretaria de Saúde',
          solicitante: 'João Lima',
          objeto: 'Seringas e agulhas.',
          situacao: 'Parcialmente atendida',
          idade: 40,
        },
        expect.objectContaining({ documento: `1/${ano(dia(-15))}`, situacao: 'Enviada', idade: 15 }),
        expect.objectContaining({ documento: `5/${ano(dia(-5))}`, situacao: 'Enviada', idade: 5 }),
      ]);
      expect((await linhas('requisicoes.pre-requisicoes-em-aberto', '', edu)).linhas.map((l) => l.objeto)).toEqual(['Papel para as escolas.']);
      expect((await linhas('requisicoes.pre-requisicoes-em-aberto', '?situacao=parcialmente_atendida')).linhas.map((l) => l.objeto)).toEqual([
        'Seringas e agulhas.',
      ]);
    });

    it('answers 400 naming the field for hostile filters, never 5xx', async () => {
      const casos: [string, string, string, User][] = [
        ['requisicoes.dispensa-acumulado', '?ano=1999', 'ano', gestor],
        ['requisicoes.dispensa-acumulado', '?ano=20%2026', 'ano', gestor],
        ['requisicoes.dispensa-acumulado', '?ano=2026&categoria=servicos', 'categoria', gestor],
        ['requisicoes.dispensa-acumulado', "?ano=2026&situacao=' OR 1=1 --", 'situacao', gestor],
        ['requisicoes.dispensa-acumulado', '?ano=2026&ordem=senha', 'ordem', gestor],
        ['requisicoes.memorandos-sem-pre-requisicao', `?centro=${saude}`, 'centro', edu],
        ['requisicoes.memorandos-sem-pre-requisicao', '?centro=00000000-0000-0000-0000-000000000000', 'centro', gestor],
        ['requisicoes.pre-requisicoes-em-aberto', '?situacao=atendida', 'situacao', gestor],
        ['requisicoes.pre-requisicoes-em-aberto', '?direcao=up', 'direcao', gestor],
      ];
      for (const [id, query, campo, u] of casos) {
        const body = await json<ErrorBody>(await get(`/${id}/linhas${query}`, u), 400).catch((e: Error) => {
          throw new Error(`${id}${query}: ${e.message}`);
        });
        expect(Object.keys(body.error.fields ?? {}), `${id}${query}`).toContain(campo);
      }
    });

    it('prints the acumulado de dispensa as PDF and XLSX', async () => {
      const pdf = await get('/requisicoes.dispensa-acumulado/pdf?ano=2026', gestor);
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(new TextDecoder().decode((await pdf.arrayBuffer()).slice(0, 5))).toBe('%PDF-');
      const xlsx = await get('/requisicoes.pre-requisicoes-em-aberto/xlsx', edu);
      expect(xlsx.status).toBe(200);
      expect(xlsx.headers.get('content-disposition')).toContain('attachment; filename="pre-requisicoes-nao-convertidas-em-requisicoes.xlsx"');
    });
  },
);
