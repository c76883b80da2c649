// Versions of the plan: each approval keeps the version's items (pca_versoes); `revisar` opens the next
// version (a justification required outside the revision windows, one of which follows the publication of
// the year's budget law, a date the entidade records in pca_loas); the plan under revision shows what
// changed since the approved version: included, excluded and resized items (by consolidation key).
// `revisar` also keeps the plan as it stands (pca_versoes.estado) so that `desistir` can put it back.
import { formatDate, today } from '@app/br';
import { AppError, type CrudResource, type DbOrTx, type RequestContext, type Tx, liveLink } from '@app/server-core';
import { and, eq, isNull, sql } from '@app/server-core/orm';
import { z } from 'zod';
import { type ItemDaVersao, dentroDaJanelaDeRevisao } from '../shared/index.js';
import { colunas, pcaItens, pcaLoas, pcaVersoes } from './tables.js';
import { PCA_KIND } from './consolidar.js';

type Row = Record<string, unknown>;

/** More body of `revisar`: the justification (the LOA's date is the entidade's, not the reviser's). */
export const revisarBody = {
  justificativa: z.string().trim().max(2000, 'Use no máximo 2000 caracteres.').nullish(),
};

/** The entidade's record of the budget law of the plan's year (null when not recorded). */
export async function lerLoa(db: DbOrTx, entidadeId: string, anoPca: number) {
  const [loa] = await db
    .select({ id: pcaLoas.id, dataPublicacao: pcaLoas.dataPublicacao, lei: pcaLoas.lei })
    .from(pcaLoas)
    .where(and(eq(pcaLoas.entidadeId, entidadeId), eq(pcaLoas.ano, anoPca)));
  return loa ?? null;
}

/** `revisar`: the next version; outside the windows, a justification of at least 10 characters (400 naming it). */
export async function abrirRevisao(tx: Tx, row: Row, body: Row, entidadeId: string) {
  const anoPca = Number(row.anoPca);
  const dataLoa = (await lerLoa(tx, entidadeId, anoPca))?.dataPublicacao ?? null;
  const justificativa = (body.justificativa as string | null | undefined) || null;
  if (!dentroDaJanelaDeRevisao(today(), anoPca, dataLoa) && (justificativa?.length ?? 0) < 10) {
    const loa = dataLoa ? `publicação da LOA de ${anoPca} em ${formatDate(dataLoa)}` : `publicação da LOA de ${anoPca}, ainda não registrada`;
    const message = `Fora dos períodos de revisão (15/09 a 15/11/${anoPca - 1} e 15 dias após a ${loa}): justifique a revisão (ao menos 10 caracteres).`;
    throw new AppError(400, 'validation_error', 'Verifique os campos destacados.', { justificativa: message });
  }
  await guardarEstado(tx, String(row.id), Number(row.versao));
  return {
    // the LOA date this revision was judged by stays with the plan (printed with the revision)
    set: { versao: Number(row.versao) + 1, dataLoa, revisaoJustificativa: justificativa },
    audit: { versao: Number(row.versao) + 1, ...(justificativa ? { justificativa } : {}), ...(dataLoa ? { dataLoa } : {}) },
  };
}

// the plan's own rows kept by `revisar` and put back by `desistir`, in the order their foreign keys need
const LINHAS = [
  { chave: 'contratacoes', tabela: 'pca_contratacoes', doPlano: sql`plano_id = pca_planos.id` },
  { chave: 'manuais', tabela: 'pca_itens_manuais', doPlano: sql`plano_id = pca_planos.id` },
  { chave: 'itens', tabela: 'pca_itens', doPlano: sql`plano_id = pca_planos.id` },
  { chave: 'fontes', tabela: 'pca_item_fontes', doPlano: sql`item_id IN (SELECT id FROM pca_itens WHERE plano_id = pca_planos.id)` },
] as const;

/**
 * `revisar`: the approved (or published) plan as it stands, kept with its version, in the database (a plan
 * of 100 000 DFD lines never travels): its header, its DFDs (the kit's live links) and its own rows.
 */
async function guardarEstado(tx: Tx, planoId: string, versao: number) {
  const linhas = LINHAS.map(
    (l) => sql`${l.chave}::text, coalesce((SELECT jsonb_agg(to_jsonb(t)) FROM ${sql.raw(l.tabela)} t WHERE ${l.doPlano}), '[]'::jsonb)`,
  );
  await tx.execute(sql`
    UPDATE pca_versoes SET estado = (
      SELECT jsonb_build_object(
        'plano', to_jsonb(pca_planos) - 'busca',
        'memorandos', coalesce((SELECT jsonb_agg(fonte_id) FROM documento_vinculos WHERE ${liveLink(PCA_KIND, { target: planoId })}), '[]'::jsonb),
        ${sql.join(linhas, sql`, `)})
      FROM pca_planos WHERE pca_planos.id = ${planoId}::uuid)
    WHERE plano_id = ${planoId}::uuid AND versao = ${versao}`);
}

/**
 * `desistir`: the plan back to the version it was revising, as it stood when the revision was opened: the
 * header and the DFDs through the kit's own save (each DFD checked, locked and audited as on a PUT; one
 * cancelled, or consolidated elsewhere, since it left the plan is a 409 naming it), then the plan's own rows
 * as they were, and the status it had (aprovado or publicado).
 */
