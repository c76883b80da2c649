// Verification codes of issued PDFs: every PDF of the document kit (and every plugin PDF issued with
// issueVerifiedPdf) records who issued which document with which content, and prints a code anyone can
// check on a public page, without signing in.
//
// The rule, as an auditor reads it:
// - Each PDF issued gets a new code of 12 characters ('ABCD-EFGH-JKLM': letters without I and O,
//   digits 2–9; 60 random bits), printed in the footer of every page with the start of the content
//   hash and the address of the verification page (<PUBLIC_URL>/verificar).
// - The content hash is the SHA-256 of the canonical JSON (keys sorted) of what the PDF prints: the
//   entidade, title, number, status, facts, items, blocks, texts and signatures. Not of the PDF bytes:
//   they carry the generation time, so two prints of the same content would differ.
// - GET /api/verificar/:codigo (public, failures throttled per address like sign-in) answers only what
//   the printed document already shows: the entidade, the document, its number, the status printed,
//   when it was issued (dd/mm/aaaa hh:mm, São Paulo), the hash, and whether the document's content
//   today is still the one printed ('o documento foi alterado depois desta emissão'). Never who issued
//   it, nor any e-mail, CPF or other personal data. An unknown code is 404.
// - Issuing a PDF is a read: it is recorded in documento_verificacoes only, not in the audit trail.
import { createHash, randomInt } from 'node:crypto';
import { formatDateTime } from '@app/br';
import { z } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import type { PluginContext, RequestContext } from '../../platform/context.js';
import { documentoVerificacoes, entidades, usuarios } from '../../platform/db/schema.js';
import type { DbOrTx } from '../../platform/db/types.js';
import { AppError } from '../../platform/errors.js';
import { type PdfDocument, renderDocumentPdf } from '../../formats/pdf.js';
import { type PluginRouter, errorResponseSchema } from '../../platform/router.js';
import type { Runtime } from '../../platform/runtime.js';
import { pruneAttempts, releaseAttempts, reserveAttempt, tooManyAttempts } from '../../platform/throttle.js';

/** The 32 characters of a code: no I, O, 0 nor 1 (nothing to confuse when typed from paper). */
export const VERIFICATION_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 12;
const CODE = /^[A-HJ-NP-Z2-9]{12}$/;

/** A new random code, 12 characters without dashes (stored so). */
export function newVerificationCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += VERIFICATION_ALPHABET[randomInt(VERIFICATION_ALPHABET.length)];
  return code;
}

/** 'ABCDEFGHJKLM' → 'ABCD-EFGH-JKLM' (as printed). */
export function formatVerificationCode(code: string): string {
  return code.replace(/(.{4})(?=.)/g, '$1-');
}

/** What a person typed ('abcd efgh-jklm') → the stored code, or null when it cannot be one. */
export function parseVerificationCode(text: string): string | null {
  const code = text
    .toUpperCase()
    .replace(/[\s\-–—.]/g, '')
    .slice(0, 40);
  return CODE.test(code) ? code : null;
}

/** JSON with object keys sorted at every level and undefined left out: the same value, the same text. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** What a PDF prints, without its generation time and its verification line. */
export type VerifiableContent = Omit<PdfDocument, 'generatedAt' | 'verification'>;

/** SHA-256 (hex) of the canonical JSON of the content a PDF prints (generation time and verification line left out). */
export function documentContentHash(doc: VerifiableContent | PdfDocument): string {
  const { generatedAt: _g, verification: _v, ...content } = doc as PdfDocument;
  return createHash('sha256').update(canonicalJson(content), 'utf8').digest('hex');
}

/** When and by whom a PDF was issued, for a document that prints it ('Gerado por Ana em 27/11/2026 09:41'). */
export interface VerifiableIssue {
  em: Date;
  /** Name of who issued it (today's name of the user; '' when unknown). Never shown by the public route. */
  por: string;
}

/**
 * Reads, for the public verification, the content a document would print today (null when it no
 * longer exists). Given the entidade and a context without a person (every centro de custo), and the
 * issue being checked (for documents that print when and by whom they were generated).
 */
export type VerifiableReader = (ctx: RequestContext, documentoId: string, issue: VerifiableIssue) => Promise<VerifiableContent | null>;

