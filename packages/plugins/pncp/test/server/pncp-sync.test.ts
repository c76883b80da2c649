// The PNCP client and the PCA synchronisation against the fake PNCP (@app/pncp-fake): publication in batches, every
// fault of the fake (the job retry = calling sincronizarPlano again), the token's life, errors mapped to items, revision,
// and no secret in the fake's call log, in errors or in logs.
import { type FakePncp, startFakePncp } from '@app/pncp-fake';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  corpoItem,
  createPncpClient,
  criarCacheTokens,
  excluirPlanoPncp,
  type ItemPca,
  lerJsonDecimais,
  type PlanoPca,
  type PncpClientOpcoes,
  PncpErroAutenticacao,
  PncpErroDados,
  PncpErroResposta,
  pncpErroRetentavel,
  PncpErroTemporario,
  type PncpSyncStore,
  type ProgressoSync,
  type SincronizarOpcoes,
  sincronizarPlano,
} from '../../src/server/pncp/index.js';

const CNPJ = '46358021000184';
const USUARIO = { login: 'compras-treina', senha: 'Senha-Forte-Treina-2026' };
const ANO = 2027;
const JUSTIFICATIVA = 'Revisão do PCA após a aprovação da LOA 2027';

/** ten-thousandths → "123.4500" (exact integer arithmetic). */
const d4 = (dezMil: number) => `${Math.floor(dezMil / 10_000)}.${String(dezMil % 10_000).padStart(4, '0')}`;

function item(n: number, extra: Partial<ItemPca> = {}): ItemPca {
  const quantidade = n * 10_000 + 5_000; // n.5000
  const total = (quantidade * 9) / 4; // × 2.2500
  return {
    numeroItem: n,
    categoriaItemPca: '1',
    catalogo: '1',
    classificacaoCatalogo: '1',
    classificacaoSuperiorCodigo: '7510',
    classificacaoSuperiorNome: 'Artigos de expediente',
    codigoItem: String(150_000 + n),
    descricao: `Caneta esferográfica azul, caixa com 50 (item ${n})`,
    unidadeFornecimento: 'Caixa',
    quantidade: d4(quantidade),
    valorUnitario: '2.2500',
    valorTotal: d4(total),
    valorOrcamentoExercicio: d4(total),
    dataDesejada: '2027-03-15',
    unidadeRequisitante: 'Secretaria de Educação',
    ...extra,
  };
}

const itens = (de: number, ate: number) => Array.from({ length: ate - de + 1 }, (_, i) => item(de + i));
const plano = (lista: ItemPca[]): PlanoPca => ({ cnpj: '46.358.021/0001-84', codigoUnidade: '1', anoPca: ANO, itens: lista });

function memoria() {
  const estado = { sequencial: null as number | null, enviados: new Map<number, string>(), progresso: [] as ProgressoSync[] };
  let falharEnviados = 0;
  const store: PncpSyncStore = {
    async carregar() {
      return { sequencial: estado.sequencial, enviados: new Map(estado.enviados) };
    },
    async registrarPlano(sequencial) {
      estado.sequencial = sequencial;
    },
    async registrarEnviados(lista) {
      if (falharEnviados > 0) {
        falharEnviados--;
        throw new Error('falha simulada do banco');
      }
      for (const i of lista) estado.enviados.set(i.numeroItem, i.fingerprint);
    },
    async registrarExcluidos(numeros) {
      for (const n of numeros) estado.enviados.delete(n);
    },
    progresso(p) {
      estado.progresso.push(p);
    },
  };
  return { estado, store, falharNosEnviados: (n: number) => (falharEnviados = n) };
}

let fake: FakePncp;
/** Everything that must never contain a secret: errors thrown, log lines. Tokens seen in login answers. */
let vistos: string[];
let tokens: string[];

beforeEach(async () => {
  fake = await startFakePncp();
  vistos = [];
  tokens = [];
});
afterEach(async () => {
  // No secret anywhere: the fake's call log, the errors, the logger.
  const textos = [JSON.stringify(fake.calls), ...vistos];
  for (const segredo of [USUARIO.senha, ...tokens]) {
    for (const t of textos) expect(t.includes(segredo), 'segredo vazou').toBe(false);
  }
  expect(tokens.length).toBeGreaterThan(0);
  await fake.close();
});