export async function desistirDaRevisao(tx: Tx, row: Row, ctx: RequestContext, crud: CrudResource) {
  const planoId = String(row.id);
  const versao = Number(row.versao) - 1;
  const [guardado] = await tx
    .select({ estado: pcaVersoes.estado })
    .from(pcaVersoes)
    .where(and(eq(pcaVersoes.planoId, planoId), eq(pcaVersoes.versao, versao)));
  const estado = guardado?.estado as { plano: Row; memorandos: string[] } | null | undefined;
  if (!estado) throw new AppError(409, 'sem_versao_guardada', 'Esta revisão foi aberta antes de o sistema guardar a versão anterior: envie-a para aprovação.');
  const { plano } = estado;
  const cabecalho = {
    anoPca: plano.ano_pca,
    codigoUnidade: plano.codigo_unidade,
    centroCustoId: plano.centro_custo_id,
    observacao: plano.observacao,
    memorandoIds: estado.memorandos,
  };
  try {
    await crud.updateRecord(tx, planoId, cabecalho as never, Number(row.version), ctx);
  } catch (e) {
    if (!(e instanceof AppError) || e.status >= 500) throw e;
    const motivo = e.fields ? Object.values(e.fields).join(' ') : e.message;
    throw new AppError(409, 'versao_indisponivel', `Não é possível voltar à versão ${versao}: ${motivo}`);
  }
  // the rows the save consolidated anew give way to the version's own (the catalogue may have changed since)
  for (const l of [...LINHAS].reverse())
    await tx.execute(sql`DELETE FROM ${sql.raw(l.tabela)} t USING pca_planos WHERE pca_planos.id = ${planoId}::uuid AND ${l.doPlano}`);
  for (const l of LINHAS) {
    await tx.execute(sql`
      INSERT INTO ${sql.raw(l.tabela)}
      SELECT * FROM jsonb_populate_recordset(NULL::${sql.raw(l.tabela)}, (SELECT estado -> ${l.chave}::text FROM pca_versoes WHERE plano_id = ${planoId}::uuid AND versao = ${versao}))`);
  }
  return {
    to: String(plano.status),
    set: { versao, valorTotal: plano.valor_total, dataLoa: plano.data_loa, revisaoJustificativa: plano.revisao_justificativa },
    audit: { versao },
  };
}

/** `aprovar`: the version's items as approved (those not refused), kept for the next version to compare. */
export async function guardarVersao(tx: Tx, row: Row, entidadeId: string) {
  const planoId = String(row.id);
  const itens = await tx
    .select({ ...colunas(pcaItens, ['chave', 'numeroItem', 'descricao', 'quantidade', 'valorTotal']), unidade: pcaItens.unidadeFornecimento })
    .from(pcaItens)
    .where(and(eq(pcaItens.planoId, planoId), isNull(pcaItens.recusaMotivo)))
    .orderBy(pcaItens.numeroItem);
  await tx
    .insert(pcaVersoes)
    .values({
      entidadeId,
      planoId,
      versao: Number(row.versao),
      valorTotal: sql`(SELECT valor_total FROM pca_planos WHERE id = ${planoId}::uuid)`,
      itens: itens as ItemDaVersao[],
    })
    .onConflictDoUpdate({ target: [pcaVersoes.planoId, pcaVersoes.versao], set: { itens: itens as ItemDaVersao[], aprovadoEm: sql`now()` } });
}

/** What changed since the previous approved version (null for the first version). */
export async function lerRevisao(db: DbOrTx, row: Row) {
  const versao = Number(row.versao);
  if (versao <= 1) return null;
  const [anterior] = await db
    .select({ itens: pcaVersoes.itens, valorTotal: pcaVersoes.valorTotal })
    .from(pcaVersoes)
    .where(and(eq(pcaVersoes.planoId, String(row.id)), eq(pcaVersoes.versao, versao - 1)));
  const antes = new Map((anterior?.itens ?? []).map((i) => [i.chave, i]));
  const agora = await db
    .select(colunas(pcaItens, ['chave', 'numeroItem', 'descricao', 'quantidade', 'valorTotal']))
    .from(pcaItens)
    .where(and(eq(pcaItens.planoId, String(row.id)), isNull(pcaItens.recusaMotivo)))
    .orderBy(pcaItens.numeroItem);
  const chaves = new Set(agora.map((i) => i.chave));
  return {
    versao,
    valorAnterior: anterior?.valorTotal ?? null,
    justificativa: (row.revisaoJustificativa as string | null) ?? null,
    dataLoa: (row.dataLoa as string | null) ?? null,
    incluidos: agora.filter((i) => !antes.has(String(i.chave))),
    excluidos: [...antes.values()].filter((i) => !chaves.has(i.chave)),
    redimensionados: agora.flatMap((i) => {
      const a = antes.get(String(i.chave));
      return a && (a.quantidade !== i.quantidade || a.valorTotal !== i.valorTotal) ? [{ ...i, quantidadeAntes: a.quantidade, valorAntes: a.valorTotal }] : [];
    }),
  };
}

/** What the PNCP gets as the reason to rectify or exclude items of a revised plan (its limit: 255 characters). */
export function justificativaPncp(row: Row): string {
  const texto =
    (row.revisaoJustificativa as string | null) ?? `Revisão do Plano de Contratações Anual de ${String(row.anoPca)} (versão ${String(row.versao)}).`;
  return texto.length <= 255 ? texto : `${texto.slice(0, 254)}…`;
}
