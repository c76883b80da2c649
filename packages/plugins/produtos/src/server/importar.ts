// Spreadsheet import of products: every row validated (schema, código and descrição unique in the file
// and in the entidade, grupo/sub-grupo/unidade/tipo de material found in @app/registros by code or
// name and active), then all rows inserted in one transaction, or none.
import { type DbOrTx, type ImportResult, type MutateFn, type ParsedSheet, type RowProblem, type Tx, comprasBusca, importRows } from '@app/server-core';
import { and, eq, inArray, sql } from '@app/server-core/orm';
import { PRODUTO_IMPORT_COLUMNS, type ProdutoImportRow, type TipoItem, produtoImportRowSchema } from '../shared/index.js';
import { grupos, subgrupos, tiposMaterial, unidades } from '@app/registros/server';
import { produtos } from './tables.js';

interface Ref {
  id: string;
  label: string;
  ativo: boolean;
}

/** The registries of an entidade, looked up by code/sigla or by name (accent/case-insensitive). */
export interface RegistrosLookup {
  grupo(value: string): Ref | undefined;
  subGrupo(grupoId: string, value: string): Ref | undefined;
  unidade(value: string): Ref | undefined;
  tipoMaterial(value: string): Ref | undefined;
}

function index<T>(rows: T[], keys: (row: T) => (string | null | undefined)[], ref: (row: T) => Ref): (value: string) => Ref | undefined {
  const byKey = new Map<string, Ref>();
  // earlier keys win (codes before names)
  const levels = Math.max(0, ...rows.map((r) => keys(r).length));
  for (let level = 0; level < levels; level++) {
    for (const row of rows) {
      const key = keys(row)[level];
      if (key && !byKey.has(comprasBusca(key.trim()))) byKey.set(comprasBusca(key.trim()), ref(row));
    }
  }
  return (value) => byKey.get(comprasBusca(value.trim()));
}

export async function loadRegistros(db: DbOrTx, entidadeId: string): Promise<RegistrosLookup> {
  // one after the other: inside a transaction they share one connection
  const g = await db.select().from(grupos).where(eq(grupos.entidadeId, entidadeId));
  const s = await db.select().from(subgrupos).where(eq(subgrupos.entidadeId, entidadeId));
  const u = await db.select().from(unidades).where(eq(unidades.entidadeId, entidadeId));
  const t = await db.select().from(tiposMaterial).where(eq(tiposMaterial.entidadeId, entidadeId));
  const grupo = index(
    g,
    (r) => [r.codigo, r.nome],
    (r) => ({ id: r.id, label: r.nome, ativo: r.ativo }),
  );
  const subByGrupo = new Map<string, (value: string) => Ref | undefined>();
  for (const grupoId of new Set(s.map((r) => r.grupoId))) {
    subByGrupo.set(
      grupoId,
      index(
        s.filter((r) => r.grupoId === grupoId),
        (r) => [r.codigo, r.nome],
        (r) => ({ id: r.id, label: r.nome, ativo: r.ativo }),
      ),
    );
  }
  return {
    grupo,
    subGrupo: (grupoId, value) => subByGrupo.get(grupoId)?.(value),
    unidade: index(
      u,
      (r) => [r.sigla, r.descricao],
      (r) => ({ id: r.id, label: r.sigla, ativo: r.ativo }),
    ),
    tipoMaterial: index(
      t,
      (r) => [r.nome],
      (r) => ({ id: r.id, label: r.nome, ativo: r.ativo }),
    ),
  };
}

/** A row of the file after the lookups. */
export type ProdutoImportado = ProdutoImportRow & {
  grupoId?: string;
  subGrupoId?: string | null;
  unidadeId?: string;
  tipoMaterialId?: string | null;
};

export interface NovoProduto {
  codigo: string | null;
  descricao: string;
  tipo: TipoItem;
  grupoId: string;
  subGrupoId: string | null;
  unidadeId: string;
  tipoMaterialId: string | null;
  codigoCatalogo: string | null;
  classeCnbsCodigo?: string | null;
  classeCnbsNome?: string | null;
  pdmCodigo?: string | null;
  pdmDescricao?: string | null;
  especificacao: string | null;
  ativo: boolean;
}

/**
 * Inserts products, giving those without a código the entidade's next free numbers from the same
 * counter as the database trigger (produtos_proximos_codigos, migrations/0003_codigo_contador.sql:
 * the manual códigos of these rows are skipped too), 500 rows per statement. Returns the stored rows
 * for the audit.
 */
export async function insertProdutos(tx: Tx, entidadeId: string, rows: readonly NovoProduto[]) {
  const faltam = rows.filter((r) => !r.codigo).length;
  let automaticos: string[] = [];
  if (faltam > 0) {
    const manuais = rows.flatMap((r) => (r.codigo ? [r.codigo] : []));
    const { rows: out } = await tx.execute<{ codigos: string[] }>(
      sql`SELECT produtos_proximos_codigos(${entidadeId}::uuid, ${faltam}::integer,
        ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(manuais)}::jsonb))) AS codigos`,
    );
    automaticos = out[0]?.codigos ?? [];
    if (automaticos.length !== faltam) throw new Error(`produtos_proximos_codigos: ${automaticos.length} códigos for ${faltam} rows`);
  }
  let next = 0;
  const values = rows.map((r) => ({
    ...r,
    codigo: r.codigo || automaticos[next++]!,
    tipoMaterialId: r.tipo === 'servico' ? null : r.tipoMaterialId,
    entidadeId,
  }));
  const stored: { id: string }[] = [];
  for (let i = 0; i < values.length; i += 500) {
    const inserted = await tx
      .insert(produtos)
      .values(values.slice(i, i + 500))
      .returning({
        id: produtos.id,
        codigo: produtos.codigo,
        descricao: produtos.descricao,
        tipo: produtos.tipo,
        grupoId: produtos.grupoId,
        subGrupoId: produtos.subGrupoId,
        unidadeId: produtos.unidadeId,
        tipoMaterialId: produtos.tipoMaterialId,
        codigoCatalogo: produtos.codigoCatalogo,
        classeCnbsCodigo: produtos.classeCnbsCodigo,
        classeCnbsNome: produtos.classeCnbsNome,
        pdmCodigo: produtos.pdmCodigo,
        pdmDescricao: produtos.pdmDescricao,
        especificacao: produtos.especificacao,
        ativo: produtos.ativo,
      });
    stored.push(...inserted);
  }
  return stored;
}

