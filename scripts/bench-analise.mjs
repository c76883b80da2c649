// pnpm bench, análise de consumo e preços (issue 22, "Measures"), on PostgreSQL only (BENCH_DATABASE_URL,
// TEST_DATABASE_URL, or postgres://postgres@127.0.0.1:5432/postgres): a fresh database, migrated and seeded by
// the in-process server, grown to
//  - 1 000 000 requisição lines: 200 000 approved requisições of 5 lines over ~20 centros de custo (in 5 bench
//    núcleos), 10 bench grupos × 3 sub-grupos, 2 000 bench products, 36 months (2023-01…2025-12), each with
//    its approval rows (1 or 2 levels, round 1; the last one is the month of the consumption) and that last
//    approval's instant in `aprovada_em`, as @app/requisicoes stores it (the check below sums the 12 months
//    from the approval rows instead);
//  - 100 000 collected prices of one product family (20 products of one sub-grupo): 5 000 cotações over the
//    same 3 years (80% concluded, 10% em coleta, 10% cancelled), 5 family items each (the family's first
//    product in every one), 4 prices per item (2 invited suppliers out of 30, Painel de Preços, and a
//    site / contract / invoice), 1 in 50 excluded by a person.
// Then, in-process (`server.app.request`, as the other API benches), each request warmed up and timed
// BENCH_ANALISE_RUNS times (default 30), next to the very statements the request ran replayed through
// the same pg pool (record/replay of ./lib/bench-server.mjs): GET /api/analise/consumo (per centro and
// month over 12 months, no other filter; the same with a grupo filter) and GET /api/analise/precos of the
// product with the most prices (no period; one year). Goals: API p95 ≤ 2× the SQL's p95 and ≤ 500 ms.
// BENCH_EXPLAIN=1 prints EXPLAIN (ANALYZE, BUFFERS) of each statement; BENCH_ANALISE_LINHAS changes the size;
// BENCH_ANALISE_KEEP=1 keeps the database afterwards (its URL printed) instead of dropping it.
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bulkLoad, fmt, measure, pct, record, sqlText } from './lib/bench-server.mjs';

const LINHAS = Number(process.env.BENCH_ANALISE_LINHAS) || 1_000_000;
const POR_REQUISICAO = 5;
const REQUISICOES = Math.ceil(LINHAS / POR_REQUISICAO);
const PRODUTOS = 2_000;
const CENTROS = 20;
const NUCLEOS = 5;
const GRUPOS = 10;
const FAMILIA = 20;
const COTACOES = 5_000; // × 5 items × 4 prices = 100 000 collected prices
const FORNECEDORES = 30;
const RUNS = Number(process.env.BENCH_ANALISE_RUNS) || 30;
const WARMUP = 3;
const GOAL_RATIO = 2;
const GOAL_MS = 500;
/** Bench documents are numbered from here (the demo's own stay below). */
const NUMERO = 900_000;

