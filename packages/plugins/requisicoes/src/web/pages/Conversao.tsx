// /requisicao/pre-requisicao: pré-requisições with items still to convert; /pre-requisicao/edit/:id:
// choose items and quantities of one of them → a new requisição (the kit's CoverLinesPage; its lines
// keep preRequisicaoItemId: what is left stays pending on the pré-requisição).
import { CoverLinesPage, LoadErrorAlert, api, queryKeys, useQuery } from '@app/core';
import { formatMoney, formatNumero, lineTotal, sumMoney } from '@app/documents';
import { Card, DataTable, PageHeader, SelectField, TextField } from '@app/ui';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'wouter';
import { type ItemPendente, requisicaoInputSchema } from '../../shared/index.js';
import { REQ_TITLES } from '../titles';
import { PRE_ENDPOINT, REQ_ENDPOINT, categorias, centroNome, numero, quantidade } from './common';

export function PendingList() {
  const pendentes = useQuery({
    queryKey: queryKeys.plugin('requisicoes', 'itens-pendentes', ''),
    queryFn: () => api.get('requisicoes/pre-requisicoes/itens-pendentes').json<{ items: ItemPendente[] }>(),
  });
  // one row per pré-requisição: its pending items and their estimated value
  const grupos = useMemo(() => {
    const out = new Map<string, ItemPendente[]>();
    for (const item of pendentes.data?.items ?? []) out.set(item.preRequisicaoId, [...(out.get(item.preRequisicaoId) ?? []), item]);
    return [...out.values()].map((itens) => ({
      id: itens[0]!.preRequisicaoId,
      numero: formatNumero(itens[0]!.preRequisicaoNumero, itens[0]!.preRequisicaoAno),
      centro: itens[0]!.centroCustoNome,
      itens: itens.length,
      valor: sumMoney(itens.map((i) => lineTotal(i.pendente, i.valorUnitario))),
    }));
  }, [pendentes.data]);
  return (
    <>
      <PageHeader
        title={REQ_TITLES.pendingTitle}
        description="Pré-requisições enviadas com itens ainda não atendidos: escolha uma para gerar a requisição."
        before={<Link href="/">Voltar para Requisições</Link>}
      />
      {pendentes.isError ? (
        <LoadErrorAlert title="Não foi possível carregar as pré-requisições" error={pendentes.error} onRetry={() => void pendentes.refetch()} />
      ) : (
        <Card flush>
          <DataTable
            caption={REQ_TITLES.pendingTitle}
            captionHidden
            loading={!pendentes.data}
            rows={grupos}
            empty="Nenhuma pré-requisição aguardando conversão."
            columns={[
              { key: 'numero', header: 'Pré-requisição', width: '8rem', rowHeader: true },
              { key: 'centro', header: 'Centro de custo' },
              { key: 'itens', header: 'Itens pendentes', align: 'end' },
              { key: 'valor', header: 'Valor pendente estimado', align: 'end', render: (g) => formatMoney(g.valor) },
              {
                key: 'acoes',
                header: 'Ações',
                align: 'end',
                render: (g) => (
                  <Link
                    href={`/pre-requisicao/edit/${g.id}`}
                    className="button button--primary button--sm"
                    aria-label={`Converter a pré-requisição ${g.numero}`}
                  >
                    Converter
                  </Link>
                ),
              },
            ]}
          />
        </Card>
      )}
    </>
  );
}

export function ConvertPage() {
  const { id = '' } = useParams<{ id: string }>();
  const [categoria, setCategoria] = useState('compras');
  const [dotacao, setDotacao] = useState('');
  return (
    <CoverLinesPage<ItemPendente>
      source={{ endpoint: PRE_ENDPOINT, id }}
      pending={{ path: 'requisicoes/pre-requisicoes/itens-pendentes', searchParams: { preRequisicaoId: id } }}
      target={{ endpoint: REQ_ENDPOINT, documento: 'Requisição', feminino: true, editHref: (created) => `/edit/${created}` }}
      title={(row) => `${REQ_TITLES.convertTitle} ${numero(row)}`}
      description={(row) => `${centroNome(row)} · ${String(row.tipoSolicitacaoNome ?? '')}`}
      back={<Link href="/pre-requisicao">Voltar para {REQ_TITLES.pendingTitle}</Link>}
      errorTitle={{ page: REQ_TITLES.convertTitle, alert: 'Não foi possível carregar a pré-requisição' }}
      header={(row) => (
        <Card title="Requisição">
          <div style={{ display: 'grid', gap: '1rem', gridTemplateColumns: 'repeat(auto-fit, minmax(16rem, 1fr))' }}>
            <SelectField
              label="Categoria do objeto"
              required
              value={categoria}
              onChange={(e) => setCategoria(e.target.value)}
              options={categorias}
              hint="Decide o limite de dispensa (art. 75, I ou II, da Lei 14.133/2021)."
            />
            <TextField label="Dotação orçamentária" maxLength={200} value={dotacao} onChange={(e) => setDotacao(e.target.value)} />
          </div>
          <p className="field__label">Justificativa (da pré-requisição)</p>
          <p style={{ whiteSpace: 'pre-wrap' }}>{String(row.justificativa ?? '')}</p>
        </Card>
      )}
      columns={({ include, quantity }) => [
        include,
        { key: 'produto', header: 'Produto ou serviço', rowHeader: true, render: (item) => `${item.produtoCodigo} – ${item.produtoDescricao}` },
        { key: 'unidadeSigla', header: 'Unid.', width: '5rem' },
        { key: 'quantidadePedida', header: 'Pedida', align: 'end', render: (item) => quantidade(item.quantidade) },
        { key: 'atendido', header: 'Atendida', align: 'end', render: (item) => quantidade(item.atendido) },
        { key: 'pendente', header: 'Pendente', align: 'end', render: (item) => quantidade(item.pendente) },
        quantity('Quantidade na requisição'),
        { key: 'valorUnitario', header: 'Valor unitário estimado', align: 'end', render: (item) => formatMoney(item.valorUnitario, 4) },
      ]}
      lines={{
        title: 'Itens a converter',
        caption: 'Itens pendentes da pré-requisição',
        empty: 'Todos os itens desta pré-requisição já foram atendidos.',
        name: (item) => item.produtoDescricao,
        unitValue: (item) => item.valorUnitario,
        toBody: (item, q) => ({ produtoId: item.produtoId, quantidade: q, valorUnitario: item.valorUnitario, preRequisicaoItemId: item.id }),
      }}
      body={(row, itens) => ({
        centroCustoId: row.centroCustoId,
        tipoSolicitacaoId: row.tipoSolicitacaoId,
        categoria,
        dotacao: dotacao.trim() || null,
        justificativa: row.justificativa,
        itens,
      })}
      validate={(body) => {
        const parsed = requisicaoInputSchema.safeParse(body);
        return parsed.success ? undefined : (parsed.error.issues[0]?.message ?? 'Verifique os itens.');
      }}
      submitLabel="Criar requisição"
      created={(created, row) => `Requisição ${numero(created)} criada a partir da pré-requisição ${numero(row)}.`}
      invalidate={[queryKeys.plugin('requisicoes')]}
    />
  );
}
