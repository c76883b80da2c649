// Demo: the perfis of the Prefeitura that analyse consumption and prices — the purchasing sector
// ('Comprador', @app/usuarios) and the 'Autoridade competente' (@app/cotacoes), when the demo has them —
// hold tag 106; the requisitante does not (audited as a change of the perfil).
import type { SeedContext } from '@app/server-core';
import { ANALISE_TAG } from '../shared/index.js';

export async function seedAnalise(ctx: SeedContext): Promise<void> {
  await ctx.grantTags(['Comprador', 'Autoridade competente'], [ANALISE_TAG]);
}
