// pnpm bench, part 4: the product list endpoint at 100 000 products, on PGlite and (when
// TEST_DATABASE_URL or BENCH_DATABASE_URL is set) on PostgreSQL, next to the raw SQL of the very same
// statements (captured from the driver during the request) replayed through the same driver.
// Both measured in-process, sequentially, so the ratio is what the API (auth, session, zod, drizzle,
// JSON) adds over its queries. Goal: API p95 ≤ 2× raw p95.
import { RUNS, benchServers, fmt, measure, pct, record, sqlText } from './lib/bench-server.mjs';

const ROWS = 100_000;
const QUERIES = [
  ['first page, sort by descrição', 'sort=descricao'],
  ['search "papel" (accents/case ignored)', 'q=papel&sort=descricao'],
  ['search two words, page 3, sort -código', 'q=caneta%20azul&sort=-codigo&page=3'],
  ['page 50, sort by código', 'sort=codigo&page=50'],
  ['sort by grupo (a sort without its own index)', 'sort=grupoNome'],
  ['inactive only (none: what remains is the fixed cost of a request)', 'ativo=false'],
];
// What the line-item product picker (AsyncCombobox) asks while a clerk types: active products, 20 at a time.
const PICKER = [
  ['picker "cane"', 'q=cane&pageSize=20&sort=descricao'],
  ['picker "caneta azul"', 'q=caneta%20azul&pageSize=20&sort=descricao'],
  ['picker "papel a4"', 'q=papel%20a4&pageSize=20&sort=descricao'],
  ['picker code "B1234"', 'q=B1234&pageSize=20&sort=descricao'],
];
const PICKER_GOAL_MS = 30;


export default async function benchLists({ root, tmp }) {
  console.log(`\n## Product list at ${ROWS.toLocaleString('pt-BR')} products: API vs its raw SQL (${RUNS} runs each, in-process)`);
  console.log('| engine | query | API p50 | API p95 | API req/s | raw p50 | raw p95 | p95 ratio (goal ≤ 2×) |\n|---|---|---|---|---|---|---|---|');
  const pickerRows = [];
  for await (const { engine, database, server, token, prefeitura } of benchServers({ root, tmp, name: 'lists' })) {
    // Grow the seeded catalogue to ROWS products, spread over the seeded grupos and unidades.
    await database.withRawClient(async (raw) => {
      const [{ n }] = await raw.query('SELECT count(*)::int AS n FROM produtos WHERE entidade_id = $1', [prefeitura]);
      await raw.query(
        `WITH base AS (SELECT row_number() OVER (ORDER BY codigo) - 1 AS i, descricao, tipo, grupo_id, unidade_id
                         FROM produtos WHERE entidade_id = $1)
         INSERT INTO produtos (entidade_id, codigo, descricao, tipo, grupo_id, unidade_id)
         SELECT $1, 'B' || g, b.descricao || ' – variante ' || g, b.tipo, b.grupo_id, b.unidade_id
           FROM generate_series(1, $2::int) g JOIN base b ON b.i = g % $3::int`,
        [prefeitura, ROWS - n, n],
      );
    });
    // what the embedded database's periodic maintenance (and PostgreSQL's autovacuum) does after writes
    await database.maintain();
    if (database.engine === 'postgres') await database.withRawClient((raw) => raw.exec('VACUUM (ANALYZE) produtos'));

    // Record the statements of one request as the driver receives them (transactions whole), to
    // replay exactly those through the same driver. Only work touching produtos is kept: the API's
    // own session and permission lookups are part of what it adds.
    const recorder = record(database);
    const request = () => server.app.request(`/api/produtos/produtos?${query}`, { headers: { authorization: `Bearer ${token}` } });
    let query = '';
    for (const [label, q] of QUERIES) {
      query = q;
      recorder.start();
      const check = await request();
      if (check.status !== 200) throw new Error(`${q}: ${check.status} ${await check.text()}`);
      const units = recorder.stop().filter((u) => u.statements.some((a) => /produtos/.test(sqlText(a))));
      const statements = units.flatMap((u) => u.statements);
      if (process.env.BENCH_EXPLAIN) {
        for (const args of statements) {
          const text = sqlText(args);
          if (!/^\s*select/i.test(text)) continue;
          const params = Array.isArray(args[1]) ? args[1] : (args[0]?.values ?? []);
          const plan = await database.withRawClient((raw) => raw.query(`EXPLAIN ANALYZE ${text}`, params));
          console.log(`\n${text}\n${JSON.stringify(params)}\n${plan.map((r) => r['QUERY PLAN']).join('\n')}`);
        }
      }
      const { times: api, rps: apiRps } = await measure(async () => (await request()).arrayBuffer());
      const { times: raw } = await measure(async () => {
        for (const unit of units) await recorder.replay(unit);
      });
      const ratio = pct(api, 95) / pct(raw, 95);
      console.log(
        `| ${engine} | ${label} (${statements.length} statements) | ${fmt(pct(api, 50))} | ${fmt(pct(api, 95))} | ${apiRps.toFixed(0)} | ${fmt(pct(raw, 50))} | ${fmt(pct(raw, 95))} | ${ratio.toFixed(2)}× ${ratio <= 2 ? 'OK' : 'OVER'} |`,
      );
    }
    recorder.restore();
    for (const [label, q] of PICKER) {
      const res = await server.app.request(`/api/produtos/produtos?${q}`, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 200) throw new Error(`${q}: ${res.status} ${await res.text()}`);
      const { times } = await measure(async () => (await server.app.request(`/api/produtos/produtos?${q}`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer());
      pickerRows.push(`| ${engine} | ${label} | ${fmt(pct(times, 50))} | ${fmt(pct(times, 95))} | ${pct(times, 95) <= PICKER_GOAL_MS ? 'OK' : 'OVER'} |`);
    }
  }
  console.log(`\n## Product picker search at ${ROWS.toLocaleString('pt-BR')} products (API, in-process, ${RUNS} runs each; goal p95 ≤ ${PICKER_GOAL_MS} ms)`);
  console.log('| engine | query | p50 | p95 | goal |\n|---|---|---|---|---|');
  for (const row of pickerRows) console.log(row);
}
