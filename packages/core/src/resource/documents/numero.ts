import { formatNumero } from '@app/documents';

type Row = Record<string, unknown>;

/** '12/2026' of a record ('' before it has a number). */
export const numeroOf = (row: Row): string => formatNumero(row.numero as number | null | undefined, row.ano as number | null | undefined);
