// Controle interno (issue 18): the demo auditor — and anyone whose perfil holds only the controle
// interno tag (95), in no centro de custo — reads every document of the demo chain (memorandos,
// pré-requisições, requisições with their approval and dispensa alert, cotações with the mapa and the
// memória) in every centro, with their PDFs and timelines, and changes none of them (403). On the
// real seeds of every plugin of the chain, on PGlite and PostgreSQL.
import fornecedores from '@app/fornecedores/server';
import memorandos from '@app/memorandos/server';
import produtos from '@app/produtos/server';
import registros from '@app/registros/server';
import requisicoes from '@app/requisicoes/server';
import { CONTROLE_INTERNO_TAG } from '@app/server-core';
import { describeEachDatabase } from '@app/server-core/testing';
import usuarios from '@app/usuarios/server';
import { beforeAll, expect, it } from 'vitest';
import cotacoes from '../../src/server/index.js';

// biome-ignore lint/suspicious/noExplicitAny: API answers are read field by field
type Doc = Record<string, any>;
type Page = { items: Doc[]; total: number };

/** The documents of the chain: API path, the transitions to try, and the reads of one record. */
const DOCUMENTOS = [
  { path: '/api/memorandos/memorandos', transicoes: ['enviar', 'aceitar', 'devolver', 'cancelar'], leituras: ['.pdf', '/historico'] },
  { path: '/api/requisicoes/pre-requisicoes', transicoes: ['enviar', 'devolver', 'cancelar'], leituras: ['/historico'] },
  {
    path: '/api/requisicoes/requisicoes',
    transicoes: ['enviar', 'aprovar', 'devolver', 'reprovar', 'cancelar'],
    leituras: ['.pdf', '/historico', '/aprovacao', '/dispensa'],
  },
  { path: '/api/cotacoes/cotacoes', transicoes: ['iniciar', 'concluir', 'cancelar'], leituras: ['/historico', '/mapa', '/memoria.pdf'] },
] as const;

