// /pre-requisicao/ver/:id: a pré-requisição read-only, with what became of each item (atendido,
// pendente, the requisições that converted it) and its timeline.
import { formatDate } from '@app/br';
import { LoadErrorAlert, RecordTimeline, StatusBadge } from '@app/core';
import { formatMoney, formatNumero } from '@app/documents';
import { Card, DataTable, PageHeader, PageLoading } from '@app/ui';
import { Fragment } from 'react';
import { Link, useParams } from 'wouter';
import { fluxoPreRequisicao, fluxoRequisicao } from '../../shared/index.js';
import { PRE_TITLES } from '../titles';
import { PRE_ENDPOINT, type Row, numero, quantidade, useRecord } from './common';

interface Conversao {
  id: string;
  numero: number;
  ano: number;
  status: string;
  quantidade: string;
}

const TIMELINE_LABELS = {
  status: 'Situação',
  centroCustoId: 'Centro de custo',
  tipoSolicitacaoId: 'Tipo de solicitação',
  justificativa: 'Justificativa',
  solicitanteId: 'Solicitante',
  memorandoId: 'Memorando',
  valorTotal: 'Valor total estimado',
  motivo: 'Motivo',
  'itens.produtoId': 'Produto ou serviço',
  'itens.quantidade': 'Quantidade',
  'itens.valorUnitario': 'Valor unitário estimado',
};

export default function PreRequisicaoView() {
  const { id = '' } = useParams<{ id: string }>();
  const record = useRecord(PRE_ENDPOINT, id);
  if (record.isError) {
    return (
      <>
        <PageHeader title={PRE_TITLES.viewTitle} before={<Link href="/">Voltar para Pré-requisições</Link>} />
        <LoadErrorAlert title="Não foi possível carregar a pré-requisição" error={record.error} onRetry={() => void record.refetch()} />
      </>
    );
  }
  if (!record.data) return <PageLoading />;
  const row = record.data;
  const itens = (row.itens as Row[] | undefined) ?? [];
  return (
    <>
      <PageHeader
        title={`${PRE_TITLES.viewTitle} ${numero(row)}`}
        description={<StatusBadge flow={fluxoPreRequisicao} status={row.status} />}
        before={<Link href="/">Voltar para Pré-requisições</Link>}
        actions={
          <Link href={`/edit/${id}`} className="button button--secondary">
            {row.editavel === false ? 'Abrir' : 'Editar'}
          </Link>
        }
      />
      <Card title="Pré-requisição">
        <dl style={{ display: 'grid', gap: '0.75rem', gridTemplateColumns: 'repeat(auto-fit, minmax(14rem, 1fr))', margin: 0 }}>
          {[
            ['Data', formatDate(String(row.data ?? ''))],
            ['Centro de custo', `${String(row.centroCustoCodigo ?? '')} – ${String(row.centroCustoNome ?? '')}`],
            ['Tipo de solicitação', String(row.tipoSolicitacaoNome ?? '')],
            ['Solicitante', String(row.solicitanteNome ?? '')],
            ['Valor total estimado', formatMoney(row.valorTotal as string)],
          ].map(([label, value]) => (
            <div key={label}>
              <dt className="field__label">{label}</dt>
              <dd style={{ margin: 0 }}>{value}</dd>
            </div>
          ))}
        </dl>
        <p className="field__label" style={{ marginTop: '1rem' }}>
          Justificativa
        </p>
        <p style={{ whiteSpace: 'pre-wrap' }}>{String(row.justificativa ?? '')}</p>
      </Card>
      <Card title="Atendimento dos itens" flush>
        <DataTable<Row>
          caption="Atendimento dos itens"
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
            { key: 'quantidade', header: 'Pedida', align: 'end', render: (item) => quantidade(item.quantidade) },
            { key: 'atendido', header: 'Atendida', align: 'end', render: (item) => quantidade(item.atendido) },
            { key: 'pendente', header: 'Pendente', align: 'end', render: (item) => quantidade(item.pendente) },
            {
              key: 'situacao',
              header: 'Situação do item',
              render: (item) => (Number(item.pendente ?? 0) > 0 ? 'Pendente' : 'Atendido'),
            },
            {
              key: 'requisicoes',
              header: 'Requisições',
              render: (item) => {
                const list = (item.requisicoes as Conversao[] | null) ?? [];
                if (list.length === 0) return '—';
                return list.map((r, i) => (
                  <Fragment key={`${r.id}-${r.quantidade}`}>
                    {i > 0 ? ', ' : null}
                    <Link href={`~/requisicao/edit/${r.id}`}>{formatNumero(r.numero, r.ano)}</Link> ({quantidade(r.quantidade)},{' '}
                    {fluxoRequisicao.stateLabel(r.status).toLowerCase()})
                  </Fragment>
                ));
              },
            },
          ]}
        />
      </Card>
      <Card title="Histórico">
        <RecordTimeline
          endpoint={PRE_ENDPOINT}
          id={id}
          labels={TIMELINE_LABELS}
          actions={fluxoPreRequisicao.transitions}
          values={{ status: fluxoPreRequisicao.states }}
          formats={{ valorTotal: 'money', quantidade: 'decimal', valorUnitario: 'money' }}
        />
      </Card>
    </>
  );
}
