// The approval queue ('aguardando minha aprovação') is computed in SQL by the document kit's approvals
// (canDecideSql, the same definition as deciders(): the e-mails and the names on the approval page).
// This suite checks it, on requisições' data, against an independent reference: the rule read per row in TypeScript from the raw tables — the person is an active member
// of the entidade with tag 39 whose centros include the requisição's; named at the awaited level (user
// or perfil; a centro's own row replacing the general one); never their own requisição nor one
// converting their pré-requisições, never a second level of the same round; and when nobody apto is
// named at the level, the approvers of the next higher level of the centro, else the substitutes
// named on the level's alçada — on varied data: three levels plus one nobody approves, centro-specific
// rows, users named directly, self-requested, already approved at another level (this round and a
// previous one), a person outside the centros, a perfil without the tag.
import { describeEachDatabase } from '@app/server-core/testing';
import { and, eq } from '@app/server-core/orm';
import { beforeAll, expect, it } from 'vitest';
import { aprovacao } from '../../src/server/aprovacao.js';
import { requisicoes } from '../../src/server/tables.js';
import { type Fixture, type User, createFixture, createPerfil, createUser, insert, plugins } from './helpers.js';

type Via = 'titular' | 'nivel_superior' | 'substituto';

/** The rule per row, in TypeScript, over the raw tables (the reference of this suite). */
async function regraPorLinha(server: Parameters<typeof createFixture>[0], entidadeId: string) {
  const alcadas = await server.sql<{ nivel: number; centro: string | null; perfis: string[]; usuarios: string[]; substitutos: string[] }>(
    `SELECT nivel, centro_custo_id AS centro, perfis::text[] AS perfis, usuarios::text[] AS usuarios, substitutos::text[] AS substitutos
       FROM requisicao_alcadas WHERE entidade_id = $1`,
    [entidadeId],
  );
  const membros = await server.sql<{ id: string; perfil: string; centros: string[]; todos: boolean; tags: number[]; ativo: boolean }>(
    `SELECT ue.usuario_id AS id, ue.perfil_id AS perfil, ue.centros_custo::text[] AS centros, p.todos_centros AS todos, p.tags, u.ativo
       FROM usuario_entidades ue JOIN perfis p ON p.id = ue.perfil_id JOIN usuarios u ON u.id = ue.usuario_id WHERE ue.entidade_id = $1`,
    [entidadeId],
  );
  const reqs = await server.sql<{ id: string; centro: string; nivel: number; ciclo: number; solicitante: string }>(
    `SELECT id, centro_custo_id AS centro, nivel_atual AS nivel, ciclo, solicitante_id AS solicitante
       FROM requisicoes WHERE entidade_id = $1 AND status = 'em_aprovacao'`,
    [entidadeId],
  );
  const aprovou = new Set(
    (await server.sql<{ k: string }>(`SELECT requisicao_id || '|' || ciclo || '|' || usuario_id AS k FROM requisicao_aprovacoes`)).map((r) => r.k),
  );
  const converte = new Set(
    (
      await server.sql<{ k: string }>(
        `SELECT ri.requisicao_id || '|' || p.solicitante_id AS k FROM requisicao_itens ri
           JOIN pre_requisicao_itens pi ON pi.id = ri.pre_requisicao_item_id JOIN pre_requisicoes p ON p.id = pi.pre_requisicao_id`,
      )
    ).map((r) => r.k),
  );
  const linha = (centro: string, nivel: number | null) =>
    nivel === null ? undefined : (alcadas.find((a) => a.nivel === nivel && a.centro === centro) ?? alcadas.find((a) => a.nivel === nivel && a.centro === null));
  const decide = new Map<string, Map<string, Via>>(); // requisição → person → via
  for (const r of reqs) {
    const aptos = membros.filter(
      (m) =>
        m.ativo &&
        m.tags.includes(39) &&
        (m.todos || m.centros.includes(r.centro)) &&
        m.id !== r.solicitante &&
        !converte.has(`${r.id}|${m.id}`) &&
        !aprovou.has(`${r.id}|${r.ciclo}|${m.id}`),
    );
    const aprovadores = (nivel: number | null) => {
      const l = linha(r.centro, nivel);
      return l ? aptos.filter((m) => l.usuarios.includes(m.id) || l.perfis.includes(m.perfil)) : [];
    };
    const proximo = Math.min(...alcadas.filter((a) => (a.centro === r.centro || a.centro === null) && a.nivel > r.nivel).map((a) => a.nivel));
    let quem: [typeof aptos, Via] = [aprovadores(r.nivel), 'titular'];
    if (quem[0].length === 0) quem = [aprovadores(Number.isFinite(proximo) ? proximo : null), 'nivel_superior'];
    if (quem[0].length === 0) quem = [aptos.filter((m) => linha(r.centro, r.nivel)?.substitutos.includes(m.id)), 'substituto'];
    decide.set(r.id, new Map(quem[0].map((m) => [m.id, quem[1]])));
  }
  return decide;
}

