// pnpm bench, part 5: 'Logs de Auditoria' (GET /api/auditoria/logs) with a million audit rows in the
// entidade, on PGlite and (when TEST_DATABASE_URL or BENCH_DATABASE_URL is set) on PostgreSQL. The
// list is keyset-paginated: a page deep in the history, or behind a filter, should cost what the
// first page costs. Rows go through the real insert trigger (hash chain), like every audited change.
import { RUNS, benchServers, fmt, measure, pct } from './lib/bench-server.mjs';

const ROWS = Number(process.env.BENCH_AUDIT_ROWS) || 1_000_000;


export default async function benchAudit({ root, tmp }) {
  console.log(`\n## Logs de Auditoria at ${ROWS.toLocaleString('pt-BR')} audit rows in the entidade (${RUNS} runs each, in-process, 50 rows a page)`);
  console.log('| engine | page | p50 | p95 | req/s |\n|---|---|---|---|---|');
  for await (const { engine, database, server, token, prefeitura } of benchServers({ root, tmp, name: 'audit' })) {
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
    console.log(`| ${engine} | (${ROWS.toLocaleString('pt-BR')} rows written through the hash-chain trigger in ${((performance.now() - started) / 1000).toFixed(1)} s) | | | |`);

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
      const { times, rps } = await measure(async () => (await request()).arrayBuffer());
      console.log(`| ${engine} | ${label} | ${fmt(pct(times, 50))} | ${fmt(pct(times, 95))} | ${rps.toFixed(0)} |`);
    }
  }
}
