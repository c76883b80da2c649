// Test fixtures: centros de custo, products and users of the Prefeitura created with SQL, so each
// test controls who belongs to which centro.
import produtosPlugin from '@app/produtos/server';
import registrosPlugin from '@app/registros/server';
import { type ServerPlugin, defineServerPlugin } from '@app/server-core';
import type { TestServer } from '@app/server-core/testing';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import memorandosPlugin from '../../src/server/index.js';

/** The plugin without its demo seed (tests create their own rows). */
export function withoutSeed(plugin: ServerPlugin): ServerPlugin {
  return defineServerPlugin({ ...plugin, seed: undefined });
}

export const plugins = [withoutSeed(registrosPlugin), withoutSeed(produtosPlugin), withoutSeed(memorandosPlugin)];

export async function insert(server: TestServer, table: string, values: Record<string, unknown>): Promise<string> {
  const keys = Object.keys(values);
  const [row] = await server.sql<{ id: string }>(
    `INSERT INTO ${table} (${keys.join(', ')}) VALUES (${keys.map((_k, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
    Object.values(values),
  );
  return row!.id;
}

export interface Fixture {
  entidadeId: string;
  camaraId: string;
  /** Centros de custo: educação (origin of most tests), saúde (someone else's), compras (destination). */
  educacao: string;
  saude: string;
  compras: string;
  inativo: string;
  /** Products: papel, caneta, toner (active), antigo (inactive), and one of the Câmara. */
  papel: string;
  caneta: string;
  toner: string;
  antigo: string;
  daCamara: string;
}

export async function createFixture(server: TestServer): Promise<Fixture> {
  const [pref] = await server.sql<{ id: string }>("SELECT id FROM entidades WHERE nome LIKE 'Prefeitura%'");
  const [cam] = await server.sql<{ id: string }>("SELECT id FROM entidades WHERE nome LIKE 'Câmara%'");
  const produto = async (entidade_id: string, codigo: string, descricao: string, ativo = true) => {
    const grupo = await insert(server, 'registros_grupos', { entidade_id, codigo: `G${codigo}`, nome: `Grupo ${codigo}` });
    const unidade = await insert(server, 'registros_unidades', { entidade_id, sigla: `U${codigo}`, descricao: `Unidade ${codigo}` });
    return insert(server, 'produtos', { entidade_id, codigo, descricao, tipo: 'material', grupo_id: grupo, unidade_id: unidade, ativo });
  };
  const entidade_id = pref!.id;
  return {
    entidadeId: entidade_id,
    camaraId: cam!.id,
    educacao: await insert(server, 'registros_centros_custo', { entidade_id, codigo: '02', nome: 'Secretaria de Educação' }),
    saude: await insert(server, 'registros_centros_custo', { entidade_id, codigo: '03', nome: 'Secretaria de Saúde' }),
    compras: await insert(server, 'registros_centros_custo', { entidade_id, codigo: '01.01', nome: 'Compras e Licitações' }),
    inativo: await insert(server, 'registros_centros_custo', { entidade_id, codigo: '09', nome: 'Extinto', ativo: false }),
    papel: await produto(entidade_id, '000001', 'Papel sulfite A4, resma 500 folhas'),
    caneta: await produto(entidade_id, '000002', 'Caneta esferográfica azul'),
    toner: await produto(entidade_id, '000003', 'Toner para impressora laser'),
    antigo: await produto(entidade_id, '000004', 'Disquete 3,5"', false),
    daCamara: await produto(cam!.id, '000001', 'Papel sulfite A4 da Câmara'),
  };
}

/**
 * A user of the Prefeitura with password demo1234, a perfil holding tag 29 and the given centros
 * (or every centro with `todos`). Returns the token and the user's id.
 */
export async function createUser(
  server: TestServer,
  fx: Fixture,
  login: string,
  nome: string,
  options: { centros?: string[]; todos?: boolean; tags?: number[] } = {},
): Promise<{ token: string; id: string }> {
  const [admin] = await server.sql<{ senha_hash: string }>("SELECT senha_hash FROM usuarios WHERE login = 'admin'");
  const perfil = await insert(server, 'perfis', {
    entidade_id: fx.entidadeId,
    nome: `Perfil de ${login}`,
    tags: `{${(options.tags ?? [29]).join(',')}}`,
    todos_centros: options.todos ?? false,
  });
  const id = await insert(server, 'usuarios', { nome, login, email: `${login}@exemplo.gov.br`, senha_hash: admin!.senha_hash });
  await server.sql('INSERT INTO usuario_entidades (usuario_id, entidade_id, perfil_id, centros_custo) VALUES ($1, $2, $3, $4)', [
    id,
    fx.entidadeId,
    perfil,
    `{${(options.centros ?? []).join(',')}}`,
  ]);
  const { token } = await server.signIn(login, 'demo1234');
  return { token, id };
}

export type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

const STANDARD_FONTS = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** The text of every page of a PDF, in reading order, spaces collapsed. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocument({ data: bytes.slice(), standardFontDataUrl: STANDARD_FONTS, isEvalSupported: false }).promise;
  const out: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    for (const item of content.items) if ('str' in item) out.push(item.str);
  }
  return out.join(' ').replace(/\s+/g, ' ');
}
