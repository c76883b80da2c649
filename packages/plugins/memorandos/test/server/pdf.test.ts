// The memorando's PDF is the DFD (Documento de Formalização da Demanda, Lei 14.133/2021 art. 12, VII):
// it says so, says who accepted it and when, the returns with who, when and why, signs as the right
// people, and carries a verification code the public route checks (issue 18).
import { describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import { type Fixture, createFixture, pdfText, plugins } from './helpers.js';

type Memorando = { id: string; numero: number; ano: number; status: string; version: number };
const DATA_HORA = '\\d{2}/\\d{2}/\\d{4} \\d{2}:\\d{2}';

describeEachDatabase('memorandos: the PDF is the DFD', { plugins }, (t) => {
  let fx: Fixture;
  let rita: { token: string; id: string };
  let bruno: { token: string; id: string };

  beforeAll(async () => {
    fx = await createFixture(t.server);
    await t.server.sql("UPDATE registros_centros_custo SET responsavel_nome = 'Helena Diretora' WHERE id = $1", [fx.educacao]);
    rita = await t.server.createUser({ login: 'rita', nome: 'Rita Requisitante', tags: [29], centros: [fx.educacao] });
    bruno = await t.server.createUser({ login: 'bruno', nome: 'Bruno Comprador', tags: [29], centros: [fx.compras] });
  });

  const api = (path: string, token: string, init: { method?: string; json?: unknown } = {}) => t.server.request(`/api/memorandos${path}`, { token, ...init });
  const agir = async (m: { id: string; version: number }, acao: string, token: string, motivo?: string) => {
    const res = await api(`/memorandos/${m.id}/${acao}`, token, { json: { version: m.version, ...(motivo ? { motivo } : {}) } });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as Memorando;
  };
  const pdf = async (id: string, token = rita.token) => {
    const res = await api(`/memorandos/${id}.pdf`, token);
    expect(res.status).toBe(200);
    return pdfText(new Uint8Array(await res.arrayBuffer()));
  };

  it('says it is the DFD, who accepted it and when, the return with its reason, and signs as solicitante, responsável and who accepted', async () => {
    const res = await api('/memorandos', rita.token, {
      json: {
        origemId: fx.educacao,
        destinoId: fx.compras,
        assunto: 'Papel para as escolas',
        justificativa: 'Reposição do papel das secretarias escolares no semestre.',
        prioridade: 'alta',
        itens: [{ produtoId: fx.papel, quantidade: '10', valorUnitario: '25' }],
      },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    let m = (await res.json()) as Memorando;
    const rascunho = await pdf(m.id);
    expect(rascunho).toContain('Documento de Formalização da Demanda (DFD)');
    expect(rascunho).toContain('Lei nº 14.133/2021, art. 12, VII');
    expect(rascunho).toContain('Aceite Ainda não aceito pelo destino.');
    m = await agir(m, 'enviar', rita.token);
    m = await agir(m, 'devolver', bruno.token, 'Falta a quantidade por escola.');
    m = await agir(m, 'enviar', rita.token);
    m = await agir(m, 'aceitar', bruno.token);
    const text = await pdf(m.id);
    expect(text).toMatch(new RegExp(`^Memorando nº ${m.numero}/${m.ano} Aceito Documento de Formalização da Demanda \\(DFD\\)`));
    expect(text).toMatch(new RegExp(`Aceito por Bruno Comprador Aceito em ${DATA_HORA}`));
    expect(text).toMatch(new RegExp(`${DATA_HORA} Devolução Bruno Comprador Falta a quantidade por escola\\.`));
    expect(text).toMatch(new RegExp(`${DATA_HORA} Aceite Bruno Comprador`));
    expect(text).toContain('Rita Requisitante Solicitante');
    expect(text).not.toContain('Solicitante – Secretaria de Educação');
    expect(text).toContain('Helena Diretora Responsável pelo centro de custo de origem – Secretaria de Educação');
    expect(text).toContain('Bruno Comprador Aceite – Compras e Licitações');

    // its verification code: the document, with the DFD in its title, unchanged
    const codigo = /Código de verificação: ([A-Z2-9-]{14})/.exec(text)![1]!;
    const v = await t.server.request(`/api/verificar/${codigo}`);
    expect(v.status).toBe(200);
    expect(await v.json()).toMatchObject({
      codigo,
      documento: 'Memorando — Documento de Formalização da Demanda (DFD)',
      numero: `${m.numero}/${m.ano}`,
      status: 'Aceito',
      alterado: false,
    });
    // archived later: the printed status is no longer the document's
    await agir(m, 'arquivar', bruno.token);
    expect(await (await t.server.request(`/api/verificar/${codigo}`)).json()).toMatchObject({ alterado: true });
  });
});
