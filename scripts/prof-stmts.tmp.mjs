import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { benchServers, record, sqlText } from './lib/bench-server.mjs';
const root = process.cwd();
for await (const { engine, database, server, token } of benchServers({ root, tmp: join(tmpdir(), 'prof-floor'), name: 'proffloor' })) {
  if (engine !== 'PostgreSQL') continue;
  for (let i = 0; i < 3; i++) await server.app.request(`/api/produtos/produtos?ativo=false`, { headers: { authorization: `Bearer ${token}` } });
  const recorder = record(database); recorder.start();
  const r = await server.app.request(`/api/produtos/produtos?ativo=false`, { headers: { authorization: `Bearer ${token}` } });
  console.log(r.status, await r.text());
  for (const u of recorder.stop()) for (const s of u.statements) console.log('---', u.kind ?? '', sqlText(s).slice(0, 400));
  recorder.restore();
}
process.exit(0);