function cliente(extra: Partial<PncpClientOpcoes> = {}) {
  const esperas: number[] = [];
  const registrar = (nivel: string) => (mensagem: string, dados?: Record<string, unknown>) => {
    vistos.push(`${nivel} ${mensagem} ${JSON.stringify(dados ?? {})}`);
  };
  const client = createPncpClient({
    baseUrl: `${fake.url}/api/pncp`,
    consultaUrl: `${fake.url}/api/consulta`,
    credenciais: async () => ({ ...USUARIO }),
    // Records the tokens the fake hands out, to prove they never leak.
    fetch: async (url, init) => {
      const r = await fetch(url, init);
      const auth = r.headers.get('authorization');
      if (auth) tokens.push(auth.replace(/^Bearer\s+/i, ''));
      return r;
    },
    sleep: async (ms) => {
      esperas.push(ms);
    },
    random: () => 0.5,
    now: () => fake.clock.now(),
    cacheTokens: criarCacheTokens(),
    intervaloEscritasMs: 0,
    logger: { debug: registrar('debug'), info: registrar('info'), warn: registrar('warn'), error: registrar('error') },
    ...extra,
  });
  return { client, esperas };
}

/** What a durable job does: run again after a retryable error. Returns the errors met on the way. */
async function publicar(client: ReturnType<typeof cliente>['client'], p: PlanoPca, store: PncpSyncStore, opcoes: SincronizarOpcoes = {}) {
  const erros: unknown[] = [];
  for (let i = 0; i < 8; i++) {
    try {
      const resultado = await sincronizarPlano(client, p, store, opcoes);
      return { resultado, erros };
    } catch (e) {
      guardar(e);
      if (!pncpErroRetentavel(e)) throw e;
      erros.push(e);
    }
  }
  throw new Error('a publicação não terminou em 8 tentativas');
}

function guardar(e: unknown) {
  const err = e as Error;
  vistos.push(JSON.stringify(e), String(err?.message), String(err?.stack));
}

async function falha(promessa: Promise<unknown>): Promise<unknown> {
  try {
    await promessa;
  } catch (e) {
    guardar(e);
    return e;
  }
  throw new Error('deveria ter falhado');
}

/** The PNCP holds exactly one (non-deleted) plan, with exactly the local items, as strings. */
function conferirUnicoPlano(lista: ItemPca[]) {
  const planos = fake.plans(CNPJ).filter((p) => !p.excluido);
  expect(planos).toHaveLength(1);
  const ativos = planos[0]!.itens.filter((i) => !i.excluido);
  expect(ativos.map((i) => i.numeroItem)).toEqual(lista.map((i) => i.numeroItem));
  for (const [k, i] of ativos.entries()) {
    expect(i.body).toEqual(corpoItem(lista[k]!));
    expect(i.decimalsSentAsNumbers).toEqual([]);
  }
  return planos[0]!;
}

const chamadas = (metodo: string, trecho: RegExp) => fake.calls.filter((c) => c.method === metodo && trecho.test(c.path));
const logins = () => chamadas('POST', /\/usuarios\/login$/).length;

