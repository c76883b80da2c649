// Drizzle mirrors of the core tables this plugin administers, with the `version` column its
// migration adds (server-core's own mirrors do not know it). The SQL migrations are the source of truth.
import { sql } from '@app/server-core/orm';
import { boolean, char, integer, pgTable, text, timestamp, uuid } from '@app/server-core/pg-core';

export const usuariosT = pgTable('usuarios', {
  id: uuid('id').primaryKey().defaultRandom(),
  nome: text('nome').notNull(),
  login: text('login').notNull(),
  email: text('email').notNull(),
  cpf: char('cpf', { length: 11 }),
  cargo: text('cargo'),
  senhaHash: text('senha_hash').notNull(),
  ativo: boolean('ativo').notNull().default(true),
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const perfisT = pgTable('perfis', {
  id: uuid('id').primaryKey().defaultRandom(),
  entidadeId: uuid('entidade_id').notNull(),
  nome: text('nome').notNull(),
  tags: integer('tags').array().notNull().default(sql`'{}'`),
  version: integer('version').notNull().default(1),
});
