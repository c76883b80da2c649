// The requisição's PDF as an auditor reads it (issue 18): each approval level (alçada, who, when), the
// returns and rejections with their reasons, the source documents (memorando, pré-requisição), the
// dispensa alert, the signatures of who really acted with their roles; and the verification code of
// every document PDF, checked on the public route GET /api/verificar/:codigo.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describeEachDatabase } from '@app/server-core/testing';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { beforeAll, expect, it } from 'vitest';
import { type ErrorBody, type Fixture, type User, createFixture, createPerfil, createUser, insert, plugins } from './helpers.js';

const STANDARD_FONTS = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** The text of every page of a PDF, in reading order, spaces collapsed. */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocument({ data: bytes.slice(), standardFontDataUrl: STANDARD_FONTS, isEvalSupported: false }).promise;
  const out: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    for (const item of content.items) if ('str' in item) out.push(item.str);
  }
  return out.join(' ').replace(/\s+/g, ' ');
}

type Doc = { id: string; numero: number; ano: number; status: string; version: number; itens: { id: string }[] };
type Verificacao = {
  codigo: string;
  entidade: string;
  documento: string;
  numero: string;
  status: string | null;
  emitidoEm: string;
  conteudoHash: string;
  alterado: boolean | null;
  situacao: string;
};

const CODIGO = /Código de verificação: ([A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4})/;
const DATA_HORA = /\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/;

