// Demo: next year's plan of the Prefeitura em elaboração, with the accepted demo DFDs of that year
// consolidated, and this year's plan, approved (its items included without DFD, as a plan made before
// the product was in use), written the way the routes write them (number from the counter, its author,
// the kit's links in documento_vinculos audited on each DFD, the consolidation, the approved version
// kept for a revision to compare) and audited as the system.
import { formatNumero } from '@app/documents';
import { memorandos } from '@app/memorandos/server';
import { produtos } from '@app/produtos/server';
import { centrosCusto } from '@app/registros/server';
import { type SeedContext, type Tx, documentoVinculos, nextDocumentNumber, recordDocumentAuthor } from '@app/server-core';
import { and, asc, eq } from '@app/server-core/orm';
import { today } from '@app/br';
import { PCA_APROVAR_TAG, PCA_TAG } from '../shared/index.js';
import { PCA_KIND, consolidar } from './consolidar.js';
import { guardarVersao } from './revisao.js';
import { pcaItensManuais, pcaLoas, pcaPlanos } from './tables.js';

/**
 * A demo plan's start, as the routes write it: the setor de contratações (01.01), the number from the
 * counter, the row em elaboração and its author. Null when the demo has no such setor.
 */
async function novoPlano(tx: Tx, ctx: SeedContext, plano: { anoPca: number; data: string }) {
  const entidadeId = ctx.entidades.prefeitura.id;
  const admin = ctx.usuarios.admin;
  const [setor] = await tx
    .select({ id: centrosCusto.id })
    .from(centrosCusto)
    .where(and(eq(centrosCusto.entidadeId, entidadeId), eq(centrosCusto.codigo, '01.01')));
  if (!setor) return null;
  const { numero, ano } = await nextDocumentNumber(tx, { entidadeId, tipo: PCA_KIND });
  const header = { numero, ano, data: plano.data, status: 'em_elaboracao' as const, anoPca: plano.anoPca, codigoUnidade: '1', centroCustoId: setor.id };
  const [row] = await tx
    .insert(pcaPlanos)
    .values({ ...header, entidadeId, solicitanteId: admin.id, solicitanteNome: 'Administrador' })
    .returning({ id: pcaPlanos.id });
  await recordDocumentAuthor(tx, { entidadeId, documentoId: row!.id, usuarioId: admin.id, papel: 'autor' });
  return { id: row!.id, header };
}

export async function seedPca(ctx: SeedContext): Promise<void> {
  await seedAutoridadePca(ctx);
  await seedPlanoDoProximoAno(ctx);
  await seedPlanoAprovado(ctx);
}

/** Next year's plan em elaboração, with the accepted demo DFDs of that year consolidated. */
async function seedPlanoDoProximoAno(ctx: SeedContext): Promise<void> {
  const entidadeId = ctx.entidades.prefeitura.id;
  const anoPca = Number(today().slice(0, 4)) + 1;
  await ctx.mutate(async (tx, audit) => {
    const dfds = await tx
      .select({ id: memorandos.id, numero: memorandos.numero, ano: memorandos.ano })
      .from(memorandos)
      .where(and(eq(memorandos.entidadeId, entidadeId), eq(memorandos.status, 'aceito'), eq(memorandos.anoPca, anoPca)));
    const plano = await novoPlano(tx, ctx, { anoPca, data: today() });
    if (!plano) return;
    const { id, header } = plano;
    const { numero, ano } = header;
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

/** This year's lines of the approved demo plan: quantity and unit value of the first active products. */
const LINHAS_APROVADO = [
  { quantidade: '120.0000', valorUnitario: '25.9000' },
  { quantidade: '40.0000', valorUnitario: '18.5000' },
  { quantidade: '300.0000', valorUnitario: '1.2500' },
] as const;

/**
 * This year's plan of the Prefeitura, approved by the autoridade competente: numbered after next
 * year's (the plan the demo works on stays 1/aaaa), its items included without DFD with their
 * justification, consolidated, and its approved version kept. Nothing when the catalogue is empty.
 */
async function seedPlanoAprovado(ctx: SeedContext): Promise<void> {
  const entidadeId = ctx.entidades.prefeitura.id;
  const anoPca = Number(today().slice(0, 4));
  await ctx.mutate(async (tx, audit) => {
    const catalogo = await tx
      .select({ id: produtos.id })
      .from(produtos)
      .where(and(eq(produtos.entidadeId, entidadeId), eq(produtos.ativo, true), eq(produtos.tipo, 'material')))
      .orderBy(asc(produtos.codigo))
      .limit(LINHAS_APROVADO.length);
    if (catalogo.length === 0) return;
    const plano = await novoPlano(tx, ctx, { anoPca, data: `${anoPca - 1}-12-10` });
    if (!plano) return;
    const { id, header } = plano;
    await tx.insert(pcaItensManuais).values(
      catalogo.map((p, i) => ({
        entidadeId,
        planoId: id,
        produtoId: p.id,
        categoriaItemPca: 1,
        ...LINHAS_APROVADO[i]!,
        dataDesejada: `${anoPca}-03-16`,
        justificativa: 'Consumo permanente das secretarias, previsto antes do uso do sistema (dados de demonstração).',
      })),
    );
    await consolidar(tx, id, entidadeId);
    await tx.update(pcaPlanos).set({ status: 'aprovado' }).where(eq(pcaPlanos.id, id));
    await guardarVersao(tx, { id, versao: 1 }, entidadeId);
    // the year's budget law, published in the December before (the administration's setting; its 15 days are a revision window)
    const [loa] = await tx
      .insert(pcaLoas)
      .values({ entidadeId, ano: anoPca, dataPublicacao: `${anoPca - 1}-12-22`, lei: `Lei Orçamentária Anual de ${anoPca}, dados de demonstração` })
      .onConflictDoNothing()
      .returning({ id: pcaLoas.id });
    if (loa) audit({ registro: loa.id, acao: 'criar', entidadeId, depois: { ano: anoPca, dataPublicacao: `${anoPca - 1}-12-22` } });
    audit({ registro: id, acao: 'criar', entidadeId, depois: header });
    audit({ registro: id, acao: 'enviar', entidadeId, antes: { status: 'em_elaboracao' }, depois: { status: 'em_aprovacao' } });
    audit({ registro: id, acao: 'aprovar', entidadeId, antes: { status: 'em_aprovacao' }, depois: { status: 'aprovado' } });
  });
}

/**
 * The demo autoridade competente (perfil 'Autoridade competente' of the Prefeitura, when the demo has
 * it) approves the PCA too: tags 101 and 102 — the plan is approved by someone who did not consolidate it.
 */
export async function seedAutoridadePca(ctx: SeedContext): Promise<void> {
  await ctx.grantTags(['Autoridade competente'], [PCA_TAG, PCA_APROVAR_TAG]);
}
