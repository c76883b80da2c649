// GET /planos/:id/demandas: the accepted DFDs of the plan's year the setor picks for the consolidation,
// each with the Classes/Grupos of its lines, and those Classes/Grupos with how many DFDs have lines in
// each (the card's filter, as the PGC groups them). A line is classified as consolidar() classifies it:
// by the CNBS Classe/Grupo kept on the product when it has a CATMAT/CATSER code and that Classe/Grupo,
// else by the product's own grupo; a product with neither has no Classe/Grupo (a pendência of the plan).
// Set-based: the 100 000 lines of 10 000 DFDs are grouped by the database per DFD, in the statement that
// reads the DFDs, and never come to the server; the names of the few Classes/Grupos found, in one more.
import { memorandoItens, memorandos } from '@app/memorandos/server';
import { produtos } from '@app/produtos/server';
import { centrosCusto, grupos } from '@app/registros/server';
import { type DbOrTx, liveLink } from '@app/server-core';
import { and, asc, eq, inArray, isNotNull, type SQL, sql } from '@app/server-core/orm';
import { PCA_KIND, classificadoPelaCnbs } from './consolidar.js';
import { colunas } from './tables.js';

/** The DFDs answered at most (a year of 10 000 is answered whole); `truncated` says when there were more. */
export const MAX_DEMANDAS = 20_000;

/**
 * A Classe/Grupo of the DFDs' lines. `chave` names it in each DFD's `classes` ('cnbs:7510', 'grupo:0750';
 * 'sem' for lines without one); `tipo` is 'classe' for a CNBS Classe (materials), 'grupo' for a CNBS Grupo
 * (services) or the catalogue's own grupo, null without one; `dfds` counts the DFDs with lines in it.
 */
export interface ClasseDasDemandas {
  chave: string;
  tipo: 'classe' | 'grupo' | null;
  codigo: string | null;
  nome: string | null;
  dfds: number;
}

// a line's Classe/Grupo as the consolidation classifies it
const classeDaLinha = sql<string>`CASE WHEN ${classificadoPelaCnbs} THEN 'cnbs:' || ${produtos.classeCnbsCodigo} WHEN ${grupos.codigo} IS NOT NULL THEN 'grupo:' || ${grupos.codigo} ELSE 'sem' END`;

const vinculado = sql`(SELECT json_build_object('id', t.id, 'numero', t.numero, 'ano', t.ano) FROM documento_vinculos JOIN pca_planos t ON t.id = documento_vinculos.destino_id
  WHERE ${liveLink(PCA_KIND, { source: sql`"memorandos"."id"` })} LIMIT 1)`;

/** By code (as consolidar numbers the items, numbers in their order); lines without Classe/Grupo last. */
const porCodigo = (a: ClasseDasDemandas, b: ClasseDasDemandas) =>
  (a.codigo === null ? 1 : 0) - (b.codigo === null ? 1 : 0) ||
  String(a.codigo ?? '').localeCompare(String(b.codigo ?? ''), 'pt-BR', { numeric: true }) ||
  a.chave.localeCompare(b.chave);

/**
 * The DFDs `filtro` picks (the entidade's accepted DFDs of the year in the person's scope), by origin and
 * number (at most MAX_DEMANDAS), each with the live plan it is consolidated in (`plano`) and the keys of
 * its lines' Classes/Grupos (`classes`, in the answer's `classes` order); and those Classes/Grupos.
 */
