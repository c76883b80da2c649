// PNCP client and PCA synchronisation (server only). The plugin's jobs call `createPncpClient` + `sincronizarPlano`.
export * from './client.js';
export * from './errors.js';
export * from './item.js';
export * from './sync.js';
