import { defineResourcePages } from '@app/core';
import { formatDate } from '@app/br';
import { LOA_PATH, LOA_TITLES, loaInputSchema } from '../../shared/index.js';

type Row = Record<string, unknown>;

/** /elabora-pca/loa (tag 3): when each year's budget law was published; its 15 days are a revision window of that year's plan. */
export default defineResourcePages({
  endpoint: `/pca${LOA_PATH}`,
  base: '/loa',
  ...LOA_TITLES,
  description:
    'A data de publicação da Lei Orçamentária Anual de cada ano: nos 15 dias seguintes, o plano de contratações desse ano pode ser revisado sem justificativa (além de 15/09 a 15/11 do ano anterior).',
  noun: 'Publicação',
  ativo: false,
  defaultSort: '-ano',
  recordLabel: (row: Row) => `LOA de ${String(row.ano)}`,
  columns: [
    { key: 'ano', header: 'Ano', width: '6rem', value: (row: Row) => String(row.ano) }, // a year, not '2.027'
    { key: 'dataPublicacao', header: 'Data de publicação', value: (row: Row) => formatDate(String(row.dataPublicacao)) },
    { key: 'lei', header: 'Lei' },
  ],
  fields: [
    { name: 'ano', type: 'number', label: 'Ano da LOA (exercício)', required: true, min: 2000, max: 9999, step: 1 },
    { name: 'dataPublicacao', type: 'date', label: 'Data de publicação', required: true },
    { name: 'lei', type: 'text', label: 'Lei', maxLength: 120, hint: 'Por exemplo Lei nº 1.234, de 20/12/2026.' },
  ],
  schema: loaInputSchema,
});
