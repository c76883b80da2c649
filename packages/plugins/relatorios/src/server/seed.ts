// Demo: the Prefeitura's perfis that read reports hold tag 105 — who approves, buys, audits and
// decides (each report still asks its own module's tag and reads the person's centros); the
// requisitante does not. Audited as a change of the perfil.
import type { SeedContext } from '@app/server-core';
import { RELATORIOS_TAG } from '../shared/index.js';

export const PERFIS_RELATORIOS = ['Aprovador', 'Chefia', 'Ordenador de despesa', 'Comprador', 'Auditor', 'Autoridade competente'] as const;

export async function seedRelatorios(ctx: SeedContext): Promise<void> {
  await ctx.grantTags(PERFIS_RELATORIOS, [RELATORIOS_TAG]);
}
