// 'Atividade por período' at /reports (contributed to the kit's RELATORIOS point): events per São
// Paulo day (23:30 local on the last day of a month stays in that month), person, module and action;
// exact total; the tag; hostile filters.
import relatorios from '@app/relatorios/server';
import { type ErrorBody, describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import auditoria from '../../src/server/index.js';

type Resultado = { linhas: Record<string, unknown>[]; totais: Record<string, string>; filtrosUsados: { label: string; valor: string }[] };

describeEachDatabase("@app/auditoria: the 'atividade' report", { plugins: [auditoria, relatorios], seed: true }, (t) => {
  let admin: { token: string };
  let semTag: { token: string };
  let adminId: string;
  const linhas = (query: string, u = admin) => t.server.request(`/api/relatorios/auditoria.atividade/linhas${query}`, { token: u.token });
  const json = async <R>(res: Response, status: number): Promise<R> => {
    const text = await res.text();
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
    return JSON.parse(text) as R;
  };

  beforeAll(async () => {
    const { prefeitura } = await t.server.demoEntidades();
    adminId = (await t.server.sql<{ id: string }>("SELECT id FROM usuarios WHERE login = 'admin'"))[0]!.id;
    admin = await t.server.createUser({ login: 'auditor', tags: [90, 105] });
    semTag = await t.server.createUser({ login: 'semaudit', tags: [105] });
    const evento = (at: string, acao: string, plugin = 'auditoria') =>
      t.server.sql('INSERT INTO audit_log (at, usuario_id, entidade_id, plugin, acao) VALUES ($1::timestamptz, $2, $3, $4, $5)', [
        at,
        adminId,
        prefeitura,
        plugin,
        acao,
      ]);
    await evento('2025-03-31T12:00:00-03:00', 'criar');
    await evento('2025-03-31T23:30:00-03:00', 'criar'); // 01/04 02:30 UTC: still 31/03 in São Paulo
    await evento('2025-04-01T00:10:00-03:00', 'alterar');
    await evento('2025-04-01T09:00:00-03:00', 'enviar_convites', 'core');
  });

  it('counts per São Paulo day, person, module and action; readable names; exact total', async () => {
    const marco = await json<Resultado>(await linhas('?de=31/03/2025&ate=31/03/2025'), 200);
    expect(marco.linhas).toEqual([{ dia: '2025-03-31', pessoa: 'Administrador do Sistema', modulo: 'Logs de Auditoria', acao: 'Criação', eventos: 2 }]);
    expect(marco.totais).toEqual({ eventos: '2' });
    const abril = await json<Resultado>(await linhas('?de=2025-04-01&ate=2025-04-01'), 200);
    expect(abril.linhas.map((l) => [l.dia, l.modulo, l.acao, l.eventos])).toEqual([
      ['2025-04-01', 'Logs de Auditoria', 'Alteração', 1],
      ['2025-04-01', 'Sistema', 'Enviar convites', 1],
    ]);
    const modulo = await json<Resultado>(await linhas('?de=2025-03-01&ate=2025-04-30&modulo=core'), 200);
    expect(modulo.totais).toEqual({ eventos: '1' });
    expect(modulo.filtrosUsados).toContainEqual({ label: 'Módulo', valor: 'Sistema' });
  });

  it("needs 'Logs de Auditoria' (404 without it); hostile filters are 400", async () => {
    expect((await linhas('?de=2025-03-01', semTag)).status).toBe(404);
    for (const [query, campo] of [
      ['?de=2025-02-29', 'de'],
      ['?de=2025-04-02&ate=2025-04-01', 'ate'],
      ['?de=2025-04-01&usuario=00000000-0000-0000-0000-000000000000', 'usuario'],
      ['?de=2025-04-01&modulo=pg_catalog', 'modulo'],
    ] as const) {
      expect(Object.keys((await json<ErrorBody>(await linhas(query), 400)).error.fields ?? {}), query).toContain(campo);
    }
  });
});
