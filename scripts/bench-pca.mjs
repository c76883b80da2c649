// pnpm bench, PCA (issue 20): 10 000 accepted DFDs with 100 000 lines consolidated into one plan by one
// PUT naming them — the document kit's many → one link locks, checks and audits each DFD, then the
// plugin's consolidar() groups the lines into plan items (exact sums) — on PGlite and on PostgreSQL
// (goal ≤ 10 s each); the plan's page data afterwards (GET /planos/:id: items, their DFD lines, totals,
// fracionamento; goal for the first rows ≤ 1 s), and `enviar`, which consolidates again before checking.
// The consolidated total is checked against the database's own sum of the lines.
// BENCH_PCA_DFDS and BENCH_PCA_LINHAS (lines per DFD) change the sizes.
import { benchServers, bulkLoad, fmt, measure, pct } from './lib/bench-server.mjs';

const DFDS = Number(process.env.BENCH_PCA_DFDS) || 10_000;
const LINHAS = Number(process.env.BENCH_PCA_LINHAS) || 10;
const ANO_PCA = 2031;

/** DFDs of every centro, accepted, for ANO_PCA; each line a demo product, 4-decimal unit values. */
async function grow(database, prefeitura) {
  const t0 = performance.now();
  await database.withRawClient(async (raw) => {
    await bulkLoad(raw, ['memorandos', 'memorando_itens'], async () => {
      await raw.query(
        `WITH cc AS (SELECT array_agg(id ORDER BY codigo) AS ids, count(*)::int AS n FROM registros_centros_custo WHERE entidade_id = $1),
              u AS (SELECT id, nome FROM usuarios WHERE login = 'requisitante')
         INSERT INTO memorandos (entidade_id, numero, ano, data, status, origem_id, destino_id, solicitante_id, solicitante_nome,
                                 assunto, justificativa, prioridade, data_desejada, ano_pca)
         SELECT $1, 1 + g, 2030, make_date(2030, 1 + g % 12, 1 + g % 28), 'aceito', cc.ids[1 + g % cc.n], cc.ids[1], u.id, u.nome,
                'Demanda ' || g || ' para o PCA', 'Necessidade do exercício seguinte.', 'media', make_date($3, 1 + g % 12, 1 + g % 28), $3
           FROM generate_series(0, $2::int - 1) g, cc, u`,
        [prefeitura, DFDS, ANO_PCA],
      );
      await raw.query(
        `WITH p AS (SELECT array_agg(id ORDER BY codigo) AS ids, count(*)::int AS n FROM produtos WHERE entidade_id = $1 AND ativo)
         INSERT INTO memorando_itens (memorando_id, entidade_id, ordem, produto_id, quantidade, valor_unitario, valor_total)
         SELECT m.id, m.entidade_id, o, p.ids[1 + (m.numero * 7 + o) % p.n], 1 + (m.numero + o) % 50, 1.3333 + o % 13,
                round((1 + (m.numero + o) % 50) * (1.3333 + o % 13), 2)
           FROM memorandos m, p, generate_series(1, $2::int) o
          WHERE m.entidade_id = $1 AND m.ano_pca = $3`,
        [prefeitura, LINHAS, ANO_PCA],
      );
    });
  });
  await database.maintain();
  if (database.engine === 'postgres') await database.withRawClient((raw) => raw.exec('VACUUM (ANALYZE) memorandos, memorando_itens'));
  return performance.now() - t0;
}

