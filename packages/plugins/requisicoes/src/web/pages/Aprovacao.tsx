// /requisicao/aprovar/:id: the approval page, the kit's (DocumentApprovalPage: the level awaited, the
// kit's transition buttons and dialog, who may decide, the steps of this round, the timeline) with
// the requisição's own content: the dispensa alert, the record and its items and total.
import { DocumentApprovalPage } from '@app/core';
import { formatDate } from '@app/br';
import { formatMoney } from '@app/documents';
import { Card, DataTable } from '@app/ui';
import { useParams } from 'wouter';
import { CATEGORIA_LABEL, type Categoria, fluxoRequisicao } from '../../shared/index.js';
import { REQ_TITLES } from '../titles';
import { DispensaAlert, REQ_ENDPOINT, type Row, dialogoDaDecisao, quantidade } from './common';

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
const TIMELINE_FORMATS = {
  valorTotal: 'money',
  valorAprovado: 'money',
  valorPesquisado: 'money',
  valorAprovadoVigente: 'money',
  quantidade: 'decimal',
  valorUnitario: 'money',
} as const;

function Campo({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="field__label">{label}</dt>
      <dd style={{ margin: 0 }}>{children}</dd>
    </div>
  );
}

function Requisicao({ row }: { row: Row }) {
  const itens = (row.itens as Row[] | undefined) ?? [];
  return (
    <>
      <DispensaAlert id={String(row.id)} version={row.version} />
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
    </>
  );
}

export default function AprovacaoPage() {
  const { id = '' } = useParams<{ id: string }>();
  return (
    <DocumentApprovalPage
      doc={{ endpoint: REQ_ENDPOINT, flow: fluxoRequisicao, documento: 'Requisição', feminino: true, transitionDialog: dialogoDaDecisao }}
      id={id}
      title={REQ_TITLES.approveTitle}
      back={{ href: '/', label: 'Voltar para Requisições' }}
      open={{ href: `/edit/${id}`, label: 'Abrir requisição' }}
      timeline={{ labels: TIMELINE_LABELS, formats: TIMELINE_FORMATS }}
    >
      {(row) => <Requisicao row={row} />}
    </DocumentApprovalPage>
  );
}
