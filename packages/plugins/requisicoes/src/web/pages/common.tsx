// What the pages of @app/requisicoes share (a lazy chunk: never on the first page).
import { type ResourceOptionsSource, type TransitionDialogState, api, apiErrorMessage, queryKeys, useQuery } from '@app/core';
import { formatDate } from '@app/br';
import { formatDecimal, formatMoney, formatNumero } from '@app/documents';
import { Alert, Card, CheckboxField, type DataTableColumn, type DetailsItem, DetailsList, Spinner } from '@app/ui';
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

/**
 * A document's header read-only (a card titled `title`): date, centro, tipo, the `meio` fields, solicitante,
 * the `fim` fields, and the justificativa across the row.
 */
export function Cabecalho({ title, row, meio = [], fim }: { title: string; row: Row; meio?: DetailsItem[]; fim: DetailsItem[] }) {
  const texto = (key: string) => String(row[key] ?? '');
  return (
    <Card title={title}>
      <DetailsList
        items={[
          { label: 'Data', value: formatDate(texto('data')) },
          { label: 'Centro de custo', value: centroNome(row) },
          { label: 'Tipo de solicitação', value: texto('tipoSolicitacaoNome') },
          ...meio,
          { label: 'Solicitante', value: texto('solicitanteNome') },
          ...fim,
          { label: 'Justificativa', value: <span className="text-pre-wrap">{texto('justificativa')}</span>, wide: true },
        ]}
      />
    </Card>
  );
}

/** The approved and the researched values of a requisição, as fields. */
export const valores = (row: Row): DetailsItem[] => [
  { label: 'Valor aprovado', value: row.valorAprovado ? formatMoney(row.valorAprovado as string) : 'Ainda não aprovado' },
  { label: 'Valor pesquisado (cotação)', value: row.valorPesquisado ? formatMoney(row.valorPesquisado as string) : 'Sem pesquisa de preços' },
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
 * The dispensa alert where the decision is taken (the kit's transition dialog, on the Edit page and the
 * approval page alike): the alerts in short when sending; when approving (`state` given), the checkbox
 * acknowledging them (`ciente`, asked before anything is sent) — the server refuses the approval without
 * it and records what was acknowledged.
 */
function DispensaNaDecisao({ row, state }: { row: Row; state?: TransitionDialogState }) {
  const query = useAlertasDispensa(String(row.id), row.version);
  const ciente = state?.body.ciente === true;
  const pedir = state !== undefined && (query.data?.items.length ?? 0) > 0 && !ciente;
  const require = state?.require;
  useEffect(() => require?.('ciente', pedir ? CIENTE_PENDENTE : null), [require, pedir]);
  if (query.isError) return <p className="field__hint">Não foi possível verificar o limite de dispensa: {apiErrorMessage(query.error, 'tente novamente.')}</p>;
  if (!query.data) return <Spinner label="Verificando o limite de dispensa…" />;
  const alertas = query.data.items;
  const error = state?.errors.ciente;
  if (alertas.length === 0) return error ? <p className="field__error">{error}</p> : null;
  return (
    <div data-testid="alerta-dispensa-dialogo">
      {alertas.map((a) => (
        <AlertaGrupo key={`${a.grupoId}-${a.categoria}`} a={a} />
      ))}
      {state ? (
        <CheckboxField
          label="Vi o alerta de limite de dispensa e verifiquei que não há fracionamento de despesa"
          hint="A confirmação fica registrada no histórico da requisição, com os valores do alerta."
          required
          checked={ciente}
          error={error}
          onChange={(e) => state.setBody({ ...state.body, ciente: e.target.checked })}
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
      <DetailsList items={valores(row)} />
      {acima ? <p className="field__hint">O valor pesquisado passou do aprovado: a requisição voltou para aprovação pelo novo valor.</p> : null}
    </Card>
  );
}

const CIENTE_PENDENTE = 'Marque que você viu o alerta de limite de dispensa antes de aprovar.';

/** The kit's transition dialog's slot: the dispensa alert shown when sending, acknowledged when approving. */
export const dialogoDaDecisao = (name: string, row: Row, state: TransitionDialogState) =>
  name === 'enviar' ? <DispensaNaDecisao row={row} /> : name === 'aprovar' ? <DispensaNaDecisao row={row} state={state} /> : null;
