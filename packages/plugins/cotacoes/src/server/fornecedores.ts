// The suppliers invited to quote (IN 65, art. 5 IV): invite (never an impedido), withdraw an
// invitation nobody answered yet, record the answer by hand, mark 'não respondeu' (kept on record).
import { formatDate } from '@app/br';
import { fornecedores } from '@app/fornecedores/server';
import { AppError, type PluginRouter, badRequest, notFound } from '@app/server-core';
import { and, eq, sql } from '@app/server-core/orm';
import { z } from 'zod';
import { COTACOES_TAG, conviteInputSchema, conviteSchema, naoRespondeuInputSchema, respostaInputSchema } from '../shared/index.js';
import { UUID, lerConvite, travarCotacao } from './comum.js';
import { notificarConvidados } from './conclusao.js';
import { salvarResposta } from './respostas.js';
import { cotacaoFornecedores } from './tables.js';

const params = z.object({ id: z.string() });
const conviteParams = z.object({ id: z.string(), conviteId: z.string() });

/** The invitation row (locked) of the cotação, or 404. */
async function travarConvite(tx: Parameters<typeof lerConvite>[0], cotacaoId: string, conviteId: string) {
  if (!UUID.test(conviteId)) throw notFound();
  const [row] = await tx
    .select()
    .from(cotacaoFornecedores)
    .where(and(eq(cotacaoFornecedores.id, conviteId), eq(cotacaoFornecedores.cotacaoId, cotacaoId)))
    .for('update');
  if (!row) throw notFound();
  return row;
}

