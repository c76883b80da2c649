// The autoridade competente refuses single items of a plan under approval, with a reason, or takes a
// refusal back: actions on the plan's items as children of the plan on the document kit
// (POST /planos/:id/itens/:itemId/recusar | aceitar; tag 102; the plan locked in the person's scope and
// 'em aprovação'; audited under the plan). Never by an author of the plan or of its DFDs (segregação de
// funções, as the approval itself). A refused item leaves the plan's total and is not sent to the PNCP.
import { AppError, type DocumentResource, type PluginRouter, type Tx, defineDocumentChildren, isDocumentAuthor } from '@app/server-core';
import { eq, sql } from '@app/server-core/orm';
import { z } from 'zod';
import { PCA_APROVAR_TAG } from '../shared/index.js';
import { totalizar } from './consolidar.js';
import { pcaItens } from './tables.js';

type Motivo = z.output<typeof motivoSchema>;
const motivoSchema = z.object({
  motivo: z
    .string({ error: 'Informe o motivo da recusa.' })
    .trim()
    .min(5, 'Informe o motivo da recusa (ao menos 5 caracteres).')
    .max(1000, 'Use no máximo 1000 caracteres.'),
});

export function registrarRecusas(router: PluginRouter, plano: DocumentResource) {
  const independente = async (tx: Tx, c: { parentId: string; ctx: { user: { id: string } } }) => {
    if (await isDocumentAuthor(tx, c.parentId, c.ctx.user.id)) {
      throw new AppError(403, 'segregacao', 'Quem elaborou este plano ou uma demanda dele não pode recusar itens (segregação de funções).');
    }
  };
  const item = (c: { child?: Record<string, unknown> }) => ({ item: `${String(c.child?.numeroItem)} – ${String(c.child?.descricao)}` });
  return defineDocumentChildren(router, plano, {
    path: 'itens',
    param: 'itemId',
    table: pcaItens,
    parentColumn: pcaItens.planoId,
    label: { singular: 'item', plural: 'itens' },
    tag: PCA_APROVAR_TAG,
    states: ['em_aprovacao'],
    stateMessage: () => 'Só se recusam itens de um plano em aprovação.',
    response: z.object({}).loose(),
    actions: {
      recusar: {
        summary: 'Recusar um item do plano (autoridade competente)',
        description:
          'Com o motivo; o item fica no registro do plano, sai do valor total e não vai ao PNCP. 403 para quem elaborou o plano ou uma demanda dele.',
        schema: motivoSchema,
        check: independente,
        run: async (tx, c) => {
          await tx
            .update(pcaItens)
            .set({ recusaMotivo: (c.body as Motivo).motivo, recusadoPor: c.ctx.user.nome, recusadoEm: sql`now()` })
            .where(eq(pcaItens.id, c.key!));
          await totalizar(tx, c.parentId);
        },
        audit: { acao: 'recusar_item', depois: (c) => ({ ...item(c), motivo: (c.body as Motivo).motivo }) },
      },
      aceitar: {
        summary: 'Desfazer a recusa de um item',
        check: independente,
        run: async (tx, c) => {
          await tx.update(pcaItens).set({ recusaMotivo: null, recusadoPor: null, recusadoEm: null }).where(eq(pcaItens.id, c.key!));
          await totalizar(tx, c.parentId);
        },
        audit: { acao: 'aceitar_item', antes: (c) => ({ ...item(c), motivo: c.child?.recusaMotivo }) },
      },
    },
  });
}
