// pnpm bench, PNCP part (issue 21): a PCA of 10 000 items published on @app/pncp-fake by the plugin's
// own synchronisation (sincronizarPlano, batches of 1000) while 20 % of the calls answer 429 (half of
// them with Retry-After: 1). The run is repeated the way the durable job would (a retryable error →
// run again; the store keeps what the PNCP acknowledged). Reported: time, calls made (by status), runs,
// and whether the fake ends with exactly one plan equal to the local one (exact decimal strings).
// The back-off waits are real (the client's, 500 ms · 2ⁿ with jitter, capped), so the time is mostly waiting.
//
// Then what the job queue adds to the publish request (benchFila: with and without @app/pncp, p50/p95).
// Standalone: `node scripts/bench-pncp.mjs` (needs `pnpm build`); BENCH_PNCP_ITENS=… and BENCH_PNCP_PLANOS=… change the sizes.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ITENS = Number(process.env.BENCH_PNCP_ITENS) || 10_000;
const CNPJ = '46358021000184';

/** (q + 0,5) × (v + 0,3333) to 4 places, exactly (integers of 1/10 000). */
function total(q, v) {
  const units = (BigInt(q) * 10000n + 5000n) * (BigInt(v) * 10000n + 3333n);
  const t = (units + 5000n) / 10000n;
  return `${t / 10000n}.${String(t % 10000n).padStart(4, '0')}`;
}

export default async function benchPncp() {
  const { startFakePncp } = await import(pathToFileURL(join(ROOT, 'packages', 'pncp-fake', 'dist', 'index.js')).href);
  const { createPncpClient, criarCacheTokens, sincronizarPlano, pncpErroRetentavel } = await import(
    pathToFileURL(join(ROOT, 'packages', 'plugins', 'pncp', 'dist', 'server', 'index.js')).href
  );
  const fake = await startFakePncp();
  const base = `${fake.url}/api/pncp`;
  let sorteio = 7;
  // deterministic 20 %: a linear congruential sequence, so two runs see the same faults
  const proximo = () => {
    sorteio = (sorteio * 1103515245 + 12345) % 2 ** 31;
    return sorteio / 2 ** 31;
  };
  const fetchComFalhas = (url, init) => {
    if (proximo() < 0.2) fake.fault({ route: '*', kind: proximo() < 0.5 ? '429' : '429-retry-after', retryAfterSeconds: 1 });
    return fetch(url, init);
  };
  const client = createPncpClient({
    baseUrl: base,
    credenciais: async () => ({ login: 'compras-treina', senha: 'Senha-Forte-Treina-2026' }),
    fetch: fetchComFalhas,
    cacheTokens: criarCacheTokens(),
    intervaloEscritasMs: 0,
    esperaMaximaMs: 4000,
  });
  const itens = Array.from({ length: ITENS }, (_, i) => ({
    numeroItem: i + 1,
    categoriaItemPca: '1',
    catalogo: '1',
    classificacaoCatalogo: '1',
    classificacaoSuperiorCodigo: '7510',
    classificacaoSuperiorNome: 'Artigos de expediente',
    codigoItem: String(400000 + i),
    descricao: `Item ${i + 1} do plano`,
    unidadeFornecimento: 'UN',
    quantidade: `${(i % 97) + 1}.5000`,
    valorUnitario: `${(i % 13) + 1}.3333`,
    valorTotal: total((i % 97) + 1, (i % 13) + 1),
    valorOrcamentoExercicio: '0.0000',
    dataDesejada: '2027-03-15',
    unidadeRequisitante: 'Secretaria de Educação',
  }));
  // the store of the job, in memory here (the plugin's is the database)
  const estado = { sequencial: null, enviados: new Map() };
  const store = {
    carregar: async () => ({ sequencial: estado.sequencial, enviados: new Map(estado.enviados) }),
    registrarPlano: async (s) => {
      estado.sequencial = s;
    },
    registrarEnviados: async (l) => {
      for (const i of l) estado.enviados.set(i.numeroItem, i.fingerprint);
    },
    registrarExcluidos: async (ns) => {
      for (const n of ns) estado.enviados.delete(n);
    },
    progresso: () => undefined,
  };
  const t0 = performance.now();
  let execucoes = 0;
  for (;;) {
    execucoes++;
    try {
      await sincronizarPlano(client, { cnpj: CNPJ, codigoUnidade: '1', anoPca: 2027, itens }, store, { lote: 1000 });
      break;
    } catch (erro) {
      if (!pncpErroRetentavel(erro) || execucoes > 50) throw erro;
    }
  }
  const segundos = (performance.now() - t0) / 1000;
  const planos = fake.plans(CNPJ).filter((p) => !p.excluido);
  const noPncp = planos[0]?.itens.filter((i) => !i.excluido) ?? [];
  const iguais =
    planos.length === 1 &&
    noPncp.length === ITENS &&
    noPncp.every((i, k) => i.numeroItem === k + 1 && i.body.quantidade === itens[k].quantidade && i.body.valorUnitario === itens[k].valorUnitario);
  const porStatus = {};
  for (const c of fake.calls) porStatus[c.status] = (porStatus[c.status] ?? 0) + 1;
  await fake.close();
  console.log(`\n## PNCP: publishing ${ITENS.toLocaleString('en')} PCA items on the fake, 20 % of calls answering 429`);
  console.log(`time ${segundos.toFixed(1)} s; sync runs ${execucoes}; calls ${fake.calls.length} (${Object.entries(porStatus).map(([s, n]) => `${s}: ${n}`).join(', ')})`);
  console.log(`the fake holds exactly one plan equal to the local one: ${iguais ? 'yes' : 'NO'}`);
  if (!iguais) throw new Error('bench-pncp: the PNCP does not hold exactly the plan');
  await benchFila();
}

