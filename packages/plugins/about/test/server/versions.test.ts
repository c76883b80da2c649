import { SERVER_CORE_VERSION, defineServerPlugin } from '@app/server-core';
import { describeEachDatabase } from '@app/server-core/testing';
import { expect, it } from 'vitest';
import about from '../../src/server/index.js';
import { versionsSchema } from '../../src/shared/index.js';

const other = defineServerPlugin({
  id: 'memorandos',
  version: '2.3.4',
  core: '^1.0.0',
  dependsOn: ['about'],
  tags: [{ tag: 29, nome: 'Memorandos' }],
  routes: () => undefined,
});

describeEachDatabase('GET /api/about/versions', { plugins: [other, about], seed: true }, (t) => {
  it('lists server-core and every enabled plugin with its version and tags', async () => {
    const { token } = await t.server.signIn('consulta', 'demo1234');
    const res = await t.server.request('/api/about/versions', { token });
    expect(res.status).toBe(200);
    const body = versionsSchema.parse(await res.json());
    expect(body).toEqual({
      core: SERVER_CORE_VERSION,
      plugins: [
        { id: 'about', version: '1.0.0', core: '^1.0.0', dependsOn: [], tags: [{ tag: 0, nome: 'Sobre' }] },
        { id: 'memorandos', version: '2.3.4', core: '^1.0.0', dependsOn: ['about'], tags: [{ tag: 29, nome: 'Memorandos' }] },
      ],
    });
  });

  it('requires a session', async () => {
    expect((await t.server.request('/api/about/versions')).status).toBe(401);
  });
});
