// Prices of the other sources of art. 5 (official systems, similar contracts, specialised media and
// sites, invoices) with their evidence (an uploaded file kept with its SHA-256), and a person's
// decisions on any price: include one left out by age or validity, exclude one, restore.
import {
  AppError,
  type DocumentAttachments,
  type DocumentAttachmentsDefinition,
  type DocumentChildren,
  type DocumentChildAction,
  type DocumentChildContext,
  type DocumentResource,
  type PluginRouter,
  type RequestContext,
  type Tx,
  defineDocumentAttachments,
  documentAttachmentParent,
  defineDocumentChildren,
  removeUnreferencedAttachments,
} from '@app/server-core';
import { eq, getTableColumns, sql } from '@app/server-core/orm';
import type { z } from 'zod';
import {
  COTACOES_TAG,
  EVIDENCIA_MAX_BYTES,
  EVIDENCIA_TIPOS,
  COTACAO_ABERTA,
  type PrecoInput,
  type PrecoListado,
  decisaoPrecoInputSchema,
  precoInputSchema,
  precoListadoSchema,
} from '../shared/index.js';
import { carregarCotacao } from './carregar.js';
import { lerPrecos, precoAuditado } from './comum.js';
import { conferirAprovacao } from './justificativa.js';
import { cotacaoEvidencias, cotacaoItens, cotacaoPrecos } from './tables.js';

/** A collection time may run ahead of the server's clock by this much (clocks differ). */
const TOLERANCIA_FUTURO_MS = 5 * 60 * 1000;

const { cotacaoId: _cotacaoId, ...colunasDaEvidencia } = getTableColumns(cotacaoEvidencias);

/**
 * The evidence of prices: files of the cotação (the kit's attachments), uploaded while it is open and
 * then named by a price (`evidenciaId`); one no price uses any more goes with the last price that did.
 */
export const evidencias = {
  path: '/cotacoes/:id/evidencias',
  idParam: 'evidenciaId',
  tag: COTACOES_TAG,
  table: cotacaoEvidencias,
  // the table's columns, named as the kit names them (the cotação is the parent)
  columns: { ...colunasDaEvidencia, parent: cotacaoEvidencias.cotacaoId },
  types: EVIDENCIA_TIPOS,
  maxBytes: EVIDENCIA_MAX_BYTES,
  label: { one: 'a evidência de um preço', many: 'as evidências de preços' },
  fallbackName: 'evidencia',
  actions: { upload: 'enviar_evidencia', remove: 'excluir_evidencia' },
  referencedBy: [{ table: cotacaoPrecos, column: cotacaoPrecos.evidenciaId, message: 'Esta evidência é usada por um preço.' }],
  routes: { list: false, remove: false },
  uploadNote: 'Só com a cotação aberta. Depois use o `id` em `evidenciaId` do preço.',
} satisfies Omit<DocumentAttachmentsDefinition, 'parent'>;

/** Deletes the evidences among `ids` no price points at any more (the price that used it was deleted). */
export const apagarEvidenciasSoltas = (tx: Tx, ids: readonly (string | null)[]) => removeUnreferencedAttachments(tx, evidencias, ids);

/** 400 for a collection time in the future. */
const checarPreco = async (input: PrecoInput) =>
  new Date(input.dataColeta).getTime() > Date.now() + TOLERANCIA_FUTURO_MS ? { dataColeta: 'A data da coleta não pode ser futura.' } : undefined;

/** What a price's body writes (the source, value, date, link and evidence). */
const valoresDoPreco = ({ version: _version, ...valores }: PrecoInput) => valores;

/** 409: a supplier's price changes through the supplier's answer. */
const naoDeFornecedor = async (_tx: Tx, c: { locked: Record<string, unknown> | undefined }) => {
  if (c.locked?.fonte === 'fornecedor') {
    throw new AppError(409, 'locked', 'Este preço veio da proposta do fornecedor: altere-o registrando de novo a resposta do fornecedor.');
  }
};

type Preco = PrecoListado & Record<string, unknown>;
const auditado = (p: Record<string, unknown> | undefined) => precoAuditado(p as Preco);

