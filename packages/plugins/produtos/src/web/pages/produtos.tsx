import { type ResourceOptionsSource, defineResourcePages, queryKeys, useApi, useQuery } from '@app/core';
import { Alert } from '@app/ui';
import { Link } from 'wouter';
import { TIPO_ITEM_LABEL, type TipoItem, produtoInputSchema } from '../../shared/index.js';
import { TITLES } from '../titles';

type Row = Record<string, unknown>;

const codigoNome = (row: Row) => `${String(row.codigo ?? '')} – ${String(row.nome ?? '')}`;
const grupos: ResourceOptionsSource = { endpoint: '/registros/grupos', label: codigoNome, sort: 'codigo' };
const subgrupos: ResourceOptionsSource = {
  endpoint: '/registros/subgrupos',
  label: codigoNome,
  sort: 'codigo',
  // only the sub-grupos of the chosen grupo
  params: (values) => ({ grupoId: values.grupoId ? String(values.grupoId) : '00000000-0000-0000-0000-000000000000' }),
};
const unidades: ResourceOptionsSource = { endpoint: '/registros/unidades', label: (r) => `${String(r.sigla)} – ${String(r.descricao)}`, sort: 'sigla' };
const tiposMaterial: ResourceOptionsSource = { endpoint: '/registros/tipos-material', label: (r) => String(r.nome), sort: 'nome' };

const TIPO_OPTIONS = [
  { value: 'material', label: 'Material' },
  { value: 'servico', label: 'Serviço' },
];

const pages = defineResourcePages({
  endpoint: '/produtos/produtos',
  ...TITLES,
  description: 'Catálogo de materiais e serviços (CATMAT/CATSER) usado nos documentos de compra.',
  schema: produtoInputSchema,
  defaultSort: 'descricao',
  defaults: { tipo: 'material' },
  recordLabel: (row) => `${String(row.codigo)} – ${String(row.descricao)}`,
  columns: [
    { key: 'descricao', header: 'Descrição' },
    { key: 'codigo', header: 'Código', width: '8rem' },
    { key: 'tipo', header: 'Tipo', value: (row) => TIPO_ITEM_LABEL[row.tipo as TipoItem] ?? String(row.tipo), width: '7rem' },
    { key: 'grupoNome', header: 'Grupo' },
    { key: 'unidadeSigla', header: 'Unidade', width: '7rem' },
    { key: 'codigoCatalogo', header: 'CATMAT/CATSER', width: '9rem' },
  ],
  slots: {
    // in the header beside Exportar: a row of its own cost the list a visible row at 1366×768
    listActions: (
      <Link href="/importar" className="button button--secondary">
        Importar planilha
      </Link>
    ),
    panels: (row) => (
      <>
        <ClassificacaoPendente row={row} />
        <UsoProduto id={String(row.id)} />
      </>
    ),
  },
  filters: [
    { name: 'tipo', label: 'Tipo', options: TIPO_OPTIONS },
    { name: 'grupoId', label: 'Grupo', source: grupos },
  ],
  fields: [
    { name: 'descricao', type: 'text', label: 'Descrição', required: true, maxLength: 500, wide: true },
    { name: 'codigo', type: 'text', label: 'Código', maxLength: 30, hint: 'Deixe vazio para numerar automaticamente.' },
    { name: 'tipo', type: 'select', label: 'Material ou serviço', required: true, options: TIPO_OPTIONS },
    { name: 'grupoId', type: 'select', label: 'Grupo', required: true, source: grupos },
    { name: 'subGrupoId', type: 'select', label: 'Sub-grupo', source: subgrupos, hint: 'Sub-grupos do grupo escolhido.' },
    { name: 'unidadeId', type: 'select', label: 'Unidade de fornecimento', required: true, source: unidades },
    { name: 'tipoMaterialId', type: 'select', label: 'Tipo de material', source: tiposMaterial, hint: 'Só para materiais; ignorado em serviços.' },
    { name: 'codigoCatalogo', type: 'text', label: 'Código CATMAT/CATSER', maxLength: 9, hint: 'Código do item no catálogo federal (apenas números).' },
    {
      name: 'classeCnbsCodigo',
      type: 'text',
      label: 'Classe ou grupo do CNBS: código',
      maxLength: 10,
      hint: 'Classe (material) ou grupo (serviço) do item no CNBS; o Plano de Contratações Anual o envia ao PNCP.',
    },
    { name: 'classeCnbsNome', type: 'text', label: 'Classe ou grupo do CNBS: nome', maxLength: 255 },
    { name: 'pdmCodigo', type: 'text', label: 'PDM: código', maxLength: 10, hint: 'Padrão Descritivo de Material do CNBS; só para materiais.' },
    { name: 'pdmDescricao', type: 'text', label: 'PDM: descrição', maxLength: 255 },
    { name: 'especificacao', type: 'textarea', label: 'Especificação', rows: 5, maxLength: 5000 },
  ],
});

/** A CATMAT/CATSER item without its CNBS classe: the plan (PCA) cannot send it to the PNCP until it is filled in. */
function ClassificacaoPendente({ row }: { row: Row }) {
  if (!row.codigoCatalogo || row.classeCnbsCodigo) return null;
  return (
    <div style={{ marginTop: '1rem' }} data-testid="produto-classe-cnbs">
      <Alert variant="warning" title="Falta a classe ou o grupo do CNBS">
        O item tem código CATMAT/CATSER, mas não a classe (material) ou o grupo (serviço) do CNBS: o Plano de Contratações Anual precisa deles para enviar o
        item ao PNCP. Informe-os nos campos acima.
      </Alert>
    </div>
  );
}

/** Where the product is used (the descrição is locked and it cannot be deleted), under the kit's form. */
function UsoProduto({ id }: { id: string }) {
  const api = useApi();
  const usos = useQuery({
    queryKey: queryKeys.view('/produtos/produtos', id, 'usos'),
    queryFn: () => api.get(`produtos/produtos/${encodeURIComponent(id)}/usos`).json<{ emUso: boolean; texto: string | null }>(),
  });
  if (!usos.data?.emUso) return null;
  return (
    <div style={{ marginTop: '1rem' }} data-testid="produto-em-uso">
      <Alert variant="info" title="Produto em uso">
        {usos.data.texto}. A descrição não pode ser alterada e o produto não pode ser excluído; desative-o para retirá-lo das listas de escolha.
      </Alert>
    </div>
  );
}

export default pages;
