// Demo data of @app/usuarios (embedded database, first run): four perfis of the Prefeitura and one
// user for each, password demo1234 (DEMO.senha).
import { cpfCheckDigits } from '@app/br';
import { DEMO, hashPassword, type SeedContext, usuarioEntidades } from '@app/server-core';
import { and, eq, inArray, sql } from '@app/server-core/orm';
import { perfisT, usuariosT } from './tables.js';

export const DEMO_PERFIS = [
  { nome: 'Requisitante', tags: [29, 39] },
  { nome: 'Aprovador', tags: [39] },
  { nome: 'Comprador', tags: [24, 25, 26, 29, 39, 73] },
  { nome: 'Auditor', tags: [90] },
] as const;

const cpf = (base: string) => `${base}${cpfCheckDigits(base)}`;

export const DEMO_USUARIOS = [
  { login: 'requisitante', nome: 'Rita Requisitante', cargo: 'Assistente Administrativo', perfil: 'Requisitante', cpf: cpf('390533447') },
  { login: 'aprovador', nome: 'Antônio Aprovador', cargo: 'Secretário de Administração', perfil: 'Aprovador', cpf: cpf('284161978') },
  { login: 'comprador', nome: 'Carla Compradora', cargo: 'Agente de Contratação', perfil: 'Comprador', cpf: cpf('712450386') },
  { login: 'auditor', nome: 'Augusto Auditor', cargo: 'Controlador Interno', perfil: 'Auditor', cpf: cpf('635218904') },
] as const;

export async function seedUsuarios(ctx: SeedContext): Promise<void> {
  // One scrypt hash shared by the four demo accounts (same known password; ≈0.3 s instead of 1.2 s).
  const senhaHash = await hashPassword(DEMO.senha);
  const entidadeId = ctx.entidades.prefeitura.id;
  await ctx.mutate(async (tx, audit) => {
    await tx
      .insert(perfisT)
      .values(DEMO_PERFIS.map((p) => ({ entidadeId, nome: p.nome, tags: [...p.tags] })))
      .onConflictDoNothing();
    const perfis = await tx
      .select({ id: perfisT.id, nome: perfisT.nome, tags: perfisT.tags })
      .from(perfisT)
      .where(and(eq(perfisT.entidadeId, entidadeId), inArray(perfisT.nome, DEMO_PERFIS.map((p) => p.nome))));
    for (const p of perfis) audit({ registro: p.id, acao: 'criar', depois: { nome: p.nome, tags: p.tags }, entidadeId });

    for (const u of DEMO_USUARIOS) {
      const [existing] = await tx.select({ id: usuariosT.id }).from(usuariosT).where(sql`lower(${usuariosT.login}) = ${u.login}`);
      if (existing) continue;
      const values = { nome: u.nome, login: u.login, email: `${u.login}@exemplo.gov.br`, cpf: u.cpf, cargo: u.cargo };
      const [row] = await tx.insert(usuariosT).values({ ...values, senhaHash }).onConflictDoNothing().returning({ id: usuariosT.id });
      const perfil = perfis.find((p) => p.nome === u.perfil);
      if (!row || !perfil) continue;
      await tx.insert(usuarioEntidades).values({ usuarioId: row.id, entidadeId, perfilId: perfil.id });
      audit({ registro: row.id, acao: 'criar', depois: { ...values, ativo: true, perfis: { [ctx.entidades.prefeitura.nome]: perfil.nome } }, entidadeId });
    }
  });
}
