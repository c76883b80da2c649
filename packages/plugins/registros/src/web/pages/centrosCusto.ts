import { defineResourcePages } from '@app/core';
import { centroCustoColumns, centroCustoSchema } from '../../shared/index.js';
import { TITLES } from '../titles';
import { centroCustoOptions } from './options';

export default defineResourcePages({
  endpoint: '/registros/centros-custo',
  ...TITLES.centrosCusto,
  description: 'Secretarias, departamentos e unidades que originam as demandas.',
  columns: centroCustoColumns,
  defaultSort: 'codigo',
  recordLabel: (row) => String(row.nome ?? ''),
  schema: centroCustoSchema,
  fields: [
    { name: 'codigo', type: 'text', label: 'Código', required: true, maxLength: 20, hint: 'Ex.: 02.03' },
    { name: 'nome', type: 'text', label: 'Nome', required: true, maxLength: 150, wide: true },
    {
      name: 'parentId',
      type: 'select',
      label: 'Centro de custo superior',
      placeholder: 'Nenhum (centro de custo principal)',
      source: { ...centroCustoOptions, excludeSelf: true },
    },
    { name: 'responsavelNome', type: 'text', label: 'Responsável', maxLength: 120, autoComplete: 'name' },
  ],
});
