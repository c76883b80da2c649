// Publishing an approved PCA on a PNCP that behaves like the real one (@app/pncp-fake), through the durable
// job (pg-boss) on a real database (PGlite; PostgreSQL too with TEST_DATABASE_URL): credentials kept encrypted
// and never shown; the job enqueued in the publicar transaction (a refused publicar leaves nothing); the PNCP
// holding exactly the plan after faults (503, a POST /pca whose answer was lost); a refusal by the PNCP shown
// in pt-BR, cancelled and tried again; no password or token in the logs, the database, the audit or the job rows;
// and, on PostgreSQL, two server instances sharing the queue run each publication once.
import { formatDate } from '@app/br';
import memorandosPlugin from '@app/memorandos/server';
import pcaPlugin from '@app/pca/server';
import { type FakePncp, startFakePncp } from '@app/pncp-fake';
import produtosPlugin from '@app/produtos/server';
import registrosPlugin from '@app/registros/server';
import requisicoesPlugin from '@app/requisicoes/server';
import {
  type ErrorBody,
  type TestServer,
  type TestServerInstance,
  createTestServer,
  describeEachDatabase,
  testEngines,
  withoutSeed,
} from '@app/server-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PncpConfig, definePncpPlugin } from '../../src/server/index.js';
import { PNCP_CONFIG_TAG, PNCP_TAG } from '../../src/shared/index.js';

const PCA_TAG = 101;
const PCA_APROVAR_TAG = 102;
const MEMORANDOS_TAG = 29;
const LOGIN = 'compras-treina';
const SENHA = 'Senha-Forte-Treina-2026';
const CHAVE = 'chave-de-teste-das-credenciais-do-pncp-0123456789';

type User = { token: string; id: string };
type Plano = {
  id: string;
  version: number;
  status: string;
  codigoUnidade: string;
  itens: { numeroItem: number; quantidade: string; valorUnitario: string; valorTotal: string }[];
};
type Publicacao = {
  id: string;
  estado: string;
  etapa: string | null;
  feitos: number;
  total: number;
  tentativas: number;
  ultimoErro: string | null;
  erros: { mensagem: string }[];
  numeroControle: string | null;
  planoId: string;
};

let fake: FakePncp;
const logs: string[] = [];
/** PNCP units: one per plan, across both engines (the fake lives for the whole file). */
let unidade = 0;
const fakeReady = startFakePncp({ orgaos: [{ cnpj: '46358021000184', unidades: Array.from({ length: 30 }, (_, i) => String(i + 1)) }] }).then((f) => {
  fake = f;
  return f;
});
const pncp = definePncpPlugin({
  // the fake's URL is known only once it listens: the client reads it per call
  get apiUrl() {
    return fake ? `${fake.url}/api/pncp` : 'http://127.0.0.1:9/api/pncp';
  },
  get consultaUrl() {
    return fake ? `${fake.url}/api/consulta` : 'http://127.0.0.1:9/api/consulta';
  },
  chave: CHAVE,
  timeoutMs: 2_000,
  retentativaSegundos: 1,
});

