// Spreadsheet import of suppliers: every row validated (CPF/CNPJ check digits, address, contact,
// situação, CPF/CNPJ unique in the file and in the entidade, ramos found in @app/registros by name or
// CNAE and active), then all rows inserted in one transaction, or none.
import { type DbOrTx, type ImportResult, type MutateFn, type ParsedSheet, type RowProblem, type Tx, comprasBusca, importRows } from '@app/server-core';
import { and, eq, inArray } from '@app/server-core/orm';
import {
  DUPLICATE_DOCUMENT_MESSAGE,
  FORNECEDOR_IMPORT_COLUMNS,
  type FornecedorImportRow,
  type FornecedorInput,
  clearImpedimento,
  fornecedorImportRowSchema,
} from '../shared/index.js';
import { ramosAtividade } from '@app/registros/server';
import { fornecedorRamos, fornecedores } from './tables.js';

export type NovoFornecedor = Omit<FornecedorInput, 'ramoIds' | 'uf'> & { uf: string; ramoIds: string[] };

/**
 * Inserts suppliers and their ramos (500 per statement). Returns the stored rows (with ramoIds) for
 * the audit.
 */
export async function insertFornecedores(tx: Tx, entidadeId: string, rows: readonly NovoFornecedor[]) {
  const stored: ({ id: string } & Record<string, unknown>)[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    const inserted = await tx
      .insert(fornecedores)
      .values(chunk.map(({ ramoIds: _ramos, ...f }) => ({ ...clearImpedimento(f), entidadeId })))
      .returning({
        id: fornecedores.id,
        documento: fornecedores.documento,
        razaoSocial: fornecedores.razaoSocial,
        nomeFantasia: fornecedores.nomeFantasia,
        logradouro: fornecedores.logradouro,
        numero: fornecedores.numero,
        complemento: fornecedores.complemento,
        bairro: fornecedores.bairro,
        cep: fornecedores.cep,
        municipio: fornecedores.municipio,
        uf: fornecedores.uf,
        contatos: fornecedores.contatos,
        situacao: fornecedores.situacao,
        impedimentoMotivo: fornecedores.impedimentoMotivo,
        impedimentoDe: fornecedores.impedimentoDe,
        impedimentoAte: fornecedores.impedimentoAte,
        ativo: fornecedores.ativo,
      });
    const links = inserted.flatMap((row, j) => chunk[j]!.ramoIds.map((ramoId) => ({ fornecedorId: row.id, ramoId, entidadeId })));
    if (links.length) await tx.insert(fornecedorRamos).values(links);
    stored.push(...inserted.map((row, j) => ({ ...row, ramoIds: chunk[j]!.ramoIds })));
  }
  return stored;
}

type Linha = FornecedorImportRow & { ramoIds?: string[] };

/** Validates (dryRun) or imports a suppliers spreadsheet for the entidade. */
export async function importarFornecedores(options: {
  ctx: { db: DbOrTx; mutate: MutateFn };
  entidadeId: string;
  sheet: ParsedSheet & { filename?: string | undefined };
  dryRun: boolean;
}): Promise<ImportResult> {
  const { ctx, entidadeId, sheet, dryRun } = options;
  return importRows<Linha>({
    ctx,
    rows: sheet,
    filename: sheet.filename,
    schema: fornecedorImportRowSchema,
    columns: FORNECEDOR_IMPORT_COLUMNS,
    dryRun,
    unique: [
      {
        field: 'documento',
        existing: async (db, keys) =>
          (
            await db
              .select({ documento: fornecedores.documento })
              .from(fornecedores)
              .where(and(eq(fornecedores.entidadeId, entidadeId), inArray(fornecedores.documento, keys)))
          ).map((r) => r.documento),
        databaseMessage: DUPLICATE_DOCUMENT_MESSAGE,
        fileMessage: (linha) => `CPF/CNPJ repetido no arquivo (já aparece na linha ${linha}).`,
      },
    ],
    check: async (db, rows) => {
      const ramos = await db.select().from(ramosAtividade).where(eq(ramosAtividade.entidadeId, entidadeId));
      const byName = new Map(ramos.map((r) => [comprasBusca(r.nome), r]));
      const byCnae = new Map(ramos.filter((r) => r.cnae).map((r) => [r.cnae!, r]));
      const problems: RowProblem[] = [];
      for (const { linha, data } of rows) {
        const ids: string[] = [];
        for (const value of data.ramos) {
          const digits = value.replace(/\D/g, '');
          const ramo = (digits.length === 7 ? byCnae.get(digits) : undefined) ?? byName.get(comprasBusca(value));
          if (!ramo) problems.push({ linha, coluna: 'ramos', motivo: `Ramo de atividade '${value}' não encontrado em Registros (informe o nome ou o CNAE).` });
          else if (!ramo.ativo) problems.push({ linha, coluna: 'ramos', motivo: `O ramo de atividade '${ramo.nome}' está desativado.` });
          else if (!ids.includes(ramo.id)) ids.push(ramo.id);
        }
        data.ramoIds = ids;
      }
      return problems;
    },
    insert: (tx, rows) =>
      insertFornecedores(
        tx,
        entidadeId,
        rows.map(({ ramos: _ramos, ramoIds, ...f }) => ({ ...f, ramoIds: ramoIds ?? [] })),
      ),
  });
}
