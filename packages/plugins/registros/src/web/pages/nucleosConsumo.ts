import { defineResourcePages } from '@app/core';
import { nucleoConsumoColumns, nucleoConsumoSchema } from '../../shared/index.js';
import { TITLES } from '../titles';
import { centroCustoOptions } from './options';

export default defineResourcePages({
  endpoint: '/registros/nucleos-consumo',
  ...TITLES.nucleosConsumo,
  description: 'Agrupam centros de custo que consomem os mesmos materiais.',
  columns: nucleoConsumoColumns,
  defaultSort: 'nome',
  schema: nucleoConsumoSchema,
  defaults: { centroIds: [] },
  fields: [
    { name: 'nome', type: 'text', label: 'Nome', required: true, maxLength: 120, wide: true },
    { name: 'descricao', type: 'textarea', label: 'Descrição', maxLength: 500, rows: 3 },
    { name: 'centroIds', type: 'multiselect', label: 'Centros de custo do núcleo', source: centroCustoOptions },
  ],
});
