// Publishing a PCA on the PNCP as durable work:
// - the publisher (PCA_PUBLICACAO) runs inside the PCA's `publicar` transaction: it checks what the PNCP
//   needs (credentials, CNPJ, every item complete), records the publication and enqueues the job there,
//   so a refused or rolled-back publication leaves no job;
// - the job (queue pncp.publicar) brings the PNCP to the plan with sincronizarPlano, each step its own
//   short transaction (no transaction is held while the PNCP answers), progress kept on the publication;
// - 400/422 and refused credentials fail at once with the PNCP's messages; 429, 5xx, timeouts and lost
//   answers retry with back-off (the synchronisation looks at the PNCP's state before inserting again).
import { formatDate } from '@app/br';
import {
  type AcaoPublicacao,
  type ItemForaDoPlano,
  itensPublicaveis,
  type PlanoPublicado,
  planoPublicavel,
  type SituacaoItemPublicado,
  type SituacaoPublicacao,
} from '@app/pca/server';
import {
  AppError,
  type AuditFn,
  type DbOrTx,
  type JobContext,
  JobFailed,
  type PluginJobs,
  type PluginRouter,
  type Tx,
  defineJob,
  entidades,
} from '@app/server-core';
import { and, asc, desc, eq, inArray, isNull, sql } from '@app/server-core/orm';
import { z } from 'zod';
import { type EstadoPublicacao, PNCP_TAG, justificativaSchema, estadosDoFiltro, publicacaoSchema, publicacoesFiltroSchema } from '../shared/index.js';
import type { PncpConfig } from './config.js';
import { credenciaisDaEntidade } from './credenciais.js';
import {
  type ItemPca,
  type PncpSyncStore,
  PncpErroDados,
  PncpErroTemporario,
  createPncpClient,
  excluirPlanoPncp,
  fingerprint,
  mensagemPncp,
  pncpErroRetentavel,
  sincronizarPlano,
} from './pncp/index.js';
import { pncpPlanoItens, pncpPlanos, pncpPublicacoes } from './tables.js';

export const FILA_PUBLICAR = 'publicar';
/** Retries after the first attempt, with back-off 5 s · 2ⁿ up to 10 min (about 40 minutes in all). */
const RETRY_LIMIT = 8;

export const numeroControle = (cnpj: string, sequencial: number, ano: number) => `${cnpj}-0-${String(sequencial).padStart(6, '0')}/${ano}`;

const documentoDe = (p: PlanoPublicado) => `PCA ${p.numero}/${p.ano} — plano de ${p.anoPca}, unidade ${p.codigoUnidade}`;

/** The plan's items as the PNCP takes them; the ones the PNCP would refuse named in pt-BR. */
async function itensDoPlano(db: Parameters<typeof itensPublicaveis>[0], planoId: string): Promise<{ itens: ItemPca[]; faltas: string[] }> {
  const linhas = await itensPublicaveis(db, planoId);
  const faltas: string[] = [];
  const itens = linhas.map((l): ItemPca => {
    const falta = [
      ...(l.classificacaoSuperiorCodigo && l.classificacaoSuperiorNome ? [] : ['a Classe/Grupo do catálogo']),
      ...(l.unidadeFornecimento ? [] : ['a unidade de fornecimento']),
      ...(l.dataDesejada ? [] : ['a data desejada']),
    ];
    if (falta.length) faltas.push(`item ${l.numeroItem} (${l.descricao}): falta ${falta.join(', ')}`);
    return {
      numeroItem: l.numeroItem,
      categoriaItemPca: String(l.categoriaItemPca),
      catalogo: String(l.catalogo),
      classificacaoCatalogo: String(l.classificacaoCatalogo),
      classificacaoSuperiorCodigo: l.classificacaoSuperiorCodigo ?? '',
      classificacaoSuperiorNome: l.classificacaoSuperiorNome ?? '',
      pdmCodigo: l.pdmCodigo,
      pdmDescricao: l.pdmDescricao,
      codigoItem: l.codigoItem,
      descricao: l.descricao,
      unidadeFornecimento: l.unidadeFornecimento ?? '',
      quantidade: l.quantidade,
      valorUnitario: l.valorUnitario,
      valorTotal: l.valorTotal,
      // the whole value is budgeted in the plan's year (a PCA item is for that year)
      valorOrcamentoExercicio: l.valorTotal,
      dataDesejada: l.dataDesejada ?? '',
      unidadeRequisitante: l.unidadeRequisitante,
      // the contratação planejada of the PCA groups the items that become one process
      grupoContratacaoCodigo: l.grupoContratacaoCodigo,
      grupoContratacaoNome: l.grupoContratacaoNome,
    };
  });
  return { itens, faltas };
}

