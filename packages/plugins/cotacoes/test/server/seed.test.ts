// The demo cotações on top of the real seeds of the dependencies (and usuarios, for the demo people):
// one em coleta from the approved requisição (three suppliers in the three situations, prices of the
// other sources, an old one flagged, an HTML evidence), one concluded with its prices frozen, and the
// demo autoridade competente who signs in with tags 73 and 100.
import fornecedores from '@app/fornecedores/server';
import memorandos from '@app/memorandos/server';
import produtos from '@app/produtos/server';
import registros from '@app/registros/server';
import requisicoes from '@app/requisicoes/server';
import { describeEachDatabase } from '@app/server-core/testing';
import usuarios from '@app/usuarios/server';
import { expect, it } from 'vitest';
import cotacoes from '../../src/server/index.js';
import type { MapaCotacao } from '../../src/shared/index.js';

describeEachDatabase('cotacoes demo seed', { plugins: [registros, usuarios, produtos, fornecedores, memorandos, requisicoes, cotacoes] }, (t) => {
  const get = async <T>(path: string, token: string): Promise<T> => {
    const res = await t.server.request(`/api/cotacoes${path}`, { token });
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };

  it('seeds a cotação em coleta and a concluded one, both readable as mapas by the comprador', async () => {
    const { token } = await t.server.signIn('comprador', 'demo1234');
    const lista = await get<{ items: { id: string; status: string; quantidadePrecos: number }[] }>('/cotacoes?sort=numero', token);
    expect(lista.items.map((c) => c.status)).toEqual(['em_coleta', 'concluida']);

    const coleta = await get<MapaCotacao>(`/cotacoes/${lista.items[0]!.id}/mapa`, token);
    expect(coleta.cotacao.requisicaoNumero).toMatch(/^\d+\/\d{4}$/);
    expect(coleta.convites.map((c) => c.situacao).sort()).toEqual(['convidado', 'nao_respondeu', 'respondeu']);
    expect(new Set(coleta.precos.map((p) => p.fonte))).toEqual(new Set(['fornecedor', 'painel', 'midia', 'nota_fiscal', 'contrato']));
    const antigo = coleta.precos.find((p) => p.fonte === 'contrato')!;
    expect(coleta.avaliacao.precos.find((s) => s.precoId === antigo.id)).toMatchObject({ valido: false, exclusao: 'antigo' });
    const comEvidencia = coleta.precos.find((p) => p.evidencia)!;
    expect(comEvidencia.evidencia).toMatchObject({ tipo: 'text/html', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(coleta.itens.some((i) => i.requisicaoItemId)).toBe(true);

    const concluida = await get<MapaCotacao>(`/cotacoes/${lista.items[1]!.id}/mapa`, token);
    expect(concluida.cotacao.concluidaEm).not.toBeNull();
    expect(concluida.itens.map((i) => i.valorReferencia)).toEqual(concluida.avaliacao.itens.map((r) => r.valorEstimado!.replace(/\.?0+$/, '')));
    expect(concluida.cotacao.valorTotal).toBe(concluida.avaliacao.valorEstimadoTotal);
    expect(concluida.convites.every((c) => c.situacao === 'respondeu')).toBe(true);

    const acoes = await t.server.sql<{ acao: string }>('SELECT DISTINCT acao FROM audit_log WHERE registro = $1 ORDER BY acao', [coleta.cotacao.id]);
    expect(acoes.map((a) => a.acao)).toEqual([
      'convidar_fornecedor',
      'criar',
      'enviar_evidencia',
      'fornecedor_nao_respondeu',
      'incluir_preco',
      'iniciar',
      'resposta_fornecedor',
    ]);
  });

  it('the demo autoridade competente signs in (demo1234) holding tags 73 and 100 and may approve', async () => {
    const { token } = await t.server.signIn('autoridade', 'demo1234');
    const session = (await (await t.server.request('/api/session', { token })).json()) as { tags: number[]; todosCentros: boolean };
    expect(session.tags).toEqual(expect.arrayContaining([73, 100]));
    expect(session.todosCentros).toBe(true);
    const lista = await get<{ items: { id: string }[] }>('/cotacoes', token);
    expect(lista.items).toHaveLength(2);
    expect((await get<MapaCotacao>(`/cotacoes/${lista.items[0]!.id}/mapa`, token)).podeAprovarJustificativa).toBe(true);
  });
});
