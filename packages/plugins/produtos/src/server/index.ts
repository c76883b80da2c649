// @app/produtos/server: 'Produtos e Serviços' (tag 25) under /api/produtos.
//   GET/POST /produtos, GET/PUT/DELETE /produtos/:id, POST /produtos/:id/ativar|desativar,
//   GET /produtos.csv|.xlsx (defineCrudResource), GET /produtos/:id/usos,
//   POST /produtos/importar?dryRun=true|false, GET /produtos/modelo?formato=xlsx|csv.
import {
  AppError,
  DOCUMENT_PRODUCT_USES,
  type Tx,
  contribute,
  defineCrudResource,
  defineSpreadsheetImport,
  defineServerPlugin,
  notFound,
} from '@app/server-core';
import { and, eq, ne, sql } from '@app/server-core/orm';
import { alias } from '@app/server-core/pg-core';
import { z } from 'zod';
import {
  PRODUTO_IMPORT_COLUMNS,
  PRODUTOS_TAG,
  PRODUTOS_TAG_NOME,
  type ProdutoInput,
  TIPO_ITEM_LABEL,
  clearTipoMaterial,
  produtoInputSchema,
  produtoUsoSchema,
} from '../shared/index.js';
import { importarProdutos } from './importar.js';
import { seedProdutos } from './seed.js';
import { grupos, subgrupos, tiposMaterial, unidades } from '@app/registros/server';
import { produtos } from './tables.js';
import { clearProdutoUsos, describeUsos, listProdutoUsos, produtoUsadoEm, setProdutoUsos } from './usos.js';

export * from './tables.js';
export { produtosLookup } from './lookups.js';
export { PRODUTO_USOS, setProdutoUsos } from './usos.js';

// the registries joined into the list (aliases: the same table may be joined by other resources)
const grupoJ = alias(grupos, 'g');
const subGrupoJ = alias(subgrupos, 's');
const unidadeJ = alias(unidades, 'u');
const tipoMaterialJ = alias(tiposMaterial, 't');

const DUPLICATE = {
  codigo: 'Já existe um produto com este código.',
  descricao: 'Já existe um produto com esta descrição.',
};

const REF = {
  grupo: 'Escolha um grupo cadastrado em Registros.',
  subGrupo: 'Escolha um sub-grupo cadastrado em Registros.',
  unidade: 'Escolha uma unidade de fornecimento cadastrada em Registros.',
  tipoMaterial: 'Escolha um tipo de material cadastrado em Registros.',
};

/** Refuses a registry that is deactivated, unless the product already pointed at it. */
async function checkActive(tx: Tx, current: Record<string, unknown> | undefined, data: ProdutoInput): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  const checks = [
    { field: 'grupoId', table: grupos, message: 'Este grupo está desativado.' },
    { field: 'subGrupoId', table: subgrupos, message: 'Este sub-grupo está desativado.' },
    { field: 'unidadeId', table: unidades, message: 'Esta unidade está desativada.' },
    { field: 'tipoMaterialId', table: tiposMaterial, message: 'Este tipo de material está desativado.' },
  ] as const;
  for (const check of checks) {
    const id = data[check.field];
    if (!id || current?.[check.field] === id) continue;
    const [row] = await tx.select({ ativo: check.table.ativo }).from(check.table).where(eq(check.table.id, id));
    if (row && !row.ativo) fields[check.field] = check.message;
  }
  return fields;
}

