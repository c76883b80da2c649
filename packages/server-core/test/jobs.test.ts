// Durable jobs (platform/jobs.ts, pg-boss) on both engines: enqueue in the mutation's transaction
// (committed → runs with its effect and an audit row as the system; rolled back → never exists),
// retries with back-off, JobFailed without retries, payload validation on send, singletonKey policy.
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../src/testing.js';
import { jobsPlugin, until } from './fixtures/jobs-plugin.js';

const { plugin, state } = jobsPlugin();
const JOBS = { pollingIntervalSeconds: 0.5, superviseIntervalSeconds: 1 };

describeEachDatabase('durable jobs', { plugins: [plugin], jobs: JOBS }, (t) => {
  const ctx = () => state.ctx!;
  const runsOf = (queue: string, id: string) => state.runs.filter((r) => r.queue === queue && r.id === id);

  it('a job sent inside a committed mutation runs: its effect and its audit row (as the system) exist', async () => {
    const id = `ok-${t.engine}`;
    const { token } = await t.server.signIn();
    const res = await t.server.request('/api/tarefas-teste/enviar', { token, json: { id } });
    expect(res.status).toBe(200);
    const { jobId } = (await res.json()) as { jobId: string };
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
    await until(async () => (await ctx().jobs.get('processar', jobId))?.state === 'completed', 15_000, 'job completed');
    const job = await ctx().jobs.get('processar', jobId);
    expect(job).toMatchObject({ id: jobId, queue: 'processar', state: 'completed', retryCount: 0, data: { id }, output: { processado: id } });
    const [effect] = await t.server.sql<{ value: string }>('SELECT value FROM app_config WHERE key = $1', [`job:${id}`]);
    expect(effect?.value).toBe('tentativa 1');
    const audit = await t.server.sql<{ acao: string; usuario_id: string | null; plugin: string }>(
      'SELECT acao, usuario_id, plugin FROM audit_log WHERE registro = $1 ORDER BY id',
      [id],
    );
    // the request's own row (by the admin), then the job's (no user: the system)
    expect(audit.map((a) => a.acao)).toEqual(['enviar', 'processar']);
    expect(audit[0]!.usuario_id).not.toBeNull();
    expect(audit[1]).toMatchObject({ usuario_id: null, plugin: 'tarefas-teste' });
    const jctx = state.contexts.at(-1)!;
    expect(jctx).toMatchObject({ jobId, queue: 'processar', attempt: 1, plugin: { id: 'tarefas-teste' } });
    expect(typeof jctx.clock.now()).toBe('number');
  });

  it('a job sent inside a rolled-back mutation never exists and never runs', async () => {
    const id = `desfeito-${t.engine}`;
    const { token } = await t.server.signIn();
    const res = await t.server.request('/api/tarefas-teste/enviar', { token, json: { id, desfazer: true } });
    expect(res.status).toBe(409);
    // a committed one sent after it runs; the rolled-back one is not in the queue
    const after = await ctx().jobs.send('processar', { id: `depois-${t.engine}` });
    await until(async () => (await ctx().jobs.get('processar', after!))?.state === 'completed', 15_000, 'later job');
    const all = await ctx().jobs.list('processar');
    expect(all.some((j) => (j.data as { id: string }).id === id)).toBe(false);
    expect(runsOf('processar', id)).toEqual([]);
    expect(await t.server.sql('SELECT 1 FROM app_config WHERE key = $1', [`job:${id}`])).toEqual([]);
  });

  it('a failing handler is retried with back-off, then succeeds; the attempts are visible', async () => {
    const id = `instavel-${t.engine}`;
    const jobId = (await ctx().jobs.send('instavel', { id }))!;
    await until(async () => (await ctx().jobs.get('instavel', jobId))?.state === 'completed', 20_000, 'retried job');
    const runs = runsOf('instavel', id);
    expect(runs.map((r) => r.attempt)).toEqual([1, 2, 3]);
    // back-off: at least ~1 s (retryDelay) between attempts
    expect(runs[1]!.at - runs[0]!.at).toBeGreaterThanOrEqual(900);
    const job = await ctx().jobs.get('instavel', jobId);
    expect(job).toMatchObject({ state: 'completed', retryCount: 2, retryLimit: 4, output: { tentativas: 3 } });
  });

  it('JobFailed fails the job at once, whatever retries remain', async () => {
    const id = `recusar-${t.engine}`;
    const jobId = (await ctx().jobs.send('recusar', { id }))!;
    await until(async () => (await ctx().jobs.get('recusar', jobId))?.state === 'failed', 15_000, 'failed job');
    const job = await ctx().jobs.get('recusar', jobId);
    expect(job).toMatchObject({ state: 'failed', retryLimit: 5, output: { message: 'O PNCP recusou os dados.', campos: ['valor'] } });
    // give a would-be retry (retryDelay 1 s) time to happen: none does
    await new Promise((r) => setTimeout(r, 2_000));
    expect(runsOf('recusar', id)).toHaveLength(1);
    // retry() runs it again (it fails again: 2 runs)
    await ctx().jobs.retry('recusar', jobId);
    await until(() => runsOf('recusar', id).length === 2, 15_000, 'manual retry');
  });

  it('the payload schema rejects a bad payload on send, and unknown queues are refused', async () => {
    await expect(ctx().jobs.send('processar', { id: 42 })).rejects.toThrow(/invalid payload \(id: /);
    await expect(ctx().jobs.send('processar', {})).rejects.toThrow(/invalid payload/);
    await expect(ctx().jobs.send('inexistente', { id: 'x' })).rejects.toThrow(/no job queue 'inexistente'/);
    // unknown keys are stripped: only what the schema declares is stored
    const jobId = (await ctx().jobs.send('processar', { id: `extra-${t.engine}`, senha: 'segredo' }))!;
    expect((await ctx().jobs.get('processar', jobId))?.data).toEqual({ id: `extra-${t.engine}` });
  });

  it("singletonKey with policy 'exclusive': a second send for the same key while one is queued or running gives no job", async () => {
    const key = `pca:${t.engine}`;
    const first = await ctx().jobs.send('unico', { id: 'a' }, { singletonKey: key, startAfter: 3 });
    const second = await ctx().jobs.send('unico', { id: 'b' }, { singletonKey: key });
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toBeNull();
    const other = await ctx().jobs.send('unico', { id: 'c' }, { singletonKey: `${key}:outro` });
    expect(other).not.toBeNull();
    expect((await ctx().jobs.list('unico', { key })).map((j) => j.id)).toEqual([first]);
    // cancel: the queued job ends as cancelled and never runs
    await ctx().jobs.cancel('unico', first!);
    expect((await ctx().jobs.get('unico', first!))?.state).toBe('cancelled');
    await until(async () => (await ctx().jobs.get('unico', other!))?.state === 'completed', 15_000, 'other key');
    expect(state.runs.some((r) => r.queue === 'unico' && r.id === 'a')).toBe(false);
  });

  it('the jobs context: same PGlite/pool as the app, attempt and retry limit', async () => {
    const jctx = state.contexts.at(-1)!;
    expect(jctx.engine).toBe(t.engine);
    expect(jctx.retryLimit).toBe(2);
    expect(jctx.signal).toBeInstanceOf(AbortSignal);
  });
});

describeEachDatabase('durable jobs and the embedded single connection', { plugins: [plugin], jobs: JOBS }, (t) => {
  it('ctx.jobs.send without the tx inside a transaction: fails at once on PGlite (no deadlock), outside the transaction on PostgreSQL', async () => {
    const ctx = state.ctx!;
    const attempt = ctx.db.transaction(async () => ctx.jobs.send('processar', { id: `reentrada-${t.engine}` }));
    if (t.engine === 'pglite') await expect(attempt).rejects.toThrow(/re-entrance/);
    else await expect(attempt).resolves.toMatch(/^[0-9a-f-]{36}$/);
  });

  it('jobs wait for a long transaction and run after it; the transaction is not disturbed', async () => {
    const ctx = state.ctx!;
    const id = `espera-${t.engine}`;
    let jobId: string | null = null;
    const started = Date.now();
    await ctx.db.transaction(async (tx) => {
      jobId = await ctx.jobs.send(tx, 'processar', { id });
      await new Promise((r) => setTimeout(r, 1_500));
      // the transaction still sees only its own state: nothing ran inside it
      expect(state.runs.some((r) => r.id === id)).toBe(false);
    });
    await until(async () => (await ctx.jobs.get('processar', jobId!))?.state === 'completed', 15_000, 'job after the transaction');
    const run = state.runs.find((r) => r.id === id)!;
    expect(run.at - started).toBeGreaterThanOrEqual(1_500);
  });
});

const idle = jobsPlugin('tarefas-paradas');
describeEachDatabase('durable jobs on an instance that does not work them (JOBS=off)', { plugins: [idle.plugin], jobs: { ...JOBS, work: false } }, (t) => {
  it('enqueues and reads, runs nothing', async () => {
    const ctx = idle.state.ctx!;
    const jobId = (await ctx.jobs.send('processar', { id: `parado-${t.engine}` }))!;
    await new Promise((r) => setTimeout(r, 2_000));
    expect((await ctx.jobs.get('processar', jobId))?.state).toBe('created');
    expect(idle.state.runs).toEqual([]);
  });
});