export async function lerDemandas(db: DbOrTx, entidadeId: string, filtro: SQL | undefined) {
  const escolhidos = db.select({ id: memorandos.id }).from(memorandos).where(filtro);
  // each DFD's Classes/Grupos: its lines grouped by DFD, joined to the DFDs (the keys compared bytewise: a
  // linguistic collation costs more on 100 000 lines, and their order is set below)
  const porDfd = db
    .select({ memorandoId: memorandoItens.memorandoId, chaves: sql<string[]>`array_agg(DISTINCT (${classeDaLinha}) COLLATE "C")`.as('chaves') })
    .from(memorandoItens)
    .innerJoin(produtos, eq(produtos.id, memorandoItens.produtoId))
    .leftJoin(grupos, eq(grupos.id, produtos.grupoId))
    .where(inArray(memorandoItens.memorandoId, escolhidos))
    .groupBy(memorandoItens.memorandoId)
    .as('por_dfd');
  const linhas = await db
    .select({
      ...colunas(memorandos, ['id', 'numero', 'ano', 'assunto', 'prioridade', 'dataDesejada', 'valorTotal']),
      origemCodigo: centrosCusto.codigo,
      origemNome: centrosCusto.nome,
      plano: vinculado,
      classes: porDfd.chaves,
    })
    .from(memorandos)
    .innerJoin(centrosCusto, eq(centrosCusto.id, memorandos.origemId))
    .leftJoin(porDfd, eq(porDfd.memorandoId, memorandos.id))
    .where(filtro)
    .orderBy(asc(centrosCusto.nome), asc(memorandos.ano), asc(memorandos.numero))
    .limit(MAX_DEMANDAS + 1);
  // the Classes/Grupos named: how many DFDs have lines in each, counted here (the lines grouped by Classe/Grupo
  // too: a second pass over them and a sort of 100 000 rows, 0,25 s on PGlite); their names from the
  // grupos and, for a CNBS Classe/Grupo, the products that keep it (a name kept differently on two: the least)
  const truncated = linhas.length > MAX_DEMANDAS;
  if (truncated) linhas.length = MAX_DEMANDAS;
  const dfds = new Map<string, number>();
  for (const d of linhas) for (const c of d.classes ?? []) dfds.set(c, (dfds.get(c) ?? 0) + 1);
  const codigos = (prefixo: string) => [...dfds.keys()].filter((c) => c.startsWith(prefixo)).map((c) => c.slice(prefixo.length));
  const [cnbsCodigos, grupoCodigos] = [codigos('cnbs:'), codigos('grupo:')];
  const nomes = new Map<string, { nome: string; servicos: boolean }>();
  if (grupoCodigos.length) {
    const rows = await db
      .select({ codigo: grupos.codigo, nome: grupos.nome })
      .from(grupos)
      .where(and(eq(grupos.entidadeId, entidadeId), inArray(grupos.codigo, grupoCodigos)));
    for (const r of rows) nomes.set(`grupo:${r.codigo}`, { nome: r.nome, servicos: false });
  }
  if (cnbsCodigos.length) {
    const rows = await db
      .select({
        codigo: produtos.classeCnbsCodigo,
        nome: sql<string>`min(${produtos.classeCnbsNome})`,
        servicos: sql<boolean>`bool_and(${produtos.tipo} = 'servico')`,
      })
      .from(produtos)
      .where(and(eq(produtos.entidadeId, entidadeId), isNotNull(produtos.codigoCatalogo), inArray(produtos.classeCnbsCodigo, cnbsCodigos)))
      .groupBy(produtos.classeCnbsCodigo);
    for (const r of rows) nomes.set(`cnbs:${r.codigo}`, { nome: r.nome, servicos: r.servicos });
  }
  const classes = [...dfds]
    .map(([chave, n]): ClasseDasDemandas => {
      const codigo = chave.includes(':') ? chave.slice(chave.indexOf(':') + 1) : null;
      const lido = nomes.get(chave);
      return {
        chave,
        tipo: codigo === null ? null : chave.startsWith('cnbs:') && !lido?.servicos ? 'classe' : 'grupo',
        codigo,
        nome: lido?.nome ?? null,
        dfds: n,
      };
    })
    .sort(porCodigo);
  // each DFD's in that order, set on the rows read (10 000 of them: no copy)
  const ordem = new Map(classes.map((c, i) => [c.chave, i]));
  for (const d of linhas) d.classes = d.classes ? d.classes.sort((a, b) => (ordem.get(a) ?? 0) - (ordem.get(b) ?? 0)) : [];
  return { items: linhas, classes, truncated };
}