export default defineServerPlugin({
  id: 'produtos',
  version: __PKG_VERSION__,
  core: '^1.0.0',
  dependsOn: ['registros'],
  tags: [{ tag: PRODUTOS_TAG, nome: PRODUTOS_TAG_NOME }],
  migrations: new URL('../../migrations/', import.meta.url),
  // where the document kit registers the products each document uses (items with `productColumn`)
  contributes: [contribute(DOCUMENT_PRODUCT_USES, { set: setProdutoUsos, clear: clearProdutoUsos })],
  routes(router, plugin) {
    // before the CRUD routes: '/produtos/modelo' must not be taken for '/produtos/:id'
    defineSpreadsheetImport(router, {
      path: '/produtos',
      tag: PRODUTOS_TAG,
      plural: 'produtos',
      columns: PRODUTO_IMPORT_COLUMNS,
      sheetName: 'Produtos',
      instructions: [
        'Grupo, sub-grupo, unidade e tipo de material precisam estar cadastrados em Registros (informe o código ou o nome).',
        'Código vazio: o sistema numera em sequência. Código e descrição não podem repetir.',
      ],
      run: importarProdutos,
    });

    router.route({
      method: 'get',
      path: '/produtos/:id/usos',
      tag: PRODUTOS_TAG,
      summary: 'Documentos que usam o produto',
      request: { params: z.object({ id: z.uuid({ error: 'Identificador inválido.' }) }) },
      responses: { 200: z.object({ emUso: z.boolean(), texto: z.string().nullable(), usos: z.array(produtoUsoSchema) }) },
      handler: async (c, ctx) => {
        const { id } = c.req.valid('param');
        const [row] = await ctx.db
          .select({ id: produtos.id })
          .from(produtos)
          .where(and(eq(produtos.id, id), eq(produtos.entidadeId, ctx.entidadeId)));
        if (!row) throw notFound();
        const usos = await listProdutoUsos(ctx.db, { id, entidadeId: ctx.entidadeId }, ctx);
        const texto = usos.length ? `Usado em ${describeUsos(usos)}` : await produtoUsadoEm(ctx.db, { id, entidadeId: ctx.entidadeId }, ctx);
        return c.json({ emUso: texto !== null, texto, usos }, 200);
      },
    });

    defineCrudResource(router, {
      path: '/produtos',
      tag: PRODUTOS_TAG,
      table: produtos,
      label: { singular: 'produto ou serviço', plural: 'produtos e serviços' },
      schema: produtoInputSchema,
      toRow: (data, write) => {
        const row: Record<string, unknown> = clearTipoMaterial({ ...data });
        // an empty código: the next number on creation (database trigger), unchanged on update
        if (!row.codigo) {
          if (write.id) delete row.codigo;
          else row.codigo = null;
        }
        return row;
      },
      references: {
        grupoId: { table: grupos, message: REF.grupo },
        subGrupoId: { table: subgrupos, message: REF.subGrupo },
        unidadeId: { table: unidades, message: REF.unidade },
        tipoMaterialId: { table: tiposMaterial, message: REF.tipoMaterial },
      },
      validate: async (tx, data, write) => {
        const fields: Record<string, string> = {};
        const current = write.id
          ? (
              await tx
                .select()
                .from(produtos)
                .where(and(eq(produtos.id, write.id), eq(produtos.entidadeId, write.entidadeId)))
            )[0]
          : undefined;
        if (data.subGrupoId) {
          const [sub] = await tx.select({ grupoId: subgrupos.grupoId }).from(subgrupos).where(eq(subgrupos.id, data.subGrupoId));
          if (sub && sub.grupoId !== data.grupoId) fields.subGrupoId = 'O sub-grupo não pertence ao grupo escolhido.';
        }
        Object.assign(fields, await checkActive(tx, current, data));
        if (Object.keys(fields).length) return fields;
        // código and descrição are unique without case or accents (the unique indexes use compras_busca)
        for (const [field, column, message] of [
          ['codigo', produtos.codigo, DUPLICATE.codigo],
          ['descricao', produtos.descricao, DUPLICATE.descricao],
        ] as const) {
          const value = data[field];
          if (!value) continue;
          const [hit] = await tx
            .select({ id: produtos.id })
            .from(produtos)
            .where(
              and(
                eq(produtos.entidadeId, write.entidadeId),
                sql`compras_busca(${column}) = compras_busca(${value})`,
                write.id ? ne(produtos.id, write.id) : undefined,
              ),
            )
            .limit(1);
          if (hit) throw new AppError(409, 'duplicate', message, { [field]: message });
        }
        // a product used by a document keeps its descrição
        if (current && current.descricao !== data.descricao) {
          const usado = await produtoUsadoEm(tx, { id: current.id, entidadeId: write.entidadeId }, plugin);
          if (usado) {
            const message = `A descrição não pode ser alterada: o produto é ${usado.charAt(0).toLowerCase()}${usado.slice(1)}. Desative-o e cadastre um novo produto com a nova descrição.`;
            throw new AppError(409, 'in_use', message, { descricao: message });
          }
        }
        return undefined;
      },
      usedBy: async (tx, id) => {
        const [row] = await tx.select({ entidadeId: produtos.entidadeId }).from(produtos).where(eq(produtos.id, id));
        return row ? produtoUsadoEm(tx, { id, entidadeId: row.entidadeId }, plugin) : null;
      },
      // names of the registries, joined (sorting 100 000 products by grupo is one hash join)
      joins: [
        { table: grupoJ, on: eq(grupoJ.id, produtos.grupoId) },
        { table: subGrupoJ, on: eq(subGrupoJ.id, produtos.subGrupoId) },
        { table: unidadeJ, on: eq(unidadeJ.id, produtos.unidadeId) },
        { table: tipoMaterialJ, on: eq(tipoMaterialJ.id, produtos.tipoMaterialId) },
      ],
      extra: {
        grupoNome: grupoJ.nome,
        subGrupoNome: subGrupoJ.nome,
        unidadeSigla: unidadeJ.sigla,
        unidadeNome: unidadeJ.descricao,
        tipoMaterialNome: tipoMaterialJ.nome,
      },
      busca: produtos.busca,
      sortable: ['descricao', 'codigo', 'tipo', 'grupoNome', 'unidadeSigla', 'codigoCatalogo', 'ativo', 'updatedAt'],
      defaultSort: 'descricao',
      filters: {
        tipo: produtos.tipo,
        grupoId: produtos.grupoId,
        subGrupoId: produtos.subGrupoId,
        unidadeId: produtos.unidadeId,
        tipoMaterialId: produtos.tipoMaterialId,
      },
      unique: [
        { fields: ['codigo'], ignoreCase: true, message: DUPLICATE.codigo },
        { fields: ['descricao'], ignoreCase: true, message: DUPLICATE.descricao },
      ],
      // same headers as the import: an export can be edited and imported elsewhere
      columns: [
        { key: 'codigo', header: 'Código' },
        { key: 'descricao', header: 'Descrição' },
        { key: 'tipo', header: 'Tipo', value: (row) => TIPO_ITEM_LABEL[row.tipo as 'material'] ?? String(row.tipo) },
        { key: 'grupoNome', header: 'Grupo' },
        { key: 'subGrupoNome', header: 'Sub-grupo' },
        { key: 'unidadeSigla', header: 'Unidade' },
        { key: 'tipoMaterialNome', header: 'Tipo de material' },
        { key: 'codigoCatalogo', header: 'CATMAT/CATSER' },
        { key: 'classeCnbsCodigo', header: 'Classe/grupo CNBS' },
        { key: 'classeCnbsNome', header: 'Nome da classe/grupo CNBS' },
        { key: 'pdmCodigo', header: 'PDM' },
        { key: 'pdmDescricao', header: 'Descrição do PDM' },
        { key: 'especificacao', header: 'Especificação' },
        { key: 'ativo', header: 'Ativo' },
      ],
      exportName: 'produtos',
    });
  },
  seed: seedProdutos,
});
