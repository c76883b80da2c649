// "Buscar no PNCP" in a cotação, against a PNCP that behaves like the real one (@app/pncp-fake), on a real
// database (PGlite; PostgreSQL too with TEST_DATABASE_URL): homologated prices of similar contratações of
// the last year by CATMAT/CATSER code or description, paged, exact decimals; the chosen rows become prices
// of source II with the PNCP's row kept as a JSON evidence (SHA-256) that the memória de cálculo names;
// nothing found (204), a rate limit (429 with Retry-After), an outage (503) and a timeout each told in
// pt-BR; answers cached briefly; the cotação's scope, state and tag checked.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { today } from '@app/br';
import cotacoesPlugin from '@app/cotacoes/server';
import fornecedoresPlugin from '@app/fornecedores/server';
import memorandosPlugin from '@app/memorandos/server';
import pcaPlugin from '@app/pca/server';
import { type FakePncp, startFakePncp } from '@app/pncp-fake';
import produtosPlugin from '@app/produtos/server';
import registrosPlugin from '@app/registros/server';
import requisicoesPlugin from '@app/requisicoes/server';
import { describeEachDatabase, withoutSeed } from '@app/server-core/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { definePncpPlugin } from '../../src/server/index.js';

// exceljs through server-core (which writes the XLSX); only what the test reads of it
type Worksheet = { eachRow(cb: (row: { values: unknown }) => void): void };
type Workbook = { xlsx: { load(b: unknown): Promise<unknown> }; getWorksheet(nome: string): Worksheet | undefined };
const ExcelJS = createRequire(import.meta.resolve('@app/server-core'))('exceljs') as { Workbook: new () => Workbook };

type Busca = {
  itens: {
    ref: string;
    descricao: string;
    unidade: string;
    unidadeDiferente: boolean;
    valorUnitario: string;
    quantidade: string | null;
    orgao: string;
    local: string | null;
    fornecedor: string | null;
    data: string;
    link: string | null;
    fonteDescricao: string;
    jaIncluido: boolean;
  }[];
  pagina: number;
  totalPaginas: number;
  total: number;
  dataInicial: string;
  dataFinal: string;
};
type Preco = {
  id: string;
  produtoId: string;
  fonte: string;
  fonteDescricao: string;
  valorUnitario: string;
  dataColeta: string;
  link: string | null;
  evidencia: { id: string; nome: string; tipo: string; tamanho: number; sha256: string } | null;
};
type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

