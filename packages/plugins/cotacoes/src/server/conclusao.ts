// The transitions' side of the cotação: `concluir` (every item priced, the three-price rule, then the
// estimated prices frozen and fed back to the requisição's items) and `iniciar` (the invited
// suppliers with an e-mail are told, each with its blank form attached).
import { formatDateTime } from '@app/br';
import { formatNumero } from '@app/documents';
import { registrarPesquisaDePrecos } from '@app/requisicoes/server';
import {
  AppError,
  type AuditFn,
  type RequestContext,
  type Tx,
  XLSX_CONTENT_TYPE,
  documentEntidade,
  fileNameSlug,
  sendMail,
  writeXlsxInWorker,
} from '@app/server-core';
import { sql } from '@app/server-core/orm';
import type { ItemCotacao, MapaCotacao } from '../shared/index.js';
import { carregarCotacao } from './carregar.js';
import { type Row, descricaoCotacao } from './comum.js';
import { formularioPlanilha } from './documentos-formulario.js';
import { listarItens } from './justificativa.js';

/** '1. Papel sulfite A4, 2. Caneta azul e mais 3'. */
const nomearItens = (itens: ItemCotacao[]): string => listarItens(itens.map((i) => `${i.ordem}. ${i.descricao}`));

/**
 * Before `concluir` changes the status (row locked): every item needs a valid price (409 naming
 * them) and items with fewer than three valid prices an approved justification (409); answers the
 * header values to set (estimated total, time of the conclusion).
 */
export async function validarConclusao(tx: Tx, ctx: RequestContext, id: string): Promise<{ set: Row }> {
  const mapa = await carregarCotacao(tx, ctx, id);
  const porProduto = new Map(mapa.itens.map((i) => [i.produtoId, i]));
  const semPreco = mapa.avaliacao.itens.filter((r) => r.valorEstimado === null).map((r) => porProduto.get(r.produtoId)!);
  if (semPreco.length) {
    throw new AppError(
      409,
      'sem_preco',
      `${semPreco.length === 1 ? 'Este item não tem' : 'Estes itens não têm'} preço válido: ${nomearItens(semPreco)}. Colete ao menos um preço válido por item antes de concluir.`,
    );
  }
  const poucos = mapa.avaliacao.itensMenosDeTres.map((p) => porProduto.get(p)!).filter(Boolean);
  // an approval covers exactly what it saw (justificativa.ts): the loader reads one voided by a later
  // change as not approved, with the reason naming the items that changed
  if (poucos.length && !mapa.cotacao.justificativaAprovadaEm && mapa.cotacao.justificativaAnuladaMotivo) {
    throw new AppError(
      409,
      'justificativa_anulada',
      `${mapa.cotacao.justificativaAnuladaMotivo} Peça nova aprovação da autoridade competente antes de concluir ` +
        `(${poucos.length === 1 ? 'item' : 'itens'} com menos de três preços válidos: ${nomearItens(poucos)}).`,
    );
  }
  if (poucos.length && !mapa.cotacao.justificativaAprovadaEm) {
    throw new AppError(
      409,
      'justificativa_pendente',
      `${poucos.length === 1 ? 'Este item tem' : 'Estes itens têm'} menos de três preços válidos: ${nomearItens(poucos)}. ` +
        (mapa.cotacao.justificativa
          ? 'A justificativa precisa ser aprovada pela autoridade competente antes de concluir.'
          : 'Registre a justificativa e peça a aprovação da autoridade competente antes de concluir.'),
    );
  }
  return { set: { valorTotal: mapa.avaliacao.valorEstimadoTotal, concluidaEm: sql`now()` } };
}

/**
 * After `concluir`: each item's unit value and total become the estimated price (to cents) and its
 * total; the requisição's items linked to them get the same unit values through
 * registrarPesquisaDePrecos (@app/requisicoes: totals recomputed, approved vs researched value,
 * back to approval above the approved total), audited on the requisição.
 */
