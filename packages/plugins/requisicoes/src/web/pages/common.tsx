// What the pages of @app/requisicoes share (a lazy chunk: never on the first page).
import { type ResourceOptionsSource, type TransitionDialogState, api, apiErrorMessage, queryKeys, useQuery } from '@app/core';
import { formatDecimal, formatMoney, formatNumero } from '@app/documents';
import { Alert, Card, CheckboxField, type DataTableColumn, Spinner } from '@app/ui';
import { type ReactNode, useEffect } from 'react';
import { Link } from 'wouter';
import { CATEGORIA_LABEL, CATEGORIAS, type AlertaDispensa, fluxoRequisicao } from '../../shared/index.js';

export type Row = Record<string, unknown>;

export const PRE_ENDPOINT = '/requisicoes/pre-requisicoes';
export const REQ_ENDPOINT = '/requisicoes/requisicoes';

// the plugin's own pickers (tag 39): a requisitante holds neither Cadastros nor Produtos
export const centros: ResourceOptionsSource = { endpoint: '/requisicoes/centros-custo', label: (c) => `${String(c.codigo)} – ${String(c.nome)}` };
export const meusCentros: ResourceOptionsSource = { ...centros, params: { meus: 'true' } };
export const tipos: ResourceOptionsSource = { endpoint: '/requisicoes/tipos-solicitacao', label: (t) => String(t.nome) };
export const produto = {
  endpoint: '/requisicoes/produtos',
  label: (p: Row) => `${String(p.codigo)} – ${String(p.descricao)}`,
  description: (p: Row) => [p.unidadeSigla, p.grupoNome].filter(Boolean).join(' · '),
  fill: (p: Row) => ({ unidadeSigla: p.unidadeSigla }),
};

export const numero = (row: Row) => formatNumero(row.numero as number | null, row.ano as number | null);
export const quantidade = (value: unknown) => formatDecimal(String(value ?? '0'));

export const categorias = CATEGORIAS.map((value) => ({ value, label: CATEGORIA_LABEL[value] }));
export const centroNome = (row: Row) => `${String(row.centroCustoCodigo ?? '')} – ${String(row.centroCustoNome ?? '')}`;

/** The first columns of a document's lines on the read-only pages: number, product, unit. */
export const colunasItem: DataTableColumn<Row>[] = [
  { key: 'ordem', header: 'Item', width: '4rem', align: 'end' },
  {
    key: 'produto',
    header: 'Produto ou serviço',
    rowHeader: true,
    render: (item) => `${String(item.produtoCodigo ?? '')} – ${String(item.produtoDescricao ?? '')}`,
  },
  { key: 'unidadeSigla', header: 'Unid.', width: '5rem' },
];

