// What an approval of the justification covers, and who may give it (issue 18).
//
// Rule 1 — an approval covers exactly what the autoridade competente saw. At approval time the
// server takes the cotação's evaluation and builds, for each item with fewer than three valid prices
// (in item order), its canonical content:
//   produtoId, quantidade, valorEstimado (by the cotação's method), and every price of the item
//   (valid or not, ordered by id) with id, fonte, fornecedorId, valorUnitario, dataColeta, validade,
//   inclusaoMotivo, exclusaoMotivo and how the evaluation counted it (valido, usado);
// and stores the SHA-256 of { justificativa, itens } with the approval, plus one SHA-256 per item (to
// name the items that changed). Any later difference — a price added, changed, excluded, included or
// removed on one of those items, its quantity, its estimate (method, reference date), an item that
// now falls short of three prices (or no longer does), or the text — voids the approval: the voiding
// is recorded at the moment of the change (columns justificativa_anulada_* and an audit row
// 'anular_aprovacao_justificativa'), the mapa shows "Aprovação anulada por alteração" and `concluir`
// answers 409 naming the items until a new approval. A change the routes did not record is still
// caught on read: the fingerprint is recomputed each time the cotação is loaded while it is open.
// Item names and the winners chosen are not covered (a product renamed in the catalogue does not void).
//
// Rule 2 — who runs a cotação never approves its justification. A person "runs" the cotação when they
// are its responsável, an author of the document as the kit records it (isDocumentAuthor: created,
// edited or sent it, or wrote the requisição it was made from), wrote the
// justification, collected a price, sent an evidence, chose a winner, or did anything else recorded in
// the cotação's audit trail (created, edited, started, cancelled, invited or dropped a supplier,
// recorded an answer, decided on a price…) — every action except approving the justification itself.
import { createHash } from 'node:crypto';
import { type AuditFn, type DbOrTx, type RequestContext, type Tx, isDocumentAuthor } from '@app/server-core';
import { eq, sql } from '@app/server-core/orm';
import { COTACAO_ABERTA, type ItemAprovado, type MapaCotacao } from '../shared/index.js';
import { cotacoes } from './tables.js';

const sha256 = (texto: string) => createHash('sha256').update(texto, 'utf8').digest('hex');

/** The canonical content of one item short of three valid prices, as the approval sees it. */
function conteudoDoItem(mapa: MapaCotacao, produtoId: string) {
  const item = mapa.itens.find((i) => i.produtoId === produtoId)!;
  const resultado = mapa.avaliacao.itens.find((r) => r.produtoId === produtoId);
  const situacoes = new Map(mapa.avaliacao.precos.map((s) => [s.precoId, s]));
  const precos = mapa.precos
    .filter((p) => p.produtoId === produtoId)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((p) => ({
      id: p.id,
      fonte: p.fonte,
      fornecedorId: p.fornecedorId,
      valorUnitario: p.valorUnitario,
      dataColeta: p.dataColeta,
      validade: p.validade,
      inclusaoMotivo: p.inclusaoMotivo,
      exclusaoMotivo: p.exclusaoMotivo,
      valido: situacoes.get(p.id)?.valido ?? false,
      usado: situacoes.get(p.id)?.usado ?? false,
    }));
  return { produtoId, quantidade: item.quantidade, valorEstimado: resultado?.valorEstimado ?? null, precos };
}

export interface Impressao {
  /** SHA-256 of { justificativa, itens }. */
  impressao: string;
  itens: ItemAprovado[];
}

