// The demo seed on top of the real seeds of the plugins that create the demo perfis (@app/usuarios: Comprador,
// Requisitante…; @app/cotacoes: Autoridade competente): the perfis that analyse hold tag 106, audited; the
// requisitante does not.
import cotacoes from '@app/cotacoes/server';
import produtos from '@app/produtos/server';
import registros from '@app/registros/server';
import requisicoes from '@app/requisicoes/server';
import { describeEachDatabase } from '@app/server-core/testing';
import { expect, it } from 'vitest';
import fornecedores from '@app/fornecedores/server';
import memorandos from '@app/memorandos/server';
import usuarios from '@app/usuarios/server';
import analise from '../../src/server/index.js';

describeEachDatabase('analise demo seed', { plugins: [registros, usuarios, produtos, fornecedores, memorandos, requisicoes, cotacoes, analise] }, (t) => {
  it('gives tag 106 to the Comprador and the Autoridade competente of the Prefeitura, audited; not to the requisitante', async () => {
    const { prefeitura } = await t.server.demoEntidades();
    const perfis = await t.server.sql<{ id: string; nome: string; tags: number[] }>('SELECT id, nome, tags FROM perfis WHERE entidade_id = $1', [prefeitura]);
    const com106 = perfis.filter((p) => p.tags.includes(106)).map((p) => p.nome);
    expect(com106.sort()).toEqual(['Administrador', 'Autoridade competente', 'Comprador']);
    const comprador = perfis.find((p) => p.nome === 'Comprador')!;
    const audit = await t.server.sql<{ plugin: string; acao: string; antes: { tags: number[] }; depois: { tags: number[] } }>(
      "SELECT plugin, acao, antes, depois FROM audit_log WHERE registro = $1 AND acao = 'alterar'",
      [comprador.id],
    );
    expect(audit).toEqual([expect.objectContaining({ plugin: 'usuarios', depois: { tags: comprador.tags } })]);
    expect(audit[0]!.antes.tags).not.toContain(106);

    // the demo people: the comprador and the autoridade open the analysis, the requisitante does not
    for (const [login, status] of [
      ['comprador', 200],
      ['autoridade', 200],
      ['requisitante', 403],
    ] as const) {
      const { token } = await t.server.signIn(login, 'demo1234');
      expect((await t.server.request('/api/analise/consumo?de=2026-01&ate=2026-12', { token })).status, login).toBe(status);
    }
  });
});
