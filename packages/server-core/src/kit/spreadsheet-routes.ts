// defineSpreadsheetImport: the two routes of a spreadsheet import, from its columns and its importer:
//   GET  <path>/modelo?formato=xlsx|csv  the template (XLSX with an 'Instruções' sheet, or CSV)
//   POST <path>/importar?dryRun=true|false  validate (default) or import all rows or none
// Register it before `<path>/:id` routes (defineCrudResource) so 'modelo' is not taken for an id.
import { z } from '@hono/zod-openapi';
import type { RequestContext } from '../platform/context.js';
import { type PluginRouter, kitOperationId } from '../platform/router.js';
import {
  type ImportColumns,
  type ImportResult,
  type ParsedSheet,
  type SpreadsheetLimits,
  buildTemplate,
  fileResponse,
  parseDryRun,
  readSpreadsheetUpload,
} from '../formats/spreadsheet.js';

/** Answer of every `<path>/importar`. */
export const importResultSchema = z.object({
  ok: z.boolean(),
  dryRun: z.boolean(),
  total: z.number().int(),
  imported: z.number().int(),
  errorCount: z.number().int(),
  errors: z.array(z.object({ linha: z.number().int(), coluna: z.string(), motivo: z.string() })),
});

export interface SpreadsheetImportDefinition {
  /** e.g. '/produtos' → /produtos/modelo and /produtos/importar. */
  path: string;
  tag: number;
  /** For summaries and file names: 'produtos'. */
  plural: string;
  columns: ImportColumns;
  /** Name of the template's data sheet, e.g. 'Produtos'. */
  sheetName: string;
  /** Lines on top of the template's 'Instruções' sheet. */
  instructions?: string[];
  /**
   * Bounds of the file (default DEFAULT_SPREADSHEET_LIMITS: 10 000 data rows, 50 MB uncompressed);
   * a file over one answers 413 with a pt-BR message naming it. The file is read in a worker thread.
   */
  limits?: Partial<SpreadsheetLimits>;
  /** Validates (and unless dryRun imports) the rows in the session's entidade. */
  run: (options: { ctx: RequestContext; entidadeId: string; sheet: ParsedSheet; dryRun: boolean }) => Promise<ImportResult>;
}

export function defineSpreadsheetImport(router: PluginRouter, def: SpreadsheetImportDefinition): void {
  router.route({
    method: 'get',
    path: `${def.path}/modelo`,
    tag: def.tag,
    operationId: kitOperationId(router.pluginId, def.path, 'modelo'),
    summary: `Baixar modelo da planilha de importação de ${def.plural}`,
    request: { query: z.object({ formato: z.enum(['xlsx', 'csv']).default('xlsx') }) },
    responses: { 200: { description: 'Planilha modelo (XLSX com instruções, ou CSV)' } },
    handler: (c) => {
      const { formato } = c.req.valid('query');
      const file = buildTemplate({ columns: def.columns, format: formato, sheetName: def.sheetName, instructions: def.instructions });
      return fileResponse(c, file, `modelo-${def.plural}.${file.extension}`);
    },
  });

  router.route({
    method: 'post',
    path: `${def.path}/importar`,
    tag: def.tag,
    operationId: kitOperationId(router.pluginId, def.path, 'importar'),
    summary: `Importar ${def.plural} de uma planilha (.xlsx ou .csv)`,
    description:
      'Envie o arquivo como multipart/form-data (campo `arquivo`) ou como corpo bruto (Content-Type text/csv ou XLSX). ' +
      '`dryRun=true` (padrão) só valida; `dryRun=false` importa todas as linhas numa transação, ou nenhuma se houver erro. ' +
      'Limites: 10.000 linhas e 50 MB descompactados por arquivo (413 com a mensagem do limite).',
    request: { query: z.object({ dryRun: z.string().optional() }) },
    responses: {
      200: importResultSchema,
      413: { description: 'Planilha acima do limite de linhas ou de tamanho (mensagem em português com o limite)' },
      429: { description: 'Muitas planilhas sendo lidas ao mesmo tempo: tente novamente em instantes' },
    },
    handler: async (c, ctx) => {
      const sheet = await readSpreadsheetUpload(c, def.limits);
      const result = await def.run({ ctx, entidadeId: ctx.entidadeId, sheet, dryRun: parseDryRun(c.req.valid('query').dryRun) });
      return c.json(result, 200);
    },
  });
}
