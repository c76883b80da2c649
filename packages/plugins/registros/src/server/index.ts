import { defineCrudResource, defineServerPlugin } from '@app/server-core';
import { and, eq, sql } from '@app/server-core/orm';
import {
  REGISTROS_PATHS as P,
  REGISTROS_TAG,
  cargoColumns,
  cargoSchema,
  centroCustoColumns,
  centroCustoSchema,
  grupoColumns,
  grupoSchema,
  nucleoConsumoColumns,
  nucleoConsumoSchema,
  ramoAtividadeColumns,
  ramoAtividadeSchema,
  subgrupoColumns,
  subgrupoSchema,
  tipoMaterialColumns,
  tipoMaterialSchema,
  tipoSolicitacaoColumns,
  tipoSolicitacaoSchema,
  unidadeColumns,
  unidadeSchema,
} from '../shared/index.js';
import { seedRegistros } from './seed.js';
import { cargos, centrosCusto, grupos, nucleoCentros, nucleosConsumo, ramosAtividade, subgrupos, tiposMaterial, tiposSolicitacao, unidades } from './tables.js';

export * from './tables.js';
export { centrosCustoLookup } from './lookups.js';
export { centroCustoFiltro } from './relatorios.js';

const tag = REGISTROS_TAG;

/**
 * @app/registros, server half: nine registries under /api/registros, each declared with
 * defineCrudResource (list/search/sort/export, CRUD with optimistic concurrency, in-use checks).
 */
