// @app/pncp/server: the PNCP integration under /api/pncp.
//   GET/PUT /credenciais (tag 104): the entidade's PNCP system user, the password encrypted (config.ts);
//   GET /publicacoes, POST /publicacoes/:id/tentar-novamente|cancelar, POST /planos/:id/excluir (tag 103);
//   PCA_PUBLICACAO (@app/pca): an approved plan's `publicar` records a publication and enqueues the
//   job pncp.publicar in the same transaction; the job brings the PNCP to the plan (publicacoes.ts);
//   COTACAO_FONTES_EXTERNAS (@app/cotacoes): "Buscar no PNCP", homologated prices of similar contratações (precos.ts);
//   PENDENCIAS 'Publicações no PNCP com erro' and INDICADORES 'Publicações no PNCP' (home page, painel.ts).
import { COTACAO_FONTES_EXTERNAS } from '@app/cotacoes/server';
import { PCA_PUBLICACAO } from '@app/pca/server';
import { INDICADORES, PENDENCIAS, type PluginJobs, contribute, defineServerPlugin } from '@app/server-core';
import { PNCP_CONFIG_TAG, PNCP_CONFIG_TAG_NOME, PNCP_TAG, PNCP_TAG_NOME } from '../shared/index.js';
import { type PncpConfig, configDoAmbiente, validarConfig } from './config.js';
import { registrarCredenciais } from './credenciais.js';
import { publicacoesComErro, situacaoDasPublicacoes } from './painel.js';
import { fontePncp } from './precos.js';
import { jobPublicar, publicador, registrarPublicacoes } from './publicacoes.js';

export type { PncpConfig } from './config.js';
/**
 * The PNCP client and the plan's synchronisation (the job's engine; `pnpm bench` drives them).
 * @public
 */
export { createPncpClient, criarCacheTokens, pncpErroRetentavel, sincronizarPlano } from './pncp/index.js';

/** The plugin with its configuration (tests, or a server that does not read the environment). */
export function definePncpPlugin(config: PncpConfig = configDoAmbiente()) {
  validarConfig(config);
  let jobs: PluginJobs | undefined;
  const filas = () => {
    if (!jobs) throw new Error('@app/pncp: the plugin routes were not set up (no job queues yet).');
    return jobs;
  };
  return defineServerPlugin({
    id: 'pncp',
    version: __PKG_VERSION__,
    core: '^1.0.0',
    dependsOn: ['pca'],
    tags: [
      { tag: PNCP_TAG, nome: PNCP_TAG_NOME },
      { tag: PNCP_CONFIG_TAG, nome: PNCP_CONFIG_TAG_NOME },
    ],
    migrations: new URL('../../migrations/', import.meta.url),
    contributes: [
      contribute(PCA_PUBLICACAO, publicador(config, filas)),
      contribute(COTACAO_FONTES_EXTERNAS, fontePncp(config, config.timeoutMs ? { timeoutMs: config.timeoutMs } : {})),
      contribute(PENDENCIAS, publicacoesComErro),
      contribute(INDICADORES, situacaoDasPublicacoes),
    ],
    jobs: { publicar: jobPublicar(config) },
    routes(router, ctx) {
      jobs = ctx.jobs;
      registrarCredenciais(router, config, () => undefined);
      registrarPublicacoes(router, config, filas);
    },
  });
}

export default definePncpPlugin();
