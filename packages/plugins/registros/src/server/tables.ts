// drizzle mirrors of migrations/0001_registros.sql (the SQL is the source; test/schema-drift.test.ts
// checks these against it). Other plugins import them from '@app/registros/server' (to read registries,
// or reference them: `references: { grupoId: { table: grupos, … } }`) instead of declaring their own.
import { boolean, char, generatedByMigration, integer, pgTable, primaryKey, text, timestamp, uuid } from '@app/server-core/pg-core';

const common = () => ({
  id: uuid('id').primaryKey().defaultRandom(),
  entidadeId: uuid('entidade_id').notNull(),
  ativo: boolean('ativo').notNull().default(true),
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The generated search column (compras_busca(…) of the table's text columns; the expression is in the migration). */
const busca = () => text('busca').generatedAlwaysAs(generatedByMigration());

const catalogo = () => ({
  catalogoTipo: text('catalogo_tipo').$type<'material' | 'servico'>(),
  catalogoCodigo: text('catalogo_codigo'),
  catalogoNome: text('catalogo_nome'),
});

export const grupos = pgTable('registros_grupos', {
  ...common(),
  codigo: text('codigo').notNull(),
  nome: text('nome').notNull(),
  ...catalogo(),
  busca: busca(),
});

export const subgrupos = pgTable('registros_subgrupos', {
  ...common(),
  grupoId: uuid('grupo_id').notNull(),
  codigo: text('codigo').notNull(),
  nome: text('nome').notNull(),
  ...catalogo(),
  busca: busca(),
});

export const unidades = pgTable('registros_unidades', {
  ...common(),
  sigla: text('sigla').notNull(),
  descricao: text('descricao').notNull(),
  fracionavel: boolean('fracionavel').notNull().default(false),
  busca: busca(),
});

export const tiposMaterial = pgTable('registros_tipos_material', {
  ...common(),
  nome: text('nome').notNull(),
  descricao: text('descricao'),
  busca: busca(),
});

export const centrosCusto = pgTable('registros_centros_custo', {
  ...common(),
  codigo: text('codigo').notNull(),
  nome: text('nome').notNull(),
  parentId: uuid('parent_id'),
  responsavelNome: text('responsavel_nome'),
  busca: busca(),
});

export const nucleosConsumo = pgTable('registros_nucleos_consumo', {
  ...common(),
  nome: text('nome').notNull(),
  descricao: text('descricao'),
  busca: busca(),
});

export const nucleoCentros = pgTable(
  'registros_nucleo_centros',
  {
    nucleoId: uuid('nucleo_id').notNull(),
    centroId: uuid('centro_id').notNull(),
    entidadeId: uuid('entidade_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.nucleoId, t.centroId] })],
);

export const ramosAtividade = pgTable('registros_ramos_atividade', {
  ...common(),
  nome: text('nome').notNull(),
  cnae: char('cnae', { length: 7 }),
  busca: busca(),
});

export const tiposSolicitacao = pgTable('registros_tipos_solicitacao', {
  ...common(),
  nome: text('nome').notNull(),
  descricao: text('descricao'),
  prazoDias: integer('prazo_dias'),
  busca: busca(),
});

export const cargos = pgTable('registros_cargos', {
  ...common(),
  nome: text('nome').notNull(),
  descricao: text('descricao'),
  busca: busca(),
});
