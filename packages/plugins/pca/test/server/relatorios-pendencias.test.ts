// The PCA by requesting unit and the calendar of contratações at /reports (the kit's RELATORIOS), and the
// accepted DFDs waiting to be consolidated on GET /api/pendencias (the kit's PENDENCIAS), on both engines.
// The fixture, computed by hand (Y is next year):
//   plan A (setor 01 – Compras e Licitações): DFD a (02 – Educação, desired Y-03-10): caneta 10 × 2 = 20, limpeza 3 × 0,3333 = 0,9999;
//     DFD b (03 – Saúde, desired Y-02-01): caneta 5 × 2,5 = 12,5, clips 4 × 1,25 = 5; a line added by hand (the setor, Y-05-15):
//     clips 2 × 1,25 = 2,5. Items: 1 caneta 32,5 (Y-02-01), 2 clips 7,5 (Y-02-01), 3 limpeza 0,9999 (Y-03-10); total 40,9999;
//     contratação 1 'Material de expediente' holds items 1 and 2.
//   plan B (setor 05 – Almoxarifado central): DFD c (05, desired Y-04-20): caneta 1 × 3 = 3.
//   By unit: 01 → 1 item, 1 contratação, 2,5; 02 → 2 items, 1, 20,9999; 03 → 2 items, 1, 17,5; 05 → 1 item, 0, 3.
//   plan C (Compras) consolidates DFD g (03, caneta 100 × 1) and is cancelled: out of the reports, g released.
//   Pending: DFDs d (02, year Y) and g accepted and in no plan; e (year before this one) and f (only sent) are not.
import { today } from '@app/br';
import relatoriosPlugin from '@app/relatorios/server';
import { parseSpreadsheet } from '@app/server-core';
import { type ErrorBody, describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import { type Linha, type User, MEMORANDOS_TAG, areasEPessoas, json, pcaApi, pcaPlugins } from './harness.js';
import { PCA_APROVAR_TAG, PCA_TAG } from '../../src/shared/index.js';

type Plano = { id: string; numero: number; ano: number; version: number; codigoUnidade: string; itens: { numeroItem: number; descricao: string }[] };
type Resultado = { linhas: Record<string, unknown>[]; totais: Record<string, string> };
type Pendencias = { items: { id: string; label: string; href: string; total: number; dias?: number }[] };

const RELATORIOS_TAG = 105;
const ESTE_ANO = Number(today().slice(0, 4));
const Y = ESTE_ANO + 1;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

describeEachDatabase('@app/pca: por unidade requisitante, calendário and DFDs a consolidar', { plugins: pcaPlugins(relatoriosPlugin) }, (t) => {
  let compras: string;
  let almox: string;
  let educacao: string;
  let saude: string;
  let edu: User;
  let sau: User;
  let aceitante: User;
  let setor: User;
  let setor2: User;
  let autoridade: User;
  let semPca: User;
  let planoA: Plano;
  let planoB: Plano;
  let d: string;
  let g: string;

  const { pca, dfd: novoDfd } = pcaApi(t);
  const relatorio = (id: string, u: User, path: string) => t.server.request(`/api/relatorios/${id}${path}`, { token: u.token });
  const linhas = (id: string, u: User, query: string) => relatorio(id, u, `/linhas${query}`).then((r) => json<Resultado>(r, 200));
  const pendencia = async (u: User) =>
    (await json<Pendencias>(await t.server.request('/api/pendencias', { token: u.token }), 200)).items.find((i) => i.id === 'pca.a-consolidar');

  /** A DFD of `origemId` to Compras for the PCA of `anoPca`: sent, and accepted unless `aceitar` is false. */
  const dfd = (autor: User, origemId: string, linhas: Linha[], opts: { anoPca?: number; dataDesejada?: string; aceitar?: boolean } = {}) =>
    novoDfd({
      autor,
      origemId,
      destinoId: compras,
      aceitante: opts.aceitar === false ? null : aceitante,
      linhas,
      anoPca: opts.anoPca ?? Y,
      dataDesejada: opts.dataDesejada,
    });
  const plano = async (u: User, centroCustoId: string, codigoUnidade: string, memorandoIds: string[]) => {
    const novo = await json<Plano>(await pca('', u, { json: { anoPca: Y, codigoUnidade, centroCustoId } }), 201);
    await json(await pca(`/${novo.id}`, u, { method: 'PUT', json: { version: novo.version, anoPca: Y, codigoUnidade, centroCustoId, memorandoIds } }), 200);
    return json<Plano>(await pca(`/${novo.id}`, u), 200);
  };

  beforeAll(async () => {
    const { prefeitura: entidade_id } = await t.server.demoEntidades();
    const ins = (table: string, values: Record<string, unknown>) => t.server.insert(table, { entidade_id, ...values });
    const expediente = await ins('registros_grupos', { codigo: '7510', nome: 'Artigos de expediente' });
    const servicos = await ins('registros_grupos', { codigo: 'S01', nome: 'Serviços de limpeza' });
    const un = await ins('registros_unidades', { sigla: 'UN', descricao: 'Unidade' });
    const produto = (codigo: string, descricao: string, extra: Record<string, unknown> = {}) =>
      ins('produtos', { codigo, descricao, tipo: 'material', grupo_id: expediente, unidade_id: un, ...extra });
    const caneta = await produto('000003', 'Caneta esferográfica azul');
    const clips = await produto('000004', 'Clipes 2/0');
    const limpeza = await produto('000005', 'Limpeza predial', { tipo: 'servico', grupo_id: servicos });
    ({ educacao, saude, compras, edu, sau, aceitante, setor } = await areasEPessoas(t.server, entidade_id, [PCA_TAG, MEMORANDOS_TAG, RELATORIOS_TAG]));
    almox = await ins('registros_centros_custo', { codigo: '05', nome: 'Almoxarifado central' });
    setor2 = await t.server.createUser({ login: 'setor2', tags: [PCA_TAG, MEMORANDOS_TAG, RELATORIOS_TAG], centros: [almox] });
    autoridade = await t.server.createUser({ login: 'prefeito', tags: [PCA_TAG, PCA_APROVAR_TAG, RELATORIOS_TAG] });
    semPca = await t.server.createUser({ login: 'sempca', tags: [MEMORANDOS_TAG, RELATORIOS_TAG], centros: [compras] });

    const a = await dfd(
      edu,
      educacao,
      [
        [caneta, '10', '2'],
        [limpeza, '3', '0,3333'],
      ],
      { dataDesejada: `${Y}-03-10` },
    );
    const b = await dfd(
      sau,
      saude,
      [
        [caneta, '5', '2,5'],
        [clips, '4', '1,25'],
      ],
      { dataDesejada: `${Y}-02-01` },
    );
    const c = await dfd(setor2, almox, [[caneta, '1', '3']], { dataDesejada: `${Y}-04-20` });
    d = await dfd(edu, educacao, [[clips, '1', '1']], { dataDesejada: `${Y}-06-01` });
    const e = await dfd(edu, educacao, [[clips, '1', '1']], { anoPca: ESTE_ANO - 1 });
    await dfd(sau, saude, [[clips, '1', '1']], { aceitar: false });
    g = await dfd(sau, saude, [[caneta, '100', '1']], { dataDesejada: `${Y}-01-15` });
    // before any plan: a, b, c, d and g wait for the setor that accepted them (Compras); e is of a past year
    expect(await pendencia(setor)).toMatchObject({ total: 5 });
    await t.server.sql("UPDATE memorandos SET updated_at = now() - interval '10 days' WHERE id = $1", [e]);

    planoA = await plano(setor, compras, 'UA', [a, b]);
    await json(
      await pca(`/${planoA.id}/itens-manuais`, setor, {
        json: {
          produtoId: clips,
          categoriaItemPca: 1,
          quantidade: '2',
          valorUnitario: '1,25',
          dataDesejada: `15/05/${Y}`,
          justificativa: 'Reserva do almoxarifado central.',
        },
      }),
      201,
    );
    planoA = await json<Plano>(await pca(`/${planoA.id}`, setor), 200);
    expect(planoA.itens.map((i) => [i.numeroItem, i.descricao])).toEqual([
      [1, 'Caneta esferográfica azul'],
      [2, 'Clipes 2/0'],
      [3, 'Limpeza predial'],
    ]);
    await json(
      await pca(`/${planoA.id}/contratacoes`, setor, {
        json: { titulo: 'Material de expediente', categoriaItemPca: 1, prioridade: 'alta', inicio: `04/01/${Y}`, fim: `${Y}-01-29`, numerosItem: [1, 2] },
      }),
      201,
    );
    planoB = await plano(setor2, almox, 'UB', [c]);
    const planoC = await plano(setor, compras, 'UC', [g]);
    expect(await pendencia(setor)).toMatchObject({ total: 1 });
    await json(await pca(`/${planoC.id}/cancelar`, setor, { json: { version: planoC.version, motivo: 'Plano aberto por engano.' } }), 200);
  });

  it('PCA por unidade requisitante: each DFD line by its origin (a line added by hand: the setor), exact, the setor its own plans only', async () => {
    const todas = await linhas('pca.por-unidade', autoridade, `?ano=${Y}`);
    expect(todas.linhas).toEqual([
      { unidade: '01 – Compras e Licitações', itens: 1, contratacoes: 1, valor: '2.5000' },
      { unidade: '02 – Secretaria de Educação', itens: 2, contratacoes: 1, valor: '20.9999' },
      { unidade: '03 – Secretaria de Saúde', itens: 2, contratacoes: 1, valor: '17.5000' },
      { unidade: '05 – Almoxarifado central', itens: 1, contratacoes: 0, valor: '3.0000' },
    ]);
    expect(todas.totais).toEqual({ valor: '43.9999' });
    // the setor of Compras: its plan only (40,9999, its total); the Almoxarifado: its own
    const doSetor = await linhas('pca.por-unidade', setor, `?ano=${Y}`);
    expect(doSetor.linhas.map((l) => l.unidade)).toEqual(['01 – Compras e Licitações', '02 – Secretaria de Educação', '03 – Secretaria de Saúde']);
    expect(doSetor.totais).toEqual({ valor: '40.9999' });
    expect((await linhas('pca.por-unidade', setor2, `?ano=${Y}`)).linhas).toEqual([
      { unidade: '05 – Almoxarifado central', itens: 1, contratacoes: 0, valor: '3.0000' },
    ]);
    // another year, another situação: nothing
    expect((await linhas('pca.por-unidade', autoridade, `?ano=${Y + 1}`)).linhas).toEqual([]);
    expect((await linhas('pca.por-unidade', autoridade, `?ano=${Y}&situacao=aprovado`)).linhas).toEqual([]);
    expect((await linhas('pca.por-unidade', autoridade, `?ano=${Y}&situacao=em_elaboracao`)).totais).toEqual({ valor: '43.9999' });
    // the year defaults to the next one, as the report by category
    expect((await linhas('pca.por-unidade', autoridade, '')).totais).toEqual({ valor: '43.9999' });
    expect(JSON.stringify(todas.linhas)).not.toMatch(UUID);
  });

  it('Calendário de contratações: the items by desired date, the contratação with its dates, a month filter; the setor its own plans only', async () => {
    const numeroA = `${planoA.numero}/${planoA.ano}`;
    const doSetor = await linhas('pca.calendario', setor, `?ano=${Y}`);
    expect(doSetor.linhas).toEqual([
      {
        dataDesejada: `${Y}-02-01`,
        plano: numeroA,
        item: 1,
        categoria: 'Material',
        objeto: 'Caneta esferográfica azul',
        unidade: 'Secretaria de Educação; Secretaria de Saúde',
        contratacao: '1 – Material de expediente',
        inicio: `${Y}-01-04`,
        conclusao: `${Y}-01-29`,
        valor: '32.5000',
      },
      {
        dataDesejada: `${Y}-02-01`,
        plano: numeroA,
        item: 2,
        categoria: 'Material',
        objeto: 'Clipes 2/0',
        unidade: 'Compras e Licitações; Secretaria de Saúde',
        contratacao: '1 – Material de expediente',
        inicio: `${Y}-01-04`,
        conclusao: `${Y}-01-29`,
        valor: '7.5000',
      },
      {
        dataDesejada: `${Y}-03-10`,
        plano: numeroA,
        item: 3,
        categoria: 'Serviço',
        objeto: 'Limpeza predial',
        unidade: 'Secretaria de Educação',
        contratacao: '',
        inicio: null,
        conclusao: null,
        valor: '0.9999',
      },
    ]);
    expect(doSetor.totais).toEqual({ valor: '40.9999' });
    const todas = await linhas('pca.calendario', autoridade, `?ano=${Y}`);
    expect(todas.linhas.map((l) => [l.dataDesejada, l.plano, l.item])).toEqual([
      [`${Y}-02-01`, numeroA, 1],
      [`${Y}-02-01`, numeroA, 2],
      [`${Y}-03-10`, numeroA, 3],
      [`${Y}-04-20`, `${planoB.numero}/${planoB.ano}`, 1],
    ]);
    expect(todas.totais).toEqual({ valor: '43.9999' });
    expect((await linhas('pca.calendario', setor2, `?ano=${Y}`)).linhas.map((l) => l.unidade)).toEqual(['Almoxarifado central']);
    const marco = await linhas('pca.calendario', autoridade, `?ano=${Y}&mes=3`);
    expect(marco.linhas.map((l) => l.objeto)).toEqual(['Limpeza predial']);
    expect(marco.totais).toEqual({ valor: '0.9999' });
    expect((await linhas('pca.calendario', autoridade, `?ano=${Y}&mes=12`)).linhas).toEqual([]);
    // sorted by another column on request
    const porValor = await linhas('pca.calendario', setor, `?ano=${Y}&ordem=valor&direcao=desc`);
    expect(porValor.linhas.map((l) => l.item)).toEqual([1, 2, 3]);
    expect(JSON.stringify(todas.linhas)).not.toMatch(UUID);
  });

  it('without the PCA tag: the reports are not listed and answer 404 (rows, PDF, XLSX)', async () => {
    const catalogo = await json<{ items: { id: string }[] }>(await t.server.request('/api/relatorios', { token: semPca.token }), 200);
    expect(catalogo.items.map((r) => r.id).filter((id) => id.startsWith('pca.'))).toEqual([]);
    const doSetor = await json<{ items: { id: string; group: string }[] }>(await t.server.request('/api/relatorios', { token: setor.token }), 200);
    expect(doSetor.items.filter((r) => r.id.startsWith('pca.')).map((r) => r.id)).toEqual(
      expect.arrayContaining(['pca.por-categoria', 'pca.por-unidade', 'pca.calendario']),
    );
    for (const id of ['pca.por-unidade', 'pca.calendario']) {
      for (const path of ['', `/linhas?ano=${Y}`, `/xlsx?ano=${Y}`, `/pdf?ano=${Y}`]) {
        expect((await relatorio(id, semPca, path)).status, `${id}${path}`).toBe(404);
      }
    }
  });

  it('hostile filters: 400 naming the filter in pt-BR, never 5xx', async () => {
    const casos: [string, string, string][] = [
      ['pca.por-unidade', 'ano=abc', 'ano'],
      ['pca.por-unidade', 'ano=1999', 'ano'],
      ['pca.por-unidade', `ano=${Y}&situacao=cancelado`, 'situacao'],
      ['pca.por-unidade', `ano=${Y}&situacao='%20OR%201=1--`, 'situacao'],
      ['pca.calendario', `ano=${Y}&mes=13`, 'mes'],
      ['pca.calendario', `ano=${Y}&mes=0`, 'mes'],
      ['pca.calendario', `ano=${Y}&mes=03`, 'mes'],
      ['pca.calendario', `ano=${Y}&mes=1;DROP%20TABLE%20pca_itens`, 'mes'],
      ['pca.calendario', `ano=${Y}&ordem=valor;DROP`, 'ordem'],
    ];
    for (const [id, query, campo] of casos) {
      const body = await json<ErrorBody>(await relatorio(id, setor, `/linhas?${query}`), 400).catch((e: Error) => {
        throw new Error(`${id}?${query}: ${e.message}`);
      });
      expect(body.error.fields?.[campo], query).toMatch(/[a-zà-ú]/);
    }
    const hostis = ['\u0000', '__proto__', 'toString', ' ', '1e400', 'NaN', '-1', "'; DROP TABLE pca_planos; --", '9999', 'x'.repeat(5000)];
    for (const id of ['pca.por-unidade', 'pca.calendario']) {
      for (const campo of ['ano', 'situacao', 'mes', 'ordem', 'direcao']) {
        for (const valor of hostis) {
          const query = new URLSearchParams({ ano: String(Y), [campo]: valor });
          expect((await relatorio(id, setor, `/linhas?${query}`)).status, `${id} ${campo}=${valor.slice(0, 20)}`).toBeLessThan(500);
        }
      }
    }
  });

  it('downloads the XLSX (the rows and the total read back) and the PDF', async () => {
    const xlsx = await relatorio('pca.por-unidade', setor, `/xlsx?ano=${Y}`);
    expect(xlsx.status).toBe(200);
    const planilha = await parseSpreadsheet(new Uint8Array(await xlsx.arrayBuffer()), { filename: 'r.xlsx' }, undefined, {
      headerFirstCell: 'Unidade requisitante',
    });
    expect(planilha.headers).toEqual(['Unidade requisitante', 'Itens', 'Contratações planejadas', 'Valor estimado']);
    expect(planilha.rows.map((row) => Object.values(row.cells))).toEqual([
      ['01 – Compras e Licitações', '1', '1', '2.5'],
      ['02 – Secretaria de Educação', '2', '1', '20.9999'],
      ['03 – Secretaria de Saúde', '2', '1', '17.5'],
      ['Total', '', '', '40.9999'],
    ]);
    const calendario = await relatorio('pca.calendario', setor, `/xlsx?ano=${Y}&mes=3`);
    expect(calendario.status).toBe(200);
    const cal = await parseSpreadsheet(new Uint8Array(await calendario.arrayBuffer()), { filename: 'c.xlsx' }, undefined, {
      headerFirstCell: 'Data desejada',
    });
    expect(cal.headers[0]).toBe('Data desejada');
    expect(cal.rows.map((row) => Object.values(row.cells)[4])).toEqual(['Limpeza predial', '']);
    const pdf = await relatorio('pca.calendario', setor, `/pdf?ano=${Y}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
  });

  it('pendências: the accepted DFDs of this year or later in no plan, for the setor that accepted them, with the oldest one’s age; none without the tag', async () => {
    await t.server.sql("UPDATE memorandos SET updated_at = now() - interval '5 days' WHERE id = $1", [d]);
    await t.server.sql("UPDATE memorandos SET updated_at = now() - interval '2 days' WHERE id = $1", [g]);
    // d, and g released by the cancelled plan; the oldest waits 5 days
    expect(await pendencia(setor)).toEqual({
      id: 'pca.a-consolidar',
      label: 'Demandas (DFD) aceitas a consolidar no Plano de Contratações Anual',
      href: '/elabora-pca?status=em_elaboracao,devolvido,em_revisao',
      total: 2,
      dias: 5,
    });
    // another setor (the DFD went to Compras): listed, nothing to do, no age
    expect(await pendencia(setor2)).toEqual({
      id: 'pca.a-consolidar',
      label: 'Demandas (DFD) aceitas a consolidar no Plano de Contratações Anual',
      href: '/elabora-pca?status=em_elaboracao,devolvido,em_revisao',
      total: 0,
    });
    expect(await pendencia(semPca)).toBeUndefined();
    expect(await pendencia(aceitante)).toBeUndefined();
    // consolidated into plan A: nothing left
    const lido = await json<Plano & { memorandos: { id: string }[] }>(await pca(`/${planoA.id}`, setor), 200);
    await json(
      await pca(`/${planoA.id}`, setor, {
        method: 'PUT',
        json: { version: lido.version, anoPca: Y, codigoUnidade: 'UA', centroCustoId: compras, memorandoIds: [...lido.memorandos.map((m) => m.id), d, g] },
      }),
      200,
    );
    expect(await pendencia(setor)).toMatchObject({ total: 0 });
    expect((await pendencia(setor))?.dias).toBeUndefined();
  });
});
