// Drizzle mirrors of the core tables created by migrations/*.sql (the SQL files are the source of
// truth; these declarations only give plugins and core typed queries).
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, char, customType, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const entidades = pgTable('entidades', {
  id: uuid('id').primaryKey().defaultRandom(),
  nome: text('nome').notNull(),
  cnpj: char('cnpj', { length: 14 }).notNull().unique(),
  municipio: text('municipio'),
  uf: char('uf', { length: 2 }),
  telefoneSuporte: text('telefone_suporte'),
  logo: text('logo'),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});

export const usuarios = pgTable(
  'usuarios',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    nome: text('nome').notNull(),
    login: text('login').notNull(),
    email: text('email').notNull(),
    cpf: char('cpf', { length: 11 }),
    cargo: text('cargo'),
    senhaHash: text('senha_hash').notNull(),
    ativo: boolean('ativo').notNull().default(true),
    version: integer('version').notNull().default(1),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('usuarios_login_key').on(sql`lower(${t.login})`)],
);

export const perfis = pgTable('perfis', {
  id: uuid('id').primaryKey().defaultRandom(),
  entidadeId: uuid('entidade_id')
    .notNull()
    .references(() => entidades.id, { onDelete: 'cascade' }),
  nome: text('nome').notNull(),
  tags: integer('tags').array().notNull().default(sql`'{}'`),
  /** Users of this perfil see the documents of every centro de custo (migration 0010). */
  todosCentros: boolean('todos_centros').notNull().default(false),
  version: integer('version').notNull().default(1),
});

export const usuarioEntidades = pgTable(
  'usuario_entidades',
  {
    usuarioId: uuid('usuario_id')
      .notNull()
      .references(() => usuarios.id, { onDelete: 'cascade' }),
    entidadeId: uuid('entidade_id')
      .notNull()
      .references(() => entidades.id, { onDelete: 'cascade' }),
    perfilId: uuid('perfil_id').notNull(),
    /**
     * Ids of registros_centros_custo of this entidade the user belongs to (migration 0010). No FK on
     * the elements: the usuarios plugin validates them on write; a stale id grants nothing.
     */
    centrosCusto: uuid('centros_custo').array().notNull().default(sql`'{}'`),
  },
  (t) => [primaryKey({ columns: [t.usuarioId, t.entidadeId] })],
);

export const sessoes = pgTable('sessoes', {
  id: uuid('id').primaryKey().defaultRandom(),
  usuarioId: uuid('usuario_id')
    .notNull()
    .references(() => usuarios.id, { onDelete: 'cascade' }),
  entidadeId: uuid('entidade_id')
    .notNull()
    .references(() => entidades.id, { onDelete: 'cascade' }),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  lastSeenAt: timestamptz('last_seen_at').notNull().defaultNow(),
  revokedAt: timestamptz('revoked_at'),
  ip: text('ip'),
  userAgent: text('user_agent'),
  /** Time of the password sign-in the session descends from (absolute lifetime counts from it). */
  authenticatedAt: timestamptz('authenticated_at').notNull().defaultNow(),
  /** 'sair', 'trocar_entidade', 'senha_redefinida', 'senha_alterada'. */
  revokedReason: text('revoked_reason'),
});

/** Sliding-window throttling: one row per counted attempt or reservation (see throttle.ts). */
export const loginAttempts = pgTable('login_attempts', {
  id: bigint('id', { mode: 'number' }).generatedAlwaysAsIdentity(),
  key: text('key').notNull(),
  at: timestamptz('at').notNull(),
});

/** Refused and blocked sign-ins counted per (login, address, window), outside the audit chain (throttle.ts). */
export const tentativasEntrada = pgTable(
  'tentativas_entrada',
  {
    login: text('login').notNull(),
    ip: text('ip').notNull(),
    janela: timestamptz('janela').notNull(),
    usuarioId: uuid('usuario_id'),
    falhas: integer('falhas').notNull().default(0),
    bloqueios: integer('bloqueios').notNull().default(0),
    primeiraEm: timestamptz('primeira_em').notNull(),
    ultimaEm: timestamptz('ultima_em').notNull(),
  },
  (t) => [primaryKey({ columns: [t.login, t.ip, t.janela] })],
);

