// The suggested quantity of a product for the plan's year (GET /api/pca/planos/:id/sugestao) on a real
// database (PGlite; PostgreSQL too with TEST_DATABASE_URL), today fixed at 15/03/2026 (America/Sao_Paulo):
// the last 12 whole months are março/2025 to fevereiro/2026. A hand-computed fixture of approved requisições
// of Compras (the setor's centro) and one of Educação, read in the person's centros:
//   approved 28/02/2025 23:30 (SP; 01/03 in UTC)   100    → February: out of the 12 months; 2025
//   approved 10/03/2025                             3,3   → in; 2025
//   aprovada without approvals, data 15/07/2025     4,5   → in (aprovada_em: the date); 2025 (+ 99 of another product)
//   em aprovação, data 20/11/2025                   1     → not approved: never counted
//   approved 28/02/2026 23:30 (SP; 01/03 in UTC)    2,5   → in (the last month); 2026
//   approved 10/03/2026                             7     → the current month: out; 2026
//   approved 31/12/2024 23:30 (SP; 2025 in UTC)     8     → 2024
//   approved 05/05/2024                             6     → 2024
//   approved 01/06/2023                             9     → 2023: year-4, not shown
//   reprovada 01/08/2025 50: never counted
//   Educação, approved 01/09/2025                   30    → only for who sees Educação
// The setor (Compras): 12 months 3,3 + 4,5 + 2,5 = 10,3; média 10,3 ÷ 12 = 0,858333… → 0,8583; × 12 × 1 = 10,3 → 11
// (a whole RESMA: the catalogue has no multiple); × 1,10 = 11,33 → 12; × 0,5 = 5,15 → 6. Years 2026: 9,5;
// 2025: 107,8; 2024: 14. Who sees every centro: 12 months 40,3 → 41, média 3,3583, 2025: 137,8.
import { type ErrorBody, describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it, vi } from 'vitest';
import { type User, json, pcaPlugins } from './harness.js';
import { PCA_APROVAR_TAG, PCA_TAG, type SugestaoQuantidade } from '../../src/shared/index.js';

vi.mock('@app/br', async (original) => ({ ...(await original<typeof import('@app/br')>()), today: () => '2026-03-15' }));

