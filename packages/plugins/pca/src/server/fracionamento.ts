// Fracionamento, before it happens: for each grupo of the catalogue (the Classe/Grupo of the plan's items)
// and dispensa category, the plan's total against the year's dispensa limit (the limits requisições keep,
// asked through @app/requisicoes' limiteDoAno; the rule is its passaDoLimite); a total over the limit is
// flagged "exige licitação". The other way round, the plans tell requisições' dispensa alert what they set
// aside for a grupo (DISPENSA_PLANEJADO).
import { formatNumero, fromUnits, toUnits } from '@app/documents';
import { produtos } from '@app/produtos/server';
import { grupos } from '@app/registros/server';
import { type PlanejamentoDispensa, limiteDoAno } from '@app/requisicoes/server';
import { CATEGORIA_ARTIGO, CATEGORIA_LABEL, type Categoria, passaDoLimite } from '@app/requisicoes/shared';
import type { DbOrTx } from '@app/server-core';
import { and, asc, eq, inArray, ne, sql } from '@app/server-core/orm';
import { CATEGORIA_DISPENSA, type FracionamentoDoGrupo, fluxo } from '../shared/index.js';
import { pcaItens, pcaPlanos } from './tables.js';

const categoriasPca = (categoria: Categoria) =>
  Object.entries(CATEGORIA_DISPENSA)
    .filter(([, c]) => c === categoria)
    .map(([n]) => Number(n));

/**
 * The dispensa category of a plan item, in SQL (null for locação de imóveis and alienação). The numbers are
 * literals (constants of the code), so the same expression in SELECT and GROUP BY is one to PostgreSQL.
 */
const categoriaDoItem = sql<Categoria | null>`CASE
  WHEN ${pcaItens.categoriaItemPca} IN (${sql.raw(categoriasPca('obras').join(', '))}) THEN 'obras'
  WHEN ${pcaItens.categoriaItemPca} IN (${sql.raw(categoriasPca('compras').join(', '))}) THEN 'compras' END`;

/** The plan's totals by grupo and dispensa category, each against the limit of the plan's year. */
export async function lerFracionamento(db: DbOrTx, plano: { id: string; entidadeId: string; anoPca: number }): Promise<FracionamentoDoGrupo[]> {
  const linhas = await db
    .select({
      grupoId: grupos.id,
      grupoCodigo: grupos.codigo,
      grupoNome: grupos.nome,
      categoria: categoriaDoItem,
      itens: sql<number>`count(*)::int`,
      numerosItem: sql<number[]>`array_agg(${pcaItens.numeroItem} ORDER BY ${pcaItens.numeroItem})`,
      total: sql<string>`sum(${pcaItens.valorTotal})::text`,
    })
    .from(pcaItens)
    .innerJoin(produtos, eq(produtos.id, pcaItens.produtoId))
    .innerJoin(grupos, eq(grupos.id, produtos.grupoId))
    .where(and(eq(pcaItens.planoId, plano.id), sql`${categoriaDoItem} IS NOT NULL`))
    .groupBy(grupos.id, grupos.codigo, grupos.nome, categoriaDoItem)
    .orderBy(asc(grupos.codigo), asc(categoriaDoItem));
  const limites = new Map<Categoria, Awaited<ReturnType<typeof limiteDoAno>>>();
  for (const categoria of new Set(linhas.map((l) => l.categoria!))) limites.set(categoria, await limiteDoAno(db, plano.entidadeId, plano.anoPca, categoria));
  return linhas.map((l) => {
    const categoria = l.categoria!;
    const limite = limites.get(categoria) ?? null;
    const total = fromUnits(toUnits(l.total, 4), 4);
    return {
      grupoId: l.grupoId,
      grupoCodigo: l.grupoCodigo,
      grupoNome: l.grupoNome,
      categoria,
      categoriaRotulo: `${CATEGORIA_LABEL[categoria]} (${CATEGORIA_ARTIGO[categoria]})`,
      itens: l.itens,
      numerosItem: l.numerosItem.map(Number),
      total,
      limite: limite ? fromUnits(toUnits(limite.valor, 2), 2) : null,
      anoLimite: limite?.ano ?? null,
      exigeLicitacao: limite ? passaDoLimite(total, limite.valor) : false,
    };
  });
}

/** DISPENSA_PLANEJADO: what the year's plans (all but cancelled ones) set aside for each grupo asked. */
export const planejamentoDispensa: PlanejamentoDispensa = {
  async planejado(db, q) {
    if (q.grupoIds.length === 0) return {};
    const linhas = await db
      .select({
        grupoId: produtos.grupoId,
        numero: pcaPlanos.numero,
        ano: pcaPlanos.ano,
        status: pcaPlanos.status,
        valor: sql<string>`sum(${pcaItens.valorTotal})::text`,
      })
      .from(pcaItens)
      .innerJoin(pcaPlanos, eq(pcaPlanos.id, pcaItens.planoId))
      .innerJoin(produtos, eq(produtos.id, pcaItens.produtoId))
      .where(
        and(
          eq(pcaPlanos.entidadeId, q.entidadeId),
          eq(pcaPlanos.anoPca, q.ano),
          ne(pcaPlanos.status, 'cancelado'),
          inArray(pcaItens.categoriaItemPca, categoriasPca(q.categoria)),
          inArray(produtos.grupoId, q.grupoIds),
        ),
      )
      .groupBy(produtos.grupoId, pcaPlanos.id, pcaPlanos.numero, pcaPlanos.ano, pcaPlanos.status)
      .orderBy(asc(pcaPlanos.ano), asc(pcaPlanos.numero));
    const porGrupo: Awaited<ReturnType<PlanejamentoDispensa['planejado']>> = {};
    for (const l of linhas) {
      const g = porGrupo[l.grupoId!] ?? { total: '0', planos: [] };
      porGrupo[l.grupoId!] = g;
      g.total = fromUnits(toUnits(g.total, 4) + toUnits(l.valor, 4), 4);
      g.planos.push({
        rotulo: `Plano de Contratações Anual ${formatNumero(l.numero, l.ano)}`,
        situacao: fluxo.stateLabel(l.status),
        valor: fromUnits(toUnits(l.valor, 4), 4),
      });
    }
    return porGrupo;
  },
};
