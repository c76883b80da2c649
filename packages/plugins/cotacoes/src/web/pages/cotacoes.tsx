// /cotacao: the cotações on the document kit: the list (número, objeto, situação, itens, preços
// coletados, prazo), the new form (método from the entidade's configuração), edit (links to the
// collection of prices and the mapa comparativo, the method in force), duplicar, and the dialog of
// 'Iniciar coleta' (the prazo de resposta, or starting without one).
import { formatDateTime, instantFromDateTimeInput, today } from '@app/br';
import {
  ADMIN_TAG,
  type DocumentConfig,
  type FieldRenderProps,
  type ResourceOptionsSource,
  type TransitionDialogState,
  defineDocumentPages,
  registerFieldType,
  useHasTag,
} from '@app/core';
import { formatNumero } from '@app/documents';
import { REQUISICOES_TAG } from '@app/requisicoes/shared';
import { Card, CheckboxField, PageLoading, TextField } from '@app/ui';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { METODO_LABEL, METODOS, type Metodo, cotacaoInputSchema, descreverMetodo, fluxoCotacao } from '../../shared/index.js';
import { COTACOES_ENDPOINT, useConfiguracao } from '../components/comum';
import { COTACAO_TITLES } from '../titles';

type Row = Record<string, unknown>;

declare module '@app/core' {
  interface CustomFieldTypes {
    /** The requisição a cotação prices (read-only link; kept in the body). */
    cotacaoRequisicao: Record<never, never>;
    /** Whether an item came from the requisição (read-only; its requisicaoItemId kept in the body). */
    cotacaoOrigemItem: Record<never, never>;
  }
}

const numero = (row: Row) => formatNumero(row.numero as number | null, row.ano as number | null);
const metodos = METODOS.map((value) => ({ value, label: METODO_LABEL[value] }));

// the plugin's own pickers (tag 73): a comprador need not hold Cadastros nor Produtos
const centros: ResourceOptionsSource = { endpoint: '/cotacoes/centros-custo', label: (c) => `${String(c.codigo)} – ${String(c.nome)}` };
const produto = {
  endpoint: '/cotacoes/produtos',
  label: (p: Row) => `${String(p.codigo)} – ${String(p.descricao)}`,
  description: (p: Row) => (p.unidadeSigla ? String(p.unidadeSigla) : undefined),
  fill: (p: Row) => ({ unidadeSigla: p.unidadeSigla }),
};

/** The requisição of the cotação as the form holds it: its id (sent) and its number (shown). */
interface Vinculo {
  id: string | null;
  texto: string;
}
/** A non-empty string id, or null. */
const idOuNulo = (value: unknown) => (typeof value === 'string' && value ? value : null);
const vinculoDe = (value: unknown): Vinculo | null => {
  const v = value as Vinculo | null | undefined;
  return v?.id ? v : null;
};

function RequisicaoVinculo({ id, label, value }: FieldRenderProps) {
  const podeAbrir = useHasTag(REQUISICOES_TAG);
  const vinculo = vinculoDe(value);
  if (!vinculo) return null;
  const texto = `Requisição ${vinculo.texto}`;
  return (
    <div className="field">
      <span className="field__label">{label}</span>
      {podeAbrir ? (
        <Link id={id} href={`~/requisicao/edit/${vinculo.id}`}>
          {texto}
        </Link>
      ) : (
        <span id={id}>{texto}</span>
      )}
      <p className="field__hint">Ao concluir, os itens ligados a ela recebem os preços estimados.</p>
    </div>
  );
}

registerFieldType<{ name: string }>('cotacaoRequisicao', {
  render: RequisicaoVinculo,
  toForm: (_field, value, source): Vinculo => ({
    id: idOuNulo(value),
    texto: typeof source.requisicaoNumero === 'string' ? source.requisicaoNumero : '',
  }),
  fromForm: (_field, value) => vinculoDe(value)?.id ?? null,
});

// registered (not `fieldTypes`): the items grid renders its extra columns of registered types
registerFieldType<{ name: string }>('cotacaoOrigemItem', {
  render: ({ id, label, value, record }: FieldRenderProps) => (
    <>
      <span className="items-grid__cell-label">{label}</span>
      <span id={id} className="text-sub">
        {value ? `Requisição ${typeof record?.requisicaoNumero === 'string' ? record.requisicaoNumero : ''}`.trim() : 'Incluído na cotação'}
      </span>
    </>
  ),
  toForm: (_field, value) => idOuNulo(value),
  fromForm: (_field, value) => idOuNulo(value),
});

