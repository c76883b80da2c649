// Prices of the other sources of art. 5 (official systems, similar contracts, specialised media and
// sites, invoices) with their evidence (an uploaded file kept with its SHA-256), and a person's
// decisions on any price: include one left out by age or validity, exclude one, restore.
import { createHash } from 'node:crypto';
import { AppError, type PluginRouter, type RequestContext, STALE_MESSAGE, type Tx, badRequest, cleanFileName, notFound } from '@app/server-core';
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
import { UUID, apagarEvidenciasSoltas, lerCotacao, lerPreco, precoAuditado, travarCotacao } from './comum.js';
import { conferirAprovacao } from './justificativa.js';
import { cotacaoEvidencias, cotacaoItens, cotacaoPrecos } from './tables.js';

type TipoEvidencia = (typeof EVIDENCIA_TIPOS)[number];

const params = z.object({ id: z.string() });
const precoParams = z.object({ id: z.string(), precoId: z.string() });
const evidenciaParams = z.object({ id: z.string(), evidenciaId: z.string() });

const evidenciaSchema = z.object({ id: z.string(), nome: z.string(), tipo: z.string(), tamanho: z.number().int(), sha256: z.string() });
const TIPOS_TEXTO = 'PDF, PNG, JPEG, WebP ou HTML';
const LIMITE_TEXTO = `${EVIDENCIA_MAX_BYTES / 1024 / 1024} MB`;
/** Multipart overhead allowed above the file itself. */
const FOLGA_MULTIPART = 64 * 1024;
/** A collection time may run ahead of the server's clock by this much (clocks differ). */
const TOLERANCIA_FUTURO_MS = 5 * 60 * 1000;

const EXTENSOES: Record<string, TipoEvidencia> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  html: 'text/html',
  htm: 'text/html',
};

/** The declared type of an upload, normalized ('image/jpg' → 'image/jpeg'; none: from the file name). */
function tipoDeclarado(tipo: string, nome: string): string {
  const base = tipo.split(';')[0]!.trim().toLowerCase();
  if (base === 'image/jpg' || base === 'image/pjpeg') return 'image/jpeg';
  if (base === 'application/xhtml+xml') return 'text/html';
  if (base && base !== 'application/octet-stream') return base;
  const ext = /\.([a-z0-9]+)$/i.exec(nome)?.[1]?.toLowerCase() ?? '';
  return EXTENSOES[ext] ?? base;
}

const comeca = (bytes: Uint8Array, assinatura: number[], em = 0) => assinatura.every((b, i) => bytes[em + i] === b);
const ascii = (texto: string) => [...texto].map((c) => c.charCodeAt(0));