describeEachDatabase(
  'controle interno reads the whole chain',
  { plugins: [registros, usuarios, produtos, fornecedores, memorandos, requisicoes, cotacoes] },
  (t) => {
    let admin: string;
    let auditor: string; // the demo auditor (perfil Auditor: tags 90 and 95)
    let soLeitura: string; // only tag 95, no centro, todosCentros false
    let consulta: string; // no tag
    const totais: Record<string, number> = {};

    const get = (path: string, token: string) => t.server.request(path, { token });
    const page = async (path: string, token: string): Promise<Page> => {
      const res = await get(`${path}?pageSize=100`, token);
      expect(res.status, path).toBe(200);
      return (await res.json()) as Page;
    };

    beforeAll(async () => {
      const [pref] = await t.server.sql<{ id: string }>("SELECT id FROM entidades WHERE nome LIKE 'Prefeitura%' ORDER BY nome LIMIT 1");
      admin = (await t.server.signIn('admin', 'demo1234', pref!.id)).token;
      auditor = (await t.server.signIn('auditor', 'demo1234')).token;
      consulta = (await t.server.signIn('consulta', 'demo1234', pref!.id)).token;
      const [perfil] = await t.server.sql<{ id: string }>(
        'INSERT INTO perfis (entidade_id, nome, tags, todos_centros) VALUES ($1, $2, $3::int[], false) RETURNING id',
        [pref!.id, 'Controladoria (teste)', `{${CONTROLE_INTERNO_TAG}}`],
      );
      const [user] = await t.server.sql<{ id: string }>(
        `INSERT INTO usuarios (nome, login, email, senha_hash)
       SELECT 'Clara Controladora', 'controladora', 'controladora@exemplo.gov.br', senha_hash FROM usuarios WHERE login = 'consulta' RETURNING id`,
      );
      await t.server.sql("INSERT INTO usuario_entidades (usuario_id, entidade_id, perfil_id, centros_custo) VALUES ($1, $2, $3, '{}')", [
        user!.id,
        pref!.id,
        perfil!.id,
      ]);
      soLeitura = (await t.server.signIn('controladora', 'demo1234')).token;
      for (const d of DOCUMENTOS) totais[d.path] = (await page(d.path, admin)).total;
    });

    it('the demo auditor holds the controle interno tag', async () => {
      const session = (await (await get('/api/session', auditor)).json()) as { tags: number[] };
      expect(session.tags).toEqual([90, CONTROLE_INTERNO_TAG]);
    });

    for (const [quem, token] of [
      ['the demo auditor', () => auditor],
      ['a perfil with only the controle interno tag, in no centro', () => soLeitura],
    ] as const) {
      it(`${quem} lists and reads every document of every centro, with PDFs and timelines, acting on none`, async () => {
        for (const d of DOCUMENTOS) {
          const lista = await page(d.path, token());
          expect(totais[d.path], d.path).toBeGreaterThan(0);
          expect(lista.total, d.path).toBe(totais[d.path]);
          for (const row of lista.items) expect(row, `${d.path} ${row.id}`).toMatchObject({ transicoes: [], editavel: false });
          expect((await get(`${d.path}.csv`, token())).status, `${d.path}.csv`).toBe(200);
          for (const row of lista.items) {
            const one = await get(`${d.path}/${row.id}`, token());
            expect(one.status, `${d.path}/${row.id}`).toBe(200);
            expect(await one.json()).toMatchObject({ id: row.id, transicoes: [], editavel: false });
            for (const leitura of d.leituras) {
              const res = await get(`${d.path}/${row.id}${leitura}`, token());
              expect(res.status, `${d.path}/${row.id}${leitura}`).toBe(200);
              if (leitura.endsWith('.pdf')) expect(res.headers.get('content-type')).toBe('application/pdf');
              await res.arrayBuffer();
            }
          }
        }
      });
    }

    it('the approval and the dispensa alert of a requisição are the ones its centro sees', async () => {
      const { items } = await page('/api/requisicoes/requisicoes', admin);
      const id = items[0]!.id as string;
      for (const leitura of ['aprovacao', 'dispensa']) {
        const doAdmin = await (await get(`/api/requisicoes/requisicoes/${id}/${leitura}`, admin)).json();
        expect(await (await get(`/api/requisicoes/requisicoes/${id}/${leitura}`, soLeitura)).json()).toEqual(doAdmin);
      }
    });

    it('the mapa of an open cotação is read-only for them, as the comprador sees it editable', async () => {
      const comprador = (await t.server.signIn('comprador', 'demo1234')).token;
      const { items } = await page('/api/cotacoes/cotacoes', admin);
      const aberta = items.find((c) => c.status === 'em_coleta')!;
      const mapa = async (token: string) => (await (await get(`/api/cotacoes/cotacoes/${aberta.id}/mapa`, token)).json()) as Doc;
      expect((await mapa(comprador)).podeEditar).toBe(true);
      for (const token of [auditor, soLeitura]) expect(await mapa(token)).toMatchObject({ podeEditar: false, podeAprovarJustificativa: false });
    });

    it('every write is refused (403) and nothing changes', async () => {
      const antes = await t.server.sql<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE acao <> 'acesso_negado'");
      for (const token of [auditor, soLeitura]) {
        for (const d of DOCUMENTOS) {
          const { items } = await page(d.path, admin);
          const row = items[0]!;
          const tentativas: [string, string, unknown][] = [
            ['POST', d.path, {}],
            ['PUT', `${d.path}/${row.id}`, { version: row.version }],
            ['DELETE', `${d.path}/${row.id}`, undefined],
            ['POST', `${d.path}/${row.id}/duplicar`, {}],
            ...d.transicoes.map((name): [string, string, unknown] => ['POST', `${d.path}/${row.id}/${name}`, { version: row.version, motivo: 'Auditoria' }]),
          ];
          for (const [method, path, json] of tentativas) {
            const res = await t.server.request(path, { token, method, ...(json === undefined ? {} : { json }) });
            expect(res.status, `${method} ${path}`).toBe(403);
          }
        }
      }
      const depois = await t.server.sql<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE acao <> 'acesso_negado'");
      expect(depois[0]!.n).toBe(antes[0]!.n);
    });

    it('the pendências of a person stay closed: they are not a read of a document', async () => {
      expect((await get('/api/requisicoes/requisicoes/aguardando-minha-aprovacao/contagem', auditor)).status).toBe(403);
      // the dashboard's pending work (the kit's GET /api/pendencias) lists nothing of requisições to the auditor
      const pendencias = await get('/api/pendencias', auditor);
      expect(pendencias.status).toBe(200);
      expect(((await pendencias.json()) as { items: { id: string }[] }).items.filter((p) => p.id.startsWith('requisicoes.'))).toEqual([]);
    });

    it('without the tag the reads stay 403', async () => {
      for (const d of DOCUMENTOS) {
        const { items } = await page(d.path, admin);
        for (const path of [d.path, `${d.path}/${items[0]!.id}`, ...d.leituras.map((l) => `${d.path}/${items[0]!.id}${l}`)]) {
          expect((await get(path, consulta)).status, path).toBe(403);
        }
      }
    });
  },
);
