// Test helpers: @app/registros' tables (its migrations, without its routes or seed) and ramos de
// atividade in each demo entidade, created with SQL so the tests control them.
import { type ServerPlugin, defineServerPlugin } from '@app/server-core';
import type { TestServer } from '@app/server-core/testing';

/** Stands in for @app/registros: same id and migrations, no routes, no seed. */
export const registrosStub = defineServerPlugin({
  id: 'registros',
  version: '0.0.0-test',
  core: '^1.0.0',
  tags: [],
  migrations: new URL('../../../registros/migrations/', import.meta.url),
  routes: () => undefined,
});

export interface Fixture {
  entidadeId: string;
  papelaria: string;
  informatica: string;
  limpeza: string;
  inativo: string;
}

export async function createRamos(server: TestServer): Promise<{ prefeitura: Fixture; camara: Fixture }> {
  const entidades = await server.sql<{ id: string; nome: string }>('SELECT id, nome FROM entidades ORDER BY nome');
  const out: Record<string, Fixture> = {};
  const ramo = async (entidadeId: string, nome: string, cnae: string, ativo = true) =>
    (
      await server.sql<{ id: string }>('INSERT INTO registros_ramos_atividade (entidade_id, nome, cnae, ativo) VALUES ($1, $2, $3, $4) RETURNING id', [
        entidadeId,
        nome,
        cnae,
        ativo,
      ])
    )[0]!.id;
  for (const e of entidades) {
    out[e.nome.includes('Câmara') ? 'camara' : 'prefeitura'] = {
      entidadeId: e.id,
      papelaria: await ramo(e.id, 'Comércio varejista de artigos de papelaria', '4761003'),
      informatica: await ramo(e.id, 'Comércio atacadista de equipamentos de informática', '4651601'),
      limpeza: await ramo(e.id, 'Limpeza em prédios e em domicílios', '8121400'),
      inativo: await ramo(e.id, 'Comércio varejista de combustíveis', '4731800', false),
    };
  }
  return out as { prefeitura: Fixture; camara: Fixture };
}

export type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

/** POSTs a file as multipart/form-data (what the import page sends). */
export async function upload(server: TestServer, path: string, token: string, content: string | Uint8Array, filename = 'planilha.csv') {
  const form = new FormData();
  form.set('arquivo', new File([content as BlobPart], filename, { type: filename.endsWith('.csv') ? 'text/csv' : '' }));
  return server.app.request(path, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
}

/** The plugin without its demo seed (tests create their own rows). */
export function withoutSeed(plugin: ServerPlugin): ServerPlugin {
  return defineServerPlugin({ ...plugin, seed: undefined });
}
