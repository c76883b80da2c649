// /api/usuarios/usuarios: users of the session's entidade (list, read, create, update, deactivate,
// reactivate, remove from the entidade). Users are global rows; membership of an entidade (with one
// perfil there) is a usuario_entidades row, and every query is filtered by the session's entidade.
import { maskCpfPartial } from '@app/br';
import {
  AppError,
  type AuditFn,
  badRequest,
  conflict,
  type DbOrTx,
  entidades,
  forbidden,
  hashPassword,
  notFound,
  novaSenhaProblem,
  type PluginRouter,
  pageOf,
  pageQuerySchema,
  type RequestContext,
  revokeUserSessions,
  searchCondition,
  type Tx,
  usuarioEntidades,
} from '@app/server-core';
import { and, asc, desc, eq, inArray, ne, or, type SQL, sql } from '@app/server-core/orm';
import type { AnyPgColumn } from '@app/server-core/pg-core';
import { z } from 'zod';
import {
  centrosNaoPertencentesMensagem,
  MENSAGENS,
  type PageOf,
  perfilTodosCentrosMensagem,
  USUARIOS_TAG,
  type Usuario,
  type UsuarioListItem,
  usuarioCreateSchema,
  usuarioListItemSchema,
  usuarioSchema,
  usuarioUpdateSchema,
  type Vinculo,
  versionBodySchema,
} from '../shared/index.js';
import {
  activeAdmins,
  assertAdminsKept,
  assertCanGrant,
  assertPodeAlterarConta,
  type CentroCusto,
  centroRotulo,
  centrosDe,
  declaredTags,
  type EntidadeAdministrada,
  entidadesAdministradas,
  lockMemberships,
  podeAlterarConta,
  rotulosDosCentros,
} from './rules.js';
import { perfisT, usuariosT } from './tables.js';

const idParams = z.object({ id: z.uuid('Identificador inválido.') });

const SORTS: Record<string, AnyPgColumn> = {
  nome: usuariosT.nome,
  login: usuariosT.login,
  email: usuariosT.email,
  cargo: usuariosT.cargo,
  ativo: usuariosT.ativo,
};

/** `%texto%` for ILIKE, with the user's own % and _ taken literally. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

type UserRow = typeof usuariosT.$inferSelect;

/** Columns of the account row a PUT may change (besides the password): shared by every entidade of the user. */
const CAMPOS_DA_CONTA = ['nome', 'login', 'email', 'cpf', 'cargo', 'ativo'] as const;

/** server-core's password policy beyond length: not a common password, not the login. */
function assertSenha(senha: string, login: string): void {
  const problem = novaSenhaProblem(senha, login);
  if (problem) throw badRequest('Verifique os campos destacados.', { senha: problem });
}

/** The user, if a member of `entidadeId` (else null: another entidade's user answers 404). */
async function memberUser(db: DbOrTx, id: string, entidadeId: string): Promise<UserRow | null> {
  const [row] = await db
    .select({ user: usuariosT })
    .from(usuariosT)
    .innerJoin(usuarioEntidades, and(eq(usuarioEntidades.usuarioId, usuariosT.id), eq(usuarioEntidades.entidadeId, entidadeId)))
    .where(eq(usuariosT.id, id))
    .limit(1);
  return row?.user ?? null;
}

/** Every membership of the users (any entidade). */
async function vinculosOf(db: DbOrTx, usuarioIds: readonly string[]): Promise<(Vinculo & { usuarioId: string; tags: number[] })[]> {
  if (usuarioIds.length === 0) return [];
  return db
    .select({
      usuarioId: usuarioEntidades.usuarioId,
      entidadeId: usuarioEntidades.entidadeId,
      entidadeNome: entidades.nome,
      perfilId: perfisT.id,
      perfilNome: perfisT.nome,
      tags: perfisT.tags,
      centrosCusto: usuarioEntidades.centrosCusto,
    })
    .from(usuarioEntidades)
    .innerJoin(entidades, eq(entidades.id, usuarioEntidades.entidadeId))
    .innerJoin(perfisT, eq(perfisT.id, usuarioEntidades.perfilId))
    .where(inArray(usuarioEntidades.usuarioId, [...usuarioIds]))
    .orderBy(entidades.nome);
}

