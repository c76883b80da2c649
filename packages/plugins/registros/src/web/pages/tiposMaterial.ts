import { defineResourcePages } from '@app/core';
import { tipoMaterialColumns, tipoMaterialSchema } from '../../shared/index.js';
import { TITLES } from '../titles';

export default defineResourcePages({
  endpoint: '/registros/tipos-material',
  ...TITLES.tiposMaterial,
  columns: tipoMaterialColumns,
  defaultSort: 'nome',
  schema: tipoMaterialSchema,
  fields: [
    { name: 'nome', type: 'text', label: 'Nome', required: true, maxLength: 80, wide: true },
    { name: 'descricao', type: 'textarea', label: 'Descrição', maxLength: 500, rows: 3 },
  ],
});
