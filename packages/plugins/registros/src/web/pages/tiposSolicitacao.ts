import { defineResourcePages } from '@app/core';
import { tipoSolicitacaoColumns, tipoSolicitacaoSchema } from '../../shared/index.js';
import { TITLES } from '../titles';

export default defineResourcePages({
  endpoint: '/registros/tipos-solicitacao',
  ...TITLES.tiposSolicitacao,
  columns: tipoSolicitacaoColumns,
  defaultSort: 'nome',
  schema: tipoSolicitacaoSchema,
  fields: [
    { name: 'nome', type: 'text', label: 'Nome', required: true, maxLength: 100, wide: true },
    { name: 'prazoDias', type: 'number', label: 'Prazo de atendimento (dias)', min: 0, max: 3650 },
    { name: 'descricao', type: 'textarea', label: 'Descrição', maxLength: 500, rows: 3 },
  ],
});