/** Memberships shown to the caller: the session's entidade first, then others the caller administers. */
function visible(list: readonly (Vinculo & { usuarioId: string })[], managed: Map<string, unknown>, atual: string): Vinculo[] {
  return list
    .filter((v) => managed.has(v.entidadeId) || v.entidadeId === atual)
    .sort((a, b) => (a.entidadeId === atual ? -1 : b.entidadeId === atual ? 1 : a.entidadeNome.localeCompare(b.entidadeNome, 'pt-BR')))
    .map(({ entidadeId, entidadeNome, perfilId, perfilNome, centrosCusto }) => ({
      entidadeId,
      entidadeNome,
      perfilId,
      perfilNome,
      centrosCusto: [...centrosCusto],
    }));
}

async function toUsuario(db: DbOrTx, row: UserRow, ctx: RequestContext, managed?: Map<string, EntidadeAdministrada>): Promise<Usuario> {
  const admin = managed ?? (await entidadesAdministradas(db, ctx.user.id));
  const links = await vinculosOf(db, [row.id]);
  return {
    id: row.id,
    nome: row.nome,
    login: row.login,
    email: row.email,
    cpf: row.cpf,
    cargo: row.cargo,
    ativo: row.ativo,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    entidades: visible(links, admin, ctx.entidadeId),
    podeAlterarConta: podeAlterarConta(
      ctx.user.id,
      row.id,
      links.map((l) => l.entidadeId),
      admin,
    ),
  };
}

/**
 * What the audit trail records of a user (never the password hash; the CPF is masked by server-core):
 * the perfil and the centros de custo ('código – nome') per entidade name, centros only where there are some.
 */
function auditView(
  row: Pick<UserRow, 'nome' | 'login' | 'email' | 'cpf' | 'cargo' | 'ativo'>,
  perfis: Record<string, string>,
  centrosCusto: Record<string, string[]> = {},
) {
  return {
    nome: row.nome,
    login: row.login,
    email: row.email,
    cpf: row.cpf,
    cargo: row.cargo,
    ativo: row.ativo,
    perfis,
    ...(Object.keys(centrosCusto).length ? { centrosCusto } : {}),
  };
}

async function assertUnique(tx: Tx, data: { login: string; cpf: string | null }, exceptId?: string): Promise<void> {
  const notSelf = exceptId ? ne(usuariosT.id, exceptId) : undefined;
  const [login] = await tx
    .select({ id: usuariosT.id })
    .from(usuariosT)
    .where(and(sql`lower(${usuariosT.login}) = lower(${data.login})`, notSelf))
    .limit(1);
  if (login) throw new AppError(409, 'conflict', MENSAGENS.loginEmUso, { login: MENSAGENS.loginEmUso });
  if (data.cpf) {
    const [cpf] = await tx
      .select({ id: usuariosT.id })
      .from(usuariosT)
      .where(and(eq(usuariosT.cpf, data.cpf), notSelf))
      .limit(1);
    if (cpf) throw new AppError(409, 'conflict', MENSAGENS.cpfEmUso, { cpf: MENSAGENS.cpfEmUso });
  }
}

interface PlannedLink {
  entidadeId: string;
  perfilId: string;
  perfilNome: string;
  entidadeNome: string;
  /** The membership's centros de custo after the change (ids). */
  centrosCusto: string[];
}

/**
 * Checks the memberships asked for: the session's entidade is present, every entidade is one the
 * caller administers, every perfil belongs to its entidade, a perfil new to the user grants nothing
 * the caller does not hold there (tags, access to every centro de custo), and every centro de custo
 * is one of that entidade (400), active when newly given (400) and, unless the caller sees every
 * centro there, one the caller belongs to (403). Omitted centros keep the current ones.
 */