/** Records a publication and enqueues its job in `tx` (the caller's transaction). */
async function enfileirar(
  tx: Tx,
  jobs: PluginJobs,
  audit: AuditFn,
  pub: { entidadeId: string; planoId: string; documento: string; operacao: 'publicar' | 'excluir'; justificativa?: string; total: number },
  quem: { id: string; nome: string },
): Promise<string> {
  const [ativa] = await tx
    .select({ id: pncpPublicacoes.id })
    .from(pncpPublicacoes)
    .where(and(eq(pncpPublicacoes.planoId, pub.planoId), inArray(pncpPublicacoes.estado, ['aguardando', 'enviando'])))
    .limit(1);
  if (ativa) throw new AppError(409, 'pncp_em_andamento', 'Este plano já tem uma publicação no PNCP em andamento: acompanhe-a em Publicações no PNCP.');
  const [row] = await tx
    .insert(pncpPublicacoes)
    .values({ ...pub, justificativa: pub.justificativa ?? null, solicitadoPor: quem.id, solicitadoPorNome: quem.nome })
    .returning({ id: pncpPublicacoes.id });
  const id = row!.id;
  const jobId = await jobs.send(tx, FILA_PUBLICAR, { publicacaoId: id });
  await tx.update(pncpPublicacoes).set({ jobId }).where(eq(pncpPublicacoes.id, id));
  audit({
    plugin: 'pncp',
    registro: id,
    acao: 'criar',
    entidadeId: pub.entidadeId,
    depois: { documento: pub.documento, operacao: pub.operacao, justificativa: pub.justificativa },
  });
  return id;
}

/** The portal of the environment published to: 'https://treina.pncp.gov.br/app/pca/<CNPJ>-0-<SEQ>/<ANO>'. */
const linkDe = (config: PncpConfig, numero: string | null) => (numero ? `${new URL(config.apiUrl).origin}/app/pca/${numero}` : null);

/** 'Excluir do PNCP' on the plan: POST /api/pncp/planos/:id/excluir with the justification the PNCP requires. */
const exclusaoDoPlano = (planoId: string, numeroControle: string): AcaoPublicacao => ({
  rotulo: 'Excluir do PNCP',
  titulo: `Excluir do PNCP o plano ${numeroControle}?`,
  descricao:
    'O plano e todos os seus itens saem do PNCP, com a justificativa que o PNCP exige (até 255 caracteres); acompanhe a exclusão em Publicações no PNCP. Depois dela, um plano devolvido pode ser cancelado aqui.',
  campo: 'Motivo da exclusão',
  caminho: `pncp/planos/${planoId}/excluir`,
});

