import { describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import { type ErrorBody, type Fixture, type User, createFixture, createPerfil, createUser, plugins } from './helpers.js';

type Item = {
  produtoId: string;
  quantidade: string;
  valorUnitario: string;
  valorTotal: string;
  id?: string;
  atendido?: string;
  pendente?: string;
  preRequisicaoItemId?: string | null;
};
type Doc = {
  id: string;
  numero: number;
  ano: number;
  status: string;
  version: number;
  valorTotal: string;
  niveis: number;
  nivelAtual: number | null;
  itens: Item[];
  transicoes: string[];
  editavel: boolean;
};
type Alerta = {
  grupoId: string;
  limite: string;
  total: string;
  estaConta: boolean;
  valorDesta: string;
  totalComEsta: string;
  artigo: string;
  anoLimite: number;
  requisicoes: { id: string; numero: number }[];
};

describeEachDatabase('requisicoes API', { plugins }, (t) => {
  let fx: Fixture;
  let admin: string;
  let rita: User; // requisitante, Educação
  let chefe: User; // level 1 (perfil Chefia), Educação
  let chefe2: User; // level 1 too (perfil Chefia), Educação
  let ordenador: User; // level 2 (every centro), also named at level 1 by user
  let sara: User; // Saúde

  const api = (path: string, token: string, init: { method?: string; json?: unknown } = {}) => t.server.request(`/api/requisicoes${path}`, { token, ...init });

  beforeAll(async () => {
    fx = await createFixture(t.server);
    admin = (await t.server.signIn(undefined, undefined, fx.entidadeId)).token;
    const requisitante = await createPerfil(t.server, fx, 'Requisitante');
    const chefia = await createPerfil(t.server, fx, 'Chefia');
    const ordenadorPerfil = await createPerfil(t.server, fx, 'Ordenador', { todos: true });
    rita = await createUser(t.server, fx, 'rita', requisitante, [fx.educacao]);
    chefe = await createUser(t.server, fx, 'chefe', chefia, [fx.educacao]);
    chefe2 = await createUser(t.server, fx, 'chefe2', chefia, [fx.educacao]);
    ordenador = await createUser(t.server, fx, 'ordenador', ordenadorPerfil);
    sara = await createUser(t.server, fx, 'sara', requisitante, [fx.saude]);
    for (const a of [
      { nivel: 1, nome: 'Chefia', valorMinimo: '0', perfis: [chefia], usuarios: [ordenador.id] },
      { nivel: 2, nome: 'Ordenador de despesa', valorMinimo: '10.000,00', perfis: [ordenadorPerfil] },
    ]) {
      const res = await api('/alcadas', admin, { json: a });
      expect(res.status, await res.clone().text()).toBe(201);
    }
  });

  const corpo = (valor: string, over: Record<string, unknown> = {}) => ({
    centroCustoId: fx.educacao,
    tipoSolicitacaoId: fx.tipo,
    categoria: 'compras',
    dotacao: '02.01.12.361.0002.2.010 3.3.90.30',
    justificativa: 'Material para o funcionamento das escolas no semestre.',
    itens: [{ produtoId: fx.papel, quantidade: '1', valorUnitario: valor }],
    ...over,
  });
  const criar = async (valor: string, token = rita.token, over: Record<string, unknown> = {}) => {
    const res = await api('/requisicoes', token, { json: corpo(valor, over) });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as Doc;
  };
  const agir = async (d: { id: string; version: number }, acao: string, token: string, motivo?: string, base = '/requisicoes') => {
    // approvals acknowledge the dispensa alert when there is one (aprovacao-governanca.test.ts pins the 400 without it)
    const ciente = acao === 'aprovar' && base === '/requisicoes' ? { ciente: true } : {};
    const res = await api(`${base}/${d.id}/${acao}`, token, { json: { version: d.version, ...(motivo ? { motivo } : {}), ...ciente } });
    return { status: res.status, body: (await res.json()) as Doc & ErrorBody };
  };
  const ler = async (id: string, token: string) => (await (await api(`/requisicoes/${id}`, token)).json()) as Doc;

  it("e-mails through the runtime mailer (the outbox here): each level's approvers when it is awaited, the requester of approval, rejection and return", async () => {
    const caixa = async (desde: number) =>
      (
        await t.server.sql<{ to: string; subject: string; body: string }>(
          'SELECT to_address AS "to", subject, body FROM outbox WHERE id > $1 ORDER BY to_address, id',
          [desde],
        )
      ).map((m) => [m.to, m.subject.replace(/\d+\/\d{4}/, 'N')]);
    const ultimo = async () => Number((await t.server.sql<{ n: string }>('SELECT coalesce(max(id), 0)::text AS n FROM outbox'))[0]!.n);
    const r = await criar('15000');
    let marca = await ultimo();
    const enviada = await agir(r, 'enviar', rita.token);
    // level 1: the Chefia perfil (chefe, chefe2) and the ordenador named by user; never the requester
    expect(await caixa(marca)).toEqual([
      ['chefe2@exemplo.gov.br', 'Requisição N aguarda a sua aprovação'],
      ['chefe@exemplo.gov.br', 'Requisição N aguarda a sua aprovação'],
      ['ordenador@exemplo.gov.br', 'Requisição N aguarda a sua aprovação'],
    ]);
    marca = await ultimo();
    const nivel2 = await agir(enviada.body, 'aprovar', chefe.token);
    expect(nivel2.body.nivelAtual).toBe(2);
    expect(await caixa(marca)).toEqual([['ordenador@exemplo.gov.br', 'Requisição N aguarda a sua aprovação']]);
    marca = await ultimo();
    expect((await agir(nivel2.body, 'aprovar', ordenador.token)).body.status).toBe('aprovada');
    expect(await caixa(marca)).toEqual([['rita@exemplo.gov.br', 'Requisição N foi aprovada']]);
    for (const [acao, assunto] of [
      ['reprovar', 'Requisição N foi reprovada'],
      ['devolver', 'Requisição N foi devolvida para ajustes'],
    ]) {
      const outra = await agir(await criar('100'), 'enviar', rita.token);
      marca = await ultimo();
      expect((await agir(outra.body, acao!, chefe.token, 'Falta detalhar o uso do material.')).status).toBe(200);
      const [msg] = await t.server.sql<{ to: string; subject: string; body: string }>('SELECT to_address AS "to", subject, body FROM outbox WHERE id > $1', [
        marca,
      ]);
      expect([msg!.to, msg!.subject.replace(/\d+\/\d{4}/, 'N')]).toEqual(['rita@exemplo.gov.br', assunto]);
      expect(msg!.body).toContain('Motivo: Falta detalhar o uso do material.');
    }
    // a refused step (same person on level 2) sends nothing
    const dupla = await agir(await criar('20000'), 'enviar', rita.token);
    const n1 = await agir(dupla.body, 'aprovar', ordenador.token);
    marca = await ultimo();
    expect((await agir(n1.body, 'aprovar', ordenador.token)).status).toBe(403);
    expect(await caixa(marca)).toEqual([]);
  });

  it("conversion and cancellation change the pré-requisição's status, audited on it (its timeline), by who did it", async () => {
    const p = await api('/pre-requisicoes', rita.token, {
      json: {
        centroCustoId: fx.educacao,
        tipoSolicitacaoId: fx.tipo,
        justificativa: 'Papel para as escolas do bairro.',
        itens: [{ produtoId: fx.papel, quantidade: '10', valorUnitario: '20' }],
      },
    });
    expect(p.status, await p.clone().text()).toBe(201);
    const pre = (await p.json()) as Doc;
    expect((await agir(pre, 'enviar', rita.token, undefined, '/pre-requisicoes')).status).toBe(200);
    const itemId = ((await (await api(`/pre-requisicoes/${pre.id}`, rita.token)).json()) as Doc).itens[0]!.id!;
    const conv = (q: string) =>
      criar('20', ordenador.token, { itens: [{ produtoId: fx.papel, quantidade: q, valorUnitario: '20', preRequisicaoItemId: itemId }] });
    const r1 = await conv('4');
    const r2 = await conv('6');
    expect((await agir(r2, 'cancelar', ordenador.token, 'Compra feita por ata de registro de preços.')).status).toBe(200);
    const h = (await (await api(`/pre-requisicoes/${pre.id}/historico`, rita.token)).json()) as {
      items: { acao: string; usuario: { id: string }; mudancas: { campo: string; depois: unknown }[] }[];
    };
    expect(h.items.map((i) => [i.acao, i.usuario.id, i.mudancas.find((m) => m.campo === 'status')?.depois])).toEqual([
      ['liberar', ordenador.id, 'parcialmente_atendida'],
      ['atender', ordenador.id, 'atendida'],
      ['atender', ordenador.id, 'parcialmente_atendida'],
      ['enviar', rita.id, 'enviada'],
      ['criar', rita.id, 'rascunho'],
    ]);
    const [causa] = await t.server.sql<{ depois: { requisicao: string } }>(
      "SELECT depois FROM audit_log WHERE registro = $1 AND acao = 'atender' ORDER BY id LIMIT 1",
      [pre.id],
    );
    expect(causa!.depois.requisicao).toBe(`Requisição ${r1.numero}/${r1.ano}`);
  });

  it('GET /requisicoes/:id carries the dispensa alerts (the same as GET /:id/dispensa); lists and writes do not', async () => {
    const r = await criar('1', rita.token, { categoria: 'obras', itens: [{ produtoId: fx.cimento, quantidade: '1', valorUnitario: '200000' }] });
    expect((r as Doc & { alertasDispensa?: unknown }).alertasDispensa).toBeUndefined();
    const enviada = await agir(r, 'enviar', rita.token);
    expect((enviada.body as Doc & { alertasDispensa?: unknown }).alertasDispensa).toBeUndefined();
    const detalhe = (await ler(r.id, rita.token)) as Doc & { alertasDispensa: Alerta[] };
    expect(detalhe.alertasDispensa.map((a) => [a.grupoId, a.artigo])).toEqual([[fx.grupoB, expect.stringContaining('I')]]);
    const dispensa = (await (await api(`/requisicoes/${r.id}/dispensa`, rita.token)).json()) as { items: Alerta[] };
    expect(dispensa.items).toEqual(detalhe.alertasDispensa);
    const lista = (await (await api(`/requisicoes?q=${r.numero}/${r.ano}`, rita.token)).json()) as { items: Record<string, unknown>[] };
    expect(lista.items[0]!.alertasDispensa).toBeUndefined();
  });

  it('counts the levels by value with an exact boundary: 9.999,99 → 1, 10.000,00 → 2, 10.000,01 → 2', async () => {
    for (const [valor, niveis] of [
      ['9999.99', 1],
      ['10000.00', 2],
      ['10000.01', 2],
    ] as const) {
      const r = await criar(valor);
      expect(r.valorTotal).toBe(valor);
      const enviada = await agir(r, 'enviar', rita.token);
      expect(enviada.status).toBe(200);
      expect(enviada.body).toMatchObject({ status: 'em_aprovacao', niveis, nivelAtual: 1 });
    }
  });

  it('walks the levels: the requester never approves (403), one person one level (403), a reason of 10 characters', async () => {
    const r = await criar('12000');
    let d = (await agir(r, 'enviar', rita.token)).body;
    expect(d.transicoes).not.toContain('aprovar');
    expect((await agir(d, 'aprovar', rita.token)).status).toBe(403);
    expect((await ler(d.id, chefe.token)).transicoes).toEqual(['aprovar', 'reprovar', 'devolver']);
    // the approval queue and the menu count
    const fila = (await (await api('/requisicoes?aguardandoMinha=1', chefe.token)).json()) as { items: Doc[] };
    expect(fila.items.map((i) => i.id)).toContain(d.id);
    expect(((await (await api('/requisicoes/aguardando-minha-aprovacao/contagem', rita.token)).json()) as { total: number }).total).toBe(0);
    const curto = await agir(d, 'reprovar', chefe.token, 'curto');
    expect(curto.status).toBe(400);
    expect(curto.body.error.fields?.motivo).toBe('Informe o motivo (ao menos 10 caracteres).');
    expect((await agir(d, 'devolver', chefe.token)).status).toBe(400);
    // the ordenador approves level 1 (named by user), then cannot approve level 2
    d = (await agir(d, 'aprovar', ordenador.token)).body;
    expect(d).toMatchObject({ status: 'em_aprovacao', nivelAtual: 2 });
    expect((await agir(d, 'aprovar', ordenador.token)).status).toBe(403);
    expect((await agir(d, 'aprovar', chefe.token)).status).toBe(403); // chefia is not level 2
    // a return with a reason makes it editable; resent, a new round starts at level 1
    const ord2 = await createUser(
      t.server,
      fx,
      'ordenador2',
      (await t.server.sql<{ perfil_id: string }>('SELECT perfil_id FROM usuario_entidades WHERE usuario_id = $1', [ordenador.id]))[0]!.perfil_id,
    );
    const devolvida = await agir(d, 'devolver', ord2.token, 'Informe a dotação correta do exercício.');
    // editable again, by its author only: not by the approver who returned it (segregation of duties)
    expect(devolvida.body).toMatchObject({ status: 'devolvida', editavel: false });
    expect(await ler(d.id, rita.token)).toMatchObject({ status: 'devolvida', editavel: true });
    const [mail] = await t.server.sql<{ subject: string; body: string }>(
      "SELECT subject, body FROM outbox WHERE to_address = 'rita@exemplo.gov.br' ORDER BY id DESC LIMIT 1",
    );
    expect(mail!.subject).toMatch(/devolvida/);
    expect(mail!.body).toContain('Informe a dotação correta do exercício.');
    d = (await agir(devolvida.body, 'enviar', rita.token)).body;
    d = (await agir(d, 'aprovar', chefe.token)).body;
    expect((await agir({ ...d, version: d.version - 1 }, 'aprovar', ord2.token)).status).toBe(409);
    d = (await agir(d, 'aprovar', ord2.token)).body;
    expect(d).toMatchObject({ status: 'aprovada', nivelAtual: null, editavel: false });
    // locked after approval
    const put = await api(`/requisicoes/${d.id}`, rita.token, { method: 'PUT', json: { ...corpo('1'), version: d.version } });
    expect(put.status).toBe(409);
    expect(((await put.json()) as ErrorBody).error.code).toBe('locked');
    const mails = await t.server.sql<{ to_address: string; subject: string }>('SELECT to_address, subject FROM outbox ORDER BY id');
    expect(mails.some((m) => m.to_address === 'rita@exemplo.gov.br' && /aprovada/.test(m.subject))).toBe(true);
    expect(mails.some((m) => m.to_address === 'chefe2@exemplo.gov.br' && /aguarda/.test(m.subject))).toBe(true);
    const hist = (await (await api(`/requisicoes/${d.id}/historico`, rita.token)).json()) as { items: { acao: string }[] };
    expect(hist.items.map((h) => h.acao).filter((a) => a !== 'criar')).toEqual(['aprovar', 'aprovar', 'enviar', 'devolver', 'aprovar', 'enviar']);
    const etapas = (await (await api(`/requisicoes/${d.id}/aprovacao`, rita.token)).json()) as { etapas: { aprovadoPor: string | null }[] };
    expect(etapas.etapas.map((e) => e.aprovadoPor)).toEqual(['Pessoa chefe', 'Pessoa ordenador2']);
    const pdf = await api(`/requisicoes/${d.id}.pdf`, rita.token);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    void chefe2;
  });

  it('converts pré-requisição items partially, never above what is pending', async () => {
    const res = await api('/pre-requisicoes', rita.token, {
      json: {
        centroCustoId: fx.educacao,
        tipoSolicitacaoId: fx.tipo,
        justificativa: 'Demanda de papel das escolas no semestre.',
        itens: [
          { produtoId: fx.papel, quantidade: '10', valorUnitario: '25' },
          { produtoId: fx.caneta, quantidade: '100', valorUnitario: '1,5' },
        ],
      },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    let pre = (await res.json()) as Doc;
    pre = (await agir(pre, 'enviar', rita.token, undefined, '/pre-requisicoes')).body;
    expect(pre.status).toBe('enviada');
    const papel = pre.itens[0]!.id!;
    const pendentes = (await (await api('/pre-requisicoes/itens-pendentes', ordenador.token)).json()) as { items: { id: string; pendente: string }[] };
    expect(pendentes.items.find((i) => i.id === papel)?.pendente).toBe('10.0000');
    const linha = (quantidade: string) => ({ itens: [{ produtoId: fx.papel, quantidade, valorUnitario: '25', preRequisicaoItemId: papel }] });
    await criar('25', ordenador.token, linha('4'));
    let lido = (await (await api(`/pre-requisicoes/${pre.id}`, rita.token)).json()) as Doc;
    expect(lido.status).toBe('parcialmente_atendida');
    expect(lido.itens[0]).toMatchObject({ atendido: '4.0000', pendente: '6.0000' });
    const demais = await api('/requisicoes', ordenador.token, { json: corpo('25', linha('6.0001')) });
    expect(demais.status).toBe(400);
    expect(((await demais.json()) as ErrorBody).error.fields?.['itens.0.quantidade']).toMatch(/pendente: 6/);
    const outroProduto = await api('/requisicoes', ordenador.token, {
      json: corpo('25', { itens: [{ produtoId: fx.caneta, quantidade: '1', valorUnitario: '1', preRequisicaoItemId: papel }] }),
    });
    expect(outroProduto.status).toBe(400);
    const resto = await criar('25', ordenador.token, {
      itens: [...linha('6').itens, { produtoId: fx.caneta, quantidade: '100', valorUnitario: '1.5', preRequisicaoItemId: pre.itens[1]!.id }],
    });
    lido = (await (await api(`/pre-requisicoes/${pre.id}`, rita.token)).json()) as Doc;
    expect(lido.status).toBe('atendida');
    // linked: not deleted; a cancelled requisição gives its items back
    expect((await api(`/pre-requisicoes/${pre.id}`, rita.token, { method: 'DELETE' })).status).toBe(409);
    expect((await agir(resto, 'cancelar', ordenador.token, 'Compra adiada para o próximo semestre.')).status).toBe(200);
    lido = (await (await api(`/pre-requisicoes/${pre.id}`, rita.token)).json()) as Doc;
    expect(lido.status).toBe('parcialmente_atendida');
    expect(lido.itens[1]).toMatchObject({ atendido: '0.0000', pendente: '100.0000' });
  });

  it('alerts when the year total of a grupo passes the dispensa limit (at the limit: no alert), and follows the year', async () => {
    await t.server.sql('DELETE FROM requisicao_grupos');
    const ano = new Date().getFullYear();
    const lim = await api('/limites-dispensa', admin, { json: { ano, categoria: 'obras', valor: '1.000,00' } });
    expect(lim.status, await lim.clone().text()).toBe(201);
    const obra = (valor: string) => ({ categoria: 'obras', itens: [{ produtoId: fx.cimento, quantidade: '1', valorUnitario: valor }] });
    const a = await criar('600', rita.token, obra('600'));
    await agir(a, 'enviar', rita.token);
    const alertas = async (id: string) => ((await (await api(`/requisicoes/${id}/dispensa`, rita.token)).json()) as { items: Alerta[] }).items;
    const abaixo = await criar('399.99', rita.token, obra('399.99'));
    expect(await alertas(abaixo.id)).toEqual([]);
    const no = await criar('400', rita.token, obra('400'));
    expect(await alertas(no.id)).toEqual([]);
    const acima = await criar('400.01', rita.token, obra('400.01'));
    const [alerta] = await alertas(acima.id);
    // the total is what the label says (em aprovação and aprovadas); this draft is added apart
    expect(alerta).toMatchObject({
      grupoId: fx.grupoB,
      limite: '1000.00',
      total: '600.00',
      estaConta: false,
      valorDesta: '400.01',
      totalComEsta: '1000.01',
      artigo: 'art. 75, I, da Lei 14.133/2021',
      anoLimite: ano,
    });
    expect(alerta!.requisicoes.map((r) => r.id).sort()).toEqual([a.id]);
    // another category does not add up; the limit of the year changes the answer
    expect(await alertas((await criar('5000', rita.token, { itens: [{ produtoId: fx.caneta, quantidade: '1', valorUnitario: '5000' }] })).id)).toEqual([]);
    const [row] = await t.server.sql<{ id: string; version: number }>('SELECT id, version FROM requisicao_limites_dispensa WHERE ano = $1 AND categoria = $2', [
      ano,
      'obras',
    ]);
    const put = await api(`/limites-dispensa/${row!.id}`, admin, { method: 'PUT', json: { ano, categoria: 'obras', valor: '1000.01', version: row!.version } });
    expect(put.status).toBe(200);
    expect(await alertas(acima.id)).toEqual([]);
    // moved to 2025: the 2025 legal limit applies and the current year's requisição no longer adds up
    await t.server.sql('UPDATE requisicoes SET ano = 2025 WHERE id = $1', [acima.id]);
    await t.server.sql('UPDATE requisicao_grupos SET ano = 2025 WHERE requisicao_id = $1', [acima.id]);
    expect(await alertas(acima.id)).toEqual([]);
    await t.server.sql('UPDATE requisicao_grupos SET valor = 125451.16 WHERE requisicao_id = $1', [acima.id]);
    expect((await alertas(acima.id))[0]).toMatchObject({ limite: '125451.15', total: '0.00', totalComEsta: '125451.16', anoLimite: 2025 });
  });

  it('the alçadas list searches the level’s number and name, accents and case aside (it filtered nothing)', async () => {
    const [perfil] = await t.server.sql<{ id: string }>('SELECT id FROM perfis WHERE entidade_id = $1 ORDER BY nome LIMIT 1', [fx.entidadeId]);
    for (const json of [
      { nivel: 17, nome: 'Secretário de Saúde', valorMinimo: '500.000,00', perfis: [perfil!.id] },
      { nivel: 18, nome: 'Prefeito municipal', valorMinimo: '900.000,00', perfis: [perfil!.id] },
    ]) {
      const res = await api('/alcadas', admin, { json });
      expect(res.status, await res.clone().text()).toBe(201);
    }
    const busca = async (q: string) => {
      const res = await api(`/alcadas?pageSize=100${q ? `&q=${encodeURIComponent(q)}` : ''}`, admin);
      expect(res.status, await res.clone().text()).toBe(200);
      const page = (await res.json()) as { items: { nivel: number; nome: string }[]; total: number };
      return page.items.map((i) => `${i.nivel} ${i.nome}`).sort();
    };
    const todas = await busca('');
    expect(todas).toEqual(expect.arrayContaining(['17 Secretário de Saúde', '18 Prefeito municipal']));
    expect(await busca('SAUDE')).toEqual(['17 Secretário de Saúde']);
    expect(await busca('18')).toEqual(['18 Prefeito municipal']);
    expect(await busca('prefeito 17')).toEqual([]);
    await t.server.sql('DELETE FROM requisicao_alcadas WHERE nivel IN (17, 18)');
  });

  it('the limites de dispensa list searches the year, the category as shown and its legal basis (it filtered nothing)', async () => {
    for (const json of [
      { ano: 2031, categoria: 'obras', valor: '200.000,00' },
      { ano: 2031, categoria: 'compras', valor: '100.000,00' },
      { ano: 2032, categoria: 'compras', valor: '110.000,00' },
    ]) {
      const res = await api('/limites-dispensa', admin, { json });
      expect(res.status, await res.clone().text()).toBe(201);
    }
    const busca = async (q: string) => {
      const res = await api(`/limites-dispensa?pageSize=100${q ? `&q=${encodeURIComponent(q)}` : ''}`, admin);
      expect(res.status, await res.clone().text()).toBe(200);
      const page = (await res.json()) as { items: { ano: number; categoria: string }[]; total: number };
      return { total: page.total, linhas: page.items.map((i) => `${i.ano} ${i.categoria}`).sort() };
    };
    const todas = await busca('');
    expect(todas.total).toBeGreaterThanOrEqual(3);
    expect(await busca('2031')).toEqual({ total: 2, linhas: ['2031 compras', '2031 obras'] });
    expect(await busca('compras 2032')).toEqual({ total: 1, linhas: ['2032 compras'] });
    // the label the page shows (accents and case ignored) and the article of Lei 14.133
    const engenharia = await busca('ENGENHARIA 2031');
    expect(engenharia).toEqual({ total: 1, linhas: ['2031 obras'] });
    const servicos = await busca('outros serviços');
    expect(servicos.linhas).toEqual(expect.arrayContaining(['2031 compras', '2032 compras']));
    expect(servicos.linhas.every((l) => l.endsWith(' compras'))).toBe(true);
    expect(servicos.total).toBeLessThan(todas.total);
    expect((await busca('art. 75, II, 2031')).linhas).toEqual(['2031 compras']);
    expect((await busca('14.133 2032')).linhas).toEqual(['2032 compras']);
    expect(await busca('2033')).toEqual({ total: 0, linhas: [] });
    await t.server.sql('DELETE FROM requisicao_limites_dispensa WHERE ano IN (2031, 2032)');
  });

  it('keeps each centro de custo to its own requisições: lists, counts, exports, reads and actions', async () => {
    const r = await criar('10');
    const lista = (await (await api('/requisicoes', sara.token)).json()) as { items: Doc[]; total: number };
    expect(lista.items.find((i) => i.id === r.id)).toBeUndefined();
    expect((await api(`/requisicoes/${r.id}`, sara.token)).status).toBe(404);
    expect((await agir(r, 'enviar', sara.token)).status).toBe(404);
    expect((await api(`/requisicoes/${r.id}/dispensa`, sara.token)).status).toBe(404);
    const csv = await (await api('/requisicoes.csv', sara.token)).text();
    expect(csv).not.toContain(`${r.numero}/${r.ano}`);
    const outro = await api('/requisicoes', sara.token, { json: corpo('10') });
    expect(outro.status).toBe(400);
    expect(((await outro.json()) as ErrorBody).error.fields?.centroCustoId).toBeDefined();
  });
});