async function planLinks(
  tx: Tx,
  ctx: RequestContext,
  managed: Map<string, EntidadeAdministrada>,
  wanted: readonly { entidadeId: string; perfilId: string; centrosCusto?: string[] | undefined }[],
  current: ReadonlyMap<string, string>,
  currentCentros: ReadonlyMap<string, readonly string[]>,
  centros: readonly CentroCusto[],
): Promise<PlannedLink[]> {
  if (!wanted.some((v) => v.entidadeId === ctx.entidadeId)) {
    throw badRequest('Verifique os campos destacados.', { entidades: MENSAGENS.entidadeAtualObrigatoria });
  }
  const fields: Record<string, string> = {};
  wanted.forEach((v, i) => {
    if (!managed.has(v.entidadeId)) fields[`entidades.${i}.entidadeId`] = 'Você não administra esta entidade.';
  });
  if (Object.keys(fields).length) throw badRequest('Verifique os campos destacados.', fields);
  const perfis = await tx
    .select({ id: perfisT.id, entidadeId: perfisT.entidadeId, nome: perfisT.nome, tags: perfisT.tags, todosCentros: perfisT.todosCentros })
    .from(perfisT)
    .where(
      inArray(
        perfisT.id,
        wanted.map((v) => v.perfilId),
      ),
    );
  const declared = declaredTags(ctx.plugins);
  const centroById = new Map(centros.map((c) => [c.id, c]));
  const planned: PlannedLink[] = [];
  const naoPertencentes: string[] = [];
  wanted.forEach((v, i) => {
    const perfil = perfis.find((p) => p.id === v.perfilId && p.entidadeId === v.entidadeId);
    if (!perfil) {
      fields[`entidades.${i}.perfilId`] = 'Perfil inválido para esta entidade.';
      return;
    }
    const caller = managed.get(v.entidadeId)!;
    if (current.get(v.entidadeId) !== v.perfilId) {
      assertCanGrant(perfil.tags, caller.tags, declared, perfil.nome);
      if (perfil.todosCentros && !caller.todosCentros) throw forbidden(perfilTodosCentrosMensagem(perfil.nome));
    }
    const had = currentCentros.get(v.entidadeId) ?? [];
    const centrosCusto = v.centrosCusto ?? [...had];
    if (v.centrosCusto) {
      for (const id of v.centrosCusto) {
        const centro = centroById.get(id);
        if (!centro || centro.entidadeId !== v.entidadeId) {
          fields[`entidades.${i}.centrosCusto`] = MENSAGENS.centroCustoInvalido;
          break;
        }
        if (had.includes(id)) continue;
        if (!centro.ativo) {
          fields[`entidades.${i}.centrosCusto`] = MENSAGENS.centroCustoInativo;
          break;
        }
        if (!caller.todosCentros && !caller.centrosCusto.includes(id)) naoPertencentes.push(centroRotulo(centro));
      }
    }
    planned.push({ entidadeId: v.entidadeId, perfilId: v.perfilId, perfilNome: perfil.nome, entidadeNome: caller.nome, centrosCusto });
  });
  if (Object.keys(fields).length) throw badRequest('Verifique os campos destacados.', fields);
  if (naoPertencentes.length) throw forbidden(centrosNaoPertencentesMensagem(naoPertencentes));
  return planned;
}

/** Centros de custo ('código – nome') per entidade name, for the audit trail (entidades without centros left out). */
function centrosByEntidadeName(
  links: readonly { entidadeNome: string; centrosCusto: readonly string[] }[],
  centros: readonly CentroCusto[],
): Record<string, string[]> {
  return Object.fromEntries(links.filter((l) => l.centrosCusto.length > 0).map((l) => [l.entidadeNome, rotulosDosCentros(l.centrosCusto, centros)]));
}

/** A membership as the audit rows of other entidades show it. */
interface Membro {
  perfil: string;
  /** 'código – nome' labels. */
  centros: string[];
}

const membros = (links: readonly { entidadeId: string; perfilNome: string; centrosCusto: readonly string[] }[], centros: readonly CentroCusto[]) =>
  new Map<string, Membro>(links.map((l) => [l.entidadeId, { perfil: l.perfilNome, centros: rotulosDosCentros(l.centrosCusto, centros) }]));

const membroView = (m: Membro | null) => (m ? { perfil: m.perfil, ...(m.centros.length ? { centrosCusto: m.centros } : {}) } : { perfil: null });

/** Audit rows for memberships changed in entidades other than the session's (so their admins see it). */
function auditOtherEntidades(
  audit: AuditFn,
  ctx: RequestContext,
  usuarioId: string,
  antes: Map<string, Membro>,
  depois: Map<string, Membro>,
  acao: string,
): void {
  for (const entidadeId of new Set([...antes.keys(), ...depois.keys()])) {
    if (entidadeId === ctx.entidadeId) continue;
    const a = antes.get(entidadeId) ?? null;
    const d = depois.get(entidadeId) ?? null;
    if (JSON.stringify(membroView(a)) === JSON.stringify(membroView(d))) continue;
    audit({ registro: usuarioId, acao, antes: membroView(a), depois: membroView(d), entidadeId });
  }
}

