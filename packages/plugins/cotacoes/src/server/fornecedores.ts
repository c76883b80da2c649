// The suppliers invited to quote (IN 65, art. 5 IV), children of the cotação (document kit): invite
// (never an impedido), withdraw an invitation nobody answered yet, record the answer by hand, mark
// 'não respondeu' (kept on record). The kit locks the cotação in the person's scope, checks its state,
// locks the invitation and audits under the cotação.
import { formatDate } from '@app/br';
import { fornecedores } from '@app/fornecedores/server';
import { AppError, type DocumentChildren, type DocumentResource, type PluginRouter, defineDocumentChildren } from '@app/server-core';
import { eq } from '@app/server-core/orm';
import { COTACAO_ABERTA, conviteInputSchema, conviteSchema, naoRespondeuInputSchema, respostaInputSchema } from '../shared/index.js';
import { conviteFilho, foraDaColeta, lerConvites } from './comum.js';
import { notificarConvidados } from './conclusao.js';
import { responder } from './respostas.js';
import { cotacaoFornecedores } from './tables.js';

export function registrarConvites(router: PluginRouter, cotacao: DocumentResource): DocumentChildren {
  return defineDocumentChildren(router, cotacao, {
    ...conviteFilho,
    version: cotacaoFornecedores.version,
    label: { singular: 'convite', plural: 'convites' },
    states: COTACAO_ABERTA,
    response: conviteSchema,
    read: (db, cotacaoId, conviteId) => lerConvites(db, cotacaoId, conviteId),
    references: { fornecedorId: { table: fornecedores, message: 'Escolha um fornecedor cadastrado.' } },
    schema: conviteInputSchema,
    list: { summary: 'Fornecedores convidados da cotação', description: 'Na ordem em que foram convidados, com a situação e o número de preços de cada um.' },
    create: {
      summary: 'Convidar um fornecedor para cotar',
      description:
        'Um fornecedor impedido, inativo ou de outra entidade é recusado (400); convidá-lo de novo é 409 `duplicate`. Com a cotação em coleta, o fornecedor com e-mail recebe o pedido.',
      responses: { 409: 'Já convidado, ou cotação fechada (locked)' },
      duplicate: { message: 'Este fornecedor já foi convidado para esta cotação.', field: 'fornecedorId' },
      validate: async (tx, c) => {
        const [f] = await tx
          .select({
            nome: fornecedores.razaoSocial,
            ativo: fornecedores.ativo,
            situacao: fornecedores.situacao,
            motivo: fornecedores.impedimentoMotivo,
            ate: fornecedores.impedimentoAte,
          })
          .from(fornecedores)
          .where(eq(fornecedores.id, c.body.fornecedorId));
        if (f?.situacao === 'impedido') {
          const ate = f.ate ? ` até ${formatDate(f.ate)}` : '';
          const motivo = f.motivo ? ` (${f.motivo})` : '';
          const message = `${f.nome} está impedido de contratar com a administração${ate}${motivo}: não pode ser convidado.`;
          throw new AppError(400, 'impedido', message, { fornecedorId: message });
        }
        if (!f?.ativo || f.situacao === 'inativo') return { fornecedorId: 'Este fornecedor está inativo: reative-o em Fornecedores para convidá-lo.' };
        return undefined;
      },
      audit: {
        acao: 'convidar_fornecedor',
        depois: (c) => ({ fornecedor: c.after?.fornecedorNome, fornecedorId: c.body.fornecedorId, motivoEscolha: c.body.motivoEscolha }),
      },
      afterWrite: async (tx, c) => {
        if (c.parent.status === 'em_coleta') await notificarConvidados(tx, c.ctx, c.parent, c.key);
      },
    },
    delete: {
      summary: 'Retirar um convite',
      description: 'Só enquanto o fornecedor não tem resposta registrada (preços ou "não respondeu": 409, ficam no registro).',
      responses: { 409: 'Com resposta registrada, ou cotação fechada' },
      check: async (_tx, c) => {
        const convite = c.child!;
        if (Number(convite.precos) > 0) throw new AppError(409, 'in_use', `${convite.fornecedorNome} já tem preços nesta cotação: o convite fica no registro.`);
        if (convite.situacao === 'nao_respondeu') {
          throw new AppError(409, 'in_use', `${convite.fornecedorNome} foi registrado como "não respondeu": o convite fica no registro da pesquisa.`);
        }
      },
      audit: { acao: 'retirar_convite', antes: (c) => ({ fornecedor: c.child?.fornecedorNome, fornecedorId: c.child?.fornecedorId }) },
    },
    actions: {
      'nao-respondeu': {
        summary: 'Registrar que o fornecedor não respondeu',
        description: 'Fica no registro e na memória de cálculo (IN 65, art. 5º, IV). 409 quando o fornecedor já tem preços.',
        responses: { 409: 'Com preços, ou cotação fora da coleta' },
        schema: naoRespondeuInputSchema,
        states: ['em_coleta'],
        stateMessage: foraDaColeta,
        check: async (_tx, c) => {
          if (Number(c.child!.precos) > 0) {
            throw new AppError(
              409,
              'locked',
              `${c.child!.fornecedorNome} já tem preços nesta cotação: exclua a resposta antes de registrar que não respondeu.`,
            );
          }
        },
        run: async (tx, c) => {
          await tx
            .update(cotacaoFornecedores)
            .set({ situacao: 'nao_respondeu', motivoNaoResposta: c.body.motivo, dataProposta: null, validade: null })
            .where(eq(cotacaoFornecedores.id, c.key!));
        },
        audit: {
          acao: 'fornecedor_nao_respondeu',
          antes: (c) => ({ situacao: c.locked?.situacao }),
          depois: (c) => ({ fornecedor: c.child?.fornecedorNome, situacao: 'nao_respondeu', ...(c.body.motivo ? { motivo: c.body.motivo } : {}) }),
        },
      },
      resposta: {
        method: 'put',
        summary: 'Registrar a resposta do fornecedor',
        description:
          'A proposta inteira (substitui a anterior): data da proposta, validade e, por item, o preço unitário (vazio: não cotou) e a marca. O fornecedor passa a "respondeu"; os preços entram com a fonte "fornecedor".',
        responses: { 409: 'Cotação fora da coleta' },
        schema: respostaInputSchema,
        states: ['em_coleta'],
        stateMessage: foraDaColeta,
        run: responder,
      },
    },
  });
}
