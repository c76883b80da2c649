// Prices of the other sources of art. 5 (official systems, similar contracts, specialised media and
// sites, invoices) with their evidence (an uploaded file kept with its SHA-256), and a person's
// decisions on any price: include one left out by age or validity, exclude one, restore.
import {
  AppError,
  type DocumentAttachmentsDefinition,
  type PluginRouter,
  type RequestContext,
  STALE_MESSAGE,
  type Tx,
  badRequest,
  defineDocumentAttachments,
  notFound,
  removeUnreferencedAttachments,
} from '@app/server-core';
import { and, eq, sql } from '@app/server-core/orm';
import { z } from 'zod';
import {
  COTACOES_TAG,
  EVIDENCIA_MAX_BYTES,
  EVIDENCIA_TIPOS,
  type PrecoInput,
  decisaoPrecoInputSchema,
  precoInputSchema,
  precoListadoSchema,
} from '../shared/index.js';
import { carregarCotacao } from './carregar.js';
import { UUID, lerCotacao, lerPreco, precoAuditado, travarCotacao } from './comum.js';
import { conferirAprovacao } from './justificativa.js';
import { cotacaoEvidencias, cotacaoItens, cotacaoPrecos } from './tables.js';

const params = z.object({ id: z.string() });
const precoParams = z.object({ id: z.string(), precoId: z.string() });
/** A collection time may run ahead of the server's clock by this much (clocks differ). */
const TOLERANCIA_FUTURO_MS = 5 * 60 * 1000;

/**
 * The evidence of prices: files of the cotação (the kit's attachments), uploaded while it is open and
 * then named by a price (`evidenciaId`); one no price uses any more goes with the last price that did.
 */
export const evidencias = {
  path: '/cotacoes/:id/evidencias',
  idParam: 'evidenciaId',
  tag: COTACOES_TAG,
  table: cotacaoEvidencias,
  columns: {
    id: cotacaoEvidencias.id,
    entidadeId: cotacaoEvidencias.entidadeId,
    parent: cotacaoEvidencias.cotacaoId,
    nome: cotacaoEvidencias.nome,
    tipo: cotacaoEvidencias.tipo,
    tamanho: cotacaoEvidencias.tamanho,
    sha256: cotacaoEvidencias.sha256,
    conteudo: cotacaoEvidencias.conteudo,
    enviadoPor: cotacaoEvidencias.enviadoPor,
    enviadoPorNome: cotacaoEvidencias.enviadoPorNome,
    createdAt: cotacaoEvidencias.createdAt,
  },
  types: EVIDENCIA_TIPOS,
  maxBytes: EVIDENCIA_MAX_BYTES,
  parent: { read: lerCotacao, lock: (tx, ctx, id) => travarCotacao(tx, ctx, id, 'aberta') },
  label: { one: 'a evidência de um preço', many: 'as evidências de preços' },
  fallbackName: 'evidencia',
  actions: { upload: 'enviar_evidencia', remove: 'excluir_evidencia' },
  referencedBy: [{ table: cotacaoPrecos, column: cotacaoPrecos.evidenciaId, message: 'Esta evidência é usada por um preço.' }],
  routes: { list: false, remove: false },
  uploadNote: 'Só com a cotação aberta. Depois use o `id` em `evidenciaId` do preço.',
} satisfies DocumentAttachmentsDefinition;

/** Deletes the evidences among `ids` no price points at any more (the price that used it was deleted). */
export const apagarEvidenciasSoltas = (tx: Tx, ids: readonly (string | null)[]) => removeUnreferencedAttachments(tx, evidencias, ids);

/** The item of the cotação and the evidence (of the same cotação) a price names: 400 otherwise. */
async function checarPreco(tx: Tx, cotacaoId: string, input: PrecoInput, evidenciaDaCotacao: (id: string) => Promise<boolean>): Promise<void> {
  const fields: Record<string, string> = {};
  const [item] = await tx
    .select({ id: cotacaoItens.id })
    .from(cotacaoItens)
    .where(and(eq(cotacaoItens.cotacaoId, cotacaoId), eq(cotacaoItens.produtoId, input.produtoId)));
  if (!item) fields.produtoId = 'Escolha um item desta cotação.';
  if (input.evidenciaId && !(await evidenciaDaCotacao(input.evidenciaId))) fields.evidenciaId = 'Envie a evidência nesta cotação antes de usá-la.';
  if (new Date(input.dataColeta).getTime() > Date.now() + TOLERANCIA_FUTURO_MS) fields.dataColeta = 'A data da coleta não pode ser futura.';
  if (Object.keys(fields).length) throw badRequest('Verifique os campos destacados.', fields);
}

