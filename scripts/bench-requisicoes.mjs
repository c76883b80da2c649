// pnpm bench, requisições: the approval queue (aguardandoMinha) and the requisição list at 1 000 000
// requisições on PostgreSQL (TEST_DATABASE_URL or BENCH_DATABASE_URL) and 100 000 on PGlite, one item
// each, next to the raw SQL of the very same statements replayed through the same driver (goal: API
// p95 ≤ 2× raw p95); and the dispensa sum of one grupo over a year of 100 000 requisições (the
// statement of somaDoGrupo, goal ≤ 20 ms p95 on PostgreSQL), with GET /requisicoes/:id/dispensa.
// BENCH_REQUISICOES_PG / BENCH_REQUISICOES_PGLITE change the sizes.
import { RUNS, benchServers, bulkLoad, fmt, measure, pct, record, sqlText } from './lib/bench-server.mjs';

const SIZES = {
  pglite: Number(process.env.BENCH_REQUISICOES_PGLITE) || 100_000,
  postgres: Number(process.env.BENCH_REQUISICOES_PG) || 1_000_000,
};
/** Requisições per year (years from 2000): the dispensa sum runs over one such year. */
const PER_YEAR = 100_000;
const GRUPOS = 10;
const QUERIES = [
  ['approval queue (aguardandoMinha)', 'aguardandoMinha=1'],
  ['approval queue, count for the menu', ':contagem'],
  ['first page (newest first)', ''],
  ['status em_aprovacao', 'status=em_aprovacao'],
  ['search "merenda"', 'q=merenda'],
  ['search by number "137/2000"', 'q=137%2F2000'],
  ['period Mar–Apr 2000, by valor', 'dataDe=2000-03-01&dataAte=2000-04-30&sort=-valorTotal'],
  ['deep page (page 2 000)', 'page=2000'],
];

async function grow(database, prefeitura, rows) {
  const t0 = performance.now();
  const perYear = Math.min(rows, PER_YEAR);
  await database.withRawClient(async (raw) => {
    // the administrator approves at level 1 (named by user), so the queue has rows for the bench's user
    await raw.query(
      `UPDATE requisicao_alcadas SET usuarios = array_append(usuarios, (SELECT id FROM usuarios WHERE login = 'admin'))
        WHERE entidade_id = $1 AND nivel = 1 AND centro_custo_id IS NULL`,
      [prefeitura],
    );
    await bulkLoad(raw, ['requisicoes', 'requisicao_itens', 'requisicao_grupos'], async () => {
      await raw.query(
        `WITH cc AS (SELECT array_agg(id ORDER BY codigo) AS ids, count(*)::int AS n FROM registros_centros_custo WHERE entidade_id = $1),
              t AS (SELECT min(id::text)::uuid AS id FROM registros_tipos_solicitacao WHERE entidade_id = $1),
              u AS (SELECT id, nome FROM usuarios WHERE login = 'requisitante')
         INSERT INTO requisicoes (entidade_id, numero, ano, data, status, centro_custo_id, tipo_solicitacao_id, categoria, dotacao,
                                  justificativa, solicitante_id, solicitante_nome, valor_total, niveis, nivel_atual, ciclo)
         SELECT $1, g % $3 + 1, 2000 + g / $3, make_date(2000 + g / $3, 1 + g % 12, 1 + g % 28),
                (ARRAY['rascunho','em_aprovacao','aprovada','reprovada','devolvida','cancelada','em_aprovacao'])[1 + g % 7],
                cc.ids[1 + g % cc.n], t.id, (ARRAY['compras','obras'])[1 + g % 2], '12.361.0005.2.015',
                (ARRAY['Aquisição de material de expediente','Merenda escolar','Medicamentos da farmácia básica',
                       'Manutenção de veículos','Material de limpeza','Equipamentos de informática'])[1 + g % 6] || ' – lote ' || g,
                u.id, u.nome, 315.00 + g % 1000, 1 + (g % 3 = 0)::int,
                CASE WHEN g % 7 IN (1, 6) THEN 1 + (g % 14 = 6)::int END, 1
           FROM generate_series(0, $2::int - 1) g, cc, t, u`,
        [prefeitura, rows, perYear],
      );
      await raw.query(
        `WITH p AS (SELECT array_agg(id ORDER BY codigo) AS ids, count(*)::int AS n FROM produtos WHERE entidade_id = $1 AND ativo)
         INSERT INTO requisicao_itens (requisicao_id, entidade_id, ordem, produto_id, quantidade, valor_unitario, valor_total)
         SELECT r.id, r.entidade_id, 1, p.ids[1 + r.numero % p.n], 1, r.valor_total, r.valor_total
           FROM requisicoes r, p WHERE r.entidade_id = $1 AND r.ano < 2025`,
        [prefeitura],
      );
      await raw.query(
        `WITH gs AS (SELECT array_agg(id ORDER BY codigo) AS ids FROM (SELECT id, codigo FROM registros_grupos WHERE entidade_id = $1 ORDER BY codigo LIMIT ${GRUPOS}) x)
         INSERT INTO requisicao_grupos (requisicao_id, entidade_id, grupo_id, ano, categoria, valor, conta)
         SELECT r.id, r.entidade_id, gs.ids[1 + r.numero % array_length(gs.ids, 1)], r.ano, r.categoria, r.valor_total,
                r.status IN ('em_aprovacao', 'aprovada')
           FROM requisicoes r, gs WHERE r.entidade_id = $1 AND r.ano < 2025`,
        [prefeitura],
      );
    });
  });
  await database.maintain();
  if (database.engine === 'postgres') {
    await database.withRawClient((raw) => raw.exec('VACUUM (ANALYZE) requisicoes, requisicao_itens, requisicao_grupos'));
  }
  return performance.now() - t0;
}

