// Shared set-up of the cotações API tests: the plugins (the demo catalogue, suppliers and centros of
// the dependencies; no demo cotações), the people, and small helpers that walk the API.
import { today } from '@app/br';
import { lineTotal, sumMoney } from '@app/documents';
import fornecedores from '@app/fornecedores/server';
import memorandos from '@app/memorandos/server';
import produtos from '@app/produtos/server';
import registros from '@app/registros/server';
import requisicoes from '@app/requisicoes/server';
import { type DatabaseSuite, withoutSeed } from '@app/server-core/testing';
import cotacoes from '../../src/server/index.js';
import type { Convite, MapaCotacao, PrecoListado } from '../../src/shared/index.js';

export const plugins = [registros, produtos, fornecedores, memorandos, requisicoes, withoutSeed(cotacoes)];

export type Json = Record<string, unknown>;
export type Answer<T = Json> = { status: number; body: T & { error?: { code: string; message: string; fields?: Record<string, string> } } };

/** 'aaaa-mm-dd' of today + `dias` (São Paulo, the server's calendar). */
export function dia(dias = 0): string {
  const d = new Date(`${today()}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + dias);
  return d.toISOString().slice(0, 10);
}
/** `data` ('aaaa-mm-dd') minus `meses`, the day clamped to the month's end. */
export function mesesAntes(data: string, meses: number): string {
  const [a, m, d] = data.split('-').map(Number) as [number, number, number];
  const total = a * 12 + (m - 1) - meses;
  const ano = Math.floor(total / 12);
  const mes = total - ano * 12 + 1;
  const ultimo = new Date(Date.UTC(ano, mes, 0)).getUTCDate();
  return `${ano}-${String(mes).padStart(2, '0')}-${String(Math.min(d, ultimo)).padStart(2, '0')}`;
}
/** `data` ± `dias`. */
export function somarDias(data: string, dias: number): string {
  const d = new Date(`${data}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + dias);
  return d.toISOString().slice(0, 10);
}
/** An instant on São Paulo's clock (UTC−3), ISO with offset. */
export const em = (data: string, hora = '12:00') => `${data}T${hora}:00-03:00`;

export interface Mundo {
  entidades: { prefeitura: string; camara: string };
  centros: { educacao: string; saude: string };
  produtos: string[];
  fornecedores: { id: string; nome: string }[];
  impedido: string;
  inativo: string;
  tipoSolicitacao: string;
  adminId: string;
  tokens: { admin: string; camara: string; comprador: string; outroCentro: string; semTag: string; autoridade: string; compradorAutoridade: string };
  ids: { comprador: string; compradorAutoridade: string };
}

/** The demo rows the tests use and one person per role. */
export async function prepararMundo(t: DatabaseSuite, prefixo: string): Promise<Mundo> {
  const s = t.server;
  const entidades = await s.demoEntidades();
  const centro = async (codigo: string) =>
    (await s.sql<{ id: string }>('SELECT id FROM registros_centros_custo WHERE entidade_id = $1 AND codigo = $2', [entidades.prefeitura, codigo]))[0]!.id;
  const educacao = await centro('02');
  const saude = await centro('03');
  const prods = (await s.sql<{ id: string }>('SELECT id FROM produtos WHERE entidade_id = $1 AND ativo ORDER BY codigo LIMIT 6', [entidades.prefeitura])).map(
    (r) => r.id,
  );
  const fornec = await s.sql<{ id: string; nome: string }>(
    "SELECT id, razao_social AS nome FROM fornecedores WHERE entidade_id = $1 AND situacao = 'ativo' AND ativo ORDER BY razao_social LIMIT 6",
    [entidades.prefeitura],
  );
  const [impedido] = await s.sql<{ id: string }>("SELECT id FROM fornecedores WHERE entidade_id = $1 AND situacao = 'impedido'", [entidades.prefeitura]);
  const [inativo] = await s.sql<{ id: string }>("SELECT id FROM fornecedores WHERE entidade_id = $1 AND situacao = 'inativo'", [entidades.prefeitura]);
  const [tipo] = await s.sql<{ id: string }>('SELECT id FROM registros_tipos_solicitacao WHERE entidade_id = $1 LIMIT 1', [entidades.prefeitura]);
  const [admin] = await s.sql<{ id: string }>("SELECT id FROM usuarios WHERE login = 'admin'");
  const comprador = await s.createUser({ login: `${prefixo}comprador`, nome: 'Carla Compradora', tags: [73], centros: [educacao] });
  const outroCentro = await s.createUser({ login: `${prefixo}saude`, tags: [73], centros: [saude] });
  const semTag = await s.createUser({ login: `${prefixo}semtag`, tags: [39], centros: [educacao] });
  const autoridade = await s.createUser({ login: `${prefixo}autoridade`, nome: 'Augusto Autoridade', tags: [73, 100], todosCentros: true });
  const compradorAutoridade = await s.createUser({ login: `${prefixo}compaut`, tags: [73, 100], centros: [educacao] });
  return {
    entidades,
    centros: { educacao, saude },
    produtos: prods,
    fornecedores: fornec,
    impedido: impedido!.id,
    inativo: inativo!.id,
    tipoSolicitacao: tipo!.id,
    adminId: admin!.id,
    tokens: {
      admin: (await s.signIn('admin', 'demo1234', entidades.prefeitura)).token,
      camara: (await s.signIn('admin', 'demo1234', entidades.camara)).token,
      comprador: comprador.token,
      outroCentro: outroCentro.token,
      semTag: semTag.token,
      autoridade: autoridade.token,
      compradorAutoridade: compradorAutoridade.token,
    },
    ids: { comprador: comprador.id, compradorAutoridade: compradorAutoridade.id },
  };
}

