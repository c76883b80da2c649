// @app/dashboard/server: GET /api/dashboard/resumo, the figures of the home page.
import { TIME_ZONE, formatDateTime } from '@app/br';
import { auditLog, coreSchema, defineServerPlugin, entidades, notFound, usuarioEntidades } from '@app/server-core';
import { and, count, desc, eq, gte, sql } from '@app/server-core/orm';
import { AUDITORIA_TAG_DASHBOARD, DASHBOARD_TAG, type Resumo, type ResumoCard, USUARIOS_TAG_DASHBOARD, resumoSchema } from '../shared/index.js';

/** What an audit action is called after a count: [one, several] ('1 troca de entidade', '2 trocas de entidade'). */
const ACOES: Record<string, readonly [string, string]> = {
  entrar: ['entrada no sistema', 'entradas no sistema'],
  entrar_falhou: ['tentativa de entrada sem sucesso', 'tentativas de entrada sem sucesso'],
  sair: ['saída', 'saídas'],
  criar: ['inclusão', 'inclusões'],
  alterar: ['alteração', 'alterações'],
  excluir: ['exclusão', 'exclusões'],
  ativar: ['ativação', 'ativações'],
  desativar: ['desativação', 'desativações'],
  reativar: ['ativação', 'ativações'],
  duplicar: ['duplicação', 'duplicações'],
  trocar_entidade: ['troca de entidade', 'trocas de entidade'],
  acesso_negado: ['acesso negado', 'acessos negados'],
  remover_da_entidade: ['remoção da entidade', 'remoções da entidade'],
  exportar_csv: ['exportação', 'exportações'],
  importar: ['importação', 'importações'],
  importar_arquivo: ['importação de arquivo', 'importações de arquivo'],
  dados_demonstracao: ['carga de dados de demonstração', 'cargas de dados de demonstração'],
  caixa_saida_consultada: ['consulta à caixa de saída', 'consultas à caixa de saída'],
  devtools_aberto: ['abertura das ferramentas do desenvolvedor', 'aberturas das ferramentas do desenvolvedor'],
  devtools_fechado: ['fechamento das ferramentas do desenvolvedor', 'fechamentos das ferramentas do desenvolvedor'],
  enviar: ['envio', 'envios'],
  aceitar: ['aceite', 'aceites'],
  aprovar: ['aprovação', 'aprovações'],
  reprovar: ['reprovação', 'reprovações'],
  devolver: ['devolução', 'devoluções'],
  cancelar: ['cancelamento', 'cancelamentos'],
};

/** '1 troca de entidade', '3 inclusões'; an action without a name here: 'Pedir revisão: 2'. */
export function contagemDeAcao(total: number, acao: string): string {
  const nome = ACOES[acao];
  if (nome) return `${total.toLocaleString('pt-BR')} ${total === 1 ? nome[0] : nome[1]}`;
  const legivel = acao.replace(/[_-]+/g, ' ').trim();
  return `${legivel.charAt(0).toLocaleUpperCase('pt-BR')}${legivel.slice(1)}: ${total.toLocaleString('pt-BR')}`;
}

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
        const [today] = (await db.execute<{ dia: string }>(sql`SELECT to_char(now() AT TIME ZONE ${TIME_ZONE}, 'YYYY-MM-DD') AS dia`)).rows;
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
          .where(and(eq(auditLog.entidadeId, ctx.entidadeId), eq(auditLog.usuarioId, ctx.user.id), gte(auditLog.at, startOfDay)));
        const [usuarios] = veUsuarios ? await db.select({ total: count() }).from(usuarioEntidades).where(eq(usuarioEntidades.entidadeId, ctx.entidadeId)) : [];
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
          .where(and(eq(tentativasEntrada.usuarioId, ctx.user.id), ultimoAcesso ? gte(tentativasEntrada.ultimaEm, ultimoAcesso) : undefined));

        const total = porAcao?.reduce((sum, row) => sum + row.total, 0);
        const principais = (porAcao ?? [])
          .slice(0, 3)
          .map((row) => contagemDeAcao(row.total, row.acao))
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
                ? `${falhas!.total} ${falhas!.total === 1 ? 'tentativa' : 'tentativas'} de entrada sem sucesso com seu login desde então.`
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
