// The mapa's decisions: another winner than the lowest valid supplier price (reason ≥ 20 characters),
// and the justification of items with fewer than three valid prices with its approval by the
// autoridade competente (IN 65, art. 6 §5: 'justificada pelo gestor responsável e aprovada pela
// autoridade competente'). Segregation of duties: whoever runs the cotação (typed the justification,
// collected prices, moved it…) cannot approve it; an approval covers exactly what it saw (justificativa.ts).
import {
  AppError,
  type DbOrTx,
  type DocumentResource,
  type PluginRouter,
  badRequest,
  defineDocumentAction,
  defineDocumentChildren,
  notFound,
} from '@app/server-core';
import { and, eq, sql } from '@app/server-core/orm';
import { z } from 'zod';
import { AUTORIDADE_TAG, COTACAO_ABERTA, justificativaInputSchema, vencedorInputSchema } from '../shared/index.js';
import { carregarCotacao } from './carregar.js';
import { justificativaColunas, vencedorColunas } from './comum.js';
import { SEM_APROVACAO, anulacao, conducaoDaCotacao, impressaoAtual } from './justificativa.js';
import { cotacaoItens, cotacaoVencedores, cotacoes } from './tables.js';

/** The answer of a route that reads `colunas`: each of them of the type `tipo()`. */
const respostaDe = <C extends Record<string, unknown>, T extends z.ZodType>(colunas: C, tipo: () => T) =>
  z.object(Object.fromEntries(Object.keys(colunas).map((k) => [k, tipo()])) as Record<Extract<keyof C, string>, T>);
const vencedorSchema = respostaDe(vencedorColunas, () => z.string());
const justificativaSchema = respostaDe(justificativaColunas, () => z.string().nullable());
const lerJustificativa = async (db: DbOrTx, id: string) => (await db.select(justificativaColunas).from(cotacoes).where(eq(cotacoes.id, id)))[0]!;

