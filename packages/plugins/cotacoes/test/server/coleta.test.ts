// The collection of prices, on both engines: invitations (never an impedido), the suppliers' answers
// (only em coleta), 'não respondeu' kept on record, prices of the other sources with their evidence
// (type checked by content, size limited, SHA-256 stored, downloaded as an attachment only), the
// e-mail to the invited suppliers when the collection starts, and the audit of each step.
import { createHash } from 'node:crypto';
import { describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVIDENCIA_MAX_BYTES } from '../../src/shared/index.js';
import { type Mundo, cliente, plugins, prepararMundo } from './helpers.js';

const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
const HTML = new TextEncoder().encode('<!doctype html><html><body><script>alert(1)</script><p>Preço: R$ 10,00</p></body></html>');
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describeEachDatabase('@app/cotacoes: coleta de preços', { plugins }, (t) => {
  let m: Mundo;
  const api = cliente(t, () => m.tokens.comprador);
  const enviar = async (id: string, content: Uint8Array | string, filename: string, type: string, token = m.tokens.comprador) => {
    const res = await t.server.upload(`/api/cotacoes/cotacoes/${id}/evidencias`, token, { content, filename, type });
    return {
      status: res.status,
      body: (await res.json()) as { id: string; sha256: string; tipo: string; tamanho: number; error?: { code: string; message: string } },
    };
  };
  const auditoria = (registro: string, acao: string) =>
    t.server.sql<{ antes: Record<string, unknown> | null; depois: Record<string, unknown> }>(
      'SELECT antes, depois FROM audit_log WHERE registro = $1 AND acao = $2 ORDER BY id',
      [registro, acao],
    );

  beforeAll(async () => {
    m = await prepararMundo(t, 'col');
  });

  describe('convites e respostas', () => {
    let id: string;
    let p0: string;
    let p1: string;

    beforeAll(async () => {
      [p0, p1] = m.produtos as [string, string];
      id = (await api.criar([p0, p1], { centroCustoId: m.centros.educacao })).id;
    });

    it('the supplier picker leaves out impedidos and inactive suppliers', async () => {
      const page = await api.ok<{ items: { id: string; email: string | null }[]; total: number }>('GET', '/fornecedores?pageSize=100', undefined, 200);
      const ids = page.items.map((i) => i.id);
      expect(ids).toContain(m.fornecedores[0]!.id);
      expect(ids).not.toContain(m.impedido);
      expect(ids).not.toContain(m.inativo);
      expect(page.items.find((i) => i.id === m.fornecedores[0]!.id)!.email).toMatch(/@/);
    });

    it('refuses an impedido supplier with a pt-BR 400, an inactive one, and a second invitation (409)', async () => {
      const impedido = await api.call('POST', `/cotacoes/${id}/fornecedores`, { fornecedorId: m.impedido });
      expect(impedido.status).toBe(400);
      expect(impedido.body.error?.code).toBe('impedido');
      expect(impedido.body.error?.fields?.fornecedorId).toMatch(
        /está impedido de contratar com a administração até \d{2}\/\d{2}\/\d{4}.*não pode ser convidado\.$/,
      );
      expect((await api.call('POST', `/cotacoes/${id}/fornecedores`, { fornecedorId: m.inativo })).status).toBe(400);
      const outro = await t.server.sql<{ id: string }>('SELECT id FROM fornecedores WHERE entidade_id = $1 LIMIT 1', [m.entidades.camara]);
      if (outro[0]) expect((await api.call('POST', `/cotacoes/${id}/fornecedores`, { fornecedorId: outro[0].id })).status).toBe(400);
      const convite = await api.convidar(id, m.fornecedores[0]!.id);
      expect(convite).toMatchObject({ situacao: 'convidado', precos: 0, fornecedorNome: m.fornecedores[0]!.nome });
      const deNovo = await api.call('POST', `/cotacoes/${id}/fornecedores`, { fornecedorId: m.fornecedores[0]!.id });
      expect(deNovo.status).toBe(409);
      expect(deNovo.body.error?.message).toBe('Este fornecedor já foi convidado para esta cotação.');
      const [row] = await auditoria(id, 'convidar_fornecedor');
      expect(row!.depois).toMatchObject({ fornecedor: m.fornecedores[0]!.nome });
    });

    it('answers and "não respondeu" only em coleta (409 in rascunho, with the reason)', async () => {
      const [convite] = (await api.mapa(id)).convites;
      const resposta = await api.call('PUT', `/cotacoes/${id}/fornecedores/${convite!.id}/resposta`, {
        dataProposta: new Date().toISOString(),
        itens: [{ produtoId: p0, valorUnitario: '10' }],
      });
      expect(resposta.status).toBe(409);
      expect(resposta.body.error?.message).toContain('inicie a coleta');
      expect((await api.call('POST', `/cotacoes/${id}/fornecedores/${convite!.id}/nao-respondeu`, {})).status).toBe(409);
    });

    it('starting the collection e-mails the invited suppliers (never the estimated values)', async () => {
      const antes = await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM outbox');
      expect((await api.transicao(id, 'iniciar')).status).toBe(200);
      const mails = await t.server
        .sql<{ para: string; assunto: string; texto: string }>('SELECT * FROM outbox ORDER BY created_at DESC, id DESC LIMIT 5')
        .catch(() => [] as { para: string; assunto: string; texto: string }[]);
      const depois = await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM outbox');
      expect(depois[0]!.n - antes[0]!.n).toBe(1);
      expect(JSON.stringify(mails[0])).toContain('Pedido de cotação');
      expect(JSON.stringify(mails[0])).not.toContain('R$');
    });

    it("records an answer: the supplier's prices replace the previous ones, situação 'respondeu', audited", async () => {
      const [convite] = (await api.mapa(id)).convites;
      const primeira = await api.responder(id, convite!.id, [
        { produtoId: p0, valorUnitario: '10,50' },
        { produtoId: p1, valorUnitario: null },
      ]);
      expect(primeira).toMatchObject({ situacao: 'respondeu', precos: 1 });
      const segunda = await api.responder(id, convite!.id, [
        { produtoId: p0, valorUnitario: '10.4' },
        { produtoId: p1, valorUnitario: '3.3333' },
      ]);
      expect(segunda.precos).toBe(2);
      const mapa = await api.mapa(id);
      const deles = mapa.precos.filter((p) => p.fornecedorId === convite!.fornecedorId);
      expect(deles.map((p) => [p.valorUnitario, p.fonte, p.fonteDescricao]).sort()).toEqual([
        ['10.4', 'fornecedor', `Proposta de ${m.fornecedores[0]!.nome}`],
        ['3.3333', 'fornecedor', `Proposta de ${m.fornecedores[0]!.nome}`],
      ]);
      const rows = await auditoria(id, 'resposta_fornecedor');
      expect(rows).toHaveLength(2);
      expect(rows[1]!.antes).toMatchObject({ precos: [{ produtoId: p0, valorUnitario: '10.5000' }] });
      expect(rows[1]!.depois).toMatchObject({ fornecedor: m.fornecedores[0]!.nome });
    });

    it('an answer naming a product that is not an item, or the same item twice, is a 400 naming the line', async () => {
      const [convite] = (await api.mapa(id)).convites;
      const fora = await api.call('PUT', `/cotacoes/${id}/fornecedores/${convite!.id}/resposta`, {
        dataProposta: new Date().toISOString(),
        itens: [
          { produtoId: p0, valorUnitario: '10' },
          { produtoId: m.produtos[5], valorUnitario: '10' },
          { produtoId: p0, valorUnitario: '11' },
        ],
      });
      expect(fora.status).toBe(400);
      expect(fora.body.error?.fields).toEqual({
        'itens.1.produtoId': 'Este produto não é item desta cotação.',
        'itens.2.produtoId': 'Este item já foi informado em outra linha.',
      });
    });

    it("marks 'não respondeu' (kept, with the reason); refused for a supplier with prices; never withdrawn afterwards", async () => {
      const segundo = await api.convidar(id, m.fornecedores[1]!.id);
      const marcado = await api.ok<{ situacao: string; motivoNaoResposta: string }>(
        'POST',
        `/cotacoes/${id}/fornecedores/${segundo.id}/nao-respondeu`,
        { motivo: 'Sem retorno até o prazo.' },
        200,
      );
      expect(marcado).toMatchObject({ situacao: 'nao_respondeu', motivoNaoResposta: 'Sem retorno até o prazo.' });
      const retirar = await api.call('DELETE', `/cotacoes/${id}/fornecedores/${segundo.id}`);
      expect(retirar.status).toBe(409);
      const [primeiro] = (await api.mapa(id)).convites;
      expect((await api.call('POST', `/cotacoes/${id}/fornecedores/${primeiro!.id}/nao-respondeu`, {})).status).toBe(409);
      expect((await api.call('DELETE', `/cotacoes/${id}/fornecedores/${primeiro!.id}`)).status).toBe(409);
      // an invitation nobody answered yet can be withdrawn
      const terceiro = await api.convidar(id, m.fornecedores[2]!.id);
      expect((await api.call('DELETE', `/cotacoes/${id}/fornecedores/${terceiro.id}`)).status).toBe(204);
      expect((await api.mapa(id)).convites.map((c) => c.situacao)).toEqual(['respondeu', 'nao_respondeu']);
    });

    it("another cotação's invitation, or a malformed one, is a 404", async () => {
      const outra = await api.criar([p0], { centroCustoId: m.centros.educacao });
      const convite = await api.convidar(outra.id, m.fornecedores[3]!.id);
      await api.transicao(outra.id, 'iniciar');
      expect((await api.call('POST', `/cotacoes/${id}/fornecedores/${convite.id}/nao-respondeu`, {})).status).toBe(404);
      expect((await api.call('POST', `/cotacoes/${id}/fornecedores/xyz/nao-respondeu`, {})).status).toBe(404);
      expect((await api.call('DELETE', `/cotacoes/${id}/fornecedores/${convite.id}`)).status).toBe(404);
      // once cancelled, no answer is recorded any more
      await api.transicao(outra.id, 'cancelar', { motivo: 'Compra desistida pela secretaria.' });
      const tarde = await api.call('PUT', `/cotacoes/${outra.id}/fornecedores/${convite.id}/resposta`, {
        dataProposta: new Date().toISOString(),
        itens: [{ produtoId: p0, valorUnitario: '10' }],
      });
      expect([tarde.status, tarde.body.error?.message]).toEqual([409, 'Esta cotação está cancelada e não pode ser alterada.']);
    });
  });

  describe('preços de outras fontes e evidências', () => {
    let id: string;
    let p0: string;

    beforeAll(async () => {
      p0 = m.produtos[0]!;
      id = (await api.criar([p0], { centroCustoId: m.centros.educacao })).id;
    });

    it('stores a PDF and a PNG with their SHA-256; the content must match the declared type', async () => {
      const pdf = await enviar(id, PDF, 'contrato.pdf', 'application/pdf');
      expect(pdf.status).toBe(201);
      expect(pdf.body).toMatchObject({ tipo: 'application/pdf', tamanho: PDF.length, sha256: sha(PDF) });
      const png = await enviar(id, PNG, 'tela.png', 'image/png');
      expect(png.body).toMatchObject({ tipo: 'image/png', sha256: sha(PNG) });
      const falsa = await enviar(id, PNG, 'nota.pdf', 'application/pdf');
      expect(falsa.status).toBe(400);
      expect(falsa.body.error?.message).toContain('não corresponde ao tipo');
      const exe = await enviar(id, new Uint8Array([0x4d, 0x5a, 0x90, 0]), 'programa.exe', 'application/x-msdownload');
      expect(exe.status).toBe(400);
      expect(exe.body.error?.message).toContain('PDF, PNG, JPEG, WebP ou HTML');
      // the type from the name when the browser sends none
      expect((await enviar(id, PDF, 'sem-tipo.pdf', '')).status).toBe(201);
      const [row] = await auditoria(id, 'enviar_evidencia');
      expect(row!.depois).toMatchObject({ sha256: sha(PDF), nome: 'contrato.pdf' });
    });

    it('refuses a file over 5 MB (413, in pt-BR) and an empty one (400)', async () => {
      const grande = new Uint8Array(EVIDENCIA_MAX_BYTES + 1);
      grande.set(PDF);
      const r = await enviar(id, grande, 'grande.pdf', 'application/pdf');
      expect(r.status).toBe(413);
      expect(r.body.error?.message).toBe('O arquivo passa do limite de 5 MB.');
      const noLimite = new Uint8Array(EVIDENCIA_MAX_BYTES);
      noLimite.set(PDF);
      const ok = await enviar(id, noLimite, 'limite.pdf', 'application/pdf');
      expect(ok.status).toBe(201);
      expect(ok.body.sha256).toBe(sha(noLimite));
      expect((await enviar(id, new Uint8Array(0), 'vazio.pdf', 'application/pdf')).status).toBe(400);
    });

    it('an HTML snapshot is kept and only ever downloaded as an attachment (never rendered)', async () => {
      const html = await enviar(id, HTML, 'pagina.html', 'text/html');
      expect(html.status).toBe(201);
      const res = await t.server.request(`/api/cotacoes/cotacoes/${id}/evidencias/${html.body.id}`, { token: m.tokens.comprador });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="pagina.html"/);
      expect(res.headers.get('content-type')).toBe('application/octet-stream');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-content-sha256')).toBe(sha(HTML));
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(HTML);
      const pdf = await enviar(id, PDF, 'prova.pdf', 'application/pdf');
      const baixado = await t.server.request(`/api/cotacoes/cotacoes/${id}/evidencias/${pdf.body.id}`, { token: m.tokens.comprador });
      expect([baixado.headers.get('content-type'), baixado.headers.get('content-disposition')?.split(';')[0]]).toEqual(['application/pdf', 'attachment']);
      // someone of another centro does not see it
      expect((await t.server.request(`/api/cotacoes/cotacoes/${id}/evidencias/${pdf.body.id}`, { token: m.tokens.outroCentro })).status).toBe(404);
    });

    it('a site price needs its address; a price links an evidence of the same cotação only', async () => {
      const semLink = await api.call('POST', `/cotacoes/${id}/precos`, {
        produtoId: p0,
        fonte: 'midia',
        fonteDescricao: 'Loja virtual',
        valorUnitario: '10',
        dataColeta: new Date().toISOString(),
      });
      expect(semLink.status).toBe(400);
      expect(semLink.body.error?.fields?.link).toBeTruthy();
      const outra = (await api.criar([p0], { centroCustoId: m.centros.educacao })).id;
      const alheia = await enviar(outra, PDF, 'outra.pdf', 'application/pdf');
      const r = await api.call('POST', `/cotacoes/${id}/precos`, {
        produtoId: p0,
        fonte: 'nota_fiscal',
        fonteDescricao: 'NF-e 123',
        valorUnitario: '10',
        dataColeta: new Date().toISOString(),
        evidenciaId: alheia.body.id,
      });
      expect(r.status).toBe(400);
      expect(r.body.error?.fields?.evidenciaId).toBeTruthy();
      const futuro = await api.call('POST', `/cotacoes/${id}/precos`, {
        produtoId: p0,
        fonte: 'painel',
        fonteDescricao: 'Painel de Preços',
        valorUnitario: '10',
        dataColeta: new Date(Date.now() + 86_400_000).toISOString(),
      });
      expect(futuro.body.error?.fields?.dataColeta).toBe('A data da coleta não pode ser futura.');
      const fornecedor = await api.call('POST', `/cotacoes/${id}/precos`, {
        produtoId: p0,
        fonte: 'fornecedor',
        fonteDescricao: 'Proposta',
        valorUnitario: '10',
        dataColeta: new Date().toISOString(),
      });
      expect(fornecedor.status).toBe(400);
    });

    it('creates, changes (with version, 409 stale) and deletes a price with its evidence, audited', async () => {
      const ev = await enviar(id, PDF, 'nota.pdf', 'application/pdf');
      const criado = await api.preco(id, {
        produtoId: p0,
        fonte: 'nota_fiscal',
        fonteDescricao: 'NF-e 000.123 – Município vizinho',
        valorUnitario: '12,3456',
        evidenciaId: ev.body.id,
      });
      expect(criado).toMatchObject({ valorUnitario: '12.3456', evidencia: { id: ev.body.id, sha256: sha(PDF) }, coletadoPorNome: 'Carla Compradora' });
      const body = {
        produtoId: p0,
        fonte: 'nota_fiscal',
        fonteDescricao: 'NF-e 000.123',
        valorUnitario: '12',
        dataColeta: criado.dataColeta,
        evidenciaId: ev.body.id,
      };
      expect((await api.call('PUT', `/cotacoes/${id}/precos/${criado.id}`, body)).status).toBe(400);
      const alterado = await api.ok<{ valorUnitario: string; version: number }>(
        'PUT',
        `/cotacoes/${id}/precos/${criado.id}`,
        { ...body, version: criado.version },
        200,
      );
      expect(alterado).toMatchObject({ valorUnitario: '12', version: criado.version + 1 });
      expect((await api.call('PUT', `/cotacoes/${id}/precos/${criado.id}`, { ...body, version: criado.version })).body.error?.code).toBe('stale');
      const [audit] = await auditoria(id, 'alterar_preco');
      expect(audit).toMatchObject({
        antes: { valorUnitario: '12.3456', fonteDescricao: 'NF-e 000.123 – Município vizinho' },
        depois: { precoId: criado.id, valorUnitario: '12' },
      });
      expect((await api.call('DELETE', `/cotacoes/${id}/precos/${criado.id}`)).status).toBe(204);
      // the evidence only that price used went with it
      expect((await t.server.request(`/api/cotacoes/cotacoes/${id}/evidencias/${ev.body.id}`, { token: m.tokens.comprador })).status).toBe(404);
      expect((await auditoria(id, 'excluir_preco')).length).toBe(1);
    });

    it("a supplier's price changes only through its answer (409 on PUT and DELETE)", async () => {
      const c = await api.criar([p0], { centroCustoId: m.centros.educacao });
      const convite = await api.convidar(c.id, m.fornecedores[0]!.id);
      await api.transicao(c.id, 'iniciar');
      await api.responder(c.id, convite.id, [{ produtoId: p0, valorUnitario: '9' }]);
      const preco = (await api.mapa(c.id)).precos[0]!;
      const body = { produtoId: p0, fonte: 'painel', fonteDescricao: 'Painel', valorUnitario: '1', dataColeta: preco.dataColeta, version: preco.version };
      expect((await api.call('PUT', `/cotacoes/${c.id}/precos/${preco.id}`, body)).status).toBe(409);
      expect((await api.call('DELETE', `/cotacoes/${c.id}/precos/${preco.id}`)).status).toBe(409);
      expect((await api.call('DELETE', `/cotacoes/${c.id}/fornecedores/${convite.id}`)).status).toBe(409);
    });
  });
});