/** Validates (dryRun) or imports a products spreadsheet for the entidade. */
export async function importarProdutos(options: {
  ctx: { db: DbOrTx; mutate: MutateFn };
  entidadeId: string;
  sheet: ParsedSheet & { filename?: string | undefined };
  dryRun: boolean;
}): Promise<ImportResult> {
  const { ctx, entidadeId, sheet, dryRun } = options;
  const existing = (column: typeof produtos.codigo | typeof produtos.descricao) => async (db: DbOrTx, keys: string[]) => {
    const rows = await db
      .select({ key: sql<string>`compras_busca(${column})` })
      .from(produtos)
      .where(and(eq(produtos.entidadeId, entidadeId), inArray(sql`compras_busca(${column})`, keys)));
    return rows.map((r) => r.key);
  };
  return importRows<ProdutoImportado>({
    ctx,
    rows: sheet,
    filename: sheet.filename,
    schema: produtoImportRowSchema,
    columns: PRODUTO_IMPORT_COLUMNS,
    dryRun,
    unique: [
      {
        field: 'codigo',
        key: (r) => (r.codigo ? comprasBusca(r.codigo) : ''),
        existing: existing(produtos.codigo),
        databaseMessage: 'Já existe um produto com este código.',
        fileMessage: (linha) => `Código repetido no arquivo (já aparece na linha ${linha}).`,
      },
      {
        field: 'descricao',
        key: (r) => comprasBusca(r.descricao),
        existing: existing(produtos.descricao),
        databaseMessage: 'Já existe um produto com esta descrição.',
        fileMessage: (linha) => `Descrição repetida no arquivo (já aparece na linha ${linha}).`,
      },
    ],
    check: async (db, rows) => {
      const registros = await loadRegistros(db, entidadeId);
      const problems: RowProblem[] = [];
      for (const { linha, data } of rows) {
        const grupo = registros.grupo(data.grupo);
        if (!grupo) problems.push({ linha, coluna: 'grupo', motivo: `Grupo '${data.grupo}' não encontrado em Registros (informe o código ou o nome).` });
        else if (!grupo.ativo) problems.push({ linha, coluna: 'grupo', motivo: `O grupo '${grupo.label}' está desativado.` });
        else data.grupoId = grupo.id;
        data.subGrupoId = null;
        if (data.subGrupo && grupo) {
          const sub = registros.subGrupo(grupo.id, data.subGrupo);
          if (!sub) problems.push({ linha, coluna: 'subGrupo', motivo: `Sub-grupo '${data.subGrupo}' não encontrado no grupo '${grupo.label}'.` });
          else if (!sub.ativo) problems.push({ linha, coluna: 'subGrupo', motivo: `O sub-grupo '${sub.label}' está desativado.` });
          else data.subGrupoId = sub.id;
        }
        const unidade = registros.unidade(data.unidade);
        if (!unidade)
          problems.push({ linha, coluna: 'unidade', motivo: `Unidade '${data.unidade}' não encontrada em Registros (informe a sigla ou a descrição).` });
        else if (!unidade.ativo) problems.push({ linha, coluna: 'unidade', motivo: `A unidade '${unidade.label}' está desativada.` });
        else data.unidadeId = unidade.id;
        data.tipoMaterialId = null;
        if (data.tipoMaterial && data.tipo === 'material') {
          const tipo = registros.tipoMaterial(data.tipoMaterial);
          if (!tipo) problems.push({ linha, coluna: 'tipoMaterial', motivo: `Tipo de material '${data.tipoMaterial}' não encontrado em Registros.` });
          else if (!tipo.ativo) problems.push({ linha, coluna: 'tipoMaterial', motivo: `O tipo de material '${tipo.label}' está desativado.` });
          else data.tipoMaterialId = tipo.id;
        }
      }
      return problems;
    },
    insert: (tx, rows) =>
      insertProdutos(
        tx,
        entidadeId,
        rows.map((r) => ({
          codigo: r.codigo,
          descricao: r.descricao,
          tipo: r.tipo,
          grupoId: r.grupoId!,
          subGrupoId: r.subGrupoId ?? null,
          unidadeId: r.unidadeId!,
          tipoMaterialId: r.tipoMaterialId ?? null,
          codigoCatalogo: r.codigoCatalogo,
          classeCnbsCodigo: r.classeCnbsCodigo,
          classeCnbsNome: r.classeCnbsNome,
          pdmCodigo: r.pdmCodigo,
          pdmDescricao: r.pdmDescricao,
          especificacao: r.especificacao,
          ativo: r.ativo,
        })),
      ),
  });
}
