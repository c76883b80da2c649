// pnpm bench, part 5: 'Logs de Auditoria' (GET /api/auditoria/logs) with a million audit rows in the
// entidade, on PGlite and (when TEST_DATABASE_URL or BENCH_DATABASE_URL is set) on PostgreSQL. The
// list is keyset-paginated: a page deep in the history, or behind a filter, should cost what the
// first page costs. Rows go through the real insert trigger (hash chain), like every audited change.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROWS = Number(process.env.BENCH_AUDIT_ROWS) || 1_000_000;
const RUNS = Number(process.env.BENCH_RUNS) || 150;

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const fmt = (ms) => `${ms.toFixed(2)} ms`;

export default async function benchAudit({ root, tmp }) {
  const serverCoreDir = join(root, 'packages', 'server-core');
  const serverCore = await import(pathToFileURL(join(serverCoreDir, 'dist', 'index.js')).href);
  const pg = createRequire(join(serverCoreDir, 'package.json'))('pg');
  const { serverPlugins } = await import(pathToFileURL(join(root, 'apps', 'server', 'dist', 'app.js')).href);
  const quiet = { info() {}, warn() {}, error: (...a) => console.error(...a) };

  const engines = [{ name: 'PGlite (embedded)', open: async () => ({ database: await serverCore.openDatabase({ dataDir: join(tmp, 'bench-audit'), logger: quiet }) }) }];
  const pgUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    engines.push({
      name: 'PostgreSQL',
      open: async () => {
        const name = `compras_bench_audit_${Date.now().toString(36)}`;
        const admin = new pg.Client({ connectionString: pgUrl });
        await admin.connect();
        await admin.query(`CREATE DATABASE "${name}"`);
        await admin.end();
        const url = new URL(pgUrl);
        url.pathname = `/${name}`;
        const drop = async () => {
          const c = new pg.Client({ connectionString: pgUrl });
          await c.connect();
          await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
          await c.end();
        };
        return { database: await serverCore.openDatabase({ databaseUrl: url.toString(), logger: quiet }), drop };
      },
    });
  }

  console.log(`\n## Logs de Auditoria at ${ROWS.toLocaleString('pt-BR')} audit rows in the entidade (${RUNS} runs each, in-process, 50 rows a page)`);
  console.log('| engine | page | p50 | p95 | req/s |\n|---|---|---|---|---|');
  for (const engine of engines) {
    const { database, drop } = await engine.open();
    const server = await serverCore.createServer({ plugins: serverPlugins, database, seed: true, logger: quiet });
    try {
      const signin = async (entidadeId) =>
        (await server.app.request('/api/auth/signin', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ login: 'admin', senha: 'demo1234', entidadeId }),
        })).json();
      const first = await signin();
      const prefeitura = first.entidades.find((e) => e.nome.startsWith('Prefeitura')).id;
      const { token } = await signin(prefeitura);

      // A history of ROWS changes by the demo users across plugins and actions, one per 30 s back in time.
      const started = performance.now();
      const { middle, day } = await database.withRawClient(async (raw) => {
        const users = (await raw.query('SELECT id FROM usuarios ORDER BY login')).map((r) => r.id);
        await raw.query(
          `INSERT INTO audit_log (at, usuario_id, entidade_id, plugin, registro, acao, antes, depois, ip)
           SELECT now() - make_interval(secs => 30 * ($2::int - g)),
                  ($3::uuid[])[1 + g % array_length($3::uuid[], 1)], $1,
                  (ARRAY['produtos','fornecedores','registros','usuarios','memorandos'])[1 + g % 5],
                  md5(g::text)::uuid::text,
                  (ARRAY['criar','alterar','desativar','entrar','alterar'])[1 + (g / 5) % 5],
                  jsonb_build_object('descricao', 'Item ' || g), jsonb_build_object('descricao', 'Item ' || g || ' (revisto)'),
                  '10.0.0.' || (g % 250)
             FROM generate_series(1, $2::int) g`,
          [prefeitura, ROWS, users],
        );
        const [{ id }] = await raw.query('SELECT id::text AS id FROM audit_log WHERE entidade_id = $1 ORDER BY id OFFSET $2 LIMIT 1', [prefeitura, Math.floor(ROWS / 2)]);
        const [{ dia }] = await raw.query(
          `SELECT to_char((at AT TIME ZONE 'America/Sao_Paulo')::date, 'YYYY-MM-DD') AS dia FROM audit_log WHERE id = $1`,
          [id],
        );
        return { middle: id, day: dia };
      });
      await database.maintain();
      if (database.engine === 'postgres') await database.withRawClient((raw) => raw.exec('VACUUM (ANALYZE) audit_log'));
      console.log(`| ${engine.name} | (${ROWS.toLocaleString('pt-BR')} rows written through the hash-chain trigger in ${((performance.now() - started) / 1000).toFixed(1)} s) | | | |`);

      const pages = [
        ['first page, newest first', 'limit=50'],
        [`half-way back, ${Math.floor(ROWS / 2).toLocaleString('pt-BR')} rows older (cursor)`, `limit=50&cursor=${middle}`],
        ['plugin = produtos', 'limit=50&plugin=produtos'],
        ['ação = desativar, deep (cursor)', `limit=50&acao=desativar&cursor=${middle}`],
        ['one day (de = até)', `limit=50&de=${day}&ate=${day}`],
        ['user by login (requisitante)', 'limit=50&usuario=requisitante'],
      ];
      for (const [label, q] of pages) {
        const request = () => server.app.request(`/api/auditoria/logs?${q}`, { headers: { authorization: `Bearer ${token}` } });
        const check = await request();
        if (check.status !== 200) throw new Error(`${q}: ${check.status} ${await check.text()}`);
        const body = await check.json();
        if (!body.items?.length) throw new Error(`${q}: no rows`);
        const times = [];
        const t0 = performance.now();
        for (let i = 0; i < RUNS; i++) {
          const s = performance.now();
          const res = await request();
          await res.arrayBuffer();
          times.push(performance.now() - s);
        }
        const rps = RUNS / ((performance.now() - t0) / 1000);
        times.sort((a, b) => a - b);
        console.log(`| ${engine.name} | ${label} | ${fmt(pct(times, 50))} | ${fmt(pct(times, 95))} | ${rps.toFixed(0)} |`);
      }
    } finally {
      await server.close();
      await drop?.();
    }
  }
}
