// @app/dashboard/server: GET /api/dashboard/resumo, the figures of the home page.
import { TIME_ZONE, formatDateTime } from '@app/br';
import { auditLog, coreSchema, defineServerPlugin, entidades, notFound, usuarioEntidades } from '@app/server-core';
import { and, count, desc, eq, gte, sql } from '@app/server-core/orm';
import {
  AUDITORIA_TAG_DASHBOARD,
  DASHBOARD_TAG,
  type Resumo,
  type ResumoCard,
  USUARIOS_TAG_DASHBOARD,
  resumoSchema,
} from '../shared/index.js';

const ACOES: Record<string, string> = {
  entrar: 'entradas no sistema',
  entrar_falhou: 'tentativas de entrada sem sucesso',
  sair: 'saídas',
  criar: 'inclusões',
  alterar: 'alterações',
  excluir: 'exclusões',
  trocar_entidade: 'trocas de entidade',
  acesso_negado: 'acessos negados',
};

export default defineServerPlugin({
  id: 'dashboard',
  version: __PKG_VERSION__,
  core: '^1.0.0',
  tags: [{ tag: DASHBOARD_TAG, nome: 'Início' }],
  routes(router) {
    router.route({
      method: 'get',
      path: '/resumo',
      tag: DASHBOARD_TAG,
      summary: 'Resumo da página inicial',
      description:
        'Usuário e entidade da sessão, suas ações de hoje (America/Sao_Paulo), seu último acesso e as tentativas de entrada sem sucesso com seu login desde então. ' +
        'Os eventos de auditoria da entidade só vêm para quem tem a tag 90 (Logs de Auditoria); o número de usuários da entidade, para quem tem a tag 3 (Usuários) ou a 90.',
      responses: { 200: resumoSchema },
      handler: async (c, ctx) => {
        const { db } = ctx;
        const [entidade] = await db
          .select({ id: entidades.id, nome: entidades.nome, municipio: entidades.municipio, uf: entidades.uf })
          .from(entidades)
          .where(eq(entidades.id, ctx.entidadeId));
        if (!entidade) throw notFound('Entidade não encontrada.');

        // Midnight in São Paulo, computed by the database (same clock as audit_log.at).
        const startOfDay = sql`(date_trunc('day', now() AT TIME ZONE ${TIME_ZONE}) AT TIME ZONE ${TIME_ZONE})`;
        const [today] = (
          await db.execute<{ dia: string }>(sql`SELECT to_char(now() AT TIME ZONE ${TIME_ZONE}, 'YYYY-MM-DD') AS dia`)
        ).rows;
        // Who may see what: the entidade's audit activity (who signs in, creates, deletes… today) is
        // what 'Logs de Auditoria' shows, so only holders of its tag (90) get it. The entidade's user
        // count is an administration figure: holders of 'Usuários' (3), who list the users anyway, or
        // of the audit tag (the log names who signs in). Everyone keeps their own figures: their
        // actions today, their previous access and the failed attempts with their login.
        const veAuditoria = ctx.hasTag(AUDITORIA_TAG_DASHBOARD);
        const veUsuarios = veAuditoria || ctx.hasTag(USUARIOS_TAG_DASHBOARD);
        const porAcao = veAuditoria
          ? await db
              .select({ acao: auditLog.acao, total: count() })
              .from(auditLog)
              .where(and(eq(auditLog.entidadeId, ctx.entidadeId), gte(auditLog.at, startOfDay)))
              .groupBy(auditLog.acao)
              .orderBy(desc(count()), auditLog.acao)
          : undefined;
        const [meus] = await db
          .select({ total: count() })
          .from(auditLog)
          .where(
            and(eq(auditLog.entidadeId, ctx.entidadeId), eq(auditLog.usuarioId, ctx.user.id), gte(auditLog.at, startOfDay)),
          );
        const [usuarios] = veUsuarios
          ? await db.select({ total: count() }).from(usuarioEntidades).where(eq(usuarioEntidades.entidadeId, ctx.entidadeId))
          : [];
        // The latest 'entrar' is the current sign-in; the one before it is the previous access.
        const entradas = await db
          .select({ at: auditLog.at })
          .from(auditLog)
          .where(and(eq(auditLog.usuarioId, ctx.user.id), eq(auditLog.acao, 'entrar')))
          .orderBy(desc(auditLog.id))
          .limit(2);
        const ultimoAcesso = entradas[1]?.at ?? null;
        // Refused sign-ins are counted in tentativas_entrada per (login, address, 15-minute window);
        // the audit trail only has the first of each. A window that straddles the previous access
        // counts whole.
        const { tentativasEntrada } = coreSchema;
        const [falhas] = await db
          .select({ total: sql<number>`coalesce(sum(${tentativasEntrada.falhas}), 0)::int` })
          .from(tentativasEntrada)
          .where(
            and(
              eq(tentativasEntrada.usuarioId, ctx.user.id),
              ultimoAcesso ? gte(tentativasEntrada.ultimaEm, ultimoAcesso) : undefined,
            ),
          );

        const total = porAcao?.reduce((sum, row) => sum + row.total, 0);
        const principais = (porAcao ?? [])
          .slice(0, 3)
          .map((row) => `${row.total} ${ACOES[row.acao] ?? row.acao.replaceAll('_', ' ')}`)
          .join(', ');
        const cards: ResumoCard[] = [
          ...(porAcao
            ? [
                {
                  id: 'eventos-hoje',
                  label: 'Eventos registrados hoje',
                  value: total ?? 0,
                  hint: principais ? `Na entidade: ${principais}.` : 'Nenhum evento registrado hoje nesta entidade.',
                  tag: AUDITORIA_TAG_DASHBOARD,
                },
              ]
            : []),
          { id: 'minhas-acoes-hoje', label: 'Suas ações hoje', value: meus?.total ?? 0, hint: 'Registradas na auditoria.' },
          ...(usuarios ? [{ id: 'usuarios', label: 'Usuários com acesso', value: usuarios.total, hint: `Em ${entidade.nome}.` }] : []),
          {
            id: 'ultimo-acesso',
            label: 'Seu acesso anterior',
            value: ultimoAcesso ? formatDateTime(ultimoAcesso) : 'Primeiro acesso',
            hint:
              (falhas?.total ?? 0) > 0
                ? `${falhas!.total} tentativa(s) de entrada sem sucesso com seu login desde então.`
                : 'Nenhuma tentativa de entrada sem sucesso com seu login desde então.',
          },
        ];
        const resumo: Resumo = {
          usuario: { id: ctx.user.id, nome: ctx.user.nome },
          entidade,
          dia: today?.dia ?? '',
          eventosHoje: porAcao ? { total: total ?? 0, meus: meus?.total ?? 0, porAcao } : { meus: meus?.total ?? 0 },
          ...(usuarios ? { usuariosDaEntidade: usuarios.total } : {}),
          ultimoAcesso: ultimoAcesso ? ultimoAcesso.toISOString() : null,
          tentativasFalhas: falhas?.total ?? 0,
          cards,
          geradoEm: new Date().toISOString(),
        };
        return c.json(resumo, 200);
      },
    });
  },
});
