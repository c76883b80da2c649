// The cotação as a document of the kit, on both engines: permissions (tag 73, entidade, centro de
// custo), the list with its counts, the configuration, a cotação from an approved requisição, items
// taken out with their prices, deletion, duplication, the pickers, and no 5xx on hostile input.
import { describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Mundo, cliente, dia, plugins, prepararMundo, requisicaoAprovada } from './helpers.js';

const PDF = new TextEncoder().encode('%PDF-1.4\n%%EOF\n');

describeEachDatabase('@app/cotacoes: API', { plugins }, (t) => {
  let m: Mundo;
  const api = cliente(t, () => m.tokens.comprador);
  let numero = 9200;

  beforeAll(async () => {
    m = await prepararMundo(t, 'api');
  });

  describe('permissões e escopo', () => {
    let id: string;
    beforeAll(async () => {
      id = (await api.criar([m.produtos[0]!], { centroCustoId: m.centros.educacao })).id;
    });

    it('403 without tag 73 on every kind of route', async () => {
      const semTag = m.tokens.semTag;
      for (const [method, path, json] of [
        ['GET', '/cotacoes', undefined],
        ['GET', `/cotacoes/${id}`, undefined],
        ['GET', `/cotacoes/${id}/mapa`, undefined],
        [
          'POST',
          `/cotacoes/${id}/precos`,
          { produtoId: m.produtos[0], fonte: 'painel', fonteDescricao: 'Painel', valorUnitario: '1', dataColeta: new Date().toISOString() },
        ],
        ['GET', '/fornecedores', undefined],
        ['GET', '/configuracao', undefined],
      ] as const) {
        expect((await api.call(method, path, json, semTag)).status, `${method} ${path}`).toBe(403);
      }
    });

    it("404 for another centro's and another entidade's cotação (reads and writes)", async () => {
      for (const token of [m.tokens.outroCentro, m.tokens.camara]) {
        expect((await api.get(`/cotacoes/${id}`, token)).status).toBe(404);
        expect((await api.get(`/cotacoes/${id}/mapa`, token)).status).toBe(404);
        expect((await api.call('POST', `/cotacoes/${id}/fornecedores`, { fornecedorId: m.fornecedores[0]!.id }, token)).status).toBe(404);
        expect((await api.call('PUT', `/cotacoes/${id}/justificativa`, { texto: 'Justificativa de quem não vê a cotação.' }, token)).status).toBe(404);
        expect((await api.get('/cotacoes', token)).body.items).toEqual([]);
      }
      expect((await api.call('POST', `/cotacoes/${id}/justificativa/aprovar`, undefined, m.tokens.camara)).status).toBe(404);
    });

    it('the autoridade competente approves only in the scope of the cotação (404 outside it)', async () => {
      const alheia = await t.server.createUser({ login: 'apiaut2', tags: [73, 100], centros: [m.centros.saude] });
      await api.ok('PUT', `/cotacoes/${id}/justificativa`, { texto: 'Poucos fornecedores do item na região.' }, 200);
      expect((await api.call('POST', `/cotacoes/${id}/justificativa/aprovar`, undefined, alheia.token)).status).toBe(404);
    });

    it('a cotação is created only in a centro the person belongs to', async () => {
      const r = await api.call('POST', '/cotacoes', {
        objeto: 'Material de expediente para os postos',
        centroCustoId: m.centros.saude,
        dataReferencia: dia(),
        metodo: 'media',
        itens: [{ produtoId: m.produtos[0], quantidade: '1' }],
      });
      expect(r.status).toBe(400);
      expect(r.body.error?.fields?.centroCustoId).toBe('Escolha um centro de custo ao qual você pertence.');
    });
  });

  describe('lista, itens e exclusão', () => {
    it('lists with the number of items and of prices collected, and the deadline', async () => {
      const prazo = new Date(Date.now() + 7 * 86_400_000).toISOString();
      const c = await api.criar(m.produtos.slice(0, 2), { centroCustoId: m.centros.educacao, prazo });
      await api.preco(c.id, { produtoId: m.produtos[0], valorUnitario: '1' });
      await api.preco(c.id, { produtoId: m.produtos[1], valorUnitario: '2' });
      await api.preco(c.id, { produtoId: m.produtos[1], valorUnitario: '3' });
      const page = await api.ok<{ items: { id: string; quantidadeItens: number; quantidadePrecos: number; prazo: string }[] }>(
        'GET',
        '/cotacoes?sort=-quantidadePrecos',
        undefined,
        200,
      );
      expect(page.items[0]).toMatchObject({ id: c.id, quantidadeItens: 2, quantidadePrecos: 3, prazo });
      const csv = await t.server.request('/api/cotacoes/cotacoes.csv', { token: m.tokens.comprador });
      expect(csv.status).toBe(200);
      expect(await csv.text()).toContain('Preços coletados');
    });

    it('taking an item out deletes its prices (and winners) in the same save, audited', async () => {
      const [p0, p1] = m.produtos as [string, string];
      const c = await api.criar([p0, p1], { centroCustoId: m.centros.educacao });
      await api.preco(c.id, { produtoId: p0, valorUnitario: '5' });
      await api.preco(c.id, { produtoId: p1, valorUnitario: '6' });
      const atual = await api.ok<Record<string, unknown> & { itens: { produtoId: string; quantidade: string }[] }>('GET', `/cotacoes/${c.id}`, undefined, 200);
      const put = await api.ok<{ itens: unknown[] }>(
        'PUT',
        `/cotacoes/${c.id}`,
        {
          objeto: atual.objeto,
          centroCustoId: atual.centroCustoId,
          dataReferencia: atual.dataReferencia,
          metodo: atual.metodo,
          iterar: atual.iterar,
          version: atual.version,
          itens: [{ produtoId: p0, quantidade: '20' }],
        },
        200,
      );
      expect(put.itens).toHaveLength(1);
      const mapa = await api.mapa(c.id);
      expect(mapa.precos.map((p) => p.produtoId)).toEqual([p0]);
      const [audit] = await t.server.sql<{ antes: { precos: { valorUnitario: string }[] }; depois: { motivo: string } }>(
        "SELECT antes, depois FROM audit_log WHERE registro = $1 AND acao = 'excluir_precos'",
        [c.id],
      );
      expect(audit).toMatchObject({ antes: { precos: [{ valorUnitario: '6.0000' }] }, depois: { motivo: 'Itens retirados da cotação.' } });
    });

    it('a cotação is never deleted (409 numerado, rascunho or em coleta): it is cancelled with a reason, keeping prices and evidence', async () => {
      const c = await api.criar([m.produtos[0]!], { centroCustoId: m.centros.educacao });
      const up = await t.server.upload(`/api/cotacoes/cotacoes/${c.id}/evidencias`, m.tokens.comprador, {
        content: PDF,
        filename: 'n.pdf',
        type: 'application/pdf',
      });
      const ev = (await up.json()) as { id: string };
      await api.preco(c.id, { produtoId: m.produtos[0], valorUnitario: '5', evidenciaId: ev.id });
      await api.convidar(c.id, m.fornecedores[0]!.id);
      const apagar = await api.call('DELETE', `/cotacoes/${c.id}`);
      expect([apagar.status, apagar.body.error?.code, apagar.body.error?.message]).toEqual([
        409,
        'numerado',
        'Documentos numerados não são excluídos: cancele este rascunho informando o motivo.',
      ]);
      expect(await t.server.sql('SELECT id FROM cotacao_evidencias WHERE cotacao_id = $1', [c.id])).toHaveLength(1);
      expect((await api.transicao(c.id, 'cancelar', { motivo: 'Criada por engano, em duplicidade.' })).body.status).toBe('cancelada');
      const d = await api.criar([m.produtos[0]!], { centroCustoId: m.centros.educacao });
      expect(d.numero).toBe(Number(c.numero) + 1);
      await api.transicao(d.id, 'iniciar');
      const r = await api.call('DELETE', `/cotacoes/${d.id}`);
      expect(r.status).toBe(409);
      expect(r.body.error?.code).toBe('numerado');
      const cancelada = await api.transicao(d.id, 'cancelar', { motivo: 'Compra adiada para o próximo exercício.' });
      expect(cancelada.body.status).toBe('cancelada');
    });

    it('duplicates without the requisição link, with today as reference date', async () => {
      const req = await requisicaoAprovada(t, m, ++numero, [{ produtoId: m.produtos[0]!, quantidade: '2', valorUnitario: '3' }]);
      const c = await api.ok<{ id: string }>('POST', '/cotacoes/de-requisicao', { requisicaoId: req.id }, 201);
      const dup = await api.ok<{ requisicaoId: string | null; dataReferencia: string; status: string; itens: { requisicaoItemId: string | null }[] }>(
        'POST',
        `/cotacoes/${c.id}/duplicar`,
        undefined,
        201,
      );
      expect(dup).toMatchObject({ requisicaoId: null, dataReferencia: dia(), status: 'rascunho' });
      expect(dup.itens[0]!.requisicaoItemId).toBeNull();
    });
  });

  describe('configuração e requisições', () => {
    it('configuration: defaults, changed only with tag 3 (version, stale), used by new cotações from a requisição', async () => {
      expect((await api.get('/configuracao')).body).toEqual({ metodo: 'media_saneada', iterar: false, version: 0 });
      expect((await api.call('PUT', '/configuracao', { metodo: 'mediana', iterar: true, version: 0 })).status).toBe(403);
      const salva = await api.ok('PUT', '/configuracao', { metodo: 'mediana', iterar: true, version: 0 }, 200, m.tokens.admin);
      expect(salva).toEqual({ metodo: 'mediana', iterar: true, version: 1 });
      expect((await api.call('PUT', '/configuracao', { metodo: 'menor', iterar: false, version: 0 }, m.tokens.admin)).body.error?.code).toBe('stale');
      expect((await api.call('PUT', '/configuracao', { metodo: 'moda', iterar: false, version: 1 }, m.tokens.admin)).status).toBe(400);
      const req = await requisicaoAprovada(t, m, ++numero, [
        { produtoId: m.produtos[0]!, quantidade: '4', valorUnitario: '2.5' },
        { produtoId: m.produtos[1]!, quantidade: '1', valorUnitario: '100' },
      ]);
      const c = await api.ok<Record<string, unknown> & { itens: Record<string, unknown>[] }>('POST', '/cotacoes/de-requisicao', { requisicaoId: req.id }, 201);
      expect(c).toMatchObject({
        status: 'rascunho',
        metodo: 'mediana',
        iterar: true,
        requisicaoId: req.id,
        centroCustoId: m.centros.educacao,
        dataReferencia: dia(),
        objeto: `Reposição de material das escolas (requisição ${numero}).`,
        valorTotal: '110.00',
      });
      expect(c.itens.map((i) => [i.produtoId, i.quantidade, i.valorUnitario, i.requisicaoItemId])).toEqual([
        [m.produtos[0], '4.0000', '2.5000', req.itens[0]],
        [m.produtos[1], '1.0000', '100.0000', req.itens[1]],
      ]);
      const [audit] = await t.server.sql("SELECT acao FROM audit_log WHERE registro = $1 AND plugin = 'cotacoes'", [c.id]);
      expect(audit).toEqual({ acao: 'criar' });
      await api.ok('PUT', '/configuracao', { metodo: 'media_saneada', iterar: false, version: 1 }, 200, m.tokens.admin);
    });

    it("one live cotação per requisição (409); only approved requisições of the person's centros", async () => {
      const req = await requisicaoAprovada(t, m, ++numero, [{ produtoId: m.produtos[0]!, quantidade: '1', valorUnitario: '1' }]);
      const primeira = await api.ok<{ id: string; numero: number; ano: number }>('POST', '/cotacoes/de-requisicao', { requisicaoId: req.id }, 201);
      const segunda = await api.call('POST', '/cotacoes/de-requisicao', { requisicaoId: req.id });
      expect(segunda.status).toBe(409);
      expect(segunda.body.error?.message).toBe(`Esta requisição já tem a cotação ${primeira.numero}/${primeira.ano}: cancele-a para cotar de novo.`);
      const picker = await api.ok<{ items: { id: string; cotacao: { id: string } | null }[] }>('GET', '/requisicoes-aprovadas', undefined, 200);
      expect(picker.items.find((r) => r.id === req.id)?.cotacao?.id).toBe(primeira.id);
      const disponiveis = await api.ok<{ items: { id: string }[] }>('GET', '/requisicoes-aprovadas?disponiveis=true', undefined, 200);
      expect(disponiveis.items.map((r) => r.id)).not.toContain(req.id);
      // after cancelling it, the requisição may be quoted again
      await api.transicao(primeira.id, 'cancelar', { motivo: 'Refazer a pesquisa de preços.' });
      expect((await api.call('POST', '/cotacoes/de-requisicao', { requisicaoId: req.id })).status).toBe(201);

      const rascunho = await requisicaoAprovada(t, m, ++numero, [{ produtoId: m.produtos[0]!, quantidade: '1', valorUnitario: '1' }], {
        status: 'em_aprovacao',
      });
      const naoAprovada = await api.call('POST', '/cotacoes/de-requisicao', { requisicaoId: rascunho.id });
      expect(naoAprovada.status).toBe(400);
      expect(naoAprovada.body.error?.fields?.requisicaoId).toBe('Escolha uma requisição aprovada.');
      const saude = await requisicaoAprovada(t, m, ++numero, [{ produtoId: m.produtos[0]!, quantidade: '1', valorUnitario: '1' }], {
        centroCustoId: m.centros.saude,
      });
      expect((await api.call('POST', '/cotacoes/de-requisicao', { requisicaoId: saude.id })).status).toBe(404);
      expect((await api.get(`/requisicoes-aprovadas/${saude.id}`)).status).toBe(404);
      expect((await api.get(`/requisicoes-aprovadas/${rascunho.id}`)).status).toBe(404);
      expect((await api.get(`/requisicoes-aprovadas/${req.id}`)).status).toBe(200);
    });

    it("the kit validates the link: the requisição's items only, the same product, the requisição's centro", async () => {
      const req = await requisicaoAprovada(t, m, ++numero, [{ produtoId: m.produtos[0]!, quantidade: '1', valorUnitario: '1' }]);
      const outra = await requisicaoAprovada(t, m, ++numero, [{ produtoId: m.produtos[1]!, quantidade: '1', valorUnitario: '1' }]);
      const base = { objeto: 'Cotação ligada à requisição', centroCustoId: m.centros.educacao, requisicaoId: req.id, dataReferencia: dia(), metodo: 'media' };
      const alheio = await api.call('POST', '/cotacoes', { ...base, itens: [{ produtoId: m.produtos[1], quantidade: '1', requisicaoItemId: outra.itens[0] }] });
      expect(alheio.body.error?.fields).toEqual({ 'itens.0.requisicaoItemId': 'Este item não é da requisição da cotação.' });
      const produto = await api.call('POST', '/cotacoes', { ...base, itens: [{ produtoId: m.produtos[2], quantidade: '1', requisicaoItemId: req.itens[0] }] });
      expect(produto.body.error?.fields).toEqual({ 'itens.0.produtoId': 'O produto deve ser o do item da requisição.' });
      const semReq = await api.call('POST', '/cotacoes', {
        ...base,
        requisicaoId: null,
        itens: [{ produtoId: m.produtos[0], quantidade: '1', requisicaoItemId: req.itens[0] }],
      });
      expect(semReq.status).toBe(400);
      const autoridade = m.tokens.autoridade;
      const centro = await api.call(
        'POST',
        '/cotacoes',
        { ...base, centroCustoId: m.centros.saude, itens: [{ produtoId: m.produtos[0], quantidade: '1' }] },
        autoridade,
      );
      expect(centro.body.error?.fields?.centroCustoId).toBe('Use o centro de custo da requisição.');
    });
  });

  describe('entradas hostis', () => {
    it('never answers 5xx to malformed ids and bodies', async () => {
      const c = await api.criar([m.produtos[0]!], { centroCustoId: m.centros.educacao });
      const convite = await api.convidar(c.id, m.fornecedores[0]!.id);
      const ids = ['x', "1' OR '1'='1", '00000000-0000-0000-0000-000000000000', 'a'.repeat(300), '%00', '..%2F..%2Fetc'];
      const bodies: unknown[] = [
        null,
        [],
        'texto',
        42,
        { itens: 'muitos' },
        { produtoId: 'x', fonte: 'painel', fonteDescricao: 'abc', valorUnitario: '1e99', dataColeta: 'ontem' },
        { valorUnitario: '-1', motivo: 5, texto: { a: 1 }, precoId: [] },
        { dataProposta: '2026-13-45T99:99:99Z', itens: [{ produtoId: m.produtos[0], valorUnitario: '99999999999999999' }] },
        { fornecedorId: '00000000-0000-0000-0000-000000000000' },
        { metodo: 'media', iterar: 'sim', version: 'x' },
      ];
      const rotas: [string, (id: string) => string][] = [
        ['GET', (id) => `/cotacoes/${id}`],
        ['GET', (id) => `/cotacoes/${id}/mapa`],
        ['GET', (id) => `/cotacoes/${c.id}/evidencias/${id}`],
        ['POST', (id) => `/cotacoes/${id}/precos`],
        ['PUT', (id) => `/cotacoes/${c.id}/precos/${id}`],
        ['DELETE', (id) => `/cotacoes/${c.id}/precos/${id}`],
        ['POST', (id) => `/cotacoes/${c.id}/precos/${id}/excluir`],
        ['POST', (id) => `/cotacoes/${id}/fornecedores`],
        ['PUT', (id) => `/cotacoes/${c.id}/fornecedores/${id}/resposta`],
        ['PUT', () => `/cotacoes/${c.id}/fornecedores/${convite.id}/resposta`],
        ['POST', (id) => `/cotacoes/${c.id}/fornecedores/${id}/nao-respondeu`],
        ['PUT', (id) => `/cotacoes/${c.id}/vencedores/${id}`],
        ['PUT', (id) => `/cotacoes/${id}/justificativa`],
        ['POST', (id) => `/cotacoes/${id}/concluir`],
        ['POST', () => '/cotacoes/de-requisicao'],
        ['PUT', () => '/configuracao'],
        ['PUT', (id) => `/cotacoes/${id}`],
      ];
      const erros: string[] = [];
      for (const [method, path] of rotas) {
        for (const id of ids) {
          for (const body of method === 'GET' || method === 'DELETE' ? [undefined] : bodies) {
            const as = path('x').includes('configuracao') ? m.tokens.admin : m.tokens.comprador;
            const r = await api.call(method, path(encodeURIComponent(id)), body, as);
            if (r.status >= 500) erros.push(`${method} ${path(id)} ${JSON.stringify(body)} → ${r.status}`);
          }
        }
      }
      expect(erros).toEqual([]);
      // and an upload that is not multipart
      const bruto = await t.server.request(`/api/cotacoes/cotacoes/${c.id}/evidencias`, {
        token: m.tokens.comprador,
        body: 'abc',
        headers: { 'content-type': 'text/plain' },
      });
      expect(bruto.status).toBe(400);
      const quebrado = await t.server.request(`/api/cotacoes/cotacoes/${c.id}/evidencias`, {
        token: m.tokens.comprador,
        body: '--x\r\nlixo',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
      });
      expect(quebrado.status).toBeLessThan(500);
    });
  });
});
