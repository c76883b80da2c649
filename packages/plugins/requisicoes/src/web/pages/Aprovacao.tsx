// /requisicao/aprovar/:id: the approval page. The requisição, its items and total, the level it
// awaits and the steps of this round, the dispensa alert, the timeline; buttons only for the
// transitions the server says this person may perform now (aprovar, reprovar, devolver).
import { LoadErrorAlert, RecordTimeline, api, apiErrorBody, apiErrorMessage, apiErrorStatus, toast, useQuery, useQueryClient, StatusBadge } from '@app/core';
import { formatDate, formatDateTime } from '@app/br';
import { type FlowTransitionDefinition, formatMoney, reasonSchemaOf } from '@app/documents';
import { Alert, Button, Card, ConfirmDialog, DataTable, PageHeader, PageLoading, TextareaField } from '@app/ui';
import { useState } from 'react';
import { Link, useParams } from 'wouter';
import { type Aprovacao, CATEGORIA_LABEL, type Categoria, fluxoRequisicao } from '../../shared/index.js';
import { REQ_TITLES } from '../titles';
import { DispensaAlert, DispensaNaDecisao, REQ_ENDPOINT, type Row, numero, quantidade, resourceKey, useAlertasDispensa, useRecord } from './common';

const ACOES = ['aprovar', 'devolver', 'reprovar'] as const;
type Acao = (typeof ACOES)[number];

interface Pending {
  name: Acao;
  transition: FlowTransitionDefinition<string, string>;
  motivo: string;
  error: string | null;
  /** Approving with a dispensa alert: the acknowledgement (sent as `ciente`) and the server's message about it. */
  ciente: boolean;
  cienteError: string | null;
}

/** How a person decides the level: by it, or por substituição. */
const VIA_TEXTO: Record<Aprovacao['podemDecidir'][number]['via'], string> = {
  titular: '',
  nivel_superior: ' (por substituição: aprovador do nível superior)',
  substituto: ' (por substituição: substituto indicado na alçada)',
};

const TIMELINE_LABELS = {
  status: 'Situação',
  centroCustoId: 'Centro de custo',
  tipoSolicitacaoId: 'Tipo de solicitação',
  categoria: 'Categoria do objeto',
  dotacao: 'Dotação orçamentária',
  justificativa: 'Justificativa',
  solicitanteId: 'Solicitante',
  valorTotal: 'Valor total estimado',
  valorAprovado: 'Valor aprovado',
  valorPesquisado: 'Valor pesquisado (cotação)',
  valorAprovadoVigente: 'Valor aprovado comparado',
  origem: 'Pesquisa de preços',
  reaprovacao: 'Voltou para aprovação',
  porSubstituicao: 'Aprovação por substituição',
  alertasDispensaVistos: 'Alerta de dispensa visto',
  nivelAtual: 'Nível aguardado',
  niveis: 'Níveis de aprovação',
  ciclo: 'Rodada de aprovação',
  motivo: 'Motivo',
  'itens.produtoId': 'Produto ou serviço',
  'itens.quantidade': 'Quantidade',
  'itens.valorUnitario': 'Valor unitário estimado',
  'itens.preRequisicaoItemId': 'Item da pré-requisição',
};

function Campo({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="field__label">{label}</dt>
      <dd style={{ margin: 0 }}>{children}</dd>
    </div>
  );
}