/** Fields of a record shown read-only: label → value, in a grid. */
export function Campos({ campos }: { campos: [string, ReactNode][] }) {
  return (
    <dl style={{ display: 'grid', gap: '0.75rem', gridTemplateColumns: 'repeat(auto-fit, minmax(14rem, 1fr))', margin: 0 }}>
      {campos.map(([label, value]) => (
        <div key={label}>
          <dt className="field__label">{label}</dt>
          <dd style={{ margin: 0 }}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The approved and the researched values of a requisição, as fields. */
export const valores = (row: Row): [string, ReactNode][] => [
  ['Valor aprovado', row.valorAprovado ? formatMoney(row.valorAprovado as string) : 'Ainda não aprovado'],
  ['Valor pesquisado (cotação)', row.valorPesquisado ? formatMoney(row.valorPesquisado as string) : 'Sem pesquisa de preços'],
];

/** GET /:id/dispensa: the alerts of a requisição (one cache entry per version, shared by the page and the dialogs; refreshed with the record). */
export function useAlertasDispensa(id: string, version?: unknown) {
  return useQuery({
    queryKey: queryKeys.view(REQ_ENDPOINT, id, 'dispensa', String(version ?? '')),
    queryFn: () => api.get(`requisicoes/requisicoes/${encodeURIComponent(id)}/dispensa`).json<{ items: AlertaDispensa[] }>(),
  });
}

/**
 * One grupo's alert: the total of the requisições em aprovação and aprovadas, and this one apart when it is
 * not counted yet; what the year's contracting plan (PCA) set aside for the grupo, when a plan exists.
 */
function AlertaGrupo({ a, children }: { a: AlertaDispensa; children?: ReactNode }) {
  const titulo = a.excedido ? 'Limite de dispensa ultrapassado' : 'O plano de contratações prevê licitação';
  return (
    <Alert variant="warning" title={`${titulo}: ${a.grupoCodigo} – ${a.grupoNome}`}>
      <p>
        Em {a.ano}, as requisições em aprovação e aprovadas deste grupo ({CATEGORIA_LABEL[a.categoria].toLowerCase()}) somam{' '}
        <strong>{formatMoney(a.total)}</strong>
        {a.estaConta ? null : (
          <>
            ; com esta requisição ({formatMoney(a.valorDesta)}, ainda não enviada), passam a <strong>{formatMoney(a.totalComEsta)}</strong>
          </>
        )}
        , {a.excedido ? 'acima' : 'dentro'} do limite de <strong>{formatMoney(a.limite)}</strong> ({a.artigo}, valor de {a.anoLimite}).
        {a.planejado ? (
          <>
            {' '}
            Para {a.ano}, o plano de contratações anual reservou <strong>{formatMoney(a.planejado.total)}</strong> a este grupo
            {a.planejado.passa ? ', acima do limite: as compras do grupo no ano exigem licitação' : ''} (
            {a.planejado.planos.map((p) => `${p.rotulo}, ${p.situacao.toLowerCase()}: ${formatMoney(p.valor)}`).join('; ')}).
          </>
        ) : null}{' '}
        Verifique se não há fracionamento de despesa.
      </p>
      {children}
    </Alert>
  );
}

/**
 * The dispensa-limit (fracionamento) alert of a requisição: for each grupo of its items whose year
 * total (requisições em aprovação and aprovadas of the category; this one apart while not sent)
 * passes the limit: the amounts, the limit and its year, the article, and links to the requisições
 * that make it up.
 */
export function DispensaAlert({ id, version }: { id: string; version?: unknown }) {
  const query = useAlertasDispensa(id, version);
  if (query.isError) {
    return (
      <Alert variant="warning" title="Não foi possível verificar o limite de dispensa">
        {apiErrorMessage(query.error, 'Tente novamente.')}
      </Alert>
    );
  }
  if (!query.data) return <Spinner label="Verificando o limite de dispensa…" />;
  if (query.data.items.length === 0) return null;
  return (
    <div className="requisicoes-dispensa" data-testid="alerta-dispensa">
      {query.data.items.map((a) => (
        <AlertaGrupo key={`${a.grupoId}-${a.categoria}`} a={a}>
          {a.requisicoes.length ? (
            <>
              <p>Requisições em aprovação e aprovadas que compõem o total:</p>
              <ul>
                {a.requisicoes.map((r) => (
                  <li key={r.id}>
                    <Link href={`~/requisicao/edit/${r.id}`}>Requisição {formatNumero(r.numero, r.ano)}</Link>: {formatMoney(r.valor)} (
                    {fluxoRequisicao.stateLabel(r.status)})
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {a.mais > 0 ? <p>E mais {a.mais.toLocaleString('pt-BR')} requisições.</p> : null}
        </AlertaGrupo>
      ))}
    </div>
  );
}

/**
 * The dispensa alert where the decision is taken (the send and approve dialogs): the alerts in
 * short, and, when `ciente` is asked (approving), the checkbox acknowledging them — the server
 * refuses the approval without it and records what was acknowledged.
 */
export function DispensaNaDecisao({
  id,
  version,
  ciente,
  onCiente,
  error,
  require,
}: {
  id: string;
  version?: unknown;
  /** Omitted: show only (sending). */
  ciente?: boolean;
  onCiente?: (value: boolean) => void;
  error?: string;
  /** The dialog's TransitionDialogState.require: the acknowledgement is asked before anything is sent. */
  require?: TransitionDialogState['require'];
}) {
  const query = useAlertasDispensa(id, version);
  const pedir = onCiente !== undefined && (query.data?.items.length ?? 0) > 0 && ciente !== true;
  useEffect(() => require?.('ciente', pedir ? CIENTE_PENDENTE : null), [require, pedir]);
  if (query.isError) return <p className="field__hint">Não foi possível verificar o limite de dispensa: {apiErrorMessage(query.error, 'tente novamente.')}</p>;
  if (!query.data) return <Spinner label="Verificando o limite de dispensa…" />;
  const alertas = query.data.items;
  if (alertas.length === 0) return error ? <p className="field__error">{error}</p> : null;
  return (
    <div data-testid="alerta-dispensa-dialogo">
      {alertas.map((a) => (
        <AlertaGrupo key={`${a.grupoId}-${a.categoria}`} a={a} />
      ))}
      {onCiente ? (
        <CheckboxField
          label="Vi o alerta de limite de dispensa e verifiquei que não há fracionamento de despesa"
          hint="A confirmação fica registrada no histórico da requisição, com os valores do alerta."
          required
          checked={ciente === true}
          error={error}
          onChange={(e) => onCiente(e.target.checked)}
        />
      ) : null}
    </div>
  );
}

/**
 * The approved and the researched values of a requisição (nothing before either exists): a researched
 * total above the approved one sends the requisição back to approval (shown in its timeline).
 */
export function ValoresDaRequisicao({ row }: { row: Row }) {
  if (!row.valorAprovado && !row.valorPesquisado) return null;
  const acima = row.status === 'em_aprovacao' && row.valorAprovado && row.valorPesquisado && Number(row.valorPesquisado) > Number(row.valorAprovado);
  return (
    <Card title="Valor aprovado e valor pesquisado">
      <Campos campos={valores(row)} />
      {acima ? <p className="field__hint">O valor pesquisado passou do aprovado: a requisição voltou para aprovação pelo novo valor.</p> : null}
    </Card>
  );
}

const CIENTE_PENDENTE = 'Marque que você viu o alerta de limite de dispensa antes de aprovar.';

/**
 * The dispensa alert in the kit's transition dialog, on the Edit page and the approval page alike:
 * shown when sending, acknowledged (`ciente`, asked before anything is sent) when approving.
 */
export function dialogoDaDecisao(name: string, row: Row, state: TransitionDialogState) {
  if (name === 'enviar') return <DispensaNaDecisao id={String(row.id)} version={row.version} />;
  if (name !== 'aprovar') return null;
  return (
    <DispensaNaDecisao
      id={String(row.id)}
      version={row.version}
      ciente={state.body.ciente === true}
      onCiente={(ciente) => state.setBody({ ...state.body, ciente })}
      error={state.errors.ciente}
      require={state.require}
    />
  );
}
