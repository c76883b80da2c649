// Demo data of @app/usuarios (embedded database, first run): four perfis of the Prefeitura and one
// user for each, password demo1234 (DEMO.senha), placed in the demo centros de custo of @app/registros
// (seeded before: this plugin depends on it).
import { cpfCheckDigits } from '@app/br';
import { CONTROLE_INTERNO_TAG, DEMO, hashPassword, type SeedContext, usuarioEntidades } from '@app/server-core';
import { and, eq, inArray, sql } from '@app/server-core/orm';
import { centrosCustoT, perfisT, usuariosT } from './tables.js';

/**
 * The purchasing sector (Comprador) and the auditors see the documents of every centro de custo; the
 * requisitante and the aprovador only those of their centros.
 */
export const DEMO_PERFIS = [
  { nome: 'Requisitante', tags: [29, 39], todosCentros: false },
  { nome: 'Aprovador', tags: [39], todosCentros: false },
  { nome: 'Comprador', tags: [24, 25, 26, 29, 39, 73], todosCentros: true },
  // controle interno: reads every document of every centro (95) and the audit logs (90), changes nothing
  { nome: 'Auditor', tags: [90, CONTROLE_INTERNO_TAG], todosCentros: true },
] as const;

const cpf = (base: string) => `${base}${cpfCheckDigits(base)}`;

/**
 * `centros`: códigos of the registros demo centros de custo (the first is the user's own, the default
 * origin of their documents). The requisitante works in the Secretaria de Educação; the aprovador is
 * the Secretário de Administração and also answers for the contracting sector (Compras e Licitações),
 * the destination of the requisitions; the comprador's own centro is that sector too.
 */
export const DEMO_USUARIOS = [
  { login: 'requisitante', nome: 'Rita Requisitante', cargo: 'Assistente Administrativo', perfil: 'Requisitante', cpf: cpf('390533447'), centros: ['02'] },
  { login: 'aprovador', nome: 'Antônio Aprovador', cargo: 'Secretário de Administração', perfil: 'Aprovador', cpf: cpf('284161978'), centros: ['01', '01.01'] },
  { login: 'comprador', nome: 'Carla Compradora', cargo: 'Agente de Contratação', perfil: 'Comprador', cpf: cpf('712450386'), centros: ['01.01'] },
  { login: 'auditor', nome: 'Augusto Auditor', cargo: 'Controlador Interno', perfil: 'Auditor', cpf: cpf('635218904'), centros: [] },
] as const;

/** The demo administrator (purchasing sector, sees every centro) works in Compras e Licitações. */
export const DEMO_ADMIN_CENTROS = ['01.01'] as const;

export async function seedUsuarios(ctx: SeedContext): Promise<void> {
  // One scrypt hash shared by the four demo accounts (same known password; ≈0.3 s instead of 1.2 s).
  const senhaHash = await hashPassword(DEMO.senha);
  const entidadeId = ctx.entidades.prefeitura.id;
  await ctx.mutate(async (tx, audit) => {
    await tx
      .insert(perfisT)
      .values(DEMO_PERFIS.map((p) => ({ entidadeId, nome: p.nome, tags: [...p.tags], todosCentros: p.todosCentros })))
      .onConflictDoNothing();
    const perfis = await tx
      .select({ id: perfisT.id, nome: perfisT.nome, tags: perfisT.tags, todosCentros: perfisT.todosCentros })
      .from(perfisT)
      .where(
        and(
          eq(perfisT.entidadeId, entidadeId),
          inArray(
            perfisT.nome,
            DEMO_PERFIS.map((p) => p.nome),
          ),
        ),
      );
    for (const p of perfis) audit({ registro: p.id, acao: 'criar', depois: { nome: p.nome, tags: p.tags, todosCentros: p.todosCentros }, entidadeId });

    const centros = await tx
      .select({ id: centrosCustoT.id, codigo: centrosCustoT.codigo, nome: centrosCustoT.nome })
      .from(centrosCustoT)
      .where(eq(centrosCustoT.entidadeId, entidadeId));
    const centrosDe = (codigos: readonly string[]) => centros.filter((c) => codigos.includes(c.codigo)).sort((a, b) => a.codigo.localeCompare(b.codigo));
    const rotulos = (list: readonly { codigo: string; nome: string }[]) => list.map((c) => `${c.codigo} – ${c.nome}`);
    const porEntidade = (list: readonly { codigo: string; nome: string }[]) =>
      list.length ? { centrosCusto: { [ctx.entidades.prefeitura.nome]: rotulos(list) } } : {};

    for (const u of DEMO_USUARIOS) {
      const [existing] = await tx.select({ id: usuariosT.id }).from(usuariosT).where(sql`lower(${usuariosT.login}) = ${u.login}`);
      if (existing) continue;
      const values = { nome: u.nome, login: u.login, email: `${u.login}@exemplo.gov.br`, cpf: u.cpf, cargo: u.cargo };
      const [row] = await tx
        .insert(usuariosT)
        .values({ ...values, senhaHash })
        .onConflictDoNothing()
        .returning({ id: usuariosT.id });
      const perfil = perfis.find((p) => p.nome === u.perfil);
      if (!row || !perfil) continue;
      const seus = centrosDe(u.centros);
      await tx.insert(usuarioEntidades).values({ usuarioId: row.id, entidadeId, perfilId: perfil.id, centrosCusto: seus.map((c) => c.id) });
      audit({
        registro: row.id,
        acao: 'criar',
        depois: { ...values, ativo: true, perfis: { [ctx.entidades.prefeitura.nome]: perfil.nome }, ...porEntidade(seus) },
        entidadeId,
      });
    }

    const doAdmin = centrosDe(DEMO_ADMIN_CENTROS);
    if (doAdmin.length) {
      const [membro] = await tx
        .select({ centros: usuarioEntidades.centrosCusto })
        .from(usuarioEntidades)
        .where(and(eq(usuarioEntidades.usuarioId, ctx.usuarios.admin.id), eq(usuarioEntidades.entidadeId, entidadeId)));
      if (membro && membro.centros.length === 0) {
        await tx
          .update(usuarioEntidades)
          .set({ centrosCusto: doAdmin.map((c) => c.id) })
          .where(and(eq(usuarioEntidades.usuarioId, ctx.usuarios.admin.id), eq(usuarioEntidades.entidadeId, entidadeId)));
        audit({ registro: ctx.usuarios.admin.id, acao: 'alterar', antes: {}, depois: porEntidade(doAdmin), entidadeId });
      }
    }
  });
}
