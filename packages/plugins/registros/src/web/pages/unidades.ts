import { defineResourcePages } from '@app/core';
import { unidadeColumns, unidadeSchema } from '../../shared/index.js';
import { TITLES } from '../titles';

export default defineResourcePages({
  endpoint: '/registros/unidades',
  ...TITLES.unidades,
  description: 'Unidades de fornecimento dos produtos e serviços (UN, CX, KG, L, SV…).',
  columns: unidadeColumns,
  defaultSort: 'sigla',
  schema: unidadeSchema,
  defaults: { fracionavel: false },
  fields: [
    { name: 'sigla', type: 'text', label: 'Sigla', required: true, maxLength: 10, uppercase: true },
    { name: 'descricao', type: 'text', label: 'Descrição', required: true, maxLength: 60 },
    { name: 'fracionavel', type: 'checkbox', label: 'Fracionável', hint: 'Aceita quantidades com casas decimais (ex.: 2,5 kg).' },
  ],
});