// Kind of document → how its current content is read. Filled when the routes are declared (the kit's
// PDF route, issueVerifiedPdf's callers through registerVerifiableDocument); the functions read only
// through the context they are given, so servers in one process may share them.
const readers = new Map<string, VerifiableReader>();

/** Declares how the verification page reads the current content of a kind of document (to say whether it changed). */
export function registerVerifiableDocument(tipo: string, reader: VerifiableReader): void {
  readers.set(tipo, reader);
}

// The address printed on the PDFs, per database (one per server).
const publicUrls = new WeakMap<object, string>();

/** The verification page's address for the server of `db`. */
export function verificationUrl(db: DbOrTx): string {
  return `${publicUrls.get(db) ?? (process.env.PUBLIC_URL || 'http://localhost:3000').replace(/\/+$/, '')}/verificar`;
}

export interface VerifiedPdfInput {
  /** Plugin that issues it (documento_verificacoes.plugin). */
  plugin: string;
  /** Kind of document ('requisicoes/requisicoes', 'cotacoes/memoria'): the key of its reader. */
  tipo: string;
  documentoId: string;
  /** The complete document, as for renderDocumentPdf. */
  doc: PdfDocument;
  /** The issue time the document prints, if it prints one (recorded exactly; default: now). */
  emitidoEm?: Date;
}

type RenderRest = Parameters<typeof renderDocumentPdf> extends [unknown, ...infer R] ? R : [];

/**
 * Renders `doc` with a new verification code in its footer and records the code (entidade, document,
 * number, status printed, content hash, who, when) once the PDF exists. A read: not audited.
 */
export async function issueVerifiedPdf(ctx: RequestContext, input: VerifiedPdfInput, ...render: RenderRest): Promise<Uint8Array> {
  const { doc } = input;
  const hash = documentContentHash(doc);
  const codigo = newVerificationCode();
  const bytes = await renderDocumentPdf(
    { ...doc, verification: { code: formatVerificationCode(codigo), url: verificationUrl(ctx.db), hash } },
    ...(render as []),
  );
  await ctx.db.insert(documentoVerificacoes).values({
    codigo,
    entidadeId: ctx.entidadeId,
    plugin: input.plugin,
    tipo: input.tipo,
    documentoId: input.documentoId,
    titulo: clip(doc.subtitle ? `${doc.title} — ${doc.subtitle}` : doc.title, 300),
    numero: clip(doc.numero, 60),
    status: doc.status === undefined ? null : clip(doc.status, 120),
    conteudoHash: hash,
    emitidoPor: ctx.user.id,
    ...(input.emitidoEm ? { emitidoEm: input.emitidoEm } : {}),
  });
  return bytes;
}

const clip = (text: string, max: number) => {
  const chars = [...String(text ?? '')];
  return chars.length <= max ? chars.join('') : chars.slice(0, max).join('');
};

/** A context for reading a document of `entidadeId` as it is, for no one in particular (every centro de custo, no tag). */
function readingContext(base: PluginContext, entidadeId: string): RequestContext {
  return {
    ...base,
    user: { id: '00000000-0000-0000-0000-000000000000', nome: 'Verificação', login: '', email: '' },
    entidadeId,
    sessionId: '',
    tags: [],
    ip: null,
    hasTag: () => false,
    centrosCusto: [],
    todosCentros: true,
    mutate: () => {
      throw new Error('verification: reading only');
    },
  };
}

export const verificationAnswerSchema = z
  .object({
    codigo: z.string().openapi({ example: 'ABCD-EFGH-JKLM' }),
    entidade: z.string(),
    documento: z.string().openapi({ example: 'Requisição' }),
    numero: z.string().openapi({ example: '8/2026' }),
    status: z.string().nullable(),
    /** dd/mm/aaaa hh:mm, America/Sao_Paulo */
    emitidoEm: z.string().openapi({ example: '27/11/2026 09:41' }),
    conteudoHash: z.string(),
    /** true: the content today differs from the one printed; null: it could not be compared. */
    alterado: z.boolean().nullable(),
    situacao: z.string(),
  })
  .openapi('VerificacaoDocumento');

export const VERIFICATION_NOT_FOUND = 'Código de verificação não encontrado. Confira o código impresso no documento.';
export const VERIFICATION_CHANGED = 'O documento foi alterado depois desta emissão: o conteúdo atual é diferente do impresso.';
export const VERIFICATION_SAME = 'O conteúdo atual do documento é o mesmo desta emissão.';
export const VERIFICATION_GONE = 'O documento foi excluído depois desta emissão.';
export const VERIFICATION_UNKNOWN = 'Não foi possível comparar com o conteúdo atual do documento.';