/** PCA_PUBLICACAO: the approved plan goes to the PNCP; the plan shows how it stands there. */
export function publicador(config: PncpConfig, jobs: () => PluginJobs) {
  return {
    async situacao(db: DbOrTx, planoId: string, entidadeId: string, ctx?: { hasTag(tag: number): boolean }): Promise<SituacaoPublicacao | null> {
      const [pub] = await db
        .select({
          estado: pncpPublicacoes.estado,
          operacao: pncpPublicacoes.operacao,
          feitos: pncpPublicacoes.feitos,
          total: pncpPublicacoes.total,
          ultimoErro: pncpPublicacoes.ultimoErro,
          numeroControle: pncpPlanos.numeroControle,
        })
        .from(pncpPublicacoes)
        .innerJoin(pncpPlanos, eq(pncpPlanos.planoId, pncpPublicacoes.planoId))
        .where(and(eq(pncpPublicacoes.planoId, planoId), eq(pncpPublicacoes.entidadeId, entidadeId)))
        .orderBy(desc(pncpPublicacoes.createdAt))
        .limit(1);
      if (!pub) return null;
      const acompanhar = { href: '/pncp', texto: 'Acompanhar em Publicações no PNCP' };
      if (pub.estado === 'concluido') {
        return pub.operacao === 'excluir'
          ? { texto: 'Plano excluído do PNCP.', tom: 'warning', link: acompanhar }
          : {
              texto: `Publicado no PNCP: ${pub.numeroControle ?? ''}`,
              tom: 'success',
              link: pub.numeroControle ? { href: linkDe(config, pub.numeroControle)!, texto: 'Ver no portal do PNCP' } : null,
              // deleting it there (with the PNCP's justification) is what a plan published by mistake, or to be cancelled, needs first
              ...(pub.numeroControle && ctx?.hasTag(PNCP_TAG) ? { acao: exclusaoDoPlano(planoId, pub.numeroControle) } : {}),
            };
      }
      if (pub.estado === 'erro') return { texto: `A publicação no PNCP deu erro: ${pub.ultimoErro ?? 'sem detalhe'}`, tom: 'danger', link: acompanhar };
      if (pub.estado === 'cancelado') return { texto: 'A publicação no PNCP foi cancelada.', tom: 'warning', link: acompanhar };
      const progresso = pub.total > 0 ? ` (${pub.feitos.toLocaleString('pt-BR')} de ${pub.total.toLocaleString('pt-BR')} itens)` : '';
      return { texto: `Publicação no PNCP em andamento${progresso}.`, tom: 'info', link: acompanhar };
    },
    async situacaoItens(db: DbOrTx, planoId: string, entidadeId: string): Promise<Record<number, SituacaoItemPublicado> | null> {
      const [pl] = await db
        .select({ sequencial: pncpPlanos.sequencial })
        .from(pncpPlanos)
        .where(and(eq(pncpPlanos.planoId, planoId), eq(pncpPlanos.entidadeId, entidadeId)));
      if (!pl) return null;
      const enviados = new Map(
        (
          await db
            .select({ numeroItem: pncpPlanoItens.numeroItem, fingerprint: pncpPlanoItens.fingerprint })
            .from(pncpPlanoItens)
            .where(and(eq(pncpPlanoItens.planoId, planoId), isNull(pncpPlanoItens.excluidoEm)))
        ).map((r) => [r.numeroItem, r.fingerprint]),
      );
      const out: Record<number, SituacaoItemPublicado> = {};
      for (const item of (await itensDoPlano(db, planoId)).itens) {
        const enviado = enviados.get(item.numeroItem);
        out[item.numeroItem] =
          enviado === undefined
            ? { texto: 'Ainda não enviado ao PNCP', tom: 'neutral' }
            : enviado === fingerprint(item)
              ? { texto: `Publicado no PNCP (item ${item.numeroItem})`, tom: 'success' }
              : { texto: `Alterado: a retificar no PNCP (item ${item.numeroItem})`, tom: 'warning' };
      }
      return out;
    },
    // the items the PNCP holds (to delete at the next publication) or held (deleted, with the day) that the plan no longer has
    async itensForaDoPlano(db: DbOrTx, planoId: string, entidadeId: string): Promise<ItemForaDoPlano[] | null> {
      const [pl] = await db
        .select({ planoId: pncpPlanos.planoId })
        .from(pncpPlanos)
        .where(and(eq(pncpPlanos.planoId, planoId), eq(pncpPlanos.entidadeId, entidadeId)));
      if (!pl) return null;
      const linhas = await db
        .select({
          numeroItem: pncpPlanoItens.numeroItem,
          descricao: pncpPlanoItens.descricao,
          quantidade: pncpPlanoItens.quantidade,
          valorTotal: pncpPlanoItens.valorTotal,
          excluidoEm: pncpPlanoItens.excluidoEm,
        })
        .from(pncpPlanoItens)
        .where(eq(pncpPlanoItens.planoId, planoId))
        .orderBy(asc(pncpPlanoItens.numeroItem));
      if (linhas.length === 0) return [];
      // what the publication sends: an item the autoridade refused leaves the PNCP too
      const noPlano = new Set((await itensDoPlano(db, planoId)).itens.map((i) => i.numeroItem));
      return linhas
        .filter((l) => !noPlano.has(l.numeroItem))
        .map((l) => ({
          numeroItem: l.numeroItem,
          descricao: l.descricao,
          quantidade: l.quantidade,
          valorTotal: l.valorTotal,
          ...(l.excluidoEm
            ? { texto: `Excluído do PNCP em ${formatDate(l.excluidoEm)} (item ${l.numeroItem})`, tom: 'neutral' as const }
            : { texto: `A excluir no PNCP (item ${l.numeroItem})`, tom: 'warning' as const }),
        }));
    },
    // a plan the PNCP holds (or is being sent to it) is not cancelled locally: it is deleted on the PNCP first
    async impedeCancelamento(tx: DbOrTx, planoId: string, entidadeId: string): Promise<string | null> {
      const [pl] = await tx
        .select({ sequencial: pncpPlanos.sequencial, numeroControle: pncpPlanos.numeroControle })
        .from(pncpPlanos)
        .where(and(eq(pncpPlanos.planoId, planoId), eq(pncpPlanos.entidadeId, entidadeId)));
      if (!pl) return null;
      const [ativa] = await tx
        .select({ operacao: pncpPublicacoes.operacao })
        .from(pncpPublicacoes)
        .where(and(eq(pncpPublicacoes.planoId, planoId), inArray(pncpPublicacoes.estado, ['aguardando', 'enviando'])))
        .limit(1);
      if (ativa?.operacao === 'excluir')
        return 'A exclusão deste plano do PNCP ainda está em andamento: acompanhe-a em Publicações no PNCP e cancele o plano quando ela terminar.';
      if (ativa)
        return 'Este plano está sendo enviado ao PNCP: acompanhe a publicação em Publicações no PNCP; um plano publicado no PNCP só é cancelado depois de excluído de lá, com a justificativa que o PNCP exige.';
      if (pl.sequencial === null) return null;
      return `Este plano está publicado no PNCP (${pl.numeroControle ?? 'número de controle'}) e não pode ser cancelado aqui: primeiro exclua-o do PNCP informando a justificativa que o PNCP exige (Excluir do PNCP); quando a exclusão terminar, cancele o plano.`;
    },
    async publicar(tx: Tx, plano: PlanoPublicado, ctx: { user: { id: string; nome: string }; hasTag(tag: number): boolean }, audit: AuditFn) {
      if (!ctx.hasTag(PNCP_TAG)) throw new AppError(403, 'forbidden', "Publicar no PNCP exige a permissão 'Publicar no PNCP'.");
      await credenciaisDaEntidade(tx, plano.entidadeId, config);
      const [ent] = await tx.select({ cnpj: entidades.cnpj }).from(entidades).where(eq(entidades.id, plano.entidadeId));
      const cnpj = ent!.cnpj;
      const { itens, faltas } = await itensDoPlano(tx, plano.id);
      if (itens.length === 0) throw new AppError(409, 'pncp_sem_itens', 'O plano não tem itens para publicar no PNCP.');
      if (faltas.length) {
        throw new AppError(
          409,
          'pncp_itens_incompletos',
          `O PNCP recusaria ${faltas.length === 1 ? 'um item' : `${faltas.length} itens`}: ${faltas.slice(0, 5).join('; ')}${faltas.length > 5 ? '; …' : ''}. Complete o catálogo e refaça a consolidação.`,
        );
      }
      await tx
        .insert(pncpPlanos)
        .values({ planoId: plano.id, entidadeId: plano.entidadeId, cnpj, codigoUnidade: plano.codigoUnidade, anoPca: plano.anoPca })
        .onConflictDoNothing();
      await enfileirar(
        tx,
        jobs(),
        audit,
        {
          entidadeId: plano.entidadeId,
          planoId: plano.id,
          documento: documentoDe(plano),
          operacao: 'publicar',
          total: itens.length,
          // a revised plan: the reason the PNCP asks for to rectify or exclude published items
          ...(plano.justificativa ? { justificativa: plano.justificativa } : {}),
        },
        ctx.user,
      );
    },
  };
}