const byEntidadeName = (links: readonly { entidadeNome: string; perfilNome: string }[]) => Object.fromEntries(links.map((l) => [l.entidadeNome, l.perfilNome]));

export function usuarioRoutes(router: PluginRouter): void {
  router.route({
    method: 'get',
    path: '/usuarios',
    tag: USUARIOS_TAG,
    summary: 'Usuários da entidade (busca e paginação)',
    description: 'q procura em nome, login, e-mail e CPF. sort: nome, login, email, cargo, ativo (prefixo - para decrescente). O CPF vem mascarado.',
    request: { query: pageQuerySchema },
    responses: { 200: pageOf(usuarioListItemSchema) },
    handler: async (c, ctx) => {
      const { q, page, pageSize, sort } = c.req.valid('query');
      const filters: (SQL | undefined)[] = [eq(usuarioEntidades.entidadeId, ctx.entidadeId)];
      if (q) {
        // accent- and case-insensitive ('antonio' finds 'Antônio'); digits also search the CPF
        const digits = q.replace(/\D/g, '');
        filters.push(
          or(
            searchCondition(
              [usuariosT.nome, usuariosT.login, usuariosT.email].map((expr) => ({ expr, normalized: false })),
              q,
            ),
            digits.length >= 3 && /^[\d.\s-]+$/.test(q) ? sql`${usuariosT.cpf} LIKE ${likePattern(digits)}` : undefined,
          ),
        );
      }
      const where = and(...filters);
      const sortKey = sort?.replace(/^-/, '') ?? 'nome';
      const column = Object.hasOwn(SORTS, sortKey) ? SORTS[sortKey] : undefined; // never Object.prototype's members
      if (!column) throw badRequest('Verifique os campos destacados.', { sort: 'Ordenação inválida.' });
      const order = sort?.startsWith('-') ? desc(column) : asc(column);
      const [{ total } = { total: 0 }] = await ctx.db
        .select({ total: sql<number>`count(*)::int` })
        .from(usuariosT)
        .innerJoin(usuarioEntidades, eq(usuarioEntidades.usuarioId, usuariosT.id))
        .where(where);
      const rows = await ctx.db
        .select({
          id: usuariosT.id,
          nome: usuariosT.nome,
          login: usuariosT.login,
          email: usuariosT.email,
          cpf: usuariosT.cpf,
          cargo: usuariosT.cargo,
          ativo: usuariosT.ativo,
        })
        .from(usuariosT)
        .innerJoin(usuarioEntidades, eq(usuarioEntidades.usuarioId, usuariosT.id))
        .where(where)
        .orderBy(order, asc(usuariosT.nome), asc(usuariosT.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize);
      const managed = await entidadesAdministradas(ctx.db, ctx.user.id);
      const links = await vinculosOf(
        ctx.db,
        rows.map((r) => r.id),
      );
      const items: UsuarioListItem[] = rows.map((r) => ({
        id: r.id,
        nome: r.nome,
        login: r.login,
        email: r.email,
        cpfMascarado: maskCpfPartial(r.cpf) || null,
        cargo: r.cargo,
        ativo: r.ativo,
        perfis: visible(
          links.filter((l) => l.usuarioId === r.id),
          managed,
          ctx.entidadeId,
        ),
      }));
      const body: PageOf<UsuarioListItem> = { items, total: Number(total), page, pageSize };
      return c.json(body, 200);
    },
  });

  router.route({
    method: 'get',
    path: '/usuarios/:id',
    tag: USUARIOS_TAG,
    summary: 'Um usuário da entidade',
    request: { params: idParams },
    responses: { 200: usuarioSchema, 404: { description: 'Não é usuário desta entidade' } },
    handler: async (c, ctx) => {
      const { id } = c.req.valid('param');
      const row = await memberUser(ctx.db, id, ctx.entidadeId);
      if (!row) throw notFound('Usuário não encontrado.');
      return c.json(await toUsuario(ctx.db, row, ctx), 200);
    },
  });

  router.route({
    method: 'post',
    path: '/usuarios',
    tag: USUARIOS_TAG,
    summary: 'Criar usuário',
    description: 'Com senha inicial (mínimo 8 caracteres) e um perfil em cada entidade; a entidade da sessão é obrigatória.',
    request: { body: usuarioCreateSchema },
    responses: {
      201: z.object({ id: z.string() }),
      403: { description: 'Perfil com permissões que o usuário não possui' },
      409: { description: 'Login ou CPF já usados' },
    },
    handler: async (c, ctx) => {
      const data = c.req.valid('json');
      assertSenha(data.senha, data.login);
      const senhaHash = await hashPassword(data.senha);
      const id = await ctx.mutate(async (tx, audit) => {
        await lockMemberships(tx);
        const managed = await entidadesAdministradas(tx, ctx.user.id);
        const centros = await centrosDe(
          tx,
          data.entidades.map((v) => v.entidadeId),
        );
        const links = await planLinks(tx, ctx, managed, data.entidades, new Map(), new Map(), centros);
        await assertUnique(tx, data);
        const values = { nome: data.nome, login: data.login, email: data.email, cpf: data.cpf, cargo: data.cargo, ativo: data.ativo };
        const [row] = await tx
          .insert(usuariosT)
          .values({ ...values, senhaHash })
          .returning({ id: usuariosT.id });
        await tx
          .insert(usuarioEntidades)
          .values(links.map((l) => ({ usuarioId: row!.id, entidadeId: l.entidadeId, perfilId: l.perfilId, centrosCusto: l.centrosCusto })));
        audit({ registro: row!.id, acao: 'criar', depois: auditView(values, byEntidadeName(links), centrosByEntidadeName(links, centros)) });
        auditOtherEntidades(audit, ctx, row!.id, new Map(), membros(links, centros), 'criar');
        return row!.id;
      });
      return c.json({ id }, 201);
    },
  });

  router.route({
    method: 'put',
    path: '/usuarios/:id',
    tag: USUARIOS_TAG,
    summary: 'Alterar usuário',
    description:
      'Carrega version (versão antiga → 409). Perfis em entidades que o usuário da sessão não administra ficam como estão. senha só para definir uma nova. ' +
      'Os dados da conta (nome, login, e-mail, CPF, cargo, senha, ativo) valem em todas as entidades do usuário: se ele também pertence a uma entidade que o usuário da sessão não administra, só ele mesmo muda esses dados (403; podeAlterarConta diz antes).',
    request: { params: idParams, body: usuarioUpdateSchema },
    responses: {
      200: usuarioSchema,
      403: { description: 'Perfil com permissões que o usuário não possui, ou conta compartilhada com entidade que você não administra' },
      404: { description: 'Não encontrado' },
      409: { description: 'Versão antiga, login/CPF em uso ou último administrador' },
    },
    handler: async (c, ctx) => {
      const { id } = c.req.valid('param');
      const data = c.req.valid('json');
      if (id === ctx.user.id && !data.ativo) throw conflict(MENSAGENS.desativarProprio);
      if (data.senha) assertSenha(data.senha, data.login);
      const senhaHash = data.senha ? await hashPassword(data.senha) : undefined;
      const saved = await ctx.mutate(async (tx, audit) => {
        await lockMemberships(tx);
        const row = await memberUser(tx, id, ctx.entidadeId);
        if (!row) throw notFound('Usuário não encontrado.');
        if (row.version !== data.version) throw new AppError(409, 'stale', MENSAGENS.versaoDesatualizada);
        const managed = await entidadesAdministradas(tx, ctx.user.id);
        const existing = await vinculosOf(tx, [id]);
        const values = { nome: data.nome, login: data.login, email: data.email, cpf: data.cpf, cargo: data.cargo, ativo: data.ativo };
        // the account row is shared by every entidade of the user (only the perfis are per entidade)
        const contaMudou = Boolean(senhaHash) || CAMPOS_DA_CONTA.some((k) => values[k] !== row[k]);
        if (contaMudou) {
          assertPodeAlterarConta(
            ctx.user.id,
            id,
            existing.map((l) => l.entidadeId),
            managed,
          );
        }
        const currentPerfil = new Map(existing.map((l) => [l.entidadeId, l.perfilId]));
        const currentCentros = new Map(existing.map((l) => [l.entidadeId, l.centrosCusto]));
        const centros = await centrosDe(tx, [...existing.map((l) => l.entidadeId), ...data.entidades.map((v) => v.entidadeId)]);
        const links = await planLinks(tx, ctx, managed, data.entidades, currentPerfil, currentCentros, centros);
        await assertUnique(tx, data, id);
        const before = await activeAdmins(tx, [...existing.map((l) => l.entidadeId), ...links.map((l) => l.entidadeId)]);

        const [updated] = await tx
          .update(usuariosT)
          .set({ ...values, ...(senhaHash ? { senhaHash } : {}), version: sql`${usuariosT.version} + 1` })
          .where(and(eq(usuariosT.id, id), eq(usuariosT.version, data.version)))
          .returning();
        if (!updated) throw new AppError(409, 'stale', MENSAGENS.versaoDesatualizada);

        // memberships in the entidades the caller administers become exactly `links`
        const wanted = new Map(links.map((l) => [l.entidadeId, l.perfilId]));
        for (const l of existing) {
          if (managed.has(l.entidadeId) && !wanted.has(l.entidadeId)) {
            await tx.delete(usuarioEntidades).where(and(eq(usuarioEntidades.usuarioId, id), eq(usuarioEntidades.entidadeId, l.entidadeId)));
          }
        }
        for (const l of links) {
          const had = currentPerfil.get(l.entidadeId);
          const hadCentros = currentCentros.get(l.entidadeId) ?? [];
          const sameCentros = hadCentros.length === l.centrosCusto.length && l.centrosCusto.every((c) => hadCentros.includes(c));
          if (had === l.perfilId && sameCentros) continue;
          if (had) {
            await tx
              .update(usuarioEntidades)
              .set({ perfilId: l.perfilId, centrosCusto: l.centrosCusto })
              .where(and(eq(usuarioEntidades.usuarioId, id), eq(usuarioEntidades.entidadeId, l.entidadeId)));
          } else {
            await tx.insert(usuarioEntidades).values({ usuarioId: id, entidadeId: l.entidadeId, perfilId: l.perfilId, centrosCusto: l.centrosCusto });
          }
        }
        await assertAdminsKept(tx, before);
        // a new password set by an administrator, or a deactivation, ends the user's live sessions
        if (senhaHash) await revokeUserSessions(tx, id, 'senha_redefinida', { except: id === ctx.user.id ? ctx.sessionId : undefined });
        else if (row.ativo && !data.ativo) await revokeUserSessions(tx, id, 'usuario_desativado');

        const oldVisible = existing.filter((l) => managed.has(l.entidadeId));
        audit({
          registro: id,
          acao: 'alterar',
          antes: auditView(row, byEntidadeName(oldVisible), centrosByEntidadeName(oldVisible, centros)),
          depois: {
            ...auditView(values, byEntidadeName(links), centrosByEntidadeName(links, centros)),
            ...(senhaHash ? { senhaAlterada: true } : {}),
          },
        });
        auditOtherEntidades(audit, ctx, id, membros(oldVisible, centros), membros(links, centros), 'alterar');
        return toUsuario(tx, updated, ctx, managed);
      });
      return c.json(saved, 200);
    },
  });

  const setAtivo = async (ctx: RequestContext, id: string, version: number | undefined, ativo: boolean): Promise<Usuario> => {
    if (!ativo && id === ctx.user.id) throw conflict(MENSAGENS.desativarProprio);
    return ctx.mutate(async (tx, audit) => {
      await lockMemberships(tx);
      const row = await memberUser(tx, id, ctx.entidadeId);
      if (!row) throw notFound('Usuário não encontrado.');
      if (version !== undefined && row.version !== version) throw new AppError(409, 'stale', MENSAGENS.versaoDesatualizada);
      // `ativo` is global: only the user or an administrator of every entidade of the user changes it,
      // and every entidade of the user counts for the last-administrator rule
      const entidadesDoUsuario = (await vinculosOf(tx, [id])).map((l) => l.entidadeId);
      const managed = await entidadesAdministradas(tx, ctx.user.id);
      assertPodeAlterarConta(ctx.user.id, id, entidadesDoUsuario, managed);
      if (row.ativo === ativo) return toUsuario(tx, row, ctx, managed);
      const before = await activeAdmins(tx, entidadesDoUsuario);
      const [updated] = await tx
        .update(usuariosT)
        .set({ ativo, version: sql`${usuariosT.version} + 1` })
        .where(eq(usuariosT.id, id))
        .returning();
      await assertAdminsKept(tx, before);
      if (!ativo) await revokeUserSessions(tx, id, 'usuario_desativado');
      audit({ registro: id, acao: ativo ? 'ativar' : 'desativar', antes: { ativo: row.ativo }, depois: { ativo } });
      return toUsuario(tx, updated!, ctx, managed);
    });
  };

  router.route({
    method: 'post',
    path: '/usuarios/:id/desativar',
    tag: USUARIOS_TAG,
    summary: 'Desativar usuário',
    description:
      'O usuário deixa de entrar (em todas as entidades). Nunca o próprio usuário nem o último administrador ativo de uma entidade (409). ' +
      'Só quem administra todas as entidades do usuário (senão 403).',
    request: { params: idParams, body: versionBodySchema },
    responses: {
      200: usuarioSchema,
      403: { description: 'Usuário de entidade que você não administra' },
      404: { description: 'Não encontrado' },
      409: { description: 'Próprio usuário, versão antiga ou último administrador' },
    },
    handler: async (c, ctx) => c.json(await setAtivo(ctx, c.req.valid('param').id, c.req.valid('json').version, false), 200),
  });

  router.route({
    method: 'post',
    path: '/usuarios/:id/ativar',
    tag: USUARIOS_TAG,
    summary: 'Ativar usuário',
    description: 'Só quem administra todas as entidades do usuário (senão 403).',
    request: { params: idParams, body: versionBodySchema },
    responses: {
      200: usuarioSchema,
      403: { description: 'Usuário de entidade que você não administra' },
      404: { description: 'Não encontrado' },
      409: { description: 'Versão antiga' },
    },
    handler: async (c, ctx) => c.json(await setAtivo(ctx, c.req.valid('param').id, c.req.valid('json').version, true), 200),
  });

  router.route({
    method: 'delete',
    path: '/usuarios/:id',
    tag: USUARIOS_TAG,
    summary: 'Remover usuário da entidade',
    description:
      'Retira o acesso do usuário a esta entidade (o histórico fica). Sem nenhuma outra entidade, o usuário também é desativado. Nunca o próprio usuário nem o último administrador ativo (409).',
    request: { params: idParams },
    responses: {
      204: { description: 'Removido da entidade' },
      404: { description: 'Não encontrado' },
      409: { description: 'Próprio usuário ou último administrador' },
    },
    handler: async (c, ctx) => {
      const { id } = c.req.valid('param');
      if (id === ctx.user.id) throw conflict(MENSAGENS.removerProprio);
      await ctx.mutate(async (tx, audit) => {
        await lockMemberships(tx);
        const row = await memberUser(tx, id, ctx.entidadeId);
        if (!row) throw notFound('Usuário não encontrado.');
        const links = await vinculosOf(tx, [id]);
        const here = links.find((l) => l.entidadeId === ctx.entidadeId)!;
        const centrosAqui = here.centrosCusto.length ? rotulosDosCentros(here.centrosCusto, await centrosDe(tx, [ctx.entidadeId])) : [];
        const before = await activeAdmins(tx, [ctx.entidadeId]);
        await tx.delete(usuarioEntidades).where(and(eq(usuarioEntidades.usuarioId, id), eq(usuarioEntidades.entidadeId, ctx.entidadeId)));
        const orphan = links.length === 1;
        if (orphan && row.ativo) {
          await tx
            .update(usuariosT)
            .set({ ativo: false, version: sql`${usuariosT.version} + 1` })
            .where(eq(usuariosT.id, id));
        }
        await assertAdminsKept(tx, before);
        audit({
          registro: id,
          acao: 'remover_da_entidade',
          antes: { login: row.login, perfil: here.perfilNome, ...(centrosAqui.length ? { centrosCusto: centrosAqui } : {}), ativo: row.ativo },
          depois: { login: row.login, perfil: null, ativo: orphan ? false : row.ativo },
        });
      });
      return c.body(null, 204);
    },
  });
}
