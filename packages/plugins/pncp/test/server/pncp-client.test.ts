// Pure parts of the PNCP client (error bodies, Retry-After, mapping to items) and its behaviour when the PNCP cannot be
// reached at all (connection refused: the request never left, so even an insert may be repeated).
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  createPncpClient,
  criarCacheTokens,
  lerErrosPncp,
  lerRetryAfter,
  mapearErrosAosItens,
  mensagemPncp,
  PncpErroDados,
  pncpErroRetentavel,
  PncpErroTemporario,
} from '../../src/server/pncp/index.js';

describe('lerErrosPncp', () => {
  it('lê erros[], message, texto, HTML e mapas', () => {
    expect(lerErrosPncp('{"erros":[{"nomeCampo":"itensPlano[0].quantidade","mensagem":"Campo obrigatório."}]}')).toEqual([
      { campo: 'itensPlano[0].quantidade', mensagem: 'Campo obrigatório.' },
    ]);
    expect(lerErrosPncp('{"message":"Unidade não cadastrada","status":422}')).toEqual([{ campo: '', mensagem: 'Unidade não cadastrada' }]);
    expect(lerErrosPncp('"Plano não encontrado"')).toEqual([{ campo: '', mensagem: 'Plano não encontrado' }]);
    expect(lerErrosPncp('Token de acesso ausente')).toEqual([{ campo: '', mensagem: 'Token de acesso ausente' }]);
    expect(lerErrosPncp('<html><body><h1>Bad   Request</h1></body></html>')).toEqual([{ campo: '', mensagem: 'Bad Request' }]);
    expect(lerErrosPncp('{"codigoUnidade":"Unidade não cadastrada para o órgão","timestamp":"2026-12-05"}')).toEqual([
      { campo: 'codigoUnidade', mensagem: 'Unidade não cadastrada para o órgão' },
    ]);
    expect(lerErrosPncp('')).toEqual([]);
  });

  it('aponta o numeroItem pelo índice do lote enviado', () => {
    const erros = mapearErrosAosItens(
      [
        { campo: 'itensPlano[1].valorTotal', mensagem: 'inválido' },
        { campo: 'lista[0]', mensagem: 'x' },
        { campo: 'justificativa', mensagem: 'obrigatória' },
        { campo: '[7].quantidade', mensagem: 'fora do lote' },
      ],
      [11, 12],
    );
    expect(erros.map((e) => e.numeroItem)).toEqual([12, 11, undefined, undefined]);
    const e = new PncpErroDados(erros, { operacao: 'inserirItens', status: 400 });
    expect(e.mensagem).toBe(
      'O PNCP recusou 2 itens (400): item 12: itensPlano[1].valorTotal: inválido | item 11: lista[0]: x | justificativa: obrigatória | [7].quantidade: fora do lote',
    );
    expect(pncpErroRetentavel(e)).toBe(false);
    expect(mensagemPncp(new Error('x'))).toBe('Falha inesperada ao falar com o PNCP.');
  });
});

describe('lerRetryAfter', () => {
  it('segundos ou data HTTP', () => {
    expect(lerRetryAfter('7', 0)).toBe(7000);
    expect(lerRetryAfter(null, 0)).toBeUndefined();
    expect(lerRetryAfter('Sat, 05 Dec 2026 12:00:30 GMT', Date.parse('2026-12-05T12:00:00Z'))).toBe(30_000);
    expect(lerRetryAfter('amanhã', 0)).toBeUndefined();
  });
});

describe('PNCP inalcançável', () => {
  it('conexão recusada numa leitura: repetida; no fim, erro temporário de rede em pt-BR', async () => {
    // A port that was free a moment ago: nothing listens there.
    const porta = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const esperas: number[] = [];
    const client = createPncpClient({
      baseUrl: `http://127.0.0.1:${porta}/api/pncp`,
      credenciais: async () => ({ login: 'compras-treina', senha: 'Senha-Forte-Treina-2026' }),
      sleep: async (ms) => {
        esperas.push(ms);
      },
      random: () => 0,
      maxTentativas: 3,
      cacheTokens: criarCacheTokens(),
      intervaloEscritasMs: 0,
    });
    const e = await client.sequenciaisPlano('46358021000184', '1', 2027).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PncpErroTemporario);
    expect((e as PncpErroTemporario).motivo).toBe('rede');
    expect((e as PncpErroTemporario).incerto).toBe(false);
    expect((e as PncpErroTemporario).mensagem).toBe('Falha de rede ao falar com o PNCP; nova tentativa automática.');
    expect(esperas).toEqual([0, 0]);
    expect(JSON.stringify(e)).not.toContain('Senha-Forte');
  });
});

describe('política por operação (fetch simulado)', () => {
  function simulado(falhaDoPost: () => never) {
    let posts = 0;
    const esperas: number[] = [];
    const fetchSimulado: typeof fetch = async (url, init) => {
      const caminho = String(url);
      if (caminho.endsWith('/usuarios/login')) {
        return new Response(null, { status: 200, headers: { authorization: 'Bearer tok-simulado-123', expires: '3600000' } });
      }
      if (init?.method === 'POST' && caminho.endsWith('/pca')) {
        posts++;
        if (posts <= 2) falhaDoPost();
        return new Response(null, { status: 201, headers: { location: `${caminho}/2027/5` } });
      }
      return new Response('não esperado', { status: 500 });
    };
    const client = createPncpClient({
      baseUrl: 'http://pncp.invalid/api/pncp',
      credenciais: async () => ({ login: 'compras-treina', senha: 'Senha-Forte-Treina-2026' }),
      fetch: fetchSimulado,
      sleep: async (ms) => {
        esperas.push(ms);
      },
      random: () => 0.5,
      cacheTokens: criarCacheTokens(),
      intervaloEscritasMs: 0,
    });
    return { client, esperas, posts: () => posts };
  }
  const plano = { codigoUnidade: '1', anoPca: 2027, itensPlano: [] };

  it('inclusão com conexão recusada (o pedido não saiu): repetida dentro da chamada', async () => {
    const { client, esperas, posts } = simulado(() => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    });
    expect(await client.inserirPlano('46358021000184', plano)).toEqual({ sequencial: 5 });
    expect(posts()).toBe(3);
    expect(esperas).toEqual([250, 500]);
  });

  it('inclusão com conexão derrubada depois de enviada: não repete, erro incerto', async () => {
    const { client, esperas, posts } = simulado(() => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
    });
    const e = await client.inserirPlano('46358021000184', plano).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PncpErroTemporario);
    expect((e as PncpErroTemporario).incerto).toBe(true);
    expect(posts()).toBe(1);
    expect(esperas).toEqual([]);
    expect(JSON.stringify(e) + String((e as Error).message)).not.toMatch(/tok-simulado-123|Senha-Forte/);
  });
});
