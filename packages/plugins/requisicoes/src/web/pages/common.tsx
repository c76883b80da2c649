// What the pages of @app/requisicoes share (a lazy chunk: never on the first page).
import { type ResourceOptionsSource, api, apiErrorMessage, useQuery } from '@app/core';
import { type Flow, formatDecimal, formatMoney, formatNumero } from '@app/documents';
import { Alert, Spinner } from '@app/ui';
import { Link } from 'wouter';
import { CATEGORIA_LABEL, type AlertaDispensa, fluxoRequisicao } from '../../shared/index.js';

export type Row = Record<string, unknown>;

export const PRE_ENDPOINT = '/requisicoes/pre-requisicoes';
export const REQ_ENDPOINT = '/requisicoes/requisicoes';
/** The kit's cache key of a resource: invalidated after an action outside its pages. */
export const resourceKey = (endpoint: string) => ['resource', endpoint] as const;

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

export const dataBr = (iso: unknown) => (typeof iso === 'string' && iso ? iso.slice(0, 10).split('-').reverse().join('/') : '');
export const numero = (row: Row) => formatNumero(row.numero as number | null, row.ano as number | null);
export const quantidade = (value: unknown) => formatDecimal(String(value ?? '0'));

const TONES: Record<string, { background: string; color: string }> = {
  neutral: { background: 'var(--color-surface-muted, #eef1f5)', color: 'var(--color-text, #1b2431)' },
  info: { background: 'var(--color-info-subtle, #e8f1fd)', color: 'var(--color-info-text, #0c4aa6)' },
  success: { background: 'var(--color-success-subtle, #e7f5ea)', color: 'var(--color-success-text, #17622a)' },
  warning: { background: 'var(--color-warning-subtle, #fff4e0)', color: 'var(--color-warning-text, #7a3e00)' },
  danger: { background: 'var(--color-danger-subtle, #fdecea)', color: 'var(--color-danger-text, #9b1c12)' },
};

/** The status as a badge with its tone (the colours of the kit's list badge). */
export function Situacao({ flow, status }: { flow: Flow; status: unknown }) {
  const state = String(status ?? '');
  const tone = (flow.isState(state) ? flow.states[state]?.tone : undefined) ?? 'neutral';
  return (
    <span
      data-status={state}
      style={{
        ...TONES[tone],
        display: 'inline-block',
        padding: '0.0625rem 0.5rem',
        borderRadius: 'var(--radius-full, 999px)',
        border: '1px solid currentColor',
        fontSize: '0.8125rem',
        fontWeight: 600,
        whiteSpace: 'nowrap',
      }}
    >
      {flow.stateLabel(state)}
    </span>
  );
}

/** GET <endpoint>/:id as the kit reads it (the same cache entry as the Edit page). */
export function useRecord(endpoint: string, id: string | undefined) {
  return useQuery({
    queryKey: ['resource', endpoint, 'item', id ?? ''],
    enabled: Boolean(id),
    queryFn: () => api.get(`${endpoint.slice(1)}/${encodeURIComponent(id ?? '')}`).json<Row>(),
  });
}

/**
 * The dispensa-limit (fracionamento) alert of a requisição: for each grupo of its items whose year
 * total (pending and approved requisições of the category, with this one) passes the limit: the
 * amount, the limit and its year, the article, and links to the requisições that make it up.
 */
export function DispensaAlert({ id, version }: { id: string; version?: unknown }) {
  const query = useQuery({
    queryKey: ['requisicoes', 'dispensa', id, String(version ?? '')],
    queryFn: () => api.get(`requisicoes/requisicoes/${encodeURIComponent(id)}/dispensa`).json<{ items: AlertaDispensa[] }>(),
  });
  if (query.isError) {
    return <Alert variant="warning" title="Não foi possível verificar o limite de dispensa">{apiErrorMessage(query.error, 'Tente novamente.')}</Alert>;
  }
  if (!query.data) return <Spinner label="Verificando o limite de dispensa…" />;
  if (query.data.items.length === 0) return null;
  return (
    <div className="requisicoes-dispensa" data-testid="alerta-dispensa">
      {query.data.items.map((a) => (
        <Alert key={`${a.grupoId}-${a.categoria}`} variant="warning" title={`Limite de dispensa ultrapassado: ${a.grupoCodigo} – ${a.grupoNome}`}>
          <p>
            Em {a.ano}, as requisições em aprovação e aprovadas deste grupo ({CATEGORIA_LABEL[a.categoria].toLowerCase()}) somam{' '}
            <strong>{formatMoney(a.total)}</strong>, acima do limite de <strong>{formatMoney(a.limite)}</strong> ({a.artigo}, valor de{' '}
            {a.anoLimite}). Verifique se não há fracionamento de despesa.
          </p>
          <p>Requisições que compõem o total:</p>
          <ul>
            {a.requisicoes.map((r) => (
              <li key={r.id}>
                <Link href={`~/requisicao/edit/${r.id}`}>Requisição {formatNumero(r.numero, r.ano)}</Link>: {formatMoney(r.valor)} (
                {fluxoRequisicao.stateLabel(r.status)})
              </li>
            ))}
          </ul>
          {a.mais > 0 ? <p>E mais {a.mais.toLocaleString('pt-BR')} requisições.</p> : null}
        </Alert>
      ))}
    </div>
  );
}
