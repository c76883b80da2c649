// drizzle mirrors of migrations/0001_registros.sql (the SQL is the source; test/schema-drift.test.ts
// checks these against it). Other plugins import them from '@app/registros/server' (to read registries,
// or reference them: `references: { grupoId: { table: grupos, … } }`) instead of declaring their own.
// The builders through the `pg` namespace: the .d.ts of the exported tables then names drizzle's types
// `pg.PgColumn`… from '@app/server-core/pg-core' (named imports make it write 'drizzle-orm/pg-core', which
// this package does not depend on).
import * as pg from '@app/server-core/pg-core';

const common = () => ({
  id: pg.uuid('id').primaryKey().defaultRandom(),
  entidadeId: pg.uuid('entidade_id').notNull(),
  ativo: pg.boolean('ativo').notNull().default(true),
  version: pg.integer('version').notNull().default(1),
  createdAt: pg.timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: pg.timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The generated search column (compras_busca(…) of the table's text columns; the expression is in the migration). */
const busca = () => pg.text('busca').generatedAlwaysAs(pg.generatedByMigration());

const catalogo = () => ({
  catalogoTipo: pg.text('catalogo_tipo').$type<'material' | 'servico'>(),
  catalogoCodigo: pg.text('catalogo_codigo'),
  catalogoNome: pg.text('catalogo_nome'),
});

export const grupos = pg.pgTable('registros_grupos', {
  ...common(),
  codigo: pg.text('codigo').notNull(),
  nome: pg.text('nome').notNull(),
  ...catalogo(),
  busca: busca(),
});

export const subgrupos = pg.pgTable('registros_subgrupos', {
  ...common(),
  grupoId: pg.uuid('grupo_id').notNull(),
  codigo: pg.text('codigo').notNull(),
  nome: pg.text('nome').notNull(),
  ...catalogo(),
  busca: busca(),
});

export const unidades = pg.pgTable('registros_unidades', {
  ...common(),
  sigla: pg.text('sigla').notNull(),
  descricao: pg.text('descricao').notNull(),
  fracionavel: pg.boolean('fracionavel').notNull().default(false),
  busca: busca(),
});

export const tiposMaterial = pg.pgTable('registros_tipos_material', {
  ...common(),
  nome: pg.text('nome').notNull(),
  descricao: pg.text('descricao'),
  busca: busca(),
});

export const centrosCusto = pg.pgTable('registros_centros_custo', {
  ...common(),
  codigo: pg.text('codigo').notNull(),
  nome: pg.text('nome').notNull(),
  parentId: pg.uuid('parent_id'),
  responsavelNome: pg.text('responsavel_nome'),
  busca: busca(),
});

export const nucleosConsumo = pg.pgTable('registros_nucleos_consumo', {
  ...common(),
  nome: pg.text('nome').notNull(),
  descricao: pg.text('descricao'),
  busca: busca(),
});

export const nucleoCentros = pg.pgTable(
  'registros_nucleo_centros',
  {
    nucleoId: pg.uuid('nucleo_id').notNull(),
    centroId: pg.uuid('centro_id').notNull(),
    entidadeId: pg.uuid('entidade_id').notNull(),
  },
  (t) => [pg.primaryKey({ columns: [t.nucleoId, t.centroId] })],
);

export const ramosAtividade = pg.pgTable('registros_ramos_atividade', {
  ...common(),
  nome: pg.text('nome').notNull(),
  cnae: pg.char('cnae', { length: 7 }),
  busca: busca(),
});

export const tiposSolicitacao = pg.pgTable('registros_tipos_solicitacao', {
  ...common(),
  nome: pg.text('nome').notNull(),
  descricao: pg.text('descricao'),
  prazoDias: pg.integer('prazo_dias'),
  busca: busca(),
});

export const cargos = pg.pgTable('registros_cargos', {
  ...common(),
  nome: pg.text('nome').notNull(),
  descricao: pg.text('descricao'),
  busca: busca(),
});
