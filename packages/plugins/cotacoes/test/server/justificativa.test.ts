// Issue 18, on both engines: the approval of the fewer-than-three-prices justification covers exactly
// what the autoridade competente saw (any later change to those items, their prices and decisions, or
// a new item short of three prices voids it: recorded in the audit trail at the change, shown on the
// mapa, and `concluir` answers 409 naming the items until a new approval), and whoever runs the
// cotação (created, edited or moved it, recorded prices, invitations, decisions or the justification)
// never approves its justification.
import { describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Mundo, cliente, plugins, prepararMundo } from './helpers.js';

describeEachDatabase('@app/cotacoes: aprovação da justificativa (issue 18)', { plugins }, (t) => {
  let m: Mundo;
  const api = cliente(t, () => m.tokens.comprador);
  const auditoria = (registro: string, acao: string) =>
    t.server.sql<{ usuario_id: string; antes: Record<string, unknown>; depois: Record<string, unknown> }>(
      'SELECT usuario_id, antes, depois FROM audit_log WHERE registro = $1 AND acao = $2 ORDER BY id',
      [registro, acao],
    );
  const JUSTIFICATIVA = 'Mercado restrito: só dois fornecedores atendem a especificação na região.';
  let autoridades = 0;
  /** A fresh autoridade competente (tags 73 and 100, every centro) who has done nothing yet. */
  const novaAutoridade = async (nome = 'Outra Autoridade') => {
    autoridades += 1;
    return t.server.createUser({ login: `justaut${autoridades}`, nome, tags: [73, 100], todosCentros: true });
  };

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

  /** Em coleta: item 1 with two prices (short of three), item 2 with three; the justification typed by the comprador. */
  const preparar = async () => {
    const [p0, p1] = m.produtos as [string, string];
    const c = await api.criar([p0, p1], { centroCustoId: m.centros.educacao });
    for (const valor of ['20', '22']) await api.preco(c.id, { produtoId: p0, valorUnitario: valor });
    const precos2: string[] = [];
    for (const valor of ['10', '11', '12']) precos2.push((await api.preco(c.id, { produtoId: p1, valorUnitario: valor })).id);
    expect((await api.transicao(c.id, 'iniciar')).status).toBe(200);
    await api.ok('PUT', `/cotacoes/${c.id}/justificativa`, { texto: JUSTIFICATIVA }, 200);
    return { id: c.id, precos2 };
  };

  beforeAll(async () => {
    m = await prepararMundo(t, 'just');
  });

  describe('uma aprovação cobre exatamente o que viu', () => {
    it("the issue's sequence: excluding two of item 2's prices voids the approval at once; item 3 with one price of R$ 99 999 cannot conclude without a new approval", async () => {
      const { id, precos2 } = await preparar();
      const autoridade = await novaAutoridade('Augusta Aprovadora');
      const aprovada = await api.ok<{ justificativaAprovadaEm: string | null }>(
        'POST',
        `/cotacoes/${id}/justificativa/aprovar`,
        undefined,
        200,
        autoridade.token,
      );
      expect(aprovada.justificativaAprovadaEm).not.toBeNull();
      const [aprovacao] = await auditoria(id, 'aprovar_justificativa');
      expect(aprovacao!.depois.itens).toEqual([expect.stringMatching(/^1\. /)]);
      expect(aprovacao!.depois.impressao).toMatch(/^[0-9a-f]{64}$/);

      // the comprador excludes two of item 2's three prices: item 2 now has one valid price
      for (const precoId of precos2.slice(0, 2)) {
        await api.ok('POST', `/cotacoes/${id}/precos/${precoId}/excluir`, { motivo: 'Preço fora do padrão do mercado local.' }, 200);
      }
      const anulacoes = await auditoria(id, 'anular_aprovacao_justificativa');
      expect(anulacoes).toHaveLength(1); // recorded at the change that voided it, once
      expect(anulacoes[0]!.usuario_id).toBe(m.ids.comprador);
      expect(anulacoes[0]!.antes).toMatchObject({ aprovadaPor: 'Augusta Aprovadora' });
      expect(anulacoes[0]!.depois.itens).toEqual([expect.stringMatching(/^2\. /)]);
      let mapa = await api.mapa(id);
      expect(mapa.cotacao.justificativaAprovadaEm).toBeNull();
      expect(mapa.cotacao.justificativaAnuladaAprovador).toBe('Augusta Aprovadora');
      expect(mapa.cotacao.justificativaAnuladaEm).not.toBeNull();
      expect(mapa.cotacao.justificativaAnuladaMotivo).toMatch(/^Aprovação anulada por alteração depois dela: item 2\. /);

      // item 3 added with a single price of R$ 99 999
      const p2 = m.produtos[2]!;
      const body = await cotacaoParaPut(id);
      await api.ok('PUT', `/cotacoes/${id}`, { ...body, itens: [...body.itens, { produtoId: p2, quantidade: '1' }] }, 200);
      await api.preco(id, { produtoId: p2, valorUnitario: '99999' });
      mapa = await api.mapa(id);
      expect(mapa.avaliacao.itensMenosDeTres).toHaveLength(3);

      const r = await api.transicao(id, 'concluir');
      expect(r.status).toBe(409);
      expect(r.body.error?.code).toBe('justificativa_anulada');
      expect(r.body.error?.message).toContain('Aprovação anulada por alteração');
      expect(r.body.error?.message).toMatch(/menos de três preços válidos: 1\. .*, 2\. .*, 3\. /);

      // a new approval covers the cotação as it is now, and then it concludes
      await api.ok('POST', `/cotacoes/${id}/justificativa/aprovar`, undefined, 200, autoridade.token);
      mapa = await api.mapa(id);
      expect(mapa.cotacao.justificativaAprovadaPorNome).toBe('Augusta Aprovadora');
      expect(mapa.cotacao.justificativaAnuladaMotivo).toBeNull();
      const [, segunda] = await auditoria(id, 'aprovar_justificativa');
      expect(segunda!.depois.itens).toEqual([expect.stringMatching(/^1\. /), expect.stringMatching(/^2\. /), expect.stringMatching(/^3\. /)]);
      const fim = await api.transicao(id, 'concluir');
      expect(fim.status).toBe(200);
      expect(fim.body.status).toBe('concluida');
    });

    it('changes outside what it covered keep it: prices of an item that keeps three or more valid prices', async () => {
      const { id, precos2 } = await preparar();
      const autoridade = await novaAutoridade();
      await api.ok('POST', `/cotacoes/${id}/justificativa/aprovar`, undefined, 200, autoridade.token);
      await api.preco(id, { produtoId: m.produtos[1]!, valorUnitario: '10.5' }); // item 2 had three valid prices: now four
      await api.ok('POST', `/cotacoes/${id}/precos/${precos2[2]}/excluir`, { motivo: 'Preço fora do padrão do mercado local.' }, 200); // still three
      expect(await auditoria(id, 'anular_aprovacao_justificativa')).toEqual([]);
      expect((await api.mapa(id)).cotacao.justificativaAprovadaEm).not.toBeNull();
      expect((await api.transicao(id, 'concluir')).status).toBe(200);
    });

    const casos: { nome: string; mudar: (id: string) => Promise<void> }[] = [
      {
        nome: 'preço do item 1 excluído do cálculo',
        mudar: async (id) => {
          const preco = (await api.mapa(id)).precos.find((p) => p.produtoId === m.produtos[0])!;
          await api.ok('POST', `/cotacoes/${id}/precos/${preco.id}/excluir`, { motivo: 'Preço fora do padrão do mercado local.' }, 200);
        },
      },
      {
        nome: 'preço do item 1 alterado',
        mudar: async (id) => {
          const preco = (await api.mapa(id)).precos.find((p) => p.produtoId === m.produtos[0])!;
          await api.ok(
            'PUT',
            `/cotacoes/${id}/precos/${preco.id}`,
            {
              produtoId: m.produtos[0]!,
              fonte: 'painel',
              fonteDescricao: 'Painel de Preços',
              valorUnitario: '2000',
              dataColeta: preco.dataColeta,
              version: preco.version,
            },
            200,
          );
        },
      },
      {
        nome: 'quantidade do item 1',
        mudar: async (id) => {
          const body = await cotacaoParaPut(id);
          await api.ok(
            'PUT',
            `/cotacoes/${id}`,
            { ...body, itens: body.itens.map((i) => (i.produtoId === m.produtos[0] ? { ...i, quantidade: '10000' } : i)) },
            200,
          );
        },
      },
    ];
    for (const caso of casos) {
      it(`voided by a change to a covered item: ${caso.nome}`, async () => {
        const { id } = await preparar();
        await api.ok('POST', `/cotacoes/${id}/justificativa/aprovar`, undefined, 200, (await novaAutoridade()).token);
        await caso.mudar(id);
        expect(await auditoria(id, 'anular_aprovacao_justificativa'), caso.nome).toHaveLength(1);
        const mapa = await api.mapa(id);
        expect(mapa.cotacao.justificativaAprovadaEm, caso.nome).toBeNull();
        expect(mapa.cotacao.justificativaAnuladaMotivo, caso.nome).toMatch(/item 1\. /);
        const r = await api.transicao(id, 'concluir');
        expect(r.status, caso.nome).toBe(409);
        expect(r.body.error?.code, caso.nome).toBe('justificativa_anulada');
      });
    }

    it("a supplier's new answer for a covered item voids it", async () => {
      const [p0] = m.produtos as [string];
      const { id } = await preparar();
      const convite = await api.convidar(id, m.fornecedores[0]!.id);
      await api.responder(id, convite.id, [{ produtoId: p0, valorUnitario: '23' }]);
      // item 1: 20 and the supplier's 23 (the painel price of 22 deleted): two valid prices
      const painel22 = (await api.mapa(id)).precos.find((p) => p.produtoId === p0 && p.valorUnitario === '22')!;
      expect((await api.call('DELETE', `/cotacoes/${id}/precos/${painel22.id}`)).status).toBe(204);
      await api.ok('POST', `/cotacoes/${id}/justificativa/aprovar`, undefined, 200, (await novaAutoridade()).token);
      await api.responder(id, convite.id, [{ produtoId: p0, valorUnitario: '24' }]);
      expect(await auditoria(id, 'anular_aprovacao_justificativa')).toHaveLength(1);
      const r = await api.transicao(id, 'concluir');
      expect(r.status).toBe(409);
      expect(r.body.error?.message).toMatch(/Aprovação anulada por alteração depois dela: item 1\. /);
    });

    it('a change that bypassed the routes is still caught when the cotação is read', async () => {
      const { id } = await preparar();
      await api.ok('POST', `/cotacoes/${id}/justificativa/aprovar`, undefined, 200, (await novaAutoridade()).token);
      await t.server.sql('UPDATE cotacao_precos SET valor_unitario = 9999 WHERE cotacao_id = $1 AND valor_unitario = 22', [id]);
      const mapa = await api.mapa(id);
      expect(mapa.cotacao.justificativaAprovadaEm).toBeNull();
      expect(mapa.cotacao.justificativaAnuladaMotivo).toMatch(/^Aprovação anulada por alteração depois dela: item 1\. /);
      const r = await api.transicao(id, 'concluir');
      expect(r.status).toBe(409);
      expect(r.body.error?.code).toBe('justificativa_anulada');
    });
  });

  describe('quem conduz a cotação não aprova a justificativa dela', () => {
    it('403 for the autoridade who created the cotação (its responsável)', async () => {
      const [p0] = m.produtos as [string];
      const criada = await api.criar([p0], { centroCustoId: m.centros.educacao }, m.tokens.compradorAutoridade);
      await api.preco(criada.id, { produtoId: p0, valorUnitario: '5' });
      await api.ok('PUT', `/cotacoes/${criada.id}/justificativa`, { texto: JUSTIFICATIVA }, 200);
      const r = await api.call('POST', `/cotacoes/${criada.id}/justificativa/aprovar`, undefined, m.tokens.compradorAutoridade);
      expect(r.status).toBe(403);
      expect(r.body.error?.message).toBe(
        'Quem conduz a cotação não pode aprovar a justificativa dela (você é o responsável pela cotação): peça a outra autoridade competente.',
      );
    });

    const atos: { nome: string; fazer: (id: string, token: string, usuarioId: string) => Promise<void> }[] = [
      { nome: 'registrou um preço', fazer: async (id, token) => void (await api.preco(id, { produtoId: m.produtos[1]!, valorUnitario: '13' }, token)) },
      {
        // the kit's authorship (documento_autores): here the author of the requisição the cotação came from
        nome: 'é autor de um documento de origem',
        fazer: async (id, _token, usuarioId) => {
          await t.server.sql("INSERT INTO documento_autores (entidade_id, documento_id, usuario_id, papel) VALUES ($1, $2, $3, 'fonte')", [
            m.entidades.prefeitura,
            id,
            usuarioId,
          ]);
        },
      },
      { nome: 'convidou um fornecedor', fazer: async (id, token) => void (await api.convidar(id, m.fornecedores[1]!.id, token)) },
      {
        nome: 'excluiu e restaurou um preço do cálculo',
        fazer: async (id, token) => {
          const preco = (await api.mapa(id)).precos.find((p) => p.produtoId === m.produtos[1])!;
          await api.ok('POST', `/cotacoes/${id}/precos/${preco.id}/excluir`, { motivo: 'Preço fora do padrão do mercado.' }, 200, token);
          await api.ok('POST', `/cotacoes/${id}/precos/${preco.id}/restaurar`, undefined, 200, token);
        },
      },
    ];
    for (const ato of atos) {
      it(`403 for an autoridade who ${ato.nome}; another one, who did nothing on it, approves`, async () => {
        const { id } = await preparar();
        const autoridade = await novaAutoridade();
        await ato.fazer(id, autoridade.token, autoridade.id);
        const negado = await api.call('POST', `/cotacoes/${id}/justificativa/aprovar`, undefined, autoridade.token);
        expect(negado.status).toBe(403);
        expect(negado.body.error?.message).toContain('Quem conduz a cotação não pode aprovar a justificativa dela');
        expect((await api.call('POST', `/cotacoes/${id}/justificativa/aprovar`, undefined, (await novaAutoridade()).token)).status).toBe(200);
      });
    }

    it('the approval itself does not make the autoridade a runner: after a voiding the same person approves again', async () => {
      const { id, precos2 } = await preparar();
      const autoridade = await novaAutoridade();
      await api.ok('POST', `/cotacoes/${id}/justificativa/aprovar`, undefined, 200, autoridade.token);
      for (const precoId of precos2.slice(0, 2))
        await api.ok('POST', `/cotacoes/${id}/precos/${precoId}/excluir`, { motivo: 'Preço fora do padrão do mercado.' }, 200);
      expect((await api.call('POST', `/cotacoes/${id}/justificativa/aprovar`, undefined, autoridade.token)).status).toBe(200);
      // a standing approval is not approved twice
      expect((await api.call('POST', `/cotacoes/${id}/justificativa/aprovar`, undefined, autoridade.token)).status).toBe(409);
    });
  });
});