const verifyIpKey = (ip: string) => `verificar-ip:${ip}`;

/** GET /api/verificar/:codigo (public). Called by server-core's own routes. */
export function registerVerificationRoutes(router: PluginRouter, runtime: Runtime): void {
  const { db } = runtime.database;
  publicUrls.set(db, runtime.publicUrl);
  router.route({
    method: 'get',
    path: '/api/verificar/:codigo',
    public: true,
    summary: 'Verificar um documento emitido (código do rodapé do PDF)',
    description:
      'Público, sem token. Responde a entidade, o documento, o número, a situação impressa, quando foi emitido e o resumo SHA-256 do conteúdo, ' +
      'e se o documento foi alterado depois da emissão. Nenhum dado pessoal além do que o documento impresso mostra. ' +
      `Código desconhecido: 404; muitas consultas de códigos desconhecidos do mesmo endereço (${runtime.throttle.ipMaxFailures} em 15 minutos): 429.`,
    request: { params: z.object({ codigo: z.string().max(100) }) },
    responses: {
      200: verificationAnswerSchema,
      404: { description: 'Código não encontrado', schema: errorResponseSchema },
      429: { description: 'Muitas consultas sem resultado deste endereço; Retry-After em segundos', schema: errorResponseSchema },
    },
    handler: async (c, ctx) => {
      const codigo = parseVerificationCode(c.req.valid('param').codigo);
      // only unknown codes count against the address (a reservation released when the code exists)
      let reserved: number[] = [];
      if (ctx.ip) {
        const now = runtime.clock.now();
        const reservation = await reserveAttempt(
          db,
          [{ key: verifyIpKey(ctx.ip), max: runtime.throttle.ipMaxFailures, motivo: 'ip' }],
          now,
          runtime.throttle.windowMs,
        );
        if (reservation.block) throw tooManyAttempts(reservation.block);
        reserved = reservation.ids;
        await pruneAttempts(db, now, runtime.throttle.windowMs);
      }
      const [row] = codigo
        ? await db
            .select({
              codigo: documentoVerificacoes.codigo,
              entidadeId: documentoVerificacoes.entidadeId,
              entidade: entidades.nome,
              tipo: documentoVerificacoes.tipo,
              documentoId: documentoVerificacoes.documentoId,
              titulo: documentoVerificacoes.titulo,
              numero: documentoVerificacoes.numero,
              status: documentoVerificacoes.status,
              conteudoHash: documentoVerificacoes.conteudoHash,
              emitidoEm: documentoVerificacoes.emitidoEm,
              emitidoPorNome: usuarios.nome,
            })
            .from(documentoVerificacoes)
            .innerJoin(entidades, eq(entidades.id, documentoVerificacoes.entidadeId))
            .leftJoin(usuarios, eq(usuarios.id, documentoVerificacoes.emitidoPor))
            .where(eq(documentoVerificacoes.codigo, codigo))
            .limit(1)
        : [];
      if (!row) throw new AppError(404, 'not_found', VERIFICATION_NOT_FOUND);
      await releaseAttempts(db, reserved);
      let alterado: boolean | null = null;
      let situacao = VERIFICATION_UNKNOWN;
      const reader = readers.get(row.tipo);
      if (reader) {
        try {
          const current = await reader(readingContext(ctx, row.entidadeId), row.documentoId, { em: row.emitidoEm, por: row.emitidoPorNome ?? '' });
          if (current === null) {
            alterado = true;
            situacao = VERIFICATION_GONE;
          } else {
            alterado = documentContentHash(current) !== row.conteudoHash;
            situacao = alterado ? VERIFICATION_CHANGED : VERIFICATION_SAME;
          }
        } catch (err) {
          runtime.logger.warn(`verificar ${row.tipo}: the current content could not be read (${(err as Error).message})`);
        }
      }
      return c.json(
        {
          codigo: formatVerificationCode(row.codigo),
          entidade: row.entidade,
          documento: row.titulo,
          numero: row.numero,
          status: row.status,
          emitidoEm: formatDateTime(row.emitidoEm),
          conteudoHash: row.conteudoHash,
          alterado,
          situacao,
        },
        200,
      );
    },
  });
}
