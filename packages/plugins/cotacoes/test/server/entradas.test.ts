// Hostile inputs of the cotações API, on both engines (issue 18). Impossible dates on every date field
// (month 13 was `RangeError: Invalid time value` → 500): month 00/13/99, 31/02, 30/02 and 29/02 of a
// common year, written dd/mm/aaaa or aaaa-mm-dd, and instants with such a day, are a 400 naming the
// field. An evidence's file name is stored without control or bidirectional-override characters.
import { describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import { type Mundo, cliente, dia, em, plugins, prepararMundo } from './helpers.js';

const DIAS = ['10/00/2026', '10/13/2026', '10/99/2026', '2026-00-10', '2026-13-10', '2026-99-10', '31/02/2026', '30/02/2024', '29/02/2025', '2025-02-29'];
const INSTANTES = ['2026-13-01T10:00:00Z', '2026-00-10T10:00:00.000Z', '2026-99-10T10:00:00-03:00', '2026-02-31T10:00:00Z', '2025-02-29T10:00:00-03:00'];

describeEachDatabase('@app/cotacoes: datas impossíveis e nomes de arquivo', { plugins }, (t) => {
  let m: Mundo;
  const api = cliente(t, () => m.tokens.comprador);
  let cotacao: { id: string; version: number };
  let conviteId: string;

  beforeAll(async () => {
    m = await prepararMundo(t, 'datas');
    cotacao = await api.criar([m.produtos[0]!], { centroCustoId: m.centros.educacao });
    const convite = await api.convidar(cotacao.id, m.fornecedores[0]!.id);
    conviteId = convite.id;
  });

  const corpo = (extra: Record<string, unknown>) => ({
    objeto: 'Material de expediente para as escolas',
    centroCustoId: m.centros.educacao,
    dataReferencia: dia(),
    metodo: 'media',
    itens: [{ produtoId: m.produtos[0], quantidade: '1' }],
    ...extra,
  });

  it('dataReferencia on POST and PUT: 400 "Data de referência: data inexistente."', async () => {
    for (const data of DIAS) {
      const post = await api.call('POST', '/cotacoes', corpo({ dataReferencia: data }));
      expect(post.status, `POST ${data}`).toBe(400);
      expect(post.body.error?.fields?.dataReferencia, data).toBe('Data de referência: data inexistente.');
      const put = await api.call('PUT', `/cotacoes/${cotacao.id}`, corpo({ dataReferencia: data, version: cotacao.version }));
      expect(put.status, `PUT ${data}`).toBe(400);
      expect(put.body.error?.fields?.dataReferencia, data).toBe('Data de referência: data inexistente.');
    }
    // a real day in either writing still goes through
    const ok = await api.call('PUT', `/cotacoes/${cotacao.id}`, corpo({ dataReferencia: dia().split('-').reverse().join('/'), version: cotacao.version }));
    expect(ok.status).toBe(200);
    expect(ok.body.dataReferencia).toBe(dia());
    cotacao.version = ok.body.version as number;
  });

  it('prazo (an instant) on POST: 400 "Prazo de resposta: data inexistente."', async () => {
    for (const prazo of INSTANTES) {
      const r = await api.call('POST', '/cotacoes', corpo({ prazo }));
      expect(r.status, prazo).toBe(400);
      expect(r.body.error?.fields?.prazo, prazo).toBe('Prazo de resposta: data inexistente.');
    }
  });

  it("validade and dataProposta of a supplier's answer: 400 naming the field", async () => {
    expect((await api.transicao(cotacao.id, 'iniciar')).status).toBe(200);
    const itens = [{ produtoId: m.produtos[0]!, valorUnitario: '10' }];
    for (const validade of DIAS) {
      const r = await api.call('PUT', `/cotacoes/${cotacao.id}/fornecedores/${conviteId}/resposta`, { dataProposta: em(dia(-1)), validade, itens });
      expect(r.status, validade).toBe(400);
      expect(r.body.error?.fields?.validade, validade).toBe('Validade da proposta: data inexistente.');
    }
    for (const dataProposta of INSTANTES) {
      const r = await api.call('PUT', `/cotacoes/${cotacao.id}/fornecedores/${conviteId}/resposta`, { dataProposta, validade: dia(30), itens });
      expect(r.status, dataProposta).toBe(400);
      expect(r.body.error?.fields?.dataProposta, dataProposta).toBe('Data da proposta: data inexistente.');
    }
  });

  it('dataColeta of a price of another source: 400 naming the field', async () => {
    for (const dataColeta of INSTANTES) {
      const r = await api.call('POST', `/cotacoes/${cotacao.id}/precos`, {
        produtoId: m.produtos[0],
        fonte: 'painel',
        fonteDescricao: 'Painel de Preços',
        valorUnitario: '10',
        dataColeta,
      });
      expect(r.status, dataColeta).toBe(400);
      expect(r.body.error?.fields?.dataColeta, dataColeta).toBe('Data da coleta: data inexistente.');
    }
  });

  it('an evidence named with an RTL override (fatura<U+202E>fdp.exe) is stored with the cleaned name', async () => {
    const pdf = new TextEncoder().encode('%PDF-1.4\n%%EOF\n');
    const res = await t.server.upload(`/api/cotacoes/cotacoes/${cotacao.id}/evidencias`, m.tokens.comprador, {
      content: pdf,
      filename: 'fatura\u202Efdp.exe\u0000.pdf',
      type: 'application/pdf',
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const body = (await res.json()) as { id: string; nome: string };
    expect(body.nome).toBe('faturafdp.exe.pdf');
    const [row] = await t.server.sql<{ nome: string }>('SELECT nome FROM cotacao_evidencias WHERE id = $1', [body.id]);
    expect(row!.nome).toBe('faturafdp.exe.pdf');
    const [audit] = await t.server.sql<{ depois: { nome: string } }>("SELECT depois FROM audit_log WHERE acao = 'enviar_evidencia' AND depois->>'id' = $1", [
      body.id,
    ]);
    expect(audit!.depois.nome).toBe('faturafdp.exe.pdf');
  });
});
