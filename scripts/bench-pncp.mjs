// pnpm bench, PNCP part (issue 21): a PCA of 10 000 items published on @app/pncp-fake by the plugin's
// own synchronisation (sincronizarPlano, batches of 1000) while 20 % of the calls answer 429 (half of
// them with Retry-After: 1). The run is repeated the way the durable job would (a retryable error →
// run again; the store keeps what the PNCP acknowledged). Reported: time, calls made (by status), runs,
// and whether the fake ends with exactly one plan equal to the local one (exact decimal strings).
// The back-off waits are real (the client's, 500 ms · 2ⁿ with jitter, capped), so the time is mostly waiting.
//
// Standalone: `node scripts/bench-pncp.mjs` (needs `pnpm build`); BENCH_PNCP_ITENS=… to change the size.
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
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchPncp();
