// Publication of one PCA (one CNPJ + unidade + year) on the PNCP, made for a durable job: idempotent and resumable.
//
// Every run starts from what the store knows (the plan's sequencial and, per numeroItem, the fingerprint of what the PNCP
// holds) and brings the PNCP to the local plan:
// 1. no sequencial → ask the PNCP (`sequenciaisplano`) first: a previous run may have created the plan and lost the
//    answer; adopt it and list its items. Otherwise POST /pca with the first batch.
// 2. sequencial known but items still unsent → count the PNCP's items; if the count differs from what the store knows,
//    list them and mark the ones already there (a lost answer of POST /itens), so nothing is sent twice.
// 3. items whose fingerprint changed → PATCH list (justificativa); items sent but gone from the plan → DELETE list.
// 4. remaining items → POST /itens in batches; the store learns each batch right after its success. A 400/422 on a
//    batch first lists the PNCP's items (a lost earlier request may have inserted some) and re-sends only the rest, once.
// An insert whose answer was lost (timeout, dropped connection, 5xx, unreadable success) ends the run with a retryable
// error and is never repeated blindly: the next run (the job's retry, after its delay) checks the PNCP first.
import { z } from 'zod';
import { cnpjDigitos, type ItemPncpLido, mapearErrosAosItens, type PncpClient } from './client.js';
import { type PncpErroCampo, PncpErroDados, PncpErroNaoEncontrado, PncpErroResposta, PncpErroTemporario } from './errors.js';
import { fingerprint, type ItemPca, itemPcaSchema, itemPncpIgual } from './item.js';

export interface PlanoPca {
  cnpj: string;
  codigoUnidade: string;
  anoPca: number;
  itens: ItemPca[];
}

export type EtapaSync = 'verificando' | 'plano' | 'itens' | 'retificacao' | 'exclusao' | 'concluido';

export interface ProgressoSync {
  etapa: EtapaSync;
  feitos: number;
  total: number;
}

/** What the synchronisation needs from the database; each method is its own short transaction. */
export interface PncpSyncStore {
  carregar(): Promise<{ sequencial: number | null; enviados: Map<number, string> }>;
  registrarPlano(sequencial: number): Promise<void>;
  /** The PNCP now holds these items with these fingerprints (insert, rectification or adoption). */
  registrarEnviados(itens: { numeroItem: number; fingerprint: string }[]): Promise<void>;
  /** These items are no longer on the PNCP. */
  registrarExcluidos(numeros: number[]): Promise<void>;
  progresso(progresso: ProgressoSync): Promise<void> | void;
}

export interface SincronizarOpcoes {
  /** Required when items must be rectified or deleted (1 to 255 characters). */
  justificativa?: string;
  /** Items per POST/PATCH/DELETE (1..1000, default 1000). */
  lote?: number;
  /** Page size when listing the PNCP's items (default 1000). */
  tamanhoPaginaLeitura?: number;
}

export interface ResultadoSync {
  sequencial: number;
  /** The plan was created by this run (false when it existed or was adopted). */
  planoCriado: boolean;
  /** The plan or items were found on the PNCP without the store knowing (a lost answer of an earlier run). */
  adotados: number;
  inseridos: number;
  retificados: number;
  excluidos: number;
}

/** Fingerprint stored for an item found on the PNCP with values different from the local ones: forces a PATCH. */
export const FINGERPRINT_DIVERGENTE = 'pncp:divergente';
export const LOTE_MAXIMO = 1000;

const planoSchema = z.object({
  cnpj: z.string().refine((c) => c.replace(/\D/g, '').length === 14, 'CNPJ deve ter 14 dígitos'),
  codigoUnidade: z.string().trim().min(1, 'é obrigatório').max(30, 'deve ter até 30 caracteres'),
  anoPca: z.number().int().min(2000, 'ano inválido').max(9999, 'ano inválido'),
  itens: z.array(itemPcaSchema),
});

function caminho(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)), '');
}

