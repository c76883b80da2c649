// pnpm bench, memorandos: the memorando list at 100 000 memorandos on PGlite and 1 000 000 on
// PostgreSQL (TEST_DATABASE_URL or BENCH_DATABASE_URL), 10 items each, next to the raw SQL of the very
// same statements replayed through the same driver (as bench-lists.mjs does for products).
// Goal: API p95 ≤ 2× raw p95. BENCH_MEMORANDOS_PG / BENCH_MEMORANDOS_PGLITE change the sizes.
import { RUNS, benchServers, bulkLoad, fmt, measure, pct, record, sqlText } from './lib/bench-server.mjs';

const SIZES = {
  pglite: Number(process.env.BENCH_MEMORANDOS_PGLITE) || 100_000,
  postgres: Number(process.env.BENCH_MEMORANDOS_PG) || 1_000_000,
};
const ITEMS = 10;
const QUERIES = [
  ['first page (newest first)', ''],
  ['status enviado', 'status=enviado'],
  ['search "merenda"', 'q=merenda'],
  ['search by number "137/2010"', 'q=137%2F2010'],
  ['period Mar–Apr 2015, by valor', 'dataDe=2015-03-01&dataAte=2015-04-30&sort=-valorTotal'],
  ['origin filter, priority alta', 'origemId=:origem&prioridade=alta'],
  ['deep page (page 2 000)', 'page=2000'],
];

async function grow(database, prefeitura, rows) {
  const t0 = performance.now();
  await database.withRawClient((raw) => bulkLoad(raw, ['memorandos', 'memorando_itens'], async () => {
    const perYear = Math.ceil(rows / 25); // years 2000–2024: the demo's own memorandos are 2026's
    await raw.query(
      `WITH cc AS (SELECT array_agg(id ORDER BY codigo) AS ids, count(*)::int AS n FROM registros_centros_custo WHERE entidade_id = $1),
            u AS (SELECT id, nome FROM usuarios WHERE login = 'admin')
       INSERT INTO memorandos (entidade_id, numero, ano, data, status, origem_id, destino_id, solicitante_id, solicitante_nome,
                               assunto, justificativa, prioridade, data_desejada, valor_total)
       SELECT $1, g % $3 + 1, 2000 + g / $3, make_date(2000 + g / $3, 1 + g % 12, 1 + g % 28),
              (ARRAY['rascunho','enviado','devolvido','aceito','arquivado','cancelado'])[1 + g % 6],
              cc.ids[1 + g % cc.n], cc.ids[1 + (g + 1) % cc.n], u.id, u.nome,
              (ARRAY['Aquisição de material de expediente','Merenda escolar','Medicamentos da farmácia básica',
                     'Manutenção de veículos','Material de limpeza','Equipamentos de informática'])[1 + g % 6] || ' – lote ' || g,
              'Demanda recorrente da secretaria para o exercício, conforme consumo dos anos anteriores.',
              (ARRAY['baixa','media','alta'])[1 + g % 3], NULL, 315.00
         FROM generate_series(0, $2::int - 1) g, cc, u`,
      [prefeitura, rows, perYear],
    );
    await raw.query(
      `WITH p AS (SELECT array_agg(id ORDER BY codigo) AS ids, count(*)::int AS n FROM produtos WHERE entidade_id = $1 AND ativo)
       INSERT INTO memorando_itens (memorando_id, entidade_id, ordem, produto_id, quantidade, valor_unitario, valor_total)
       SELECT m.id, m.entidade_id, i, p.ids[1 + (m.numero * 7 + i) % p.n], 1 + i % 5, 10.50, (1 + i % 5) * 10.50
         FROM memorandos m CROSS JOIN generate_series(1, ${ITEMS}) i, p
        WHERE m.entidade_id = $1 AND m.ano < 2025`,
      [prefeitura],
    );
  }));
  await database.maintain();
  if (database.engine === 'postgres') await database.withRawClient((raw) => raw.exec('VACUUM (ANALYZE) memorandos, memorando_itens'));
  return performance.now() - t0;
}

export default async function benchMemorandos({ root, tmp }) {
  console.log(`\n## Memorando list: API vs its raw SQL (${RUNS} runs each, in-process, ${ITEMS} items per memorando)`);
  console.log('| engine | memorandos | query | API p50 | API p95 | raw p50 | raw p95 | p95 ratio (goal ≤ 2×) |\n|---|---|---|---|---|---|---|---|');
  const notes = [];
  for await (const { engine, database, server, prefeitura, renew } of benchServers({ root, tmp, name: 'memorandos' })) {
    const rows = database.engine === 'postgres' ? SIZES.postgres : SIZES.pglite;
    const ms = await grow(database, prefeitura, rows);
    const token = await renew();
    notes.push(`${engine}: ${rows.toLocaleString('pt-BR')} memorandos and ${(rows * ITEMS).toLocaleString('pt-BR')} items written in ${(ms / 1000).toFixed(1)} s`);
    const origem = await database.withRawClient(async (raw) => {
      const [row] = await raw.query(`SELECT id FROM registros_centros_custo WHERE entidade_id = $1 ORDER BY codigo LIMIT 1`, [prefeitura]);
      return row.id;
    });
    const recorder = record(database);
    let query = '';
    const request = () => server.app.request(`/api/memorandos/memorandos?${query}`, { headers: { authorization: `Bearer ${token}` } });
    for (const [label, q] of QUERIES) {
      query = q.replace(':origem', origem);
      recorder.start();
      const check = await request();
      if (check.status !== 200) throw new Error(`${q}: ${check.status} ${await check.text()}`);
      const body = await check.json();
      const units = recorder.stop().filter((u) => u.statements.some((a) => /memorando/.test(sqlText(a))));
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
      const { times: api } = await measure(async () => (await request()).arrayBuffer());
      const { times: rawTimes } = await measure(async () => {
        for (const unit of units) await recorder.replay(unit);
      });
      const ratio = pct(api, 95) / pct(rawTimes, 95);
      console.log(
        `| ${engine} | ${rows.toLocaleString('pt-BR')} | ${label} (${body.total.toLocaleString('pt-BR')} found, ${statements.length} statements) | ${fmt(pct(api, 50))} | ${fmt(pct(api, 95))} | ${fmt(pct(rawTimes, 50))} | ${fmt(pct(rawTimes, 95))} | ${ratio.toFixed(2)}× ${ratio <= 2 ? 'OK' : 'OVER'} |`,
      );
    }
    recorder.restore();
  }
  for (const n of notes) console.log(`- ${n}`);
}
