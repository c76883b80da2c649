import { defineResourcePages } from '@app/core';
import { formatMoney } from '@app/documents';
import { alcadaInputSchema } from '../../shared/index.js';
import { ALCADAS_TITLES } from '../titles';
import { type Row, centros } from './common';

const usuarios = { endpoint: '/usuarios/usuarios', label: (u: Row) => `${String(u.nome)} (${String(u.login)})` };

/** /requisicao/alcadas (tag 3): the approval levels of the entidade, who approves at each. */
export default defineResourcePages({
  endpoint: '/requisicoes/alcadas',
  base: '/alcadas',
  ...ALCADAS_TITLES,
  description:
    'Níveis de aprovação das requisições: cada nível se aplica a partir do valor indicado (inclusive). Um nível de um centro de custo substitui o geral para aquele centro. Quando ninguém do nível pode decidir (quem pediu não aprova, ninguém aprova dois níveis), decidem os aprovadores do nível superior e, sem eles, os substitutos.',
  noun: 'Alçada',
  feminine: true,
  ativo: false,
  defaultSort: 'nivel',
  recordLabel: (row: Row) => `nível ${String(row.nivel)} (${String(row.nome)})`,
  columns: [
    { key: 'nivel', header: 'Nível', width: '6rem' },
    { key: 'nome', header: 'Nome' },
    { key: 'valorMinimo', header: 'A partir de', align: 'end', value: (row: Row) => formatMoney(row.valorMinimo as string) },
  ],
  fields: [
    { name: 'nivel', type: 'number', label: 'Nível', required: true, min: 1, max: 20, step: 1 },
    { name: 'nome', type: 'text', label: 'Nome do nível', required: true, maxLength: 100, placeholder: 'Chefia' },
    {
      name: 'valorMinimo',
      type: 'text',
      label: 'A partir de (R$)',
      required: true,
      hint: 'Valor total a partir do qual o nível se aplica, por exemplo 10.000,00.',
    },
    { name: 'centroCustoId', type: 'select', label: 'Centro de custo', source: centros, hint: 'Vazio: vale para todos os centros de custo.' },
    { name: 'perfis', type: 'multiselect', label: 'Perfis aprovadores', source: { endpoint: '/usuarios/perfis', label: (p) => String(p.nome) }, wide: true },
    { name: 'usuarios', type: 'multiselect', label: 'Usuários aprovadores', source: usuarios, wide: true },
    {
      name: 'substitutos',
      type: 'multiselect',
      label: 'Substitutos',
      hint: 'Decidem o nível (por substituição) quando nenhum aprovador dele nem do nível superior pode: por exemplo, quando o único aprovador pediu a requisição.',
      source: usuarios,
      wide: true,
    },
  ],
  schema: alcadaInputSchema,
});
