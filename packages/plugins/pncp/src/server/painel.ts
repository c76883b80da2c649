// The PNCP on the home page: the publications that failed for good (PENDENCIAS, 'Publicações no PNCP
// com erro') and how the entidade's publications stand (INDICADORES, 'Publicações no PNCP'). The scope
// is the one of the /pncp list and of its actions (tag 103): every publication of the person's
// entidade — a PCA is the entidade's plan, published by whoever holds the tag.
// A publication has failed for good when its state is 'erro': the PNCP refused it (400/422,
// credentials) or its retries ran out; one waiting for a retry stays 'aguardando' with its next attempt.
import { TIME_ZONE, today } from '@app/br';
import type { IndicadorProvider, PendenciaProvider } from '@app/server-core';
import { and, count, eq, min, sql } from '@app/server-core/orm';
import { PNCP_TAG } from '../shared/index.js';
import { pncpPublicacoes } from './tables.js';

/** The /pncp list filtered to the publications with an error (the list's `estado` filter). */
const HREF_COM_ERRO = '/pncp?estado=erro';
/** The /pncp list filtered to the publications in the queue or being sent. */
const HREF_EM_ANDAMENTO = '/pncp?estado=aguardando,enviando';
/** A publication in the queue or being sent longer than this is worth a look (the job retries for about 40 minutes). */
const ANDAMENTO_LONGO_HORAS = 1;

const comErro = (entidadeId: string) => and(eq(pncpPublicacoes.entidadeId, entidadeId), eq(pncpPublicacoes.estado, 'erro'));

export const publicacoesComErro: PendenciaProvider = {
  id: 'pncp.publicacoes-com-erro',
  label: 'Publicações no PNCP com erro',
  href: HREF_COM_ERRO,
  tag: PNCP_TAG,
  async count(db, ctx) {
    const [row] = await db.select({ n: count() }).from(pncpPublicacoes).where(comErro(ctx.entidadeId));
    return Number(row?.n ?? 0);
  },
  // when the oldest failure was recorded (nothing else changes a publication with an error until it is
  // tried again or cancelled, and then it leaves this list)
  async desde(db, ctx) {
    const [row] = await db
      .select({ em: min(pncpPublicacoes.updatedAt) })
      .from(pncpPublicacoes)
      .where(comErro(ctx.entidadeId));
    return row?.em ? new Date(row.em) : null;
  },
};

const TZ = sql.raw(`'${TIME_ZONE}'`);
const LONGO = sql.raw(`interval '${ANDAMENTO_LONGO_HORAS} hours'`);
const plural = (n: number, um: string, varios: string) => `${n.toLocaleString('pt-BR')} ${n === 1 ? um : varios}`;

export const situacaoDasPublicacoes: IndicadorProvider = {
  id: 'pncp.publicacoes',
  label: 'Publicações no PNCP',
  href: '/pncp',
  tag: PNCP_TAG,
  async medir(ctx) {
    const ano = Number(today().slice(0, 4));
    const t = pncpPublicacoes;
    const [linha] = await ctx.db
      .select({
        todas: count(),
        erro: sql<number>`count(*) FILTER (WHERE ${t.estado} = 'erro')::int`,
        andamento: sql<number>`count(*) FILTER (WHERE ${t.estado} IN ('aguardando', 'enviando'))::int`,
        demoradas: sql<number>`count(*) FILTER (WHERE ${t.estado} IN ('aguardando', 'enviando') AND ${t.createdAt} < now() - ${LONGO})::int`,
        publicadas: sql<number>`count(*) FILTER (WHERE ${t.estado} = 'concluido' AND ${t.operacao} = 'publicar' AND extract(year FROM ${t.concluidoEm} AT TIME ZONE ${TZ})::int = ${ano})::int`,
      })
      .from(t)
      .where(eq(t.entidadeId, ctx.entidadeId));
    if (!linha || Number(linha.todas) === 0) return null;
    const erro = Number(linha.erro);
    const andamento = Number(linha.andamento);
    const demoradas = Number(linha.demoradas);
    const publicadas = Number(linha.publicadas);
    if (erro > 0) {
      return {
        valor: String(erro),
        nivel: 'critico',
        detalhe: `${plural(erro, 'publicação deu erro', 'publicações deram erro')} no PNCP, sem nova tentativa automática: corrija e tente novamente, ou cancele.`,
        href: HREF_COM_ERRO,
      };
    }
    if (demoradas > 0) {
      return {
        valor: String(demoradas),
        nivel: 'atencao',
        detalhe: `${plural(demoradas, 'publicação aguarda', 'publicações aguardam')} há mais de ${plural(ANDAMENTO_LONGO_HORAS, 'hora', 'horas')} na fila ou no envio ao PNCP: confira se o PNCP está respondendo.`,
        href: HREF_EM_ANDAMENTO,
      };
    }
    const concluidas = publicadas === 0 ? 'Nenhuma publicação concluída' : plural(publicadas, 'publicação concluída', 'publicações concluídas');
    const emAndamento = andamento > 0 ? ` ${plural(andamento, 'publicação em andamento', 'publicações em andamento')}.` : '';
    return { valor: String(publicadas), nivel: 'normal', detalhe: `${concluidas} no PNCP em ${ano}, nenhuma com erro.${emAndamento}` };
  },
};
