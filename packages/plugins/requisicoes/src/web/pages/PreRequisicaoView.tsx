// /pre-requisicao/ver/:id: a pré-requisição read-only, with what became of each item (atendido,
// pendente, the requisições that converted it) and its timeline (as the pré-requisição's pages declare it).
import { LoadErrorAlert, RecordTimeline, StatusBadge, documentTimeline, useDocument } from '@app/core';
import { formatMoney, formatNumero } from '@app/documents';
import { Card, DataTable, PageHeader, PageLoading } from '@app/ui';
import { Fragment } from 'react';
import { Link, useParams } from 'wouter';
import { fluxoPreRequisicao, fluxoRequisicao } from '../../shared/index.js';
import { PRE_TITLES } from '../titles';
import { Cabecalho, PRE_ENDPOINT, type Row, colunasItem, numero, quantidade } from './common';
import preRequisicoes from './preRequisicoes';

type Conversao = { id: string; numero: number; ano: number; status: string; quantidade: string };

export default function PreRequisicaoView() {
  const { id = '' } = useParams<{ id: string }>();
  const { record: row, error, reload } = useDocument(PRE_ENDPOINT, id);
  const voltar = <Link href="/">Voltar para Pré-requisições</Link>;
  if (error) {
    return (
      <>
        <PageHeader title={PRE_TITLES.viewTitle} before={voltar} />
        <LoadErrorAlert title="Não foi possível carregar a pré-requisição" error={error} onRetry={() => void reload()} />
      </>
    );
  }
  if (!row) return <PageLoading />;
  return (
    <>
      <PageHeader
        title={`${PRE_TITLES.viewTitle} ${numero(row)}`}
        description={<StatusBadge flow={fluxoPreRequisicao} status={row.status} />}
        before={voltar}
        actions={
          <Link href={`/edit/${id}`} className="button button--secondary">
            {row.editavel === false ? 'Abrir' : 'Editar'}
          </Link>
        }
      />
      <Cabecalho title="Pré-requisição" row={row} fim={[{ label: 'Valor total estimado', value: formatMoney(row.valorTotal as string) }]} />
      <Card title="Atendimento dos itens" flush>
        <DataTable<Row>
          caption="Atendimento dos itens"
          captionHidden
          rows={(row.itens as Row[] | undefined) ?? []}
          rowKey={(item, i) => String(item.id ?? i)}
          columns={[
            ...colunasItem,
            { key: 'quantidade', header: 'Pedida', align: 'end', render: (item) => quantidade(item.quantidade) },
            { key: 'atendido', header: 'Atendida', align: 'end', render: (item) => quantidade(item.atendido) },
            { key: 'pendente', header: 'Pendente', align: 'end', render: (item) => quantidade(item.pendente) },
            { key: 'situacao', header: 'Situação do item', render: (item) => (Number(item.pendente ?? 0) > 0 ? 'Pendente' : 'Atendido') },
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
        <RecordTimeline id={id} {...documentTimeline(preRequisicoes.config)} />
      </Card>
    </>
  );
}
