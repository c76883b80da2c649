import { formatDate } from '@app/br';
import { ADMIN_TAG, type FieldRenderProps, defineDocumentPages, registerFieldType, useHasTag } from '@app/core';
import { formatMoney, formatNumero } from '@app/documents';
import { Link } from 'wouter';
import { CATEGORIA_LABEL, type Categoria, fluxoRequisicao, requisicaoInputSchema } from '../../shared/index.js';
import { REQ_TITLES } from '../titles';
import { DispensaAlert, REQ_ENDPOINT, type Row, ValoresDaRequisicao, categorias, centros, dialogoDaDecisao, meusCentros, produto, tipos } from './common';

const podeAprovar = (row: Row) => Array.isArray(row.transicoes) && row.transicoes.includes('aprovar');

/** The pré-requisição item a line converts: kept in the body (the server checks it), shown as its number. */
interface Origem {
  id: string | null;
  texto: string;
}
const origemField = {
  render: ({ value, id }: FieldRenderProps) => {
    const origem = value as Origem | null;
    return (
      <span id={id} className="field__hint">
        {origem?.texto ? `Pré-requisição ${origem.texto}` : 'Direto'}
      </span>
    );
  },
  toForm: (_field: unknown, value: unknown, source: Row): Origem => {
    const pre = source.preRequisicao as { numero?: number; ano?: number } | null | undefined;
    return { id: typeof value === 'string' && value ? value : null, texto: pre?.numero ? formatNumero(pre.numero, pre.ano ?? null) : '' };
  },
  fromForm: (_field: unknown, value: unknown) => (value as Origem | null)?.id ?? null,
};
// registered (not `fieldTypes`): the items grid renders its extra columns of registered types
registerFieldType('origemPreRequisicao', origemField);

function ListActions() {
  // the administration (tag 3): alçadas and limites de dispensa
  const admin = useHasTag(ADMIN_TAG);
  const links = [
    ['~/requisicao?aguardandoMinha=1', 'Aguardando minha aprovação'],
    ['/pre-requisicao', 'Converter pré-requisições'],
  ];
  if (admin) links.push(['/alcadas', 'Alçadas'], ['/limites-dispensa', 'Limites de dispensa']);
  return links.map(([href, label]) => (
    <Link key={href} href={href!} className="button button--secondary">
      {label}
    </Link>
  ));
}

export default defineDocumentPages({
  endpoint: REQ_ENDPOINT,
  title: REQ_TITLES.title,
  newTitle: REQ_TITLES.newTitle,
  editTitle: REQ_TITLES.editTitle,
  description: 'O pedido formal de compra, aprovado nas alçadas que o valor exige por quem não o pediu.',
  documento: 'Requisição',
  feminino: true,
  flow: fluxoRequisicao,
  schema: requisicaoInputSchema,
  defaults: (session) => ({ centroCustoId: session?.centrosCusto?.[0] ?? '', categoria: 'compras' }),
  columns: [
    { key: 'data', header: 'Data', width: '7rem', value: (row: Row) => formatDate(String(row.data ?? '')) },
    { key: 'categoria', header: 'Categoria', value: (row: Row) => CATEGORIA_LABEL[row.categoria as Categoria] ?? '' },
    { key: 'centroCustoNome', header: 'Centro de custo' },
    { key: 'solicitanteNome', header: 'Solicitante' },
    { key: 'valorTotal', header: 'Valor estimado', width: '9rem', align: 'end', value: (row: Row) => formatMoney(row.valorTotal as string) },
  ],
  filters: [
    { name: 'aguardandoMinha', label: 'Aguardando minha aprovação', options: [{ value: '1', label: 'Somente as que aguardam a minha aprovação' }] },
    { name: 'categoria', label: 'Categoria', options: categorias },
    { name: 'centroCustoId', label: 'Centro de custo', source: centros },
    { name: 'tipoSolicitacaoId', label: 'Tipo de solicitação', source: tipos },
  ],
  fields: [
    { name: 'centroCustoId', type: 'select', label: 'Centro de custo', required: true, source: meusCentros },
    { name: 'tipoSolicitacaoId', type: 'select', label: 'Tipo de solicitação', required: true, source: tipos },
    {
      name: 'categoria',
      type: 'select',
      label: 'Categoria do objeto',
      required: true,
      options: categorias,
      hint: 'Decide o limite de dispensa (art. 75, I ou II, da Lei 14.133/2021).',
    },
    { name: 'dotacao', type: 'text', label: 'Dotação orçamentária', maxLength: 200 },
    { name: 'justificativa', type: 'textarea', label: 'Justificativa', required: true, rows: 5, maxLength: 5000, wide: true },
  ],
  items: {
    required: true,
    unitField: 'unidadeSigla',
    totalLabel: 'Valor total estimado',
    headers: { unitValue: 'Valor unitário estimado' },
    product: produto,
    // biome-ignore lint/suspicious/noExplicitAny: a plugin field type inside the items grid
    fields: [{ name: 'preRequisicaoItemId', type: 'origemPreRequisicao', label: 'Origem' } as any],
  },
  slots: {
    listActions: () => <ListActions />,
    rowActions: (row: Row) =>
      podeAprovar(row) ? (
        <Link
          href={`/aprovar/${String(row.id)}`}
          className="button button--primary button--sm"
          aria-label={`Aprovar requisição ${String(row.numero)}/${String(row.ano)}`}
        >
          Aprovar
        </Link>
      ) : null,
    actions: (row: Row) =>
      row.status === 'em_aprovacao' || row.status === 'aprovada' || row.status === 'reprovada' ? (
        <Link href={`/aprovar/${String(row.id)}`} className={`button ${podeAprovar(row) ? 'button--primary' : 'button--secondary'}`}>
          {podeAprovar(row) ? 'Analisar para aprovação' : 'Aprovação'}
        </Link>
      ) : null,
    panels: (row: Row) => (
      <>
        <DispensaAlert id={String(row.id)} version={row.version} />
        <ValoresDaRequisicao row={row} />
      </>
    ),
    // the dispensa alert where the decision is taken: shown when sending, acknowledged when approving
    transitionDialog: dialogoDaDecisao,
  },
  timelineLabels: {
    solicitanteId: 'Solicitante',
    valorTotal: 'Valor total estimado',
    valorAprovado: 'Valor aprovado',
    valorPesquisado: 'Valor pesquisado (cotação)',
    valorAprovadoVigente: 'Valor aprovado comparado',
    origem: 'Pesquisa de preços',
    reaprovacao: 'Voltou para aprovação',
    porSubstituicao: 'Aprovação por substituição',
    alertasDispensaVistos: 'Alerta de dispensa visto',
    motivo: 'Motivo',
    nivelAtual: 'Nível aguardado',
    niveis: 'Níveis de aprovação',
    ciclo: 'Rodada de aprovação',
    'itens.preRequisicaoItemId': 'Item da pré-requisição',
  },
  timelineFormats: { valorAprovado: 'money', valorPesquisado: 'money', valorAprovadoVigente: 'money' },
});