function Etapas({ aprovacao, status }: { aprovacao: Aprovacao; status: string }) {
  if (aprovacao.etapas.length === 0) return <p className="field__hint">Nenhuma alçada se aplica a esta requisição.</p>;
  return (
    <ol aria-label="Etapas de aprovação" style={{ margin: 0, paddingInlineStart: '1.25rem' }}>
      {aprovacao.etapas.map((e) => (
        <li key={e.nivel} style={{ marginBottom: '0.5rem' }}>
          <strong>
            Nível {e.nivel}: {e.nome}
          </strong>{' '}
          —{' '}
          {e.aprovadoPor
            ? `aprovado por ${e.aprovadoPor} em ${formatDateTime(new Date(e.aprovadoEm ?? ''))}${e.substituicao ? VIA_TEXTO[e.substituicao] : ''}`
            : status === 'em_aprovacao' && aprovacao.nivelAtual === e.nivel
              ? 'aguardando aprovação'
              : status === 'em_aprovacao'
                ? 'a seguir'
                : 'não aprovado nesta rodada'}
        </li>
      ))}
    </ol>
  );
}

/** Who may decide the requisição now (names), or why nobody can. */
function QuemDecide({ aprovacao }: { aprovacao: Aprovacao }) {
  if (aprovacao.podemDecidir.length === 0) {
    return (
      <Alert variant="warning" title="Ninguém pode decidir esta requisição agora">
        Nenhum aprovador do nível, do nível superior ou substituto da alçada pode decidi-la (quem a pediu ou já aprovou outro nível não decide). Peça ao
        administrador que revise as alçadas.
      </Alert>
    );
  }
  return (
    <p data-testid="quem-decide">
      <strong>Pode decidir agora:</strong> {aprovacao.podemDecidir.map((d) => `${d.nome}${VIA_TEXTO[d.via]}`).join('; ')}.
    </p>
  );
}