export function registrarPrecos(router: PluginRouter, cotacao: DocumentResource): { precos: DocumentChildren; evidencias: DocumentAttachments } {
  // ---- evidence: POST /cotacoes/:id/evidencias, GET /cotacoes/:id/evidencias/:evidenciaId
  const anexos = defineDocumentAttachments(router, { ...evidencias, parent: documentAttachmentParent(cotacao, { states: COTACAO_ABERTA }) });

  // ---- prices of the other sources, and a person's decisions on any price: children of the cotação
  const conferir = (tx: Tx, c: { ctx: RequestContext; parentId: string; audit: DocumentChildContext['audit'] }) =>
    conferirAprovacao(tx, c.ctx, c.parentId, c.audit, carregarCotacao);
  const decisao = (acao: 'incluir' | 'excluir' | 'restaurar'): DocumentChildAction<z.ZodType | undefined> => ({
    ...(acao === 'restaurar' ? {} : { schema: decisaoPrecoInputSchema }),
    summary:
      acao === 'incluir'
        ? 'Incluir no cálculo um preço antigo ou vencido'
        : acao === 'excluir'
          ? 'Excluir um preço do cálculo'
          : 'Desfazer a decisão sobre um preço',
    description:
      acao === 'incluir'
        ? 'Com o motivo (ao menos 10 caracteres): o preço deixado de fora pela idade, pela validade ou por exclusão passa a contar. 409 se já conta.'
        : acao === 'excluir'
          ? 'Com o motivo (ao menos 10 caracteres): o preço fica visível, marcado e fora do cálculo.'
          : 'Apaga a inclusão e a exclusão registradas: o preço volta às regras automáticas (idade, validade, método).',
    run: async (tx, c) => {
      if (acao === 'incluir') {
        const mapa = await carregarCotacao(tx, c.ctx, c.parentId);
        if (mapa.avaliacao.precos.find((p) => p.precoId === c.key)?.valido) throw new AppError(409, 'invalid_transition', 'Este preço já entra no cálculo.');
      }
      const motivo = acao === 'restaurar' ? null : (c.body as { motivo: string }).motivo;
      // the decision replaces the former one (restaurar: none)
      const set = { inclusaoMotivo: acao === 'incluir' ? motivo : null, exclusaoMotivo: acao === 'excluir' ? motivo : null };
      await tx
        .update(cotacaoPrecos)
        .set({ ...set, updatedAt: sql`now()` })
        .where(eq(cotacaoPrecos.id, c.key!));
    },
    audit: {
      acao: `${acao}_preco_no_calculo`,
      antes: (c) => ({ inclusaoMotivo: c.locked?.inclusaoMotivo, exclusaoMotivo: c.locked?.exclusaoMotivo }),
      depois: (c) => {
        const motivo = (c.body as { motivo?: string } | undefined)?.motivo;
        return { precoId: c.key, inclusaoMotivo: c.after?.inclusaoMotivo, exclusaoMotivo: c.after?.exclusaoMotivo, ...(motivo ? { motivo } : {}) };
      },
    },
    afterWrite: conferir,
  });

  const precos = defineDocumentChildren(router, cotacao, {
    path: 'precos',
    param: 'precoId',
    table: cotacaoPrecos,
    parentColumn: cotacaoPrecos.cotacaoId,
    version: cotacaoPrecos.version,
    label: { singular: 'preço', plural: 'preços' },
    states: COTACAO_ABERTA,
    response: precoListadoSchema,
    read: (db, cotacaoId, precoId) => lerPrecos(db, cotacaoId, precoId),
    schema: precoInputSchema,
    // an item of this cotação, an evidence sent to this cotação (400 naming the field)
    references: {
      produtoId: { table: cotacaoItens, column: cotacaoItens.produtoId, parent: cotacaoItens.cotacaoId, message: 'Escolha um item desta cotação.' },
      evidenciaId: { table: cotacaoEvidencias, parent: cotacaoEvidencias.cotacaoId, message: 'Envie a evidência nesta cotação antes de usá-la.' },
    },
    create: {
      summary: 'Incluir um preço de outra fonte (art. 5º, I, II, III e V)',
      description:
        'Sistemas oficiais, contratações similares, mídia especializada e sítios (com o endereço), notas fiscais: a fonte, o valor, a data e a hora da coleta ou do documento, o endereço e a evidência enviada antes. Preços de fornecedores entram pela resposta.',
      validate: (_tx, c) => checarPreco(c.body),
      toRow: (input, c) => ({ ...valoresDoPreco(input), coletadoPor: c.ctx.user.id, coletadoPorNome: c.ctx.user.nome }),
      audit: { acao: 'incluir_preco', depois: (c) => ({ precoId: c.key, ...auditado(c.after) }) },
      afterWrite: conferir,
    },
    update: {
      summary: 'Alterar um preço de outra fonte',
      description: 'Envie a `version` lida (409 `stale` se outra pessoa alterou antes). Preços de fornecedores mudam pela resposta (409).',
      responses: { 409: 'Desatualizado, de fornecedor ou cotação fechada' },
      check: naoDeFornecedor,
      validate: (_tx, c) => checarPreco(c.body),
      toRow: valoresDoPreco,
      audit: { acao: 'alterar_preco', antes: (c) => auditado(c.child), depois: (c) => ({ precoId: c.key, ...auditado(c.after) }) },
      afterWrite: async (tx, c) => {
        const antes = (c.child as Preco | undefined)?.evidencia;
        if (antes && antes.id !== c.body.evidenciaId) await apagarEvidenciasSoltas(tx, [antes.id]);
        await conferir(tx, c);
      },
    },
    delete: {
      summary: 'Excluir um preço de outra fonte',
      description: 'A evidência que só ele usava vai junto. Preços de fornecedores mudam pela resposta (409).',
      responses: { 409: 'De fornecedor ou cotação fechada' },
      check: naoDeFornecedor,
      audit: { acao: 'excluir_preco', antes: (c) => ({ precoId: c.key, ...auditado(c.child) }) },
      afterWrite: async (tx, c) => {
        await apagarEvidenciasSoltas(tx, [c.locked?.evidenciaId as string | null]);
        await conferir(tx, c);
      },
    },
    actions: { incluir: decisao('incluir'), excluir: decisao('excluir'), restaurar: decisao('restaurar') },
  });
  return { precos, evidencias: anexos };
}
