import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeContratacao, type FakePncp, startFakePncp } from '../src';

let fake: FakePncp;
beforeEach(async () => {
  fake = await startFakePncp();
});
afterEach(async () => {
  await fake.close();
});

const ORGAO = { cnpj: '11222333000181', nome: 'Município de Campinas', uf: 'SP', municipio: 'Campinas' };

const papel: FakeContratacao = {
  orgao: ORGAO,
  ano: 2026,
  sequencial: 42,
  dataPublicacao: '2026-05-10',
  objeto: 'Aquisição de material de expediente',
  itens: [
    {
      numeroItem: 1,
      descricao: 'Papel A4 branco, 75 g/m², resma com 500 folhas',
      unidadeMedida: 'Resma',
      quantidade: '1200',
      valorUnitarioEstimado: '27.9000',
      catalogoCodigoItem: '150012',
      resultados: [
        {
          valorUnitarioHomologado: '24.8700',
          quantidadeHomologada: '1200',
          niFornecedor: '44555666000177',
          nomeRazaoSocialFornecedor: 'Papelaria Paulista Ltda',
          dataResultado: '2026-06-02',
        },
      ],
    },
    {
      numeroItem: 2,
      descricao: 'Caneta esferográfica azul',
      unidadeMedida: 'Unidade',
      quantidade: '500',
      catalogoCodigoItem: '279563',
      resultados: [],
    },
  ],
};

const cafe: FakeContratacao = {
  orgao: { cnpj: '99888777000166', nome: 'Câmara Municipal de Sorocaba', uf: 'SP', municipio: 'Sorocaba' },
  ano: 2026,
  sequencial: 7,
  dataPublicacao: '2026-09-01',
  itens: [
    {
      numeroItem: 3,
      descricao: 'PAPEL SULFITE A4 - RESMA',
      unidadeMedida: 'Pacote',
      quantidade: '100.5',
      catalogoCodigoItem: '150012',
      resultados: [
        {
          valorUnitarioHomologado: '26.1234',
          quantidadeHomologada: '60',
          niFornecedor: '12345678909',
          nomeRazaoSocialFornecedor: 'João da Silva',
          dataResultado: '2026-09-20',
          percentualDesconto: '3.5',
        },
        {
          valorUnitarioHomologado: '26.5',
          quantidadeHomologada: '40.5',
          niFornecedor: '55666777000188',
          nomeRazaoSocialFornecedor: 'Distribuidora Sorocabana S.A.',
          dataResultado: '2026-09-21',
        },
      ],
    },
  ],
};

const search = (query: string) => fetch(`${fake.url}/api/consulta/v1/itens-resultado?${query}`);

