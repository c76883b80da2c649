import { defineResourcePages } from '@app/core';
import { formatMoney } from '@app/documents';
import { CATEGORIA_ARTIGO, CATEGORIA_LABEL, CATEGORIAS, type Categoria, limiteDispensaInputSchema } from '../../shared/index.js';
import { LIMITES_TITLES } from '../titles';
import type { Row } from './common';

/** /requisicao/limites-dispensa (tag 3): the year-versioned dispensa limits (Lei 14.133, art. 75 I and II). */
export default defineResourcePages({
  endpoint: '/requisicoes/limites-dispensa',
  base: '/limites-dispensa',
  ...LIMITES_TITLES,
  description:
    'Valores-limite da dispensa de licitação por ano (art. 75, I e II, da Lei 14.133/2021): o alerta de fracionamento usa o limite do ano mais recente até o da requisição.',
  noun: 'Limite',
  ativo: false,
  defaultSort: '-ano',
  recordLabel: (row: Row) => `${String(row.ano)} – ${CATEGORIA_LABEL[row.categoria as Categoria] ?? ''}`,
  columns: [
    { key: 'ano', header: 'Ano', width: '6rem', value: (row: Row) => String(row.ano) }, // a year, not '2.026'
    { key: 'categoria', header: 'Categoria', value: (row: Row) => CATEGORIA_LABEL[row.categoria as Categoria] ?? '' },
    { key: 'artigo', header: 'Fundamento', sortable: false, value: (row: Row) => CATEGORIA_ARTIGO[row.categoria as Categoria] ?? '' },
    { key: 'valor', header: 'Limite', align: 'end', value: (row: Row) => formatMoney(row.valor as string) },
  ],
  fields: [
    { name: 'ano', type: 'number', label: 'Ano', required: true, min: 2000, max: 9999, step: 1 },
    { name: 'categoria', type: 'select', label: 'Categoria', required: true, options: CATEGORIAS.map((value) => ({ value, label: CATEGORIA_LABEL[value] })) },
    { name: 'valor', type: 'text', label: 'Limite (R$)', required: true, hint: 'Por exemplo 65.492,11.' },
  ],
  schema: limiteDispensaInputSchema,
});
