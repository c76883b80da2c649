// The list, new and edit pages of /api/__ID____BASE_PATH__, from the resource kit (a lazy chunk).
import { defineResourcePages } from '@app/core';
import { __CAMEL__Columns, __CAMEL__Schema, __CONST___PATH, __CONST___TITLES } from '../../shared/index.js';

export default defineResourcePages({
  endpoint: `/__ID__${__CONST___PATH}`,
  ...__CONST___TITLES,
  columns: __CAMEL__Columns,
  defaultSort: 'nome',
  schema: __CAMEL__Schema,
  fields: [
    { name: 'nome', type: 'text', label: 'Nome', required: true, maxLength: 120, wide: true },
    { name: 'descricao', type: 'textarea', label: 'Descrição', maxLength: 500, rows: 3 },
  ],
});