describe('price-source consultation', () => {
  it('answers 204 with no body when nothing matches', async () => {
    const empty = await search('codigoItemCatalogo=150012&dataInicial=2025-12-01&dataFinal=2026-11-30&pagina=1');
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe('');
    fake.addContratacao(papel);
    const none = await search('codigoItemCatalogo=999999&dataInicial=2025-12-01&dataFinal=2026-11-30&pagina=1');
    expect(none.status).toBe(204);
    const outside = await search('codigoItemCatalogo=150012&dataInicial=2026-06-03&dataFinal=2026-11-30&pagina=1');
    expect(outside.status).toBe(204);
  });

  it('finds homologated results by catalogue code or description, newest first, in the consultation envelope', async () => {
    fake.addContratacao(papel);
    fake.addContratacao(cafe);
    const res = await search('codigoItemCatalogo=150012&dataInicial=2025-12-01&dataFinal=2026-11-30&pagina=1&tamanhoPagina=10');
    expect(res.status).toBe(200);
    const raw = await res.text();
    expect(raw).toContain('"valorUnitarioHomologado":26.1234');
    expect(raw).toContain('"valorUnitarioHomologado":24.8700');
    const body = JSON.parse(raw);
    expect(body).toMatchObject({ totalRegistros: 3, totalPaginas: 1, numeroPagina: 1, paginasRestantes: 0, empty: false });
    expect(body.data.map((r: { dataResultado: string }) => r.dataResultado)).toEqual(['2026-09-21', '2026-09-20', '2026-06-02']);
    expect(body.data[2]).toMatchObject({
      orgaoEntidadeCnpj: ORGAO.cnpj,
      orgaoEntidadeRazaoSocial: 'Município de Campinas',
      unidadeOrgaoUfSigla: 'SP',
      unidadeOrgaoMunicipioNome: 'Campinas',
      anoCompra: 2026,
      sequencialCompra: 42,
      numeroItem: 1,
      sequencialResultado: 1,
      descricaoItem: 'Papel A4 branco, 75 g/m², resma com 500 folhas',
      codigoItemCatalogo: '150012',
      unidadeMedida: 'Resma',
      quantidade: 1200,
      quantidadeHomologada: 1200,
      valorUnitarioHomologado: 24.87,
      valorTotalHomologado: 29844,
      niFornecedor: '44555666000177',
      nomeRazaoSocialFornecedor: 'Papelaria Paulista Ltda',
      numeroControlePNCPCompra: `${ORGAO.cnpj}-1-000042/2026`,
      dataPublicacaoPncp: '2026-05-10',
    });
    // Description search ignores case and accents.
    const byText = await search(`descricao=${encodeURIComponent('SULFITE')}&dataInicial=2026-01-01&dataFinal=2026-12-31`);
    expect((await byText.json()).totalRegistros).toBe(2);
    const accents = await search(`descricao=${encodeURIComponent('esferografica')}&dataInicial=2026-01-01&dataFinal=2026-12-31`);
    expect(accents.status).toBe(204); // the pen has no result
  });

  it('pages with tamanhoPagina 10..50 and rejects other sizes and bad dates with 400', async () => {
    const many: FakeContratacao = {
      ...papel,
      itens: [
        {
          ...papel.itens[0]!,
          resultados: Array.from({ length: 23 }, (_, i) => ({
            valorUnitarioHomologado: `${20 + i}.5`,
            quantidadeHomologada: '1',
            niFornecedor: '44555666000177',
            nomeRazaoSocialFornecedor: 'Papelaria Paulista Ltda',
            dataResultado: `2026-07-${String(i + 1).padStart(2, '0')}`,
          })),
        },
      ],
    };
    fake.addContratacao(many);
    const page3 = await (await search('codigoItemCatalogo=150012&dataInicial=2026-01-01&dataFinal=2026-12-31&pagina=3&tamanhoPagina=10')).json();
    expect(page3).toMatchObject({ totalRegistros: 23, totalPaginas: 3, numeroPagina: 3, paginasRestantes: 0 });
    expect(page3.data).toHaveLength(3);
    const page1 = await (await search('codigoItemCatalogo=150012&dataInicial=2026-01-01&dataFinal=2026-12-31&pagina=1&tamanhoPagina=10')).json();
    expect(page1.paginasRestantes).toBe(2);
    expect((await search('codigoItemCatalogo=150012&dataInicial=2026-01-01&dataFinal=2026-12-31&pagina=4&tamanhoPagina=10')).status).toBe(204);
    for (const size of ['9', '51', 'x']) {
      const bad = await search(`dataInicial=2026-01-01&dataFinal=2026-12-31&pagina=1&tamanhoPagina=${size}`);
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({ erros: [{ nomeCampo: 'tamanhoPagina', mensagem: 'Tamanho de página deve estar entre 10 e 50.' }] });
    }
    const dates = await search('dataInicial=20260101&pagina=1');
    expect((await dates.json()).erros.map((e: { nomeCampo: string }) => e.nomeCampo)).toEqual(['dataInicial', 'dataFinal']);
  });

  it('serves the items and results of a contratação on the integration API', async () => {
    fake.addContratacao(papel);
    const base = `${fake.url}/api/pncp/v1/orgaos/${ORGAO.cnpj}/compras/2026/42`;
    const itens = await fetch(`${base}/itens?pagina=1&tamanhoPagina=10`);
    expect(itens.status).toBe(200);
    const list = await itens.json();
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({
      numeroItem: 1,
      descricao: papel.itens[0]?.descricao,
      unidadeMedida: 'Resma',
      quantidade: 1200,
      valorUnitarioEstimado: 27.9,
      valorTotal: 33480,
      catalogoCodigoItem: '150012',
      temResultado: true,
      materialOuServico: 'M',
    });
    expect(list[1]).toMatchObject({ temResultado: false, valorUnitarioEstimado: 0, orcamentoSigiloso: true });
    const resultados = await (await fetch(`${base}/itens/1/resultados`)).json();
    expect(resultados).toEqual([
      expect.objectContaining({
        sequencialResultado: 1,
        valorUnitarioHomologado: 24.87,
        quantidadeHomologada: 1200,
        niFornecedor: '44555666000177',
        nomeRazaoSocialFornecedor: 'Papelaria Paulista Ltda',
        dataResultado: '2026-06-02',
        numeroControlePNCPCompra: `${ORGAO.cnpj}-1-000042/2026`,
      }),
    ]);
    expect(await (await fetch(`${base}/itens/2/resultados`)).json()).toEqual([]);
    expect((await fetch(`${base}/itens/9/resultados`)).status).toBe(404);
    expect((await fetch(`${fake.url}/api/pncp/v1/orgaos/${ORGAO.cnpj}/compras/2026/43/itens`)).status).toBe(404);
  });

  it('refuses a fixture whose decimals are not decimal texts', () => {
    const bad = structuredClone(papel);
    bad.itens[0]!.resultados[0]!.valorUnitarioHomologado = '24,87';
    expect(() => fake.addContratacao(bad)).toThrow("addContratacao: '24,87' (item 1) is not a decimal text like '12.3456'");
  });

  it('keeps its own copy of a fixture', async () => {
    const copy = structuredClone(papel);
    fake.addContratacao(copy);
    copy.itens = [];
    const res = await fetch(`${fake.url}/api/pncp/v1/orgaos/${ORGAO.cnpj}/compras/2026/42/itens`);
    expect(await res.json()).toHaveLength(2);
  });
});