export function registrarDecisoes(router: PluginRouter, cotacao: DocumentResource): void {
  // the winner of an item other than the lowest valid price: one per item, its key the product
  defineDocumentChildren(router, cotacao, {
    path: 'vencedores',
    param: 'produtoId',
    table: cotacaoVencedores,
    parentColumn: cotacaoVencedores.cotacaoId,
    key: cotacaoVencedores.produtoId,
    label: { singular: 'vencedor', plural: 'vencedores' },
    states: COTACAO_ABERTA,
    response: vencedorSchema,
    select: vencedorColunas,
    schema: vencedorInputSchema,
    update: {
      upsert: true,
      summary: 'Escolher outro vencedor para um item',
      description:
        'Um preço válido de fornecedor deste item no lugar do menor (400 para outro preço), com o motivo (ao menos 20 caracteres). Muda os totais do mapa e fica na auditoria.',
      responses: { 404: 'Cotação ou item não encontrado', 409: 'Cotação fechada' },
      run: async (tx, c) => {
        const { ctx, parentId: id, key: produtoId, body: input } = c;
        const mapa = await carregarCotacao(tx, ctx, id);
        const item = mapa.itens.find((i) => i.produtoId === produtoId);
        if (!item) throw notFound();
        const preco = mapa.precos.find((p) => p.id === input.precoId);
        const situacao = mapa.avaliacao.precos.find((p) => p.precoId === input.precoId);
        if (!preco || preco.produtoId !== produtoId || preco.fonte !== 'fornecedor') {
          throw badRequest('Verifique os campos destacados.', { precoId: 'Escolha o preço de um fornecedor para este item.' });
        }
        if (!situacao?.valido) {
          const porque = situacao?.motivo ? ` (${situacao.motivo.replace(/\.$/, '')})` : '';
          throw badRequest('Verifique os campos destacados.', { precoId: `Este preço está fora do cálculo${porque}: escolha um preço válido.` });
        }
        const anterior = mapa.avaliacao.itens.find((r) => r.produtoId === produtoId)?.vencedor ?? null;
        const valores = { precoId: input.precoId, motivo: input.motivo, escolhidoPor: ctx.user.id, escolhidoPorNome: ctx.user.nome };
        await tx
          .insert(cotacaoVencedores)
          .values({ cotacaoId: id, produtoId: item.produtoId, entidadeId: ctx.entidadeId, ...valores })
          .onConflictDoUpdate({ target: [cotacaoVencedores.cotacaoId, cotacaoVencedores.produtoId], set: { ...valores, escolhidoEm: sql`now()` } });
        c.audit({
          acao: 'escolher_vencedor',
          antes: { precoId: anterior?.precoId ?? null, valorUnitario: anterior?.valorUnitario ?? null },
          depois: {
            item: `${item.ordem}. ${item.descricao}`,
            precoId: preco.id,
            fornecedor: preco.fornecedorNome,
            valorUnitario: preco.valorUnitario,
            motivo: input.motivo,
          },
        });
      },
    },
    delete: {
      missingOk: true,
      summary: 'Voltar ao menor preço válido como vencedor do item',
      responses: { 404: 'Cotação ou item não encontrado', 409: 'Cotação fechada' },
      check: async (tx, c) => {
        const [item] = await tx
          .select({ ordem: cotacaoItens.ordem })
          .from(cotacaoItens)
          .where(and(eq(cotacaoItens.cotacaoId, c.parentId), eq(cotacaoItens.produtoId, c.key!)));
        if (!item) throw notFound();
      },
      audit: { acao: 'desfazer_vencedor', antes: (c) => ({ produtoId: c.key, precoId: c.child?.precoId, motivoEscolha: c.child?.motivo }) },
    },
  });

  defineDocumentAction(router, cotacao, {
    path: 'justificativa',
    method: 'put',
    summary: 'Registrar a justificativa dos itens com menos de três preços',
    description: 'Ao menos 20 caracteres. Mudar o texto desfaz uma aprovação anterior. Só com a cotação aberta.',
    schema: justificativaInputSchema,
    states: COTACAO_ABERTA,
    response: justificativaSchema,
    responses: { 409: 'Cotação fechada' },
    run: async (tx, { ctx, parentId: id, parent: row, body: { texto }, audit }) => {
      if (row.justificativa !== texto) {
        await tx
          .update(cotacoes)
          .set({
            justificativa: texto,
            justificativaPor: ctx.user.id,
            justificativaPorNome: ctx.user.nome,
            justificativaEm: sql`now()`,
            // a standing approval of the former text is voided (and says so); an earlier voiding stays
            ...(row.justificativaAprovadaEm
              ? anulacao(row.justificativaAprovadaPorNome as string | null, 'Aprovação anulada por alteração: o texto da justificativa mudou depois dela.')
              : SEM_APROVACAO),
          })
          .where(eq(cotacoes.id, id));
        audit({
          acao: 'justificar_menos_de_tres',
          antes: { justificativa: row.justificativa, aprovadaPor: row.justificativaAprovadaPorNome },
          depois: { justificativa: texto, aprovadaPor: null },
        });
      }
      return lerJustificativa(tx, id);
    },
  });

  defineDocumentAction(router, cotacao, {
    path: 'justificativa/aprovar',
    tag: AUTORIDADE_TAG,
    summary: 'Aprovar a justificativa (autoridade competente)',
    description:
      'Só quem tem a permissão de autoridade competente, no escopo da cotação, e que não conduz a cotação (403: quem a criou, alterou ou movimentou, registrou preços, convites, respostas, decisões, vencedores ou a justificativa). A aprovação cobre exatamente os itens com menos de três preços válidos e os preços deles como estão agora (impressão SHA-256): qualquer alteração posterior a anula. 409 sem justificativa, já aprovada (e não anulada) ou com a cotação fechada.',
    states: COTACAO_ABERTA,
    response: justificativaSchema,
    responses: { 403: 'Sem a permissão, ou quem conduz a cotação', 409: 'Sem justificativa, já aprovada ou cotação fechada' },
    run: async (tx, { ctx, parentId: id, parent: row, audit }) => {
      if (!row.justificativa) throw new AppError(409, 'invalid_transition', 'Não há justificativa registrada para aprovar.');
      // a standing approval that still covers the cotação as it is: nothing to approve again
      const mapa = await carregarCotacao(tx, ctx, id);
      if (mapa.cotacao.justificativaAprovadaEm) {
        throw new AppError(409, 'invalid_transition', `A justificativa já foi aprovada por ${row.justificativaAprovadaPorNome ?? 'outra pessoa'}.`);
      }
      if (row.justificativaPor === ctx.user.id) {
        throw new AppError(403, 'forbidden', 'Quem registrou a justificativa não pode aprová-la: peça a outra autoridade competente.');
      }
      const conduz = await conducaoDaCotacao(tx, id, ctx.user.id);
      if (conduz) {
        throw new AppError(
          403,
          'forbidden',
          `Quem conduz a cotação não pode aprovar a justificativa dela (você ${conduz}): peça a outra autoridade competente.`,
        );
      }
      const visto = impressaoAtual(mapa);
      await tx
        .update(cotacoes)
        .set({
          justificativaAprovadaPor: ctx.user.id,
          justificativaAprovadaPorNome: ctx.user.nome,
          justificativaAprovadaEm: sql`now()`,
          justificativaAprovadaImpressao: visto.impressao,
          justificativaAprovadaItens: visto.itens,
          justificativaAnuladaEm: null,
          justificativaAnuladaAprovador: null,
          justificativaAnuladaMotivo: null,
        })
        .where(eq(cotacoes.id, id));
      audit({
        acao: 'aprovar_justificativa',
        antes: { aprovadaPor: null, ...(mapa.cotacao.justificativaAnuladaMotivo ? { anulada: mapa.cotacao.justificativaAnuladaMotivo } : {}) },
        depois: { aprovadaPor: ctx.user.nome, justificativa: row.justificativa, itens: visto.itens.map((i) => i.rotulo), impressao: visto.impressao },
      });
      return lerJustificativa(tx, id);
    },
  });
}
