// Demo suppliers (fornecedores-demo.ts) for the Prefeitura, with their ramos de atividade found in
// @app/registros by name (a ramo the registros seed does not have is created, audited as registros).
import { type SeedContext, comprasBusca } from '@app/server-core';
import { eq } from '@app/server-core/orm';
import { RAMOS_DEMO, type RamoDemo, fornecedoresDemo } from './fornecedores-demo.js';
import { insertFornecedores } from './importar.js';
import { ramosAtividade } from '@app/registros/server';

export async function seedFornecedores(ctx: SeedContext): Promise<void> {
  const entidadeId = ctx.entidades.prefeitura.id;
  await ctx.mutate(async (tx, audit) => {
    const ramos = await tx.select().from(ramosAtividade).where(eq(ramosAtividade.entidadeId, entidadeId));
    const ramoIds = new Map<RamoDemo, string>();
    for (const [key, { keywords, criar }] of Object.entries(RAMOS_DEMO) as [RamoDemo, (typeof RAMOS_DEMO)[RamoDemo]][]) {
      const found = keywords.map((w) => ramos.find((r) => r.ativo && comprasBusca(r.nome).includes(w))).find(Boolean);
      if (found) {
        ramoIds.set(key, found.id);
        continue;
      }
      const [nome, cnae] = criar;
      const [created] = await tx.insert(ramosAtividade).values({ entidadeId, nome, cnae }).returning({ id: ramosAtividade.id });
      audit({ plugin: 'registros', registro: created!.id, acao: 'criar', entidadeId, depois: { nome, cnae } });
      ramoIds.set(key, created!.id);
    }
    const stored = await insertFornecedores(
      tx,
      entidadeId,
      fornecedoresDemo().map(({ ramos: keys, ...f }) => ({ ...f, ramoIds: [...new Set(keys.map((k) => ramoIds.get(k)!))] })),
    );
    audit({ acao: 'dados_demonstracao', entidadeId, depois: { fornecedores: stored.length } });
  });
}