/** Validates the plan before anything is sent; errors name the item (numeroItem) in pt-BR. */
export function validarPlano(plano: PlanoPca): PlanoPca {
  const r = planoSchema.safeParse(plano);
  const erros: PncpErroCampo[] = [];
  if (!r.success) {
    for (const issue of r.error.issues) {
      const campo = caminho(issue.path);
      const erro: PncpErroCampo = { campo, mensagem: issue.message };
      if (issue.path[0] === 'itens' && typeof issue.path[1] === 'number') {
        const numero = plano.itens[issue.path[1]]?.numeroItem;
        if (typeof numero === 'number') erro.numeroItem = numero;
      }
      erros.push(erro);
    }
  } else {
    const vistos = new Set<number>();
    for (const item of r.data.itens) {
      if (vistos.has(item.numeroItem)) erros.push({ campo: 'numeroItem', mensagem: 'número de item repetido no plano', numeroItem: item.numeroItem });
      vistos.add(item.numeroItem);
    }
  }
  if (erros.length > 0) {
    throw new PncpErroDados(erros, {
      operacao: 'sincronizar',
      mensagem: `O plano tem dados inválidos e não foi enviado: ${erros
        .slice(0, 20)
        .map((e) => (e.numeroItem === undefined ? `${e.campo}: ${e.mensagem}` : `item ${e.numeroItem}: ${e.campo}: ${e.mensagem}`))
        .join(' | ')}`,
    });
  }
  return r.data as PlanoPca;
}

function validarJustificativa(justificativa: string | undefined, para: string): string {
  const j = justificativa?.trim() ?? '';
  if (j.length === 0 || j.length > 255) {
    throw new PncpErroDados([{ campo: 'justificativa', mensagem: 'informe a justificativa, com até 255 caracteres' }], {
      operacao: 'sincronizar',
      mensagem: `Informe a justificativa (até 255 caracteres) para ${para}.`,
    });
  }
  return j;
}

function lotes<T>(lista: readonly T[], tamanho: number): T[][] {
  const saida: T[][] = [];
  for (let i = 0; i < lista.length; i += tamanho) saida.push(lista.slice(i, i + tamanho));
  return saida;
}

/** An error after which the PNCP may or may not have carried out the write. */
function incerto(erro: unknown): boolean {
  return (erro instanceof PncpErroTemporario || erro instanceof PncpErroResposta) && erro.incerto;
}

/** Rewrites a PncpErroDados of a batch so each error names its numeroItem (`itensPlano[3]` → the 4th item sent). */
function errosDoLote(erro: unknown, numeros: readonly number[]): unknown {
  if (!(erro instanceof PncpErroDados)) return erro;
  return new PncpErroDados(mapearErrosAosItens(erro.erros, numeros), { operacao: erro.operacao, status: erro.status });
}

/** Whether a read-back item is marked deleted (the integration API normally leaves deleted items out). */
function excluidoNaPncp(item: ItemPncpLido): boolean {
  return item.excluido === true || item.itemExcluido === true;
}