/**
 * The database half of the synchronisation: each call its own short transaction. `itens`: the plan being sent,
 * whose description, quantity and value are kept with each item sent (to name it once the plan no longer has it).
 * An item the PNCP deleted keeps its row with `excluidoEm` and counts as not on the PNCP.
 */
function storeDe(jctx: JobContext, planoId: string, publicacaoId: string, itens: readonly ItemPca[]): PncpSyncStore {
  const doPlano = new Map(itens.map((i) => [i.numeroItem, i]));
  return {
    async carregar() {
      const [p] = await jctx.db.select({ sequencial: pncpPlanos.sequencial }).from(pncpPlanos).where(eq(pncpPlanos.planoId, planoId));
      const itens = await jctx.db
        .select({ numeroItem: pncpPlanoItens.numeroItem, fingerprint: pncpPlanoItens.fingerprint })
        .from(pncpPlanoItens)
        .where(and(eq(pncpPlanoItens.planoId, planoId), isNull(pncpPlanoItens.excluidoEm)));
      return { sequencial: p?.sequencial ?? null, enviados: new Map(itens.map((i) => [i.numeroItem, i.fingerprint])) };
    },
    async registrarPlano(sequencial) {
      await jctx.mutate(async (tx) => {
        const [p] = await tx.select({ cnpj: pncpPlanos.cnpj, anoPca: pncpPlanos.anoPca }).from(pncpPlanos).where(eq(pncpPlanos.planoId, planoId));
        await tx
          .update(pncpPlanos)
          .set({ sequencial, numeroControle: numeroControle(p!.cnpj, sequencial, p!.anoPca), excluidoEm: null })
          .where(eq(pncpPlanos.planoId, planoId));
      });
    },
    async registrarEnviados(itens) {
      if (itens.length === 0) return;
      await jctx.mutate(async (tx) => {
        await tx
          .insert(pncpPlanoItens)
          .values(
            itens.map((i) => {
              const item = doPlano.get(i.numeroItem);
              return {
                planoId,
                numeroItem: i.numeroItem,
                fingerprint: i.fingerprint,
                descricao: item?.descricao ?? null,
                quantidade: item?.quantidade ?? null,
                valorTotal: item?.valorTotal ?? null,
              };
            }),
          )
          .onConflictDoUpdate({
            target: [pncpPlanoItens.planoId, pncpPlanoItens.numeroItem],
            set: {
              fingerprint: sql`excluded.fingerprint`,
              enviadoEm: sql`now()`,
              descricao: sql`excluded.descricao`,
              quantidade: sql`excluded.quantidade`,
              valorTotal: sql`excluded.valor_total`,
              // the number sent again (a new item): on the PNCP again
              excluidoEm: null,
            },
          });
      });
    },
    async registrarExcluidos(numeros) {
      if (numeros.length === 0) return;
      await jctx.mutate(async (tx) => {
        // kept, with the time of the exclusion: the plan shows 'Excluído do PNCP em …' for the items it no longer has
        await tx
          .update(pncpPlanoItens)
          .set({ excluidoEm: sql`now()` })
          .where(and(eq(pncpPlanoItens.planoId, planoId), inArray(pncpPlanoItens.numeroItem, numeros), isNull(pncpPlanoItens.excluidoEm)));
      });
    },
    async progresso({ etapa, feitos, total }) {
      await jctx.db.update(pncpPublicacoes).set({ etapa, feitos, total, updatedAt: sql`now()` }).where(eq(pncpPublicacoes.id, publicacaoId));
    },
  };
}

