import { UFS, formatCpfCnpj, formatDate, normalizeDocument } from '@app/br';
import { defineResourcePages } from '@app/core';
import { Link } from 'wouter';
import { SITUACAO_LABEL, type Situacao, TIPO_PESSOA_LABEL, fornecedorInputSchema } from '../../shared/index.js';
import { ENDPOINT, TITLES } from '../titles';

type Row = Record<string, unknown>;

const impedido = (v: Row) => v.situacao === 'impedido';
const pessoaFisica = (v: Row) => /^\d{11}$/.test(normalizeDocument(String(v.documento ?? '')));
const options = (labels: Record<string, string>) => Object.entries(labels).map(([value, label]) => ({ value, label }));

/** List, New and Edit of 'Fornecedores' from the resource kit (validated by the shared schema). */
const pages = defineResourcePages({
  endpoint: ENDPOINT,
  ...TITLES,
  description: 'Pessoas físicas e jurídicas que fornecem à entidade.',
  schema: fornecedorInputSchema,
  defaultSort: 'razaoSocial',
  recordLabel: (row) => String(row.razaoSocial),
  describe: (row) => `${formatCpfCnpj(String(row.documento))} · ${String(row.razaoSocial)} · ${SITUACAO_LABEL[row.situacao as Situacao] ?? ''}`,
  // the supplier's status is its situação (ativo, inativo, impedido)
  noToggle: true,
  messages: {
    saved: 'Fornecedor salvo.',
    deleted: 'Fornecedor excluído.',
    deleteNote: 'Fornecedores já usados em documentos não podem ser excluídos: mude a situação para Inativo.',
  },
  defaults: { situacao: 'ativo', contatos: [], ramoIds: [] },
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
    { name: 'situacao', label: 'Situação cadastral', options: options(SITUACAO_LABEL) },
    { name: 'tipoPessoa', label: 'Tipo de pessoa', options: options(TIPO_PESSOA_LABEL) },
  ],
  fields: [
    { section: 'Identificação', name: 'documento', type: 'document', label: 'CPF ou CNPJ', required: true },
    { section: 'Identificação', name: 'razaoSocial', type: 'text', label: (v) => (pessoaFisica(v) ? 'Nome' : 'Razão social'), required: true, maxLength: 200 },
    { section: 'Identificação', name: 'nomeFantasia', type: 'text', label: 'Nome fantasia', maxLength: 200 },
    { section: 'Endereço', name: 'cep', type: 'masked', mask: 'cep', label: 'CEP', required: true },
    { section: 'Endereço', name: 'logradouro', type: 'text', label: 'Logradouro', required: true, maxLength: 200 },
    { section: 'Endereço', name: 'numero', type: 'text', label: 'Número', maxLength: 20 },
    { section: 'Endereço', name: 'complemento', type: 'text', label: 'Complemento', maxLength: 100 },
    { section: 'Endereço', name: 'bairro', type: 'text', label: 'Bairro', maxLength: 100 },
    { section: 'Endereço', name: 'municipio', type: 'text', label: 'Município', required: true, maxLength: 100 },
    { section: 'Endereço', name: 'uf', type: 'select', label: 'UF', required: true, options: UFS.map((uf) => ({ value: uf, label: uf })) },
    {
      section: 'Contatos',
      name: 'contatos',
      type: 'group',
      label: 'Contatos',
      itemLabel: 'Contato',
      rowLabel: (label, n) => `${label} do contato ${n}`,
      emptyText: 'Nenhum contato. Use “Adicionar contato”.',
      max: 20,
      fields: [
        { name: 'nome', type: 'text', label: 'Nome', maxLength: 120 },
        { name: 'email', type: 'text', inputType: 'email', label: 'E-mail' },
        { name: 'telefone', type: 'masked', mask: 'telefone', label: 'Telefone' },
      ],
    },
    {
      section: 'Ramos de atividade',
      name: 'ramoIds',
      type: 'multiselect',
      label: 'Ramos de atividade',
      required: true,
      hint: 'Escolha ao menos um.',
      source: { endpoint: '/registros/ramos-atividade', sort: 'nome', label: (r) => (r.cnae ? `${String(r.nome)} (CNAE ${String(r.cnae)})` : String(r.nome)) },
    },
    {
      section: 'Situação',
      name: 'situacao',
      type: 'select',
      label: 'Situação',
      required: true,
      hint: 'Inativo: sai das listas de escolha. Impedido: exige motivo e período.',
      options: options(SITUACAO_LABEL),
    },
    { section: 'Situação', name: 'impedimentoDe', type: 'date', label: 'Impedido de', required: true, visibleWhen: impedido },
    { section: 'Situação', name: 'impedimentoAte', type: 'date', label: 'Impedido até', required: true, visibleWhen: impedido },
    {
      section: 'Situação',
      name: 'impedimentoMotivo',
      type: 'textarea',
      label: 'Motivo do impedimento',
      required: true,
      rows: 3,
      maxLength: 1000,
      visibleWhen: impedido,
    },
  ],
});

/** '/fornecedor': the kit's list with 'Importar planilha'. */
function List() {
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

export default { ...pages, List };