/** The fingerprint of what an approval would cover now. */
export function impressaoAtual(mapa: MapaCotacao): Impressao {
  const porProduto = new Map(mapa.itens.map((i) => [i.produtoId, i]));
  const ids = [...mapa.avaliacao.itensMenosDeTres].sort((a, b) => porProduto.get(a)!.ordem - porProduto.get(b)!.ordem);
  const conteudos = ids.map((id) => conteudoDoItem(mapa, id));
  const impressao = sha256(JSON.stringify({ justificativa: mapa.cotacao.justificativa ?? null, itens: conteudos }));
  return {
    impressao,
    itens: conteudos.map((c) => {
      const item = porProduto.get(c.produtoId)!;
      return { produtoId: c.produtoId, rotulo: `${item.ordem}. ${item.descricao}`, impressao: sha256(JSON.stringify(c)) };
    }),
  };
}

/** The items (labels) that differ between an approval and now: changed, new or no longer short of three. */
export function itensAlterados(aprovados: readonly ItemAprovado[], atual: Impressao): string[] {
  const antes = new Map(aprovados.map((i) => [i.produtoId, i]));
  const agora = new Set(atual.itens.map((i) => i.produtoId));
  const rotulos: string[] = [];
  for (const i of atual.itens) if (antes.get(i.produtoId)?.impressao !== i.impressao) rotulos.push(i.rotulo);
  for (const i of aprovados) if (!agora.has(i.produtoId)) rotulos.push(`${i.rotulo} (já não tem menos de três preços válidos ou saiu da cotação)`);
  return rotulos;
}

/** '2. Caneta, 3. Lápis e mais 4'. */
export function listarItens(rotulos: readonly string[]): string {
  const nomes = rotulos.slice(0, 5);
  return rotulos.length > 5 ? `${nomes.join(', ')} e mais ${rotulos.length - 5}` : nomes.join(', ');
}

/** The pt-BR reason recorded and shown when an approval is voided. */
export function motivoAnulacao(rotulos: readonly string[]): string {
  if (rotulos.length === 0) return 'Aprovação anulada por alteração: o texto da justificativa ou o conteúdo aprovado mudou depois da aprovação.';
  return `Aprovação anulada por alteração depois dela: ${rotulos.length === 1 ? 'item' : 'itens'} ${listarItens(rotulos)}.`;
}

/** The header's approval columns, cleared (a new text of the justification, a voided approval). */
export const SEM_APROVACAO = {
  justificativaAprovadaPor: null,
  justificativaAprovadaPorNome: null,
  justificativaAprovadaEm: null,
  justificativaAprovadaImpressao: null,
  justificativaAprovadaItens: null,
} as const;

/** A standing approval voided now: cleared, and the voiding kept with the former approver and the reason. */
export const anulacao = (aprovador: string | null, motivo: string) => ({
  ...SEM_APROVACAO,
  justificativaAnuladaEm: sql`now()`,
  justificativaAnuladaAprovador: aprovador,
  justificativaAnuladaMotivo: motivo,
});

/** The approval as stored on the header (the columns of migration 0003). */
interface Aprovacao {
  status: string;
  justificativaAprovadaEm: string | null;
  justificativaAprovadaPorNome: string | null;
  justificativaAprovadaImpressao: string | null;
  justificativaAprovadaItens: ItemAprovado[] | null;
}

/**
 * Whether a standing approval no longer covers the cotação as it is (open cotações only: a concluded
 * one cannot change). An approval stored before the fingerprint existed (no impressão) is honoured.
 * Answers the changed items' labels, or null when the approval stands (or there is none).
 */
export function aprovacaoAnulada(aprovacao: Aprovacao, mapa: MapaCotacao): { rotulos: string[]; atual: Impressao } | null {
  if (!aprovacao.justificativaAprovadaEm || !aprovacao.justificativaAprovadaImpressao) return null;
  if (!COTACAO_ABERTA.includes(aprovacao.status as never)) return null;
  const atual = impressaoAtual(mapa);
  if (atual.impressao === aprovacao.justificativaAprovadaImpressao) return null;
  return { rotulos: itensAlterados(aprovacao.justificativaAprovadaItens ?? [], atual), atual };
}