export default defineServerPlugin({
  id: 'registros',
  version: __PKG_VERSION__,
  core: '^1.0.0',
  tags: [{ tag: REGISTROS_TAG, nome: 'Cadastros' }],
  migrations: new URL('../../migrations/', import.meta.url),
  routes(router) {
    defineCrudResource(router, {
      path: P.grupos,
      tag,
      table: grupos,
      label: { singular: 'grupo', plural: 'grupos' },
      schema: grupoSchema,
      busca: grupos.busca,
      sortable: ['nome', 'codigo', 'catalogoCodigo', 'ativo'],
      unique: [
        { fields: ['codigo'], message: 'Já existe um grupo com este código.' },
        { fields: ['nome'], ignoreCase: true, message: 'Já existe um grupo com este nome.' },
      ],
      columns: grupoColumns,
    });

    defineCrudResource(router, {
      path: P.subgrupos,
      tag,
      table: subgrupos,
      label: { singular: 'sub-grupo', plural: 'sub-grupos' },
      schema: subgrupoSchema,
      busca: subgrupos.busca,
      extra: { grupoNome: sql<string>`(SELECT g.nome FROM registros_grupos g WHERE g.id = registros_subgrupos.grupo_id)` },
      sortable: ['nome', 'codigo', 'grupoNome', 'catalogoCodigo', 'ativo'],
      defaultSort: 'nome',
      filters: { grupoId: subgrupos.grupoId },
      references: { grupoId: { table: grupos, message: 'Selecione um grupo cadastrado.' } },
      unique: [{ fields: ['grupoId', 'codigo'], message: 'Já existe um sub-grupo com este código neste grupo.' }],
      columns: subgrupoColumns,
    });

    defineCrudResource(router, {
      path: P.unidades,
      tag,
      table: unidades,
      label: { singular: 'unidade', plural: 'unidades' },
      schema: unidadeSchema,
      busca: unidades.busca,
      sortable: ['sigla', 'descricao', 'fracionavel', 'ativo'],
      unique: [{ fields: ['sigla'], message: 'Já existe uma unidade com esta sigla.' }],
      columns: unidadeColumns,
    });

    defineCrudResource(router, {
      path: P.tiposMaterial,
      tag,
      table: tiposMaterial,
      label: { singular: 'tipo de material', plural: 'tipos de material' },
      schema: tipoMaterialSchema,
      busca: tiposMaterial.busca,
      sortable: ['nome', 'descricao', 'ativo'],
      unique: [{ fields: ['nome'], ignoreCase: true, message: 'Já existe um tipo de material com este nome.' }],
      columns: tipoMaterialColumns,
    });

    defineCrudResource(router, {
      path: P.centrosCusto,
      tag,
      table: centrosCusto,
      label: { singular: 'centro de custo', plural: 'centros de custo' },
      schema: centroCustoSchema,
      busca: centrosCusto.busca,
      extra: {
        parentNome: sql<string | null>`(SELECT p.codigo || ' – ' || p.nome FROM registros_centros_custo p WHERE p.id = registros_centros_custo.parent_id)`,
      },
      sortable: ['codigo', 'nome', 'parentNome', 'responsavelNome', 'ativo'],
      filters: { parentId: centrosCusto.parentId },
      references: { parentId: { table: centrosCusto, message: 'Selecione um centro de custo cadastrado.' } },
      unique: [{ fields: ['codigo'], message: 'Já existe um centro de custo com este código.' }],
      // the superior centro cannot be the centro itself nor one of its subordinates
      async validate(tx, data, { id }) {
        if (!id || !data.parentId) return;
        let current: string | null = data.parentId;
        for (let depth = 0; current && depth < 50; depth++) {
          if (current === id) return { parentId: 'Um centro de custo não pode ficar subordinado a si mesmo nem a um subordinado seu.' };
          const [row]: { parentId: string | null }[] = await tx
            .select({ parentId: centrosCusto.parentId })
            .from(centrosCusto)
            .where(eq(centrosCusto.id, current));
          current = row?.parentId ?? null;
        }
        return undefined;
      },
      columns: centroCustoColumns,
    });

    defineCrudResource(router, {
      path: P.nucleosConsumo,
      tag,
      table: nucleosConsumo,
      label: { singular: 'núcleo de consumo', plural: 'núcleos de consumo' },
      schema: nucleoConsumoSchema,
      busca: nucleosConsumo.busca,
      extra: {
        centroIds: sql<
          string[]
        >`coalesce((SELECT json_agg(nc.centro_id ORDER BY nc.centro_id) FROM registros_nucleo_centros nc WHERE nc.nucleo_id = registros_nucleos_consumo.id), '[]'::json)`,
        centrosNomes: sql<string>`coalesce((SELECT string_agg(c.codigo || ' – ' || c.nome, '; ' ORDER BY c.codigo) FROM registros_nucleo_centros nc JOIN registros_centros_custo c ON c.id = nc.centro_id WHERE nc.nucleo_id = registros_nucleos_consumo.id), '')`,
      },
      sortable: ['nome', 'centrosNomes', 'ativo'],
      references: { centroIds: { table: centrosCusto, message: 'Selecione centros de custo cadastrados.' } },
      unique: [{ fields: ['nome'], ignoreCase: true, message: 'Já existe um núcleo de consumo com este nome.' }],
      async afterSave(tx, id, data, { entidadeId }) {
        await tx.delete(nucleoCentros).where(and(eq(nucleoCentros.nucleoId, id), eq(nucleoCentros.entidadeId, entidadeId)));
        const ids = [...new Set(data.centroIds)];
        if (ids.length > 0) await tx.insert(nucleoCentros).values(ids.map((centroId) => ({ nucleoId: id, centroId, entidadeId })));
      },
      columns: nucleoConsumoColumns,
    });

    defineCrudResource(router, {
      path: P.ramosAtividade,
      tag,
      table: ramosAtividade,
      label: { singular: 'ramo de atividade', plural: 'ramos de atividade' },
      schema: ramoAtividadeSchema,
      busca: ramosAtividade.busca,
      sortable: ['nome', 'cnae', 'ativo'],
      unique: [{ fields: ['nome'], ignoreCase: true, message: 'Já existe um ramo de atividade com este nome.' }],
      columns: ramoAtividadeColumns,
    });

    defineCrudResource(router, {
      path: P.tiposSolicitacao,
      tag,
      table: tiposSolicitacao,
      label: { singular: 'tipo de solicitação', plural: 'tipos de solicitação' },
      schema: tipoSolicitacaoSchema,
      busca: tiposSolicitacao.busca,
      sortable: ['nome', 'prazoDias', 'ativo'],
      unique: [{ fields: ['nome'], ignoreCase: true, message: 'Já existe um tipo de solicitação com este nome.' }],
      columns: tipoSolicitacaoColumns,
    });

    defineCrudResource(router, {
      path: P.cargos,
      tag,
      table: cargos,
      label: { singular: 'cargo', plural: 'cargos' },
      schema: cargoSchema,
      busca: cargos.busca,
      sortable: ['nome', 'descricao', 'ativo'],
      unique: [{ fields: ['nome'], ignoreCase: true, message: 'Já existe um cargo com este nome.' }],
      columns: cargoColumns,
    });
  },
  seed: seedRegistros,
});
