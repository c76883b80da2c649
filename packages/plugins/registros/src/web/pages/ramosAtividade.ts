import { defineResourcePages } from '@app/core';
import { ramoAtividadeColumns, ramoAtividadeSchema } from '../../shared/index.js';
import { TITLES } from '../titles';

export default defineResourcePages({
  endpoint: '/registros/ramos-atividade',
  ...TITLES.ramosAtividade,
  description: 'Ramos de atividade dos fornecedores, com a subclasse CNAE.',
  columns: ramoAtividadeColumns,
  defaultSort: 'nome',
  schema: ramoAtividadeSchema,
  fields: [
    { name: 'nome', type: 'text', label: 'Nome', required: true, maxLength: 150, wide: true },
    { name: 'cnae', type: 'masked', label: 'CNAE (subclasse)', mask: '9999-9/99', hint: 'Ex.: 4761-0/03' },
  ],
});
