// @app/relatorios/shared: the tag of /reports, what its API answers (one zod schema for both halves)
// and how a cell is written for a person (the page, the PDF and the XLSX's text agree). The reports
// themselves are declared by the plugins that own their data, through the kit's RELATORIOS point.
import { formatDate, formatDateTime } from '@app/br';
import { formatDecimal, formatMoney } from '@app/documents';
import { z } from 'zod';

export * from './tag.js';

/** Rows a report may have (preview, PDF, XLSX); beyond, the person narrows the filters (400). */
export const MAX_LINHAS = 10_000;
/** Rows the page shows (sorted over all of them; the files carry all). */
export const LINHAS_NA_TELA = 500;

const tipoSchema = z.enum(['text', 'integer', 'decimal', 'money', 'date', 'datetime']);

export const colunaSchema = z.object({
  key: z.string(),
  label: z.string(),
  type: tipoSchema,
  places: z.number().int().optional(),
  total: z.boolean(),
});
export type Coluna = z.infer<typeof colunaSchema>;

export const filtroSchema = z.object({
  name: z.string(),
  label: z.string(),
  kind: z.enum(['date', 'ano', 'text', 'select']),
  options: z.array(z.object({ value: z.string(), label: z.string() })).optional(),
  required: z.boolean(),
  default: z.string().optional(),
});
export type Filtro = z.infer<typeof filtroSchema>;

export const relatorioResumoSchema = z.object({ id: z.string(), title: z.string(), description: z.string(), group: z.string() });
export type RelatorioResumo = z.infer<typeof relatorioResumoSchema>;

/** GET /api/relatorios: the reports the person may run. */
export const catalogoSchema = z.object({ items: z.array(relatorioResumoSchema) });

/** GET /api/relatorios/:id: the report's filters (options for the person) and columns. */
export const relatorioSchema = relatorioResumoSchema.extend({ filtros: z.array(filtroSchema), colunas: z.array(colunaSchema) });
export type Relatorio = z.infer<typeof relatorioSchema>;

/** GET /api/relatorios/:id/linhas: the rows (the first LINHAS_NA_TELA, sorted), the totals of all, what was asked. */
export const resultadoSchema = z.object({
  relatorio: relatorioSchema,
  /** The filters given, as a person reads them ('Período inicial: 01/01/2026'). */
  filtrosUsados: z.array(z.object({ label: z.string(), valor: z.string() })),
  linhas: z.array(z.record(z.string(), z.unknown())),
  totalLinhas: z.number().int(),
  /** Exact sums of the columns with a total (decimal strings; integers as text too). */
  totais: z.record(z.string(), z.string()),
  ordem: z.string().nullable(),
  direcao: z.enum(['asc', 'desc']),
  geradoEm: z.string(),
  geradoPor: z.string(),
});
export type Resultado = z.infer<typeof resultadoSchema>;

/** A cell as a person reads it: 'R$ 1.234,50', '31/03/2026', '1.234'. */
export function textoDaCelula(coluna: Pick<Coluna, 'type' | 'places'>, valor: unknown): string {
  if (valor === null || valor === undefined || valor === '') return '';
  switch (coluna.type) {
    case 'money':
      return formatMoney(String(valor));
    case 'decimal':
      return formatDecimal(String(valor), { min: coluna.places ?? 2 });
    case 'integer':
      return formatDecimal(String(valor));
    case 'date':
      return formatDate(String(valor));
    case 'datetime':
      return formatDateTime(String(valor));
    default:
      return String(valor);
  }
}

// ---------------------------------------------------------------------------------------------
// Files generated in the background (a report above MAX_LINHAS): the job relatorios.gerar

/** Rows a file made in the background may have (XLSX); beyond, the job fails asking for narrower filters. */
export const MAX_LINHAS_SEGUNDO_PLANO = 200_000;
/** Rows a PDF made in the background may have (a PDF of 50 000 rows is about 1 000 pages). */
export const MAX_LINHAS_PDF_SEGUNDO_PLANO = 50_000;
/** Default days a generated file is kept for download (env RELATORIOS_ARQUIVO_DIAS). */
export const ARQUIVO_DIAS_PADRAO = 7;

export const estadoArquivoSchema = z.enum(['na_fila', 'gerando', 'pronto', 'falhou']);
export type EstadoArquivo = z.infer<typeof estadoArquivoSchema>;
/** Queued or being made: what its owner cancels (the others are deleted), and what the page keeps polling. */
export const emAndamento = (estado: EstadoArquivo): boolean => estado === 'na_fila' || estado === 'gerando';

/** A file asked for in the background, as its owner sees it (GET /api/relatorios/:id/arquivos). */
export const arquivoSchema = z.object({
  id: z.string(),
  relatorioId: z.string(),
  titulo: z.string(),
  formato: z.enum(['pdf', 'xlsx']),
  filtrosUsados: z.array(z.object({ label: z.string(), valor: z.string() })),
  estado: estadoArquivoSchema,
  /** 'lendo' (rows being read), 'montando' (rows placed in the file), 'gravando' (the file written). */
  fase: z.enum(['lendo', 'montando', 'gravando']).nullable(),
  /** Rows read (fase lendo) or placed in the file (fase montando). */
  linhas: z.number().int(),
  /** All the rows, once read. */
  total: z.number().int().nullable(),
  erro: z.string().nullable(),
  nomeArquivo: z.string().nullable(),
  tamanho: z.number().int().nullable(),
  criadoEm: z.string(),
  concluidoEm: z.string().nullable(),
  /** Until when it may be downloaded (ready files). */
  expiraEm: z.string().nullable(),
});
export type Arquivo = z.infer<typeof arquivoSchema>;
export const arquivosSchema = z.object({ items: z.array(arquivoSchema) });

/** POST /api/relatorios/:id/arquivos (the filters in the query string, as for the preview). */
export const pedidoArquivoSchema = z.object({ formato: z.enum(['pdf', 'xlsx']) });

/** 'Na fila', 'Gerando 45 %', 'Gerando — 45.000 linhas lidas', 'Pronto — baixar até 09/03/2026 14:05', 'Falhou: motivo'. */
export function textoDoEstado(a: Pick<Arquivo, 'estado' | 'fase' | 'linhas' | 'total' | 'erro' | 'expiraEm'>): string {
  switch (a.estado) {
    case 'na_fila':
      return 'Na fila';
    case 'gerando':
      if (a.fase === 'montando' && a.total) return `Gerando ${Math.min(99, Math.floor((a.linhas * 100) / a.total))} %`;
      if (a.fase === 'gravando') return 'Gerando — gravando o arquivo';
      return `Gerando — ${a.linhas.toLocaleString('pt-BR')} ${a.linhas === 1 ? 'linha lida' : 'linhas lidas'}`;
    case 'pronto':
      return a.expiraEm ? `Pronto — baixar até ${formatDateTime(a.expiraEm)}` : 'Pronto';
    case 'falhou':
      return `Falhou: ${a.erro ?? 'erro inesperado'}`;
  }
}