/** Whether the content is of `tipo` by its first bytes (the declared type alone is never trusted). */
export function conteudoConfere(bytes: Uint8Array, tipo: TipoEvidencia): boolean {
  switch (tipo) {
    case 'application/pdf':
      return comeca(bytes, ascii('%PDF-'));
    case 'image/png':
      return comeca(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case 'image/jpeg':
      return comeca(bytes, [0xff, 0xd8, 0xff]);
    case 'image/webp':
      return comeca(bytes, ascii('RIFF')) && comeca(bytes, ascii('WEBP'), 8);
    case 'text/html': {
      // text (no NUL in the first KB), starting with a tag, an HTML page within the first 4 KB
      const inicio = bytes.subarray(0, 4096);
      if (inicio.subarray(0, 1024).includes(0)) return false;
      const texto = new TextDecoder('utf-8', { fatal: false })
        .decode(inicio)
        .replace(/^\uFEFF/, '')
        .trimStart();
      return texto.startsWith('<') && /<html[\s>]|<!doctype\s+html/i.test(texto);
    }
  }
}

/** The item of the cotação and the evidence (of the same cotação) a price names: 400 otherwise. */
async function checarPreco(tx: Tx, cotacaoId: string, input: PrecoInput): Promise<void> {
  const fields: Record<string, string> = {};
  const [item] = await tx
    .select({ id: cotacaoItens.id })
    .from(cotacaoItens)
    .where(and(eq(cotacaoItens.cotacaoId, cotacaoId), eq(cotacaoItens.produtoId, input.produtoId)));
  if (!item) fields.produtoId = 'Escolha um item desta cotação.';
  if (input.evidenciaId) {
    const [ev] = await tx
      .select({ id: cotacaoEvidencias.id })
      .from(cotacaoEvidencias)
      .where(and(eq(cotacaoEvidencias.id, input.evidenciaId), eq(cotacaoEvidencias.cotacaoId, cotacaoId)));
    if (!ev) fields.evidenciaId = 'Envie a evidência nesta cotação antes de usá-la.';
  }
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

  // ---- evidence

  router.route({
    method: 'post',
    path: '/cotacoes/:id/evidencias',
    tag,
    summary: 'Enviar a evidência de um preço',
    description: `Multipart/form-data, campo \`arquivo\`: ${TIPOS_TEXTO} de até ${LIMITE_TEXTO}. O conteúdo precisa ser do tipo declarado (conferido pelos primeiros bytes); guarda-se o SHA-256. Só com a cotação aberta. Depois use o \`id\` em \`evidenciaId\` do preço.`,
    request: { params },
    bodyLimit: { maxBytes: EVIDENCIA_MAX_BYTES + FOLGA_MULTIPART, message: `O arquivo passa do limite de ${LIMITE_TEXTO}.` },
    responses: {
      201: evidenciaSchema,
      400: { description: 'Sem arquivo, tipo não aceito ou conteúdo diferente do tipo' },
      409: { description: 'Cotação fechada' },
      413: { description: `Arquivo acima de ${LIMITE_TEXTO}` },
    },
    handler: async (c, ctx) => {
      const { id } = c.req.valid('param');
      await lerCotacao(ctx.db, ctx, id); // 404 before reading the body
      const falta = () => badRequest(`Escolha um arquivo (${TIPOS_TEXTO}).`, { arquivo: `Escolha um arquivo (${TIPOS_TEXTO}).` });
      if (!(c.req.header('content-type') ?? '').startsWith('multipart/form-data')) throw falta();
      let form: Record<string, unknown>;
      try {
        form = (await c.req.parseBody({ all: false })) as Record<string, unknown>;
      } catch {
        throw badRequest('Não foi possível ler o formulário enviado.', { arquivo: 'Envie o arquivo novamente.' });
      }
      const arquivo = form.arquivo;
      if (typeof arquivo !== 'object' || arquivo === null || typeof (arquivo as File).arrayBuffer !== 'function') throw falta();
      const file = arquivo as File;
      if (file.size === 0) throw falta();
      if (file.size > EVIDENCIA_MAX_BYTES) throw new AppError(413, 'payload_too_large', `O arquivo passa do limite de ${LIMITE_TEXTO}.`);
      const nome = cleanFileName(file.name, 'evidencia');
      const tipo = tipoDeclarado(file.type || '', nome);
      if (!(EVIDENCIA_TIPOS as readonly string[]).includes(tipo)) {
        throw badRequest(`Tipo de arquivo não aceito: envie ${TIPOS_TEXTO}.`, { arquivo: `Tipo de arquivo não aceito: envie ${TIPOS_TEXTO}.` });
      }
      const bytes = new Uint8Array(await file.arrayBuffer());
      if (!conteudoConfere(bytes, tipo as TipoEvidencia)) {
        const message = 'O conteúdo do arquivo não corresponde ao tipo informado: envie o arquivo original.';
        throw badRequest(message, { arquivo: message });
      }
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const evidencia = await ctx.mutate(async (tx, audit) => {
        await travarCotacao(tx, ctx, id, 'aberta');
        const [row] = await tx
          .insert(cotacaoEvidencias)
          .values({
            entidadeId: ctx.entidadeId,
            cotacaoId: id,
            nome,
            tipo,
            tamanho: bytes.length,
            sha256,
            conteudo: bytes,
            enviadoPor: ctx.user.id,
            enviadoPorNome: ctx.user.nome,
          })
          .returning({ id: cotacaoEvidencias.id });
        const out = { id: row!.id, nome, tipo, tamanho: bytes.length, sha256 };
        audit({ registro: id, acao: 'enviar_evidencia', depois: out });
        return out;
      });
      return c.json(evidencia, 201);
    },
  });

  router.route({
    method: 'get',
    path: '/cotacoes/:id/evidencias/:evidenciaId',
    tag,
    summary: 'Baixar a evidência de um preço',
    description:
      'Sempre como anexo (nunca exibida na página; um HTML guardado vai como application/octet-stream e não é executado), com o SHA-256 no cabeçalho `X-Content-SHA256`.',
    request: { params: evidenciaParams },
    responses: { 200: { description: 'O arquivo' }, 404: { description: 'Não encontrada' } },
    handler: async (c, ctx) => {
      const { id, evidenciaId } = c.req.valid('param');
      await lerCotacao(ctx.db, ctx, id);
      if (!UUID.test(evidenciaId)) throw notFound();
      const [ev] = await ctx.db
        .select()
        .from(cotacaoEvidencias)
        .where(and(eq(cotacaoEvidencias.id, evidenciaId), eq(cotacaoEvidencias.cotacaoId, id), eq(cotacaoEvidencias.entidadeId, ctx.entidadeId)));
      if (!ev) throw notFound();
      const ascii = ev.nome.replace(/[^\w.-]/g, '_');
      return c.body(ev.conteudo as never, 200, {
        // an HTML snapshot is downloaded as a file, never rendered in the application's origin
        'Content-Type': ev.tipo === 'text/html' ? 'application/octet-stream' : ev.tipo,
        'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(ev.nome)}`,
        'X-Content-Type-Options': 'nosniff',
        'X-Content-SHA256': ev.sha256,
        'Cache-Control': 'no-store',
      });
    },
  });

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
        await checarPreco(tx, id, input);
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
        await checarPreco(tx, id, input);
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
