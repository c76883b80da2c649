// The price research of a requisição (a concluded cotação): the ONLY way another plugin changes a
// requisição's values. Rule (issue 18): the requisição keeps the total its last level approved
// (`valorAprovado`) and the researched total (`valorPesquisado`); its items carry the researched unit
// estimates. When the researched total is greater than the approved one, the requisição goes back to
// approval (a new round, the levels the new total requires per the alçadas, from the first); equal or
// lower, it stays aprovada. Audited on the requisição (its timeline): who, when, the origin (the
// cotação), both values and where it went.
import { compareDecimal, lineTotal, sumMoney } from '@app/documents';
import type { AuditFn, RequestContext, Tx } from '@app/server-core';
import { and, eq, sql } from '@app/server-core/orm';
import { aprovacao } from './aprovacao.js';
import { recalcularGrupos } from './dispensa.js';
import { requisicaoItens, requisicoes } from './tables.js';

type Row = Record<string, unknown>;

export interface PesquisaDePrecos {
  requisicaoId: string;
  /**
   * The researched unit estimates: for the line `requisicaoItemId` when given, else for every line of
   * the product. Lines not named keep their values.
   */
  itens: { requisicaoItemId?: string | null; produtoId: string; valorUnitario: string }[];
  /** What researched the prices, as the timeline shows it: 'Cotação 3/2026'. */
  origem: string;
  ctx: RequestContext;
  audit: AuditFn;
}

export interface ResultadoPesquisa {
  status: string;
  valorAprovado: string | null;
  valorPesquisado: string;
  /** It went back to approval (the researched total passes the approved one). */
  reaprovacao: boolean;
}

/** '10.5000' → '10.5' (numeric columns read as text). */
const canonico = (value: string): string => (value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value);
/** The approval round of a requisição, as the audit keeps it. */
const rodadaDe = (r: Row) => ({ ciclo: r.ciclo, niveis: r.niveis, nivelAtual: r.nivelAtual });

/**
 * Writes the researched unit estimates into the requisição's items (same transaction as the caller)
 * and applies the rule above. Null when the requisição is not of the entidade or nothing changes.
 */
export async function registrarPesquisaDePrecos(tx: Tx, p: PesquisaDePrecos): Promise<ResultadoPesquisa | null> {
  const { ctx } = p;
  const [req] = await tx
    .select({
      id: requisicoes.id,
      numero: requisicoes.numero,
      ano: requisicoes.ano,
      status: requisicoes.status,
      centroCustoId: requisicoes.centroCustoId,
      solicitanteNome: requisicoes.solicitanteNome,
      ciclo: requisicoes.ciclo,
      niveis: requisicoes.niveis,
      nivelAtual: requisicoes.nivelAtual,
      valorTotal: sql<string>`${requisicoes.valorTotal}::text`,
      valorAprovado: sql<string | null>`${requisicoes.valorAprovado}::text`,
      valorPesquisado: sql<string | null>`${requisicoes.valorPesquisado}::text`,
    })
    .from(requisicoes)
    .where(and(eq(requisicoes.id, p.requisicaoId), eq(requisicoes.entidadeId, ctx.entidadeId)))
    .for('update');
  if (!req) return null;
  const linhas = await tx
    .select({
      id: requisicaoItens.id,
      ordem: requisicaoItens.ordem,
      produtoId: requisicaoItens.produtoId,
      quantidade: sql<string>`${requisicaoItens.quantidade}::text`,
      valorUnitario: sql<string>`${requisicaoItens.valorUnitario}::text`,
      valorTotal: sql<string>`${requisicaoItens.valorTotal}::text`,
    })
    .from(requisicaoItens)
    .where(eq(requisicaoItens.requisicaoId, req.id))
    .orderBy(requisicaoItens.ordem);
  const porLinha = new Map(p.itens.filter((i) => i.requisicaoItemId).map((i) => [i.requisicaoItemId!, i.valorUnitario]));
  const porProduto = new Map(p.itens.filter((i) => !i.requisicaoItemId).map((i) => [i.produtoId, i.valorUnitario]));
  const antes: Row[] = [];
  const depois: Row[] = [];
  const totais: string[] = [];
  for (const l of linhas) {
    const valor = porLinha.get(l.id) ?? porProduto.get(l.produtoId);
    if (valor === undefined) {
      totais.push(l.valorTotal);
      continue;
    }
    const total = lineTotal(l.quantidade, valor);
    totais.push(total);
    antes.push({ ordem: l.ordem, produtoId: l.produtoId, valorUnitario: canonico(l.valorUnitario), valorTotal: l.valorTotal });
    depois.push({ ordem: l.ordem, produtoId: l.produtoId, valorUnitario: canonico(valor), valorTotal: total });
    await tx.update(requisicaoItens).set({ valorUnitario: valor, valorTotal: total }).where(eq(requisicaoItens.id, l.id));
  }
  if (depois.length === 0) return null;
  const valorPesquisado = sumMoney(totais);
  const aprovado = req.valorAprovado ?? (req.status === 'aprovada' ? req.valorTotal : null);
  const reaprovacao = req.status === 'aprovada' && aprovado !== null && compareDecimal(valorPesquisado, aprovado) > 0;
  const set: Row = { valorTotal: valorPesquisado, valorPesquisado, version: sql`${requisicoes.version} + 1`, updatedAt: sql`now()` };
  if (reaprovacao) {
    const rodada = await aprovacao.newRound(
      tx,
      ctx.entidadeId,
      req,
      valorPesquisado,
      `O valor pesquisado da requisição (${valorPesquisado}) passa do aprovado, mas nenhuma alçada de aprovação se aplica a ele: peça ao administrador que configure as alçadas.`,
    );
    // back to approval: no longer approved (aprovada_em is set again by the approval that ends the new round)
    Object.assign(set, { status: 'em_aprovacao', aprovadaEm: null, ...rodada });
  }
  await tx.update(requisicoes).set(set).where(eq(requisicoes.id, req.id));
  await recalcularGrupos(tx, req.id);
  const [after] = await tx.select().from(requisicoes).where(eq(requisicoes.id, req.id));
  p.audit({
    plugin: 'requisicoes',
    registro: req.id,
    acao: 'valores_da_cotacao',
    antes: {
      status: req.status,
      valorTotal: req.valorTotal,
      valorPesquisado: req.valorPesquisado,
      ...rodadaDe(req),
      itens: antes,
    },
    depois: {
      status: after!.status,
      valorTotal: valorPesquisado,
      // the audit keeps only what changed: the approved total compared with is kept under its own key
      valorAprovadoVigente: aprovado,
      valorPesquisado,
      ...rodadaDe(after!),
      itens: depois,
      origem: p.origem,
      reaprovacao,
    },
  });
  if (reaprovacao) await aprovacao.notifyDeciders(tx, after as Row, ctx);
  return { status: String(after!.status), valorAprovado: aprovado, valorPesquisado, reaprovacao };
}
