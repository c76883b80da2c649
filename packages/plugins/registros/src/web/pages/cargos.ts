import { defineResourcePages } from '@app/core';
import { cargoColumns, cargoSchema } from '../../shared/index.js';
import { TITLES } from '../titles';

export default defineResourcePages({
  endpoint: '/registros/cargos',
  ...TITLES.cargos,
  columns: cargoColumns,
  defaultSort: 'nome',
  schema: cargoSchema,
  fields: [
    { name: 'nome', type: 'text', label: 'Nome', required: true, maxLength: 100, wide: true },
    { name: 'descricao', type: 'textarea', label: 'Descrição', maxLength: 500, rows: 3 },
  ],
});
