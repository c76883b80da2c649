import { defineResourcePages } from '@app/core';
import { grupoColumns, grupoSchema } from '../../shared/index.js';
import { TITLES } from '../titles';
import { catalogoFields } from './catalogo';

export default defineResourcePages({
  endpoint: '/registros/grupos',
  ...TITLES.grupos,
  description: 'Agrupam os produtos e serviços do catálogo e podem apontar para a Classe (CATMAT) ou o Grupo (CATSER).',
  columns: grupoColumns,
  defaultSort: 'nome',
  recordLabel: (row) => String(row.nome ?? ''),
  schema: grupoSchema,
  fields: [
    { name: 'codigo', type: 'text', label: 'Código', required: true, maxLength: 20 },
    { name: 'nome', type: 'text', label: 'Nome', required: true, maxLength: 120, wide: true },
    ...catalogoFields,
  ],
});