describeEachDatabase('requisicoes: the PDF and its verification code', { plugins, trustProxy: true, throttle: { ipMaxFailures: 3 } }, (t) => {
  let fx: Fixture;
  let admin: string;
  let rita: User; // requisitante, Educação
  let comprador: User; // every centro (not of Educação): writes the requisição
  let chefe: User; // level 1
  let ordenador: User; // level 2
  let memorandoNumero: string;
  let preNumero: string;
  let preItem: string;

  const api = (path: string, token: string, init: { method?: string; json?: unknown } = {}) => t.server.request(`/api/requisicoes${path}`, { token, ...init });
  const agir = async (d: { id: string; version: number }, acao: string, token: string, extra: Record<string, unknown> = {}) => {
    const res = await api(`/requisicoes/${d.id}/${acao}`, token, { json: { version: d.version, ...extra } });
    const body = (await res.json()) as Doc & ErrorBody;
    expect(res.status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const pdf = async (id: string, token: string) => {
    const res = await api(`/requisicoes/${id}.pdf`, token);
    expect(res.status).toBe(200);
    return pdfText(new Uint8Array(await res.arrayBuffer()));
  };
  const verificar = (codigo: string, ip = '198.51.100.7') =>
    t.server.request(`/api/verificar/${encodeURIComponent(codigo)}`, { headers: { 'x-forwarded-for': ip } });

  beforeAll(async () => {
    fx = await createFixture(t.server);
    admin = (await t.server.signIn(undefined, undefined, fx.entidadeId)).token;
    await t.server.sql("UPDATE registros_centros_custo SET responsavel_nome = 'Helena Diretora' WHERE id = $1", [fx.educacao]);
    const requisitante = await createPerfil(t.server, fx, 'Requisitante', { tags: [29, 39] });
    const chefia = await createPerfil(t.server, fx, 'Chefia');
    const ordenadorPerfil = await createPerfil(t.server, fx, 'Ordenador', { todos: true });
    rita = await createUser(t.server, fx, 'rita', requisitante, [fx.educacao]);
    comprador = await createUser(t.server, fx, 'comprador', await createPerfil(t.server, fx, 'Compras', { todos: true, tags: [29, 39] }));
    chefe = await createUser(t.server, fx, 'chefe', chefia, [fx.educacao]);
    ordenador = await createUser(t.server, fx, 'ordenador', ordenadorPerfil);
    for (const a of [
      { nivel: 1, nome: 'Chefia imediata', valorMinimo: '0', perfis: [chefia] },
      { nivel: 2, nome: 'Ordenador de despesa', valorMinimo: '10.000,00', perfis: [ordenadorPerfil] },
    ]) {
      const res = await api('/alcadas', admin, { json: a });
      expect(res.status, await res.clone().text()).toBe(201);
    }
    // a dispensa limit the requisição passes: the alert is printed
    const ano = new Date().getFullYear();
    expect((await api('/limites-dispensa', admin, { json: { ano, categoria: 'compras', valor: '5.000,00' } })).status).toBe(201);
    // an accepted memorando of Educação (the DFD) → a pré-requisição from it, sent
    const memorandoId = await insert(t.server, 'memorandos', {
      entidade_id: fx.entidadeId,
      numero: 7,
      ano: 2026,
      data: '2026-03-02',
      status: 'aceito',
      origem_id: fx.educacao,
      destino_id: fx.compras,
      solicitante_id: rita.id,
      solicitante_nome: 'Pessoa rita',
      assunto: 'Papel para as escolas',
      justificativa: 'Reposição do papel das escolas no semestre.',
      valor_total: '12000.00',
    });
    await insert(t.server, 'memorando_itens', {
      memorando_id: memorandoId,
      entidade_id: fx.entidadeId,
      ordem: 1,
      produto_id: fx.papel,
      quantidade: '400',
      valor_unitario: '30',
      valor_total: '12000.00',
    });
    memorandoNumero = '7/2026';
    const pre = await api('/pre-requisicoes/de-memorando', rita.token, { json: { memorandoId, centroCustoId: fx.educacao, tipoSolicitacaoId: fx.tipo } });
    expect(pre.status, await pre.clone().text()).toBe(201);
    const p = (await pre.json()) as Doc;
    preNumero = `${p.numero}/${p.ano}`;
    preItem = p.itens[0]!.id;
    const enviada = await api(`/pre-requisicoes/${p.id}/enviar`, rita.token, { json: { version: p.version } });
    expect(enviada.status, await enviada.clone().text()).toBe(200);
  });

  const criar = async (token: string, itens: Record<string, unknown>[]) => {
    const res = await api('/requisicoes', token, {
      json: {
        centroCustoId: fx.educacao,
        tipoSolicitacaoId: fx.tipo,
        categoria: 'compras',
        justificativa: 'Papel para as escolas no semestre letivo.',
        itens,
      },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as Doc;
  };

  it('prints the levels (alçada, who, when), the return and its reason, the sources, the dispensa alert and the right signatures', async () => {
    // the comprador (every centro, not of Educação) writes it from the pré-requisição
    let d = await criar(comprador.token, [{ produtoId: fx.papel, quantidade: '400', valorUnitario: '30', preRequisicaoItemId: preItem }]);
    const rascunho = await pdf(d.id, comprador.token);
    expect(rascunho).toContain('Ainda não enviada para aprovação.');
    d = await agir(d, 'enviar', comprador.token);
    d = await agir(d, 'devolver', chefe.token, { motivo: 'Informe a dotação correta do exercício.' });
    d = await agir(d, 'enviar', comprador.token);
    d = await agir(d, 'aprovar', chefe.token, { ciente: true });
    d = await agir(d, 'aprovar', ordenador.token, { ciente: true });
    expect(d.status).toBe('aprovada');

    const text = await pdf(d.id, rita.token);
    // the approval levels of this round: alçada, who, when (dd/mm/aaaa hh:mm)
    expect(text).toContain('Aprovação');
    expect(text).toMatch(new RegExp(`1 Chefia imediata Pessoa chefe ${DATA_HORA.source}`));
    expect(text).toMatch(new RegExp(`2 Ordenador de despesa Pessoa ordenador ${DATA_HORA.source}`));
    expect(text).toContain('Rodada de aprovação nº 2');
    // the processing, with the return, who returned it and why
    expect(text).toContain('Tramitação');
    expect(text).toMatch(new RegExp(`${DATA_HORA.source} Devolução Pessoa chefe Informe a dotação correta do exercício\\.`));
    expect(text).toMatch(/Aprovação – nível 1 Pessoa chefe/);
    // the sources
    expect(text).toContain(`Pré-requisições de origem ${preNumero}`);
    expect(text).toContain(`Memorandos (DFD) de origem ${memorandoNumero}`);
    // the dispensa alert
    expect(text).toContain('Alerta de limite de dispensa (possível fracionamento)');
    expect(text).toMatch(/Grupo GA – Material de expediente: R\$ 12\.000,00 .* acima do limite de dispensa de R\$ 5\.000,00/);
    // signatures: the person who asked as 'Solicitante' (not of the centro), the centro's responsável, each approver with their level
    expect(text).toContain('Pessoa comprador Solicitante');
    expect(text).not.toContain('Solicitante – Secretaria de Educação');
    expect(text).toContain('Helena Diretora Responsável pelo centro de custo – Secretaria de Educação');
    expect(text).toContain('Pessoa chefe Aprovação – nível 1 (Chefia imediata)');
    expect(text).toContain('Pessoa ordenador Aprovação – nível 2 (Ordenador de despesa)');
    expect(text).toMatch(CODIGO);
  });

  it('prints a rejection with who rejected it, when and why', async () => {
    let d = await criar(comprador.token, [{ produtoId: fx.caneta, quantidade: '10', valorUnitario: '2' }]);
    d = await agir(d, 'enviar', comprador.token);
    d = await agir(d, 'reprovar', chefe.token, { motivo: 'Há canetas no almoxarifado central.' });
    const text = await pdf(d.id, comprador.token);
    expect(text).toMatch(new RegExp(`${DATA_HORA.source} Reprovação Pessoa chefe Há canetas no almoxarifado central\\.`));
    expect(text).toContain('1 Chefia imediata Não aprovado');
    expect(text).toContain('Pré-requisições de origem Nenhuma (itens informados diretamente)');
  });

  it('checks the code of a PDF on the public route, without a token: the document, no personal data, and whether it changed since', async () => {
    const d = await criar(comprador.token, [{ produtoId: fx.caneta, quantidade: '5', valorUnitario: '3' }]);
    const text = await pdf(d.id, comprador.token);
    const codigo = CODIGO.exec(text)![1]!;
    expect(text).toMatch(new RegExp(`${codigo} — confira em http://\\S+/verificar · SHA-256 [0-9a-f]{16}`));
    const [entidade] = await t.server.sql<{ nome: string }>('SELECT nome FROM entidades WHERE id = $1', [fx.entidadeId]);

    const res = await verificar(codigo);
    expect(res.status).toBe(200);
    const v = (await res.json()) as Verificacao;
    expect(v).toMatchObject({
      codigo,
      entidade: entidade!.nome,
      documento: 'Requisição',
      numero: `${d.numero}/${d.ano}`,
      status: 'Rascunho',
      alterado: false,
      situacao: 'O conteúdo atual do documento é o mesmo desta emissão.',
    });
    expect(v.emitidoEm).toMatch(new RegExp(`^${DATA_HORA.source}$`));
    expect(v.conteudoHash).toMatch(/^[0-9a-f]{64}$/);
    expect(text).toContain(`SHA-256 ${v.conteudoHash.slice(0, 16)}`);
    // nothing personal: no e-mail, no CPF, not who issued it, no ids
    const raw = JSON.stringify(v);
    expect(raw).not.toMatch(/@|\d{3}\.\d{3}\.\d{3}-\d{2}|Pessoa comprador|comprador/);
    expect(raw).not.toContain(d.id);
    expect(Object.keys(v).sort()).toEqual(['alterado', 'codigo', 'conteudoHash', 'documento', 'emitidoEm', 'entidade', 'numero', 'situacao', 'status']);
    // typed as a person would: lowercase, spaces instead of dashes
    expect((await verificar(codigo.toLowerCase().replace(/-/g, ' '))).status).toBe(200);
    // the same content printed again: the same hash, another code
    const again = await pdf(d.id, comprador.token);
    const codigo2 = CODIGO.exec(again)![1]!;
    expect(codigo2).not.toBe(codigo);
    expect(((await (await verificar(codigo2)).json()) as Verificacao).conteudoHash).toBe(v.conteudoHash);

    // the document changes: the first code now says so
    const atual = (await (await api(`/requisicoes/${d.id}`, comprador.token)).json()) as Doc;
    const put = await api(`/requisicoes/${d.id}`, comprador.token, {
      method: 'PUT',
      json: {
        version: atual.version,
        centroCustoId: fx.educacao,
        tipoSolicitacaoId: fx.tipo,
        categoria: 'compras',
        justificativa: 'Canetas para a secretaria, quantidade revista.',
        itens: [{ produtoId: fx.caneta, quantidade: '50', valorUnitario: '3' }],
      },
    });
    expect(put.status, await put.clone().text()).toBe(200);
    const depois = (await (await verificar(codigo)).json()) as Verificacao;
    expect(depois).toMatchObject({ alterado: true, situacao: 'O documento foi alterado depois desta emissão: o conteúdo atual é diferente do impresso.' });
    expect(depois.conteudoHash).toBe(v.conteudoHash); // what was printed, not what is there now
  });

  it('answers 404 to an unknown or malformed code, and 429 after too many misses from one address', async () => {
    const ip = '203.0.113.9';
    for (const codigo of ['AAAA-BBBB-CCCC', 'isto não é um código']) {
      const res = await verificar(codigo, ip);
      expect(res.status).toBe(404);
      expect(((await res.json()) as ErrorBody).error.message).toBe('Código de verificação não encontrado. Confira o código impresso no documento.');
    }
    expect((await verificar('AAAA-BBBB-CCCD', ip)).status).toBe(404);
    const bloqueado = await verificar('AAAA-BBBB-CCCE', ip);
    expect(bloqueado.status).toBe(429);
    expect(bloqueado.headers.get('retry-after')).toMatch(/^\d+$/);
    // another address is not affected, and a known code never counts as a miss
    expect((await verificar('AAAA-BBBB-CCCC', '203.0.113.10')).status).toBe(404);
  });
});