function ListActions() {
  const admin = useHasTag(ADMIN_TAG);
  return (
    <>
      <Link href="/de-requisicao" className="button button--secondary">
        Nova a partir de requisição
      </Link>
      {admin ? (
        <Link href="/configuracao" className="button button--secondary">
          Configuração
        </Link>
      ) : null}
    </>
  );
}

const FERRAMENTAS = [
  ['add', 'Coleta', COTACAO_TITLES.addTitle],
  ['mapa', 'Mapa', COTACAO_TITLES.mapaTitle],
] as const;

/**
 * Links of a cotação to its collection of prices and its mapa comparativo (a list row or the edit
 * page). In a row (sm) the visible words are short ('Coleta', 'Mapa': the row stays one line at
 * 1366 px, issue 24), the whole name read and shown as a title.
 */
function Ferramentas({ row, sm }: { row: Row; sm?: boolean }) {
  const id = encodeURIComponent(String(row.id));
  const nome = `da cotação ${numero(row)}`;
  const classe = `button button--secondary${sm ? ' button--sm' : ''}`;
  return FERRAMENTAS.map(([rota, curto, longo]) => (
    <Link key={rota} href={`/${rota}/${id}`} className={classe} aria-label={sm ? `${longo} ${nome}` : undefined} title={sm ? `${longo} ${nome}` : undefined}>
      {sm ? curto : longo}
    </Link>
  ));
}

function MetodoPanel({ row }: { row: Row }) {
  const metodo = row.metodo as Metodo;
  if (!METODO_LABEL[metodo]) return null;
  return (
    <Card title="Método de cálculo">
      <p>
        <strong>{METODO_LABEL[metodo]}</strong>
      </p>
      <p>{descreverMetodo(metodo, row.iterar === true)}</p>
    </Card>
  );
}

const SEM_PRAZO_PENDENTE = 'Informe o prazo de resposta ou marque que a coleta começa sem prazo.';

/**
 * 'Iniciar coleta' on a cotação without a deadline: the person types the prazo de resposta (sent
 * with the transition, which sets it) or marks that the collection starts without one (`semPrazo`,
 * recorded in the history); the dialog confirms nothing before one of them.
 */
function PrazoAoIniciar({ state }: { state: TransitionDialogState }) {
  const [texto, setTexto] = useState('');
  const semPrazo = state.body.semPrazo === true;
  const { require } = state;
  const pendente = !semPrazo && texto.trim() === '';
  useEffect(() => require('prazo', pendente ? SEM_PRAZO_PENDENTE : null), [require, pendente]);
  return (
    <div className="stack">
      <p>
        Esta cotação não tem prazo de resposta. Informe até quando os fornecedores podem responder: o prazo vai no e-mail do convite e no formulário em anexo.
      </p>
      <TextField
        label="Prazo de resposta"
        type="datetime-local"
        hint="Data e hora (de Brasília)."
        disabled={semPrazo}
        value={texto}
        error={state.errors.prazo}
        onChange={(e) => {
          const valor = e.currentTarget.value;
          setTexto(valor);
          state.setBody(valor.trim() ? { prazo: instantFromDateTimeInput(valor) ?? valor } : {});
        }}
      />
      <CheckboxField
        label="Iniciar a coleta sem prazo de resposta"
        hint="O e-mail aos fornecedores diz que não há prazo e pede resposta assim que possível. Fica registrado no histórico."
        checked={semPrazo}
        error={state.errors.semPrazo}
        onChange={(e) => {
          setTexto('');
          state.setBody(e.currentTarget.checked ? { semPrazo: true } : {});
        }}
      />
    </div>
  );
}

/** More content of the transition dialogs: 'Iniciar coleta' says what the suppliers receive, and asks for the deadline when there is none. */
function dialogoDaCotacao(name: string, row: Row, state: TransitionDialogState) {
  if (name !== 'iniciar') return null;
  if (!row.prazo) return <PrazoAoIniciar state={state} />;
  return (
    <p>
      Os fornecedores convidados com e-mail recebem o pedido com o formulário em anexo. Prazo de resposta: {formatDateTime(String(row.prazo))} (horário de
      Brasília).
    </p>
  );
}

/** A new cotação: the person's first centro, today's date (São Paulo) and `extra` (the default method). */
const novaCom =
  (extra: Row): DocumentConfig['defaults'] =>
  (session) => ({ centroCustoId: session?.centrosCusto?.[0] ?? '', dataReferencia: today(), ...extra });