/**
 * After a change to the cotação (in the same transaction, the cotação locked): when it voids the
 * approval of the justification, records the voiding now (the approval is cleared, the anulação kept
 * with its reason) and audits it. `carregar` is the cotação's loader (passed in to avoid a cycle).
 */
export async function conferirAprovacao(
  tx: Tx,
  ctx: RequestContext,
  id: string,
  audit: AuditFn,
  carregar: (db: DbOrTx, ctx: RequestContext, id: string) => Promise<MapaCotacao>,
): Promise<void> {
  const [row] = await tx
    .select({
      status: cotacoes.status,
      justificativaAprovadaEm: sql<string | null>`${cotacoes.justificativaAprovadaEm}::text`,
      justificativaAprovadaPorNome: cotacoes.justificativaAprovadaPorNome,
      justificativaAprovadaImpressao: cotacoes.justificativaAprovadaImpressao,
      justificativaAprovadaItens: cotacoes.justificativaAprovadaItens,
    })
    .from(cotacoes)
    .where(eq(cotacoes.id, id));
  if (!row?.justificativaAprovadaEm || !row.justificativaAprovadaImpressao) return;
  // the loader presents a voided approval as voided: compare with the stored fingerprint directly
  const mapa = await carregar(tx, ctx, id);
  const anulada = aprovacaoAnulada(row, mapa);
  if (!anulada) return;
  const motivo = motivoAnulacao(anulada.rotulos);
  await tx.update(cotacoes).set(anulacao(row.justificativaAprovadaPorNome, motivo)).where(eq(cotacoes.id, id));
  audit({
    registro: id,
    acao: 'anular_aprovacao_justificativa',
    antes: { aprovadaPor: row.justificativaAprovadaPorNome, impressao: row.justificativaAprovadaImpressao },
    depois: { motivo, itens: anulada.rotulos, impressao: anulada.atual.impressao },
  });
}

/**
 * Why the person runs the cotação (pt-BR, completing "você …"), or null when they do not: see rule 2
 * in the module comment. The audit trail holds every action on the cotação with its author.
 */
export async function conducaoDaCotacao(db: DbOrTx, cotacaoId: string, usuarioId: string): Promise<string | null> {
  const { rows } = await db.execute<{ papel: string }>(sql`
    SELECT 'é o responsável pela cotação' AS papel FROM cotacoes WHERE id = ${cotacaoId}::uuid AND responsavel_id = ${usuarioId}::uuid
    UNION ALL SELECT 'registrou a justificativa' FROM cotacoes WHERE id = ${cotacaoId}::uuid AND justificativa_por = ${usuarioId}::uuid
    UNION ALL (SELECT 'registrou preços desta cotação' FROM cotacao_precos WHERE cotacao_id = ${cotacaoId}::uuid AND coletado_por = ${usuarioId}::uuid LIMIT 1)
    UNION ALL (SELECT 'enviou evidências de preços' FROM cotacao_evidencias WHERE cotacao_id = ${cotacaoId}::uuid AND enviado_por = ${usuarioId}::uuid LIMIT 1)
    UNION ALL (SELECT 'escolheu vencedores' FROM cotacao_vencedores WHERE cotacao_id = ${cotacaoId}::uuid AND escolhido_por = ${usuarioId}::uuid LIMIT 1)
    UNION ALL (SELECT 'criou, alterou ou movimentou a cotação' FROM audit_log
      WHERE plugin = 'cotacoes' AND registro = ${cotacaoId} AND usuario_id = ${usuarioId}::uuid
        AND acao NOT IN ('aprovar_justificativa', 'anular_aprovacao_justificativa') LIMIT 1)`);
  if (rows[0]) return rows[0].papel;
  // the kit's authorship: autor, editor, remetente of the cotação, or author of the requisição it prices
  if (await isDocumentAuthor(db, cotacaoId, usuarioId)) return 'é autor da cotação ou de um documento que a originou';
  return null;
}