export async function congelarConclusao(tx: Tx, ctx: RequestContext, before: Row, audit: AuditFn): Promise<void> {
  const id = String(before.id);
  const mapa = await carregarCotacao(tx, ctx, id);
  const resultados = mapa.avaliacao.itens.filter((r) => r.valorEstimado !== null && r.valorTotal !== null);
  if (resultados.length) {
    // one statement for every item (a cotação may have hundreds)
    const lista = (values: string[]) => `{${values.join(',')}}`;
    await tx.execute(sql`
      UPDATE cotacao_itens i SET valor_unitario = v.valor, valor_total = v.total
        FROM unnest(${lista(resultados.map((r) => r.produtoId))}::uuid[], ${lista(resultados.map((r) => r.valorEstimado!))}::numeric[],
                    ${lista(resultados.map((r) => r.valorTotal!))}::numeric[]) AS v(produto_id, valor, total)
       WHERE i.cotacao_id = ${id}::uuid AND i.produto_id = v.produto_id`);
  }
  const requisicaoId = mapa.cotacao.requisicaoId;
  if (!requisicaoId) return;
  // the requisição's values change only through its plugin: it keeps the approved and the researched
  // totals and goes back to approval when the researched one passes the approved one
  const estimado = new Map(resultados.map((r) => [r.produtoId, r.valorEstimado!]));
  const itens = mapa.itens
    .filter((i) => i.requisicaoItemId && estimado.has(i.produtoId))
    .map((i) => ({ requisicaoItemId: i.requisicaoItemId, produtoId: i.produtoId, valorUnitario: estimado.get(i.produtoId)! }));
  if (itens.length === 0) return;
  await registrarPesquisaDePrecos(tx, { requisicaoId, itens, origem: descricaoCotacao(mapa.cotacao), ctx, audit });
}

/**
 * The text of the invitation e-mail (pt-BR): the object, the number of items, the deadline (or that
 * none was set) and the attached form. Never the estimated values.
 */
function textoDoConvite(mapa: MapaCotacao, fornecedor: string, numero: string, prazo: string | null): string {
  const itens = mapa.itens.length;
  return [
    `Prezados(as), ${fornecedor}.`,
    '',
    `Solicitamos proposta de preços para a cotação ${numero}: ${mapa.cotacao.objeto}.`,
    `São ${itens} ${itens === 1 ? 'item' : 'itens'}, com unidades e quantidades, no formulário em anexo (planilha .xlsx).`,
    prazo ? `Prazo para a resposta: ${prazo} (horário de Brasília).` : 'Não foi definido prazo para a resposta; pedimos que respondam assim que possível.',
    'Preencha no formulário, para cada item, o preço unitário e a marca, e informe a validade e a data da proposta.',
    `Devolva o formulário preenchido ao responsável pela pesquisa, ${mapa.cotacao.responsavelNome}.`,
  ].join('\n');
}

/**
 * After `iniciar` (and on an invitation while em coleta: `conviteId`): each invited supplier with an
 * e-mail gets the request (object, number of items, deadline) with its blank form attached, the same
 * XLSX as GET …/fornecedores/:conviteId/formulario.xlsx (formularioPlanilha, written in the XLSX
 * worker pool). Never the estimated values.
 */
export async function notificarConvidados(tx: Tx, ctx: RequestContext, before: Row, conviteId?: string): Promise<void> {
  const id = String(before.id);
  const mapa = await carregarCotacao(tx, ctx, id);
  const convites = mapa.convites.filter((c) => c.fornecedorEmail && c.situacao === 'convidado' && (!conviteId || c.id === conviteId));
  if (convites.length === 0) return;
  const entidade = await documentEntidade({ db: tx, entidadeId: ctx.entidadeId });
  const numero = formatNumero(mapa.cotacao.numero, mapa.cotacao.ano);
  const prazo = mapa.cotacao.prazo ? formatDateTime(mapa.cotacao.prazo) : null;
  for (const c of convites) {
    const planilha = await writeXlsxInWorker([formularioPlanilha(mapa, c, entidade)]);
    sendMail(tx, {
      to: c.fornecedorEmail!,
      usuarioId: null,
      subject: `Pedido de cotação ${numero}`,
      text: textoDoConvite(mapa, c.fornecedorNome, numero, prazo),
      attachments: [
        {
          // the name of the download (kit/documents/files.ts): formulario-cotacao-<numero>-<ano>-<fornecedor>.xlsx
          filename: `formulario-cotacao-${mapa.cotacao.numero}-${mapa.cotacao.ano}-${fileNameSlug(c.fornecedorNome)}.xlsx`,
          contentType: XLSX_CONTENT_TYPE,
          content: planilha,
        },
      ],
    });
  }
}