/** The price (locked) of the cotação, or 404. */
async function travarPreco(tx: Tx, cotacaoId: string, precoId: string) {
  if (!UUID.test(precoId)) throw notFound();
  const [row] = await tx
    .select()
    .from(cotacaoPrecos)
    .where(and(eq(cotacaoPrecos.id, precoId), eq(cotacaoPrecos.cotacaoId, cotacaoId)))
    .for('update');
  if (!row) throw notFound();
  return row;
}

const deFornecedor = () => new AppError(409, 'locked', 'Este preço veio da proposta do fornecedor: altere-o registrando de novo a resposta do fornecedor.');

export function registrarPrecos(router: PluginRouter): void {
  const tag = COTACOES_TAG;

  // ---- evidence: POST /cotacoes/:id/evidencias, GET /cotacoes/:id/evidencias/:evidenciaId
  const anexos = defineDocumentAttachments(router, evidencias);
  const checar = (tx: Tx, id: string, input: PrecoInput) => checarPreco(tx, id, input, (evidenciaId) => anexos.belongsTo(tx, id, evidenciaId));

  // ---- prices of the other sources

  router.route({
    method: 'post',
    path: '/cotacoes/:id/precos',
    tag,
    summary: 'Incluir um preço de outra fonte (art. 5º, I, II, III e V)',
    description:
      'Sistemas oficiais, contratações similares, mídia especializada e sítios (com o endereço), notas fiscais: a fonte, o valor, a data e a hora da coleta ou do documento, o endereço e a evidência enviada antes. Preços de fornecedores entram pela resposta. Só com a cotação aberta.',
    request: { params, body: precoInputSchema },
    responses: { 201: precoListadoSchema, 404: { description: 'Não encontrada' }, 409: { description: 'Cotação fechada' } },
    handler: async (c, ctx) => {
      const { id } = c.req.valid('param');
      const input = c.req.valid('json');
      const preco = await ctx.mutate(async (tx, audit) => {
        await travarCotacao(tx, ctx, id, 'aberta');
        await checar(tx, id, input);
        const [row] = await tx
          .insert(cotacaoPrecos)
          .values({
            entidadeId: ctx.entidadeId,
            cotacaoId: id,
            produtoId: input.produtoId,
            fonte: input.fonte,
            fonteDescricao: input.fonteDescricao,
            valorUnitario: input.valorUnitario,
            marca: input.marca,
            dataColeta: input.dataColeta,
            link: input.link,
            evidenciaId: input.evidenciaId,
            coletadoPor: ctx.user.id,
            coletadoPorNome: ctx.user.nome,
          })
          .returning({ id: cotacaoPrecos.id });
        const preco = await lerPreco(tx, id, row!.id);
        audit({ registro: id, acao: 'incluir_preco', depois: { precoId: preco.id, ...precoAuditado(preco) } });
        await conferirAprovacao(tx, ctx, id, audit, carregarCotacao);
        return preco;
      });
      return c.json(preco, 201);
    },
  });

  router.route({
    method: 'put',
    path: '/cotacoes/:id/precos/:precoId',
    tag,
    summary: 'Alterar um preço de outra fonte',
    description: 'Envie a `version` lida (409 `stale` se outra pessoa alterou antes). Preços de fornecedores mudam pela resposta (409).',
    request: { params: precoParams, body: precoInputSchema },
    responses: { 200: precoListadoSchema, 404: { description: 'Não encontrado' }, 409: { description: 'Desatualizado, de fornecedor ou cotação fechada' } },
    handler: async (c, ctx) => {
      const { id, precoId } = c.req.valid('param');
      const input = c.req.valid('json');
      if (input.version === undefined) throw badRequest('Verifique os campos destacados.', { version: 'Informe a versão do registro.' });
      const preco = await ctx.mutate(async (tx, audit) => {
        await travarCotacao(tx, ctx, id, 'aberta');
        const atual = await travarPreco(tx, id, precoId);
        if (atual.fonte === 'fornecedor') throw deFornecedor();
        if (atual.version !== input.version) throw new AppError(409, 'stale', STALE_MESSAGE);
        await checar(tx, id, input);
        const antes = await lerPreco(tx, id, precoId);
        await tx
          .update(cotacaoPrecos)
          .set({
            produtoId: input.produtoId,
            fonte: input.fonte,
            fonteDescricao: input.fonteDescricao,
            valorUnitario: input.valorUnitario,
            marca: input.marca,
            dataColeta: input.dataColeta,
            link: input.link,
            evidenciaId: input.evidenciaId,
            version: sql`${cotacaoPrecos.version} + 1`,
            updatedAt: sql`now()`,
          })
          .where(eq(cotacaoPrecos.id, precoId));
        if (antes.evidencia && antes.evidencia.id !== input.evidenciaId) await apagarEvidenciasSoltas(tx, [antes.evidencia.id]);
        const depois = await lerPreco(tx, id, precoId);
        audit({ registro: id, acao: 'alterar_preco', antes: precoAuditado(antes), depois: { precoId, ...precoAuditado(depois) } });
        await conferirAprovacao(tx, ctx, id, audit, carregarCotacao);
        return depois;
      });
      return c.json(preco, 200);
    },
  });

  router.route({
    method: 'delete',
    path: '/cotacoes/:id/precos/:precoId',
    tag,
    summary: 'Excluir um preço de outra fonte',
    description: 'Só com a cotação aberta; a evidência que só ele usava vai junto. Preços de fornecedores mudam pela resposta (409).',
    request: { params: precoParams },
    responses: { 204: { description: 'Excluído' }, 404: { description: 'Não encontrado' }, 409: { description: 'De fornecedor ou cotação fechada' } },
    handler: async (c, ctx) => {
      const { id, precoId } = c.req.valid('param');
      await ctx.mutate(async (tx, audit) => {
        await travarCotacao(tx, ctx, id, 'aberta');
        const atual = await travarPreco(tx, id, precoId);
        if (atual.fonte === 'fornecedor') throw deFornecedor();
        const antes = await lerPreco(tx, id, precoId);
        await tx.delete(cotacaoPrecos).where(eq(cotacaoPrecos.id, precoId));
        await apagarEvidenciasSoltas(tx, [atual.evidenciaId]);
        audit({ registro: id, acao: 'excluir_preco', antes: { precoId, ...precoAuditado(antes) } });
        await conferirAprovacao(tx, ctx, id, audit, carregarCotacao);
      });
      return c.body(null, 204);
    },
  });

  // ---- a person's decisions

  const decidir = async (ctx: RequestContext, id: string, precoId: string, acao: 'incluir' | 'excluir' | 'restaurar', motivo: string | null) =>
    ctx.mutate(async (tx, audit) => {
      await travarCotacao(tx, ctx, id, 'aberta');
      const atual = await travarPreco(tx, id, precoId);
      if (acao === 'incluir') {
        const mapa = await carregarCotacao(tx, ctx, id);
        const situacao = mapa.avaliacao.precos.find((p) => p.precoId === precoId);
        if (situacao?.valido) throw new AppError(409, 'invalid_transition', 'Este preço já entra no cálculo.');
      }
      const set =
        acao === 'incluir'
          ? { inclusaoMotivo: motivo, exclusaoMotivo: null }
          : acao === 'excluir'
            ? { exclusaoMotivo: motivo, inclusaoMotivo: null }
            : { inclusaoMotivo: null, exclusaoMotivo: null };
      await tx
        .update(cotacaoPrecos)
        .set({ ...set, version: sql`${cotacaoPrecos.version} + 1`, updatedAt: sql`now()` })
        .where(eq(cotacaoPrecos.id, precoId));
      const depois = await lerPreco(tx, id, precoId);
      audit({
        registro: id,
        acao: `${acao}_preco_no_calculo`,
        antes: { inclusaoMotivo: atual.inclusaoMotivo, exclusaoMotivo: atual.exclusaoMotivo },
        depois: { precoId, inclusaoMotivo: depois.inclusaoMotivo, exclusaoMotivo: depois.exclusaoMotivo, ...(motivo ? { motivo } : {}) },
      });
      await conferirAprovacao(tx, ctx, id, audit, carregarCotacao);
      return depois;
    });

  for (const acao of ['incluir', 'excluir'] as const) {
    router.route({
      method: 'post',
      path: `/cotacoes/:id/precos/:precoId/${acao}`,
      tag,
      summary: acao === 'incluir' ? 'Incluir no cálculo um preço antigo ou vencido' : 'Excluir um preço do cálculo',
      description:
        acao === 'incluir'
          ? 'Com o motivo (ao menos 10 caracteres): o preço deixado de fora pela idade, pela validade ou por exclusão passa a contar. 409 se já conta.'
          : 'Com o motivo (ao menos 10 caracteres): o preço fica visível, marcado e fora do cálculo.',
      request: { params: precoParams, body: decisaoPrecoInputSchema },
      responses: { 200: precoListadoSchema, 404: { description: 'Não encontrado' }, 409: { description: 'Cotação fechada' } },
      handler: async (c, ctx) => {
        const { id, precoId } = c.req.valid('param');
        return c.json(await decidir(ctx, id, precoId, acao, c.req.valid('json').motivo), 200);
      },
    });
  }

  router.route({
    method: 'post',
    path: '/cotacoes/:id/precos/:precoId/restaurar',
    tag,
    summary: 'Desfazer a decisão sobre um preço',
    description: 'Apaga a inclusão e a exclusão registradas: o preço volta às regras automáticas (idade, validade, método).',
    request: { params: precoParams },
    responses: { 200: precoListadoSchema, 404: { description: 'Não encontrado' }, 409: { description: 'Cotação fechada' } },
    handler: async (c, ctx) => {
      const { id, precoId } = c.req.valid('param');
      return c.json(await decidir(ctx, id, precoId, 'restaurar', null), 200);
    },
  });
}
