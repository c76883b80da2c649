// Demo rows of the Prefeitura (embedded database, first start only): the list is not empty on day one.
import type { SeedContext } from '@app/server-core';
import { __CAMEL__ } from './tables.js';

const DEMO = [
  { nome: 'Primeiro registro', descricao: 'Criado pelos dados de demonstração.' },
  { nome: 'Segundo registro', descricao: null },
];

export async function seed__PASCAL__(ctx: SeedContext): Promise<void> {
  const entidadeId = ctx.entidades.prefeitura.id;
  await ctx.mutate(async (tx, audit) => {
    const rows = await tx
      .insert(__CAMEL__)
      .values(DEMO.map((row) => ({ ...row, entidadeId })))
      .returning({ id: __CAMEL__.id, nome: __CAMEL__.nome });
    for (const row of rows) audit({ registro: row.id, acao: 'criar', depois: { nome: row.nome }, entidadeId });
  });
}
