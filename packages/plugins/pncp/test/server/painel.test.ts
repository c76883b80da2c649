// The PNCP on the home page: GET /api/pendencias 'Publicações no PNCP com erro' (count and days since the
// oldest failure) and GET /api/indicadores 'Publicações no PNCP' (critical with an error, attention with
// one in the queue over an hour, else the publications concluded this year), in the scope of the /pncp
// list (the person's entidade, tag 103). One publication fails for real (job + @app/pncp-fake refusing an
// unregistered unit); the other states are fixture rows. The list's filter ?estado= the pendência leads to.
// PGlite; PostgreSQL too with TEST_DATABASE_URL.
import { today } from '@app/br';
import memorandosPlugin from '@app/memorandos/server';
import pcaPlugin from '@app/pca/server';
import { type FakePncp, startFakePncp } from '@app/pncp-fake';
import produtosPlugin from '@app/produtos/server';
import registrosPlugin from '@app/registros/server';
import requisicoesPlugin from '@app/requisicoes/server';
import { type ErrorBody, describeEachDatabase, withoutSeed } from '@app/server-core/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { definePncpPlugin } from '../../src/server/index.js';
import { PNCP_CONFIG_TAG, PNCP_TAG } from '../../src/shared/index.js';

const PCA_TAG = 101;
const PCA_APROVAR_TAG = 102;
const MEMORANDOS_TAG = 29;
const CHAVE = 'chave-de-teste-das-credenciais-do-pncp-0123456789';

type User = { token: string; id: string };
type Doc = { id: string; version: number };
type Pendencia = { id: string; label: string; href: string; total: number; dias?: number };
type Indicador = { id: string; label: string; href: string; valor: string; nivel: string; detalhe: string };
type Publicacao = { id: string; estado: string; documento: string; planoId: string };