describe('publicação', () => {
  it('publica 2 500 itens em 3 lotes de até 1000 e lê de volta exatamente o que enviou', async () => {
    const { client } = cliente();
    const { estado, store } = memoria();
    const lista = itens(1, 2500);
    const resultado = await sincronizarPlano(client, plano(lista), store);
    expect(resultado).toMatchObject({ planoCriado: true, inseridos: 2500, adotados: 0, retificados: 0, excluidos: 0 });
    expect(chamadas('POST', /\/pca$/)).toHaveLength(1);
    expect(chamadas('POST', /\/itens$/)).toHaveLength(2);
    expect(logins()).toBe(1);
    const pncp = conferirUnicoPlano(lista);
    expect(estado.sequencial).toBe(pncp.sequencial);
    expect(estado.enviados.size).toBe(2500);
    expect(estado.progresso.at(-1)).toEqual({ etapa: 'concluido', feitos: 2500, total: 2500 });

    // Read back through the client: decimals as the exact strings sent, numeroItem unique and increasing.
    const lidos = [];
    for (let p = 1; p <= 3; p++) lidos.push(...(await client.listarItens(CNPJ, ANO, pncp.sequencial, p, 1000)));
    expect(lidos).toHaveLength(2500);
    expect(await client.quantidadeItens(CNPJ, ANO, pncp.sequencial)).toBe(2500);
    for (const [k, lido] of lidos.entries()) {
      const local = lista[k]!;
      expect(lido.numeroItem).toBe(k + 1);
      expect(lido.quantidade).toBe(local.quantidade);
      expect(lido.valorUnitario).toBe('2.2500');
      expect(lido.valorTotal).toBe(local.valorTotal);
      expect(lido.valorOrcamentoExercicio).toBe(local.valorOrcamentoExercicio);
    }
    expect(lidos[2499]!.valorTotal).toBe('5626.1250');

    // A second run changes nothing and writes nothing.
    const antes = fake.calls.length;
    const de_novo = await sincronizarPlano(client, plano(lista), store);
    expect(de_novo).toMatchObject({ planoCriado: false, inseridos: 0 });
    expect(fake.calls.slice(antes).filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('lote configurável (400): 1 POST /pca e 2 POST /itens para 1 000 itens', async () => {
    const { client } = cliente();
    const { store } = memoria();
    await sincronizarPlano(client, plano(itens(1, 1000)), store, { lote: 400 });
    expect(chamadas('POST', /\/pca$/)).toHaveLength(1);
    expect(chamadas('POST', /\/itens$/)).toHaveLength(2);
    conferirUnicoPlano(itens(1, 1000));
  });

  it('retoma depois de uma queda entre registrarPlano e registrarEnviados sem duplicar itens', async () => {
    const { client } = cliente();
    const { estado, store, falharNosEnviados } = memoria();
    const lista = itens(1, 1500);
    falharNosEnviados(1);
    await expect(sincronizarPlano(client, plano(lista), store)).rejects.toThrow('falha simulada do banco');
    expect(estado.sequencial).not.toBeNull();
    expect(estado.enviados.size).toBe(0);
    const r = await sincronizarPlano(client, plano(lista), store);
    expect(r.adotados).toBe(1000);
    expect(r.inseridos).toBe(500);
    conferirUnicoPlano(lista);
    expect(chamadas('POST', /\/pca$/)).toHaveLength(1);
  });
});

describe('falhas do PNCP: termina com exatamente um plano igual ao local', () => {
  const lista = itens(1, 2500);

  it('429 sem Retry-After: back-off exponencial com jitter total dentro da chamada', async () => {
    const { client, esperas } = cliente();
    const { store } = memoria();
    fake.fault({ route: 'POST /itens', kind: '429', times: 3 });
    const { erros } = await publicar(client, plano(lista), store);
    expect(erros).toEqual([]);
    // random() = 0.5: 0.5 × 500, 0.5 × 1000, 0.5 × 2000.
    expect(esperas).toEqual([250, 500, 1000]);
    conferirUnicoPlano(lista);
  });

  it('429 com Retry-After: espera o que o PNCP pede', async () => {
    const { client, esperas } = cliente();
    const { store } = memoria();
    fake.fault({ route: 'POST /pca', kind: '429-retry-after', retryAfterSeconds: 7 });
    fake.fault({ route: 'POST /itens', kind: '429-retry-after', retryAfterSeconds: 2, after: 1 });
    const { erros } = await publicar(client, plano(lista), store);
    expect(erros).toEqual([]);
    expect(esperas).toEqual([7000, 2000]);
    conferirUnicoPlano(lista);
  });

  it('Retry-After longo demais sobe como erro temporário com retryAfterMs (o job agenda)', async () => {
    const { client, esperas } = cliente({ retryAfterMaximoMs: 10_000 });
    const { store } = memoria();
    fake.fault({ route: 'POST /pca', kind: '429-retry-after', retryAfterSeconds: 120 });
    const { erros } = await publicar(client, plano(lista), store);
    expect(erros).toHaveLength(1);
    expect(erros[0]).toBeInstanceOf(PncpErroTemporario);
    expect((erros[0] as PncpErroTemporario).retryAfterMs).toBe(120_000);
    expect(esperas).toEqual([]);
    conferirUnicoPlano(lista);
  });

  it('500 no POST /pca: não repete às cegas; confere o PNCP e a próxima execução publica', async () => {
    const { client, esperas } = cliente();
    const { store } = memoria();
    fake.fault({ route: 'POST /pca', kind: '500' });
    const { erros } = await publicar(client, plano(lista), store);
    expect(erros).toHaveLength(1);
    const e = erros[0] as PncpErroTemporario;
    expect(e).toBeInstanceOf(PncpErroTemporario);
    expect(e.incerto).toBe(true);
    expect(e.mensagem).toBe('O PNCP está indisponível (500); nova tentativa automática.');
    expect(esperas).toEqual([]);
    expect(chamadas('POST', /\/pca$/)).toHaveLength(2);
    conferirUnicoPlano(lista);
  });

  it('503 no POST /itens e 500 nas leituras: repetidos dentro da chamada', async () => {
    const { client, esperas } = cliente();
    const { store } = memoria();
    fake.fault({ route: 'POST /itens', kind: '503', times: 2 });
    fake.fault({ route: 'GET', kind: '500' });
    const { erros } = await publicar(client, plano(lista), store);
    expect(erros).toEqual([]);
    expect(esperas).toHaveLength(3);
    conferirUnicoPlano(lista);
  });

  it('503 além de maxTentativas: erro temporário em pt-BR; a próxima execução termina', async () => {
    const { client, esperas } = cliente({ maxTentativas: 3 });
    const { store } = memoria();
    fake.fault({ route: 'POST /itens', kind: '503', times: 3 });
    const { erros } = await publicar(client, plano(lista), store);
    expect(erros).toHaveLength(1);
    expect((erros[0] as PncpErroTemporario).mensagem).toBe('O PNCP está indisponível (503); nova tentativa automática.');
    expect(esperas).toEqual([250, 500]);
    conferirUnicoPlano(lista);
  });

  it('resposta atrasada além do timeout no POST /pca: adota o plano que o PNCP criou', async () => {
    // Small batches so that normal answers stay far below the 200 ms timeout on a busy machine.
    const pequeno = itens(1, 30);
    const { client } = cliente({ timeoutMs: 200 });
    const { store } = memoria();
    fake.fault({ route: 'POST /pca', kind: 'delay', delayMs: 1000 });
    const { resultado, erros } = await publicar(client, plano(pequeno), store, { lote: 10 });
    expect(erros).toEqual([]);
    expect(resultado.planoCriado).toBe(false);
    expect(resultado.adotados).toBe(11);
    expect(chamadas('POST', /\/pca$/)).toHaveLength(1);
    conferirUnicoPlano(pequeno);
  });

  it('resposta atrasada além do timeout no POST /itens: a próxima execução conta e não reenvia', async () => {
    const pequeno = itens(1, 30);
    const { client } = cliente({ timeoutMs: 200 });
    const { store } = memoria();
    fake.fault({ route: 'POST /itens', kind: 'delay', delayMs: 1000 });
    const { resultado, erros } = await publicar(client, plano(pequeno), store, { lote: 10 });
    expect(erros).toHaveLength(1);
    const e = erros[0] as PncpErroTemporario;
    expect(e.motivo).toBe('tempo');
    expect(e.incerto).toBe(true);
    expect(e.mensagem).toBe('O PNCP não respondeu em 0,2 s; nova tentativa automática.');
    // The delayed batch (11..20) was carried out: adopted, not sent again; 21..30 sent.
    expect(resultado.adotados).toBe(10);
    expect(chamadas('POST', /\/itens$/)).toHaveLength(2);
    conferirUnicoPlano(pequeno);
  });

  it('401 no meio dos lotes: um novo login e a mesma chamada repetida uma vez', async () => {
    const { client } = cliente();
    const { store } = memoria();
    fake.fault({ route: 'POST /itens', kind: '401', after: 1 });
    const { erros } = await publicar(client, plano(lista), store);
    expect(erros).toEqual([]);
    expect(logins()).toBe(2);
    expect(chamadas('POST', /\/itens$/).map((c) => c.status)).toEqual([201, 401, 201]);
    conferirUnicoPlano(lista);
  });

  it('401 de novo depois do novo login: PncpErroAutenticacao, não repete', async () => {
    const { client } = cliente();
    const { store } = memoria();
    fake.fault({ route: 'POST /pca', kind: '401', times: 2 });
    const e = (await falha(sincronizarPlano(client, plano(lista), store))) as PncpErroAutenticacao;
    expect(e).toBeInstanceOf(PncpErroAutenticacao);
    expect(e.retentavel).toBe(false);
    expect(e.mensagem).toContain('confira o usuário do PNCP em Configuração');
    expect(logins()).toBe(2);
    expect(fake.plans(CNPJ)).toEqual([]);
  });

  it('corpo malformado (página HTML com 201) no POST /pca e no POST /itens; em GET repete', async () => {
    const { client } = cliente();
    const { store } = memoria();
    fake.fault({ route: 'POST /pca', kind: 'malformed' });
    fake.fault({ route: 'POST /itens', kind: 'malformed', after: 1 });
    fake.fault({ route: 'GET', kind: 'malformed' });
    const { erros } = await publicar(client, plano(lista), store);
    expect(erros).toHaveLength(2);
    for (const e of erros) {
      expect(e).toBeInstanceOf(PncpErroResposta);
      expect((e as PncpErroResposta).incerto).toBe(true);
    }
    expect((erros[0] as PncpErroResposta).mensagem).toBe(
      'O PNCP respondeu de forma inesperada a a inclusão do plano: a inclusão não devolveu o cabeçalho location com o sequencial do plano.',
    );
    conferirUnicoPlano(lista);
  });

  it('commit-drop no POST /pca: recupera pelo sequenciaisplano, sem segundo plano', async () => {
    const { client } = cliente();
    const { store } = memoria();
    fake.fault({ route: 'POST /pca', kind: 'commit-drop' });
    const { resultado, erros } = await publicar(client, plano(lista), store);
    expect(erros).toEqual([]);
    expect(resultado.adotados).toBe(1001);
    expect(chamadas('GET', /\/sequenciaisplano$/).length).toBeGreaterThanOrEqual(2);
    expect(chamadas('POST', /\/pca$/)).toHaveLength(1);
    expect(fake.plans(CNPJ)).toHaveLength(1);
    conferirUnicoPlano(lista);
  });

  it('commit-drop no POST /itens: a próxima execução lista os itens e não os reenvia', async () => {
    const { client } = cliente();
    const { store } = memoria();
    fake.fault({ route: 'POST /itens', kind: 'commit-drop', after: 1 });
    const { resultado, erros } = await publicar(client, plano(lista), store);
    expect(erros).toHaveLength(1);
    expect((erros[0] as PncpErroTemporario).motivo).toBe('rede');
    expect((erros[0] as PncpErroTemporario).incerto).toBe(true);
    // The second items batch (2001..2500) was committed: adopted, never sent again.
    expect(resultado.adotados).toBe(500);
    expect(chamadas('POST', /\/itens$/)).toHaveLength(2);
    conferirUnicoPlano(lista);
  });
});

describe('plano que o PNCP já tem', () => {
  it('adota o plano criado antes (resposta perdida) e retifica, com justificativa, os itens com outros valores', async () => {
    const { client } = cliente();
    const outro = memoria();
    // An earlier attempt created the plan with items 1..4, item 2 then with another price; its answer never arrived.
    await sincronizarPlano(client, plano([item(1), item(2, { valorUnitario: '9.9900' }), item(3), item(4)]), outro.store);
    const { estado, store } = memoria();
    const lista = itens(1, 6);
    const sem = (await falha(sincronizarPlano(client, plano(lista), store))) as PncpErroDados;
    expect(sem.mensagem).toBe('Informe a justificativa (até 255 caracteres) para retificar ou excluir itens publicados.');
    expect(estado.sequencial).toBe(outro.estado.sequencial);
    const r = await sincronizarPlano(client, plano(lista), store, { justificativa: JUSTIFICATIVA });
    expect(r).toMatchObject({ planoCriado: false, retificados: 1, inseridos: 2 });
    const pncp = conferirUnicoPlano(lista);
    expect(pncp.itens.filter((i) => i.retificacoes.length > 0).map((i) => i.numeroItem)).toEqual([2]);
    expect(chamadas('POST', /\/pca$/)).toHaveLength(1);
  });
});

describe('token', () => {
  it('um login para muitas chamadas na mesma hora; outro depois de clock.advance(3 600 000)', async () => {
    const { client } = cliente();
    const { store } = memoria();
    await sincronizarPlano(client, plano(itens(1, 5)), store);
    await sincronizarPlano(client, plano(itens(1, 8)), store);
    fake.clock.advance(30 * 60_000);
    await sincronizarPlano(client, plano(itens(1, 10)), store);
    expect(logins()).toBe(1);
    fake.clock.advance(3_600_000);
    await sincronizarPlano(client, plano(itens(1, 12)), store);
    expect(logins()).toBe(2);
    // Renewed before expiry: the PNCP never had to answer 401.
    expect(fake.calls.filter((c) => c.status === 401)).toEqual([]);
    expect(fake.calls.filter((c) => c.method !== 'GET' && !/login$/.test(c.path)).every((c) => c.authenticated)).toBe(true);
    conferirUnicoPlano(itens(1, 12));
  });

  it('single-flight: chamadas simultâneas de clientes que compartilham o cache fazem um só login', async () => {
    const cache = criarCacheTokens();
    const a = cliente({ cacheTokens: cache }).client;
    const b = cliente({ cacheTokens: cache }).client;
    const r = await Promise.all([
      a.excluirPlano(CNPJ, ANO, 41, JUSTIFICATIVA),
      b.excluirPlano(CNPJ, ANO, 42, JUSTIFICATIVA),
      a.excluirPlano(CNPJ, ANO, 43, JUSTIFICATIVA),
    ]);
    expect(r).toEqual([{ jaExcluido: true }, { jaExcluido: true }, { jaExcluido: true }]);
    expect(logins()).toBe(1);
  });

  it('senha recusada: PncpErroAutenticacao em pt-BR, sem a senha', async () => {
    const { client } = cliente({ credenciais: async () => ({ login: USUARIO.login, senha: 'Outra-Senha-Errada-2026' }) });
    const { store } = memoria();
    // Login once successfully elsewhere so the afterEach has a token to look for.
    await cliente().client.excluirPlano(CNPJ, ANO, 99, JUSTIFICATIVA);
    const e = (await falha(sincronizarPlano(client, plano(itens(1, 3)), store))) as PncpErroAutenticacao;
    expect(e).toBeInstanceOf(PncpErroAutenticacao);
    expect(e.mensagem).toBe('Usuário ou senha do PNCP recusados: confira em Configuração.');
    expect(JSON.stringify(e) + e.message).not.toContain('Outra-Senha-Errada-2026');
    vistos.push(JSON.stringify(fake.calls));
    expect(vistos.join('\n')).not.toContain('Outra-Senha-Errada-2026');
  });
});

describe('erros de dados', () => {
  it('400 do PNCP no POST /pca mapeado ao numeroItem, mensagem em pt-BR, sem nova tentativa', async () => {
    const { client, esperas } = cliente();
    const { store } = memoria();
    const lista = [item(1), item(2, { categoriaItemPca: '9' }), item(3), item(4, { classificacaoCatalogo: '3' })];
    const e = (await falha(sincronizarPlano(client, plano(lista), store))) as PncpErroDados;
    expect(e).toBeInstanceOf(PncpErroDados);
    expect(e.status).toBe(400);
    expect(e.retentavel).toBe(false);
    expect(new Set(e.erros.map((x) => x.numeroItem))).toEqual(new Set([2, 4]));
    expect(e.mensagem).toMatch(
      /^O PNCP recusou 2 itens \(400\): item 2: itensPlano\[1\]\.categoriaItemPca: .+ \| item 4: itensPlano\[3\]\.classificacaoCatalogo: /,
    );
    expect(esperas).toEqual([]);
    expect(chamadas('POST', /\/pca$/)).toHaveLength(1);
    expect(fake.plans(CNPJ)).toEqual([]);
  });

  it('400 no segundo lote (POST /itens) aponta o item certo do lote', async () => {
    const { client } = cliente();
    const { store } = memoria();
    const lista = [...itens(1, 4), item(5, { categoriaItemPca: '9' }), item(6)];
    const e = (await falha(sincronizarPlano(client, plano(lista), store, { lote: 3 }))) as PncpErroDados;
    expect(e).toBeInstanceOf(PncpErroDados);
    expect(e.erros.map((x) => x.numeroItem)).toEqual([5]);
    expect(e.mensagem).toMatch(/^O PNCP recusou 1 item \(400\): item 5: itens\[1\]\.categoriaItemPca/);
    // The first batch stays published; fixing the item and running again finishes.
    const { estado } = { estado: await store.carregar() };
    expect(estado.enviados.size).toBe(3);
    await sincronizarPlano(client, plano(itens(1, 6)), store, { lote: 3 });
    conferirUnicoPlano(itens(1, 6));
  });

  it('dados inválidos são recusados antes de qualquer envio (decimal com vírgula, numeroItem repetido)', async () => {
    const { client } = cliente();
    const { store } = memoria();
    const e = (await falha(sincronizarPlano(client, plano([item(1), item(2, { quantidade: '12,34' }), item(2)]), store))) as PncpErroDados;
    expect(e).toBeInstanceOf(PncpErroDados);
    expect(e.erros[0]).toMatchObject({ campo: 'itens[1].quantidade', numeroItem: 2 });
    expect(e.mensagem).toContain('item 2: itens[1].quantidade: deve ser um decimal não negativo com até 4 casas');
    const r = (await falha(sincronizarPlano(client, plano([item(1), item(2), item(2)]), store))) as PncpErroDados;
    expect(r.erros).toEqual([{ campo: 'numeroItem', mensagem: 'número de item repetido no plano', numeroItem: 2 }]);
    expect(fake.calls).toEqual([]);
    await client.excluirPlano(CNPJ, ANO, 1, JUSTIFICATIVA); // a login, for the afterEach
  });
});

describe('retificação e exclusão', () => {
  it('altera 2 itens, remove 1 e inclui 3: PATCH, DELETE e POST com a justificativa', async () => {
    const { client } = cliente();
    const { estado, store } = memoria();
    await sincronizarPlano(client, plano(itens(1, 10)), store);
    const revisado = [
      ...itens(1, 10)
        .filter((i) => i.numeroItem !== 7)
        .map((i) =>
          i.numeroItem === 3 || i.numeroItem === 8 ? { ...i, valorUnitario: '2.5000', valorTotal: d4(((i.numeroItem * 10_000 + 5_000) * 5) / 2) } : i,
        ),
      ...itens(11, 13),
    ];
    // Without a justificativa nothing is sent.
    const antes = fake.calls.length;
    const sem = (await falha(sincronizarPlano(client, plano(revisado), store))) as PncpErroDados;
    expect(sem).toBeInstanceOf(PncpErroDados);
    expect(sem.mensagem).toBe('Informe a justificativa (até 255 caracteres) para retificar ou excluir itens publicados.');
    expect(fake.calls.length).toBe(antes);

    const r = await sincronizarPlano(client, plano(revisado), store, { justificativa: JUSTIFICATIVA });
    expect(r).toMatchObject({ retificados: 2, excluidos: 1, inseridos: 3 });
    const escritas = fake.calls.slice(antes).filter((c) => c.method !== 'GET');
    expect(escritas.map((c) => `${c.method} ${c.status}`)).toEqual(['PATCH 200', 'DELETE 200', 'POST 201']);
    const pncp = conferirUnicoPlano(revisado);
    const todos = fake.plans(CNPJ)[0]!.itens;
    expect(todos.find((i) => i.numeroItem === 7)).toMatchObject({ excluido: true, justificativaExclusao: JUSTIFICATIVA });
    const retificados = pncp.itens.filter((i) => i.retificacoes.length > 0);
    expect(retificados.map((i) => i.numeroItem)).toEqual([3, 8]);
    expect(retificados[0]!.retificacoes[0]!.justificativa).toBe(JUSTIFICATIVA);
    expect(retificados[0]!.body.valorUnitario).toBe('2.5000');
    expect([...estado.enviados.keys()].sort((a, b) => a - b)).toEqual(revisado.map((i) => i.numeroItem));
    expect(estado.progresso.map((p) => p.etapa)).toContain('retificacao');
  });

  it('resposta perdida de um DELETE de itens: a nova tentativa recebe 404 e confere a lista', async () => {
    const { client } = cliente();
    const { estado, store } = memoria();
    await sincronizarPlano(client, plano(itens(1, 6)), store);
    fake.fault({ route: 'DELETE /itens', kind: 'commit-drop' });
    await sincronizarPlano(client, plano(itens(1, 4)), store, { justificativa: JUSTIFICATIVA });
    expect(chamadas('DELETE', /\/itens$/).map((c) => c.status)).toEqual([0, 404]);
    expect(estado.enviados.size).toBe(4);
    conferirUnicoPlano(itens(1, 4));
  });

  it('excluirPlanoPncp exclui com justificativa; de novo responde jaExcluido', async () => {
    const { client } = cliente();
    const { estado, store } = memoria();
    await sincronizarPlano(client, plano(itens(1, 3)), store);
    const ref = { cnpj: CNPJ, anoPca: ANO, sequencial: estado.sequencial! };
    const semJustificativa = (await falha(excluirPlanoPncp(client, ref, ' '))) as PncpErroDados;
    expect(semJustificativa.mensagem).toBe('Informe a justificativa (até 255 caracteres) para excluir o plano do PNCP.');
    expect(await excluirPlanoPncp(client, ref, JUSTIFICATIVA)).toEqual({ jaExcluido: false });
    expect(fake.plans(CNPJ)[0]).toMatchObject({ excluido: true, justificativaExclusao: JUSTIFICATIVA });
    expect(await excluirPlanoPncp(client, ref, JUSTIFICATIVA)).toEqual({ jaExcluido: true });
  });

  it('resposta perdida na exclusão do plano: a repetição recebe 404 e conta como excluído', async () => {
    const { client, esperas } = cliente();
    const { estado, store } = memoria();
    await sincronizarPlano(client, plano(itens(1, 3)), store);
    fake.fault({ route: 'DELETE /pca', kind: 'commit-drop' });
    const ref = { cnpj: CNPJ, anoPca: ANO, sequencial: estado.sequencial! };
    expect(await excluirPlanoPncp(client, ref, JUSTIFICATIVA)).toEqual({ jaExcluido: true });
    expect(chamadas('DELETE', /\/pca\/\d+\/\d+$/).map((c) => c.status)).toEqual([0, 404]);
    expect(esperas).toEqual([250]);
    expect(fake.plans(CNPJ)[0]).toMatchObject({ excluido: true, justificativaExclusao: JUSTIFICATIVA });
  });
});

describe('leitura de JSON com decimais exatos', () => {
  it('mantém números com casas decimais como texto, sem tocar em strings', () => {
    expect(lerJsonDecimais('[{"numeroItem":3,"valorTotal":1234567890123.4567,"descricao":"a: 1.5, \\"b\\" 2.0","q":10.0000,"e":-1.5e3}]')).toEqual([
      { numeroItem: 3, valorTotal: '1234567890123.4567', descricao: 'a: 1.5, "b" 2.0', q: '10.0000', e: '-1.5e3' },
    ]);
    expect(typeof lerJsonDecimais('<html>')).toBe('symbol');
    // so the afterEach has a token to look for
    tokens.push('nenhum-token-emitido');
  });
});
