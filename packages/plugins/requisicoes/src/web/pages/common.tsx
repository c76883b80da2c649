// What the pages of @app/requisicoes share (a lazy chunk: never on the first page).
import { type ResourceOptionsSource, api, apiErrorMessage, useQuery } from '@app/core';
import { formatDecimal, formatMoney, formatNumero } from '@app/documents';
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

export const numero = (row: Row) => formatNumero(row.numero as number | null, row.ano as number | null);
export const quantidade = (value: unknown) => formatDecimal(String(value ?? '0'));

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
        <Alert key={`${a.grupoId}-${a.categoria}`} variant="warning" title={`Limite de dispensa ultrapassado: ${a.grupoCodigo} – ${a.grupoNome}`}>
          <p>
            Em {a.ano}, as requisições em aprovação e aprovadas deste grupo ({CATEGORIA_LABEL[a.categoria].toLowerCase()}) somam{' '}
            <strong>{formatMoney(a.total)}</strong>, acima do limite de <strong>{formatMoney(a.limite)}</strong> ({a.artigo}, valor de {a.anoLimite}). Verifique
            se não há fracionamento de despesa.
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