const payloadSchema = z.object({ publicacaoId: z.uuid() });

/** Why a publication of a plan that is no longer 'publicado' here (revised or cancelled since) is not sent. */
const PLANO_NAO_PUBLICAVEL =
  'Este plano não está mais publicado aqui (foi revisado ou cancelado depois deste pedido): nada foi enviado. Ele volta ao PNCP quando for aprovado e publicado de novo.';

/** Waits `ms`, or less when the server stops (the job is then retried anyway). */
const esperar = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

export function jobPublicar(config: PncpConfig) {
  return defineJob({
    schema: payloadSchema,
    options: {
      retryLimit: RETRY_LIMIT,
      retryDelay: config.retentativaSegundos ?? 5,
      retryBackoff: true,
      retryDelayMax: 600,
      expireInSeconds: 900,
      heartbeatSeconds: 30,
    },
    handler: async (job, jctx) => {
      const { publicacaoId } = job.data;
      const [pub] = await jctx.db.select().from(pncpPublicacoes).where(eq(pncpPublicacoes.id, publicacaoId));
      if (!pub || pub.estado === 'cancelado' || pub.estado === 'concluido') return { ignorado: pub?.estado ?? 'inexistente' };
      await jctx.db
        .update(pncpPublicacoes)
        .set({ estado: 'enviando', tentativas: job.attempt, proximaTentativa: null, updatedAt: sql`now()` })
        .where(eq(pncpPublicacoes.id, publicacaoId));
      const [plano] = await jctx.db.select().from(pncpPlanos).where(eq(pncpPlanos.planoId, pub.planoId));
      const client = createPncpClient({
        baseUrl: config.apiUrl,
        consultaUrl: config.consultaUrl,
        credenciais: () => credenciaisDaEntidade(jctx.db, pub.entidadeId, config),
        ...(config.timeoutMs ? { timeoutMs: config.timeoutMs } : {}),
        logger: { warn: (m) => jctx.logger.warn(m), info: (m) => jctx.logger.info(m) },
      });
      try {
        if (pub.operacao === 'publicar') {
          // not retried: the plan changed state since the request (a revision, a cancellation)
          if (!(await planoPublicavel(jctx.db, pub.planoId))) throw new AppError(409, 'plano_nao_publicavel', PLANO_NAO_PUBLICAVEL);
          const { itens } = await itensDoPlano(jctx.db, pub.planoId);
          const r = await sincronizarPlano(
            client,
            { cnpj: plano!.cnpj, codigoUnidade: plano!.codigoUnidade, anoPca: plano!.anoPca, itens },
            storeDe(jctx, pub.planoId, publicacaoId, itens),
            { ...(config.lote ? { lote: config.lote } : {}), ...(pub.justificativa ? { justificativa: pub.justificativa } : {}) },
          );
          await concluir(jctx, pub, { publicadoEm: true });
          return { sequencial: r.sequencial, inseridos: r.inseridos, adotados: r.adotados, retificados: r.retificados, excluidos: r.excluidos };
        }
        if (plano?.sequencial)
          await excluirPlanoPncp(client, { cnpj: plano.cnpj, anoPca: plano.anoPca, sequencial: plano.sequencial }, pub.justificativa ?? '');
        await concluir(jctx, pub, { publicadoEm: false });
        return { excluido: true };
      } catch (erro) {
        const mensagem = erro instanceof AppError ? erro.message : mensagemPncp(erro);
        const ultima = job.attempt > jctx.retryLimit;
        const retentavel = !(erro instanceof AppError) && pncpErroRetentavel(erro);
        const erros = erro instanceof PncpErroDados ? erro.erros.slice(0, 200) : [];
        // the queue's back-off, or the PNCP's Retry-After when longer (waited here before the retry is scheduled)
        const backoffMs = Math.min(600, (config.retentativaSegundos ?? 5) * 2 ** (job.attempt - 1)) * 1000;
        const pedidoMs = erro instanceof PncpErroTemporario && erro.retryAfterMs ? Math.min(erro.retryAfterMs, 600_000) : 0;
        const proxima = retentavel && !ultima ? new Date(jctx.clock.now() + Math.max(backoffMs, pedidoMs)) : null;
        await jctx.mutate(async (tx, audit) => {
          await tx
            .update(pncpPublicacoes)
            .set({ estado: proxima ? 'aguardando' : 'erro', ultimoErro: mensagem, erros, proximaTentativa: proxima, updatedAt: sql`now()` })
            .where(eq(pncpPublicacoes.id, publicacaoId));
          if (!proxima) audit({ registro: publicacaoId, acao: 'pncp_erro', entidadeId: pub.entidadeId, depois: { documento: pub.documento, erro: mensagem } });
        });
        if (retentavel && !ultima) {
          if (pedidoMs > backoffMs) await esperar(pedidoMs - backoffMs, job.signal);
          throw new Error(mensagem);
        }
        throw new JobFailed(mensagem, { erros });
      }
    },
  });
}