/** The API under /api/cotacoes as one person. */
export function cliente(t: DatabaseSuite, token: () => string) {
  const call = async <T = Json>(method: string, path: string, json?: unknown, as?: string): Promise<Answer<T>> => {
    const res = await t.server.request(`/api/cotacoes${path}`, { method, token: as ?? token(), ...(json !== undefined ? { json } : {}) });
    const text = await res.text();
    let body: unknown = {};
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = { text };
      }
    }
    return { status: res.status, body: body as Answer<T>['body'] };
  };
  const ok = async <T = Json>(method: string, path: string, json: unknown, status: number, as?: string): Promise<T> => {
    const r = await call<T>(method, path, json, as);
    if (r.status !== status) throw new Error(`${method} ${path}: expected ${status}, got ${r.status}: ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const api = {
    call,
    ok,
    get: <T = Json>(path: string, as?: string) => call<T>('GET', path, undefined, as),
    mapa: (id: string, as?: string) => ok<MapaCotacao>('GET', `/cotacoes/${id}/mapa`, undefined, 200, as),
    /** A cotação in rascunho of the comprador's centro (Educação) with these products. */
    criar: async (produtoIds: string[], extra: Json = {}, as?: string) =>
      ok<Json & { id: string; version: number; itens: Json[] }>(
        'POST',
        '/cotacoes',
        {
          objeto: 'Material de expediente para as escolas',
          centroCustoId: extra.centroCustoId,
          dataReferencia: dia(),
          metodo: 'media',
          iterar: false,
          itens: produtoIds.map((produtoId) => ({ produtoId, quantidade: '10' })),
          ...extra,
        },
        201,
        as,
      ),
    transicao: async (id: string, nome: string, body: Json = {}, as?: string) => {
      const atual = await ok<{ version: number }>('GET', `/cotacoes/${id}`, undefined, 200, as);
      return call<Json & { status: string; version: number }>('POST', `/cotacoes/${id}/${nome}`, { version: atual.version, ...body }, as);
    },
    convidar: (id: string, fornecedorId: string, as?: string) => ok<Convite>('POST', `/cotacoes/${id}/fornecedores`, { fornecedorId }, 201, as),
    responder: (id: string, conviteId: string, itens: { produtoId: string; valorUnitario: string | null }[], extra: Json = {}, as?: string) =>
      ok<Convite>(
        'PUT',
        `/cotacoes/${id}/fornecedores/${conviteId}/resposta`,
        { dataProposta: new Date(Date.now() - 3_600_000).toISOString(), validade: dia(30), itens, ...extra },
        200,
        as,
      ),
    preco: (id: string, body: Json, as?: string) =>
      ok<PrecoListado>(
        'POST',
        `/cotacoes/${id}/precos`,
        { fonte: 'painel', fonteDescricao: 'Painel de Preços', dataColeta: new Date(Date.now() - 3_600_000).toISOString(), ...body },
        201,
        as,
      ),
  };
  return api;
}

/** An approved requisição (fixture rows: the approval flow is @app/requisicoes' to test). */
export async function requisicaoAprovada(
  t: DatabaseSuite,
  m: Mundo,
  numero: number,
  itens: { produtoId: string; quantidade: string; valorUnitario: string }[],
  options: { centroCustoId?: string; status?: string } = {},
): Promise<{ id: string; itens: string[] }> {
  const id = await t.server.insert('requisicoes', {
    entidade_id: m.entidades.prefeitura,
    numero,
    ano: Number(dia().slice(0, 4)),
    data: dia(-5),
    status: options.status ?? 'aprovada',
    centro_custo_id: options.centroCustoId ?? m.centros.educacao,
    tipo_solicitacao_id: m.tipoSolicitacao,
    categoria: 'compras',
    justificativa: `Reposição de material das escolas (requisição ${numero}).`,
    solicitante_id: m.adminId,
    solicitante_nome: 'Administrador',
    valor_total: sumMoney(itens.map((i) => lineTotal(i.quantidade, i.valorUnitario))),
  });
  const ids: string[] = [];
  for (const [i, item] of itens.entries()) {
    ids.push(
      await t.server.insert('requisicao_itens', {
        requisicao_id: id,
        entidade_id: m.entidades.prefeitura,
        ordem: i + 1,
        produto_id: item.produtoId,
        quantidade: item.quantidade,
        valor_unitario: item.valorUnitario,
        valor_total: lineTotal(item.quantidade, item.valorUnitario),
      }),
    );
  }
  return { id, itens: ids };
}
