// /api/usuarios/perfis (perfis of the session's entidade), /api/usuarios/tags (every tag declared by
// the enabled server plugins) and /api/usuarios/opcoes (what the user form may offer the caller).
import { AppError, conflict, type DbOrTx, forbidden, notFound, type PluginRouter, pageOf, pageQuerySchema, usuarioEntidades } from '@app/server-core';
import { and, asc, eq, ilike, inArray, ne, sql } from '@app/server-core/orm';
import { z } from 'zod';
import {
  isExemptTag,
  MENSAGENS,
  type Opcoes,
  opcoesSchema,
  type PageOf,
  type Perfil,
  perfilBodySchema,
  perfilSchema,
  perfilUpdateSchema,
  tagsResponseSchema,
  USUARIOS_TAG,
} from '../shared/index.js';
import { activeAdmins, assertAdminsKept, assertCanGrant, centrosDe, declaredTags, entidadesAdministradas, lockMemberships } from './rules.js';
import { perfisT } from './tables.js';
import { likePattern } from './usuarios.js';

const idParams = z.object({ id: z.uuid('Identificador inválido.') });

const usuariosCount = sql<number>`(SELECT count(*)::int FROM usuario_entidades ue WHERE ue.perfil_id = ${perfisT.id})`;

async function perfilOf(db: DbOrTx, id: string, entidadeId: string): Promise<Perfil | null> {
  const [row] = await db
    .select({ id: perfisT.id, nome: perfisT.nome, tags: perfisT.tags, todosCentros: perfisT.todosCentros, version: perfisT.version, usuarios: usuariosCount })
    .from(perfisT)
    .where(and(eq(perfisT.id, id), eq(perfisT.entidadeId, entidadeId)));
  return row ? { ...row, usuarios: Number(row.usuarios) } : null;
}

async function assertNomeLivre(db: DbOrTx, entidadeId: string, nome: string, exceptId?: string): Promise<void> {
  const [row] = await db
    .select({ id: perfisT.id })
    .from(perfisT)
    .where(and(eq(perfisT.entidadeId, entidadeId), sql`lower(${perfisT.nome}) = lower(${nome})`, exceptId ? ne(perfisT.id, exceptId) : undefined))
    .limit(1);
  if (row) throw new AppError(409, 'conflict', MENSAGENS.perfilNomeEmUso, { nome: MENSAGENS.perfilNomeEmUso });
}

const grantable = (tags: readonly number[]) => tags.filter((t) => !isExemptTag(t));

/** Nobody gives the access to every centro de custo without holding it (as with tags). */
function assertCanGrantTodosCentros(wanted: boolean, had: boolean, callerTodos: boolean): void {
  if (wanted && !had && !callerTodos) throw forbidden(MENSAGENS.todosCentrosSemPermissao);
}

