// Fracionamento: per requisição and grupo of the catalogue, the amount that counts against the year's
// dispensa limit of its category (requisicao_grupos, kept on each save and transition), and the alerts
// when the year's total of a grupo (requisições em aprovação and aprovadas) passes the limit, or when
// what the year's contracting plan (PCA, contributed to DISPENSA_PLANEJADO) sets aside for it does.
import { fromUnits, sumMoney, toUnits } from '@app/documents';
import { type DbOrTx, type RequestContext, type Tx, extensionPoint } from '@app/server-core';
import { and, desc, eq, lte, sql } from '@app/server-core/orm';
import { type AlertaDispensa, CATEGORIA_ARTIGO, type Categoria, LIMITES_DISPENSA_PADRAO, REQUISICAO_CONTA_DISPENSA, passaDoLimite } from '../shared/index.js';
import { limitesDispensa } from './tables.js';

/** What the year's plans set aside for one grupo of the catalogue in one category. */
export interface PlanejadoNoGrupo {
  /** Sum of the plans below (exact decimal). */
  total: string;
  /** Each plan: 'Plano de Contratações Anual 1/2026', its state as a person reads it, its amount in the grupo. */
  planos: { rotulo: string; situacao: string; valor: string }[];
}

/** A plugin that plans the year's purchases (the PCA): what it sets aside per grupo, for the dispensa alert. */
export interface PlanejamentoDispensa {
  /** By grupo id (absent: nothing planned for that grupo). `ano` is the year of the purchases (the PCA's year). */
  planejado(db: DbOrTx, q: { entidadeId: string; ano: number; categoria: Categoria; grupoIds: string[] }): Promise<Record<string, PlanejadoNoGrupo>>;
}

/** Extension point 'requisicoes.dispensa-planejado': the year's plans shown (and counted) in the fracionamento alert. */
export const DISPENSA_PLANEJADO = extensionPoint<PlanejamentoDispensa>('requisicoes.dispensa-planejado');

const CONTA = sql.raw(REQUISICAO_CONTA_DISPENSA.map((s) => `'${s}'`).join(', '));
/** Requisições listed in an alert (the total counts them all). */
export const ALERTA_MAX_REQUISICOES = 50;

/** Rewrites the grupo amounts of a requisição from its items (after a save or a transition). */
export async function recalcularGrupos(tx: Tx, requisicaoId: string): Promise<void> {
  await tx.execute(sql`DELETE FROM requisicao_grupos WHERE requisicao_id = ${requisicaoId}::uuid`);
  await tx.execute(sql`
    INSERT INTO requisicao_grupos (requisicao_id, entidade_id, grupo_id, ano, categoria, valor, conta)
    SELECT r.id, r.entidade_id, p.grupo_id, r.ano, r.categoria, sum(ri.valor_total), r.status IN (${CONTA})
      FROM requisicoes r
      JOIN requisicao_itens ri ON ri.requisicao_id = r.id
      JOIN produtos p ON p.id = ri.produto_id
     WHERE r.id = ${requisicaoId}::uuid
     GROUP BY r.id, r.entidade_id, p.grupo_id, r.ano, r.categoria, r.status`);
}

/** The limit of a year and category: the entidade's latest row ≤ ano, else the legal table's. */
export async function limiteDoAno(db: DbOrTx, entidadeId: string, ano: number, categoria: Categoria): Promise<{ ano: number; valor: string } | null> {
  const [proprio] = await db
    .select({ ano: limitesDispensa.ano, valor: sql<string>`${limitesDispensa.valor}::text` })
    .from(limitesDispensa)
    .where(and(eq(limitesDispensa.entidadeId, entidadeId), eq(limitesDispensa.categoria, categoria), lte(limitesDispensa.ano, ano)))
    .orderBy(desc(limitesDispensa.ano))
    .limit(1);
  const padrao = LIMITES_DISPENSA_PADRAO.filter((l) => l.categoria === categoria && l.ano <= ano).sort((a, b) => b.ano - a.ano)[0];
  if (proprio && (!padrao || proprio.ano >= padrao.ano)) return proprio;
  return padrao ? { ano: padrao.ano, valor: padrao.valor } : null;
}

/**
 * The alerts of a requisição: each grupo of its items whose year total passes the limit. The total
 * counts exactly the requisições em aprovação and aprovadas (with this one when it is one of them);
 * a requisição not yet counted (rascunho, devolvida…) is added apart (`valorDesta`, `totalComEsta`):
 * the alert says what the total becomes when it is sent, and lists only the requisições counted.
 * What the year's plans set aside for the grupo (DISPENSA_PLANEJADO) is shown with it, and raises the
 * alert by itself when it passes the limit: the plan says the year's purchases of the grupo need a licitação.
 */