describeEachDatabase('@app/pca: suggested quantity for the plan year', { plugins: pcaPlugins() }, (t) => {
  let compras: string;
  let papel: string;
  let caneta: string;
  let produtoCamara: string;
  let planoId: string;
  let setor: User;
  let autoridade: User;
  let gestor: User;
  let alheio: User;
  let semTag: User;
  let camara: User;

  const sugestao = (u: User, query: string, id = planoId) => t.server.request(`/api/pca/planos/${id}/sugestao?${query}`, { token: u.token });

  beforeAll(async () => {
    const { prefeitura: entidade_id, camara: camaraId } = await t.server.demoEntidades();
    const ins = (table: string, values: Record<string, unknown>, entidade = entidade_id) => t.server.insert(table, { entidade_id: entidade, ...values });
    const grupo = await ins('registros_grupos', { codigo: '7510', nome: 'Artigos de expediente' });
    const resma = await ins('registros_unidades', { sigla: 'RESMA', descricao: 'Resma' });
    const un = await ins('registros_unidades', { sigla: 'UN', descricao: 'Unidade' });
    const produto = (codigo: string, descricao: string, unidade: string) =>
      ins('produtos', { codigo, descricao, tipo: 'material', grupo_id: grupo, unidade_id: unidade });
    papel = await produto('000001', 'Papel sulfite A4', resma);
    caneta = await produto('000002', 'Caneta esferográfica azul', un);
    const clips = await produto('000003', 'Clipes 2/0', un);
    // another entidade's product
    const grupoCamara = await ins('registros_grupos', { codigo: '7510', nome: 'Expediente' }, camaraId);
    const unCamara = await ins('registros_unidades', { sigla: 'UN', descricao: 'Unidade' }, camaraId);
    produtoCamara = await ins('produtos', { codigo: '000001', descricao: 'Papel', tipo: 'material', grupo_id: grupoCamara, unidade_id: unCamara }, camaraId);

    compras = await ins('registros_centros_custo', { codigo: '01', nome: 'Compras e Licitações' });
    const educacao = await ins('registros_centros_custo', { codigo: '02', nome: 'Secretaria de Educação' });
    const saude = await ins('registros_centros_custo', { codigo: '03', nome: 'Secretaria de Saúde' });
    setor = await t.server.createUser({ login: 'setor', tags: [PCA_TAG], centros: [compras] });
    autoridade = await t.server.createUser({ login: 'prefeito', tags: [PCA_TAG, PCA_APROVAR_TAG] });
    alheio = await t.server.createUser({ login: 'alheio', tags: [PCA_TAG], centros: [saude] });
    gestor = await t.server.createUser({ login: 'gestor', tags: [PCA_TAG], todosCentros: true });
    semTag = await t.server.createUser({ login: 'semtag', tags: [], centros: [compras] });
    camara = await t.server.createUser({ login: 'camara', tags: [PCA_TAG, PCA_APROVAR_TAG], todosCentros: true, entidadeId: camaraId });

    const tipo = await ins('registros_tipos_solicitacao', { nome: 'Material de consumo' });
    let numero = 0;
    /**
     * A requisição of `centro` with lines [produto, quantidade], approved at `aprovadaEm` (none: no approval row).
     * An approved one holds `aprovada_em` as @app/requisicoes keeps it: the last approval of its round, else
     * (approved with no approval in its round, filled by its migration 0005) its date at 00:00 in São Paulo.
     */
    const requisicao = async (o: { status: string; data: string; aprovadaEm?: string; centro?: string; linhas: [string, string][] }) => {
      numero += 1;
      const id = await ins('requisicoes', {
        numero,
        ano: Number(o.data.slice(0, 4)),
        data: o.data,
        status: o.status,
        aprovada_em: o.status === 'aprovada' ? (o.aprovadaEm ?? `${o.data}T00:00:00-03:00`) : null,
        centro_custo_id: o.centro ?? compras,
        tipo_solicitacao_id: tipo,
        categoria: 'compras',
        justificativa: 'Consumo do setor no período.',
        solicitante_id: setor.id,
        solicitante_nome: 'Setor',
        ciclo: 1,
      });
      for (const [i, [produtoId, quantidade]] of o.linhas.entries()) {
        await ins('requisicao_itens', { requisicao_id: id, ordem: i + 1, produto_id: produtoId, quantidade, valor_unitario: '1', valor_total: quantidade });
      }
      if (o.aprovadaEm) {
        // an approval of an earlier round, long before: never the moment that counts
        await ins('requisicao_aprovacoes', {
          requisicao_id: id,
          ciclo: 0,
          nivel: 1,
          usuario_id: autoridade.id,
          usuario_nome: 'Prefeito',
          created_at: '2020-01-01T12:00:00Z',
        });
        await ins('requisicao_aprovacoes', {
          requisicao_id: id,
          ciclo: 1,
          nivel: 1,
          usuario_id: setor.id,
          usuario_nome: 'Chefia',
          created_at: '2020-01-02T12:00:00Z',
        });
        await ins('requisicao_aprovacoes', {
          requisicao_id: id,
          ciclo: 1,
          nivel: 2,
          usuario_id: autoridade.id,
          usuario_nome: 'Prefeito',
          created_at: o.aprovadaEm,
        });
      }
      return id;
    };
    const aprovada = (data: string, aprovadaEm: string, quantidade: string) =>
      requisicao({ status: 'aprovada', data, aprovadaEm, linhas: [[papel, quantidade]] });
    await aprovada('2025-02-27', '2025-02-28T23:30:00-03:00', '100');
    await aprovada('2025-03-05', '2025-03-10T10:00:00-03:00', '3.3');
    await requisicao({
      status: 'aprovada',
      data: '2025-07-15',
      linhas: [
        [clips, '99'],
        [papel, '4.5'],
      ],
    });
    await requisicao({ status: 'em_aprovacao', data: '2025-11-20', linhas: [[papel, '1']] });
    await aprovada('2026-02-20', '2026-02-28T23:30:00-03:00', '2.5');
    await aprovada('2026-03-02', '2026-03-10T09:00:00-03:00', '7');
    await aprovada('2024-12-20', '2024-12-31T23:30:00-03:00', '8');
    await aprovada('2024-05-02', '2024-05-05T09:00:00-03:00', '6');
    await aprovada('2023-05-30', '2023-06-01T09:00:00-03:00', '9');
    await requisicao({ status: 'reprovada', data: '2025-08-01', aprovadaEm: '2025-08-01T09:00:00-03:00', linhas: [[papel, '50']] });
    await requisicao({ status: 'aprovada', data: '2025-09-01', aprovadaEm: '2025-09-01T09:00:00-03:00', centro: educacao, linhas: [[papel, '30']] });

    const plano = await json<{ id: string }>(
      await t.server.request('/api/pca/planos', { token: setor.token, json: { anoPca: 2027, codigoUnidade: '926001', centroCustoId: compras } }),
      201,
    );
    planoId = plano.id;
  });

  it('média of the last 12 whole months (São Paulo) × 12, rounded up to a whole unit, with the 3 previous years', async () => {
    const s = await json<SugestaoQuantidade>(await sugestao(setor, `produtoId=${papel}`), 200);
    expect(s).toEqual({
      anoPca: 2027,
      unidade: { sigla: 'RESMA', descricao: 'Resma' },
      periodo: { de: '2025-03', ate: '2026-02' },
      totalDozeMeses: '10.3',
      mediaMensal: '0.8583',
      fator: '1',
      multiplo: '1',
      quantidade: '11',
      anos: [
        { ano: 2026, quantidade: '9.5' },
        { ano: 2025, quantidade: '107.8' },
        { ano: 2024, quantidade: '14' },
      ],
      semConsumo: false,
    });
  });

  it('the factor (pt-BR or canonical) multiplies the exact 12 months before rounding up', async () => {
    const mais10 = await json<SugestaoQuantidade>(await sugestao(setor, `produtoId=${papel}&fator=${encodeURIComponent('1,10')}`), 200);
    expect([mais10.fator, mais10.quantidade]).toEqual(['1.1', '12']);
    const metade = await json<SugestaoQuantidade>(await sugestao(setor, `produtoId=${papel}&fator=0.5`), 200);
    expect([metade.fator, metade.quantidade, metade.totalDozeMeses]).toEqual(['0.5', '6', '10.3']);
    // 10,3 × 2 = 20,6 → 21 (an exact multiple stays: × 10 = 103)
    expect((await json<SugestaoQuantidade>(await sugestao(setor, `produtoId=${papel}&fator=2`), 200)).quantidade).toBe('21');
    expect((await json<SugestaoQuantidade>(await sugestao(setor, `produtoId=${papel}&fator=10`), 200)).quantidade).toBe('103');
  });

  it('a product without history: zeros and semConsumo', async () => {
    const s = await json<SugestaoQuantidade>(await sugestao(setor, `produtoId=${caneta}&fator=1.1`), 200);
    expect(s).toMatchObject({
      unidade: { sigla: 'UN' },
      totalDozeMeses: '0',
      mediaMensal: '0',
      quantidade: '0',
      anos: [
        { ano: 2026, quantidade: '0' },
        { ano: 2025, quantidade: '0' },
        { ano: 2024, quantidade: '0' },
      ],
      semConsumo: true,
    });
  });

  it("the person's centros: who sees every centro counts Educação too; another setor, another entidade → 404; no tag → 403", async () => {
    const todos = await json<SugestaoQuantidade>(await sugestao(gestor, `produtoId=${papel}`), 200);
    expect(todos).toMatchObject({ totalDozeMeses: '40.3', mediaMensal: '3.3583', quantidade: '41' });
    expect(todos.anos).toEqual([
      { ano: 2026, quantidade: '9.5' },
      { ano: 2025, quantidade: '137.8' },
      { ano: 2024, quantidade: '14' },
    ]);
    expect((await json<ErrorBody>(await sugestao(alheio, `produtoId=${papel}`), 404)).error.message).toBe('Não encontrado.');
    expect((await sugestao(camara, `produtoId=${papel}`)).status).toBe(404);
    expect((await sugestao(semTag, `produtoId=${papel}`)).status).toBe(403);
    expect((await sugestao(setor, `produtoId=${papel}`, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    // another entidade's product, an unknown one
    expect((await json<ErrorBody>(await sugestao(setor, `produtoId=${produtoCamara}`), 404)).error.message).toBe('Produto ou serviço não encontrado.');
    expect((await sugestao(setor, 'produtoId=00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('is in the OpenAPI document under tag 101, with its query; no other GET path of the plan is ambiguous with it', async () => {
    type Op = { 'x-permission-tag'?: number; parameters?: { name: string; in: string }[] };
    const doc = (await (await t.server.request('/api/openapi.json')).json()) as { paths: Record<string, { get?: Op }> };
    const op = doc.paths['/api/pca/planos/{id}/sugestao']?.get;
    expect(op?.['x-permission-tag']).toBe(PCA_TAG);
    expect(op?.parameters?.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(['produtoId', 'fator']);
    expect(Object.keys(doc.paths).filter((p) => /^\/api\/pca\/planos\/\{[^}]+\}\/\{[^}]+\}$/.test(p) && doc.paths[p]?.get)).toEqual([]);
  });

  it('hostile input → 400 with the field', async () => {
    const campo = async (query: string) => (await json<ErrorBody>(await sugestao(setor, query), 400)).error.fields;
    expect(await campo('')).toHaveProperty('produtoId');
    expect(await campo('produtoId=abc')).toHaveProperty('produtoId');
    expect(await campo(`produtoId=${encodeURIComponent("' OR 1=1 --")}`)).toHaveProperty('produtoId');
    for (const fator of ['abc', '0', '-1', '1e3', 'NaN', 'Infinity', '10.0001', '11', '1,12345', '1; DROP TABLE requisicoes', '']) {
      expect(await campo(`produtoId=${papel}&fator=${encodeURIComponent(fator)}`), fator).toHaveProperty('fator');
    }
  });
});
