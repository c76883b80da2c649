// drizzle mirror of migrations/0001_relatorios.sql and 0002_relatorios_partes.sql (the SQL is the source; test/server/schema-drift.test.ts
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
  /** The file of one kept before the parts (0002); null since. */
  conteudo: bytea('conteudo'),
  /** How many parts (relatorios_arquivos_partes) the ready file has. */
  partes: pg.integer('partes'),
  createdAt: pg.timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: pg.timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  concluidoEm: pg.timestamp('concluido_em', { withTimezone: true }),
  expiraEm: pg.timestamp('expira_em', { withTimezone: true }),
});

/** A ready file in parts of 256 KiB (n from 0), deleted with its file. */
export const relatoriosArquivosPartes = pg.pgTable(
  'relatorios_arquivos_partes',
  {
    arquivoId: pg.uuid('arquivo_id').notNull(),
    n: pg.integer('n').notNull(),
    dados: bytea('dados').notNull(),
  },
  (t) => [pg.primaryKey({ columns: [t.arquivoId, t.n] })],
);