describeEachDatabase('requisicoes: approval queue, set-based = per-row rule', { plugins }, (t) => {
  let fx: Fixture;
  let pessoas: Record<string, User>;

  beforeAll(async () => {
    fx = await createFixture(t.server);
    const perfil = {
      requisitante: await createPerfil(t.server, fx, 'Requisitante'),
      chefia: await createPerfil(t.server, fx, 'Chefia'),
      diretoria: await createPerfil(t.server, fx, 'Diretoria', { todos: true }),
      ordenador: await createPerfil(t.server, fx, 'Ordenador', { todos: true }),
      compras: await createPerfil(t.server, fx, 'Comprador', { todos: true }),
    };
    const todos = [fx.educacao, fx.saude, fx.compras];
    pessoas = {
      rita: await createUser(t.server, fx, 'rita', perfil.requisitante, todos),
      chefe: await createUser(t.server, fx, 'chefe', perfil.chefia, todos),
      diretor: await createUser(t.server, fx, 'diretor', perfil.diretoria),
      ordenador: await createUser(t.server, fx, 'ordenador', perfil.ordenador),
      ana: await createUser(t.server, fx, 'ana', perfil.requisitante, todos), // named by user: Saúde level 1, level 3
      bruno: await createUser(t.server, fx, 'bruno', perfil.chefia, todos), // named by user: Compras level 2; raises pré-requisições
      carla: await createUser(t.server, fx, 'carla', perfil.compras), // named by user at the general level 1
      dora: await createUser(t.server, fx, 'dora', perfil.chefia, [fx.educacao]), // chefia of Educação only: never another centro
      edu: await createUser(t.server, fx, 'edu', await createPerfil(t.server, fx, 'Sem requisições', { todos: true, tags: [73] })), // named, no tag 39
    };
    const { rita, chefe, diretor, ordenador, ana, bruno, carla, edu } = pessoas;
    const alcada = (nivel: number, centro: string | null, perfis: string[], usuarios: string[], substitutos: string[] = []) =>
      insert(t.server, 'requisicao_alcadas', {
        entidade_id: fx.entidadeId,
        nivel,
        nome: `Nível ${nivel}`,
        valor_minimo: String((nivel - 1) * 10_000),
        centro_custo_id: centro,
        perfis: `{${perfis.join(',')}}`,
        usuarios: `{${usuarios.join(',')}}`,
        substitutos: `{${substitutos.join(',')}}`,
      });
    await alcada(1, null, [perfil.chefia], [carla!.id, edu!.id]);
    await alcada(1, fx.saude, [perfil.diretoria], [ana!.id]); // Saúde: chefia and carla do not approve its level 1
    await alcada(2, null, [perfil.diretoria], []);
    await alcada(2, fx.compras, [], [bruno!.id]); // Compras: only bruno at level 2
    await alcada(3, null, [perfil.ordenador], [ana!.id]);
    // Compras level 3: only bruno, and two substitutes: rita and edu (who has no tag 39)
    await alcada(3, fx.compras, [], [bruno!.id], [rita!.id, edu!.id]);
    await alcada(3, fx.educacao, [perfil.ordenador, perfil.chefia], []); // Educação: ana not, chefia too
    // level 4: no alçada at all (nobody approves it)

    // requisições: every (centro, nível 1-4, status, requester, round) mix, by coprime strides
    const requerentes = [rita, chefe, diretor, ordenador, ana, bruno, carla].map((u) => u!.id);
    await t.server.sql(
      `INSERT INTO requisicoes (entidade_id, numero, ano, data, status, centro_custo_id, tipo_solicitacao_id, categoria, justificativa,
                                solicitante_id, solicitante_nome, valor_total, niveis, nivel_atual, ciclo)
       SELECT $1::uuid, g + 1, 2026, DATE '2026-03-02', (ARRAY['em_aprovacao','em_aprovacao','em_aprovacao','devolvida','aprovada'])[1 + g % 5],
              ($2::uuid[])[1 + g % 3], $3::uuid, 'compras', 'Requisição de teste da fila ' || g,
              ($4::uuid[])[1 + g % 7], 'Pessoa', 100, 4, 1 + g % 4, 1 + g % 2
         FROM generate_series(0, 839) g`,
      [fx.entidadeId, `{${fx.educacao},${fx.saude},${fx.compras}}`, fx.tipo, `{${requerentes.join(',')}}`],
    );
    // approvals already given: at level 1 by someone, in this round for some, in the previous one for others
    await t.server.sql(
      `INSERT INTO requisicao_aprovacoes (entidade_id, requisicao_id, ciclo, nivel, usuario_id, usuario_nome)
       SELECT r.entidade_id, r.id, CASE WHEN (r.numero / 4) % 3 = 0 THEN r.ciclo - 1 ELSE r.ciclo END, 1,
              ($2::uuid[])[1 + (r.numero / 2) % 7], 'Pessoa'
         FROM requisicoes r
        WHERE r.entidade_id = $1::uuid AND r.nivel_atual >= 2 AND r.numero % 2 = 0
          AND ($2::uuid[])[1 + (r.numero / 2) % 7] <> r.solicitante_id`,
      [fx.entidadeId, `{${requerentes.join(',')}}`],
    );
    // pré-requisições raised by bruno and by chefe, converted (one item each) by some requisições
    for (const [n, quem] of [
      [1, bruno!],
      [2, chefe!],
      [3, bruno!],
    ] as const) {
      const pre = await insert(t.server, 'pre_requisicoes', {
        entidade_id: fx.entidadeId,
        numero: n,
        ano: 2026,
        data: '2026-03-01',
        status: 'parcialmente_atendida',
        centro_custo_id: fx.compras,
        tipo_solicitacao_id: fx.tipo,
        solicitante_id: quem.id,
        solicitante_nome: 'Pessoa',
        justificativa: 'Demanda da área para o trimestre.',
      });
      const item = await insert(t.server, 'pre_requisicao_itens', {
        pre_requisicao_id: pre,
        entidade_id: fx.entidadeId,
        ordem: 1,
        produto_id: fx.papel,
        quantidade: '1000',
        valor_unitario: '1',
        valor_total: '1000',
      });
      await t.server.sql(
        `INSERT INTO requisicao_itens (requisicao_id, entidade_id, ordem, produto_id, pre_requisicao_item_id, quantidade, valor_unitario, valor_total)
         SELECT r.id, r.entidade_id, 1, $3::uuid, $4::uuid, 1, 100, 100
           FROM requisicoes r WHERE r.entidade_id = $1::uuid AND r.numero % 11 = $2`,
        [fx.entidadeId, n, fx.papel, item],
      );
    }
  });

  const rapida = async (usuario: string) => {
    const rows = await t.server.db
      .select({ id: requisicoes.id })
      .from(requisicoes)
      .where(and(eq(requisicoes.entidadeId, fx.entidadeId), aprovacao.canDecideSql({ user: { id: usuario } as never, entidadeId: fx.entidadeId })));
    return rows.map((r) => r.id).sort();
  };
  const porLinha = async (usuario: string) => {
    const regra = await regraPorLinha(t.server, fx.entidadeId);
    return [...regra]
      .filter(([, quem]) => quem.has(usuario))
      .map(([id]) => id)
      .sort();
  };

  it('gives, for every person, exactly the requisições the per-row rule gives', async () => {
    const tamanhos: Record<string, number> = {};
    for (const [login, u] of Object.entries(pessoas)) {
      const esperado = await porLinha(u.id);
      expect(await rapida(u.id), login).toEqual(esperado);
      tamanhos[login] = esperado.length;
    }
    // the data is varied enough for the comparison to mean something: approvers see rows, the requester none
    for (const login of ['chefe', 'diretor', 'ordenador', 'ana', 'bruno', 'carla', 'dora', 'rita']) expect(tamanhos[login], login).toBeGreaterThan(0);
    // named at level 1 and as a substitute, but the perfil has no tag 39: nothing
    expect(tamanhos.edu).toBe(0);
    // rita is named only as a substitute: every requisição of her queue is por substituição
    const regra = await regraPorLinha(t.server, fx.entidadeId);
    for (const id of await rapida(pessoas.rita!.id)) expect(regra.get(id)!.get(pessoas.rita!.id)).toBe('substituto');
    // dora (chefia of Educação only) never sees another centro
    const centros = new Map(
      (await t.server.sql<{ id: string; c: string }>('SELECT id, centro_custo_id AS c FROM requisicoes WHERE entidade_id = $1', [fx.entidadeId])).map((r) => [
        r.id,
        r.c,
      ]),
    );
    expect((await rapida(pessoas.dora!.id)).every((id) => centros.get(id) === fx.educacao)).toBe(true);
    // a person named nowhere (the demo admin's perfil is not in the alçadas) and an unknown id: nothing
    const [admin] = await t.server.sql<{ id: string }>("SELECT id FROM usuarios WHERE login = 'admin'");
    expect(await rapida(admin!.id)).toEqual(await porLinha(admin!.id));
    expect(await rapida('00000000-0000-0000-0000-000000000000')).toEqual([]);
  });

  it('exercises every exclusion: self-requested, already approved this round, pré-requisição raised by the person, centro row replacing the general one', async () => {
    const { chefe, bruno, carla, ana } = pessoas;
    const fila = new Set(await rapida(chefe!.id));
    const [proprias] = await t.server.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM requisicoes WHERE status = 'em_aprovacao' AND nivel_atual = 1 AND centro_custo_id = $1 AND solicitante_id = $2`,
      [fx.educacao, chefe!.id],
    );
    expect(proprias!.n).toBeGreaterThan(0);
    const propriasIds = await t.server.sql<{ id: string }>('SELECT id FROM requisicoes WHERE solicitante_id = $1', [chefe!.id]);
    expect(propriasIds.some((r) => fila.has(r.id))).toBe(false);
    // approved level 1 in this round, now at level 2: not again; approved in the previous round: may approve
    const aprovadas = await t.server.sql<{ id: string; mesmo: boolean; usuario_id: string }>(
      `SELECT r.id, a.ciclo = r.ciclo AS mesmo, a.usuario_id FROM requisicao_aprovacoes a JOIN requisicoes r ON r.id = a.requisicao_id
        WHERE r.status = 'em_aprovacao' AND r.nivel_atual = 2 AND r.centro_custo_id <> $1 AND a.usuario_id = $2`,
      [fx.compras, pessoas.diretor!.id],
    );
    expect(aprovadas.some((a) => a.mesmo)).toBe(true);
    expect(aprovadas.some((a) => !a.mesmo)).toBe(true);
    const filaDiretor = new Set(await rapida(pessoas.diretor!.id));
    expect(aprovadas.filter((a) => a.mesmo).some((a) => filaDiretor.has(a.id))).toBe(false);
    expect(aprovadas.filter((a) => !a.mesmo).some((a) => filaDiretor.has(a.id))).toBe(true);
    // bruno approves Compras level 2 by name, except his own and the requisições converting his pré-requisições
    const compras2 = await t.server.sql<{ id: string; converte: boolean }>(
      `SELECT r.id, EXISTS (SELECT 1 FROM requisicao_itens ri JOIN pre_requisicao_itens pi ON pi.id = ri.pre_requisicao_item_id
                              JOIN pre_requisicoes p ON p.id = pi.pre_requisicao_id WHERE ri.requisicao_id = r.id AND p.solicitante_id = $2) AS converte
         FROM requisicoes r WHERE r.status = 'em_aprovacao' AND r.nivel_atual = 2 AND r.centro_custo_id = $1 AND r.solicitante_id <> $2`,
      [fx.compras, bruno!.id],
    );
    const filaBruno = new Set(await rapida(bruno!.id));
    expect(compras2.filter((r) => r.converte).length).toBeGreaterThan(0);
    expect(compras2.filter((r) => r.converte).some((r) => filaBruno.has(r.id))).toBe(false);
    expect(compras2.filter((r) => !r.converte).some((r) => filaBruno.has(r.id))).toBe(true);
    // Saúde level 1 belongs to its own row (diretoria, ana): carla, named at the general level 1, does not see it
    const saude1 = await t.server.sql<{ id: string }>(`SELECT id FROM requisicoes WHERE status = 'em_aprovacao' AND nivel_atual = 1 AND centro_custo_id = $1`, [
      fx.saude,
    ]);
    expect(saude1.length).toBeGreaterThan(0);
    const filaCarla = new Set(await rapida(carla!.id));
    expect(saude1.some((r) => filaCarla.has(r.id))).toBe(false);
    const filaAna = new Set(await rapida(ana!.id));
    expect(saude1.some((r) => filaAna.has(r.id))).toBe(true);
    // level 4 has no alçada: in nobody's queue
    const nivel4 = await t.server.sql<{ id: string }>(`SELECT id FROM requisicoes WHERE status = 'em_aprovacao' AND nivel_atual = 4`);
    expect(nivel4.length).toBeGreaterThan(0);
    for (const u of Object.values(pessoas)) {
      const f = new Set(await rapida(u.id));
      expect(nivel4.some((r) => f.has(r.id))).toBe(false);
    }
  });

  it('decisores() — the e-mails and the approval page — names, per requisição, exactly who has it in the queue, with the substitution tier', async () => {
    const regra = await regraPorLinha(t.server, fx.entidadeId);
    const vias = new Set<string>();
    // every requisição decided por substituição or by nobody, and one in four of the others (PGlite is slow)
    const amostra = [...regra].filter(([, quem], i) => i % 4 === 0 || [...quem.values()].some((v) => v !== 'titular') || quem.size === 0);
    for (const [id, quem] of amostra) {
      const lista = await aprovacao.deciders(t.server.db, fx.entidadeId, id);
      expect(Object.fromEntries(lista.map((d) => [d.id, d.via])), id).toEqual(Object.fromEntries(quem));
      for (const d of lista) vias.add(d.via);
    }
    // the three tiers occur in the data, and some requisições have nobody (level 4: no alçada)
    expect([...vias].sort()).toEqual(['nivel_superior', 'substituto', 'titular']);
    expect([...regra.values()].some((quem) => quem.size === 0)).toBe(true);
  });

  it('the API queue and its menu count are the per-row rule within the person’s centros', async () => {
    for (const [login, u] of Object.entries(pessoas)) {
      const esperado = await porLinha(u.id);
      if (login === 'edu') {
        // no tag 39: no access to the route at all (and nothing in the rule)
        expect(esperado).toEqual([]);
        expect((await t.server.request('/api/requisicoes/requisicoes/aguardando-minha-aprovacao/contagem', { token: u.token })).status).toBe(403);
        // nor any pending list of requisições on the dashboard (the kit's GET /api/pendencias)
        expect(await (await t.server.request('/api/pendencias', { token: u.token })).json()).toEqual({ items: [] });
        continue;
      }
      const contagem = (await (await t.server.request('/api/requisicoes/requisicoes/aguardando-minha-aprovacao/contagem', { token: u.token })).json()) as {
        total: number;
      };
      expect(contagem.total, login).toBe(esperado.length);
      // the dashboard's figure is the same provider: the same count, by the same definition
      const pendencias = (await (await t.server.request('/api/pendencias', { token: u.token })).json()) as { items: { id: string; total: number }[] };
      const deRequisicoes = pendencias.items.filter((p) => p.id.startsWith('requisicoes.'));
      expect(
        deRequisicoes.map((p) => p.id),
        login,
      ).toEqual(['requisicoes.aguardando-minha-aprovacao', 'requisicoes.minhas-devolvidas', 'requisicoes.minhas-pre-requisicoes-abertas']);
      expect(deRequisicoes[0]!.total, login).toBe(esperado.length);
      const res = await t.server.request(`/api/requisicoes/requisicoes?aguardandoMinha=1&pageSize=100`, { token: u.token });
      expect(res.status, login).toBe(200);
      const lista = (await res.json()) as { items: { id: string }[]; total: number };
      expect(lista.total, login).toBe(esperado.length);
      for (const item of lista.items) expect(esperado, login).toContain(item.id);
    }
  });

  it("the home page's indicator counts the person's queue waiting more than 5 São Paulo days since its last change", async () => {
    // last change 0, 5, 6 or 12 days ago: 5 is not "more than 5"; 12 is more than twice 5 (critical)
    await t.server.sql(
      `UPDATE requisicoes SET updated_at = now() - make_interval(days => (ARRAY[0, 5, 6, 12])[1 + numero % 4])
        WHERE entidade_id = $1 AND status = 'em_aprovacao'`,
      [fx.entidadeId],
    );
    const dias = new Map(
      (
        await t.server.sql<{ id: string; d: number }>(
          "SELECT id, (ARRAY[0, 5, 6, 12])[1 + numero % 4] AS d FROM requisicoes WHERE entidade_id = $1 AND status = 'em_aprovacao'",
          [fx.entidadeId],
        )
      ).map((r) => [r.id, Number(r.d)]),
    );
    let medidas = 0;
    for (const [login, u] of Object.entries(pessoas)) {
      const res = await t.server.request('/api/indicadores', { token: u.token });
      expect(res.status, login).toBe(200);
      const indicador = ((await res.json()) as { items: { id: string; valor: string; nivel: string; detalhe: string; href: string }[] }).items.find(
        (i) => i.id === 'requisicoes.aprovacoes-paradas',
      );
      const fila = (await porLinha(u.id)).map((id) => dias.get(id)!);
      if (fila.length === 0) {
        expect(indicador, login).toBeUndefined();
        continue;
      }
      medidas++;
      const paradas = fila.filter((d) => d > 5).length;
      const antiga = Math.max(...fila);
      const espera = antiga === 0 ? 'chegou hoje' : `espera há ${antiga} dias`;
      const nome = `${fila.length} ${fila.length === 1 ? 'requisição' : 'requisições'}`;
      expect(indicador, login).toEqual({
        id: 'requisicoes.aprovacoes-paradas',
        label: 'Aprovações paradas há mais de 5 dias',
        href: '/requisicao?aguardandoMinha=1',
        valor: String(paradas),
        nivel: paradas === 0 ? 'normal' : antiga > 10 ? 'critico' : 'atencao',
        detalhe:
          paradas === 0 ? `${nome} na sua fila; a mais antiga ${espera}.` : `${paradas} de ${nome} na sua fila há mais de 5 dias; a mais antiga ${espera}.`,
      });
    }
    expect(medidas).toBeGreaterThan(2);
  });
});