async function grow(database, prefeitura) {
  const t0 = performance.now();
  await database.withRawClient(async (raw) => {
    const q = (text, params = [prefeitura]) => raw.query(text, params);
    // ---- registers: centros (up to 20), núcleos, grupos, sub-grupos, products, suppliers ----
    const [{ n: centros }] = await q('SELECT count(*)::int AS n FROM registros_centros_custo WHERE entidade_id = $1');
    if (centros < CENTROS) {
      await q(
        `INSERT INTO registros_centros_custo (entidade_id, codigo, nome) SELECT $1, 'BENCH.' || lpad(g::text, 2, '0'), 'Centro de custo bench ' || g
           FROM generate_series(1, $2::int) g`,
        [prefeitura, CENTROS - centros],
      );
    }
    await q(
      `INSERT INTO registros_nucleos_consumo (entidade_id, nome) SELECT $1, 'Núcleo bench ' || g FROM generate_series(1, $2::int) g`,
      [prefeitura, NUCLEOS],
    );
    await q(
      `WITH cc AS (SELECT id, row_number() OVER (ORDER BY codigo) AS i FROM registros_centros_custo WHERE entidade_id = $1),
            nu AS (SELECT id, row_number() OVER (ORDER BY nome) - 1 AS k FROM registros_nucleos_consumo WHERE entidade_id = $1 AND nome LIKE 'Núcleo bench %')
       INSERT INTO registros_nucleo_centros (nucleo_id, centro_id, entidade_id)
       SELECT nu.id, cc.id, $1 FROM cc JOIN nu ON nu.k = cc.i % $2::int
        WHERE NOT EXISTS (SELECT 1 FROM registros_nucleo_centros x WHERE x.centro_id = cc.id)`,
      [prefeitura, NUCLEOS],
    );
    await q(
      `INSERT INTO registros_grupos (entidade_id, codigo, nome, catalogo_tipo) SELECT $1, 'BG' || lpad(g::text, 2, '0'), 'Grupo bench ' || g, 'material'
         FROM generate_series(1, $2::int) g`,
      [prefeitura, GRUPOS],
    );
    await q(
      `INSERT INTO registros_subgrupos (entidade_id, grupo_id, codigo, nome, catalogo_tipo)
       SELECT $1, g.id, 'BS' || s, g.nome || ' – sub-grupo ' || s, 'material'
         FROM registros_grupos g, generate_series(1, 3) s WHERE g.entidade_id = $1 AND g.codigo LIKE 'BG%'`,
    );
    // product i: grupo i % 10, sub-grupo (i / 10) % 3 of it; the family: the first 20 of grupo 1, sub-grupo 1
    await q(
      `WITH gs AS (SELECT g.id AS grupo_id, s.id AS sub_grupo_id, g.codigo AS gc, s.codigo AS sc
                     FROM registros_grupos g JOIN registros_subgrupos s ON s.grupo_id = g.id WHERE g.entidade_id = $1 AND g.codigo LIKE 'BG%'),
            u AS (SELECT min(id::text)::uuid AS id FROM registros_unidades WHERE entidade_id = $1)
       INSERT INTO produtos (entidade_id, codigo, descricao, tipo, grupo_id, sub_grupo_id, unidade_id)
       SELECT $1, 'BP' || lpad(i::text, 5, '0'), 'Produto de consumo bench ' || lpad(i::text, 5, '0'), 'material', gs.grupo_id, gs.sub_grupo_id, u.id
         FROM generate_series(0, $2::int - 1) i, u, gs
        WHERE gs.gc = 'BG' || lpad((1 + i % 10)::text, 2, '0') AND gs.sc = 'BS' || (1 + (i / 10) % 3)`,
      [prefeitura, PRODUTOS],
    );
    const elegiveis = `entidade_id = $1 AND ativo AND situacao <> 'impedido'`;
    const [{ f }] = await q(`SELECT count(*)::int AS f FROM fornecedores WHERE ${elegiveis}`);
    if (f < FORNECEDORES) {
      await q(
        `WITH b AS (SELECT row_number() OVER (ORDER BY razao_social) - 1 AS i, razao_social, logradouro, cep, municipio, uf FROM fornecedores WHERE ${elegiveis})
         INSERT INTO fornecedores (entidade_id, documento, razao_social, logradouro, cep, municipio, uf)
         SELECT $1, lpad((98000000000000 + g)::text, 14, '0'), b.razao_social || ' – filial bench ' || g, b.logradouro, b.cep, b.municipio, b.uf
           FROM generate_series(1, $2::int) g JOIN b ON b.i = g % $3::int`,
        [prefeitura, FORNECEDORES - f, f],
      );
    }

    // ---- documents, in bulk (foreign keys and secondary indexes dropped and made again) ----
    const tabelas = ['requisicoes', 'requisicao_itens', 'requisicao_aprovacoes', 'cotacoes', 'cotacao_itens', 'cotacao_fornecedores', 'cotacao_precos'];
    await bulkLoad(raw, tabelas, async () => {
      // requisição g: day g × 1096 / N of 2023-01-01…2025-12-31 (in time order), centro g % 20, 1 or 2 levels
      const linha = (o) => ({
        produto: `p.ids[1 + ((g * 7 + ${o} * 389) % p.n)]`,
        quantidade: `(1 + (g + ${o}) % 20)`,
        unitario: `(2.5 + ((g * 7 + ${o} * 13) % 500) / 4.0)`,
      });
      const somaLinhas = Array.from({ length: POR_REQUISICAO }, (_, o) => {
        const l = linha(o + 1);
        return `round(${l.quantidade} * ${l.unitario}, 2)`;
      }).join(' + ');
      await q(
        `WITH cc AS (SELECT array_agg(id ORDER BY codigo) AS ids, count(*)::int AS n FROM registros_centros_custo WHERE entidade_id = $1),
              t AS (SELECT min(id::text)::uuid AS id FROM registros_tipos_solicitacao WHERE entidade_id = $1),
              u AS (SELECT id, nome FROM usuarios WHERE login = 'requisitante')
         INSERT INTO requisicoes (entidade_id, numero, ano, data, status, centro_custo_id, tipo_solicitacao_id, categoria, dotacao,
                                  justificativa, solicitante_id, solicitante_nome, valor_total, valor_aprovado, niveis, nivel_atual, ciclo, created_at, updated_at,
                                  aprovada_em)
         SELECT $1, $3::int + g, extract(year FROM d)::int, d, 'aprovada', cc.ids[1 + g % cc.n], t.id, 'compras', '12.361.0005.2.015',
                'Material de consumo das secretarias – lote ' || g, u.id, u.nome, v, v, niveis, NULL, 1, d::timestamp AT TIME ZONE 'America/Sao_Paulo',
                d::timestamp AT TIME ZONE 'America/Sao_Paulo',
                -- the instant of its last approval (written below: level n on day d + 2n − 1 at 5 + 5n h São Paulo), as the approval stores it
                (d + niveis + (niveis - 1))::timestamp AT TIME ZONE 'America/Sao_Paulo' + make_interval(hours => 5 + 5 * niveis)
           FROM generate_series(0, $2::int - 1) g
           CROSS JOIN LATERAL (SELECT (date '2023-01-01' + (g::bigint * 1096 / $2::int)::int) AS d, (${somaLinhas}) AS v, 1 + (g % 3 = 0)::int AS niveis) x, cc, t, u`,
        [prefeitura, REQUISICOES, NUMERO],
      );
      const l = linha('o');
      await q(
        `WITH p AS (SELECT array_agg(id ORDER BY codigo) AS ids, count(*)::int AS n FROM produtos WHERE entidade_id = $1 AND codigo LIKE 'BP%')
         INSERT INTO requisicao_itens (requisicao_id, entidade_id, ordem, produto_id, quantidade, valor_unitario, valor_total)
         SELECT r.id, r.entidade_id, o, ${l.produto}, ${l.quantidade}, ${l.unitario}, round(${l.quantidade} * ${l.unitario}, 2)
           FROM (SELECT id, entidade_id, numero - $2::int AS g FROM requisicoes WHERE entidade_id = $1 AND numero >= $2::int) r,
                generate_series(1, $3::int) o, p`,
        [prefeitura, NUMERO, POR_REQUISICAO],
      );
      // level 1 the next day at 10:00, level 2 two days after at 15:00 (São Paulo): some cross into the next month
      await q(
        `WITH a AS (SELECT array_agg(id ORDER BY login) AS ids, array_agg(nome ORDER BY login) AS nomes FROM usuarios WHERE login IN ('admin', 'requisitante'))
         INSERT INTO requisicao_aprovacoes (entidade_id, requisicao_id, ciclo, nivel, usuario_id, usuario_nome, created_at)
         SELECT r.entidade_id, r.id, 1, n, a.ids[n], a.nomes[n], (r.data + n + (n - 1))::timestamp AT TIME ZONE 'America/Sao_Paulo' + make_interval(hours => 5 + 5 * n)
           FROM requisicoes r, generate_series(1, 2) n, a WHERE r.entidade_id = $1 AND r.numero >= $2::int AND n <= r.niveis`,
        [prefeitura, NUMERO],
      );

      // cotações of the family: cotação g on day g × 1096 / 5 000; its items: the family's first product and 4 others
      await q(
        `WITH cc AS (SELECT array_agg(id ORDER BY codigo) AS ids, count(*)::int AS n FROM registros_centros_custo WHERE entidade_id = $1),
              u AS (SELECT id, nome FROM usuarios WHERE login = 'admin')
         INSERT INTO cotacoes (entidade_id, numero, ano, data, status, objeto, centro_custo_id, data_referencia, prazo, metodo, responsavel_id, responsavel_nome,
                               valor_total, concluida_em, created_at, updated_at)
         SELECT $1, $3::int + g, extract(year FROM d)::int, d, CASE g % 10 WHEN 0 THEN 'cancelada' WHEN 1 THEN 'em_coleta' ELSE 'concluida' END,
                'Registro de preços de material de consumo – família bench, lote ' || g, cc.ids[1 + g % cc.n], d,
                (d + 10)::timestamp AT TIME ZONE 'America/Sao_Paulo', 'mediana', u.id, u.nome, 0,
                CASE WHEN g % 10 >= 2 THEN (d + 12)::timestamp AT TIME ZONE 'America/Sao_Paulo' + interval '16 hours' END,
                d::timestamp AT TIME ZONE 'America/Sao_Paulo', d::timestamp AT TIME ZONE 'America/Sao_Paulo'
           FROM generate_series(0, $2::int - 1) g CROSS JOIN LATERAL (SELECT date '2023-01-01' + (g::bigint * 1096 / $2::int)::int AS d) x, cc, u`,
        [prefeitura, COTACOES, NUMERO],
      );
      const familia = `fam AS (SELECT array_agg(p.id ORDER BY p.codigo) AS ids FROM (SELECT p.id, p.codigo FROM produtos p JOIN registros_subgrupos s ON s.id = p.sub_grupo_id
                                 JOIN registros_grupos gr ON gr.id = s.grupo_id
                                WHERE p.entidade_id = $1 AND gr.codigo = 'BG01' AND s.codigo = 'BS1' ORDER BY p.codigo LIMIT ${FAMILIA}) p)`;
      // the product's reference price (R$ 4,50…R$ 103,50), + 1% a month from 2023-01
      const preco = `(4.5 + (k.idx * 37 % 100)) * (1 + 0.01 * ((extract(year FROM c.data)::int - 2023) * 12 + extract(month FROM c.data)::int - 1))`;
      await q(
        `WITH ${familia}
         INSERT INTO cotacao_itens (cotacao_id, entidade_id, ordem, produto_id, quantidade, valor_unitario, valor_total)
         SELECT c.id, c.entidade_id, k.ordem, fam.ids[1 + k.idx], 10, CASE WHEN c.status = 'concluida' THEN round(${preco}, 4) ELSE 0 END,
                CASE WHEN c.status = 'concluida' THEN round(10 * round(${preco}, 4), 2) ELSE 0 END
           FROM (SELECT *, numero - $2::int AS g FROM cotacoes WHERE entidade_id = $1 AND numero >= $2::int) c, fam,
                LATERAL (SELECT o AS ordem, CASE WHEN o = 1 THEN 0 ELSE 1 + (c.g * 4 + o - 2) % ${FAMILIA - 1} END AS idx FROM generate_series(1, 5) o) k`,
        [prefeitura, NUMERO],
      );
      // the 2 invited suppliers of cotação g: the (g + 7j)th of the 30 (j = 0, 1), the same in its prices
      const fornecedores = `f AS (SELECT array_agg(id ORDER BY razao_social) AS ids FROM (SELECT id, razao_social FROM fornecedores
                     WHERE entidade_id = $1 AND ativo AND situacao <> 'impedido' ORDER BY razao_social LIMIT ${FORNECEDORES}) x)`;
      await q(
        `WITH ${fornecedores}
         INSERT INTO cotacao_fornecedores (entidade_id, cotacao_id, fornecedor_id, situacao, motivo_escolha, convidado_em, data_proposta, validade)
         SELECT c.entidade_id, c.id, f.ids[1 + ((c.numero - $2::int + j * 7) % ${FORNECEDORES})], 'respondeu', 'Fornecedor habitual do ramo.',
                c.created_at, c.created_at + interval '2 days', c.data + 60
           FROM cotacoes c, f, generate_series(0, 1) j WHERE c.entidade_id = $1 AND c.numero >= $2::int`,
        [prefeitura, NUMERO],
      );
      await q(
        `WITH ${familia}, ${fornecedores}, a AS (SELECT id, nome FROM usuarios WHERE login = 'admin')
         INSERT INTO cotacao_precos (entidade_id, cotacao_id, produto_id, fonte, fornecedor_id, fonte_descricao, valor_unitario, data_coleta, validade,
                                     coletado_por, coletado_por_nome, exclusao_motivo)
         SELECT c.entidade_id, c.id, i.produto_id, fonte.nome, CASE WHEN j <= 2 THEN f.ids[1 + ((c.g + (j - 1) * 7) % ${FORNECEDORES})] END,
                CASE fonte.nome WHEN 'fornecedor' THEN 'Proposta do fornecedor' WHEN 'painel' THEN 'Painel de Preços' WHEN 'midia' THEN 'Site de comércio eletrônico'
                                WHEN 'contrato' THEN 'Contrato similar de outro órgão' ELSE 'Nota fiscal de compra anterior' END,
                round(i.ref * (0.8 + ((c.g * 13 + i.ordem * 7 + j * 29) % 50) / 100.0), 4),
                c.created_at + make_interval(days => 1 + j, hours => 9), c.data + 60, a.id, a.nome,
                CASE WHEN (c.g + i.ordem + j) % 50 = 0 THEN 'Preço de produto com especificação diferente da solicitada.' END
           FROM (SELECT *, numero - $2::int AS g FROM cotacoes WHERE entidade_id = $1 AND numero >= $2::int) c, fam, f, a,
                LATERAL (SELECT ci.produto_id, ci.ordem, (4.5 + ((array_position(fam.ids, ci.produto_id) - 1) * 37 % 100))
                                 * (1 + 0.01 * ((extract(year FROM c.data)::int - 2023) * 12 + extract(month FROM c.data)::int - 1)) AS ref
                           FROM cotacao_itens ci WHERE ci.cotacao_id = c.id) i,
                generate_series(1, 4) j,
                LATERAL (SELECT CASE WHEN j <= 2 THEN 'fornecedor' WHEN j = 3 THEN 'painel' ELSE (ARRAY['midia', 'contrato', 'nota_fiscal'])[1 + c.g % 3] END AS nome) fonte`,
        [prefeitura, NUMERO],
      );
    });
  });
  await database.maintain();
  await database.withRawClient((raw) =>
    raw.exec(
      'VACUUM (ANALYZE) requisicoes, requisicao_itens, requisicao_aprovacoes, cotacoes, cotacao_itens, cotacao_fornecedores, cotacao_precos, produtos, registros_centros_custo',
    ),
  );
  return performance.now() - t0;
}