async function concluir(jctx: JobContext, pub: typeof pncpPublicacoes.$inferSelect, o: { publicadoEm: boolean }) {
  await jctx.mutate(async (tx, audit) => {
    await tx
      .update(pncpPublicacoes)
      .set({ estado: 'concluido', ultimoErro: null, erros: [], proximaTentativa: null, concluidoEm: sql`now()`, updatedAt: sql`now()` })
      .where(eq(pncpPublicacoes.id, pub.id));
    await tx
      .update(pncpPlanos)
      .set(o.publicadoEm ? { publicadoEm: sql`now()` } : { excluidoEm: sql`now()`, sequencial: null, numeroControle: null })
      .where(eq(pncpPlanos.planoId, pub.planoId));
    if (!o.publicadoEm) await tx.delete(pncpPlanoItens).where(eq(pncpPlanoItens.planoId, pub.planoId));
    const [p] = await tx.select({ numeroControle: pncpPlanos.numeroControle }).from(pncpPlanos).where(eq(pncpPlanos.planoId, pub.planoId));
    audit({
      registro: pub.id,
      acao: 'pncp_concluido',
      entidadeId: pub.entidadeId,
      depois: { documento: pub.documento, operacao: pub.operacao, numeroControle: p?.numeroControle ?? null },
    });
  });
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

async function lerPublicacoes(db: JobContext['db'], entidadeId: string, id?: string, estados: readonly EstadoPublicacao[] = []) {
  const rows = await db
    .select({
      id: pncpPublicacoes.id,
      planoId: pncpPublicacoes.planoId,
      documento: pncpPublicacoes.documento,
      operacao: pncpPublicacoes.operacao,
      estado: pncpPublicacoes.estado,
      etapa: pncpPublicacoes.etapa,
      feitos: pncpPublicacoes.feitos,
      total: pncpPublicacoes.total,
      tentativas: pncpPublicacoes.tentativas,
      proximaTentativa: pncpPublicacoes.proximaTentativa,
      ultimoErro: pncpPublicacoes.ultimoErro,
      erros: pncpPublicacoes.erros,
      solicitadoPorNome: pncpPublicacoes.solicitadoPorNome,
      createdAt: pncpPublicacoes.createdAt,
      concluidoEm: pncpPublicacoes.concluidoEm,
      numeroControle: pncpPlanos.numeroControle,
      jobId: pncpPublicacoes.jobId,
    })
    .from(pncpPublicacoes)
    .innerJoin(pncpPlanos, eq(pncpPlanos.planoId, pncpPublicacoes.planoId))
    .where(
      and(
        eq(pncpPublicacoes.entidadeId, entidadeId),
        id ? eq(pncpPublicacoes.id, id) : undefined,
        estados.length ? inArray(pncpPublicacoes.estado, [...estados]) : undefined,
      ),
    )
    .orderBy(desc(pncpPublicacoes.createdAt))
    .limit(200);
  return rows.map((r) => ({ ...r, proximaTentativa: iso(r.proximaTentativa), createdAt: iso(r.createdAt)!, concluidoEm: iso(r.concluidoEm) }));
}

export function registrarPublicacoes(router: PluginRouter, config: PncpConfig, jobs: () => PluginJobs): void {
  const semJob = ({ jobId: _j, ...r }: Awaited<ReturnType<typeof lerPublicacoes>>[number]) => ({ ...r, link: linkDe(config, r.numeroControle) });
  const params = z.object({ id: z.uuid() });
  const umaDaEntidade = async (db: JobContext['db'], entidadeId: string, id: string) => {
    const [pub] = await lerPublicacoes(db, entidadeId, id);
    if (!pub) throw new AppError(404, 'not_found', 'Publicação não encontrada.');
    return pub;
  };

  router.route({
    method: 'get',
    path: '/publicacoes',
    tag: PNCP_TAG,
    summary: 'Publicações no PNCP da entidade',
    description:
      'As 200 mais recentes (da situação pedida em `estado`, uma ou mais separadas por vírgula: `?estado=erro` são as que deram erro e esperam quem as tente de novo ou cancele): documento, operação, estado (aguardando, enviando n de m, concluído, erro, cancelado), tentativas, próxima tentativa, último erro e quem pediu.',
    request: { query: publicacoesFiltroSchema },
    responses: { 200: z.object({ items: z.array(publicacaoSchema) }), 400: { description: 'Situação desconhecida' } },
    handler: async (c, ctx) => {
      const { estado } = c.req.valid('query');
      return c.json({ items: (await lerPublicacoes(ctx.db, ctx.entidadeId, undefined, estadosDoFiltro(estado))).map(semJob) }, 200);
    },
  });

  router.route({
    method: 'post',
    path: '/publicacoes/:id/tentar-novamente',
    tag: PNCP_TAG,
    summary: 'Tentar de novo uma publicação com erro ou cancelada',
    description: 'A publicação volta à fila (a mesma tarefa); a sincronização confere o que o PNCP já tem antes de enviar. Auditado.',
    request: { params },
    responses: { 200: publicacaoSchema, 404: { description: 'Não encontrada' }, 409: { description: 'Não está com erro nem cancelada' } },
    handler: async (c, ctx) => {
      const { id } = c.req.valid('param');
      await ctx.mutate(async (tx, audit) => {
        const [pub] = await tx
          .select()
          .from(pncpPublicacoes)
          .where(and(eq(pncpPublicacoes.id, id), eq(pncpPublicacoes.entidadeId, ctx.entidadeId)))
          .for('update');
        if (!pub) throw new AppError(404, 'not_found', 'Publicação não encontrada.');
        if (pub.estado !== 'erro' && pub.estado !== 'cancelado')
          throw new AppError(409, 'invalid_transition', 'Só uma publicação com erro ou cancelada pode ser tentada de novo.');
        if (pub.operacao === 'publicar' && !(await planoPublicavel(tx, pub.planoId))) throw new AppError(409, 'plano_nao_publicavel', PLANO_NAO_PUBLICAVEL);
        const [outra] = await tx
          .select({ id: pncpPublicacoes.id })
          .from(pncpPublicacoes)
          .where(and(eq(pncpPublicacoes.planoId, pub.planoId), inArray(pncpPublicacoes.estado, ['aguardando', 'enviando'])))
          .limit(1);
        if (outra) throw new AppError(409, 'pncp_em_andamento', 'Este plano já tem uma publicação no PNCP em andamento.');
        // a new job (in this transaction) rather than pg-boss's retry: the old one may be past its retries
        const jobId = await jobs().send(tx, FILA_PUBLICAR, { publicacaoId: id });
        await tx
          .update(pncpPublicacoes)
          .set({ estado: 'aguardando', jobId, tentativas: 0, ultimoErro: null, erros: [], proximaTentativa: null, updatedAt: sql`now()` })
          .where(eq(pncpPublicacoes.id, id));
        audit({ registro: id, acao: 'pncp_tentar_novamente', antes: { estado: pub.estado }, depois: { estado: 'aguardando', documento: pub.documento } });
      });
      return c.json(semJob(await umaDaEntidade(ctx.db, ctx.entidadeId, id)), 200);
    },
  });

  router.route({
    method: 'post',
    path: '/publicacoes/:id/cancelar',
    tag: PNCP_TAG,
    summary: 'Cancelar uma publicação que aguarda ou deu erro',
    description: 'A tarefa é cancelada; o que o PNCP já recebeu fica lá (uma nova tentativa continua de onde parou). Auditado.',
    request: { params },
    responses: { 200: publicacaoSchema, 404: { description: 'Não encontrada' }, 409: { description: 'Já concluída, cancelada ou enviando agora' } },
    handler: async (c, ctx) => {
      const { id } = c.req.valid('param');
      const jobId = await ctx.mutate(async (tx, audit) => {
        const [pub] = await tx
          .select()
          .from(pncpPublicacoes)
          .where(and(eq(pncpPublicacoes.id, id), eq(pncpPublicacoes.entidadeId, ctx.entidadeId)))
          .for('update');
        if (!pub) throw new AppError(404, 'not_found', 'Publicação não encontrada.');
        if (pub.estado !== 'aguardando' && pub.estado !== 'erro')
          throw new AppError(409, 'invalid_transition', 'Só uma publicação que aguarda ou deu erro pode ser cancelada.');
        await tx.update(pncpPublicacoes).set({ estado: 'cancelado', proximaTentativa: null, updatedAt: sql`now()` }).where(eq(pncpPublicacoes.id, id));
        audit({ registro: id, acao: 'pncp_cancelar', antes: { estado: pub.estado }, depois: { estado: 'cancelado', documento: pub.documento } });
        return pub.jobId;
      });
      if (jobId)
        await jobs()
          .cancel(FILA_PUBLICAR, jobId)
          .catch(() => undefined);
      return c.json(semJob(await umaDaEntidade(ctx.db, ctx.entidadeId, id)), 200);
    },
  });

  router.route({
    method: 'post',
    path: '/planos/:id/excluir',
    tag: PNCP_TAG,
    summary: 'Excluir do PNCP um plano publicado',
    description: 'Com a justificativa (até 255 caracteres) que o PNCP exige; vira uma publicação (operação excluir) acompanhada como as outras. Auditado.',
    request: { params, body: z.object({ justificativa: justificativaSchema }) },
    responses: { 200: publicacaoSchema, 404: { description: 'Plano não publicado no PNCP' }, 409: { description: 'Outra publicação em andamento' } },
    handler: async (c, ctx) => {
      const { id } = c.req.valid('param');
      const { justificativa } = c.req.valid('json');
      const pubId = await ctx.mutate(async (tx, audit) => {
        const [plano] = await tx
          .select()
          .from(pncpPlanos)
          .where(and(eq(pncpPlanos.planoId, id), eq(pncpPlanos.entidadeId, ctx.entidadeId)))
          .for('update');
        if (!plano?.sequencial) throw new AppError(404, 'not_found', 'Este plano não está publicado no PNCP.');
        const [ultima] = await tx
          .select({ documento: pncpPublicacoes.documento })
          .from(pncpPublicacoes)
          .where(eq(pncpPublicacoes.planoId, id))
          .orderBy(desc(pncpPublicacoes.createdAt))
          .limit(1);
        return enfileirar(
          tx,
          jobs(),
          audit,
          { entidadeId: ctx.entidadeId, planoId: id, documento: ultima?.documento ?? 'PCA', operacao: 'excluir', justificativa, total: 1 },
          ctx.user,
        );
      });
      return c.json(semJob(await umaDaEntidade(ctx.db, ctx.entidadeId, pubId)), 200);
    },
  });
}
