// The server process killed (SIGKILL) in the middle of a PCA publication on the PNCP, then started again on
// the same embedded database: the publication resumes and finishes, and the PNCP (@app/pncp-fake, in this
// process) holds exactly one plan, equal to the local one. The real `node dist/cli.js start`, the demo data,
// one item per PNCP call (PNCP_LOTE=1); the PNCP takes the second batch but answers it only after 60 s, and
// the process is killed while it waits — the batch is on the PNCP, the server never recorded it.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FakePncp, startFakePncp } from '@app/pncp-fake';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(APP_DIR, 'dist', 'cli.js');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(check: () => Promise<T | undefined | false> | T | undefined | false, ms: number, what: string): Promise<T> {
  const fim = Date.now() + ms;
  while (Date.now() < fim) {
    const v = await check();
    if (v) return v;
    await sleep(200);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('PNCP publication across a kill -9', () => {
  let fake: FakePncp;
  let dir = '';
  const processos: ChildProcess[] = [];
  const saida: string[] = [];

  /** Starts the server on the test's data folder; answers its URL. */
  async function iniciar(): Promise<{ url: string; child: ChildProcess }> {
    const inicio = saida.length;
    const child = spawn(process.execPath, [CLI, 'start'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        DATABASE_URL: '',
        DATA_DIR: join(dir, 'dados'),
        PORT: '0',
        HOST: '127.0.0.1',
        PNCP_API_URL: `${fake.url}/api/pncp`,
        PNCP_CONSULTA_URL: `${fake.url}/api/consulta`,
        PNCP_CREDENCIAIS_KEY: 'chave-das-credenciais-do-pncp-no-teste-kill',
        PNCP_LOTE: '1',
        JOBS_POLLING_SECONDS: '0.5',
        JOBS_SUPERVISE_SECONDS: '2',
      },
    });
    processos.push(child);
    child.stdout!.setEncoding('utf8').on('data', (c: string) => saida.push(c));
    child.stderr!.setEncoding('utf8').on('data', (c: string) => saida.push(c));
    const m = await until(
      () => /Compras em http:\/\/[^:]+:(\d+)/.exec(saida.slice(inicio).join('')) ?? undefined,
      120_000,
      `the server to start:\n${saida.join('')}`,
    );
    return { url: `http://127.0.0.1:${m[1]}`, child };
  }

  beforeAll(async () => {
    fake = await startFakePncp();
    dir = mkdtempSync(join(tmpdir(), 'compras-pncp-kill-'));
  });
  afterAll(async () => {
    for (const p of processos) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
    await fake?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('resumes after the restart and the PNCP holds exactly the plan', async () => {
    let { url, child } = await iniciar();
    const api = async <R>(path: string, token: string | null, init: { method?: string; json?: unknown } = {}, status = 200): Promise<R> => {
      const res = await fetch(`${url}${path}`, {
        method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
      });
      const text = await res.text();
      if (res.status !== status) throw new Error(`${init.method ?? 'GET'} ${path}: expected ${status}, got ${res.status}: ${text}`);
      return (text ? JSON.parse(text) : null) as R;
    };
    // signed in at the Prefeitura (the demo plan's entidade)
    const entrar = async (login: string) => {
      const primeiro = await api<{ token: string; entidades: { id: string; nome: string }[] }>('/api/auth/signin', null, {
        json: { login, senha: 'demo1234' },
      });
      const prefeitura = primeiro.entidades.find((e) => e.nome.startsWith('Prefeitura'))!;
      return (await api<{ token: string }>('/api/auth/signin', null, { json: { login, senha: 'demo1234', entidadeId: prefeitura.id } })).token;
    };
    let admin = await entrar('admin');
    const autoridade = await entrar('autoridade');
    await api('/api/pncp/credenciais', admin, { method: 'PUT', json: { login: 'compras-treina', senha: 'Senha-Forte-Treina-2026' } });
    type Plano = { id: string; version: number; itens: { numeroItem: number; quantidade: string; valorUnitario: string }[] };
    // the demo plan em elaboração (the other, this year's, is approved already)
    const lista = await api<{ items: { id: string; status: string }[] }>('/api/pca/planos', admin);
    let plano = await api<Plano>(`/api/pca/planos/${lista.items.find((p) => p.status === 'em_elaboracao')!.id}`, admin);
    expect(plano.itens.length).toBeGreaterThanOrEqual(2);
    plano = await api<Plano>(`/api/pca/planos/${plano.id}/enviar`, admin, { json: { version: plano.version } });
    plano = await api<Plano>(`/api/pca/planos/${plano.id}/aprovar`, autoridade, { json: { version: plano.version } });

    // the second batch: taken by the PNCP, answered only after 60 s
    fake.fault({ route: 'POST /itens', kind: 'delay', delayMs: 60_000 });
    await api(`/api/pca/planos/${plano.id}/publicar`, admin, { json: { version: plano.version } });
    await until(() => fake.calls.some((c) => c.method === 'POST' && /\/itens$/.test(c.path.split('?')[0]!)), 30_000, 'the second batch sent');
    child.kill('SIGKILL');
    await until(() => child.signalCode === 'SIGKILL' || undefined, 10_000, 'the process killed');
    fake.clearFaults();
    // the PNCP holds the plan with its first two items; the server died before recording the second
    expect(fake.plans().filter((p) => !p.excluido)).toHaveLength(1);

    ({ url, child } = await iniciar());
    admin = await entrar('admin');
    type Pub = { planoId: string; estado: string; tentativas: number; numeroControle: string | null };
    const pub = await until(
      async () => (await api<{ items: Pub[] }>('/api/pncp/publicacoes', admin)).items.find((p) => p.planoId === plano.id && p.estado === 'concluido'),
      150_000,
      `the publication to finish after the restart:\n${saida.slice(-20).join('')}`,
    );
    expect(pub.tentativas).toBeGreaterThanOrEqual(2);

    const planos = fake.plans().filter((p) => !p.excluido);
    expect(planos).toHaveLength(1);
    expect(pub.numeroControle).toBe(`46358021000184-0-${String(planos[0]!.sequencial).padStart(6, '0')}/${planos[0]!.anoPca}`);
    const itens = planos[0]!.itens.filter((i) => !i.excluido);
    const local = await api<Plano>(`/api/pca/planos/${plano.id}`, admin);
    expect(local.itens.length).toBeGreaterThanOrEqual(2);
    expect(itens.map((i) => [i.numeroItem, i.body.quantidade, i.body.valorUnitario])).toEqual(
      local.itens.map((i) => [i.numeroItem, i.quantidade, i.valorUnitario]),
    );
    child.kill('SIGTERM');
  }, 300_000);
});
