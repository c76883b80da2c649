import { defineResourcePages } from '@app/core';
import { formatDate } from '@app/ui';
import { Link } from 'wouter';
import { SITUACAO_LABEL, TIPO_PESSOA_LABEL, fornecedorInputSchema } from '../../shared/index.js';
import { ENDPOINT, TITLES } from '../titles';

type Row = Record<string, unknown>;

/** The list comes from the resource kit; the form is this plugin's own (contacts, impedimento). */
const pages = defineResourcePages({
  endpoint: ENDPOINT,
  ...TITLES,
  description: 'Pessoas físicas e jurídicas que fornecem à entidade.',
  schema: fornecedorInputSchema,
  defaultSort: 'razaoSocial',
  recordLabel: (row) => String(row.razaoSocial),
  columns: [
    { key: 'razaoSocial', header: 'Razão social' },
    {
      key: 'documento',
      header: 'CPF/CNPJ',
      value: (row) => String(row.documentoFormatado ?? row.documento),
      render: (row) => <span style={{ whiteSpace: 'nowrap' }}>{String(row.documentoFormatado ?? row.documento)}</span>,
    },
    { key: 'nomeFantasia', header: 'Nome fantasia' },
    { key: 'municipio', header: 'Município', value: (row) => `${String(row.municipio)}/${String(row.uf)}` },
    {
      key: 'situacao',
      header: 'Impedimento',
      value: (row: Row) => (row.situacao === 'impedido' ? `Impedido até ${formatDate(String(row.impedimentoAte ?? ''))}` : '—'),
    },
  ],
  filters: [
    { name: 'situacao', label: 'Situação cadastral', options: Object.entries(SITUACAO_LABEL).map(([value, label]) => ({ value, label })) },
    { name: 'tipoPessoa', label: 'Tipo de pessoa', options: Object.entries(TIPO_PESSOA_LABEL).map(([value, label]) => ({ value, label })) },
  ],
  fields: [],
});

/** '/fornecedor': the kit's list with 'Importar planilha'. */
export default function ListaFornecedores() {
  return (
    <>
      <nav aria-label="Importação" className="form-actions" style={{ marginTop: 0, marginBottom: '0.5rem' }}>
        <Link href="/importar" className="button button--secondary button--sm">
          Importar planilha
        </Link>
      </nav>
      <pages.List />
    </>
  );
}
