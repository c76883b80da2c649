// Test helpers: @app/registros' tables (its migrations, without its routes or seed) and a few rows
// in each demo entidade, created with SQL so the tests control them.
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
  expediente: string;
  servicos: string;
  limpezaInativo: string;
  papelaria: string;
  manutencao: string;
  un: string;
  resma: string;
  sv: string;
  cxInativa: string;
  consumo: string;
  permanente: string;
}

export async function insert(server: TestServer, table: string, values: Record<string, unknown>): Promise<string> {
  const keys = Object.keys(values);
  const [row] = await server.sql<{ id: string }>(
    `INSERT INTO ${table} (${keys.join(', ')}) VALUES (${keys.map((_k, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
    Object.values(values),
  );
  return row!.id;
}

/** The same registries (same codes and names, different ids) in every entidade. */
export async function createRegistros(server: TestServer): Promise<{ prefeitura: Fixture; camara: Fixture }> {
  const entidades = await server.sql<{ id: string; nome: string }>('SELECT id, nome FROM entidades ORDER BY nome');
  const out: Record<string, Fixture> = {};
  for (const e of entidades) {
    const entidade_id = e.id;
    const expediente = await insert(server, 'registros_grupos', { entidade_id, codigo: '01', nome: 'Material de expediente' });
    const servicos = await insert(server, 'registros_grupos', { entidade_id, codigo: '02', nome: 'Serviços' });
    const limpezaInativo = await insert(server, 'registros_grupos', { entidade_id, codigo: '03', nome: 'Material de limpeza', ativo: false });
    out[e.nome.includes('Câmara') ? 'camara' : 'prefeitura'] = {
      entidadeId: entidade_id,
      expediente,
      servicos,
      limpezaInativo,
      papelaria: await insert(server, 'registros_subgrupos', { entidade_id, grupo_id: expediente, codigo: '01.01', nome: 'Papelaria' }),
      manutencao: await insert(server, 'registros_subgrupos', { entidade_id, grupo_id: servicos, codigo: '02.01', nome: 'Manutenção predial' }),
      un: await insert(server, 'registros_unidades', { entidade_id, sigla: 'UN', descricao: 'Unidade' }),
      resma: await insert(server, 'registros_unidades', { entidade_id, sigla: 'RESMA', descricao: 'Resma' }),
      sv: await insert(server, 'registros_unidades', { entidade_id, sigla: 'SV', descricao: 'Serviço' }),
      cxInativa: await insert(server, 'registros_unidades', { entidade_id, sigla: 'CX', descricao: 'Caixa', ativo: false }),
      consumo: await insert(server, 'registros_tipos_material', { entidade_id, nome: 'Consumo' }),
      permanente: await insert(server, 'registros_tipos_material', { entidade_id, nome: 'Permanente' }),
    };
  }
  return out as { prefeitura: Fixture; camara: Fixture };
}

export type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

/** POSTs a CSV file as multipart/form-data (what the import page sends). */
export async function uploadCsv(server: TestServer, path: string, token: string, csv: string, filename = 'planilha.csv') {
  const form = new FormData();
  form.set('arquivo', new File([csv], filename, { type: 'text/csv' }));
  return server.app.request(path, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
}

/** The plugin without its demo seed (tests create their own rows). */
export function withoutSeed(plugin: ServerPlugin): ServerPlugin {
  return defineServerPlugin({ ...plugin, seed: undefined });
}