export default async function benchPca({ root, tmp }) {
  console.log(`\n## PCA: consolidation of ${DFDS.toLocaleString('pt-BR')} DFDs / ${(DFDS * LINHAS).toLocaleString('pt-BR')} lines into one plan (goal ≤ 10 s)`);
  console.log('| engine | PUT with the DFDs (link + consolidation) | PUT again (consolidation only) | plan items | DFD lines behind them | total = SQL sum of the lines | GET /planos/:id p50 | p95 | enviar (consolidates again) |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  const notes = [];
  for await (const { engine, database, server, prefeitura, renew } of benchServers({ root, tmp, name: 'pca' })) {
    const ms = await grow(database, prefeitura);
    notes.push(`${engine}: ${DFDS.toLocaleString('pt-BR')} DFDs with ${LINHAS} lines each written in ${(ms / 1000).toFixed(1)} s`);
    const token = await renew();
    const call = async (path, init = {}, status = 200) => {
      const res = await server.app.request(`/api/pca${path}`, {
        method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
        headers: { authorization: `Bearer ${token}`, ...(init.json === undefined ? {} : { 'content-type': 'application/json' }) },
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
      });
      const text = await res.text();
      if (res.status !== status) throw new Error(`${path}: expected ${status}, got ${res.status}: ${text.slice(0, 500)}`);
      return JSON.parse(text);
    };
    const [{ setor, ids, soma }] = await database.withRawClient((raw) =>
      raw.query(
        `SELECT (SELECT id FROM registros_centros_custo WHERE entidade_id = $1 AND codigo = '01.01') AS setor,
                (SELECT array_agg(id ORDER BY numero) FROM memorandos WHERE entidade_id = $1 AND ano_pca = $2) AS ids,
                (SELECT sum(round(i.quantidade * i.valor_unitario, 4))::text FROM memorando_itens i JOIN memorandos m ON m.id = i.memorando_id
                  WHERE m.entidade_id = $1 AND m.ano_pca = $2) AS soma`,
        [prefeitura, ANO_PCA],
      ),
    );
    let plano = await call('/planos', { json: { anoPca: ANO_PCA, codigoUnidade: 'BENCH', centroCustoId: setor } }, 201);
    const corpo = { anoPca: ANO_PCA, codigoUnidade: 'BENCH', centroCustoId: setor };
    const t0 = performance.now();
    plano = await call(`/planos/${plano.id}`, { method: 'PUT', json: { ...corpo, version: plano.version, memorandoIds: ids } });
    const consolidacao = performance.now() - t0;
    // saved again without naming the DFDs: the links stay, the items are consolidated again (the part of the consolidation alone)
    const t2 = performance.now();
    plano = await call(`/planos/${plano.id}`, { method: 'PUT', json: { ...corpo, version: plano.version } });
    const reconsolidacao = performance.now() - t2;
    const [{ itens, fontes }] = await database.withRawClient((raw) =>
      raw.query(
        `SELECT count(DISTINCT i.id)::int AS itens, count(f.id)::int AS fontes FROM pca_itens i LEFT JOIN pca_item_fontes f ON f.item_id = i.id WHERE i.plano_id = $1`,
        [plano.id],
      ),
    );
    const exato = plano.valorTotal === soma;
    const { times } = await measure(() => call(`/planos/${plano.id}`), 10);
    const t1 = performance.now();
    const enviado = await call(`/planos/${plano.id}/enviar`, { json: { version: plano.version } }, 200);
    const envio = performance.now() - t1;
    if (enviado.status !== 'em_aprovacao') throw new Error(`enviar: ${enviado.status}`);
    const ok = (v, goal) => (v <= goal ? 'OK' : 'OVER');
    console.log(
      `| ${engine} | ${(consolidacao / 1000).toFixed(2)} s ${ok(consolidacao, 10_000)} | ${(reconsolidacao / 1000).toFixed(2)} s | ${itens.toLocaleString('pt-BR')} | ${fontes.toLocaleString('pt-BR')} | ` +
        `${plano.valorTotal} ${exato ? '= ' : '≠ '}${soma} | ${fmt(pct(times, 50))} ${ok(pct(times, 50), 1000)} | ${fmt(pct(times, 95))} | ${(envio / 1000).toFixed(2)} s |`,
    );
  }
  for (const n of notes) console.log(`- ${n}`);
}
