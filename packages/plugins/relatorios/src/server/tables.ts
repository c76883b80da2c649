// drizzle mirror of migrations/0001_relatorios.sql (the SQL is the source; test/server/schema-drift.test.ts
// checks this against it).
import * as pg from '@app/server-core/pg-core';
import type { EstadoArquivo } from '../shared/index.js';

const bytea = pg.customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

export const relatoriosArquivos = pg.pgTable('relatorios_arquivos', {
  id: pg.uuid('id').primaryKey().defaultRandom(),
  entidadeId: pg.uuid('entidade_id').notNull(),
  usuarioId: pg.uuid('usuario_id').notNull(),
  relatorioId: pg.text('relatorio_id').notNull(),
  titulo: pg.text('titulo').notNull(),
  formato: pg.text('formato').$type<'pdf' | 'xlsx'>().notNull(),
  filtros: pg.jsonb('filtros').$type<Record<string, string>>().notNull().default({}),
  filtrosUsados: pg.jsonb('filtros_usados').$type<{ label: string; valor: string }[]>().notNull().default([]),
  estado: pg.text('estado').$type<EstadoArquivo>().notNull().default('na_fila'),
  fase: pg.text('fase').$type<'lendo' | 'montando' | 'gravando'>(),
  linhas: pg.integer('linhas').notNull().default(0),
  total: pg.integer('total'),
  erro: pg.text('erro'),
  jobId: pg.text('job_id'),
  nomeArquivo: pg.text('nome_arquivo'),
  tamanho: pg.integer('tamanho'),
  conteudo: bytea('conteudo'),
  createdAt: pg.timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: pg.timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  concluidoEm: pg.timestamp('concluido_em', { withTimezone: true }),
  expiraEm: pg.timestamp('expira_em', { withTimezone: true }),
});
