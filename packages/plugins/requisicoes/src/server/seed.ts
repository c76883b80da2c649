// Demo data of @app/requisicoes (embedded database, first run): the approval levels of the example
// (one level, chefia, below R$ 10.000,00; two, chefia then the ordenador de despesa, from it), the
// dispensa limits of 2025 and 2026, and the demo people who walk the flow: the requisitante
// (Educação) raises, the chefia approves level 1, the ordenador level 2, the comprador converts.
import { cpfCheckDigits } from '@app/br';
import { DEMO, type SeedContext, perfis, usuarioEntidades, usuarios } from '@app/server-core';
import { and, eq, inArray, sql } from '@app/server-core/orm';
import { LIMITES_DISPENSA_PADRAO, REQUISICOES_TAG } from '../shared/index.js';
import { alcadas, limitesDispensa } from './tables.js';

const cpf = (base: string) => `${base}${cpfCheckDigits(base)}`;

/** Perfis of the approvers (created when missing) and the demo users who hold them. */
export const DEMO_APROVADORES = [
  { login: 'chefia', nome: 'Cláudia Chefia', cargo: 'Chefe de Gabinete', perfil: 'Chefia', cpf: cpf('518273946'), centros: ['02', '03'] },
  { login: 'ordenador', nome: 'Otávio Ordenador', cargo: 'Ordenador de Despesa', perfil: 'Ordenador de despesa', cpf: cpf('627384915'), centros: [] as string[] },
] as const;

export async function seedRequisicoes(ctx: SeedContext): Promise<void> {
  const senhaHash = (await ctx.db.select({ h: usuarios.senhaHash }).from(usuarios).where(eq(usuarios.id, ctx.usuarios.admin.id)))[0]?.h;
  for (const entidade of [ctx.entidades.prefeitura, ctx.entidades.camara]) {
    const entidadeId = entidade.id;
    await ctx.mutate(async (tx, audit) => {
      for (const l of LIMITES_DISPENSA_PADRAO) {
        const [row] = await tx
          .insert(limitesDispensa)
          .values({ entidadeId, ano: l.ano, categoria: l.categoria, valor: l.valor })
          .onConflictDoNothing()
          .returning({ id: limitesDispensa.id });
        if (row) audit({ registro: row.id, acao: 'criar', depois: { ano: l.ano, categoria: l.categoria, valor: l.valor }, entidadeId });
      }
    });
  }

  const entidadeId = ctx.entidades.prefeitura.id;
  await ctx.mutate(async (tx, audit) => {
    // the demo perfis that act on requisições hold tag 39 (and 29 for memorandos where they ask)
    for (const nome of ['Requisitante', 'Aprovador', 'Comprador']) {
      await tx.execute(sql`
        UPDATE perfis SET tags = (SELECT array_agg(DISTINCT t ORDER BY t) FROM unnest(tags || ARRAY[${REQUISICOES_TAG}, 29]::int[]) AS t)
         WHERE entidade_id = ${entidadeId}::uuid AND nome = ${nome} AND NOT (tags @> ARRAY[${REQUISICOES_TAG}, 29]::int[])`);
    }
    const criados: Record<string, string> = {};
    for (const nome of ['Chefia', 'Ordenador de despesa']) {
      const todos = nome !== 'Chefia';
      const [p] = await tx
        .insert(perfis)
        .values({ entidadeId, nome, tags: [29, REQUISICOES_TAG], todosCentros: todos })
        .onConflictDoNothing()
        .returning({ id: perfis.id });
      if (p) {
        criados[nome] = p.id;
        audit({ registro: p.id, acao: 'criar', plugin: 'usuarios', depois: { nome, tags: [29, REQUISICOES_TAG], todosCentros: todos }, entidadeId });
      }
    }
    const { rows: centros } = await tx.execute<{ id: string; codigo: string }>(
      sql`SELECT id, codigo FROM registros_centros_custo WHERE entidade_id = ${entidadeId}::uuid`,
    );
    for (const u of DEMO_APROVADORES) {
      const perfilId = criados[u.perfil];
      if (!perfilId || !senhaHash) continue;
      const [existing] = await tx.select({ id: usuarios.id }).from(usuarios).where(sql`lower(${usuarios.login}) = ${u.login}`);
      if (existing) continue;
      const values = { nome: u.nome, login: u.login, email: `${u.login}@exemplo.gov.br`, cpf: u.cpf, cargo: u.cargo };
      const [row] = await tx.insert(usuarios).values({ ...values, senhaHash }).returning({ id: usuarios.id });
      const seus = centros.filter((c) => (u.centros as readonly string[]).includes(c.codigo)).map((c) => c.id);
      await tx.insert(usuarioEntidades).values({ usuarioId: row!.id, entidadeId, perfilId, centrosCusto: seus });
      audit({ registro: row!.id, acao: 'criar', plugin: 'usuarios', depois: { ...values, ativo: true, perfil: u.perfil }, entidadeId });
    }
    const aprovadores = await tx
      .select({ id: perfis.id, nome: perfis.nome })
      .from(perfis)
      .where(and(eq(perfis.entidadeId, entidadeId), inArray(perfis.nome, ['Chefia', 'Ordenador de despesa', 'Aprovador'])));
    const perfil = (nome: string) => aprovadores.filter((p) => p.nome === nome).map((p) => p.id);
    const niveis = [
      { nivel: 1, nome: 'Chefia', valorMinimo: '0.00', perfis: [...perfil('Chefia'), ...perfil('Aprovador')] },
      { nivel: 2, nome: 'Ordenador de despesa', valorMinimo: '10000.00', perfis: perfil('Ordenador de despesa') },
    ];
    for (const n of niveis) {
      if (n.perfis.length === 0) continue;
      const [row] = await tx
        .insert(alcadas)
        .values({ entidadeId, ...n })
        .onConflictDoNothing()
        .returning({ id: alcadas.id });
      if (row) audit({ registro: row.id, acao: 'criar', depois: n, entidadeId });
    }
  });
  void DEMO;
}