let fake: FakePncp | undefined;
const fakeReady = startFakePncp({ orgaos: [{ cnpj: '46358021000184', unidades: ['1'] }] }).then((f) => {
  fake = f;
  return f;
});
const pncp = definePncpPlugin({
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
afterAll(async () => {
  await fake?.close();
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
  '@app/pncp on the home page: publications with errors (pendências) and the publications indicator',
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
  },
  (t) => {
    let prefeitura: string;
    let camara: string;
    let compras: string;
    let setor: User;
    let setorSemPncp: User;
    let autoridade: User;
    let edu: User;
    let aceitante: User;
    let daCamara: User;
    let educacao: string;
    let produtos: string[];

    const json = async <R>(res: Response, status: number): Promise<R> => {
      const text = await res.text();
      if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
      return (text ? JSON.parse(text) : null) as R;
    };
    const req = (path: string, u: User, init: { method?: string; json?: unknown } = {}) => t.server.request(path, { token: u.token, ...init });
    const agir = (d: Doc, acao: string, u: User) => req(`/api/pca/planos/${d.id}/${acao}`, u, { json: { version: d.version } });
    const pendencia = async (u: User) =>
      (await json<{ items: Pendencia[] }>(await req('/api/pendencias', u), 200)).items.find((p) => p.id === 'pncp.publicacoes-com-erro');
    const indicador = async (u: User) =>
      (await json<{ items: Indicador[] }>(await req('/api/indicadores', u), 200)).items.find((i) => i.id === 'pncp.publicacoes');
    const lista = async (u: User, estado?: string) =>
      (await json<{ items: Publicacao[] }>(await req(`/api/pncp/publicacoes${estado ? `?estado=${estado}` : ''}`, u), 200)).items;

    /** A publication as a fixture row (the states the job leaves), with its plan; `quando` are SQL expressions. */
    const publicacao = async (
      entidadeId: string,
      estado: string,
      quando: { criada?: string; atualizada?: string; concluida?: string; proxima?: string } = {},
      operacao: 'publicar' | 'excluir' = 'publicar',
    ): Promise<string> => {
      const [plano] = await t.server.sql<{ id: string }>(
        `INSERT INTO pncp_planos (plano_id, entidade_id, cnpj, codigo_unidade, ano_pca) VALUES (gen_random_uuid(), $1, '46358021000184', '1', 2027) RETURNING plano_id AS id`,
        [entidadeId],
      );
      const [row] = await t.server.sql<{ id: string }>(
        `INSERT INTO pncp_publicacoes (entidade_id, plano_id, documento, operacao, estado, ultimo_erro, proxima_tentativa, solicitado_por_nome, created_at, updated_at, concluido_em)
         VALUES ($1, $2, $3, $4, $5, $6, ${quando.proxima ?? 'NULL'}, 'Fulano', ${quando.criada ?? 'now()'}, ${quando.atualizada ?? 'now()'}, ${quando.concluida ?? 'NULL'})
         RETURNING id`,
        [
          entidadeId,
          plano!.id,
          `PCA ${estado} — plano de 2027, unidade 1`,
          operacao,
          estado,
          estado === 'erro' || quando.proxima ? 'O PNCP não respondeu a tempo.' : null,
        ],
      );
      return row!.id;
    };

    /** An approved plan of two DFD lines for a unit the PNCP does not know (its publication fails at once). */
    const planoAprovado = async (): Promise<Doc> => {
      let m = await json<Doc>(
        await req('/api/memorandos/memorandos', edu, {
          json: {
            origemId: educacao,
            destinoId: compras,
            assunto: 'Demanda para o PCA',
            justificativa: 'Necessidade do próximo exercício.',
            prioridade: 'media',
            dataDesejada: '2027-03-15',
            anoPca: 2027,
            itens: produtos.map((produtoId) => ({ produtoId, quantidade: '2', valorUnitario: '10' })),
          },
        }),
        201,
      );
      m = await json(await req(`/api/memorandos/memorandos/${m.id}/enviar`, edu, { json: { version: m.version } }), 200);
      m = await json(await req(`/api/memorandos/memorandos/${m.id}/aceitar`, aceitante, { json: { version: m.version } }), 200);
      let plano = await json<Doc>(
        await req('/api/pca/planos', setor, { json: { anoPca: 2027, codigoUnidade: 'NAO-CADASTRADA', centroCustoId: compras } }),
        201,
      );
      plano = await json<Doc>(
        await req(`/api/pca/planos/${plano.id}`, setor, {
          method: 'PUT',
          json: { version: plano.version, anoPca: 2027, codigoUnidade: 'NAO-CADASTRADA', centroCustoId: compras, memorandoIds: [m.id] },
        }),
        200,
      );
      plano = await json<Doc>(await agir(plano, 'enviar', setor), 200);
      return json<Doc>(await agir(plano, 'aprovar', autoridade), 200);
    };

    beforeAll(async () => {
      await fakeReady;
      ({ prefeitura, camara } = await t.server.demoEntidades());
      const ins = (table: string, values: Record<string, unknown>) => t.server.insert(table, { entidade_id: prefeitura, ...values });
      const grupo = await ins('registros_grupos', { codigo: '7510', nome: 'Artigos de expediente' });
      const un = await ins('registros_unidades', { sigla: 'UN', descricao: 'Unidade' });
      produtos = [];
      for (let i = 1; i <= 2; i++) {
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
      setorSemPncp = await t.server.createUser({ login: 'setor2', tags: [PCA_TAG, PCA_APROVAR_TAG, PNCP_CONFIG_TAG], todosCentros: true });
      autoridade = await t.server.createUser({ login: 'prefeito', tags: [PCA_TAG, PCA_APROVAR_TAG] });
      daCamara = await t.server.createUser({ login: 'camara', tags: [PNCP_TAG], entidadeId: camara });
      const admin = await t.server.createUser({ login: 'ti', tags: [PNCP_CONFIG_TAG] });
      await json(await req('/api/pncp/credenciais', admin, { method: 'PUT', json: { login: 'compras-treina', senha: 'Senha-Forte-Treina-2026' } }), 200);
    });

    it('an entidade that never published: no publications with errors (no age), and no indicator', async () => {
      expect(await pendencia(setor)).toEqual({
        id: 'pncp.publicacoes-com-erro',
        label: 'Publicações no PNCP com erro',
        href: '/pncp?estado=erro',
        total: 0,
      });
      expect(await indicador(setor)).toBeUndefined();
    });

    it('counts the failures for good of the entidade, since the oldest; the indicator is critical; the list filtered the same way', async () => {
      // a real failure: the PNCP refuses the unit (422), no retry
      const plano = await planoAprovado();
      await json(await agir(plano, 'publicar', setor), 200);
      await until(async () => (await lista(setor)).some((p) => p.planoId === plano.id && p.estado === 'erro'), 30_000, 'publication error');
      const real = (await lista(setor)).find((p) => p.planoId === plano.id)!;
      expect(await pendencia(setor)).toMatchObject({ total: 1, dias: 0 });

      // fixture rows in every other state of the prefeitura, and failures of the câmara
      const antiga = await publicacao(prefeitura, 'erro', { criada: "now() - interval '4 days'", atualizada: "now() - interval '3 days'" }, 'excluir');
      const emRetentativa = await publicacao(prefeitura, 'aguardando', { criada: "now() - interval '10 minutes'", proxima: "now() + interval '1 minute'" });
      await publicacao(prefeitura, 'concluido', { criada: "now() - interval '1 day'", concluida: 'now()' });
      await publicacao(prefeitura, 'concluido', { criada: "now() - interval '400 days'", concluida: "now() - interval '400 days'" });
      await publicacao(prefeitura, 'concluido', { concluida: 'now()' }, 'excluir');
      await publicacao(prefeitura, 'cancelado', { atualizada: "now() - interval '20 days'" });
      await publicacao(camara, 'erro', { atualizada: "now() - interval '30 days'" });
      await publicacao(camara, 'erro');

      // the retry pending and the other entidade's failures do not count; the oldest failure 3 days ago
      expect(await pendencia(setor)).toEqual({
        id: 'pncp.publicacoes-com-erro',
        label: 'Publicações no PNCP com erro',
        href: '/pncp?estado=erro',
        total: 2,
        dias: 3,
      });
      expect(await indicador(setor)).toEqual({
        id: 'pncp.publicacoes',
        label: 'Publicações no PNCP',
        href: '/pncp?estado=erro',
        valor: '2',
        nivel: 'critico',
        detalhe: '2 publicações deram erro no PNCP, sem nova tentativa automática: corrija e tente novamente, ou cancele.',
      });
      // where the pendência leads: exactly those two, newest first
      expect((await lista(setor, 'erro')).map((p) => p.id)).toEqual([real.id, antiga]);
      expect((await lista(setor, 'aguardando,enviando')).map((p) => p.id)).toEqual([emRetentativa]);
      expect(await lista(setor)).toHaveLength(7);
      const ruim = await json<ErrorBody>(await req('/api/pncp/publicacoes?estado=falhou', setor), 400);
      expect(ruim.error.fields).toEqual({
        estado: 'Situação desconhecida: escolha uma das situações da lista.',
      });

      // the câmara sees its own two, 30 days the oldest
      expect(await pendencia(daCamara)).toMatchObject({ total: 2, dias: 30 });
      expect(await indicador(daCamara)).toMatchObject({ valor: '2', nivel: 'critico', href: '/pncp?estado=erro' });
      expect((await lista(daCamara, 'erro')).map((p) => p.documento)).toEqual(['PCA erro — plano de 2027, unidade 1', 'PCA erro — plano de 2027, unidade 1']);

      // without tag 103 (even with every centro and the PCA's approval): neither
      expect(await pendencia(setorSemPncp)).toBeUndefined();
      expect(await indicador(setorSemPncp)).toBeUndefined();

      // cancelled through the list's action, a failure leaves the queue; the count follows
      await json(await req(`/api/pncp/publicacoes/${antiga}/cancelar`, setor, { method: 'POST' }), 200);
      expect(await pendencia(setor)).toMatchObject({ total: 1, dias: 0 });
      await json(await req(`/api/pncp/publicacoes/${real.id}/cancelar`, setor, { method: 'POST' }), 200);
      expect(await pendencia(setor)).toEqual({ id: 'pncp.publicacoes-com-erro', label: 'Publicações no PNCP com erro', href: '/pncp?estado=erro', total: 0 });

      // no error, one in the queue for 10 minutes: normal, the publications concluded this year
      // (the one of last year and the exclusion do not count)
      const ano = today().slice(0, 4);
      expect(await indicador(setor)).toEqual({
        id: 'pncp.publicacoes',
        label: 'Publicações no PNCP',
        href: '/pncp',
        valor: '1',
        nivel: 'normal',
        detalhe: `1 publicação concluída no PNCP em ${ano}, nenhuma com erro. 1 publicação em andamento.`,
      });

      // in the queue for over an hour: attention, leading to the list of those under way
      await t.server.sql("UPDATE pncp_publicacoes SET created_at = now() - interval '2 hours' WHERE id = $1", [emRetentativa]);
      expect(await indicador(setor)).toEqual({
        id: 'pncp.publicacoes',
        label: 'Publicações no PNCP',
        href: '/pncp?estado=aguardando,enviando',
        valor: '1',
        nivel: 'atencao',
        detalhe: '1 publicação aguarda há mais de 1 hora na fila ou no envio ao PNCP: confira se o PNCP está respondendo.',
      });
    });
  },
);