async function until(check: () => Promise<boolean>, ms = 30_000, what = 'condition') {
  const fim = Date.now() + ms;
  while (Date.now() < fim) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describeEachDatabase(
  '@app/pncp: publishing the PCA',
  {
    plugins: [
      withoutSeed(registrosPlugin),
      withoutSeed(produtosPlugin),
      withoutSeed(memorandosPlugin),
      withoutSeed(requisicoesPlugin),
      withoutSeed(pcaPlugin),
      pncp,
    ],
    jobs: { pollingIntervalSeconds: 0.5, superviseIntervalSeconds: 1 },
    // every line the server logs, to look for secrets in it
    logger: {
      info: (m, ...d) => void logs.push(`${m} ${JSON.stringify(d)}`),
      warn: (m, ...d) => void logs.push(`${m} ${JSON.stringify(d)}`),
      error: (m, ...d) =>
        void logs.push(`${m} ${JSON.stringify(d, (_k, v) => (v instanceof Error ? { message: v.message, stack: v.stack, cause: v.cause } : v))}`),
    },
  },
  (t) => {
    let compras: string;
    let educacao: string;
    let produtos: string[];
    let edu: User;
    let aceitante: User;
    let setor: User;
    let setorSemPncp: User;
    let autoridade: User;
    let admin: User;

    const json = async <R>(res: Response, status: number): Promise<R> => {
      const text = await res.text();
      if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
      return (text ? JSON.parse(text) : null) as R;
    };
    const req = (path: string, u: User, init: { method?: string; json?: unknown } = {}) => t.server.request(path, { token: u.token, ...init });
    const agir = (d: { id: string; version: number }, acao: string, u: User) => req(`/api/pca/planos/${d.id}/${acao}`, u, { json: { version: d.version } });
    const publicacoes = async () => (await json<{ items: Publicacao[] }>(await req('/api/pncp/publicacoes', setor), 200)).items;
    const publicacaoDe = async (planoId: string) => (await publicacoes()).find((p) => p.planoId === planoId);

    /** An approved plan of `n` DFD lines (one product each) for a fresh PNCP unit. */
    const planoAprovado = async (n = 3, codigoUnidade?: string): Promise<Plano> => {
      unidade += 1;
      let m = await json<{ id: string; version: number }>(
        await req('/api/memorandos/memorandos', edu, {
          json: {
            origemId: educacao,
            destinoId: compras,
            assunto: 'Demanda para o PCA',
            justificativa: 'Necessidade do próximo exercício.',
            prioridade: 'media',
            dataDesejada: '2027-03-15',
            anoPca: 2027,
            itens: produtos.slice(0, n).map((produtoId, i) => ({ produtoId, quantidade: `${i + 1},5`, valorUnitario: '10,3333' })),
          },
        }),
        201,
      );
      m = await json(await req(`/api/memorandos/memorandos/${m.id}/enviar`, edu, { json: { version: m.version } }), 200);
      m = await json(await req(`/api/memorandos/memorandos/${m.id}/aceitar`, aceitante, { json: { version: m.version } }), 200);
      let plano = await json<Plano>(
        await req('/api/pca/planos', setor, { json: { anoPca: 2027, codigoUnidade: codigoUnidade ?? String(unidade), centroCustoId: compras } }),
        201,
      );
      plano = await json<Plano>(
        await req(`/api/pca/planos/${plano.id}`, setor, {
          method: 'PUT',
          json: { version: plano.version, anoPca: 2027, codigoUnidade: plano.codigoUnidade, centroCustoId: compras, memorandoIds: [m.id] },
        }),
        200,
      );
      plano = await json<Plano>(await agir(plano, 'enviar', setor), 200);
      return json<Plano>(await agir(plano, 'aprovar', autoridade), 200);
    };

    beforeAll(async () => {
      await fakeReady;
      const { prefeitura: entidade_id } = await t.server.demoEntidades();
      const ins = (table: string, values: Record<string, unknown>) => t.server.insert(table, { entidade_id, ...values });
      const grupo = await ins('registros_grupos', { codigo: '7510', nome: 'Artigos de expediente' });
      const un = await ins('registros_unidades', { sigla: 'UN', descricao: 'Unidade' });
      produtos = [];
      for (let i = 1; i <= 4; i++) {
        produtos.push(
          await ins('produtos', {
            codigo: `00000${i}`,
            descricao: `Material de expediente ${i}`,
            tipo: 'material',
            grupo_id: grupo,
            unidade_id: un,
            codigo_catalogo: `46199${i}`,
            classe_cnbs_codigo: '7510',
            classe_cnbs_nome: 'Artigos de expediente',
          }),
        );
      }
      educacao = await ins('registros_centros_custo', { codigo: '02', nome: 'Secretaria de Educação' });
      compras = await ins('registros_centros_custo', { codigo: '01', nome: 'Compras e Licitações' });
      edu = await t.server.createUser({ login: 'edu', tags: [MEMORANDOS_TAG], centros: [educacao] });
      aceitante = await t.server.createUser({ login: 'aceitante', tags: [MEMORANDOS_TAG], centros: [compras] });
      setor = await t.server.createUser({ login: 'setor', tags: [PCA_TAG, PNCP_TAG], centros: [compras] });
      setorSemPncp = await t.server.createUser({ login: 'setor2', tags: [PCA_TAG], centros: [compras] });
      autoridade = await t.server.createUser({ login: 'prefeito', tags: [PCA_TAG, PCA_APROVAR_TAG] });
      admin = await t.server.createUser({ login: 'ti', tags: [PNCP_CONFIG_TAG] });
    });
    afterAll(() => undefined);

    it('refuses to publish without the PNCP user configured, or without the tag: the plan stays approved and nothing is enqueued', async () => {
      const plano = await planoAprovado();
      const sem = await json<ErrorBody>(await agir(plano, 'publicar', setor), 409);
      expect(sem.error.message).toBe('O usuário do PNCP desta entidade não está configurado: informe-o em Publicações no PNCP → Configuração.');
      // the credentials: tag 104 only; stored encrypted, never answered
      expect((await req('/api/pncp/credenciais', setor, { method: 'PUT', json: { login: LOGIN, senha: SENHA } })).status).toBe(403);
      const semSenha = await json<ErrorBody>(await req('/api/pncp/credenciais', admin, { method: 'PUT', json: { login: LOGIN } }), 400);
      expect(semSenha.error.fields).toEqual({ senha: 'Informe a senha do usuário do PNCP.' });
      const lido = await json<Record<string, unknown>>(await req('/api/pncp/credenciais', admin, { method: 'PUT', json: { login: LOGIN, senha: SENHA } }), 200);
      expect(lido).toMatchObject({ configurado: true, login: LOGIN, chaveDefinida: true });
      expect(JSON.stringify(lido)).not.toContain(SENHA);
      const [row] = await t.server.sql<{ senha_cifrada: string }>('SELECT senha_cifrada FROM pncp_credenciais');
      expect(row!.senha_cifrada).toMatch(/^v1:/);
      expect(row!.senha_cifrada).not.toContain(SENHA);
      // without tag 103 the publicar is refused and rolled back
      expect((await json<ErrorBody>(await agir(plano, 'publicar', setorSemPncp), 403)).error.message).toBe(
        "Publicar no PNCP exige a permissão 'Publicar no PNCP'.",
      );
      const [{ n }] = (await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM pncp_publicacoes')) as [{ n: number }];
      expect(n).toBe(0);
      const jobs = await t.server.sql<{ n: number }>("SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'pncp.publicar'");
      expect(jobs[0]!.n).toBe(0);
      const depois = await json<Plano>(await req(`/api/pca/planos/${plano.id}`, setor), 200);
      expect(depois.status).toBe('aprovado');
    });

    it('publishes an approved plan: the job brings the PNCP to exactly the plan, with its control number', async () => {
      const plano = await planoAprovado(4);
      // approved, not yet taken by the PNCP: the items say nothing of it
      const antes = await json<{ itens: { publicacao: unknown }[] }>(await req(`/api/pca/planos/${plano.id}`, setor), 200);
      expect(antes.itens.map((i) => i.publicacao)).toEqual([null, null, null, null]);
      expect((await json<Plano>(await agir(plano, 'publicar', setor), 200)).status).toBe('publicado');
      const publicado = await json<Plano>(await req(`/api/pca/planos/${plano.id}`, setor), 200);
      await until(async () => (await publicacaoDe(plano.id))?.estado === 'concluido', 30_000, 'publication done');
      const pub = (await publicacaoDe(plano.id))!;
      const planos = fake.plans('46358021000184').filter((p) => p.codigoUnidade === plano.codigoUnidade && !p.excluido);
      expect(planos).toHaveLength(1);
      expect(pub).toMatchObject({
        estado: 'concluido',
        feitos: 4,
        total: 4,
        numeroControle: `46358021000184-0-${String(planos[0]!.sequencial).padStart(6, '0')}/2027`,
      });
      const itens = planos[0]!.itens.filter((i) => !i.excluido);
      expect(itens.map((i) => i.numeroItem)).toEqual(publicado.itens.map((i) => i.numeroItem));
      for (const [k, item] of publicado.itens.entries()) {
        expect(itens[k]!.body).toMatchObject({
          quantidade: item.quantidade,
          valorUnitario: item.valorUnitario,
          valorTotal: item.valorTotal,
          valorOrcamentoExercicio: item.valorTotal,
        });
        expect(itens[k]!.decimalsSentAsNumbers).toEqual([]);
      }
      // the plan says where it stands on the PNCP, with the portal's link, and so does each item
      const lido = await json<{ publicacoes: unknown[]; itens: { numeroItem: number; publicacao: unknown }[] }>(
        await req(`/api/pca/planos/${plano.id}`, setor),
        200,
      );
      expect(lido.itens.map((i) => i.publicacao)).toEqual(lido.itens.map((i) => ({ texto: `Publicado no PNCP (item ${i.numeroItem})`, tom: 'success' })));
      expect(lido.publicacoes).toEqual([
        {
          texto: `Publicado no PNCP: ${pub.numeroControle}`,
          tom: 'success',
          link: { href: `${fake.url}/app/pca/${pub.numeroControle}`, texto: 'Ver no portal do PNCP' },
          acao: expect.objectContaining({ rotulo: 'Excluir do PNCP', caminho: `pncp/planos/${plano.id}/excluir` }),
        },
      ]);
      const acoes = await t.server.sql<{ acao: string; usuario_id: string | null }>(
        "SELECT acao, usuario_id FROM audit_log WHERE plugin = 'pncp' AND registro = $1 ORDER BY id",
        [pub.id],
      );
      expect(acoes.map((a) => a.acao)).toEqual(['criar', 'pncp_concluido']);
      expect(acoes[1]!.usuario_id).toBeNull();
      // a second publication of the same plan is refused by the PCA's flow (already published)
      expect((await agir(publicado, 'publicar', setor)).status).toBe(409);
    });

    it('a revised plan published again: the PNCP gets the difference under the same control number (an item excluded, one resized, one new), grouped by its contratação', async () => {
      const plano = await planoAprovado(3);
      await json(await agir(plano, 'publicar', setor), 200);
      await until(async () => (await publicacaoDe(plano.id))?.estado === 'concluido', 30_000, 'first publication');
      const primeira = (await publicacaoDe(plano.id))!;
      // version 2: products 1 (more of it) and 2 stay, 3 leaves, 4 comes; outside the windows, with a justification
      let lido = await json<Plano & { versao: number }>(await req(`/api/pca/planos/${plano.id}`, setor), 200);
      lido = await json(
        await req(`/api/pca/planos/${plano.id}/revisar`, setor, {
          json: { version: lido.version, justificativa: 'Inclusão do material 4 pedido pela Educação.' },
        }),
        200,
      );
      let m = await json<{ id: string; version: number }>(
        await req('/api/memorandos/memorandos', edu, {
          json: {
            origemId: educacao,
            destinoId: compras,
            assunto: 'Demanda revista',
            justificativa: 'Revisão do plano.',
            prioridade: 'media',
            dataDesejada: '2027-03-15',
            anoPca: 2027,
            itens: [
              { produtoId: produtos[0], quantidade: '9', valorUnitario: '10,3333' },
              { produtoId: produtos[1], quantidade: '2,5', valorUnitario: '10,3333' },
              { produtoId: produtos[3], quantidade: '1', valorUnitario: '50' },
            ],
          },
        }),
        201,
      );
      m = await json(await req(`/api/memorandos/memorandos/${m.id}/enviar`, edu, { json: { version: m.version } }), 200);
      m = await json(await req(`/api/memorandos/memorandos/${m.id}/aceitar`, aceitante, { json: { version: m.version } }), 200);
      lido = await json(
        await req(`/api/pca/planos/${plano.id}`, setor, {
          method: 'PUT',
          json: { version: lido.version, anoPca: 2027, codigoUnidade: plano.codigoUnidade, centroCustoId: compras, memorandoIds: [m.id] },
        }),
        200,
      );
      await json(
        await req(`/api/pca/planos/${plano.id}/contratacoes`, setor, {
          json: { titulo: 'Expediente 2027', categoriaItemPca: 1, prioridade: 'alta', inicio: '2026-12-01', fim: '2027-02-28', numerosItem: [1, 2, 4] },
        }),
        201,
      );
      lido = await json(await req(`/api/pca/planos/${plano.id}`, setor), 200);
      // the numbers the PNCP knows are kept: material 3 leaves a gap, material 4 is item 4
      expect(lido.itens.map((i) => i.numeroItem)).toEqual([1, 2, 4]);
      // item 3 left the plan but the PNCP still holds it: the plan says it will be deleted there, with what was sent
      const enviado3 = fake
        .plans('46358021000184')
        .find((p) => p.codigoUnidade === plano.codigoUnidade && !p.excluido)!
        .itens.find((i) => i.numeroItem === 3)!;
      const fora = (l: unknown) => (l as { itensForaDoPlano: unknown[] }).itensForaDoPlano;
      const item3 = { numeroItem: 3, descricao: 'Material de expediente 3', quantidade: enviado3.body.quantidade, valorTotal: enviado3.body.valorTotal };
      expect(fora(lido)).toEqual([{ ...item3, texto: 'A excluir no PNCP (item 3)', tom: 'warning' }]);
      lido = await json(await agir(lido, 'enviar', setor), 200);
      lido = await json(await agir(lido, 'aprovar', autoridade), 200);
      await json(await agir(lido, 'publicar', setor), 200);
      await until(
        async () => (await publicacoes()).filter((p) => p.planoId === plano.id && p.estado === 'concluido').length === 2,
        20_000,
        'second publication',
      );
      const planos = fake.plans('46358021000184').filter((p) => p.codigoUnidade === plano.codigoUnidade && !p.excluido);
      expect(planos).toHaveLength(1);
      expect((await publicacoes()).filter((p) => p.planoId === plano.id).map((p) => p.numeroControle)).toEqual([
        primeira.numeroControle,
        primeira.numeroControle,
      ]);
      const itens = planos[0]!.itens;
      expect(itens.filter((i) => !i.excluido).map((i) => i.numeroItem)).toEqual([1, 2, 4]);
      expect(itens.find((i) => i.numeroItem === 3)?.excluido).toBe(true);
      expect(itens.find((i) => i.numeroItem === 1)?.body).toMatchObject({
        quantidade: '9.0000',
        grupoContratacaoCodigo: '1',
        grupoContratacaoNome: 'Expediente 2027',
      });
      // deleted on the PNCP: the plan keeps saying so, with the day (São Paulo); the others are published as they are now
      const depois = await json<{ itensForaDoPlano: unknown[]; itens: { numeroItem: number; publicacao: unknown }[] }>(
        await req(`/api/pca/planos/${plano.id}`, setor),
        200,
      );
      expect(depois.itensForaDoPlano).toEqual([{ ...item3, texto: `Excluído do PNCP em ${formatDate(new Date())} (item 3)`, tom: 'neutral' }]);
      expect(depois.itens.map((i) => i.publicacao)).toEqual([1, 2, 4].map((n) => ({ texto: `Publicado no PNCP (item ${n})`, tom: 'success' })));
      // the row kept for it is not on the PNCP: the synchronisation reads only the others
      const linhas = await t.server.sql<{ numero_item: number; excluido: boolean }>(
        'SELECT numero_item, excluido_em IS NOT NULL AS excluido FROM pncp_plano_itens WHERE plano_id = $1 ORDER BY numero_item',
        [plano.id],
      );
      expect(linhas.map((l) => [l.numero_item, l.excluido])).toEqual([
        [1, false],
        [2, false],
        [3, true],
        [4, false],
      ]);
    });

    it('a plan the PNCP holds is not cancelled locally (revised, returned): 409 saying to delete it on the PNCP first; cancelled once deleted there', async () => {
      const plano = await planoAprovado(2);
      await json(await agir(plano, 'publicar', setor), 200);
      await until(async () => (await publicacaoDe(plano.id))?.estado === 'concluido', 30_000, 'published');
      const { numeroControle } = (await publicacaoDe(plano.id))!;
      // the plan offers 'Excluir do PNCP' (asked with the justification) to who may publish on the PNCP, not to the autoridade
      const situacaoPara = async (u: User) => (await json<{ publicacoes: { acao?: unknown }[] }>(await req(`/api/pca/planos/${plano.id}`, u), 200)).publicacoes;
      expect((await situacaoPara(setor))[0]!.acao).toEqual({
        rotulo: 'Excluir do PNCP',
        titulo: `Excluir do PNCP o plano ${numeroControle}?`,
        descricao: expect.stringContaining('justificativa que o PNCP exige'),
        campo: 'Motivo da exclusão',
        caminho: `pncp/planos/${plano.id}/excluir`,
      });
      expect((await situacaoPara(autoridade))[0]!.acao).toBeUndefined();
      // a numbered document is never deleted (the kit's DELETE), published or not
      expect((await json<ErrorBody>(await req(`/api/pca/planos/${plano.id}`, setor, { method: 'DELETE' }), 409)).error.code).toBe('numerado');
      // revised, sent and returned by the autoridade: the flow would allow cancelling a returned plan
      let lido = await json<Plano>(await req(`/api/pca/planos/${plano.id}`, setor), 200);
      lido = await json(
        await req(`/api/pca/planos/${plano.id}/revisar`, setor, { json: { version: lido.version, justificativa: 'Reavaliação das demandas.' } }),
        200,
      );
      lido = await json(await agir(lido, 'enviar', setor), 200);
      lido = await json(
        await req(`/api/pca/planos/${plano.id}/devolver`, autoridade, { json: { version: lido.version, motivo: 'Rever as quantidades.' } }),
        200,
      );
      expect(lido.status).toBe('devolvido');
      const cancelar = (v: number) => req(`/api/pca/planos/${plano.id}/cancelar`, setor, { json: { version: v, motivo: 'Plano substituído.' } });
      const recusa = await json<ErrorBody>(await cancelar(lido.version), 409);
      expect(recusa.error.message).toBe(
        `Este plano está publicado no PNCP (${numeroControle}) e não pode ser cancelado aqui: primeiro exclua-o do PNCP informando a justificativa que o PNCP exige (Excluir do PNCP); quando a exclusão terminar, cancele o plano.`,
      );
      // refused and rolled back: still returned, nothing audited as cancelled
      expect((await json<Plano>(await req(`/api/pca/planos/${plano.id}`, setor), 200)).status).toBe('devolvido');
      const canceladas = await t.server.sql<{ n: number }>(
        "SELECT count(*)::int AS n FROM audit_log WHERE plugin = 'pca' AND registro = $1 AND acao = 'cancelar'",
        [plano.id],
      );
      expect(canceladas[0]!.n).toBe(0);
      // deleted on the PNCP: while that runs, still refused; once done, the plan is cancelled
      // (the PNCP answers the DELETE slowly: the exclusion is still running when the setor tries again)
      fake.fault({ route: 'DELETE /pca', kind: 'delay', delayMs: 1_500 });
      await json(await req(`/api/pncp/planos/${plano.id}/excluir`, setor, { json: { justificativa: 'Plano substituído por outro.' } }), 200);
      expect((await json<ErrorBody>(await cancelar(lido.version), 409)).error.message).toBe(
        'A exclusão deste plano do PNCP ainda está em andamento: acompanhe-a em Publicações no PNCP e cancele o plano quando ela terminar.',
      );
      await until(
        async () => (await publicacoes()).some((p) => p.planoId === plano.id && p.estado === 'concluido' && p.numeroControle === null),
        30_000,
        'deleted on the PNCP',
      );
      fake.clearFaults();
      expect((await json<Plano>(await cancelar(lido.version), 200)).status).toBe('cancelado');
      expect(fake.plans('46358021000184').filter((p) => p.codigoUnidade === plano.codigoUnidade && !p.excluido)).toEqual([]);
    });

    it('after 503s and a POST /pca whose answer was lost (committed, connection dropped) the PNCP holds exactly one plan', async () => {
      const plano = await planoAprovado(3);
      const antes = fake.calls.length;
      fake.fault({ route: 'POST /pca', kind: '503', times: 2 });
      fake.fault({ route: 'POST /pca', kind: 'commit-drop', after: 2 });
      await json(await agir(plano, 'publicar', setor), 200);
      await until(async () => (await publicacaoDe(plano.id))?.estado === 'concluido', 45_000, 'publication done after faults');
      fake.clearFaults();
      const planos = fake.plans('46358021000184').filter((p) => p.codigoUnidade === plano.codigoUnidade && !p.excluido);
      expect(planos).toHaveLength(1);
      expect(planos[0]!.itens.filter((i) => !i.excluido).map((i) => i.numeroItem)).toEqual([1, 2, 3]);
      // the faults happened (two 503s retried inside the call, then the dropped answer); the plan found by sequenciaisplano, not sent twice
      const posts = fake.calls.slice(antes).filter((c) => c.method === 'POST' && /\/pca$/.test(c.path));
      expect(posts.map((c) => c.status)).toEqual([503, 503, 0]);
    });

    it('a refusal by the PNCP (unit not registered) is an error in pt-BR at once; cancelled, then tried again', async () => {
      const plano = await planoAprovado(2, 'NAO-CADASTRADA');
      await json(await agir(plano, 'publicar', setor), 200);
      await until(async () => (await publicacaoDe(plano.id))?.estado === 'erro', 30_000, 'publication error');
      const pub = (await publicacaoDe(plano.id))!;
      expect(pub.tentativas).toBe(1);
      expect(pub.ultimoErro).toMatch(/PNCP/);
      expect(pub.ultimoErro).toMatch(/Unidade não cadastrada/);
      // the PNCP holds none of the items: each says so
      const lido = await json<{ itens: { publicacao: unknown }[] }>(await req(`/api/pca/planos/${plano.id}`, setor), 200);
      expect(lido.itens.map((i) => i.publicacao)).toEqual([
        { texto: 'Ainda não enviado ao PNCP', tom: 'neutral' },
        { texto: 'Ainda não enviado ao PNCP', tom: 'neutral' },
      ]);
      const cancelada = await json<Publicacao>(await req(`/api/pncp/publicacoes/${pub.id}/cancelar`, setor, { method: 'POST' }), 200);
      expect(cancelada.estado).toBe('cancelado');
      expect((await req(`/api/pncp/publicacoes/${pub.id}/cancelar`, setor, { method: 'POST' })).status).toBe(409);
      const de_novo = await json<Publicacao>(await req(`/api/pncp/publicacoes/${pub.id}/tentar-novamente`, setor, { method: 'POST' }), 200);
      expect(de_novo.estado).toBe('aguardando');
      await until(async () => (await publicacaoDe(plano.id))?.estado === 'erro', 30_000, 'error again');
      // each action audited, by who asked (the failures for good by the system)
      const acoes = await t.server.sql<{ acao: string; usuario_id: string | null }>(
        "SELECT acao, usuario_id FROM audit_log WHERE plugin = 'pncp' AND registro = $1 ORDER BY id",
        [pub.id],
      );
      expect(acoes.map((a) => [a.acao, a.usuario_id === setor.id])).toEqual([
        ['criar', true],
        ['pncp_erro', false],
        ['pncp_cancelar', true],
        ['pncp_tentar_novamente', true],
        ['pncp_erro', false],
      ]);
      // without tag 103: no action
      expect((await req(`/api/pncp/publicacoes/${pub.id}/cancelar`, edu, { method: 'POST' })).status).toBe(403);
    });

    it('a publication asked before a revision is not tried again after it: 409, and nothing reaches the PNCP', async () => {
      const plano = await planoAprovado(2, 'NAO-CADASTRADA-2');
      await json(await agir(plano, 'publicar', setor), 200);
      await until(async () => (await publicacaoDe(plano.id))?.estado === 'erro', 30_000, 'publication error');
      const pub = (await publicacaoDe(plano.id))!;
      // revised since: the plan holds what the autoridade has not approved yet
      const lido = await json<Plano>(await req(`/api/pca/planos/${plano.id}`, setor), 200);
      await json(await req(`/api/pca/planos/${plano.id}/revisar`, setor, { json: { version: lido.version, justificativa: 'Reavaliação das demandas.' } }), 200);
      const chamadas = fake.calls.length;
      const recusa = await json<ErrorBody>(await req(`/api/pncp/publicacoes/${pub.id}/tentar-novamente`, setor, { method: 'POST' }), 409);
      expect(recusa.error.code).toBe('plano_nao_publicavel');
      expect(recusa.error.message).toMatch(/^Este plano não está mais publicado aqui/);
      expect((await publicacaoDe(plano.id))!.estado).toBe('erro');
      expect(fake.calls.length).toBe(chamadas);
    });

    it('2 500 items go in 3 batches (1 000, 1 000, 500) and read back exactly: decimal strings, numeroItem 1…2 500', async () => {
      const plano = await planoAprovado(2);
      // a big approved plan: items 3…2 500 added as fixture rows, copied from item 1 (integer quantities, so
      // quantidade × valor unitário is exact with 4 places)
      await t.server.sql(
        `INSERT INTO pca_itens (plano_id, entidade_id, numero_item, categoria_item_pca, catalogo, classificacao_catalogo, classificacao_superior_codigo,
           classificacao_superior_nome, pdm_codigo, pdm_descricao, codigo_item, produto_id, descricao, unidade_fornecimento, quantidade, valor_unitario,
           valor_total, data_desejada, unidade_requisitante)
         SELECT plano_id, entidade_id, g, categoria_item_pca, catalogo, classificacao_catalogo, classificacao_superior_codigo, classificacao_superior_nome,
           pdm_codigo, pdm_descricao, codigo_item, produto_id, descricao || ' (' || g || ')', unidade_fornecimento, g % 97 + 1, 3.3333 + g,
           (g % 97 + 1) * (3.3333 + g), data_desejada, unidade_requisitante
         FROM pca_itens, generate_series(3, 2500) AS g WHERE plano_id = $1 AND numero_item = 1`,
        [plano.id],
      );
      const antes = fake.calls.length;
      await json(await agir(plano, 'publicar', setor), 200);
      await until(async () => (await publicacaoDe(plano.id))?.estado === 'concluido', 120_000, 'publication of 2 500 items');
      const envios = fake.calls.slice(antes).filter((c) => c.method === 'POST' && !c.path.includes('/usuarios/login'));
      expect(envios.map((c) => [c.path.replace(/^.*\/pca(\/\d+\/\d+\/itens)?$/, (_m, itens) => (itens ? 'POST itens' : 'POST pca')), c.status])).toEqual([
        ['POST pca', 201],
        ['POST itens', 201],
        ['POST itens', 201],
      ]);
      expect((await publicacaoDe(plano.id))!).toMatchObject({ feitos: 2500, total: 2500 });
      const remoto = fake.plans('46358021000184').find((p) => p.codigoUnidade === plano.codigoUnidade && !p.excluido)!;
      const local = await t.server.sql<{ numero_item: number; quantidade: string; valor_unitario: string; valor_total: string }>(
        'SELECT numero_item, quantidade::text, valor_unitario::text, valor_total::text FROM pca_itens WHERE plano_id = $1 ORDER BY numero_item',
        [plano.id],
      );
      expect(remoto.itens).toHaveLength(2500);
      expect(remoto.itens.map((i) => i.numeroItem)).toEqual(Array.from({ length: 2500 }, (_, i) => i + 1));
      const canon = (v: unknown) => String(v).replace(/\.?0+$/, '');
      expect(remoto.itens.map((i) => [i.numeroItem, canon(i.body.quantidade), canon(i.body.valorUnitario), canon(i.body.valorTotal)])).toEqual(
        local.map((l) => [l.numero_item, canon(l.quantidade), canon(l.valor_unitario), canon(l.valor_total)]),
      );
      expect(remoto.itens.every((i) => typeof i.body.valorUnitario === 'string' && i.decimalsSentAsNumbers.length === 0)).toBe(true);
    }, 180_000);

    it('deletes the plan on the PNCP with a justificativa', async () => {
      const plano = await planoAprovado(1);
      await json(await agir(plano, 'publicar', setor), 200);
      await until(async () => (await publicacaoDe(plano.id))?.estado === 'concluido', 30_000, 'published');
      const sem = await json<ErrorBody>(await req(`/api/pncp/planos/${plano.id}/excluir`, setor, { json: { justificativa: ' ' } }), 400);
      expect(sem.error.fields).toEqual({ justificativa: 'Informe a justificativa que o PNCP exige.' });
      await json(await req(`/api/pncp/planos/${plano.id}/excluir`, setor, { json: { justificativa: 'Plano publicado por engano.' } }), 200);
      await until(
        async () => (await publicacoes()).some((p) => p.planoId === plano.id && p.estado === 'concluido' && p.numeroControle === null),
        30_000,
        'deleted',
      );
      const planos = fake.plans('46358021000184').filter((p) => p.codigoUnidade === plano.codigoUnidade);
      expect(planos.map((p) => [p.excluido, p.justificativaExclusao])).toEqual([[true, 'Plano publicado por engano.']]);
    });

    it('no password or token anywhere: credentials table aside, the logs, audit rows, publications and job rows are clean', async () => {
      expect(fake.calls.length).toBeGreaterThan(0);
      // the tokens the PNCP gave this suite's logins (the fake lives for the whole file)
      const tokens = fake.issuedTokens;
      expect(tokens.length).toBeGreaterThan(0);
      expect(logs.length).toBeGreaterThan(0);
      const tudo = JSON.stringify([
        logs,
        await t.server.sql('SELECT * FROM audit_log'),
        await t.server.sql('SELECT * FROM pncp_publicacoes'),
        await t.server.sql('SELECT * FROM pncp_planos'),
        await t.server.sql("SELECT data, output FROM pgboss.job WHERE name LIKE 'pncp.%'"),
      ]);
      expect(tudo).not.toContain(SENHA);
      expect(tudo).not.toContain(CHAVE);
      expect(tudo).not.toMatch(/Bearer/i);
      for (const token of tokens) expect(tudo).not.toContain(token);
      expect(JSON.stringify(fake.calls)).not.toContain(SENHA);
    });
  },
);

afterAll(async () => {
  await fake?.close();
});

// ---------------------------------------------------------------------------------------------
// The scale-out path: two server instances on one PostgreSQL database, both working the job queue, publish
// six plans asked on either instance. Each publication job runs exactly once (one POST /pca per plan on the
// PNCP, one completion in the audit, no retry in pg-boss) and the PNCP holds exactly one plan per unit,
// equal to the local one. PostgreSQL only (PGlite lives in one process); CI always has it.
const PLANOS = 6;

let fake2: FakePncp;
const config2: PncpConfig = {
  get apiUrl() {
    return `${fake2.url}/api/pncp`;
  },
  get consultaUrl() {
    return `${fake2.url}/api/consulta`;
  },
  chave: 'chave-de-teste-das-credenciais-do-pncp-0123456789',
  timeoutMs: 5_000,
  retentativaSegundos: 1,
};
// each instance its own plugin object (the plugin keeps its server's job queues)
const pluginsDe = (pncp: ReturnType<typeof definePncpPlugin>) => [
  withoutSeed(registrosPlugin),
  withoutSeed(produtosPlugin),
  withoutSeed(memorandosPlugin),
  withoutSeed(requisicoesPlugin),
  withoutSeed(pcaPlugin),
  pncp,
];

for (const engine of testEngines().filter((e) => e === 'postgres'))
  describe(`@app/pncp on two server instances [${engine}]`, () => {
    let a: TestServer;
    let b: TestServerInstance;
    const tokens: Record<string, string> = {};
    let compras: string;
    let educacao: string;
    let produto: string;

    beforeAll(async () => {
      fake2 = await startFakePncp({ orgaos: [{ cnpj: '46358021000184', unidades: Array.from({ length: PLANOS }, (_, i) => String(i + 1)) }] });
      a = await createTestServer(pluginsDe(definePncpPlugin(config2)), { engine: 'postgres' });
      b = await a.instance(pluginsDe(definePncpPlugin(config2)));
      const { prefeitura: entidade_id } = await a.demoEntidades();
      const ins = (table: string, values: Record<string, unknown>) => a.insert(table, { entidade_id, ...values });
      const grupo = await ins('registros_grupos', { codigo: '7510', nome: 'Artigos de expediente' });
      const un = await ins('registros_unidades', { sigla: 'UN', descricao: 'Unidade' });
      produto = await ins('produtos', {
        codigo: '000001',
        descricao: 'Material de expediente',
        tipo: 'material',
        grupo_id: grupo,
        unidade_id: un,
        codigo_catalogo: '461991',
        classe_cnbs_codigo: '7510',
        classe_cnbs_nome: 'Artigos de expediente',
      });
      educacao = await ins('registros_centros_custo', { codigo: '02', nome: 'Secretaria de Educação' });
      compras = await ins('registros_centros_custo', { codigo: '01', nome: 'Compras e Licitações' });
      tokens.edu = (await a.createUser({ login: 'edu', tags: [MEMORANDOS_TAG], centros: [educacao] })).token;
      tokens.aceitante = (await a.createUser({ login: 'aceitante', tags: [MEMORANDOS_TAG], centros: [compras] })).token;
      tokens.setor = (await a.createUser({ login: 'setor', tags: [PCA_TAG, PNCP_TAG], centros: [compras] })).token;
      tokens.autoridade = (await a.createUser({ login: 'prefeito', tags: [PCA_TAG, PCA_APROVAR_TAG] })).token;
      tokens.ti = (await a.createUser({ login: 'ti', tags: [PNCP_CONFIG_TAG] })).token;
    }, 120_000);
    afterAll(async () => {
      await b?.close();
      await a?.close();
      await fake2?.close();
    });

    it('six plans published from either instance: each job runs once, the PNCP holds exactly one plan per unit', async () => {
      const em = (i: number) => (i % 2 ? b : a);
      const json = async <R>(res: Promise<Response>, status: number): Promise<R> => {
        const r = await res;
        const text = await r.text();
        if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${text}`);
        return JSON.parse(text) as R;
      };
      type Doc = { id: string; version: number; codigoUnidade?: string; itens?: unknown[] };
      // the credentials, saved on instance B, read by both
      await json(
        b.request('/api/pncp/credenciais', { token: tokens.ti, method: 'PUT', json: { login: 'compras-treina', senha: 'Senha-Forte-Treina-2026' } }),
        200,
      );

      const planos: Doc[] = [];
      for (let i = 0; i < PLANOS; i++) {
        const s = em(i);
        const req = (path: string, who: string, init: { method?: string; json?: unknown } = {}) => s.request(path, { token: tokens[who], ...init });
        let m = await json<Doc>(
          req('/api/memorandos/memorandos', 'edu', {
            json: {
              origemId: educacao,
              destinoId: compras,
              assunto: `Demanda ${i + 1} para o PCA`,
              justificativa: 'Necessidade do próximo exercício.',
              prioridade: 'media',
              dataDesejada: '2027-03-15',
              anoPca: 2027,
              itens: [{ produtoId: produto, quantidade: `${i + 1},5`, valorUnitario: '10,3333' }],
            },
          }),
          201,
        );
        m = await json(req(`/api/memorandos/memorandos/${m.id}/enviar`, 'edu', { json: { version: m.version } }), 200);
        m = await json(req(`/api/memorandos/memorandos/${m.id}/aceitar`, 'aceitante', { json: { version: m.version } }), 200);
        let p = await json<Doc>(req('/api/pca/planos', 'setor', { json: { anoPca: 2027, codigoUnidade: String(i + 1), centroCustoId: compras } }), 201);
        p = await json<Doc>(
          req(`/api/pca/planos/${p.id}`, 'setor', {
            method: 'PUT',
            json: { version: p.version, anoPca: 2027, codigoUnidade: String(i + 1), centroCustoId: compras, memorandoIds: [m.id] },
          }),
          200,
        );
        p = await json<Doc>(req(`/api/pca/planos/${p.id}/enviar`, 'setor', { json: { version: p.version } }), 200);
        p = await json<Doc>(req(`/api/pca/planos/${p.id}/aprovar`, 'autoridade', { json: { version: p.version } }), 200);
        planos.push(p);
      }
      // all published within a few milliseconds, half on each instance: both workers find jobs waiting
      await Promise.all(
        planos.map((p, i) => json(em(i).request(`/api/pca/planos/${p.id}/publicar`, { token: tokens.setor, json: { version: p.version } }), 200)),
      );

      const publicacoes = async () =>
        (
          await json<{ items: { planoId: string; estado: string; tentativas: number; id: string }[] }>(
            a.request('/api/pncp/publicacoes', { token: tokens.setor }),
            200,
          )
        ).items;
      await until(async () => (await publicacoes()).filter((p) => p.estado === 'concluido').length === PLANOS, 60_000, 'six publications done');
      // a moment more: a job run twice would show now
      await new Promise((r) => setTimeout(r, 2_000));
      const pubs = await publicacoes();
      expect(pubs).toHaveLength(PLANOS);
      expect(pubs.every((p) => p.estado === 'concluido' && p.tentativas === 1)).toBe(true);

      // the PNCP: one plan per unit, one insert each, the items as the local plans hold them
      const naFake = fake2.plans('46358021000184').filter((p) => !p.excluido);
      expect(naFake.map((p) => p.codigoUnidade).sort()).toEqual(Array.from({ length: PLANOS }, (_, i) => String(i + 1)).sort());
      expect(fake2.calls.filter((c) => c.method === 'POST' && /\/pca$/.test(c.path.split('?')[0]!)).map((c) => c.status)).toEqual(Array(PLANOS).fill(201));
      for (const [i, p] of planos.entries()) {
        const local = await json<{ itens: { quantidade: string; valorUnitario: string }[] }>(
          a.request(`/api/pca/planos/${p.id}`, { token: tokens.setor }),
          200,
        );
        const remoto = naFake.find((f) => f.codigoUnidade === String(i + 1))!;
        expect(remoto.itens.map((it) => [it.body.quantidade, it.body.valorUnitario])).toEqual(local.itens.map((it) => [it.quantidade, it.valorUnitario]));
      }

      // each job ran once: pg-boss completed every job without a retry; one completion per publication in the audit
      const jobs = await a.sql<{ state: string; retry_count: number }>("SELECT state, retry_count FROM pgboss.job WHERE name = 'pncp.publicar'");
      expect(jobs).toHaveLength(PLANOS);
      expect(jobs.every((j) => j.state === 'completed' && j.retry_count === 0)).toBe(true);
      const fim = await a.sql<{ registro: string }>("SELECT registro FROM audit_log WHERE plugin = 'pncp' AND acao = 'pncp_concluido'");
      expect(fim.map((r) => r.registro).sort()).toEqual(pubs.map((p) => p.id).sort());
    }, 180_000);
  });
