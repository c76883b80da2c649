// The plan on a real database (PGlite; PostgreSQL too with TEST_DATABASE_URL): one per entidade, year and
// PNCP unit; the DFDs consolidated through the kit's many → one link (same key → one item, another unit of
// supply → two, exact sums, 4-decimal unit values); a DFD locked while in a plan and freed when excluded;
// 50 concurrent consolidations of one DFD; row scope and tags; approval never by who consolidated.
import { today } from '@app/br';
import { parseSpreadsheet } from '@app/server-core';
import { type ErrorBody, describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import { type Linha, type User, MEMORANDOS_TAG, areasEPessoas, json, pcaApi, pcaPlugins } from './harness.js';
import relatoriosPlugin from '@app/relatorios/server';
import { CATEGORIA_ITEM_PCA, PCA_APROVAR_TAG, PCA_TAG } from '../../src/shared/index.js';

type Plano = {
  id: string;
  codigoUnidade: string;
  numero: number;
  ano: number;
  status: string;
  version: number;
  valorTotal: string;
  transicoes: string[];
  itens: Item[];
  memorandos: { id: string }[];
  loa?: { dataPublicacao: string; lei: string | null } | null;
};
type Item = {
  numeroItem: number;
  descricao: string;
  categoriaItemPca: number;
  catalogo: number;
  codigoItem: string;
  unidadeFornecimento: string;
  quantidade: string;
  valorUnitario: string;
  valorTotal: string;
  dataDesejada: string | null;
  unidadeRequisitante: string;
  pendencias: string[];
  dfds: number;
};

describeEachDatabase('@app/pca: plan and consolidation', { plugins: pcaPlugins(relatoriosPlugin) }, (t) => {
  let educacao: string;
  let saude: string;
  let compras: string;
  let p: Record<'papel' | 'papelCaixa' | 'caneta' | 'limpeza' | 'clips', string>;
  let edu: User;
  let sau: User;
  let aceitante: User;
  let setor: User;
  let setorAutoridade: User;
  let autoridade: User;
  let alheio: User;
  let semTag: User;
  let admin: User;
  let unidade = 0;
  let entidadeId: string;

  const { pca, mem, dfd: novoDfd } = pcaApi(t);
  /** An accepted DFD of `origem` for the PCA of `anoPca`. */
  const dfd = (autor: User, origemId: string, linhas: Linha[], opts: { anoPca?: number; dataDesejada?: string } = {}) =>
    novoDfd({ autor, origemId, destinoId: compras, aceitante, linhas, anoPca: opts.anoPca ?? 2027, dataDesejada: opts.dataDesejada });
  const novoPlano = async (u: User = setor, anoPca = 2027) => {
    unidade += 1;
    return json<Plano>(await pca('', u, { json: { anoPca, codigoUnidade: `U${unidade}`, centroCustoId: compras } }), 201);
  };
  const ler = (plano: { id: string }, u: User = setor) => pca(`/${plano.id}`, u).then((r) => json<Plano>(r, 200));
  const consolidar = (plano: Plano, memorandoIds: string[], u: User = setor) =>
    pca(`/${plano.id}`, u, {
      method: 'PUT',
      json: { version: plano.version, anoPca: 2027, codigoUnidade: plano.codigoUnidade, centroCustoId: compras, memorandoIds },
    });
  const agir = (d: { id: string; version: number }, acao: string, u: User, motivo?: string) =>
    pca(`/${d.id}/${acao}`, u, { json: { version: d.version, ...(motivo ? { motivo } : {}) } });

  beforeAll(async () => {
    const { prefeitura: entidade_id } = await t.server.demoEntidades();
    entidadeId = entidade_id;
    const ins = (table: string, values: Record<string, unknown>) => t.server.insert(table, { entidade_id, ...values });
    const expediente = await ins('registros_grupos', { codigo: '7510', nome: 'Artigos de expediente' });
    const servicos = await ins('registros_grupos', { codigo: 'S01', nome: 'Serviços de limpeza' });
    const resma = await ins('registros_unidades', { sigla: 'RESMA', descricao: 'Resma' });
    const caixa = await ins('registros_unidades', { sigla: 'CX', descricao: 'Caixa' });
    const un = await ins('registros_unidades', { sigla: 'UN', descricao: 'Unidade' });
    const produto = (codigo: string, descricao: string, extra: Record<string, unknown>) =>
      ins('produtos', { codigo, descricao, tipo: 'material', grupo_id: expediente, unidade_id: un, ...extra });
    p = {
      papel: await produto('000001', 'Papel sulfite A4', { codigo_catalogo: '461997', unidade_id: resma }),
      papelCaixa: await produto('000002', 'Papel sulfite A4 (caixa)', { codigo_catalogo: '461997', unidade_id: caixa }),
      caneta: await produto('000003', 'Caneta esferográfica azul', {}),
      clips: await produto('000004', 'Clipes 2/0', {}),
      limpeza: await produto('000005', 'Limpeza predial', { tipo: 'servico', grupo_id: servicos }),
    };
    ({ educacao, saude, compras, edu, sau, aceitante, setor } = await areasEPessoas(t.server, entidade_id));
    setorAutoridade = await t.server.createUser({ login: 'setoraut', tags: [PCA_TAG, PCA_APROVAR_TAG], centros: [compras] });
    autoridade = await t.server.createUser({ login: 'prefeito', tags: [PCA_TAG, PCA_APROVAR_TAG] });
    alheio = await t.server.createUser({ login: 'alheio', tags: [PCA_TAG], centros: [saude] });
    semTag = await t.server.createUser({ login: 'semtag', tags: [MEMORANDOS_TAG], centros: [compras] });
    admin = await t.server.createUser({ login: 'adminpca', tags: [3] });
  });

  it('is one per entidade, year and PNCP unit, numbered and audited; no tag → 403; another setor → 404', async () => {
    const plano = await json<Plano>(await pca('', setor, { json: { anoPca: '2027', codigoUnidade: '926001', centroCustoId: compras } }), 201);
    expect(plano).toMatchObject({ status: 'em_elaboracao', valorTotal: '0.0000', transicoes: ['enviar', 'cancelar'] });
    const dup = await json<ErrorBody>(await pca('', setor, { json: { anoPca: 2027, codigoUnidade: '926001', centroCustoId: compras } }), 409);
    expect(dup.error.fields?.anoPca).toBe(`Já existe o Plano de Contratações Anual ${plano.numero}/${plano.ano} de 2027 para esta unidade.`);
    const outroAno = await json<Plano>(await pca('', setor, { json: { anoPca: 2028, codigoUnidade: '926001', centroCustoId: compras } }), 201);
    expect(outroAno.numero).toBe(plano.numero + 1);
    const acoes = await t.server.sql<{ acao: string }>("SELECT acao FROM audit_log WHERE plugin = 'pca' AND registro = $1", [plano.id]);
    expect(acoes.map((a) => a.acao)).toEqual(['criar']);
    expect((await pca('', semTag)).status).toBe(403);
    expect((await pca(`/${plano.id}`, alheio)).status).toBe(404);
    const lista = await json<{ items: { id: string }[] }>(await pca('', alheio), 200);
    expect(lista.items.map((i) => i.id)).not.toContain(plano.id);
    // the autoridade competente reads every plan of the entidade
    expect((await pca(`/${plano.id}`, autoridade)).status).toBe(200);
    const semCentro = await json<ErrorBody>(await pca('', alheio, { json: { anoPca: 2030, codigoUnidade: 'X1', centroCustoId: compras } }), 400);
    expect(semCentro.error.fields).toEqual({ centroCustoId: 'Escolha um centro de custo ao qual você pertence.' });
  });

  it('consolidates by key: same item and unit → one item (sums exact, unit value to 4 places), another unit → two', async () => {
    const a = await dfd(
      edu,
      educacao,
      [
        [p.papel, '10', '0,1000'],
        [p.caneta, '1', '0,1000'],
        [p.limpeza, '12', '1.000,0000'],
      ],
      {
        dataDesejada: '2027-03-10',
      },
    );
    const b = await dfd(
      sau,
      saude,
      [
        [p.papel, '20', '0,2000'],
        [p.caneta, '1', '0,2000'],
        [p.papelCaixa, '1', '50'],
      ],
      { dataDesejada: '2027-02-01' },
    );
    // the DFD's lines took their PCA category from the product (material → 1, serviço → 2)
    const linhas = await json<{ itens: { categoriaItemPca: number }[] }>(await mem(`/${a}`, aceitante), 200);
    expect(linhas.itens.map((i) => i.categoriaItemPca)).toEqual([1, 1, 2]);
    const plano = await novoPlano();
    const feito = await json<Plano>(await consolidar(plano, [a, b]), 200);
    expect(feito.valorTotal).toBe('12055.3000');
    const lido = await ler(plano);
    expect(lido.memorandos.map((m) => m.id).sort()).toEqual([a, b].sort());
    const porDescricao = Object.fromEntries(lido.itens.map((i) => [i.descricao, i]));
    expect(lido.itens).toHaveLength(4);
    // 10 × 0,1 + 20 × 0,2 = 5; 5 / 30 = 0,16666… → 0,1667
    expect(porDescricao['Papel sulfite A4']).toMatchObject({
      categoriaItemPca: 1,
      catalogo: 1,
      codigoItem: '461997',
      unidadeFornecimento: 'RESMA',
      quantidade: '30.0000',
      valorTotal: '5.0000',
      valorUnitario: '0.1667',
      dataDesejada: '2027-02-01',
      unidadeRequisitante: 'Secretaria de Educação; Secretaria de Saúde',
      pendencias: ['classe_cnbs'],
    });
    // the drill-down: the DFD lines of one item, read on their own
    const papel = porDescricao['Papel sulfite A4']!;
    expect(papel.dfds).toBe(2);
    const fontes = await json<{ items: { memorandoId: string; quantidade: string; valorTotal: string }[] }>(
      await pca(`/${plano.id}/itens/${papel.numeroItem}/dfds`, setor),
      200,
    );
    expect(fontes.items.map((f) => [f.memorandoId, f.quantidade, f.valorTotal])).toEqual([
      [a, '10.0000', '1.0000'],
      [b, '20.0000', '4.0000'],
    ]);
    expect((await pca(`/${plano.id}/itens/${papel.numeroItem}/dfds`, alheio)).status).toBe(404);
    expect((await pca(`/${plano.id}/itens/abc/dfds`, setor)).status).toBe(400);
    // 0,1 + 0,2 in binary floating point is 0.30000000000000004: the plan says 0,3000
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(porDescricao['Caneta esferográfica azul']).toMatchObject({
      catalogo: 2,
      codigoItem: '000003',
      quantidade: '2.0000',
      valorTotal: '0.3000',
      valorUnitario: '0.1500',
      pendencias: [],
    });
    expect(porDescricao['Papel sulfite A4 (caixa)']).toMatchObject({ unidadeFornecimento: 'CX', quantidade: '1.0000', valorTotal: '50.0000' });
    expect(porDescricao['Limpeza predial']).toMatchObject({ categoriaItemPca: 2, valorTotal: '12000.0000', unidadeRequisitante: 'Secretaria de Educação' });
    // the totals: by category (the items) and by requesting unit (each DFD line by its origin), exact
    expect((lido as unknown as { totais: unknown }).totais).toEqual({
      porCategoria: [
        { rotulo: CATEGORIA_ITEM_PCA[1], itens: 3, valor: '55.3000' },
        { rotulo: CATEGORIA_ITEM_PCA[2], itens: 1, valor: '12000.0000' },
      ],
      porUnidade: [
        { rotulo: 'Secretaria de Educação', itens: 3, valor: '12001.1000' },
        { rotulo: 'Secretaria de Saúde', itens: 3, valor: '54.2000' },
      ],
    });
    // the DFD's timeline names the plan
    const vinculos = await t.server.sql<{ acao: string }>("SELECT acao FROM audit_log WHERE plugin = 'memorandos' AND registro = $1", [a]);
    expect(vinculos.map((v) => v.acao)).toContain('vincular');
  });

  it('sums many 4-decimal unit values exactly where floats drift, and flags a DFD without desired date', async () => {
    const ids = [];
    let flutuante = 0;
    for (let i = 0; i < 7; i++) {
      ids.push(await dfd(edu, educacao, [[p.clips, '100', '0,0001']], {}));
      ids.push(await dfd(sau, saude, [[p.clips, '3', '0,1001']], {}));
      flutuante += 100 * 0.0001 + 3 * 0.1001;
    }
    const plano = await novoPlano();
    await json(await consolidar(plano, ids), 200);
    const [item] = (await ler(plano)).itens;
    expect(String(flutuante)).toBe('2.1721000000000004');
    // 700 × 0,0001 + 21 × 0,1001 = 2,1721; 2,1721 / 721 = 0,00301… → 0,0030
    expect(item).toMatchObject({ quantidade: '721.0000', valorTotal: '2.1721', valorUnitario: '0.0030', dataDesejada: null, pendencias: ['data_desejada'] });
    expect(item!.dfds).toBe(14);
    // where the pendência is fixed: the first DFD without a desired date
    expect((item as unknown as { semData: { id: string } }).semData.id).toBe(ids[0]);
  });

  it('locks a DFD while consolidated (409 naming the plan), frees it when excluded and re-consolidates', async () => {
    const a = await dfd(edu, educacao, [[p.caneta, '2', '1,0000']]);
    const b = await dfd(sau, saude, [[p.caneta, '3', '1,0000']]);
    const plano = await novoPlano();
    let feito = await json<Plano>(await consolidar(plano, [a, b]), 200);
    const numero = `${plano.numero}/${plano.ano}`;
    const memorando = await json<{ version: number }>(await mem(`/${b}`, aceitante), 200);
    const arquivar = await json<ErrorBody>(await mem(`/${b}/arquivar`, aceitante, { json: { version: memorando.version } }), 409);
    expect(arquivar.error).toMatchObject({ code: 'em_uso', message: `Usado no Plano de Contratações Anual ${numero}.` });
    const outro = await novoPlano();
    const usado = await json<ErrorBody>(await consolidar(outro, [b]), 409);
    expect(usado.error.message).toBe(`Este memorando já está consolidado no Plano de Contratações Anual ${numero}.`);
    // excluded: the plan re-consolidates without it, and it can go into another plan
    feito = await json<Plano>(await consolidar(feito, [a]), 200);
    expect(feito.valorTotal).toBe('2.0000');
    expect((await ler(plano)).itens.map((i) => i.quantidade)).toEqual(['2.0000']);
    expect((await json<Plano>(await consolidar(outro, [b]), 200)).valorTotal).toBe('3.0000');
    // a DFD of another year, or not accepted, is refused at the field
    const de2028 = await dfd(edu, educacao, [[p.caneta, '1', '1,0000']], { anoPca: 2028 });
    const ano = await json<ErrorBody>(await consolidar(feito, [a, de2028]), 400);
    expect(ano.error.fields?.memorandoIds).toMatch(/^O Memorando \d+\/\d{4} é do PCA de 2028, não de 2027\.$/);
    // out of the person's centros: 404
    const doAlheio = await json<Plano>(await pca('', alheio, { json: { anoPca: 2027, codigoUnidade: 'ALH', centroCustoId: saude } }), 201);
    const fora = await pca(`/${doAlheio.id}`, alheio, {
      method: 'PUT',
      json: { version: 1, anoPca: 2027, codigoUnidade: 'ALH', centroCustoId: saude, memorandoIds: [a] },
    });
    expect(fora.status).toBe(404);
    // a cancelled plan gives its DFDs back
    const cancelado = await json<Plano>(await agir(await ler(outro), 'cancelar', setor, 'Plano refeito.'), 200);
    expect(cancelado.status).toBe('cancelado');
    const livre = await novoPlano();
    expect((await consolidar(livre, [b])).status).toBe(200);
  });

  it('50 concurrent consolidations of the same DFD: it lands in exactly one plan', async () => {
    const a = await dfd(edu, educacao, [[p.caneta, '1', '1,0000']]);
    const planos: Plano[] = [];
    for (let i = 0; i < 50; i++) planos.push(await novoPlano());
    const respostas = await Promise.all(planos.map((plano) => consolidar(plano, [a])));
    const status = respostas.map((r) => r.status);
    expect(status.filter((s) => s === 200)).toHaveLength(1);
    expect(status.filter((s) => s === 409)).toHaveLength(49);
    const vivos = await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM documento_vinculos WHERE fonte_id = $1 AND liberado_em IS NULL', [a]);
    expect(vivos[0]!.n).toBe(1);
    const itens = await t.server.sql<{ n: number }>(
      'SELECT count(DISTINCT i.plano_id)::int AS n FROM pca_item_fontes f JOIN pca_itens i ON i.id = f.item_id WHERE f.memorando_id = $1',
      [a],
    );
    expect(itens[0]!.n).toBe(1);
  });

  it('is approved by the autoridade competente, never by who consolidated it; returned with a reason; published', async () => {
    const a = await dfd(edu, educacao, [[p.clips, '5', '2,0000']], { dataDesejada: '2027-06-01' });
    let plano = await novoPlano(setorAutoridade);
    plano = await json<Plano>(await consolidar(plano, [a], setorAutoridade), 200);
    plano = await json<Plano>(await agir(plano, 'enviar', setorAutoridade), 200);
    expect(plano.status).toBe('em_aprovacao');
    // holds the approval tag, but consolidated it (segregação de funções)
    expect(plano.transicoes).toEqual([]);
    expect((await json<ErrorBody>(await agir(plano, 'aprovar', setorAutoridade), 403)).error.code).toBe('forbidden');
    // nor the setor without the tag
    expect((await agir(plano, 'aprovar', setor)).status).toBe(403);
    expect((await json<ErrorBody>(await agir(plano, 'devolver', autoridade), 400)).error.fields).toEqual({ motivo: 'Informe o motivo.' });
    plano = await json<Plano>(await agir(plano, 'devolver', autoridade, 'Incluir as demandas da Saúde.'), 200);
    expect(plano.status).toBe('devolvido');
    plano = await json<Plano>(await agir(plano, 'enviar', setorAutoridade), 200);
    plano = await json<Plano>(await agir(plano, 'aprovar', autoridade), 200);
    expect(plano.status).toBe('aprovado');
    // an approved plan is not changed by PUT
    expect((await consolidar(plano, [], setorAutoridade)).status).toBe(409);
    plano = await json<Plano>(await agir(plano, 'publicar', setorAutoridade), 200);
    expect(plano.status).toBe('publicado');
    const acoes = await t.server.sql<{ acao: string; depois: { motivo?: string } }>(
      "SELECT acao, depois FROM audit_log WHERE plugin = 'pca' AND registro = $1 ORDER BY id",
      [plano.id],
    );
    expect(acoes.map((r) => r.acao)).toEqual(['criar', 'alterar', 'enviar', 'devolver', 'enviar', 'aprovar', 'publicar']);
    expect(acoes[3]!.depois.motivo).toBe('Incluir as demandas da Saúde.');
  });

  it('flags a Classe/Grupo whose planned total passes the year dispensa limit (− R$ 0,01 and at it: no; + R$ 0,01: exige licitação); requisições see the plan', async () => {
    // the plan of the current year, so a requisição of today falls in it; the entidade's limit for that year
    const ano = Number(today().slice(0, 4));
    await t.server.insert('requisicao_limites_dispensa', { entidade_id: entidadeId, ano, categoria: 'compras', valor: '1000.00' });
    const a = await dfd(edu, educacao, [[p.papel, '1', '999,99']], { anoPca: ano });
    const b = await dfd(sau, saude, [[p.caneta, '1', '0,01']], { anoPca: ano });
    const c = await dfd(
      sau,
      saude,
      [
        [p.clips, '1', '0,01'],
        [p.limpeza, '1', '0,01'],
      ],
      { anoPca: ano },
    );
    let plano = await novoPlano(setor, ano);
    const grupos = async (ids: string[]) => {
      const res = await pca(`/${plano.id}`, setor, {
        method: 'PUT',
        json: { version: plano.version, anoPca: ano, codigoUnidade: plano.codigoUnidade, centroCustoId: compras, memorandoIds: ids },
      });
      plano = await json<Plano>(res, 200);
      const lido = (await json<Plano & { fracionamento: Record<string, unknown>[] }>(await pca(`/${plano.id}`, setor), 200)).fracionamento;
      return lido.map((g) => [g.grupoCodigo, g.categoria, g.total, g.limite, g.exigeLicitacao, (g.numerosItem as number[]).length]);
    };
    // R$ 0,01 under the limit, then exactly at it: no flag; R$ 0,01 over it: exige licitação (another grupo apart)
    expect(await grupos([a])).toEqual([['7510', 'compras', '999.9900', '1000.00', false, 1]]);
    expect(await grupos([a, b])).toEqual([['7510', 'compras', '1000.0000', '1000.00', false, 2]]);
    expect(await grupos([a, b, c])).toEqual([
      ['7510', 'compras', '1000.0100', '1000.00', true, 3],
      ['S01', 'compras', '0.0100', '1000.00', false, 1],
    ]);
    const pdf = await pca(`/${plano.id}.pdf`, setor);
    expect(pdf.status).toBe(200);

    // requisições: a purchase of the grupo by dispensa is flagged with what the plan set aside, though the
    // requisições of the year are far under the limit; the other grupo (planned under the limit) is not
    const tipo = await t.server.insert('registros_tipos_solicitacao', { entidade_id: entidadeId, nome: 'Material de consumo' });
    const req = await t.server.createUser({ login: 'requisitante', tags: [39], centros: [educacao] });
    const requisicao = async (produtoId: string) =>
      json<{ id: string }>(
        await t.server.request('/api/requisicoes/requisicoes', {
          token: req.token,
          json: {
            centroCustoId: educacao,
            tipoSolicitacaoId: tipo,
            categoria: 'compras',
            dotacao: '02.01.12.361.0002.2.010 3.3.90.30',
            justificativa: 'Material para o funcionamento das escolas.',
            itens: [{ produtoId, quantidade: '1', valorUnitario: '10' }],
          },
        }),
        201,
      );
    const alertas = async (id: string) =>
      (await json<{ items: Record<string, unknown>[] }>(await t.server.request(`/api/requisicoes/requisicoes/${id}/dispensa`, { token: req.token }), 200))
        .items;
    const deCaneta = await requisicao(p.caneta);
    expect(await alertas(deCaneta.id)).toEqual([
      expect.objectContaining({
        grupoCodigo: '7510',
        total: '0.00',
        totalComEsta: '10.00',
        limite: '1000.00',
        excedido: false,
        planejado: {
          total: '1000.0100',
          passa: true,
          planos: [{ rotulo: `Plano de Contratações Anual ${plano.numero}/${plano.ano}`, situacao: 'Em elaboração', valor: '1000.0100' }],
        },
      }),
    ]);
    expect(await alertas((await requisicao(p.limpeza)).id)).toEqual([]);
    // a cancelled plan plans nothing
    await json(await agir(plano, 'cancelar', setor, 'Plano refeito com outra unidade.'), 200);
    expect(await alertas(deCaneta.id)).toEqual([]);
  });

  it('checks before approval: an item without what the PNCP requires refuses enviar (409 naming it); fixed in the catalogue, enviar consolidates again and goes', async () => {
    const a = await dfd(edu, educacao, [[p.papelCaixa, '2', '10']], { dataDesejada: '2027-05-01' });
    const b = await dfd(sau, saude, [[p.caneta, '3', '1']]);
    let plano = await novoPlano();
    plano = await json<Plano>(await consolidar(plano, [a, b]), 200);
    const recusa = await json<ErrorBody>(await agir(plano, 'enviar', setor), 409);
    expect(recusa.error.message).toBe(
      'O plano não pode ser enviado para aprovação: 2 itens sem o que o PNCP exige — item 1 (Caneta esferográfica azul): DFD sem data desejada; ' +
        'item 2 (Papel sulfite A4 (caixa)): produto com código CATMAT/CATSER sem a classe ou o grupo do CNBS. Corrija o produto ou o DFD e envie de novo.',
    );
    expect((await ler(plano)).status).toBe('em_elaboracao');
    // the DFD without a date leaves the plan; the catalogue gets the CNBS classe and PDM of the other product
    plano = await json<Plano>(await consolidar(plano, [a]), 200);
    await t.server.sql(
      "UPDATE produtos SET classe_cnbs_codigo = '7530', classe_cnbs_nome = 'Artigos de papelaria', pdm_codigo = '4408', pdm_descricao = 'Papel A4' WHERE id = $1",
      [p.papelCaixa],
    );
    plano = await json<Plano>(await agir(plano, 'enviar', setor), 200);
    expect(plano.status).toBe('em_aprovacao');
    const [item] = await t.server.sql<Record<string, unknown>>(
      'SELECT classificacao_superior_codigo, classificacao_superior_nome, pdm_codigo, pdm_descricao, pendencias FROM pca_itens WHERE plano_id = $1',
      [plano.id],
    );
    expect(item).toEqual({
      classificacao_superior_codigo: '7530',
      classificacao_superior_nome: 'Artigos de papelaria',
      pdm_codigo: '4408',
      pdm_descricao: 'Papel A4',
      pendencias: [],
    });
    // the items with the PNCP's columns, in a workbook (a file of the kit: scope, name, headers)
    const xlsx = await pca(`/${plano.id}/itens.xlsx`, setor);
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-disposition')).toContain(`pca-itens-${plano.numero}-${plano.ano}.xlsx`);
    const planilha = await parseSpreadsheet(new Uint8Array(await xlsx.arrayBuffer()), undefined, undefined, { headerFirstCell: 'Número do item' });
    expect(planilha.rows.map((r) => r.cells)).toEqual([
      {
        'Número do item': '1',
        'Categoria do item': 'Material',
        Catálogo: 'CNBS',
        Classificação: 'Material',
        'Código da classe/grupo': '7530',
        'Nome da classe/grupo': 'Artigos de papelaria',
        'Código do PDM': '4408',
        'Descrição do PDM': 'Papel A4',
        'Código do item': '461997',
        Descrição: 'Papel sulfite A4 (caixa)',
        'Unidade de fornecimento': 'CX',
        Quantidade: '2',
        'Valor unitário (R$)': '10',
        'Valor total (R$)': '20',
        'Data desejada': '01/05/2027',
        'Unidade requisitante': 'Secretaria de Educação',
      },
    ]);
    expect((await pca(`/${plano.id}/itens.xlsx`, alheio)).status).toBe(404);
  });

  it('contratações planejadas: items of one category in at most one, kept through re-consolidation; an empty one stops enviar; locked once sent', async () => {
    type Contratacao = { id: string; numero: number; version: number; numerosItem: number[]; valorTotal: string; atrasada: string | null };
    const a = await dfd(
      edu,
      educacao,
      [
        [p.caneta, '10', '2'],
        [p.clips, '5', '1'],
      ],
      { dataDesejada: '2027-03-10' },
    );
    const b = await dfd(sau, saude, [[p.limpeza, '12', '100']], { dataDesejada: '2027-06-01' });
    let plano = await novoPlano();
    plano = await ler(await json<Plano>(await consolidar(plano, [a, b]), 200));
    const numeroDe = (pl: Plano, descricao: string) => pl.itens.find((i) => i.descricao === descricao)!.numeroItem;
    const materiais = [numeroDe(plano, 'Caneta esferográfica azul'), numeroDe(plano, 'Clipes 2/0')];
    const limpeza = numeroDe(plano, 'Limpeza predial');
    const criar = (body: Record<string, unknown>, u: User = setor) =>
      pca(`/${plano.id}/contratacoes`, u, {
        json: {
          titulo: 'Material de expediente',
          categoriaItemPca: 1,
          prioridade: 'alta',
          inicio: '01/11/2026',
          fim: '2027-04-30',
          numerosItem: materiais,
          ...body,
        },
      });
    const c1 = await json<Contratacao>(await criar({}), 201);
    // the process ends after the earliest desired date of its items: flagged
    expect(c1).toMatchObject({ numero: 1, numerosItem: materiais, valorTotal: '25.0000', atrasada: '2027-03-10' });
    const campo = async (res: Response) => (await json<ErrorBody>(res, 400)).error.fields as Record<string, string>;
    expect((await campo(await criar({ numerosItem: [limpeza] }))).numerosItem).toBe(
      `O item ${limpeza} é da categoria Serviço: uma contratação agrupa itens de uma só categoria.`,
    );
    expect((await campo(await criar({ numerosItem: [materiais[0]] }))).numerosItem).toBe(
      `O item ${materiais[0]} já está na contratação 1: retire-o de lá antes.`,
    );
    expect((await campo(await criar({ numerosItem: [999] }))).numerosItem).toBe('O plano não tem o item 999.');
    expect((await campo(await criar({ inicio: '2027-05-01', numerosItem: [limpeza], categoriaItemPca: 2 }))).fim).toBe(
      'A conclusão do processo não pode ser antes do início.',
    );
    expect((await criar({}, alheio)).status).toBe(404);
    expect((await criar({}, semTag)).status).toBe(403);
    const c2 = await json<Contratacao>(
      await criar({ titulo: 'Limpeza', categoriaItemPca: 2, prioridade: 'media', numerosItem: [limpeza], fim: '2027-05-31' }),
      201,
    );
    expect(c2).toMatchObject({ numero: 2, valorTotal: '1200.0000', atrasada: null });
    // an old version is refused; the list is replaced as a whole
    const alterar = (c: Contratacao, body: Record<string, unknown>) =>
      pca(`/${plano.id}/contratacoes/${c.id}`, setor, {
        method: 'PUT',
        json: {
          titulo: 'Material de expediente',
          categoriaItemPca: 1,
          prioridade: 'alta',
          inicio: '2026-11-01',
          fim: '2027-02-28',
          numerosItem: materiais,
          version: c.version,
          ...body,
        },
      });
    const c1b = await json<Contratacao>(await alterar(c1, { numerosItem: [materiais[1]] }), 200);
    expect(c1b).toMatchObject({ numerosItem: [materiais[1]], valorTotal: '5.0000', atrasada: null, version: c1.version + 1 });
    expect((await alterar(c1, {})).status).toBe(409);
    await json(await alterar(c1b, {}), 200);

    // consolidated again with one more DFD (the numbers move): each item stays in its contratação
    await t.server.sql("UPDATE produtos SET classe_cnbs_codigo = '7530', classe_cnbs_nome = 'Artigos de papelaria' WHERE id = $1", [p.papel]);
    const c = await dfd(edu, educacao, [[p.papel, '3', '20']], { dataDesejada: '2027-02-01' });
    plano = await json<Plano>(await consolidar(await ler(plano), [a, b, c]), 200);
    const lidas = (await ler(plano)) as Plano & { contratacoes: Contratacao[] };
    expect(lidas.contratacoes.map((x) => x.numerosItem)).toEqual([
      [numeroDe(lidas, 'Caneta esferográfica azul'), numeroDe(lidas, 'Clipes 2/0')].sort((x, y) => x - y),
      [numeroDe(lidas, 'Limpeza predial')],
    ]);

    // DFD b leaves the plan: contratação 2 has no items left, and the plan is not sent so
    plano = await json<Plano>(await consolidar(await ler(plano), [a, c]), 200);
    const semItens = await agir(await ler(plano), 'enviar', setor);
    expect(semItens.status).toBe(409);
    expect(((await semItens.json()) as ErrorBody).error.message).toBe('A contratação 2 ficou sem itens: inclua itens ou exclua-a antes de enviar o plano.');
    expect((await pca(`/${plano.id}/contratacoes/${c2.id}`, setor, { method: 'DELETE' })).status).toBe(204);
    plano = await json<Plano>(await agir(await ler(plano), 'enviar', setor), 200);
    expect(plano.status).toBe('em_aprovacao');
    const fechado = await criar({ numerosItem: [numeroDe(lidas, 'Papel sulfite A4')] });
    expect(fechado.status).toBe(409);
    expect(((await fechado.json()) as ErrorBody).error.code).toBe('locked');
    // each change in the plan's timeline
    const historico = await (await pca(`/${plano.id}/historico`, setor)).text();
    for (const acao of ['incluir_contratacao', 'alterar_contratacao', 'excluir_contratacao']) expect(historico).toContain(acao);
  });

  it('items added without DFD: a justification required, consolidated with the DFD lines of the same key, drill-down and totals under the setor', async () => {
    const a = await dfd(edu, educacao, [[p.clips, '10', '1.5']], { dataDesejada: '2027-04-01' });
    let plano = await novoPlano();
    plano = await json<Plano>(await consolidar(plano, [a]), 200);
    const manual = (body: Record<string, unknown>, u: User = setor) =>
      pca(`/${plano.id}/itens-manuais`, u, {
        json: {
          produtoId: p.clips,
          categoriaItemPca: 1,
          quantidade: '5',
          valorUnitario: '1,5',
          dataDesejada: '15/03/2027',
          justificativa: 'Reserva do almoxarifado central.',
          ...body,
        },
      });
    const semJustificativa = await json<ErrorBody>(await manual({ justificativa: 'curta' }), 400);
    expect(semJustificativa.error.fields?.justificativa).toBe('Justifique a inclusão sem DFD (ao menos 10 caracteres).');
    const outraEntidade = await json<ErrorBody>(await manual({ produtoId: '00000000-0000-4000-8000-000000000009' }), 400);
    expect(outraEntidade.error.fields?.produtoId).toBe('Escolha um produto ou serviço do catálogo.');
    expect((await manual({}, alheio)).status).toBe(404);
    expect((await manual({}, semTag)).status).toBe(403);
    const linha = await json<{ id: string; version: number; produtoDescricao: string }>(await manual({}), 201);
    expect(linha.produtoDescricao).toBe('Clipes 2/0');
    // the same key as the DFD's clips: one item of 15, the earliest desired date, both requesting units
    let lido = (await ler(plano)) as Plano & { manuais: unknown[] };
    expect(lido.itens).toHaveLength(1);
    expect(lido.itens[0]).toMatchObject({ quantidade: '15.0000', valorTotal: '22.5000', dataDesejada: '2027-03-15', dfds: 1 });
    expect(lido.itens[0]!.unidadeRequisitante).toBe('Compras e Licitações; Secretaria de Educação');
    expect(lido.manuais).toHaveLength(1);
    const fontes = await json<{ items: { numero: number | null; origemNome: string; justificativa: string | null }[] }>(
      await pca(`/${plano.id}/itens/1/dfds`, setor),
      200,
    );
    expect(fontes.items.map((f) => [f.numero, f.origemNome, f.justificativa])).toEqual([
      [expect.any(Number), 'Secretaria de Educação', null],
      [null, 'Compras e Licitações', 'Reserva do almoxarifado central.'],
    ]);
    const totais = (lido as unknown as { totais: { porUnidade: { rotulo: string; valor: string }[] } }).totais.porUnidade;
    expect(totais).toEqual([
      { rotulo: 'Secretaria de Educação', itens: 1, valor: '15.0000' },
      { rotulo: 'Compras e Licitações', itens: 1, valor: '7.5000' },
    ]);
    // changed, then deleted: the plan follows each time
    await json(
      await pca(`/${plano.id}/itens-manuais/${linha.id}`, setor, {
        method: 'PUT',
        json: {
          produtoId: p.caneta,
          categoriaItemPca: 1,
          quantidade: '2',
          valorUnitario: '3',
          dataDesejada: '2027-03-15',
          justificativa: 'Reserva do almoxarifado central.',
          version: linha.version,
        },
      }),
      200,
    );
    lido = (await ler(plano)) as typeof lido;
    expect(lido.itens.map((i) => [i.descricao, i.quantidade])).toEqual([
      ['Caneta esferográfica azul', '2.0000'],
      ['Clipes 2/0', '10.0000'],
    ]);
    expect((await pca(`/${plano.id}/itens-manuais/${linha.id}`, setor, { method: 'DELETE' })).status).toBe(204);
    lido = (await ler(plano)) as typeof lido;
    expect(lido.itens.map((i) => i.descricao)).toEqual(['Clipes 2/0']);
    const historico = await (await pca(`/${plano.id}/historico`, setor)).text();
    for (const acao of ['incluir_item_sem_dfd', 'alterar_item_sem_dfd', 'excluir_item_sem_dfd']) expect(historico).toContain(acao);
  });

  it('the autoridade refuses single items with a reason (not who consolidated it): out of the total and of what the PNCP gets; taken back; kept through devolver', async () => {
    const a = await dfd(
      edu,
      educacao,
      [
        [p.caneta, '10', '2'],
        [p.clips, '5', '1'],
      ],
      { dataDesejada: '2027-06-01' },
    );
    let plano = await novoPlano(setorAutoridade);
    plano = await json<Plano>(await consolidar(plano, [a], setorAutoridade), 200);
    const recusar = (id: string, u: User, motivo?: string) => pca(`/${plano.id}/itens/${id}/recusar`, u, { json: motivo === undefined ? {} : { motivo } });
    let lido = await ler(plano, autoridade);
    const caneta = lido.itens.find((i) => i.descricao === 'Caneta esferográfica azul') as Item & { id: string };
    // only while the plan is under approval
    expect((await json<ErrorBody>(await recusar(caneta.id, autoridade, 'Sem orçamento.'), 409)).error.code).toBe('locked');
    plano = await json<Plano>(await agir(await ler(plano, setorAutoridade), 'enviar', setorAutoridade), 200);
    lido = await ler(plano, autoridade);
    const id = (lido.itens.find((i) => i.descricao === 'Caneta esferográfica azul') as Item & { id: string }).id;
    // who consolidated it holds the tag, but not the right; the setor without the tag neither
    expect((await json<ErrorBody>(await recusar(id, setorAutoridade, 'Sem orçamento.'), 403)).error.code).toBe('segregacao');
    expect((await recusar(id, setor, 'Sem orçamento.')).status).toBe(403);
    expect((await json<ErrorBody>(await recusar(id, autoridade), 400)).error.fields?.motivo).toBe('Informe o motivo da recusa.');
    expect((await recusar('00000000-0000-4000-8000-000000000009', autoridade, 'Sem orçamento.')).status).toBe(404);
    await json(await recusar(id, autoridade, 'Sem orçamento no exercício.'), 200);
    lido = await ler(plano, autoridade);
    expect(lido.valorTotal).toBe('5.0000');
    expect(lido.itens.find((i) => i.descricao === 'Caneta esferográfica azul')).toMatchObject({
      recusaMotivo: 'Sem orçamento no exercício.',
      recusadoPor: 'Usuário prefeito',
    });
    // taken back, refused again; returned and sent anew (consolidated again): the refusal stays
    await json(await pca(`/${plano.id}/itens/${id}/aceitar`, autoridade, { json: {} }), 200);
    expect((await ler(plano, autoridade)).valorTotal).toBe('25.0000');
    await json(await recusar(id, autoridade, 'Sem orçamento no exercício.'), 200);
    plano = await json<Plano>(await agir(await ler(plano, autoridade), 'devolver', autoridade, 'Rever as quantidades.'), 200);
    plano = await json<Plano>(await agir(await ler(plano, setorAutoridade), 'enviar', setorAutoridade), 200);
    lido = await ler(plano, autoridade);
    expect(lido.valorTotal).toBe('5.0000');
    expect(lido.itens.filter((i) => (i as Item & { recusaMotivo: string | null }).recusaMotivo).map((i) => i.descricao)).toEqual(['Caneta esferográfica azul']);
    plano = await json<Plano>(await agir(lido, 'aprovar', autoridade), 200);
    // what goes to the PNCP (the items with its columns): the clips only
    const xlsx = await pca(`/${plano.id}/itens.xlsx`, setorAutoridade);
    const planilha = await parseSpreadsheet(new Uint8Array(await xlsx.arrayBuffer()), undefined, undefined, { headerFirstCell: 'Número do item' });
    expect(planilha.rows.map((r) => r.cells.Descrição)).toEqual(['Clipes 2/0']);
    const acoes = await t.server.sql<{ acao: string }>("SELECT acao FROM audit_log WHERE plugin = 'pca' AND registro = $1 ORDER BY id", [plano.id]);
    expect(acoes.map((r) => r.acao)).toEqual(['criar', 'alterar', 'enviar', 'recusar_item', 'aceitar_item', 'recusar_item', 'devolver', 'enviar', 'aprovar']);
  });

  it('revision: a new version of an approved plan; outside the windows a justification is required (400), within 15 days of the LOA not; the changes since the approved version; item numbers kept', async () => {
    const a = await dfd(
      edu,
      educacao,
      [
        [p.caneta, '10', '2'],
        [p.clips, '5', '1'],
      ],
      { dataDesejada: '2027-06-01' },
    );
    const b = await dfd(sau, saude, [[p.limpeza, '12', '100']], { dataDesejada: '2027-06-01' });
    let plano = await novoPlano(setorAutoridade);
    plano = await json<Plano>(await consolidar(plano, [a], setorAutoridade), 200);
    plano = await json<Plano>(await agir(await ler(plano, setorAutoridade), 'enviar', setorAutoridade), 200);
    plano = await json<Plano>(await agir(plano, 'aprovar', autoridade), 200);
    const revisar = (body: Record<string, unknown>, u: User = setor) => pca(`/${plano.id}/revisar`, u, { json: { version: plano.version, ...body } });
    // the LOA is the entidade's setting (tag 3), not the reviser's: recorded at /api/pca/loas
    const loas = (path: string, u: User, init: { method?: string; json?: unknown } = {}) =>
      t.server.request(`/api/pca/loas${path}`, { token: u.token, ...init });
    expect((await loas('', setor, { json: { ano: 2027, dataPublicacao: '10/01/2026' } })).status).toBe(403);
    // 2027's windows: 15/09–15/11/2026 (past); no LOA of 2027 recorded yet: the message says so
    const semLoa = await json<ErrorBody>(await revisar({}), 400);
    expect(semLoa.error.fields?.justificativa).toBe(
      'Fora dos períodos de revisão (15/09 a 15/11/2026 e 15 dias após a publicação da LOA de 2027, ainda não registrada): justifique a revisão (ao menos 10 caracteres).',
    );
    // a LOA published 10/01/2026 (its 15 days past); a date in the body is not the person's to give
    let registro = await json<{ id: string; version: number }>(
      await loas('', admin, { json: { ano: 2027, dataPublicacao: '10/01/2026', lei: 'Lei nº 100/2026' } }),
      201,
    );
    expect((await json<ErrorBody>(await loas('', admin, { json: { ano: 2027, dataPublicacao: '11/01/2026' } }), 409)).error.message).toBe(
      'Já está registrada a publicação da LOA deste ano.',
    );
    expect((await loas('', admin, { json: { ano: 2027, dataPublicacao: '31/02/2026' } })).status).toBe(400);
    // the list's search: by the year or the law
    const busca = async (q: string) =>
      (await json<{ items: { ano: number }[] }>(await loas(`?q=${encodeURIComponent(q)}`, admin), 200)).items.map((l) => l.ano);
    expect(await busca('2027')).toEqual([2027]);
    expect(await busca('lei nº 100')).toEqual([2027]);
    expect(await busca('orçamento')).toEqual([]);
    const fora = await json<ErrorBody>(await revisar({ dataLoa: today() }), 400);
    expect(fora.error.fields?.justificativa).toBe(
      'Fora dos períodos de revisão (15/09 a 15/11/2026 e 15 dias após a publicação da LOA de 2027 em 10/01/2026): justifique a revisão (ao menos 10 caracteres).',
    );
    expect((await revisar({ justificativa: 'curta' })).status).toBe(400);
    expect((await agir(plano, 'revisar', autoridade)).status).toBe(403);
    // the administration corrects the date: a LOA published 3 days ago, within its 15 days, no justification needed
    const loa = new Date(Date.parse(`${today()}T12:00:00Z`) - 3 * 86_400_000).toISOString().slice(0, 10);
    registro = await json(await loas(`/${registro.id}`, admin, { method: 'PUT', json: { version: registro.version, ano: 2027, dataPublicacao: loa } }), 200);
    expect((await ler(plano)).loa).toMatchObject({ dataPublicacao: loa });
    plano = await json<Plano>(await revisar({}), 200);
    expect(plano).toMatchObject({ status: 'em_revisao', versao: 2, dataLoa: loa });
    // the revision: the clips leave (DFD a replaced by one with more canetas), the cleaning service comes in
    const c = await dfd(edu, educacao, [[p.caneta, '15', '2']], { dataDesejada: '2027-06-01' });
    plano = await json<Plano>(await consolidar(await ler(plano, setor), [b, c], setor), 200);
    const lido = (await ler(plano, setor)) as Plano & { revisao: Record<string, { descricao: string }[]> & { versao: number } };
    expect(lido.revisao.versao).toBe(2);
    // an item keeps its number across versions (the PNCP knows it by it): the new one comes after, the excluded leaves a gap
    expect(lido.itens.map((i) => [i.numeroItem, i.descricao])).toEqual([
      [1, 'Caneta esferográfica azul'],
      [3, 'Limpeza predial'],
    ]);
    expect(lido.revisao.incluidos!.map((i) => i.descricao)).toEqual(['Limpeza predial']);
    expect(lido.revisao.excluidos!.map((i) => i.descricao)).toEqual(['Clipes 2/0']);
    expect(lido.revisao.redimensionados).toEqual([
      expect.objectContaining({
        descricao: 'Caneta esferográfica azul',
        quantidadeAntes: '10.0000',
        quantidade: '15.0000',
        valorAntes: '20.0000',
        valorTotal: '30.0000',
      }),
    ]);
    // sent and approved again: version 2 kept, the audit trail says why
    plano = await json<Plano>(await agir(lido, 'enviar', setor), 200);
    plano = await json<Plano>(await agir(plano, 'aprovar', autoridade), 200);
    const versoes = await t.server.sql<{ versao: number; n: number }>(
      'SELECT versao, jsonb_array_length(itens) AS n FROM pca_versoes WHERE plano_id = $1 ORDER BY versao',
      [plano.id],
    );
    expect(versoes).toEqual([
      { versao: 1, n: 2 },
      { versao: 2, n: 2 },
    ]);
    const [revisao] = await t.server.sql<{ depois: Record<string, unknown> }>(
      "SELECT depois FROM audit_log WHERE plugin = 'pca' AND registro = $1 AND acao = 'revisar'",
      [plano.id],
    );
    expect(revisao!.depois).toMatchObject({ versao: 2, dataLoa: loa, status: 'em_revisao' });
  });

  it('desistir da revisão: the plan back to the approved (or published) version as it stood, its DFDs, items, lines without DFD and contratações; the revision DFD freed; 409 naming a DFD since consolidated elsewhere', async () => {
    const a = await dfd(
      edu,
      educacao,
      [
        [p.caneta, '10', '2'],
        [p.clips, '5', '1'],
      ],
      { dataDesejada: '2027-06-01' },
    );
    const b = await dfd(sau, saude, [[p.limpeza, '12', '100']], { dataDesejada: '2027-06-01' });
    let plano = await novoPlano(setorAutoridade);
    plano = await json<Plano>(await consolidar(plano, [a], setorAutoridade), 200);
    const manual = await json<{ id: string }>(
      await pca(`/${plano.id}/itens-manuais`, setorAutoridade, {
        json: {
          produtoId: p.clips,
          categoriaItemPca: 1,
          quantidade: '5',
          valorUnitario: '1,5',
          dataDesejada: '15/03/2027',
          justificativa: 'Reserva do almoxarifado central.',
        },
      }),
      201,
    );
    const caneta = (await ler(plano, setorAutoridade)).itens.find((i) => i.descricao === 'Caneta esferográfica azul')!.numeroItem;
    const contratacao = {
      titulo: 'Material de expediente',
      categoriaItemPca: 1,
      prioridade: 'alta',
      inicio: '01/11/2026',
      fim: '2027-04-30',
      numerosItem: [caneta],
    };
    const planejada = await json<{ id: string }>(await pca(`/${plano.id}/contratacoes`, setorAutoridade, { json: contratacao }), 201);
    plano = await json<Plano>(await agir(await ler(plano, setorAutoridade), 'enviar', setorAutoridade), 200);
    plano = await json<Plano>(await agir(plano, 'aprovar', autoridade), 200);
    type Lido = Plano & Record<'manuais' | 'contratacoes' | 'totais' | 'fracionamento', unknown> & { versao: number; revisao: unknown };
    const comoEsta = async () => {
      const { itens, memorandos, manuais, contratacoes, totais, fracionamento, valorTotal, versao, status, revisao } = (await ler(plano, setor)) as Lido;
      return { itens, memorandos: memorandos.map((m) => m.id), manuais, contratacoes, totais, fracionamento, valorTotal, versao, status, revisao };
    };
    const aprovado = await comoEsta();
    expect(aprovado).toMatchObject({ status: 'aprovado', versao: 1, valorTotal: '32.5000', memorandos: [a] });
    const revisar = async () => {
      plano = await json<Plano>(
        await pca(`/${plano.id}/revisar`, setor, { json: { version: plano.version, justificativa: 'Inclusão da limpeza predial.' } }),
        200,
      );
    };
    await revisar();
    // the revision: DFD a out (freed), b in, the line without DFD and the contratação gone
    plano = await json<Plano>(await consolidar(await ler(plano), [b]), 200);
    expect((await pca(`/${plano.id}/itens-manuais/${manual.id}`, setor, { method: 'DELETE' })).status).toBe(204);
    expect((await pca(`/${plano.id}/contratacoes/${planejada.id}`, setor, { method: 'DELETE' })).status).toBe(204);
    const emRevisao = await comoEsta();
    expect(emRevisao).toMatchObject({ status: 'em_revisao', versao: 2, memorandos: [b], manuais: [], contratacoes: [] });
    expect((await ler(plano)).transicoes).toContain('desistir');
    // only the setor gives a revision up
    expect((await agir(await ler(plano), 'desistir', autoridade)).status).toBe(403);
    plano = await json<Plano>(await agir(await ler(plano), 'desistir', setor), 200);
    expect(await comoEsta()).toEqual(aprovado);
    // b left with the revision: another plan takes it
    let outro = await novoPlano();
    outro = await json<Plano>(await consolidar(outro, [b]), 200);
    expect((await comoEsta()).memorandos).toEqual([a]);
    // published, revised again: a goes to the other plan meanwhile, so the version cannot come back (409 naming it)
    plano = await json<Plano>(await agir(await ler(plano), 'publicar', setor), 200);
    const publicado = await comoEsta();
    await revisar();
    plano = await json<Plano>(await consolidar(await ler(plano), []), 200);
    outro = await json<Plano>(await consolidar(await ler(outro), [a, b]), 200);
    const naoVolta = await json<ErrorBody>(await agir(await ler(plano), 'desistir', setor), 409);
    expect(naoVolta.error.message).toBe(
      `Não é possível voltar à versão 1: Este memorando já está consolidado no Plano de Contratações Anual ${outro.numero}/${outro.ano}.`,
    );
    expect((await comoEsta()).status).toBe('em_revisao');
    // a leaves the other plan: the published version comes back, published
    await json(await consolidar(await ler(outro), [b]), 200);
    plano = await json<Plano>(await agir(await ler(plano), 'desistir', setor), 200);
    expect(await comoEsta()).toEqual(publicado);
    const versoes = await t.server.sql<{ versao: number }>('SELECT versao FROM pca_versoes WHERE plano_id = $1 ORDER BY versao', [plano.id]);
    expect(versoes).toEqual([{ versao: 1 }]);
    const acoes = await t.server.sql<{ acao: string }>(
      "SELECT acao FROM audit_log WHERE plugin = 'pca' AND registro = $1 AND acao IN ('revisar', 'desistir', 'publicar') ORDER BY id",
      [plano.id],
    );
    expect(acoes.map((r) => r.acao)).toEqual(['revisar', 'desistir', 'publicar', 'revisar', 'desistir']);
  });

  it('reports the year by category at /reports (the kit RELATORIOS): refused items and other years out, the setor its centros only, hostile year 400', async () => {
    const a = await dfd(
      edu,
      educacao,
      [
        [p.caneta, '10', '2'],
        [p.clips, '5', '1'],
        [p.limpeza, '3', '0,3333'],
      ],
      { anoPca: 2031, dataDesejada: '2031-05-01' },
    );
    let plano = await novoPlano(setorAutoridade, 2031);
    plano = await json<Plano>(
      await pca(`/${plano.id}`, setorAutoridade, {
        method: 'PUT',
        json: { version: plano.version, anoPca: 2031, codigoUnidade: plano.codigoUnidade, centroCustoId: compras, memorandoIds: [a] },
      }),
      200,
    );
    plano = await json<Plano>(await agir(await ler(plano, setorAutoridade), 'enviar', setorAutoridade), 200);
    const caneta = (await ler(plano, autoridade)).itens.find((i) => i.descricao === 'Caneta esferográfica azul') as Item & { id: string };
    await json(await pca(`/${plano.id}/itens/${caneta.id}/recusar`, autoridade, { json: { motivo: 'Sem orçamento no exercício.' } }), 200);
    const leitor = await t.server.createUser({ login: 'leitorpca', tags: [PCA_TAG, 105], centros: [compras] });
    const deOutroCentro = await t.server.createUser({ login: 'outropca', tags: [PCA_TAG, 105], centros: [saude] });
    const relatorio = (u: { token: string }, query: string) => t.server.request(`/api/relatorios/pca.por-categoria/linhas${query}`, { token: u.token });
    const r = await json<{ linhas: unknown[]; totais: Record<string, string> }>(await relatorio(leitor, '?ano=2031'), 200);
    const numero = `${plano.numero}/${plano.ano}`;
    expect(r.linhas).toEqual([
      { plano: numero, situacao: 'Em aprovação', categoria: 'Material', itens: 1, valor: '5.0000' },
      { plano: numero, situacao: 'Em aprovação', categoria: 'Serviço', itens: 1, valor: '0.9999' },
    ]);
    expect(r.totais).toEqual({ itens: '2', valor: '5.9999' });
    expect((await json<{ linhas: unknown[] }>(await relatorio(deOutroCentro, '?ano=2031'), 200)).linhas).toEqual([]);
    expect((await json<{ linhas: unknown[] }>(await relatorio(leitor, '?ano=2031&situacao=aprovado'), 200)).linhas).toEqual([]);
    expect((await json<ErrorBody>(await relatorio(leitor, '?ano=1999'), 400)).error.fields).toEqual({ ano: 'Ano do plano: ano inválido (de 2000 a 2100).' });
    expect((await relatorio(setor, '?ano=2031')).status).toBe(403);
  });

  it('on the home page (the kit INDICADORES): the year requisições em aprovação and aprovadas against the approved plan of the year, in the person scope', async () => {
    const ano = Number(today().slice(0, 4));
    // the controle of the whole entidade: every centro, the PCA tags
    const gestor = await t.server.createUser({ login: 'gestor.pca', tags: [PCA_TAG, PCA_APROVAR_TAG], todosCentros: true });
    const indicador = async (u: { token: string }) =>
      (await json<{ items: { id: string }[] }>(await t.server.request('/api/indicadores', { token: u.token }), 200)).items.find(
        (i) => i.id === 'pca.gasto-contra-plano',
      );
    const a = await dfd(edu, educacao, [[p.clips, '10', '100']], { anoPca: ano, dataDesejada: `${ano}-12-20` });
    let plano = await novoPlano(setorAutoridade, ano);
    plano = await json<Plano>(
      await pca(`/${plano.id}`, setorAutoridade, {
        method: 'PUT',
        json: { version: plano.version, anoPca: ano, codigoUnidade: plano.codigoUnidade, centroCustoId: compras, memorandoIds: [a] },
      }),
      200,
    );
    plano = await json<Plano>(await agir(await ler(plano, setorAutoridade), 'enviar', setorAutoridade), 200);
    // not approved yet: nothing planned, nothing requested → no figure
    expect(await indicador(gestor)).toBeUndefined();
    plano = await json<Plano>(await agir(plano, 'aprovar', autoridade), 200);
    const tipo = await t.server.insert('registros_tipos_solicitacao', { entidade_id: entidadeId, nome: 'Material de expediente' });
    const req = await t.server.createUser({ login: 'req.indicador', tags: [39], centros: [educacao] });
    // one approval level, so that a requisição sent waits em aprovação
    const chefia = await t.server.insert('perfis', { entidade_id: entidadeId, nome: 'Chefia', tags: [39], todos_centros: false });
    const admin = await t.server.signIn(undefined, undefined, entidadeId);
    await json(
      await t.server.request('/api/requisicoes/alcadas', { token: admin.token, json: { nivel: 1, nome: 'Chefia', valorMinimo: '0', perfis: [chefia] } }),
      201,
    );
    const enviada = async (valorUnitario: string) => {
      const r = await json<{ id: string; version: number }>(
        await t.server.request('/api/requisicoes/requisicoes', {
          token: req.token,
          json: {
            centroCustoId: educacao,
            tipoSolicitacaoId: tipo,
            categoria: 'compras',
            dotacao: '02.01.12.361.0002.2.010 3.3.90.30',
            justificativa: 'Material para as escolas.',
            itens: [{ produtoId: p.clips, quantidade: '1', valorUnitario }],
          },
        }),
        201,
      );
      return json<{ status: string }>(
        await t.server.request(`/api/requisicoes/requisicoes/${r.id}/enviar`, { token: req.token, json: { version: r.version } }),
        200,
      );
    };
    expect((await enviada('799.99')).status).toBe('em_aprovacao');
    expect(await indicador(gestor)).toEqual({
      id: 'pca.gasto-contra-plano',
      label: 'Solicitado no ano × Plano de Contratações Anual',
      href: `/reports/pca.por-categoria?ano=${ano}`,
      valor: 'R$ 799,99 de R$ 1.000,00',
      nivel: 'normal',
      detalhe: `79,9 % do planejado para ${ano}.`,
    });
    await enviada('0.01');
    expect(await indicador(gestor)).toMatchObject({
      valor: 'R$ 800,00 de R$ 1.000,00',
      nivel: 'atencao',
      detalhe: `80,0 % do planejado para ${ano}: perto do total do plano.`,
    });
    await enviada('200.01');
    expect(await indicador(gestor)).toMatchObject({
      valor: 'R$ 1.000,01 de R$ 1.000,00',
      nivel: 'critico',
      detalhe: `100,0 % do planejado para ${ano}: acima do plano.`,
    });
    // the autoridade without centros: the plan, but no requisição in her scope; the setor of another centro:
    // neither; without the PCA tag: no indicator
    expect(await indicador(autoridade)).toMatchObject({ valor: 'R$ 0,00 de R$ 1.000,00', nivel: 'normal', detalhe: `0,0 % do planejado para ${ano}.` });
    expect(await indicador(alheio)).toBeUndefined();
    expect(await indicador(semTag)).toBeUndefined();
  });

  it('prints the plan (PDF) with its items', async () => {
    const a = await dfd(edu, educacao, [[p.caneta, '4', '2,5000']]);
    const plano = await novoPlano();
    await json(await consolidar(plano, [a]), 200);
    const res = await pca(`/${plano.id}.pdf`, setor);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(new TextDecoder().decode((await res.arrayBuffer()).slice(0, 5))).toBe('%PDF-');
  });
});
