// The measures of issue 11 that are API tests, on both engines: the age of prices against the
// reference date (6 months to the day, ± 1 day, in São Paulo; contracts 1 year), a person's inclusion
// and exclusion, the three-price rule with and without the approved justification (approval by the
// autoridade competente only, never by its author), another winner with a reason of 20 characters,
// and the conclusion that freezes the estimated prices and feeds them back to the requisição.
import { describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SituacaoPreco } from '../../src/shared/index.js';
import { type Mundo, cliente, dia, em, mesesAntes, plugins, prepararMundo, requisicaoAprovada, somarDias } from './helpers.js';

describeEachDatabase('@app/cotacoes: cálculo, regras e conclusão', { plugins }, (t) => {
  let m: Mundo;
  const api = cliente(t, () => m.tokens.comprador);
  const situacoes = async (id: string) => {
    const mapa = await api.mapa(id);
    return new Map<string, SituacaoPreco>(mapa.avaliacao.precos.map((p) => [p.precoId, p]));
  };
  const auditoria = (registro: string, acao: string) =>
    t.server.sql<{ plugin: string; usuario_id: string; antes: unknown; depois: Record<string, unknown> }>(
      'SELECT plugin, usuario_id, antes, depois FROM audit_log WHERE registro = $1 AND acao = $2 ORDER BY id',
      [registro, acao],
    );

  beforeAll(async () => {
    m = await prepararMundo(t, 'calc');
  });

  describe('idade dos preços', () => {
    let id: string;
    const ref = dia(-40);
    const seis = mesesAntes(ref, 6);
    const doze = mesesAntes(ref, 12);
    const ids = {} as Record<
      | 'siteNoLimite'
      | 'siteUmDiaAntes'
      | 'siteUmDiaDepois'
      | 'contratoNoLimite'
      | 'contratoUmDiaAntes'
      | 'contratoOnzeMeses'
      | 'propostaNoLimite'
      | 'propostaUmDiaAntes',
      string
    >;

    beforeAll(async () => {
      const c = await api.criar(m.produtos.slice(0, 3), { centroCustoId: m.centros.educacao, dataReferencia: ref });
      id = c.id;
      const [p0, p1, p2] = m.produtos as [string, string, string];
      const site = (data: string, hora: string) => ({
        produtoId: p0,
        fonte: 'midia',
        fonteDescricao: 'Loja virtual',
        link: 'https://www.example.com/item',
        valorUnitario: '10',
        dataColeta: em(data, hora),
      });
      ids.siteNoLimite = (await api.preco(id, site(seis, '00:30'))).id;
      ids.siteUmDiaAntes = (await api.preco(id, site(somarDias(seis, -1), '23:30'))).id;
      ids.siteUmDiaDepois = (await api.preco(id, site(somarDias(seis, 1), '12:00'))).id;
      const contrato = (data: string) => ({
        produtoId: p1,
        fonte: 'contrato',
        fonteDescricao: 'Contrato 12/2025 – Município vizinho',
        valorUnitario: '11',
        dataColeta: em(data),
      });
      ids.contratoNoLimite = (await api.preco(id, contrato(doze))).id;
      ids.contratoUmDiaAntes = (await api.preco(id, contrato(somarDias(doze, -1)))).id;
      ids.contratoOnzeMeses = (await api.preco(id, contrato(mesesAntes(ref, 11)))).id;
      // a supplier's quote: 6 months as well
      expect((await api.transicao(id, 'iniciar')).status).toBe(200);
      const [f1, f2] = m.fornecedores as [Mundo['fornecedores'][number], Mundo['fornecedores'][number]];
      const c1 = await api.convidar(id, f1.id);
      const c2 = await api.convidar(id, f2.id);
      await api.responder(id, c1.id, [{ produtoId: p2, valorUnitario: '12' }], { dataProposta: em(seis, '10:00'), validade: somarDias(ref, 10) });
      await api.responder(id, c2.id, [{ produtoId: p2, valorUnitario: '13' }], {
        dataProposta: em(somarDias(seis, -1), '10:00'),
        validade: somarDias(ref, 10),
      });
      const mapa = await api.mapa(id);
      ids.propostaNoLimite = mapa.precos.find((p) => p.fornecedorId === f1.id)!.id;
      ids.propostaUmDiaAntes = mapa.precos.find((p) => p.fornecedorId === f2.id)!.id;
    });

    it('a site price of exactly 6 months (to the day, in São Paulo) counts; one day older is left out, with the reason', async () => {
      const s = await situacoes(id);
      expect(s.get(ids.siteNoLimite)).toMatchObject({ valido: true, exclusao: null });
      expect(s.get(ids.siteUmDiaDepois)).toMatchObject({ valido: true, exclusao: null });
      // 23:30 in São Paulo is already the next day in UTC: the São Paulo day decides
      expect(s.get(ids.siteUmDiaAntes)).toMatchObject({ valido: false, usado: false, exclusao: 'antigo' });
      expect(s.get(ids.siteUmDiaAntes)!.motivo).toContain('6 meses');
    });

    it('a contract price counts for 1 year (to the day); one day older is left out', async () => {
      const s = await situacoes(id);
      expect(s.get(ids.contratoNoLimite)).toMatchObject({ valido: true });
      expect(s.get(ids.contratoOnzeMeses)).toMatchObject({ valido: true });
      expect(s.get(ids.contratoUmDiaAntes)).toMatchObject({ valido: false, exclusao: 'antigo' });
      expect(s.get(ids.contratoUmDiaAntes)!.motivo).toContain('1 ano');
    });

    it("a supplier's quote counts for 6 months from the quote's date", async () => {
      const s = await situacoes(id);
      expect(s.get(ids.propostaNoLimite)).toMatchObject({ valido: true });
      expect(s.get(ids.propostaUmDiaAntes)).toMatchObject({ valido: false, exclusao: 'antigo' });
    });

    it('a person includes an old price with a reason (audited), and restores the automatic rule', async () => {
      const alvo = ids.siteUmDiaAntes;
      const curto = await api.call('POST', `/cotacoes/${id}/precos/${alvo}/incluir`, { motivo: 'curto' });
      expect(curto.status).toBe(400);
      expect(curto.body.error?.fields?.motivo).toContain('10 caracteres');
      const motivo = 'Único fornecedor do item na região no período.';
      const incluido = await api.ok<{ inclusaoMotivo: string }>('POST', `/cotacoes/${id}/precos/${alvo}/incluir`, { motivo }, 200);
      expect(incluido.inclusaoMotivo).toBe(motivo);
      expect((await situacoes(id)).get(alvo)).toMatchObject({ valido: true, incluidoPorDecisao: true });
      const [row] = await auditoria(id, 'incluir_preco_no_calculo');
      expect(row).toMatchObject({ usuario_id: m.ids.comprador, depois: { precoId: alvo, motivo } });
      // a price that already counts cannot be 'included'
      expect((await api.call('POST', `/cotacoes/${id}/precos/${ids.siteNoLimite}/incluir`, { motivo })).status).toBe(409);
      await api.ok('POST', `/cotacoes/${id}/precos/${alvo}/restaurar`, undefined, 200);
      expect((await situacoes(id)).get(alvo)).toMatchObject({ valido: false, exclusao: 'antigo' });
    });

    it('a person excludes a valid price with a reason: it stays visible, marked, out of the calculation', async () => {
      const alvo = ids.siteUmDiaDepois;
      await api.ok('POST', `/cotacoes/${id}/precos/${alvo}/excluir`, { motivo: 'Preço promocional de liquidação, fora do mercado.' }, 200);
      const mapa = await api.mapa(id);
      expect(mapa.precos.some((p) => p.id === alvo)).toBe(true);
      expect(mapa.avaliacao.precos.find((p) => p.precoId === alvo)).toMatchObject({ valido: false, exclusao: 'manual' });
      await api.ok('POST', `/cotacoes/${id}/precos/${alvo}/restaurar`, undefined, 200);
    });
  });

  describe('regra dos três preços', () => {
    let id: string;
    let p0: string;
    let p1: string;

    beforeAll(async () => {
      [p0, p1] = m.produtos as [string, string];
      const c = await api.criar([p0, p1], { centroCustoId: m.centros.educacao });
      id = c.id;
      for (const valor of ['10', '11', '12']) await api.preco(id, { produtoId: p0, valorUnitario: valor });
      await api.preco(id, { produtoId: p1, valorUnitario: '20' });
      await api.preco(id, { produtoId: p1, valorUnitario: '22' });
      expect((await api.transicao(id, 'iniciar')).status).toBe(200);
    });

    it('an item with fewer than three valid prices blocks the conclusion without an approved justification', async () => {
      const r = await api.transicao(id, 'concluir');
      expect(r.status).toBe(409);
      expect(r.body.error?.code).toBe('justificativa_pendente');
      expect(r.body.error?.message).toMatch(/menos de três preços válidos: 2\. /);
      expect((await api.mapa(id)).avaliacao.itensMenosDeTres).toEqual([p1]);
    });

    it('a typed justification is not enough: it needs the approval', async () => {
      const curta = await api.call('PUT', `/cotacoes/${id}/justificativa`, { texto: 'Poucos fornecedores' });
      expect(curta.status).toBe(400);
      await api.ok('PUT', `/cotacoes/${id}/justificativa`, { texto: 'Mercado restrito: só dois fornecedores atendem a especificação.' }, 200);
      const r = await api.transicao(id, 'concluir');
      expect(r.status).toBe(409);
      expect(r.body.error?.message).toContain('aprovada pela autoridade competente');
    });

    it('only a holder of the autoridade tag approves (403 otherwise), never the person who typed it', async () => {
      const semTag = await api.call('POST', `/cotacoes/${id}/justificativa/aprovar`, undefined, m.tokens.comprador);
      expect(semTag.status).toBe(403);
      // the author, even holding tag 100, cannot approve their own justification
      await api.ok(
        'PUT',
        `/cotacoes/${id}/justificativa`,
        { texto: 'Mercado restrito: só dois fornecedores atendem a especificação técnica.' },
        200,
        m.tokens.compradorAutoridade,
      );
      const autor = await api.call('POST', `/cotacoes/${id}/justificativa/aprovar`, undefined, m.tokens.compradorAutoridade);
      expect(autor.status).toBe(403);
      expect(autor.body.error?.message).toContain('não pode aprová-la');
      const aprovada = await api.ok<{ justificativaAprovadaPorNome: string; justificativaAprovadaEm: string }>(
        'POST',
        `/cotacoes/${id}/justificativa/aprovar`,
        undefined,
        200,
        m.tokens.autoridade,
      );
      expect(aprovada.justificativaAprovadaPorNome).toBe('Augusto Autoridade');
      expect((await api.call('POST', `/cotacoes/${id}/justificativa/aprovar`, undefined, m.tokens.autoridade)).status).toBe(409);
      expect((await auditoria(id, 'aprovar_justificativa')).length).toBe(1);
    });

    it('changing the text clears the approval', async () => {
      await api.ok('PUT', `/cotacoes/${id}/justificativa`, { texto: 'Mercado restrito: apenas dois fornecedores na região atendem.' }, 200);
      const mapa = await api.mapa(id);
      expect(mapa.cotacao.justificativaAprovadaEm).toBeNull();
      expect((await api.transicao(id, 'concluir')).status).toBe(409);
      await api.ok('POST', `/cotacoes/${id}/justificativa/aprovar`, undefined, 200, m.tokens.autoridade);
      expect((await api.mapa(id, m.tokens.autoridade)).podeAprovarJustificativa).toBe(true);
    });

    it('with the approved justification it concludes; the items freeze at the estimated prices', async () => {
      const r = await api.transicao(id, 'concluir');
      expect(r.status).toBe(200);
      expect(r.body.status).toBe('concluida');
      const mapa = await api.mapa(id);
      expect(mapa.cotacao.concluidaEm).not.toBeNull();
      // média: (10 + 11 + 12) / 3 = 11.00 and (20 + 22) / 2 = 21.00; × 10 each
      expect(mapa.itens.map((i) => i.valorReferencia)).toEqual(['11', '21']);
      expect(mapa.cotacao.valorTotal).toBe('320.00');
      expect(mapa.podeEditar).toBe(false);
    });

    it('three valid prices per item conclude without any justification', async () => {
      const c = await api.criar([p0], { centroCustoId: m.centros.educacao });
      for (const valor of ['10', '20', '30']) await api.preco(c.id, { produtoId: p0, valorUnitario: valor });
      await api.transicao(c.id, 'iniciar');
      const r = await api.transicao(c.id, 'concluir');
      expect(r.status).toBe(200);
      expect((await api.mapa(c.id)).itens[0]!.valorReferencia).toBe('20');
    });

    it('an item without any valid price blocks the conclusion, named in the message', async () => {
      const c = await api.criar([p0, p1], { centroCustoId: m.centros.educacao });
      for (const valor of ['10', '20', '30']) await api.preco(c.id, { produtoId: p0, valorUnitario: valor });
      await api.transicao(c.id, 'iniciar');
      const r = await api.transicao(c.id, 'concluir');
      expect(r.status).toBe(409);
      expect(r.body.error?.code).toBe('sem_preco');
      expect(r.body.error?.message).toMatch(/^Este item não tem preço válido: 2\. /);
    });
  });

  describe('vencedor escolhido por uma pessoa', () => {
    let id: string;
    let p0: string;
    let p1: string;
    const precos: Record<string, string> = {};

    beforeAll(async () => {
      [p0, p1] = m.produtos as [string, string];
      const c = await api.criar([p0, p1], { centroCustoId: m.centros.educacao });
      id = c.id;
      await api.transicao(id, 'iniciar');
      const [f1, f2, f3] = m.fornecedores as [Mundo['fornecedores'][number], Mundo['fornecedores'][number], Mundo['fornecedores'][number]];
      for (const [f, valor] of [
        [f1, '10'],
        [f2, '12'],
        [f3, '15'],
      ] as const) {
        const convite = await api.convidar(id, f.id);
        await api.responder(id, convite.id, [
          { produtoId: p0, valorUnitario: valor },
          { produtoId: p1, valorUnitario: '50' },
        ]);
      }
      const mapa = await api.mapa(id);
      for (const p of mapa.precos.filter((x) => x.produtoId === p0)) precos[p.valorUnitario] = p.id;
      precos.outroItem = mapa.precos.find((p) => p.produtoId === p1)!.id;
      precos.painel = (await api.preco(id, { produtoId: p0, valorUnitario: '11' })).id;
    });

    it('defaults to the lowest valid supplier price', async () => {
      const item = (await api.mapa(id)).avaliacao.itens.find((i) => i.produtoId === p0)!;
      expect(item.vencedor).toMatchObject({ precoId: precos['10'], escolhido: false, valorTotal: '100.00' });
      expect(item.menores).toEqual([precos['10']]);
    });

    it('another winner needs a reason of 20 characters (19 → 400)', async () => {
      const r = await api.call('PUT', `/cotacoes/${id}/vencedores/${p0}`, { precoId: precos['12'], motivo: 'a'.repeat(19) });
      expect(r.status).toBe(400);
      expect(r.body.error?.fields?.motivo).toContain('20 caracteres');
    });

    it('with 20 characters it is chosen, the totals change and the choice is audited', async () => {
      const antes = await api.mapa(id);
      const vinte = 'Entrega em 48h úteis';
      expect(vinte.length).toBe(20);
      const escolhido = await api.ok<{ precoId: string; motivo: string }>(
        'PUT',
        `/cotacoes/${id}/vencedores/${p0}`,
        { precoId: precos['12'], motivo: vinte },
        200,
      );
      expect(escolhido).toMatchObject({ precoId: precos['12'], motivo: vinte });
      const depois = await api.mapa(id);
      const item = depois.avaliacao.itens.find((i) => i.produtoId === p0)!;
      expect(item.vencedor).toMatchObject({ precoId: precos['12'], escolhido: true, motivo: vinte, valorTotal: '120.00' });
      expect([antes.avaliacao.valorVencedoresTotal, depois.avaliacao.valorVencedoresTotal]).toEqual(['600.00', '620.00']);
      const [row] = await auditoria(id, 'escolher_vencedor');
      expect(row?.depois).toMatchObject({ precoId: precos['12'], motivo: vinte, valorUnitario: '12' });
    });

    it("a winner must be a valid supplier price of that item (400 otherwise), and the item must be the cotação's (404)", async () => {
      const motivo = 'Escolha justificada pelo prazo de entrega.';
      for (const precoId of [precos.outroItem, precos.painel]) {
        const r = await api.call('PUT', `/cotacoes/${id}/vencedores/${p0}`, { precoId, motivo });
        expect(r.status, precoId).toBe(400);
        expect(r.body.error?.fields?.precoId).toBeTruthy();
      }
      await api.ok('POST', `/cotacoes/${id}/precos/${precos['15']}/excluir`, { motivo: 'Proposta com especificação divergente.' }, 200);
      const fora = await api.call('PUT', `/cotacoes/${id}/vencedores/${p0}`, { precoId: precos['15'], motivo });
      expect(fora.status).toBe(400);
      expect(fora.body.error?.fields?.precoId).toContain('fora do cálculo');
      expect((await api.call('PUT', `/cotacoes/${id}/vencedores/${m.produtos[5]}`, { precoId: precos['12'], motivo })).status).toBe(404);
      expect((await api.call('PUT', `/cotacoes/${id}/vencedores/nao-e-uuid`, { precoId: precos['12'], motivo })).status).toBe(404);
    });

    it('DELETE goes back to the lowest valid price', async () => {
      expect((await api.call('DELETE', `/cotacoes/${id}/vencedores/${p0}`)).status).toBe(204);
      const item = (await api.mapa(id)).avaliacao.itens.find((i) => i.produtoId === p0)!;
      expect(item.vencedor).toMatchObject({ precoId: precos['10'], escolhido: false });
    });
  });

  describe('conclusão a partir de uma requisição', () => {
    it('freezes the items, feeds the estimated unit values back to the requisição (audited there) and locks everything', async () => {
      const [p0, p1] = m.produtos as [string, string];
      const req = await requisicaoAprovada(t, m, 9101, [
        { produtoId: p0, quantidade: '3', valorUnitario: '9.99' },
        { produtoId: p1, quantidade: '2', valorUnitario: '50' },
      ]);
      const criada = await api.ok<{ id: string }>('POST', '/cotacoes/de-requisicao', { requisicaoId: req.id }, 201);
      const id = criada.id;
      await api.ok('PUT', `/cotacoes/${id}`, { ...(await cotacaoParaPut(id)), metodo: 'mediana' }, 200);
      for (const valor of ['10.1', '10.2', '10.6']) await api.preco(id, { produtoId: p0, valorUnitario: valor });
      for (const valor of ['40', '41', '45.555']) await api.preco(id, { produtoId: p1, valorUnitario: valor });
      await api.transicao(id, 'iniciar');
      expect((await api.transicao(id, 'concluir')).status).toBe(200);

      const itens = await t.server.sql<{ ordem: number; valor_unitario: string; valor_total: string }>(
        'SELECT ordem, valor_unitario::text, valor_total::text FROM requisicao_itens WHERE requisicao_id = $1 ORDER BY ordem',
        [req.id],
      );
      expect(itens).toEqual([
        { ordem: 1, valor_unitario: '10.2000', valor_total: '30.60' },
        { ordem: 2, valor_unitario: '41.0000', valor_total: '82.00' },
      ]);
      const [cab] = await t.server.sql<{ valor_total: string; version: number }>('SELECT valor_total::text, version FROM requisicoes WHERE id = $1', [req.id]);
      expect(cab!.valor_total).toBe('112.60');
      const [audit] = await auditoria(req.id, 'valores_da_cotacao');
      expect(audit).toMatchObject({ plugin: 'requisicoes', usuario_id: m.ids.comprador });
      expect(audit!.depois).toMatchObject({ valorTotal: '112.60', itens: [{ valorUnitario: '10.2' }, { valorUnitario: '41' }] });

      // locked: nothing of the cotação changes any more
      const body = await cotacaoParaPut(id);
      const tentativas = [
        await api.call('PUT', `/cotacoes/${id}`, body),
        await api.call('DELETE', `/cotacoes/${id}`),
        await api.call('POST', `/cotacoes/${id}/precos`, {
          produtoId: p0,
          fonte: 'painel',
          fonteDescricao: 'Painel',
          valorUnitario: '1',
          dataColeta: new Date().toISOString(),
        }),
        await api.call('POST', `/cotacoes/${id}/fornecedores`, { fornecedorId: m.fornecedores[0]!.id }),
        await api.call('PUT', `/cotacoes/${id}/justificativa`, { texto: 'Justificativa depois de concluída, recusada.' }),
        await api.call('PUT', `/cotacoes/${id}/vencedores/${p0}`, { precoId: (await api.mapa(id)).precos[0]!.id, motivo: 'Depois de concluída não muda.' }),
        await api.call('POST', `/cotacoes/${id}/precos/${(await api.mapa(id)).precos[0]!.id}/excluir`, { motivo: 'Depois de concluída não muda.' }),
        await api.transicao(id, 'cancelar', { motivo: 'Cancelar depois de concluída.' }),
      ];
      expect(tentativas.map((r) => r.status)).toEqual([409, 409, 409, 409, 409, 409, 409, 409]);
      expect(tentativas[2]!.body.error?.message).toBe('Esta cotação está concluída e não pode ser alterada.');
    });
  });

  /** The cotação as PUT takes it back (the kit's answer with its version). */
  const cotacaoParaPut = async (id: string) => {
    const c = await api.ok<Record<string, unknown> & { itens: Record<string, unknown>[] }>('GET', `/cotacoes/${id}`, undefined, 200);
    return {
      objeto: c.objeto,
      centroCustoId: c.centroCustoId,
      requisicaoId: c.requisicaoId,
      dataReferencia: c.dataReferencia,
      prazo: c.prazo,
      metodo: c.metodo,
      iterar: c.iterar,
      observacoes: c.observacoes,
      version: c.version,
      itens: c.itens.map((i) => ({ produtoId: i.produtoId, quantidade: i.quantidade, valorUnitario: i.valorUnitario, requisicaoItemId: i.requisicaoItemId })),
    };
  };
});