export async function sincronizarPlano(
  client: PncpClient,
  planoEntrada: PlanoPca,
  store: PncpSyncStore,
  opcoes: SincronizarOpcoes = {},
): Promise<ResultadoSync> {
  const plano = validarPlano(planoEntrada);
  const cnpj = cnpjDigitos(plano.cnpj);
  const ano = plano.anoPca;
  const lote = Math.min(LOTE_MAXIMO, Math.max(1, Math.floor(opcoes.lote ?? LOTE_MAXIMO)));
  const pagina = Math.max(1, Math.floor(opcoes.tamanhoPaginaLeitura ?? 1000));
  const itens = [...plano.itens].sort((a, b) => a.numeroItem - b.numeroItem);
  const locais = new Map(itens.map((i) => [i.numeroItem, i]));
  const fps = new Map(itens.map((i) => [i.numeroItem, fingerprint(i)]));
  const total = itens.length;

  const estado = await store.carregar();
  const enviados = new Map(estado.enviados);
  let sequencial = estado.sequencial;
  const resultado: ResultadoSync = { sequencial: 0, planoCriado: false, adotados: 0, inseridos: 0, retificados: 0, excluidos: 0 };

  const enviadosDoPlano = () => itens.filter((i) => enviados.has(i.numeroItem)).length;
  const progresso = (etapa: EtapaSync, feitos: number, de: number) => store.progresso({ etapa, feitos, total: de });

  // A revision already known from the store needs the justificativa before anything is sent.
  const precisaJustificativa = () =>
    [...enviados].some(([n, fp]) => !locais.has(n) || fps.get(n) !== fp)
      ? validarJustificativa(opcoes.justificativa, 'retificar ou excluir itens publicados')
      : undefined;
  precisaJustificativa();

  /** Lists every item the PNCP holds in the plan (pages until a short page). */
  async function listarTodos(seq: number): Promise<ItemPncpLido[]> {
    const todos: ItemPncpLido[] = [];
    for (let p = 1; p <= 10_000; p++) {
      const pg = await client.listarItens(cnpj, ano, seq, p, pagina);
      todos.push(...pg);
      if (pg.length < pagina) break;
    }
    return todos.filter((i) => !excluidoNaPncp(i));
  }

  /** Makes the store agree with the PNCP's list of items of the plan. */
  async function reconciliar(seq: number): Promise<void> {
    const lidos = await listarTodos(seq);
    const naPncp = new Set(lidos.map((i) => i.numeroItem));
    const adotar: { numeroItem: number; fingerprint: string }[] = [];
    for (const lido of lidos) {
      if (enviados.has(lido.numeroItem)) continue;
      const local = locais.get(lido.numeroItem);
      adotar.push({ numeroItem: lido.numeroItem, fingerprint: local && itemPncpIgual(local, lido) ? fps.get(lido.numeroItem)! : FINGERPRINT_DIVERGENTE });
    }
    if (adotar.length > 0) {
      await store.registrarEnviados(adotar);
      for (const a of adotar) enviados.set(a.numeroItem, a.fingerprint);
      resultado.adotados += adotar.length;
    }
    // Sent items the PNCP no longer holds and the plan no longer wants: a DELETE whose answer was lost.
    const sumidos = [...enviados.keys()].filter((n) => !naPncp.has(n) && !locais.has(n));
    if (sumidos.length > 0) {
      await store.registrarExcluidos(sumidos);
      for (const n of sumidos) enviados.delete(n);
    }
  }

  async function adotarPlano(seq: number): Promise<void> {
    await store.registrarPlano(seq);
    sequencial = seq;
    resultado.adotados += 1;
    await reconciliar(seq);
  }

  await progresso('verificando', enviadosDoPlano(), total);

  // 1. The plan.
  if (sequencial === null) {
    const existente = await client.sequenciaisPlano(cnpj, plano.codigoUnidade, ano);
    if (existente) await adotarPlano(existente.sequencialPlano);
  } else if (itens.some((i) => !enviados.has(i.numeroItem))) {
    // 2. Resuming with items still unsent: an earlier batch may have been carried out without the store knowing.
    const quantidade = await client.quantidadeItens(cnpj, ano, sequencial);
    if (quantidade !== enviados.size) await reconciliar(sequencial);
  }

  if (sequencial === null) {
    if (itens.length === 0) {
      throw new PncpErroDados([{ campo: 'itens', mensagem: 'o plano não tem itens' }], {
        operacao: 'sincronizar',
        mensagem: 'O plano não tem itens para publicar.',
      });
    }
    const primeiro = itens.slice(0, lote);
    await progresso('plano', 0, total);
    let criado: number | undefined;
    try {
      criado = (await client.inserirPlano(cnpj, { codigoUnidade: plano.codigoUnidade, anoPca: ano, itensPlano: primeiro })).sequencial;
    } catch (erro) {
      // Lost answer, or a refusal that may come from an earlier attempt having created the plan: look before failing.
      if (incerto(erro) || erro instanceof PncpErroDados) {
        const existente = await client.sequenciaisPlano(cnpj, plano.codigoUnidade, ano).catch(() => null);
        if (existente) {
          await adotarPlano(existente.sequencialPlano);
        } else {
          throw errosDoLote(
            erro,
            primeiro.map((i) => i.numeroItem),
          );
        }
      } else {
        throw erro;
      }
    }
    if (criado !== undefined) {
      await store.registrarPlano(criado);
      sequencial = criado;
      resultado.planoCriado = true;
      const registro = primeiro.map((i) => ({ numeroItem: i.numeroItem, fingerprint: fps.get(i.numeroItem)! }));
      await store.registrarEnviados(registro);
      for (const r of registro) enviados.set(r.numeroItem, r.fingerprint);
      resultado.inseridos += registro.length;
    }
  }
  const seq = sequencial!;
  resultado.sequencial = seq;

  // 3. Revision: changed items (PATCH) and items gone from the plan (DELETE).
  const alterados = itens.filter((i) => enviados.has(i.numeroItem) && enviados.get(i.numeroItem) !== fps.get(i.numeroItem));
  const removidos = [...enviados.keys()].filter((n) => !locais.has(n)).sort((a, b) => a - b);
  if (alterados.length > 0 || removidos.length > 0) {
    const justificativa = validarJustificativa(opcoes.justificativa, 'retificar ou excluir itens publicados');
    let feitos = 0;
    await progresso('retificacao', 0, alterados.length);
    for (const grupo of lotes(alterados, lote)) {
      try {
        await client.retificarItens(cnpj, ano, seq, grupo, justificativa);
      } catch (erro) {
        throw errosDoLote(
          erro,
          grupo.map((i) => i.numeroItem),
        );
      }
      const registro = grupo.map((i) => ({ numeroItem: i.numeroItem, fingerprint: fps.get(i.numeroItem)! }));
      await store.registrarEnviados(registro);
      for (const r of registro) enviados.set(r.numeroItem, r.fingerprint);
      resultado.retificados += grupo.length;
      feitos += grupo.length;
      await progresso('retificacao', feitos, alterados.length);
    }
    feitos = 0;
    await progresso('exclusao', 0, removidos.length);
    for (const grupo of lotes(removidos, lote)) {
      let restantes = grupo;
      try {
        await client.excluirItens(cnpj, ano, seq, restantes, justificativa);
      } catch (erro) {
        if (!(erro instanceof PncpErroNaoEncontrado)) throw errosDoLote(erro, grupo);
        // Some were already deleted (a lost answer): delete only those the PNCP still holds.
        const naPncp = new Set((await listarTodos(seq)).map((i) => i.numeroItem));
        restantes = grupo.filter((n) => naPncp.has(n));
        if (restantes.length > 0) await client.excluirItens(cnpj, ano, seq, restantes, justificativa);
      }
      await store.registrarExcluidos(grupo);
      for (const n of grupo) enviados.delete(n);
      resultado.excluidos += grupo.length;
      feitos += grupo.length;
      await progresso('exclusao', feitos, removidos.length);
    }
  }

  // 4. The items not yet on the PNCP.
  const pendentes = itens.filter((i) => !enviados.has(i.numeroItem));
  await progresso('itens', enviadosDoPlano(), total);
  for (const lote0 of lotes(pendentes, lote)) {
    let grupo = lote0;
    for (let volta = 0; grupo.length > 0; volta++) {
      try {
        await client.inserirItens(cnpj, ano, seq, grupo);
        break;
      } catch (erro) {
        // A refusal may come from items an earlier, lost request already inserted (numeroItem is unique): look first,
        // then send once more only the items the PNCP does not hold.
        if (!(erro instanceof PncpErroDados) || volta > 0)
          throw errosDoLote(
            erro,
            grupo.map((i) => i.numeroItem),
          );
        await reconciliar(seq);
        const restantes = grupo.filter((i) => !enviados.has(i.numeroItem));
        if (restantes.length === grupo.length)
          throw errosDoLote(
            erro,
            grupo.map((i) => i.numeroItem),
          );
        grupo = restantes;
      }
    }
    if (grupo.length === 0) continue;
    const registro = grupo.map((i) => ({ numeroItem: i.numeroItem, fingerprint: fps.get(i.numeroItem)! }));
    await store.registrarEnviados(registro);
    for (const r of registro) enviados.set(r.numeroItem, r.fingerprint);
    resultado.inseridos += grupo.length;
    await progresso('itens', enviadosDoPlano(), total);
  }

  // Items adopted with different values (FINGERPRINT_DIVERGENTE) may appear only now: rectify them too.
  const divergentes = itens.filter((i) => enviados.get(i.numeroItem) !== fps.get(i.numeroItem));
  if (divergentes.length > 0) {
    const justificativa = validarJustificativa(opcoes.justificativa, 'retificar itens que o PNCP guarda com outros valores');
    for (const grupo of lotes(divergentes, lote)) {
      try {
        await client.retificarItens(cnpj, ano, seq, grupo, justificativa);
      } catch (erro) {
        throw errosDoLote(
          erro,
          grupo.map((i) => i.numeroItem),
        );
      }
      const registro = grupo.map((i) => ({ numeroItem: i.numeroItem, fingerprint: fps.get(i.numeroItem)! }));
      await store.registrarEnviados(registro);
      for (const r of registro) enviados.set(r.numeroItem, r.fingerprint);
      resultado.retificados += grupo.length;
    }
  }

  await progresso('concluido', enviadosDoPlano(), total);
  return resultado;
}

export interface ReferenciaPlanoPncp {
  cnpj: string;
  anoPca: number;
  sequencial: number;
}

/** Deletes the plan on the PNCP (justificativa 1..255). A plan already gone (404) counts as deleted: `{ jaExcluido: true }`. */
export async function excluirPlanoPncp(client: PncpClient, ref: ReferenciaPlanoPncp, justificativa: string): Promise<{ jaExcluido: boolean }> {
  const j = validarJustificativa(justificativa, 'excluir o plano do PNCP');
  return client.excluirPlano(cnpjDigitos(ref.cnpj), ref.anoPca, ref.sequencial, j);
}
