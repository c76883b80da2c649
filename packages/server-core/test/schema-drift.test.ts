// server-core's drizzle tables (src/db/schema.ts) against the database its migrations build, and the
// drift check itself: every kind of difference it claims to find, it finds.
import { sql } from 'drizzle-orm';
import { bigint, boolean, char, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';
import { expect, it } from 'vitest';
import * as coreTables from '../src/platform/db/schema.js';
import { generatedByMigration } from '../src/pg-core.js';
import { checkSchemaDrift, describeEachDatabase } from '../src/testing.js';

describeEachDatabase('schema drift', { seed: false }, (t) => {
  it('every drizzle table of server-core matches its migration', async () => {
    expect(await checkSchemaDrift(t.server, coreTables)).toEqual([]);
  });

  it('a faithful declaration of a fixture table passes, in any spelling of types, defaults and expressions', async () => {
    await t.server.sql(`CREATE TABLE drift_fixture (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      codigo varchar(14) NOT NULL,
      uf char(2),
      valor numeric(17, 2) NOT NULL DEFAULT 0,
      ativo boolean NOT NULL DEFAULT true,
      tags integer[] NOT NULL DEFAULT '{}',
      contatos jsonb NOT NULL DEFAULT '[]'::jsonb,
      status text NOT NULL DEFAULT 'rascunho',
      criado timestamptz NOT NULL DEFAULT now(),
      busca text GENERATED ALWAYS AS (compras_busca(codigo || ' ' || coalesce(uf, ''))) STORED
    )`);
    await t.server.sql('CREATE TABLE drift_pair (a uuid NOT NULL, b uuid NOT NULL, n bigint GENERATED ALWAYS AS IDENTITY, PRIMARY KEY (a, b))');
    const fixture = pgTable('drift_fixture', {
      id: uuid('id').primaryKey().defaultRandom(),
      codigo: varchar('codigo', { length: 14 }).notNull(),
      uf: char('uf', { length: 2 }),
      valor: numeric('valor', { precision: 17, scale: 2 }).notNull().default('0'),
      ativo: boolean('ativo').notNull().default(true),
      tags: integer('tags').array().notNull().default(sql`'{}'`),
      contatos: jsonb('contatos').notNull().default([]),
      status: text('status').notNull().default('rascunho'),
      criado: timestamp('criado', { withTimezone: true }).notNull().defaultNow(),
      busca: text('busca').generatedAlwaysAs(sql.raw("compras_busca(codigo||' '||coalesce(uf,''))")),
    });
    const pair = pgTable(
      'drift_pair',
      { a: uuid('a').notNull(), b: uuid('b').notNull(), n: bigint('n', { mode: 'number' }).generatedAlwaysAsIdentity() },
      (p) => [primaryKey({ columns: [p.a, p.b] })],
    );
    expect(await checkSchemaDrift(t.server, { fixture, pair, notATable: 42 })).toEqual([]);
  });

  it('reports each difference on one readable line', async () => {
    const drifted = pgTable('drift_fixture', {
      id: uuid('id').primaryKey(),
      codigo: text('codigo').notNull(),
      uf: char('uf', { length: 2 }).notNull(),
      valor: numeric('valor', { precision: 15, scale: 4 }).notNull().default('1'),
      ativo: boolean('ativo').notNull().default(true),
      tags: integer('tags').array().notNull().default(sql`'{}'`),
      contatos: jsonb('contatos').notNull(),
      criado: timestamp('criado', { withTimezone: true }).notNull().defaultNow(),
      busca: text('busca').generatedAlwaysAs(sql.raw("compras_busca(codigo || ' ' || uf)")),
      extra: text('extra'),
    });
    const plain = pgTable('drift_pair', { a: uuid('a').notNull(), b: uuid('b').notNull().primaryKey(), n: bigint('n', { mode: 'number' }) });
    const missing = pgTable('drift_absent', { id: uuid('id').primaryKey() });
    const readOnly = pgTable('drift_fixture', { id: uuid('id').primaryKey(), busca: text('busca') });
    const broken = pgTable('drift_fixture', { id: uuid('id').primaryKey(), busca: text('busca').generatedAlwaysAs(sql.raw('no_such_function(codigo)')) });
    const problems = await checkSchemaDrift(t.server, [drifted, plain, missing]);
    expect(problems).toEqual([
      'drift_fixture.status: in the database (text), not declared in drizzle',
      'drift_fixture.codigo: type text in drizzle, character varying(14) in the database',
      'drift_fixture.uf: NOT NULL in drizzle, nullable in the database',
      'drift_fixture.valor: type numeric(15,4) in drizzle, numeric(17,2) in the database',
      "drift_fixture.valor: default '1'::numeric in drizzle, 0 in the database",
      "drift_fixture.busca: generated as compras_busca((((codigo)::text || ' '::text) || (uf)::text)) in drizzle, as compras_busca((((codigo)::text || ' '::text) || (COALESCE(uf, ''::bpchar))::text)) in the database",
      'drift_fixture.extra: declared in drizzle (text), no such column in the database',
      'drift_pair.a: not part of the primary key in drizzle, part of it in the database',
      'drift_pair.n: nullable in drizzle, NOT NULL in the database',
      'drift_pair.n: no identity in drizzle, GENERATED ALWAYS AS IDENTITY in the database',
      'drift_absent: declared in drizzle, no such table in the database',
    ]);
    const more = await checkSchemaDrift(t.server, [readOnly]);
    expect(more.filter((p) => p.includes('busca'))).toEqual([
      "drift_fixture.busca: generated in the database (compras_busca((((codigo)::text || ' '::text) || (COALESCE(uf, ''::bpchar))::text))), a plain column in drizzle (it would be written)",
    ]);
    const marked = pgTable('drift_fixture', { id: uuid('id').primaryKey(), busca: text('busca').generatedAlwaysAs(generatedByMigration()) });
    expect((await checkSchemaDrift(t.server, [marked])).filter((p) => p.includes('busca'))).toEqual([]);
    const markedPlain = pgTable('drift_fixture', { id: uuid('id').primaryKey(), status: text('status').notNull().generatedAlwaysAs(generatedByMigration()) });
    expect((await checkSchemaDrift(t.server, [markedPlain])).filter((p) => p.includes('.status'))).toEqual([
      `drift_fixture.status: generated in drizzle (/* generated: the expression is in the migration */ NULL), a plain column in the database`,
    ]);
    const [compile] = (await checkSchemaDrift(t.server, [broken])).filter((p) => p.includes('busca'));
    expect(compile).toMatch(/^drift_fixture\.busca: the generation expression of drizzle \(no_such_function\(codigo\)\) does not compile: .*no_such_function/);
  });
});