/** Recovery links: sha256 (hex) of the token, single use. */
export const passwordResets = pgTable('password_resets', {
  id: uuid('id').primaryKey().defaultRandom(),
  usuarioId: uuid('usuario_id')
    .notNull()
    .references(() => usuarios.id, { onDelete: 'cascade' }),
  tokenHash: char('token_hash', { length: 64 }).notNull().unique(),
  createdAt: timestamptz('created_at').notNull(),
  expiresAt: timestamptz('expires_at').notNull(),
  usedAt: timestamptz('used_at'),
  ip: text('ip'),
});

/** E-mails kept instead of sent (no SMTP configured, or sending failed). */
export const outbox = pgTable('outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  to: text('to_address').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  usuarioId: uuid('usuario_id').references(() => usuarios.id, { onDelete: 'set null' }),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/** Files of an outbox message (MailMessage.attachments), in its order. */
export const outboxAnexos = pgTable(
  'outbox_anexos',
  {
    outboxId: bigint('outbox_id', { mode: 'number' })
      .notNull()
      .references(() => outbox.id, { onDelete: 'cascade' }),
    ordem: integer('ordem').notNull(),
    nome: text('nome').notNull(),
    tipo: text('tipo').notNull(),
    tamanho: integer('tamanho').notNull(),
    conteudo: bytea('conteudo').notNull(),
  },
  (t) => [primaryKey({ columns: [t.outboxId, t.ordem] })],
);

export const appConfig = pgTable('app_config', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/**
 * Append-only (UPDATE/DELETE/TRUNCATE raise). `id`, `prev_hash` and `hash` are set by the database on
 * INSERT; write rows only through `ctx.mutate(async (tx, audit) => ...)`.
 */
export const auditLog = pgTable('audit_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  at: timestamptz('at').notNull().defaultNow(),
  usuarioId: uuid('usuario_id'),
  entidadeId: uuid('entidade_id'),
  plugin: text('plugin').notNull(),
  registro: text('registro'),
  acao: text('acao').notNull(),
  antes: jsonb('antes'),
  depois: jsonb('depois'),
  ip: text('ip'),
  prevHash: text('prev_hash'),
  /** Computed by the BEFORE INSERT trigger (no database default): '' only fills the NOT NULL type. */
  hash: text('hash')
    .notNull()
    .$defaultFn(() => ''),
});

/** Migrations applied, per plugin ('core' for server-core's own). Created by the migration runner. */
export const migrationsTable = pgTable(
  '_migrations',
  {
    plugin: text('plugin').notNull(),
    name: text('name').notNull(),
    appliedAt: timestamptz('applied_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.plugin, t.name] })],
);

/**
 * Authors of documents (migrations/0012_documento_autores.sql), written by the document kit: 'autor'
 * (created it), 'editor' (changed it), 'remetente' (sent it), 'fonte' (wrote a document it was made from).
 */
export const documentoAutores = pgTable(
  'documento_autores',
  {
    entidadeId: uuid('entidade_id')
      .notNull()
      .references(() => entidades.id, { onDelete: 'cascade' }),
    documentoId: uuid('documento_id').notNull(),
    usuarioId: uuid('usuario_id')
      .notNull()
      .references(() => usuarios.id, { onDelete: 'cascade' }),
    /** 'autor' | 'editor' | 'remetente' | 'fonte' */
    papel: text('papel').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.documentoId, t.usuarioId, t.papel] })],
);

/**
 * Verification codes of issued PDFs (migrations/0013_verificacao_documentos.sql), written by the
 * document kit when a PDF is issued (documents/verification.ts); rows never change.
 */
export const documentoVerificacoes = pgTable('documento_verificacoes', {
  /** 12 characters (A–Z without I and O, 2–9), without the dashes printed. */
  codigo: text('codigo').primaryKey(),
  entidadeId: uuid('entidade_id')
    .notNull()
    .references(() => entidades.id, { onDelete: 'cascade' }),
  plugin: text('plugin').notNull(),
  tipo: text('tipo').notNull(),
  documentoId: uuid('documento_id').notNull(),
  titulo: text('titulo').notNull(),
  numero: text('numero').notNull(),
  status: text('status'),
  /** SHA-256 (hex) of the canonical JSON of the content printed. */
  conteudoHash: char('conteudo_hash', { length: 64 }).notNull(),
  emitidoPor: uuid('emitido_por').references(() => usuarios.id, { onDelete: 'set null' }),
  emitidoEm: timestamptz('emitido_em').notNull().defaultNow(),
});
