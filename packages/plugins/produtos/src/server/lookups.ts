// The catalogue picker that document plugins serve under their own tag (a requisitante holds the
// document's tag, not Produtos): `defineLookup(router, produtosLookup(TAG))`.
import { grupos, unidades } from '@app/registros/server';
import type { LookupDefinition } from '@app/server-core';
import { eq } from '@app/server-core/orm';
import { produtos } from './tables.js';

/** Active products and services by descrição, with código, the unit's sigla and the grupo's name. */
export function produtosLookup(tag: number): LookupDefinition {
  return {
    path: '/produtos',
    tag,
    summary: 'Produtos e serviços do catálogo',
    table: produtos,
    fields: { codigo: produtos.codigo, descricao: produtos.descricao, unidadeSigla: unidades.sigla, grupoNome: grupos.nome },
    joins: [
      { table: unidades, on: eq(unidades.id, produtos.unidadeId) },
      { table: grupos, on: eq(grupos.id, produtos.grupoId) },
    ],
    busca: produtos.busca,
    order: produtos.descricao,
  };
}