const config: DocumentConfig = {
  endpoint: COTACOES_ENDPOINT,
  title: COTACAO_TITLES.title,
  newTitle: COTACAO_TITLES.newTitle,
  editTitle: COTACAO_TITLES.editTitle,
  description: 'A pesquisa de preços (IN SEGES/ME 65/2021) que dá o preço estimado de cada item de uma compra.',
  documento: 'Cotação',
  feminino: true,
  flow: fluxoCotacao,
  schema: cotacaoInputSchema,
  pdf: false,
  defaults: novaCom({}),
  columns: [
    { key: 'objeto', header: 'Objeto' },
    { key: 'status', header: 'Situação' },
    { key: 'quantidadeItens', header: 'Itens', width: '5rem', align: 'end' },
    { key: 'quantidadePrecos', header: 'Preços coletados', width: '7rem', align: 'end' },
    { key: 'prazo', header: 'Prazo', width: '10rem', value: (row: Row) => formatDateTime(row.prazo as string | null) },
  ],
  filters: [{ name: 'centroCustoId', label: 'Centro de custo', source: centros }],
  fields: [
    { name: 'objeto', type: 'textarea', label: 'Objeto', required: true, rows: 3, maxLength: 2000, wide: true, section: 'Cotação' },
    {
      name: 'centroCustoId',
      type: 'select',
      label: 'Centro de custo',
      required: true,
      source: { ...centros, params: { meus: 'true' } },
      section: 'Cotação',
      readOnlyWhen: (values) => vinculoDe(values.requisicaoId) !== null,
    },
    {
      name: 'requisicaoId',
      type: 'cotacaoRequisicao',
      label: 'Requisição de origem',
      section: 'Cotação',
      visibleWhen: (values) => vinculoDe(values.requisicaoId) !== null,
    },
    {
      name: 'dataReferencia',
      type: 'date',
      label: 'Data de referência',
      required: true,
      section: 'Cotação',
      hint: 'A idade de cada preço é medida até esta data (6 meses para sítios e propostas, 1 ano para contratações e notas fiscais).',
    },
    {
      name: 'prazo',
      type: 'datetime',
      label: 'Prazo de resposta',
      section: 'Cotação',
      hint: 'Data e hora (de Brasília) até quando os fornecedores podem responder.',
    },
    {
      name: 'metodo',
      type: 'select',
      label: 'Método de cálculo',
      required: true,
      options: metodos,
      section: 'Cálculo do preço estimado',
      hint: 'Aplicado a todos os itens; a regra completa aparece no mapa comparativo e na memória de cálculo.',
    },
    {
      name: 'iterar',
      type: 'checkbox',
      label: 'Repetir a regra de exclusão (iterar)',
      section: 'Cálculo do preço estimado',
      hint: 'Descarta de novo os preços fora de média ± 1 desvio-padrão até que nenhum saia.',
      visibleWhen: (values) => values.metodo === 'media_saneada',
    },
    { name: 'observacoes', type: 'textarea', label: 'Observações', rows: 3, maxLength: 5000, wide: true, section: 'Cálculo do preço estimado' },
  ],
  items: {
    required: true,
    unitField: 'unidadeSigla',
    totalLabel: 'Valor total de referência',
    headers: { unitValue: 'Valor de referência' },
    hint: 'O valor de referência é opcional (vem da requisição); o preço estimado sai da pesquisa.',
    product: produto,
    // biome-ignore lint/suspicious/noExplicitAny: a plugin field type inside the items grid
    fields: [{ name: 'requisicaoItemId', type: 'cotacaoOrigemItem', label: 'Origem' } as any],
  },
  slots: {
    listActions: () => <ListActions />,
    rowActions: (row: Row) => <Ferramentas row={row} sm />,
    actions: (row: Row) => <Ferramentas row={row} />,
    panels: (row: Row) => <MetodoPanel row={row} />,
    transitionDialog: dialogoDaCotacao,
  },
  timelineLabels: {
    responsavelId: 'Responsável',
    valorTotal: 'Valor total',
    motivo: 'Motivo',
    justificativa: 'Justificativa',
    'itens.requisicaoItemId': 'Item da requisição',
    semPrazo: 'Iniciada sem prazo de resposta',
  },
};

const pages = defineDocumentPages(config);

/**
 * The new cotação starts with the entidade's default method (GET /configuracao): the kit's New page
 * of a declaration whose defaults carry it, built once the configuração is read.
 */
function NovaCotacao() {
  const lida = useConfiguracao();
  const carregando = lida.query.isPending;
  const padrao = lida.record;
  const Nova = useMemo(() => {
    if (carregando) return null;
    // without it (an error) the person chooses the method: the form says so before saving
    return defineDocumentPages({ ...config, defaults: novaCom(padrao ? { metodo: padrao.metodo, iterar: padrao.iterar } : {}) }).New;
  }, [carregando, padrao]);
  return Nova ? <Nova /> : <PageLoading />;
}

export default { ...pages, New: NovaCotacao };
