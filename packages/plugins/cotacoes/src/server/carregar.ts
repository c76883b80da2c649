// Loads one cotação (header, items, invited suppliers, prices, chosen winners) in the person's scope
// and evaluates it with the shared `avaliarCotacao`: the answer of GET /cotacoes/:id/mapa, read also
// by the memória de cálculo and by the conclusion.
import { produtos } from '@app/produtos/server';
import { centrosCusto, unidades } from '@app/registros/server';
import { requisicoes } from '@app/requisicoes/server';
import { type DbOrTx, type RequestContext, notFound } from '@app/server-core';
import { asc, eq, sql } from '@app/server-core/orm';
import {
  AUTORIDADE_TAG,
  COTACAO_ABERTA,
  COTACOES_TAG,
  type CotacaoCabecalho,
  type ItemCotacao,
  type MapaCotacao,
  type VencedorRegistrado,
  avaliarCotacao,
} from '../shared/index.js';
import { canonico, daCotacao, isoSqlNull, justificativaColunas, lerConvites, lerPrecos, pertence, UUID, vencedorColunas } from './comum.js';
import { aprovacaoAnulada, motivoAnulacao } from './justificativa.js';
import { cotacaoItens, cotacaoVencedores, cotacoes } from './tables.js';

/** 404 (notFound) when the cotação is not of the entidade or outside the person's centros de custo. */
export async function carregarCotacao(db: DbOrTx, ctx: RequestContext, id: string): Promise<MapaCotacao> {
  if (!UUID.test(id)) throw notFound();
  const [h] = await db
    .select({
      id: cotacoes.id,
      numero: cotacoes.numero,
      ano: cotacoes.ano,
      status: cotacoes.status,
      objeto: cotacoes.objeto,
      centroCustoId: cotacoes.centroCustoId,
      centroCustoNome: sql<string>`${centrosCusto.codigo} || ' – ' || ${centrosCusto.nome}`,
      requisicaoId: cotacoes.requisicaoId,
      requisicaoNumero: sql<string | null>`CASE WHEN ${requisicoes.id} IS NULL THEN NULL ELSE ${requisicoes.numero} || '/' || ${requisicoes.ano} END`,
      dataReferencia: cotacoes.dataReferencia,
      prazo: isoSqlNull(cotacoes.prazo),
      metodo: cotacoes.metodo,
      iterar: cotacoes.iterar,
      observacoes: cotacoes.observacoes,
      responsavelNome: cotacoes.responsavelNome,
      ...justificativaColunas,
      justificativaAprovadaImpressao: cotacoes.justificativaAprovadaImpressao,
      justificativaAprovadaItens: cotacoes.justificativaAprovadaItens,
      valorTotal: sql<string>`${cotacoes.valorTotal}::text`,
      concluidaEm: isoSqlNull(cotacoes.concluidaEm),
      version: cotacoes.version,
    })
    .from(cotacoes)
    .innerJoin(centrosCusto, eq(centrosCusto.id, cotacoes.centroCustoId))
    .leftJoin(requisicoes, eq(requisicoes.id, cotacoes.requisicaoId))
    .where(daCotacao(ctx, id))
    .limit(1);
  if (!h) throw notFound();
  const { justificativaAprovadaImpressao, justificativaAprovadaItens, ...cabecalho } = h;
  const cotacao: CotacaoCabecalho = { ...cabecalho, requisicaoNumero: h.requisicaoNumero ?? null };

  const linhas = await db
    .select({
      id: cotacaoItens.id,
      produtoId: cotacaoItens.produtoId,
      ordem: cotacaoItens.ordem,
      codigo: produtos.codigo,
      descricao: produtos.descricao,
      unidade: sql<string>`coalesce(${unidades.sigla}, '')`,
      quantidade: sql<string>`${cotacaoItens.quantidade}::text`,
      valorReferencia: sql<string>`${cotacaoItens.valorUnitario}::text`,
      requisicaoItemId: cotacaoItens.requisicaoItemId,
      codigoCatalogo: produtos.codigoCatalogo,
    })
    .from(cotacaoItens)
    .innerJoin(produtos, eq(produtos.id, cotacaoItens.produtoId))
    .leftJoin(unidades, eq(unidades.id, produtos.unidadeId))
    .where(eq(cotacaoItens.cotacaoId, id))
    .orderBy(asc(cotacaoItens.ordem));
  const itens: ItemCotacao[] = linhas.map((l) => ({ ...l, quantidade: canonico(l.quantidade), valorReferencia: canonico(l.valorReferencia) }));

  const convites = await lerConvites(db, id);
  const precos = await lerPrecos(db, id);
  const vencedores: VencedorRegistrado[] = await db
    .select(vencedorColunas)
    .from(cotacaoVencedores)
    .where(eq(cotacaoVencedores.cotacaoId, id))
    .orderBy(cotacaoVencedores.produtoId);

  // the rows as read carry what the evaluation needs (it copies none of them into its answer)
  const avaliacao = avaliarCotacao({
    dataReferencia: cotacao.dataReferencia,
    metodo: cotacao.metodo,
    iterar: cotacao.iterar,
    itens,
    precos,
    fornecedores: convites.map((c) => ({ fornecedorId: c.fornecedorId, nome: c.fornecedorNome, situacao: c.situacao })),
    vencedores,
  });

  const mapa: MapaCotacao = {
    cotacao,
    itens,
    convites,
    precos,
    vencedores,
    avaliacao,
    // open, and the person works on it: the controle interno (tag 95) only reads the mapa
    podeEditar: COTACAO_ABERTA.includes(cotacao.status) && ctx.hasTag(COTACOES_TAG) && pertence(ctx, cotacao.centroCustoId),
    podeAprovarJustificativa: ctx.hasTag(AUTORIDADE_TAG),
  };
  // an approval of the justification that no longer covers the cotação as it is reads as voided,
  // even when the change came by a path that did not record the voiding (see justificativa.ts)
  const anulada = aprovacaoAnulada({ ...h, justificativaAprovadaImpressao, justificativaAprovadaItens }, mapa);
  if (anulada) {
    mapa.cotacao = {
      ...cotacao,
      justificativaAnuladaEm: null, // not recorded: when the change happened is in the audit trail
      justificativaAnuladaAprovador: h.justificativaAprovadaPorNome,
      justificativaAnuladaMotivo: motivoAnulacao(anulada.rotulos),
      justificativaAprovadaPorNome: null,
      justificativaAprovadaEm: null,
    };
  }
  return mapa;
}