/** 'aaaa-mm-dd' of today + `dias` (São Paulo's calendar, as the server's). */
function dia(dias = 0): string {
  const d = new Date(`${today()}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + dias);
  return d.toISOString().slice(0, 10);
}

const CATMAT_PAPEL = '461780';
let fake: FakePncp;
/** Which engine's suite runs (the source's 5-minute cache lives as long as the plugin: each suite asks its own searches). */
let rodada = 0;
const fakeReady = startFakePncp().then((f) => {
  fake = f;
  // three contratações with results: two recent ones for the paper (by code), one older than a year, and
  // a service found only by its description
  f.addContratacao({
    orgao: { cnpj: '11222333000181', nome: 'Prefeitura Municipal de Exemplo', uf: 'MG', municipio: 'Exemplo' },
    ano: 2026,
    sequencial: 12,
    dataPublicacao: dia(-60),
    objeto: 'Material de expediente',
    itens: [
      {
        numeroItem: 3,
        descricao: 'Papel A4 sulfite 75 g/m², resma com 500 folhas',
        unidadeMedida: 'Resma',
        quantidade: '300',
        catalogoCodigoItem: CATMAT_PAPEL,
        resultados: [
          {
            valorUnitarioHomologado: '24.3975',
            quantidadeHomologada: '300',
            niFornecedor: '12345678000190',
            nomeRazaoSocialFornecedor: 'Papelaria Central Ltda',
            dataResultado: dia(-30),
          },
        ],
      },
    ],
  });
  f.addContratacao({
    orgao: { cnpj: '44555666000172', nome: 'Câmara Municipal de Outra Cidade', uf: 'SP', municipio: 'Outra Cidade' },
    ano: 2026,
    sequencial: 7,
    dataPublicacao: dia(-120),
    itens: [
      {
        numeroItem: 1,
        descricao: 'Papel sulfite A4 branco',
        unidadeMedida: 'Caixa',
        quantidade: '40',
        catalogoCodigoItem: CATMAT_PAPEL,
        resultados: [
          {
            valorUnitarioHomologado: '119.9',
            quantidadeHomologada: '40',
            niFornecedor: '98765432000110',
            nomeRazaoSocialFornecedor: 'Distribuidora Sul S.A.',
            dataResultado: dia(-100),
          },
        ],
      },
    ],
  });
  f.addContratacao({
    orgao: { cnpj: '77888999000155', nome: 'Autarquia Antiga', uf: 'RJ', municipio: 'Rio de Janeiro' },
    ano: 2024,
    sequencial: 99,
    dataPublicacao: dia(-500),
    itens: [
      {
        numeroItem: 1,
        descricao: 'Papel A4 antigo',
        unidadeMedida: 'Resma',
        quantidade: '10',
        catalogoCodigoItem: CATMAT_PAPEL,
        resultados: [
          {
            valorUnitarioHomologado: '15',
            quantidadeHomologada: '10',
            niFornecedor: '11111111000111',
            nomeRazaoSocialFornecedor: 'Velha Ltda',
            dataResultado: dia(-400),
          },
        ],
      },
    ],
  });
  f.addContratacao({
    orgao: { cnpj: '11222333000181', nome: 'Prefeitura Municipal de Exemplo', uf: 'MG', municipio: 'Exemplo' },
    ano: 2026,
    sequencial: 13,
    dataPublicacao: dia(-20),
    itens: Array.from({ length: 25 }, (_, i) => ({
      numeroItem: i + 1,
      descricao: `Grampeador de mesa modelo ${i + 1}`,
      unidadeMedida: 'Unidade',
      quantidade: '5',
      resultados: [
        {
          valorUnitarioHomologado: `${20 + i}.5`,
          quantidadeHomologada: '5',
          niFornecedor: '12345678000190',
          nomeRazaoSocialFornecedor: 'Papelaria Central Ltda',
          dataResultado: dia(-10 - i),
        },
      ],
    })),
  });
  return f;
});
const pncp = definePncpPlugin({
  get apiUrl() {
    return fake ? `${fake.url}/api/pncp` : 'http://127.0.0.1:9/api/pncp';
  },
  get consultaUrl() {
    return fake ? `${fake.url}/api/consulta` : 'http://127.0.0.1:9/api/consulta';
  },
  timeoutMs: 1_500,
});

describeEachDatabase(
  '@app/pncp: "Buscar no PNCP" in a cotação',
  {
    plugins: [
      registrosPlugin,
      produtosPlugin,
      fornecedoresPlugin,
      withoutSeed(memorandosPlugin),
      withoutSeed(requisicoesPlugin),
      withoutSeed(cotacoesPlugin),
      withoutSeed(pcaPlugin),
      pncp,
    ],
  },
  (t) => {
    let comprador: string;
    let outroCentro: string;
    let semTag: string;
    let papel: string;
    let grampeador: string;
    let cotacao: string;
    let educacao: string;

    const req = async <R>(path: string, token: string, init: { method?: string; json?: unknown } = {}, status = 200): Promise<R> => {
      const res = await t.server.request(path, { token, ...init });
      const text = await res.text();
      if (res.status !== status) throw new Error(`${init.method ?? 'GET'} ${path}: expected ${status}, got ${res.status}: ${text}`);
      return (text ? JSON.parse(text) : null) as R;
    };
    const base = () => `/api/cotacoes/cotacoes/${cotacao}`;
    const buscar = (q: Record<string, string>, token = comprador, status = 200) =>
      req<Busca>(`${base()}/fontes-externas/pncp?${new URLSearchParams(q)}`, token, {}, status);
    const incluir = (body: Record<string, unknown>, status = 201, token = comprador) =>
      req<{ items: Preco[] }>(`${base()}/fontes-externas/pncp`, token, { method: 'POST', json: body }, status);
    const chamadasDeConsulta = () => fake.calls.filter((c) => c.path.startsWith('/api/consulta/')).length;

    beforeAll(async () => {
      rodada += 1;
      await fakeReady;
      const { prefeitura } = await t.server.demoEntidades();
      const centro = async (codigo: string) =>
        (await t.server.sql<{ id: string }>('SELECT id FROM registros_centros_custo WHERE entidade_id = $1 AND codigo = $2', [prefeitura, codigo]))[0]!.id;
      educacao = await centro('02');
      const saude = await centro('03');
      const produto = async (like: string) =>
        (
          await t.server.sql<{ id: string }>('SELECT id FROM produtos WHERE entidade_id = $1 AND ativo AND descricao ILIKE $2 ORDER BY codigo LIMIT 1', [
            prefeitura,
            like,
          ])
        )[0]!.id;
      papel = await produto('Papel%');
      grampeador = await produto('Grampeador%');
      await t.server.sql('UPDATE produtos SET codigo_catalogo = $1 WHERE id = $2', [CATMAT_PAPEL, papel]);
      await t.server.sql('UPDATE produtos SET codigo_catalogo = NULL WHERE id = $1', [grampeador]);
      comprador = (await t.server.createUser({ login: 'pncp-precos-comprador', nome: 'Carla Compradora', tags: [73], centros: [educacao] })).token;
      outroCentro = (await t.server.createUser({ login: 'pncp-precos-saude', tags: [73], centros: [saude] })).token;
      semTag = (await t.server.createUser({ login: 'pncp-precos-semtag', tags: [39], centros: [educacao] })).token;
      cotacao = (
        await req<{ id: string }>(
          '/api/cotacoes/cotacoes',
          comprador,
          {
            method: 'POST',
            json: {
              objeto: 'Material de expediente para as escolas',
              centroCustoId: educacao,
              dataReferencia: dia(),
              metodo: 'media',
              iterar: false,
              itens: [
                { produtoId: papel, quantidade: '10' },
                { produtoId: grampeador, quantidade: '2' },
              ],
            },
          },
          201,
        )
      ).id;
    });
    afterAll(() => undefined);

    it('lists the PNCP among the external sources; the mapa gives each item its catalogue code', async () => {
      const fontes = await req<{ items: { id: string; nome: string; acao: string; fonte: string }[] }>('/api/cotacoes/fontes-externas', comprador);
      expect(fontes.items).toEqual([expect.objectContaining({ id: 'pncp', nome: 'PNCP', acao: 'Buscar no PNCP', fonte: 'contrato' })]);
      const mapa = await req<{ itens: { produtoId: string; codigoCatalogo: string | null }[] }>(`${base()}/mapa`, comprador);
      expect(mapa.itens.find((i) => i.produtoId === papel)?.codigoCatalogo).toBe(CATMAT_PAPEL);
    });

    it('by CATMAT code: the results of the last year up to the reference date, newest first, exact decimals, a different unit flagged', async () => {
      const r = await buscar({ produtoId: papel, codigo: CATMAT_PAPEL });
      expect(r.dataFinal).toBe(dia());
      expect(r.dataInicial).toBe(`${Number(dia().slice(0, 4)) - 1}${dia().slice(4)}`.replace(/-02-29$/, '-02-28'));
      expect(r.total).toBe(2); // the result of 400 days ago is out
      expect(r.itens.map((i) => [i.orgao, i.valorUnitario, i.unidade, i.data, i.jaIncluido])).toEqual([
        ['Prefeitura Municipal de Exemplo', '24.3975', 'Resma', dia(-30), false],
        ['Câmara Municipal de Outra Cidade', '119.9', 'Caixa', dia(-100), false],
      ]);
      const [resma, caixa] = r.itens as [Busca['itens'][number], Busca['itens'][number]];
      // the item's unit is the catalogue's (RESMA, UN…): 'Resma' is the same, 'Caixa' is not
      const mapa = await req<{ itens: { produtoId: string; unidade: string }[] }>(`${base()}/mapa`, comprador);
      const unidadePapel = mapa.itens.find((i) => i.produtoId === papel)!.unidade;
      expect(caixa.unidadeDiferente).toBe(true);
      if (/^resma$/i.test(unidadePapel)) expect(resma.unidadeDiferente).toBe(false);
      expect(resma.local).toBe('Exemplo/MG');
      expect(resma.fornecedor).toBe('Papelaria Central Ltda');
      expect(resma.link).toBe(`${new URL(fake.url).origin}/app/editais/11222333000181/2026/12`);
      expect(resma.fonteDescricao).toBe(
        'PNCP, contratação 11222333000181-1-000012/2026, item 3, resultado 1: Prefeitura Municipal de Exemplo (Exemplo/MG); fornecedor Papelaria Central Ltda',
      );
    });

    it('by description, paged (20 a page); an item without a code; nothing found is an empty page (the PNCP answered 204)', async () => {
      const p1 = await buscar({ produtoId: grampeador, descricao: 'grampeador de mesa' });
      expect([p1.total, p1.totalPaginas, p1.pagina, p1.itens.length]).toEqual([25, 2, 1, 20]);
      const p2 = await buscar({ produtoId: grampeador, descricao: 'grampeador de mesa', pagina: '2' });
      expect([p2.pagina, p2.itens.length]).toEqual([2, 5]);
      expect(new Set([...p1.itens, ...p2.itens].map((i) => i.ref)).size).toBe(25);
      const antes = fake.calls.length;
      const nada = await buscar({ produtoId: grampeador, descricao: `impressora a laser ${rodada}` });
      expect(nada).toMatchObject({ itens: [], total: 0, totalPaginas: 0 });
      expect(fake.calls.slice(antes).map((c) => c.status)).toEqual([204]);
    });

    it('refuses a search with nothing to search, an item of another cotação, another centro (404), no tag (403)', async () => {
      const vazio = (await buscar({ produtoId: papel }, comprador, 400)) as unknown as ErrorBody;
      expect(vazio.error.fields?.descricao).toBe('Informe o código do catálogo ou ao menos 3 letras da descrição.');
      const letras = (await buscar({ produtoId: papel, codigo: 'abc' }, comprador, 400)) as unknown as ErrorBody;
      expect(letras.error.fields?.codigo).toBe('O código do catálogo tem só algarismos.');
      const outro = (await buscar({ produtoId: '00000000-0000-4000-8000-000000000000', codigo: CATMAT_PAPEL }, comprador, 400)) as unknown as ErrorBody;
      expect(outro.error.fields?.produtoId).toBe('Escolha um item desta cotação.');
      await buscar({ produtoId: papel, codigo: CATMAT_PAPEL }, outroCentro, 404);
      await buscar({ produtoId: papel, codigo: CATMAT_PAPEL }, semTag, 403);
      await req(`${base()}/fontes-externas/outra?produtoId=${papel}&codigo=1`, comprador, {}, 404);
    });

    it('includes the chosen rows as prices of source II, each with the PNCP row as JSON evidence (SHA-256), audited; the memória names them', async () => {
      const r = await buscar({ produtoId: papel, codigo: CATMAT_PAPEL });
      const chamadas = chamadasDeConsulta();
      const criados = await incluir({ produtoId: papel, codigo: CATMAT_PAPEL, refs: r.itens.map((i) => i.ref) });
      // the same page came from the cache: the PNCP was not asked again
      expect(chamadasDeConsulta()).toBe(chamadas);
      expect(criados.items.map((p) => [p.fonte, p.valorUnitario, p.fonteDescricao, p.link])).toEqual(
        r.itens.map((i) => ['contrato', i.valorUnitario, i.fonteDescricao, i.link]),
      );
      expect(criados.items[0]!.dataColeta.slice(0, 10)).toBe(dia(-30));
      const ev = criados.items[0]!.evidencia!;
      expect(ev).toMatchObject({ tipo: 'application/json', nome: 'pncp-11222333000181-1-000012-2026-3-1.json' });

      // the evidence: what was asked, when, and the PNCP's row as it came
      const res = await t.server.request(`${base()}/evidencias/${ev.id}`, { token: comprador });
      expect(res.status).toBe(200);
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(ev.sha256);
      expect(res.headers.get('x-content-sha256')).toBe(ev.sha256);
      const snapshot = JSON.parse(new TextDecoder().decode(bytes)) as {
        fonte: string;
        consulta: string;
        consultadoEm: string;
        registro: Record<string, unknown>;
      };
      expect(snapshot.fonte).toBe('PNCP');
      expect(snapshot.consulta).toContain(`/api/consulta/v1/itens-resultado?`);
      expect(snapshot.consulta).toContain(`codigoItemCatalogo=${CATMAT_PAPEL}`);
      expect(snapshot.registro).toMatchObject({
        numeroControlePNCPCompra: '11222333000181-1-000012/2026',
        numeroItem: 3,
        sequencialResultado: 1,
        valorUnitarioHomologado: '24.3975',
        nomeRazaoSocialFornecedor: 'Papelaria Central Ltda',
      });

      // audited: the evidence and the price, in the cotação's trail
      const audit = await t.server.sql<{ acao: string }>("SELECT acao FROM audit_log WHERE plugin = 'cotacoes' AND registro = $1 ORDER BY id", [cotacao]);
      expect(audit.map((a) => a.acao).filter((a) => a !== 'criar')).toEqual(['enviar_evidencia', 'incluir_preco', 'enviar_evidencia', 'incluir_preco']);

      // the search now marks them; including one again is refused
      const depois = await buscar({ produtoId: papel, codigo: CATMAT_PAPEL });
      expect(depois.itens.map((i) => i.jaIncluido)).toEqual([true, true]);
      const dup = (await incluir({ produtoId: papel, codigo: CATMAT_PAPEL, refs: [r.itens[0]!.ref] }, 409)) as unknown as ErrorBody;
      expect(dup.error.message).toContain('Este preço já está na cotação');
      // a ref the search does not return
      const sumiu = (await incluir({ produtoId: papel, codigo: CATMAT_PAPEL, refs: ['x#1#1'] }, 409)) as unknown as ErrorBody;
      expect(sumiu.error.message).toBe('A busca em PNCP não devolveu mais um dos preços escolhidos: busque de novo.');

      // the memória de cálculo (XLSX) lists them with the evidence's SHA-256
      const mem = await t.server.request(`${base()}/memoria.xlsx`, { token: comprador });
      expect(mem.status).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(await mem.arrayBuffer()) as never);
      const precos = wb.getWorksheet('Preços') as Worksheet;
      const linhas: string[] = [];
      precos.eachRow((row) => linhas.push((row.values as unknown[]).map(String).join(' | ')));
      const linha = linhas.find((l) => l.includes('contratação 11222333000181-1-000012/2026'));
      expect(linha).toBeDefined();
      expect(linha).toContain(ev.sha256);
    });

    it('the PNCP asking to wait (429 Retry-After), failing (503) or too slow is told in pt-BR, nothing saved', async () => {
      const q = (descricao: string) => ({ produtoId: grampeador, descricao });
      fake.fault({ route: 'GET', kind: '429-retry-after', retryAfterSeconds: 7 });
      const limite = (await buscar(q(`mesa modelo ${(rodada - 1) * 4 + 1}`), comprador, 429)) as unknown as ErrorBody;
      expect(limite.error.message).toBe('O PNCP pediu um intervalo entre consultas. Tente de novo em 7 s.');
      fake.fault({ route: 'GET', kind: '503' });
      const fora = (await buscar(q(`mesa modelo ${(rodada - 1) * 4 + 2}`), comprador, 503)) as unknown as ErrorBody;
      expect(fora.error.message).toBe('O PNCP está com problemas (erro 503). Tente de novo em instantes.');
      fake.fault({ route: 'GET', kind: 'delay', delayMs: 4_000 });
      const lento = (await buscar(q(`mesa modelo ${(rodada - 1) * 4 + 3}`), comprador, 503)) as unknown as ErrorBody;
      expect(lento.error.message).toBe('O PNCP não respondeu em 2 s. Tente de novo em instantes.');
      fake.fault({ route: 'GET', kind: 'malformed' });
      const ilegivel = (await buscar(q(`mesa modelo ${(rodada - 1) * 4 + 4}`), comprador, 503)) as unknown as ErrorBody;
      expect(ilegivel.error.message).toBe('A resposta do PNCP não pôde ser lida. Tente de novo em instantes.');
      const precos = await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM cotacao_precos WHERE cotacao_id = $1 AND produto_id = $2', [
        cotacao,
        grampeador,
      ]);
      expect(precos[0]!.n).toBe(0);
      // the failures were not cached: the same search now answers
      const ok = await buscar(q(`mesa modelo ${(rodada - 1) * 4 + 1}`));
      expect(ok.total).toBeGreaterThan(0);
    });

    it('a closed cotação takes no prices (409) and another centro cannot include (404)', async () => {
      await incluir({ produtoId: grampeador, descricao: 'grampeador de mesa', refs: ['qualquer'] }, 404, outroCentro);
      const c = await req<{ version: number }>(`${base()}`, comprador);
      await req(`${base()}/cancelar`, comprador, { method: 'POST', json: { version: c.version, motivo: 'Cotação aberta por engano.' } }, 200);
      const r = await buscar({ produtoId: grampeador, descricao: 'grampeador de mesa' });
      const fechada = (await incluir({ produtoId: grampeador, descricao: 'grampeador de mesa', refs: [r.itens[0]!.ref] }, 409)) as unknown as ErrorBody;
      expect(fechada.error.message).toBe('Só se incluem preços com a cotação em rascunho ou em coleta.');
    });
  },
);

afterAll(async () => {
  await fake?.close();
});