export default async function benchAnalise({ root }) {
  const serverCoreDir = join(root, 'packages', 'server-core');
  const serverCore = await import(pathToFileURL(join(serverCoreDir, 'dist', 'index.js')).href);
  const pg = createRequire(join(serverCoreDir, 'package.json'))('pg');
  const { serverPlugins } = await import(pathToFileURL(join(root, 'apps', 'server', 'dist', 'app.js')).href);
  const logger = { info() {}, warn() {}, error: (...a) => console.error(...a) };
  const adminUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = async (text) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  const dbName = `compras_bench_analise_${Date.now().toString(36)}`;
  await admin(`CREATE DATABASE "${dbName}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  let server;
  try {
    const database = await serverCore.openDatabase({ databaseUrl: url.toString(), logger });
    server = await serverCore.createServer({ plugins: serverPlugins, database, seed: true, logger });
    const signin = async (entidadeId) =>
      (await server.app.request('/api/auth/signin', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'admin', senha: 'demo1234', entidadeId }),
      })).json();
    const prefeitura = (await signin()).entidades.find((e) => e.nome.startsWith('Prefeitura')).id;
    const ms = await grow(database, prefeitura);
    const { token } = await signin(prefeitura);
    const sqlRows = (text, params) => database.withRawClient((raw) => raw.query(text, params));

    const [dados] = await sqlRows(
      `SELECT (SELECT count(*)::int FROM requisicao_itens) AS linhas, (SELECT count(*)::int FROM requisicoes WHERE status = 'aprovada') AS aprovadas,
              (SELECT count(*)::int FROM requisicao_aprovacoes) AS aprovacoes, (SELECT count(DISTINCT centro_custo_id)::int FROM requisicoes) AS centros,
              (SELECT count(DISTINCT produto_id)::int FROM requisicao_itens) AS produtos, (SELECT count(*)::int FROM cotacao_precos) AS precos,
              (SELECT count(*)::int FROM cotacoes) AS cotacoes`,
    );
    const [alvo] = await sqlRows(
      `SELECT p.produto_id::text AS produto, count(*)::int AS n, (SELECT id::text FROM registros_grupos WHERE entidade_id = $1 AND codigo = 'BG01') AS grupo
         FROM cotacao_precos p GROUP BY p.produto_id ORDER BY count(*) DESC LIMIT 1`,
      [prefeitura],
    );
    // the 12-month figure, computed independently (last approval of the round in 2025, São Paulo)
    const [conferencia] = await sqlRows(
      `SELECT count(*)::int AS linhas, sum(i.valor_total)::text AS valor FROM requisicao_itens i JOIN requisicoes r ON r.id = i.requisicao_id
        WHERE r.entidade_id = $1 AND r.status = 'aprovada'
          AND (SELECT max(a.created_at) FROM requisicao_aprovacoes a WHERE a.requisicao_id = r.id AND a.ciclo = r.ciclo) AT TIME ZONE 'America/Sao_Paulo'
              BETWEEN '2025-01-01' AND '2025-12-31 23:59:59.999999'`,
      [prefeitura],
    );

    const casos = [
      ['GET /consumo, per centro × month, 12 months (2025-01…2025-12)', '/api/analise/consumo?de=2025-01&ate=2025-12&por=centro'],
      ['GET /consumo, 12 months, grupo filter (1 of 10 bench grupos)', `/api/analise/consumo?de=2025-01&ate=2025-12&por=centro&grupoId=${alvo.grupo}`],
      [`GET /precos, product with most prices, no period`, `/api/analise/precos?produtoId=${alvo.produto}`],
      [`GET /precos, same product, one year (2025)`, `/api/analise/precos?produtoId=${alvo.produto}&de=2025-01-01&ate=2025-12-31`],
    ];
    console.log(
      `\n## Análise (issue 22): API vs the same SQL on PostgreSQL (in-process, ${WARMUP} warm-up + ${RUNS} runs each; goals API p95 ≤ ${GOAL_RATIO}× SQL p95 and ≤ ${GOAL_MS} ms)`,
    );
    console.log('| request | answer | API p50 | API p95 | SQL p50 | SQL p95 | p95 ratio | goals |\n|---|---|---|---|---|---|---|---|');
    const [cfg] = await sqlRows(
      `SELECT split_part(version(), ' ', 2) AS versao, current_setting('jit') AS jit, current_setting('work_mem') AS work_mem,
              current_setting('max_parallel_workers_per_gather') AS paralelos`,
    );
    const carga = () => loadavg().map((l) => l.toFixed(2)).join(' / ');
    const cargaInicio = carga();
    const recorder = record(database);
    const notas = [];
    for (const [rotulo, path] of casos) {
      const request = () => server.app.request(path, { headers: { authorization: `Bearer ${token}` } });
      recorder.start();
      const res = await request();
      const text = await res.text();
      const units = recorder.stop().filter((u) => u.statements.some((a) => /requisicao_itens|cotacao_precos|FROM produtos/.test(sqlText(a))));
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text.slice(0, 500)}`);
      const body = JSON.parse(text);
      const statements = units.flatMap((u) => u.statements);
      if (process.env.BENCH_EXPLAIN) {
        for (const args of statements) {
          const params = Array.isArray(args[1]) ? args[1] : (args[0]?.values ?? []);
          const plan = await sqlRows(`EXPLAIN (ANALYZE, BUFFERS) ${sqlText(args)}`, params);
          console.log(`\n${sqlText(args)}\n${JSON.stringify(params)}\n${plan.map((r) => r['QUERY PLAN']).join('\n')}\n`);
        }
      }
      for (let i = 0; i < WARMUP; i++) {
        await (await request()).arrayBuffer();
        for (const unit of units) await recorder.replay(unit);
      }
      const { times: api } = await measure(async () => (await request()).arrayBuffer(), RUNS);
      const { times: sqlTimes } = await measure(async () => {
        for (const unit of units) await recorder.replay(unit);
      }, RUNS);
      const ratio = pct(api, 95) / pct(sqlTimes, 95);
      const resposta = body.pontos
        ? `${body.pontos.data.length.toLocaleString('pt-BR')} prices (${body.dicionarios.documentos.length.toLocaleString('pt-BR')} documents), ${body.fornecedores.length} suppliers, ${(text.length / 1024).toFixed(0)} KB`
        : `${body.series.length} series × ${body.meses.length} months, total R$ ${body.total.total.valor}, ${(text.length / 1024).toFixed(0)} KB`;
      const ok = ratio <= GOAL_RATIO && pct(api, 95) <= GOAL_MS;
      console.log(
        `| ${rotulo} (${statements.length} statements) | ${resposta} | ${fmt(pct(api, 50))} | ${fmt(pct(api, 95))} | ${fmt(pct(sqlTimes, 50))} | ${fmt(pct(sqlTimes, 95))} | ` +
          `${ratio.toFixed(2)}× | ${ratio <= GOAL_RATIO ? 'ratio OK' : 'ratio OVER'}, ${pct(api, 95) <= GOAL_MS ? '≤ 500 ms OK' : '500 ms OVER'}${ok ? '' : ' ✗'} |`,
      );
      if (path.includes('consumo') && !path.includes('grupoId')) {
        notas.push(
          `the 12-month total R$ ${body.total.total.valor} ${body.total.total.valor === conferencia.valor ? '=' : '≠'} R$ ${conferencia.valor}, the same lines summed by a separate SQL (${conferencia.linhas.toLocaleString('pt-BR')} lines approved in 2025)`,
        );
      }
    }
    recorder.restore();
    console.log(
      `- data: ${dados.linhas.toLocaleString('pt-BR')} requisição lines in ${dados.aprovadas.toLocaleString('pt-BR')} approved requisições (${dados.aprovacoes.toLocaleString('pt-BR')} approval rows, ` +
        `${dados.centros} centros, ${dados.produtos.toLocaleString('pt-BR')} products, 2023-01…2025-12), ${dados.precos.toLocaleString('pt-BR')} collected prices in ${dados.cotacoes.toLocaleString('pt-BR')} cotações ` +
        `(the measured product: ${alvo.n.toLocaleString('pt-BR')} of them); written in ${(ms / 1000).toFixed(1)} s`,
    );
    for (const n of notas) console.log(`- ${n}`);
    console.log(
      `- PostgreSQL ${cfg.versao} (jit ${cfg.jit}, work_mem ${cfg.work_mem}, ${cfg.paralelos} parallel workers per gather); ${cpus().length} CPUs, ` +
        `load average (1/5/15 min) ${cargaInicio} before the measures, ${carga()} after`,
    );
    console.log('- SQL = the statements the request ran, recorded and replayed through the same pg pool (parameters included), one after the other');
  } finally {
    await server?.close();
    // BENCH_ANALISE_KEEP=1 leaves the database for EXPLAIN by hand (drop it afterwards)
    if (process.env.BENCH_ANALISE_KEEP) console.log(`- database kept: ${url}`);
    else await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  }
}