export async function alertasDaRequisicao(
  db: DbOrTx,
  ctx: Pick<RequestContext, 'entidadeId' | 'contributions'>,
  requisicaoId: string,
): Promise<AlertaDispensa[]> {
  const { entidadeId } = ctx;
  // each grupo with the year's total of its category in the entidade: exactly the requisições em aprovação and aprovadas
  // (REQUISICAO_CONTA_DISPENSA, the `conta` flag kept on each save and transition; the index requisicao_grupos_soma_idx)
  const { rows: grupos } = await db.execute<{
    grupo_id: string;
    codigo: string;
    nome: string;
    ano: number;
    categoria: Categoria;
    valor: string;
    conta: boolean;
    total: string | null;
  }>(sql`
    SELECT rg.grupo_id, g.codigo, g.nome, rg.ano, rg.categoria, rg.valor::text AS valor, rg.conta,
           (SELECT sum(s.valor) FROM requisicao_grupos s
             WHERE s.entidade_id = rg.entidade_id AND s.grupo_id = rg.grupo_id AND s.ano = rg.ano AND s.categoria = rg.categoria AND s.conta)::text AS total
      FROM requisicao_grupos rg JOIN registros_grupos g ON g.id = rg.grupo_id
     WHERE rg.requisicao_id = ${requisicaoId}::uuid AND rg.entidade_id = ${entidadeId}::uuid
     ORDER BY g.codigo`);
  if (grupos.length === 0) return [];
  // a requisição has one year and one category: one question to each planner
  const ano = Number(grupos[0]!.ano);
  const categoria = grupos[0]!.categoria;
  const planejado = new Map<string, PlanejadoNoGrupo>();
  for (const { value } of ctx.contributions(DISPENSA_PLANEJADO)) {
    const porGrupo = await value.planejado(db, { entidadeId, ano, categoria, grupoIds: grupos.map((g) => g.grupo_id) });
    for (const [grupoId, p] of Object.entries(porGrupo)) {
      const antes = planejado.get(grupoId);
      // exact (a plan's amounts have 4 places)
      planejado.set(grupoId, antes ? { total: fromUnits(toUnits(antes.total, 4) + toUnits(p.total, 4), 4), planos: [...antes.planos, ...p.planos] } : p);
    }
  }
  const limite = await limiteDoAno(db, entidadeId, ano, categoria);
  if (!limite) return [];
  const alertas: AlertaDispensa[] = [];
  for (const g of grupos) {
    const total = sumMoney([g.total ?? '0']);
    const estaConta = g.conta === true;
    const totalComEsta = estaConta ? total : sumMoney([total, g.valor]);
    const excedido = passaDoLimite(totalComEsta, limite.valor);
    const plano = planejado.get(g.grupo_id);
    const planoPassa = plano ? passaDoLimite(plano.total, limite.valor) : false;
    if (!excedido && !planoPassa) continue;
    const { rows: reqs } = await db.execute<{ id: string; numero: number; ano: number; valor: string; status: string; n: number }>(sql`
      SELECT r.id, r.numero, r.ano, rg.valor::text AS valor, r.status, count(*) OVER ()::int AS n
        FROM requisicao_grupos rg JOIN requisicoes r ON r.id = rg.requisicao_id
       WHERE rg.entidade_id = ${entidadeId}::uuid AND rg.grupo_id = ${g.grupo_id}::uuid AND rg.ano = ${ano}
         AND rg.categoria = ${categoria} AND rg.conta
       ORDER BY r.numero
       LIMIT ${ALERTA_MAX_REQUISICOES}`);
    const n = Number(reqs[0]?.n ?? 0);
    alertas.push({
      grupoId: g.grupo_id,
      grupoCodigo: g.codigo,
      grupoNome: g.nome,
      categoria,
      artigo: CATEGORIA_ARTIGO[categoria],
      ano,
      anoLimite: limite.ano,
      limite: sumMoney([limite.valor]),
      total,
      estaConta,
      valorDesta: sumMoney([g.valor]),
      totalComEsta,
      requisicoes: reqs.map((r) => ({ id: r.id, numero: Number(r.numero), ano: Number(r.ano), valor: sumMoney([r.valor]), status: r.status })),
      mais: Math.max(0, n - reqs.length),
      excedido,
      planejado: plano ? { total: plano.total, passa: planoPassa, planos: plano.planos } : null,
    });
  }
  return alertas;
}

/** What the audit row of a decision keeps of the alerts the person saw. */
export function alertasVistos(alertas: AlertaDispensa[]) {
  return alertas.map((a) => ({
    grupo: `${a.grupoCodigo} – ${a.grupoNome}`,
    categoria: a.categoria,
    ano: a.ano,
    soma: a.totalComEsta,
    limite: a.limite,
    anoLimite: a.anoLimite,
    ...(a.planejado ? { planejado: a.planejado.total } : {}),
  }));
}
