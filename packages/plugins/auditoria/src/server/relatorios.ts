// Audit activity at /reports (the kit's RELATORIOS point): events of the entidade per day (America/Sao_Paulo),
// person, module and action, for holders of 'Logs de Auditoria'.
import { TIME_ZONE, today } from '@app/br';
import { type RequestContext, auditLog, defineReport, usuarioEntidades, usuarios } from '@app/server-core';
import { and, asc, count, eq, sql } from '@app/server-core/orm';
import { AUDITORIA_TAG, acaoNome } from '../shared/index.js';

/** 'enviar_convites' without a name → 'Enviar convites' (never the raw code). */
const acaoLegivel = (acao: string) => {
  const nome = acaoNome(acao);
  if (nome !== acao) return nome;
  const texto = acao.replace(/[_-]+/g, ' ').trim();
  return texto.charAt(0).toLocaleUpperCase('pt-BR') + texto.slice(1);
};

const moduloDe = (ctx: RequestContext, plugin: string) => (plugin === 'core' ? 'Sistema' : (ctx.plugins.find((p) => p.id === plugin)?.tags[0]?.nome ?? plugin));

export const atividadePorPeriodo = defineReport({
  id: 'auditoria.atividade',
  title: 'Atividade por período (auditoria)',
  description: 'Eventos registrados na auditoria por dia, pessoa, módulo e ação.',
  group: 'Auditoria',
  tag: AUDITORIA_TAG,
  filters: [
    { name: 'de', label: 'Data inicial', kind: 'date', required: true, default: () => `${today().slice(0, 8)}01` },
    { name: 'ate', label: 'Data final', kind: 'date', notBefore: 'de' },
    {
      name: 'usuario',
      label: 'Pessoa',
      kind: 'select',
      options: async (ctx) =>
        (
          await ctx.db
            .select({ value: usuarios.id, label: usuarios.nome })
            .from(usuarios)
            .innerJoin(usuarioEntidades, eq(usuarioEntidades.usuarioId, usuarios.id))
            .where(eq(usuarioEntidades.entidadeId, ctx.entidadeId))
            .orderBy(asc(usuarios.nome))
        ).map((u) => ({ value: u.value, label: u.label })),
    },
    {
      name: 'modulo',
      label: 'Módulo',
      kind: 'select',
      options: async (ctx) =>
        [{ id: 'core' }, ...ctx.plugins].map((p) => ({ value: p.id, label: moduloDe(ctx, p.id) })).sort((a, b) => a.label.localeCompare(b.label, 'pt-BR')),
    },
  ],
  columns: [
    { key: 'dia', label: 'Dia', type: 'date' },
    { key: 'pessoa', label: 'Pessoa' },
    { key: 'modulo', label: 'Módulo' },
    { key: 'acao', label: 'Ação' },
    { key: 'eventos', label: 'Eventos', type: 'integer', total: true },
  ],
  async load(ctx, f, limit) {
    // the zone as a literal: a parameter in SELECT and another in GROUP BY would be two expressions to PostgreSQL
    const zona = sql.raw(`'${TIME_ZONE}'`);
    const dia = sql<string>`to_char(${auditLog.at} AT TIME ZONE ${zona}, 'YYYY-MM-DD')`;
    const rows = await ctx.db
      .select({ dia, pessoa: sql<string | null>`max(${usuarios.nome})`, plugin: auditLog.plugin, acao: auditLog.acao, eventos: count() })
      .from(auditLog)
      .leftJoin(usuarios, eq(usuarios.id, auditLog.usuarioId))
      .where(
        and(
          eq(auditLog.entidadeId, ctx.entidadeId),
          sql`${auditLog.at} >= (${f.de}::date::timestamp AT TIME ZONE ${zona})`,
          f.ate ? sql`${auditLog.at} < ((${f.ate}::date + 1)::timestamp AT TIME ZONE ${zona})` : undefined,
          f.usuario ? eq(auditLog.usuarioId, f.usuario) : undefined,
          f.modulo ? eq(auditLog.plugin, f.modulo) : undefined,
        ),
      )
      .groupBy(dia, auditLog.usuarioId, auditLog.plugin, auditLog.acao)
      .orderBy(asc(dia), asc(sql`max(${usuarios.nome})`), asc(auditLog.plugin), asc(auditLog.acao))
      .limit(limit);
    return rows.map((r) => ({
      dia: r.dia,
      pessoa: r.pessoa ?? 'Sem pessoa (sistema)',
      modulo: moduloDe(ctx, r.plugin),
      acao: acaoLegivel(r.acao),
      eventos: r.eventos,
    }));
  },
});