export default async function benchRequisicoes({ root, tmp }) {
  console.log(`\n## Requisições: approval queue and list, API vs its raw SQL (${RUNS} runs each, in-process, 1 item per requisição)`);
  console.log('| engine | requisições | query | API p50 | API p95 | raw p50 | raw p95 | p95 ratio (goal ≤ 2×) |\n|---|---|---|---|---|---|---|---|');
  const notes = [];
  const dispensa = [];
  for await (const { engine, database, server, token, prefeitura } of benchServers({ root, tmp, name: 'requisicoes' })) {
    const rows = database.engine === 'postgres' ? SIZES.postgres : SIZES.pglite;
    const ms = await grow(database, prefeitura, rows);
    notes.push(`${engine}: ${rows.toLocaleString('pt-BR')} requisições (${Math.min(rows, PER_YEAR).toLocaleString('pt-BR')} per year) with items and grupo amounts written in ${(ms / 1000).toFixed(1)} s`);
    const recorder = record(database);
    let path = '';
    const request = () => server.app.request(path, { headers: { authorization: `Bearer ${token}` } });
    for (const [label, q] of QUERIES) {
      path = q === ':contagem' ? '/api/requisicoes/requisicoes/aguardando-minha-aprovacao/contagem' : `/api/requisicoes/requisicoes?${q}`;
      recorder.start();
      const check = await request();
      if (check.status !== 200) throw new Error(`${q}: ${check.status} ${await check.text()}`);
      const body = await check.json();
      const units = recorder.stop().filter((u) => u.statements.some((a) => /requisic/.test(sqlText(a))));
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
      const found = (body.total ?? 0).toLocaleString('pt-BR');
      console.log(
        `| ${engine} | ${rows.toLocaleString('pt-BR')} | ${label} (${found} found, ${statements.length} statements) | ${fmt(pct(api, 50))} | ${fmt(pct(api, 95))} | ${fmt(pct(rawTimes, 50))} | ${fmt(pct(rawTimes, 95))} | ${ratio.toFixed(2)}× ${ratio <= 2 ? 'OK' : 'OVER'} |`,
      );
    }
    recorder.restore();

    // the dispensa sum of one grupo over the fullest year (the statement of somaDoGrupo), through the driver
    const [alvo] = await database.withRawClient((raw) =>
      raw.query(
        `SELECT rg.grupo_id, rg.ano, rg.categoria, rg.requisicao_id, count(*) OVER (PARTITION BY rg.ano)::int AS no_ano
           FROM requisicao_grupos rg WHERE rg.entidade_id = $1 AND rg.ano = 2000 LIMIT 1`,
        [prefeitura],
      ),
    );
    const soma = `SELECT sum(valor)::text AS total FROM requisicao_grupos
                   WHERE entidade_id = $1::uuid AND grupo_id = $2::uuid AND ano = $3 AND categoria = $4 AND conta AND requisicao_id <> $5::uuid`;
    const params = [prefeitura, alvo.grupo_id, alvo.ano, alvo.categoria, alvo.requisicao_id];
    const { times: sumTimes } = await measure(() => database.withRawClient((raw) => raw.query(soma, params)));
    path = `/api/requisicoes/requisicoes/${alvo.requisicao_id}/dispensa`;
    const probe = await request();
    if (probe.status !== 200) throw new Error(`dispensa: ${probe.status} ${await probe.text()}`);
    const { times: alertTimes } = await measure(async () => (await request()).arrayBuffer());
    const p95 = pct(sumTimes, 95);
    dispensa.push(
      `| ${engine} | ${Number(alvo.no_ano).toLocaleString('pt-BR')} | ${fmt(pct(sumTimes, 50))} | ${fmt(p95)} ${database.engine === 'postgres' ? (p95 <= 20 ? 'OK' : 'OVER') : ''} | ${fmt(pct(alertTimes, 50))} | ${fmt(pct(alertTimes, 95))} |`,
    );
  }
  console.log(`\n## Dispensa sum of one grupo over a year (goal ≤ 20 ms p95 on PostgreSQL; ${GRUPOS} grupos)`);
  console.log('| engine | requisições in the year | sum p50 | sum p95 | GET /:id/dispensa p50 | p95 |\n|---|---|---|---|---|---|');
  for (const line of dispensa) console.log(line);
  for (const n of notes) console.log(`- ${n}`);
}
