// What the API tests of @app/pca share: the plugins they run with, the request helpers and a DFD made
// through the memorandos API the way the areas' demands reach the setor (sent, then accepted).
import memorandosPlugin from '@app/memorandos/server';
import produtosPlugin from '@app/produtos/server';
import registrosPlugin from '@app/registros/server';
import requisicoesPlugin from '@app/requisicoes/server';
import type { ServerPlugin } from '@app/server-core';
import { type TestServer, withoutSeed } from '@app/server-core/testing';
import plugin from '../../src/server/index.js';
import { PCA_TAG } from '../../src/shared/index.js';

export const MEMORANDOS_TAG = 29;
export type User = { token: string; id: string };
/** A DFD line: product, quantity and unit value as typed ('2,50'). */
export type Linha = [produtoId: string, quantidade: string, valorUnitario: string];

/** @app/pca with what it reads (their demo data apart), then `extra`. */
export const pcaPlugins = (...extra: ServerPlugin[]): ServerPlugin[] => [
  withoutSeed(registrosPlugin),
  withoutSeed(produtosPlugin),
  withoutSeed(memorandosPlugin),
  withoutSeed(requisicoesPlugin),
  plugin,
  ...extra,
];

/** The body of `res` when its status is `status`; otherwise an error showing both. */
export async function json<R>(res: Response, status: number): Promise<R> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : null) as R;
}

type Init = { method?: string; json?: unknown };

export interface NovoDfd {
  autor: User;
  origemId: string;
  /** The setor de contratações' centro (the memorando's destino). */
  destinoId: string;
  /** Who accepts it at the destino; null leaves it sent. */
  aceitante: User | null;
  linhas: Linha[];
  anoPca: number;
  dataDesejada?: string | undefined;
}

/** Requests as a user, on the suite's server (read when called: the suite creates it in beforeAll). */
export function pcaApi(t: { readonly server: TestServer }) {
  const pca = (path: string, u: User, init: Init = {}) => t.server.request(`/api/pca/planos${path}`, { token: u.token, ...init });
  const mem = (path: string, u: User, init: Init = {}) => t.server.request(`/api/memorandos/memorandos${path}`, { token: u.token, ...init });
  /** A DFD for the PCA of `anoPca`: created, sent and (unless `aceitante` is null) accepted; its id. */
  const dfd = async ({ autor, origemId, destinoId, aceitante, linhas, anoPca, dataDesejada }: NovoDfd) => {
    let m = await json<{ id: string; version: number }>(
      await mem('', autor, {
        json: {
          origemId,
          destinoId,
          assunto: 'Demanda para o PCA',
          justificativa: 'Necessidade do próximo exercício.',
          prioridade: 'media',
          ...(dataDesejada ? { dataDesejada } : {}),
          anoPca,
          itens: linhas.map(([produtoId, quantidade, valorUnitario]) => ({ produtoId, quantidade, valorUnitario })),
        },
      }),
      201,
    );
    m = await json(await mem(`/${m.id}/enviar`, autor, { json: { version: m.version } }), 200);
    if (aceitante) m = await json(await mem(`/${m.id}/aceitar`, aceitante, { json: { version: m.version } }), 200);
    return m.id;
  };
  return { pca, mem, dfd };
}

/**
 * The areas of the tests in `entidadeId`: the centros Educação (02), Saúde (03) and Compras (01), a
 * requisitante of each area (edu, sau), who accepts DFDs at Compras (aceitante) and the setor de
 * contratações there (setor, with `setorTags`).
 */
export async function areasEPessoas(server: TestServer, entidadeId: string, setorTags: number[] = [PCA_TAG, MEMORANDOS_TAG]) {
  const centro = (codigo: string, nome: string) => server.insert('registros_centros_custo', { entidade_id: entidadeId, codigo, nome });
  const educacao = await centro('02', 'Secretaria de Educação');
  const saude = await centro('03', 'Secretaria de Saúde');
  const compras = await centro('01', 'Compras e Licitações');
  return {
    educacao,
    saude,
    compras,
    edu: await server.createUser({ login: 'edu', tags: [MEMORANDOS_TAG], centros: [educacao] }),
    sau: await server.createUser({ login: 'sau', tags: [MEMORANDOS_TAG], centros: [saude] }),
    aceitante: await server.createUser({ login: 'aceitante', tags: [MEMORANDOS_TAG], centros: [compras] }),
    setor: await server.createUser({ login: 'setor', tags: setorTags, centros: [compras] }),
  };
}
