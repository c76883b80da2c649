// Demo: next year's plan of the Prefeitura em elaboração, with the accepted demo DFDs of that year
// consolidated, written the way the routes write it (number from the counter, its author, the kit's
// links in documento_vinculos audited on each DFD, the consolidation) and audited as the system.
import { formatNumero } from '@app/documents';
import { memorandos } from '@app/memorandos/server';
import { centrosCusto } from '@app/registros/server';
import { type SeedContext, documentoVinculos, nextDocumentNumber, recordDocumentAuthor } from '@app/server-core';
import { and, eq } from '@app/server-core/orm';
import { today } from '@app/br';
import { PCA_APROVAR_TAG, PCA_TAG } from '../shared/index.js';
import { PCA_KIND, consolidar } from './consolidar.js';
import { pcaPlanos } from './tables.js';

export async function seedPca(ctx: SeedContext): Promise<void> {
  await seedAutoridadePca(ctx);
  const entidadeId = ctx.entidades.prefeitura.id;
  const admin = ctx.usuarios.admin;
  const anoPca = Number(today().slice(0, 4)) + 1;
  await ctx.mutate(async (tx, audit) => {
    const [setor] = await tx
      .select({ id: centrosCusto.id })
      .from(centrosCusto)
      .where(and(eq(centrosCusto.entidadeId, entidadeId), eq(centrosCusto.codigo, '01.01')));
    if (!setor) return;
    const dfds = await tx
      .select({ id: memorandos.id, numero: memorandos.numero, ano: memorandos.ano })
      .from(memorandos)
      .where(and(eq(memorandos.entidadeId, entidadeId), eq(memorandos.status, 'aceito'), eq(memorandos.anoPca, anoPca)));
    const { numero, ano } = await nextDocumentNumber(tx, { entidadeId, tipo: PCA_KIND });
    const header = { numero, ano, data: today(), status: 'em_elaboracao' as const, anoPca, codigoUnidade: '1', centroCustoId: setor.id };
    const [row] = await tx
      .insert(pcaPlanos)
      .values({ ...header, entidadeId, solicitanteId: admin.id, solicitanteNome: 'Administrador' })
      .returning({ id: pcaPlanos.id });
    const id = row!.id;
    await recordDocumentAuthor(tx, { entidadeId, documentoId: id, usuarioId: admin.id, papel: 'autor' });
    if (dfds.length) {
      await tx
        .insert(documentoVinculos)
        .values(dfds.map((d) => ({ entidadeId, destinoTipo: PCA_KIND, destinoId: id, fonteTipo: 'memorandos/memorandos', fonteId: d.id })));
    }
    await consolidar(tx, id, entidadeId);
    audit({ registro: id, acao: 'criar', entidadeId, depois: { ...header, fontes: dfds.map((d) => `Memorando ${formatNumero(d.numero, d.ano)}`) } });
    for (const d of dfds) {
      audit({
        plugin: 'memorandos',
        registro: d.id,
        acao: 'vincular',
        entidadeId,
        depois: { documento: `Plano de Contratações Anual ${formatNumero(numero, ano)}` },
      });
    }
  });
}

/**
 * The demo autoridade competente (perfil 'Autoridade competente' of the Prefeitura, when the demo has
 * it) approves the PCA too: tags 101 and 102 — the plan is approved by someone who did not consolidate it.
 */
export async function seedAutoridadePca(ctx: SeedContext): Promise<void> {
  await ctx.grantTags(['Autoridade competente'], [PCA_TAG, PCA_APROVAR_TAG]);
}