export function registrarConvites(router: PluginRouter): void {
  const tag = COTACOES_TAG;

  router.route({
    method: 'post',
    path: '/cotacoes/:id/fornecedores',
    tag,
    summary: 'Convidar um fornecedor para cotar',
    description:
      'Só com a cotação aberta. Um fornecedor impedido, inativo ou de outra entidade é recusado (400); convidá-lo de novo é 409 `duplicate`. Com a cotação em coleta, o fornecedor com e-mail recebe o pedido.',
    request: { params, body: conviteInputSchema },
    responses: { 201: conviteSchema, 404: { description: 'Cotação não encontrada' }, 409: { description: 'Já convidado, ou cotação fechada (locked)' } },
    handler: async (c, ctx) => {
      const { id } = c.req.valid('param');
      const input = c.req.valid('json');
      const convite = await ctx.mutate(async (tx, audit) => {
        const cotacao = await travarCotacao(tx, ctx, id, 'aberta');
        const [f] = await tx
          .select({
            id: fornecedores.id,
            nome: fornecedores.razaoSocial,
            ativo: fornecedores.ativo,
            situacao: fornecedores.situacao,
            motivo: fornecedores.impedimentoMotivo,
            ate: fornecedores.impedimentoAte,
          })
          .from(fornecedores)
          .where(and(eq(fornecedores.id, input.fornecedorId), eq(fornecedores.entidadeId, ctx.entidadeId)));
        if (!f) throw badRequest('Verifique os campos destacados.', { fornecedorId: 'Escolha um fornecedor cadastrado.' });
        if (f.situacao === 'impedido') {
          const ate = f.ate ? ` até ${formatDate(f.ate)}` : '';
          const motivo = f.motivo ? ` (${f.motivo})` : '';
          const message = `${f.nome} está impedido de contratar com a administração${ate}${motivo}: não pode ser convidado.`;
          throw new AppError(400, 'impedido', message, { fornecedorId: message });
        }
        if (!f.ativo || f.situacao === 'inativo') {
          throw badRequest('Verifique os campos destacados.', { fornecedorId: 'Este fornecedor está inativo: reative-o em Fornecedores para convidá-lo.' });
        }
        const [novo] = await tx
          .insert(cotacaoFornecedores)
          .values({ entidadeId: ctx.entidadeId, cotacaoId: id, fornecedorId: f.id, motivoEscolha: input.motivoEscolha })
          .onConflictDoNothing()
          .returning({ id: cotacaoFornecedores.id });
        if (!novo) {
          const message = 'Este fornecedor já foi convidado para esta cotação.';
          throw new AppError(409, 'duplicate', message, { fornecedorId: message });
        }
        audit({ registro: id, acao: 'convidar_fornecedor', depois: { fornecedor: f.nome, fornecedorId: f.id, motivoEscolha: input.motivoEscolha } });
        if (cotacao.status === 'em_coleta') await notificarConvidados(tx, ctx, cotacao, novo.id);
        return lerConvite(tx, id, novo.id);
      });
      return c.json(convite, 201);
    },
  });

  router.route({
    method: 'delete',
    path: '/cotacoes/:id/fornecedores/:conviteId',
    tag,
    summary: 'Retirar um convite',
    description: 'Só com a cotação aberta e enquanto o fornecedor não tem resposta registrada (preços ou "não respondeu": 409, ficam no registro).',
    request: { params: conviteParams },
    responses: {
      204: { description: 'Retirado' },
      404: { description: 'Não encontrado' },
      409: { description: 'Com resposta registrada, ou cotação fechada' },
    },
    handler: async (c, ctx) => {
      const { id, conviteId } = c.req.valid('param');
      await ctx.mutate(async (tx, audit) => {
        await travarCotacao(tx, ctx, id, 'aberta');
        await travarConvite(tx, id, conviteId);
        const convite = await lerConvite(tx, id, conviteId);
        if (convite.precos > 0) {
          throw new AppError(409, 'in_use', `${convite.fornecedorNome} já tem preços nesta cotação: o convite fica no registro.`);
        }
        if (convite.situacao === 'nao_respondeu') {
          throw new AppError(409, 'in_use', `${convite.fornecedorNome} foi registrado como "não respondeu": o convite fica no registro da pesquisa.`);
        }
        await tx.delete(cotacaoFornecedores).where(eq(cotacaoFornecedores.id, conviteId));
        audit({ registro: id, acao: 'retirar_convite', antes: { fornecedor: convite.fornecedorNome, fornecedorId: convite.fornecedorId } });
      });
      return c.body(null, 204);
    },
  });

  router.route({
    method: 'post',
    path: '/cotacoes/:id/fornecedores/:conviteId/nao-respondeu',
    tag,
    summary: 'Registrar que o fornecedor não respondeu',
    description: 'Só em coleta; fica no registro e na memória de cálculo (IN 65, art. 5º, IV). 409 quando o fornecedor já tem preços.',
    request: { params: conviteParams, body: naoRespondeuInputSchema },
    responses: { 200: conviteSchema, 404: { description: 'Não encontrado' }, 409: { description: 'Com preços, ou cotação fora da coleta' } },
    handler: async (c, ctx) => {
      const { id, conviteId } = c.req.valid('param');
      const input = c.req.valid('json');
      const convite = await ctx.mutate(async (tx, audit) => {
        await travarCotacao(tx, ctx, id, 'coleta');
        const row = await travarConvite(tx, id, conviteId);
        const antes = await lerConvite(tx, id, conviteId);
        if (antes.precos > 0) {
          throw new AppError(409, 'locked', `${antes.fornecedorNome} já tem preços nesta cotação: exclua a resposta antes de registrar que não respondeu.`);
        }
        await tx
          .update(cotacaoFornecedores)
          .set({
            situacao: 'nao_respondeu',
            motivoNaoResposta: input.motivo,
            dataProposta: null,
            validade: null,
            version: sql`${cotacaoFornecedores.version} + 1`,
          })
          .where(eq(cotacaoFornecedores.id, conviteId));
        audit({
          registro: id,
          acao: 'fornecedor_nao_respondeu',
          antes: { situacao: row.situacao },
          depois: { fornecedor: antes.fornecedorNome, situacao: 'nao_respondeu', ...(input.motivo ? { motivo: input.motivo } : {}) },
        });
        return lerConvite(tx, id, conviteId);
      });
      return c.json(convite, 200);
    },
  });

  router.route({
    method: 'put',
    path: '/cotacoes/:id/fornecedores/:conviteId/resposta',
    tag,
    summary: 'Registrar a resposta do fornecedor',
    description:
      'A proposta inteira (substitui a anterior): data da proposta, validade e, por item, o preço unitário (vazio: não cotou) e a marca. Só em coleta. O fornecedor passa a "respondeu"; os preços entram com a fonte "fornecedor".',
    request: { params: conviteParams, body: respostaInputSchema },
    responses: { 200: conviteSchema, 404: { description: 'Não encontrado' }, 409: { description: 'Cotação fora da coleta' } },
    handler: async (c, ctx) => {
      const { id, conviteId } = c.req.valid('param');
      const input = c.req.valid('json');
      const convite = await ctx.mutate((tx, audit) => salvarResposta(tx, ctx, audit, id, conviteId, input));
      return c.json(convite, 200);
    },
  });
}