/**
 * What the job queue adds to the publish request (goal ≤ 50 ms at p95): POST /api/pca/planos/:id/publicar on
 * the embedded server with every plugin (the PNCP's publisher checks the credentials and items, records the
 * publication and enqueues the job in the transaction; the workers run the publications meanwhile, against the
 * fake) and on the same server without the PNCP plugin (the plan is only marked published). Each side publishes
 * its own approved plans, copies of the demo plan made as fixture rows.
 */
async function benchFila() {
  const N = Number(process.env.BENCH_PNCP_PLANOS) || 60;
  const { startFakePncp } = await import(pathToFileURL(join(ROOT, 'packages', 'pncp-fake', 'dist', 'index.js')).href);
  const fake = await startFakePncp({ orgaos: [{ cnpj: CNPJ, unidades: Array.from({ length: N + 5 }, (_, i) => String(i + 1)) }] });
  const serverCore = await import(pathToFileURL(join(ROOT, 'packages', 'server-core', 'dist', 'index.js')).href);
  const { definePncpPlugin } = await import(pathToFileURL(join(ROOT, 'packages', 'plugins', 'pncp', 'dist', 'server', 'index.js')).href);
  const { serverPlugins: todos } = await import(pathToFileURL(join(ROOT, 'apps', 'server', 'dist', 'app.js')).href);
  // the product's plugins, the PNCP's pointed at the fake
  const pncp = definePncpPlugin({ apiUrl: `${fake.url}/api/pncp`, consultaUrl: `${fake.url}/api/consulta`, chave: 'chave-das-credenciais-do-pncp-no-bench-da-fila' });
  const serverPlugins = todos.map((p) => (p.id === 'pncp' ? pncp : p));
  const logger = { info() {}, warn() {}, error: (...a) => console.error(...a) };
  const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  const lado = async (nome, plugins, jobs = {}) => {
    const database = await serverCore.openDatabase({ dataDir: 'memory://', logger });
    const server = await serverCore.createServer({ plugins, database, jwtSecret: 'b'.repeat(48), logger, seed: true, jobs });
    const req = async (path, token, init = {}) => {
      const res = await server.app.request(path, {
        method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`bench-pncp (${nome}) ${path}: ${res.status} ${text}`);
      return text ? JSON.parse(text) : null;
    };
    const primeiro = await req('/api/auth/signin', null, { json: { login: 'admin', senha: 'demo1234' } });
    const prefeitura = primeiro.entidades.find((e) => e.nome.startsWith('Prefeitura')).id;
    const admin = (await req('/api/auth/signin', null, { json: { login: 'admin', senha: 'demo1234', entidadeId: prefeitura } })).token;
    if (plugins.some((p) => p.id === 'pncp')) {
      await req('/api/pncp/credenciais', admin, { method: 'PUT', json: { login: 'compras-treina', senha: 'Senha-Forte-Treina-2026' } });
    }
    // N approved copies of the demo plan (fixture rows), each for its own PNCP unit
    const sql = (text, params) => database.withRawClient((raw) => raw.query(text, params));
    const colunas = async (tabela) =>
      (await sql("SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND is_generated = 'NEVER' AND column_name <> 'id'", [tabela])).map(
        (r) => r.column_name,
      );
    const cp = await colunas('pca_planos');
    const ci = (await colunas('pca_itens')).filter((c) => c !== 'plano_id');
    const [demo] = await sql('SELECT id, numero FROM pca_planos WHERE entidade_id = $1 ORDER BY numero LIMIT 1', [prefeitura]);
    const ids = [];
    for (let i = 1; i <= N; i++) {
      const troca = { numero: `numero + ${i}`, codigo_unidade: `'${i + 1}'`, status: "'aprovado'" };
      const [novo] = await sql(
        `INSERT INTO pca_planos (${cp.join(', ')}) SELECT ${cp.map((c) => troca[c] ?? c).join(', ')} FROM pca_planos WHERE id = $1 RETURNING id`,
        [demo.id],
      );
      await sql(`INSERT INTO pca_itens (plano_id, ${ci.join(', ')}) SELECT $2, ${ci.join(', ')} FROM pca_itens WHERE plano_id = $1`, [demo.id, novo.id]);
      ids.push(novo.id);
    }
    const times = [];
    for (const id of ids) {
      const { version } = await req(`/api/pca/planos/${id}`, admin);
      const t0 = performance.now();
      await req(`/api/pca/planos/${id}/publicar`, admin, { json: { version } });
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    await server.close();
    return { p50: pct(times, 50), p95: pct(times, 95) };
  };
  const sem = await lado('sem PNCP', serverPlugins.filter((p) => p.id !== 'pncp'));
  // the enqueue alone (this instance does not work the queue, JOBS=off), then with the workers publishing meanwhile
  const enfileira = await lado('com PNCP, JOBS=off', serverPlugins, { work: false });
  const com = await lado('com PNCP', serverPlugins);
  await fake.close();
  const linha = (rotulo, r) => console.log(`| ${rotulo} | ${r.p50.toFixed(1)} ms | ${r.p95.toFixed(1)} ms | ${r === sem ? '—' : `+${(r.p95 - sem.p95).toFixed(1)} ms`} |`);
  console.log(`\n## PNCP: what the job queue adds to the publish request (${N} plans each, embedded PGlite)`);
  console.log('| server | p50 | p95 | added at p95 |\n|---|---|---|---|');
  linha('without @app/pncp (baseline: the plan only marked published)', sem);
  linha('with @app/pncp, this instance not working the queue (JOBS=off): publication recorded, job enqueued in the transaction', enfileira);
  linha('with @app/pncp, the workers publishing the earlier plans meanwhile (one PGlite connection shared)', com);
  const a = enfileira.p95 - sem.p95;
  console.log(`the queue's own cost at p95: +${a.toFixed(1)} ms (goal ≤ 50 ms) ${a <= 50 ? 'OK' : 'OVER'}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchPncp();
