// /requisicao/aprovar/:id: the approval page, the kit's (DocumentApprovalPage: the level awaited, the
// kit's transition buttons and dialog, who may decide, the steps of this round, the timeline as the
// requisição's pages declare it) with the requisição's own content: the dispensa alert, the record
// and its items and total.
import { DocumentApprovalPage, documentTimeline } from '@app/core';
import { formatMoney } from '@app/documents';
import { Card, DataTable } from '@app/ui';
import { useParams } from 'wouter';
import { CATEGORIA_LABEL, type Categoria, fluxoRequisicao } from '../../shared/index.js';
import { REQ_TITLES } from '../titles';
import { Cabecalho, DispensaAlert, REQ_ENDPOINT, type Row, colunasItem, dialogoDaDecisao, quantidade, valores } from './common';
import requisicoes from './requisicoes';

function Requisicao({ row }: { row: Row }) {
  return (
    <>
      <DispensaAlert id={String(row.id)} version={row.version} />
      <Cabecalho
        title="Requisição"
        row={row}
        meio={[
          { label: 'Categoria do objeto', value: CATEGORIA_LABEL[row.categoria as Categoria] ?? '' },
          { label: 'Dotação orçamentária', value: String(row.dotacao ?? '') || 'Não informada' },
        ]}
        fim={[{ label: 'Valor total estimado', value: <strong>{formatMoney(row.valorTotal as string)}</strong> }, ...valores(row)]}
      />
      <Card title="Itens" flush>
        <DataTable
          caption="Itens da requisição"
          captionHidden
          rows={(row.itens as Row[] | undefined) ?? []}
          rowKey={(item, i) => String(item.id ?? i)}
          columns={[
            ...colunasItem,
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
      timeline={documentTimeline(requisicoes.config)}
    >
      {(row) => <Requisicao row={row} />}
    </DocumentApprovalPage>
  );
}