export default function AprovacaoPage() {
  const { id = '' } = useParams<{ id: string }>();
  const queryClient = useQueryClient();
  const record = useRecord(REQ_ENDPOINT, id);
  const aprovacao = useQuery({
    queryKey: ['requisicoes', 'aprovacao', id, String(record.data?.version ?? '')],
    enabled: Boolean(record.data),
    queryFn: () => api.get(`requisicoes/requisicoes/${encodeURIComponent(id)}/aprovacao`).json<Aprovacao>(),
  });
  const [pending, setPending] = useState<Pending | null>(null);
  const alertas = useAlertasDispensa(id, record.data?.version);

  if (record.isError) {
    return (
      <>
        <PageHeader title={REQ_TITLES.approveTitle} before={<Link href="/">Voltar para Requisições</Link>} />
        <LoadErrorAlert title="Não foi possível carregar a requisição" error={record.error} onRetry={() => void record.refetch()} />
      </>
    );
  }
  if (!record.data) return <PageLoading />;
  const row = record.data;
  const nome = `Requisição ${numero(row)}`;
  const status = String(row.status ?? '');
  const listed = new Set(Array.isArray(row.transicoes) ? row.transicoes.map(String) : []);
  const acoes = ACOES.filter((a) => listed.has(a));
  const itens = (row.itens as Row[] | undefined) ?? [];

  const refresh = async (next?: Row) => {
    if (next) queryClient.setQueryData(['resource', REQ_ENDPOINT, 'item', id], next);
    await queryClient.invalidateQueries({ queryKey: resourceKey(REQ_ENDPOINT) });
    await queryClient.invalidateQueries({ queryKey: ['requisicoes'] });
    await queryClient.invalidateQueries({ queryKey: ['menu-count'] });
  };

  const perform = async (): Promise<boolean> => {
    if (!pending) return true;
    const { name, transition } = pending;
    const ciente = name === 'aprovar' && pending.ciente ? { ciente: true } : {};
    // an alert is acknowledged before approving (the server refuses without it, and records it)
    if (name === 'aprovar' && !pending.ciente && (alertas.data?.items.length ?? 0) > 0) {
      setPending({ ...pending, cienteError: 'Marque que você viu o alerta de limite de dispensa antes de aprovar.' });
      return false;
    }
    let motivo: string | null = null;
    if (transition.reason) {
      const parsed = reasonSchemaOf(transition.reasonMin ?? 3).safeParse(pending.motivo);
      if (!parsed.success) {
        setPending({ ...pending, error: parsed.error.issues[0]?.message ?? 'Informe o motivo.' });
        return false;
      }
      motivo = parsed.data;
    }
    try {
      const next = await api
        .post(`requisicoes/requisicoes/${encodeURIComponent(id)}/${name}`, { json: { version: row.version, ...(motivo ? { motivo } : {}), ...ciente } })
        .json<Row>();
      const ainda = name === 'aprovar' && next.status === 'em_aprovacao';
      toast.success(ainda ? `Aprovação registrada. ${nome} segue para o nível ${String(next.nivelAtual)}.` : `${nome} ${transition.done}.`);
      await refresh(next);
      return true;
    } catch (error) {
      const body = apiErrorBody(error);
      if (apiErrorStatus(error) === 400 && body?.fields?.motivo) {
        setPending({ ...pending, error: body.fields.motivo });
        return false;
      }
      if (apiErrorStatus(error) === 400 && body?.fields?.ciente) {
        setPending({ ...pending, cienteError: body.fields.ciente });
        return false;
      }
      toast.error(apiErrorMessage(error, `Não foi possível ${transition.label.toLowerCase()} a requisição.`));
      await refresh();
      return true;
    }
  };

  const t = pending?.transition;
  return (
    <>
      <PageHeader
        title={`${REQ_TITLES.approveTitle} ${numero(row)}`}
        description={
          <>
            <StatusBadge flow={fluxoRequisicao} status={status} />
            {status === 'em_aprovacao' && aprovacao.data?.nivelAtual ? ` Aguardando o nível ${aprovacao.data.nivelAtual} de ${aprovacao.data.niveis}.` : null}
          </>
        }
        before={<Link href="/">Voltar para Requisições</Link>}
        actions={
          <>
            {acoes.map((name) => {
              const transition = fluxoRequisicao.transitions[name] as FlowTransitionDefinition<string, string>;
              return (
                <Button
                  key={name}
                  variant={transition.tone === 'danger' ? 'danger' : transition.tone === 'primary' ? 'primary' : 'secondary'}
                  onClick={() => setPending({ name, transition, motivo: '', error: null, ciente: false, cienteError: null })}
                >
                  {transition.label}
                </Button>
              );
            })}
            <Link href={`/edit/${id}`} className="button button--secondary">
              Abrir requisição
            </Link>
          </>
        }
      />
      {status === 'em_aprovacao' && acoes.length === 0 ? (
        <p className="field__hint">
          Você não pode aprovar esta requisição agora: ela aguarda outro aprovador, ou foi você quem a pediu ou já aprovou outro nível.
        </p>
      ) : null}
      {status === 'em_aprovacao' && aprovacao.data ? <QuemDecide aprovacao={aprovacao.data} /> : null}
      <DispensaAlert id={id} version={row.version} />
      <Card title="Requisição">
        <dl style={{ display: 'grid', gap: '0.75rem', gridTemplateColumns: 'repeat(auto-fit, minmax(14rem, 1fr))', margin: 0 }}>
          <Campo label="Data">{formatDate(String(row.data ?? ''))}</Campo>
          <Campo label="Centro de custo">{`${String(row.centroCustoCodigo ?? '')} – ${String(row.centroCustoNome ?? '')}`}</Campo>
          <Campo label="Tipo de solicitação">{String(row.tipoSolicitacaoNome ?? '')}</Campo>
          <Campo label="Categoria do objeto">{CATEGORIA_LABEL[row.categoria as Categoria] ?? ''}</Campo>
          <Campo label="Dotação orçamentária">{String(row.dotacao ?? '') || 'Não informada'}</Campo>
          <Campo label="Solicitante">{String(row.solicitanteNome ?? '')}</Campo>
          <Campo label="Valor total estimado">
            <strong>{formatMoney(row.valorTotal as string)}</strong>
          </Campo>
          <Campo label="Valor aprovado">{row.valorAprovado ? formatMoney(row.valorAprovado as string) : 'Ainda não aprovado'}</Campo>
          <Campo label="Valor pesquisado (cotação)">{row.valorPesquisado ? formatMoney(row.valorPesquisado as string) : 'Sem pesquisa de preços'}</Campo>
        </dl>
        <h3 className="field__label" style={{ marginTop: '1rem' }}>
          Justificativa
        </h3>
        <p style={{ whiteSpace: 'pre-wrap' }}>{String(row.justificativa ?? '')}</p>
      </Card>
      <Card title="Itens" flush>
        <DataTable
          caption="Itens da requisição"
          captionHidden
          rows={itens}
          rowKey={(item, i) => String(item.id ?? i)}
          columns={[
            { key: 'ordem', header: 'Item', width: '4rem', align: 'end' },
            {
              key: 'produto',
              header: 'Produto ou serviço',
              rowHeader: true,
              render: (item) => `${String(item.produtoCodigo ?? '')} – ${String(item.produtoDescricao ?? '')}`,
            },
            { key: 'unidadeSigla', header: 'Unid.', width: '5rem' },
            { key: 'quantidade', header: 'Quantidade', align: 'end', render: (item) => quantidade(item.quantidade) },
            { key: 'valorUnitario', header: 'Valor unitário estimado', align: 'end', render: (item) => formatMoney(item.valorUnitario as string, 4) },
            { key: 'valorTotal', header: 'Valor total', align: 'end', render: (item) => formatMoney(item.valorTotal as string) },
          ]}
        />
        <p style={{ textAlign: 'end', padding: '0.75rem 1rem', margin: 0 }}>
          Valor total estimado: <strong>{formatMoney(row.valorTotal as string)}</strong>
        </p>
      </Card>
      <Card title="Etapas de aprovação">
        {aprovacao.isError ? (
          <LoadErrorAlert title="Não foi possível carregar as etapas" error={aprovacao.error} onRetry={() => void aprovacao.refetch()} />
        ) : aprovacao.data ? (
          <Etapas aprovacao={aprovacao.data} status={status} />
        ) : (
          <PageLoading />
        )}
      </Card>
      <Card title="Histórico">
        <RecordTimeline
          endpoint={REQ_ENDPOINT}
          id={id}
          labels={TIMELINE_LABELS}
          actions={fluxoRequisicao.transitions}
          values={{ status: fluxoRequisicao.states }}
          formats={{
            valorTotal: 'money',
            valorAprovado: 'money',
            valorPesquisado: 'money',
            valorAprovadoVigente: 'money',
            quantidade: 'decimal',
            valorUnitario: 'money',
          }}
        />
      </Card>
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => (open ? undefined : setPending(null))}
        title={t ? `${t.label} a requisição ${numero(row)}?` : ''}
        description={t?.reason ? 'O motivo fica registrado no histórico da requisição e é enviado ao solicitante.' : undefined}
        confirmLabel={t?.label ?? 'Confirmar'}
        cancelLabel="Voltar"
        tone={t?.tone === 'danger' ? 'danger' : 'default'}
        onConfirm={perform}
      >
        {t?.reason && pending ? (
          <TextareaField
            label="Motivo"
            required
            rows={3}
            maxLength={2000}
            hint={`Ao menos ${t.reasonMin ?? 3} caracteres.`}
            value={pending.motivo}
            error={pending.error ?? undefined}
            onChange={(e) => setPending({ ...pending, motivo: e.target.value, error: null })}
          />
        ) : null}
        {pending?.name === 'aprovar' ? (
          <DispensaNaDecisao
            id={id}
            version={row.version}
            ciente={pending.ciente}
            onCiente={(value) => setPending({ ...pending, ciente: value, cienteError: null })}
            error={pending.cienteError ?? undefined}
          />
        ) : null}
      </ConfirmDialog>
    </>
  );
}