export function perfilRoutes(router: PluginRouter): void {
  router.route({
    method: 'get',
    path: '/tags',
    tag: USUARIOS_TAG,
    summary: 'Tags de permissão declaradas pelos plugins habilitados',
    description: 'Cada tag com o nome declarado pelo plugin (tags 0 e -1..-4, abertas a todos, não aparecem).',
    responses: { 200: tagsResponseSchema },
    handler: (c, ctx) => c.json({ items: declaredTags(ctx.plugins) }, 200),
  });

  router.route({
    method: 'get',
    path: '/opcoes',
    tag: USUARIOS_TAG,
    summary: 'Entidades que o usuário da sessão administra, com os perfis de cada uma',
    responses: { 200: opcoesSchema },
    handler: async (c, ctx) => {
      const managed = await entidadesAdministradas(ctx.db, ctx.user.id);
      const ids = [...managed.keys()];
      const perfis = ids.length
        ? await ctx.db
            .select({ id: perfisT.id, entidadeId: perfisT.entidadeId, nome: perfisT.nome, tags: perfisT.tags, todosCentros: perfisT.todosCentros })
            .from(perfisT)
            .where(inArray(perfisT.entidadeId, ids))
            .orderBy(asc(perfisT.nome))
        : [];
      const centros = await centrosDe(ctx.db, ids);
      const body: Opcoes = {
        entidades: ids
          .map((id) => ({
            id,
            nome: managed.get(id)!.nome,
            atual: id === ctx.entidadeId,
            minhasTags: managed.get(id)!.tags,
            meusTodosCentros: managed.get(id)!.todosCentros,
            meusCentros: managed.get(id)!.centrosCusto,
            perfis: perfis.filter((p) => p.entidadeId === id).map(({ id: pid, nome, tags, todosCentros }) => ({ id: pid, nome, tags, todosCentros })),
            centrosCusto: centros.filter((c) => c.entidadeId === id).map(({ id: cid, codigo, nome, ativo }) => ({ id: cid, codigo, nome, ativo })),
          }))
          .sort((a, b) => (a.atual ? -1 : b.atual ? 1 : a.nome.localeCompare(b.nome, 'pt-BR'))),
      };
      return c.json(body, 200);
    },
  });

  router.route({
    method: 'get',
    path: '/perfis',
    tag: USUARIOS_TAG,
    summary: 'Perfis da entidade',
    request: { query: pageQuerySchema },
    responses: { 200: pageOf(perfilSchema) },
    handler: async (c, ctx) => {
      const { q, page, pageSize } = c.req.valid('query');
      const where = and(eq(perfisT.entidadeId, ctx.entidadeId), q ? ilike(perfisT.nome, likePattern(q)) : undefined);
      const [{ total } = { total: 0 }] = await ctx.db.select({ total: sql<number>`count(*)::int` }).from(perfisT).where(where);
      const rows = await ctx.db
        .select({
          id: perfisT.id,
          nome: perfisT.nome,
          tags: perfisT.tags,
          todosCentros: perfisT.todosCentros,
          version: perfisT.version,
          usuarios: usuariosCount,
        })
        .from(perfisT)
        .where(where)
        .orderBy(asc(perfisT.nome), asc(perfisT.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize);
      const body: PageOf<Perfil> = {
        items: rows.map((r) => ({ ...r, usuarios: Number(r.usuarios) })),
        total: Number(total),
        page,
        pageSize,
      };
      return c.json(body, 200);
    },
  });

  router.route({
    method: 'get',
    path: '/perfis/:id',
    tag: USUARIOS_TAG,
    summary: 'Um perfil da entidade',
    request: { params: idParams },
    responses: { 200: perfilSchema, 404: { description: 'Não é perfil desta entidade' } },
    handler: async (c, ctx) => {
      const perfil = await perfilOf(ctx.db, c.req.valid('param').id, ctx.entidadeId);
      if (!perfil) throw notFound('Perfil não encontrado.');
      return c.json(perfil, 200);
    },
  });

  router.route({
    method: 'post',
    path: '/perfis',
    tag: USUARIOS_TAG,
    summary: 'Criar perfil',
    description: 'Só com tags que o usuário da sessão possui, e todosCentros só por quem também acessa todos os centros de custo (senão 403).',
    request: { body: perfilBodySchema },
    responses: { 201: z.object({ id: z.string() }), 403: { description: 'Tag que o usuário não possui' }, 409: { description: 'Nome em uso' } },
    handler: async (c, ctx) => {
      const data = c.req.valid('json');
      const tags = grantable(data.tags);
      const todosCentros = data.todosCentros ?? false;
      assertCanGrant(tags, ctx.tags, declaredTags(ctx.plugins));
      assertCanGrantTodosCentros(todosCentros, false, ctx.todosCentros);
      const id = await ctx.mutate(async (tx, audit) => {
        await assertNomeLivre(tx, ctx.entidadeId, data.nome);
        const [row] = await tx.insert(perfisT).values({ entidadeId: ctx.entidadeId, nome: data.nome, tags, todosCentros }).returning({ id: perfisT.id });
        audit({ registro: row!.id, acao: 'criar', depois: { nome: data.nome, tags, todosCentros } });
        return row!.id;
      });
      return c.json({ id }, 201);
    },
  });

  router.route({
    method: 'put',
    path: '/perfis/:id',
    tag: USUARIOS_TAG,
    summary: 'Alterar perfil',
    description:
      'Carrega version (versão antiga → 409). Acrescentar uma tag que o usuário da sessão não possui → 403; tirar a tag 3 do perfil dos últimos administradores ativos → 409. ' +
      'todosCentros omitido fica como está; ligá-lo exige que o usuário da sessão também acesse todos os centros de custo (senão 403).',
    request: { params: idParams, body: perfilUpdateSchema },
    responses: {
      200: perfilSchema,
      403: { description: 'Tag que o usuário não possui' },
      404: { description: 'Não encontrado' },
      409: { description: 'Versão antiga, nome em uso ou último administrador' },
    },
    handler: async (c, ctx) => {
      const { id } = c.req.valid('param');
      const data = c.req.valid('json');
      const tags = grantable(data.tags);
      const saved = await ctx.mutate(async (tx, audit) => {
        await lockMemberships(tx);
        const current = await perfilOf(tx, id, ctx.entidadeId);
        if (!current) throw notFound('Perfil não encontrado.');
        if (current.version !== data.version) throw new AppError(409, 'stale', MENSAGENS.versaoDesatualizada);
        const added = tags.filter((t) => !current.tags.includes(t));
        assertCanGrant(added, ctx.tags, declaredTags(ctx.plugins));
        const todosCentros = data.todosCentros ?? current.todosCentros;
        assertCanGrantTodosCentros(todosCentros, current.todosCentros, ctx.todosCentros);
        await assertNomeLivre(tx, ctx.entidadeId, data.nome, id);
        const before = await activeAdmins(tx, [ctx.entidadeId]);
        const [updated] = await tx
          .update(perfisT)
          .set({ nome: data.nome, tags, todosCentros, version: sql`${perfisT.version} + 1` })
          .where(and(eq(perfisT.id, id), eq(perfisT.version, data.version)))
          .returning({ id: perfisT.id });
        if (!updated) throw new AppError(409, 'stale', MENSAGENS.versaoDesatualizada);
        await assertAdminsKept(tx, before);
        audit({
          registro: id,
          acao: 'alterar',
          antes: { nome: current.nome, tags: current.tags, todosCentros: current.todosCentros },
          depois: { nome: data.nome, tags, todosCentros },
        });
        return (await perfilOf(tx, id, ctx.entidadeId))!;
      });
      return c.json(saved, 200);
    },
  });

  router.route({
    method: 'delete',
    path: '/perfis/:id',
    tag: USUARIOS_TAG,
    summary: 'Excluir perfil',
    request: { params: idParams },
    responses: { 204: { description: 'Excluído' }, 404: { description: 'Não encontrado' }, 409: { description: 'Perfil atribuído a usuários' } },
    handler: async (c, ctx) => {
      const { id } = c.req.valid('param');
      await ctx.mutate(async (tx, audit) => {
        await lockMemberships(tx);
        const current = await perfilOf(tx, id, ctx.entidadeId);
        if (!current) throw notFound('Perfil não encontrado.');
        const [inUse] = await tx.select({ id: usuarioEntidades.usuarioId }).from(usuarioEntidades).where(eq(usuarioEntidades.perfilId, id)).limit(1);
        if (inUse) throw conflict(MENSAGENS.perfilEmUso);
        await tx.delete(perfisT).where(and(eq(perfisT.id, id), eq(perfisT.entidadeId, ctx.entidadeId)));
        audit({ registro: id, acao: 'excluir', antes: { nome: current.nome, tags: current.tags, todosCentros: current.todosCentros } });
      });
      return c.body(null, 204);
    },
  });
}
