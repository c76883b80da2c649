// Issue 18: concluding a cotação must not change an approved requisição's value without approval. The
// requisição keeps the approved total and the researched total (its items carry the researched unit
// estimates); a researched total above the approved one sends it back to approval (a new round, the
// levels of the new total, from the first), equal or lower keeps it aprovada. The boundary: equal
// stays, one cent above goes back. Both engines; through @app/requisicoes' registrarPesquisaDePrecos.
import { describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Mundo, cliente, plugins, prepararMundo, requisicaoAprovada } from './helpers.js';

type Cab = {
  status: string;
  valor_total: string;
  valor_aprovado: string | null;
  valor_pesquisado: string | null;
  ciclo: number;
  niveis: number;
  nivel_atual: number | null;
};

describeEachDatabase('@app/cotacoes: a conclusão e o valor aprovado da requisição', { plugins }, (t) => {
  let m: Mundo;
  let aprovador: { id: string; token: string };
  const api = cliente(t, () => m.tokens.comprador);
  const cabecalho = async (id: string) =>
    (
      await t.server.sql<Cab>(
        `SELECT status, valor_total::text, valor_aprovado::text, valor_pesquisado::text, ciclo, niveis, nivel_atual
           FROM requisicoes WHERE id = $1`,
        [id],
      )
    )[0]!;
  const caixa = (desde: number) =>
    t.server.sql<{ to: string; subject: string }>('SELECT to_address AS "to", subject FROM outbox WHERE id > $1 ORDER BY id', [desde]);
  const ultimo = async () => Number((await t.server.sql<{ n: string }>('SELECT coalesce(max(id), 0)::text AS n FROM outbox'))[0]!.n);

  beforeAll(async () => {
    m = await prepararMundo(t, 'vaprov');
    aprovador = await t.server.createUser({ login: 'vaprovchefe', nome: 'Paula Aprovadora', tags: [39], centros: [m.centros.educacao] });
    // Educação's level 1: Paula (a centro row replaces any general one)
    await t.server.insert('requisicao_alcadas', {
      entidade_id: m.entidades.prefeitura,
      nivel: 1,
      nome: 'Chefia',
      valor_minimo: '0',
      centro_custo_id: m.centros.educacao,
      usuarios: `{${aprovador.id}}`,
    });
  });

  /** An approved requisição of 1 × R$ 11,00 (approved total 11.00) and a concluded cotação of it with these prices (média). */
  const concluirCom = async (numero: number, precos: string[]) => {
    const p0 = m.produtos[0]!;
    const req = await requisicaoAprovada(t, m, numero, [{ produtoId: p0, quantidade: '1', valorUnitario: '11' }]);
    await t.server.sql('UPDATE requisicoes SET valor_aprovado = valor_total, ciclo = 1, niveis = 1 WHERE id = $1', [req.id]);
    const criada = await api.ok<{ id: string; numero: number; ano: number }>('POST', '/cotacoes/de-requisicao', { requisicaoId: req.id }, 201);
    const c = await api.ok<Record<string, unknown> & { itens: Record<string, unknown>[] }>('GET', `/cotacoes/${criada.id}`, undefined, 200);
    await api.ok(
      'PUT',
      `/cotacoes/${criada.id}`,
      {
        objeto: c.objeto,
        centroCustoId: c.centroCustoId,
        requisicaoId: c.requisicaoId,
        dataReferencia: c.dataReferencia,
        prazo: c.prazo,
        observacoes: c.observacoes,
        metodo: 'media',
        iterar: false,
        version: c.version,
        itens: c.itens.map((i) => ({ produtoId: i.produtoId, quantidade: i.quantidade, valorUnitario: i.valorUnitario, requisicaoItemId: i.requisicaoItemId })),
      },
      200,
    );
    for (const valor of precos) await api.preco(criada.id, { produtoId: p0, valorUnitario: valor });
    await api.transicao(criada.id, 'iniciar');
    const marca = await ultimo();
    const fim = await api.transicao(criada.id, 'concluir');
    expect(fim.status, JSON.stringify(fim.body)).toBe(200);
    return { req, cotacao: `Cotação ${criada.numero}/${criada.ano}`, marca };
  };

  describe('boundary', () => {
    it('a researched total equal to the approved one keeps the requisição aprovada, with both values', async () => {
      const { req, marca } = await concluirCom(9201, ['10', '11', '12']); // média 11.00
      expect(await cabecalho(req.id)).toEqual({
        status: 'aprovada',
        valor_total: '11.00',
        valor_aprovado: '11.00',
        valor_pesquisado: '11.00',
        ciclo: 1,
        niveis: 1,
        nivel_atual: null,
      });
      expect((await caixa(marca)).filter((e) => /aguarda a sua aprovação/.test(e.subject))).toEqual([]);
    });

    it('one cent above goes back to approval (new round, first level), audited with the cotação and both values, the approver told', async () => {
      const { req, cotacao, marca } = await concluirCom(9202, ['10', '11', '12.03']); // média 11.01
      expect(await cabecalho(req.id)).toEqual({
        status: 'em_aprovacao',
        valor_total: '11.01',
        valor_aprovado: '11.00',
        valor_pesquisado: '11.01',
        ciclo: 2,
        niveis: 1,
        nivel_atual: 1,
      });
      const [audit] = await t.server.sql<{ plugin: string; usuario_id: string; antes: Record<string, unknown>; depois: Record<string, unknown> }>(
        "SELECT plugin, usuario_id, antes, depois FROM audit_log WHERE registro = $1 AND acao = 'valores_da_cotacao' ORDER BY id",
        [req.id],
      );
      expect(audit).toMatchObject({ plugin: 'requisicoes', usuario_id: m.ids.comprador });
      expect(audit!.antes).toMatchObject({ status: 'aprovada', valorTotal: '11.00', valorPesquisado: null });
      expect(audit!.depois).toMatchObject({
        status: 'em_aprovacao',
        origem: cotacao,
        valorAprovadoVigente: '11.00',
        valorPesquisado: '11.01',
        reaprovacao: true,
        ciclo: 2,
        nivelAtual: 1,
        itens: [{ valorUnitario: '11.01', valorTotal: '11.01' }],
      });
      expect(await caixa(marca)).toContainEqual({ to: 'vaprovchefe@exemplo.gov.br', subject: expect.stringMatching(/aguarda a sua aprovação/) });
      // the approver approves the new value: it becomes the approved one
      const lida = (await (await t.server.request(`/api/requisicoes/requisicoes/${req.id}`, { token: aprovador.token })).json()) as {
        version: number;
        transicoes: string[];
      };
      expect(lida.transicoes).toContain('aprovar');
      const aprovada = await t.server.request(`/api/requisicoes/requisicoes/${req.id}/aprovar`, {
        token: aprovador.token,
        json: { version: lida.version, ciente: true },
      });
      expect(aprovada.status, await aprovada.clone().text()).toBe(200);
      expect(await cabecalho(req.id)).toMatchObject({ status: 'aprovada', valor_aprovado: '11.01', valor_pesquisado: '11.01' });
    });
  });
});
