// Test fixtures: centros de custo, a tipo de solicitação, products (two in one grupo) and users of the
// Prefeitura created with SQL, so each test controls who belongs to which centro and perfil.
import memorandosPlugin from '@app/memorandos/server';
import produtosPlugin from '@app/produtos/server';
import registrosPlugin from '@app/registros/server';
import { type ServerPlugin, defineServerPlugin } from '@app/server-core';
import type { TestServer } from '@app/server-core/testing';
import requisicoesPlugin from '../../src/server/index.js';

export function withoutSeed(plugin: ServerPlugin): ServerPlugin {
  return defineServerPlugin({ ...plugin, seed: undefined });
}

export const plugins = [withoutSeed(registrosPlugin), withoutSeed(produtosPlugin), withoutSeed(memorandosPlugin), withoutSeed(requisicoesPlugin)];

export async function insert(server: Pick<TestServer, 'sql'>, table: string, values: Record<string, unknown>): Promise<string> {
  const keys = Object.keys(values);
  const [row] = await server.sql<{ id: string }>(
    `INSERT INTO ${table} (${keys.join(', ')}) VALUES (${keys.map((_k, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
    Object.values(values),
  );
  return row!.id;
}

export interface Fixture {
  entidadeId: string;
  educacao: string;
  saude: string;
  compras: string;
  tipo: string;
  /** Grupo A: papel and caneta; grupo B: cimento. */
  grupoA: string;
  grupoB: string;
  papel: string;
  caneta: string;
  cimento: string;
}

export async function createFixture(server: TestServer): Promise<Fixture> {
  const [pref] = await server.sql<{ id: string }>("SELECT id FROM entidades WHERE nome LIKE 'Prefeitura%'");
  const entidade_id = pref!.id;
  const grupoA = await insert(server, 'registros_grupos', { entidade_id, codigo: 'GA', nome: 'Material de expediente' });
  const grupoB = await insert(server, 'registros_grupos', { entidade_id, codigo: 'GB', nome: 'Material de construção' });
  const unidade = await insert(server, 'registros_unidades', { entidade_id, sigla: 'UN', descricao: 'Unidade' });
  const produto = (codigo: string, descricao: string, grupo: string) =>
    insert(server, 'produtos', { entidade_id, codigo, descricao, tipo: 'material', grupo_id: grupo, unidade_id: unidade });
  return {
    entidadeId: entidade_id,
    educacao: await insert(server, 'registros_centros_custo', { entidade_id, codigo: '02', nome: 'Secretaria de Educação' }),
    saude: await insert(server, 'registros_centros_custo', { entidade_id, codigo: '03', nome: 'Secretaria de Saúde' }),
    compras: await insert(server, 'registros_centros_custo', { entidade_id, codigo: '01.01', nome: 'Compras e Licitações' }),
    tipo: await insert(server, 'registros_tipos_solicitacao', { entidade_id, nome: 'Material de consumo' }),
    grupoA,
    grupoB,
    papel: await produto('000001', 'Papel sulfite A4', grupoA),
    caneta: await produto('000002', 'Caneta esferográfica azul', grupoA),
    cimento: await produto('000003', 'Cimento CP-II 50 kg', grupoB),
  };
}

/** A perfil of the Prefeitura (tag 39 by default). */
export function createPerfil(server: TestServer, fx: Fixture, nome: string, options: { todos?: boolean; tags?: number[] } = {}): Promise<string> {
  return insert(server, 'perfis', {
    entidade_id: fx.entidadeId,
    nome,
    tags: `{${(options.tags ?? [39]).join(',')}}`,
    todos_centros: options.todos ?? false,
  });
}

export interface User {
  token: string;
  id: string;
}

/** A user of the Prefeitura with password demo1234, the given perfil and centros. */
export async function createUser(server: TestServer, fx: Fixture, login: string, perfil: string, centros: string[] = []): Promise<User> {
  const [admin] = await server.sql<{ senha_hash: string }>("SELECT senha_hash FROM usuarios WHERE login = 'admin'");
  const id = await insert(server, 'usuarios', { nome: `Pessoa ${login}`, login, email: `${login}@exemplo.gov.br`, senha_hash: admin!.senha_hash });
  await server.sql('INSERT INTO usuario_entidades (usuario_id, entidade_id, perfil_id, centros_custo) VALUES ($1, $2, $3, $4)', [
    id,
    fx.entidadeId,
    perfil,
    `{${centros.join(',')}}`,
  ]);
  const { token } = await server.signIn(login, 'demo1234');
  return { token, id };
}

export type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };
