import { defineResourcePages } from '@app/core';
import { subgrupoColumns, subgrupoSchema } from '../../shared/index.js';
import { TITLES } from '../titles';
import { catalogoFields } from './catalogo';
import { grupoOptions } from './options';

export default defineResourcePages({
  endpoint: '/registros/subgrupos',
  ...TITLES.subgrupos,
  columns: subgrupoColumns,
  defaultSort: 'nome',
  recordLabel: (row) => String(row.nome ?? ''),
  schema: subgrupoSchema,
  filters: [{ name: 'grupoId', label: 'Grupo', source: grupoOptions }],
  fields: [
    { name: 'grupoId', type: 'select', label: 'Grupo', required: true, source: grupoOptions },
    { name: 'codigo', type: 'text', label: 'Código', required: true, maxLength: 20 },
    { name: 'nome', type: 'text', label: 'Nome', required: true, maxLength: 120, wide: true },
    ...catalogoFields,
  ],
});
