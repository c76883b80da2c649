// /cotacao/de-requisicao: a new cotação with the items of an approved requisição, on the core's
// CreateFromPage (the server's links: GET /cotacoes/requisicoes-aprovadas, tag 73, a comprador may not
// hold Requisições; POST /cotacoes/cotacoes/de-requisicao → a rascunho with its objeto, centro, items
// and reference values, the entidade's method, today's reference date); then the collection of prices (/add/:id).
import { formatDate } from '@app/br';
import { CreateFromPage } from '@app/core';
import { formatMoney, formatNumero } from '@app/documents';
import { DetailsList } from '@app/ui';
import { COTACOES_ENDPOINT, plural } from '../components/comum';
import { COTACAO_TITLES } from '../titles';

/** A row of GET /cotacoes/requisicoes-aprovadas. */
interface RequisicaoAprovada {
  id: string;
  numero: number;
  ano: number;
  data: string;
  justificativa: string;
  centroCustoId: string;
  /** '02 – Secretaria de Educação'. */
  centroCustoNome: string;
  solicitanteNome: string;
  valorTotal: string;
  /** How many items. */
  itens: number;
  cotacao: { id: string; numero: number; ano: number } | null;
}

const CAMPO = 'de-requisicao-requisicao';
const itens = (n: number) => plural(n, 'item', 'itens');
const rotulo = (r: RequisicaoAprovada) =>
  `${formatNumero(r.numero, r.ano)} – ${r.justificativa.length > 80 ? `${r.justificativa.slice(0, 79)}…` : r.justificativa}`;
const descricao = (r: RequisicaoAprovada) => `${r.centroCustoNome} · ${r.solicitanteNome} · ${itens(r.itens)} · ${formatMoney(r.valorTotal)}`;

export default function DeRequisicao() {
  return (
    <CreateFromPage<RequisicaoAprovada>
      title={COTACAO_TITLES.fromRequisicaoTitle}
      description="O objeto (a justificativa), o centro de custo e os itens da requisição aprovada, com os valores dela como referência, vão para um rascunho de cotação, com o método de cálculo padrão da entidade e a data de referência de hoje. Cada requisição tem uma só cotação em andamento."
      back={`Voltar para ${COTACAO_TITLES.title}`}
      cancel
      picker={{
        endpoint: 'cotacoes/requisicoes-aprovadas',
        field: 'requisicaoId',
        card: 'Requisição aprovada',
        label: 'Requisição aprovada',
        placeholder: 'Número (12/2026), justificativa ou solicitante…',
        emptyText: 'Nenhuma requisição aprovada sem cotação encontrada',
        hint: 'Requisições aprovadas dos seus centros de custo que ainda não têm cotação em andamento.',
        required: 'Escolha a requisição aprovada.',
        ids: { input: CAMPO, hint: `${CAMPO}-dica`, error: `${CAMPO}-erro` },
        optionLabel: rotulo,
        optionDescription: descricao,
        details: (r) => (
          <DetailsList
            data-testid="requisicao-escolhida"
            style={{ marginTop: '1rem' }}
            items={[
              { label: 'Requisição', value: formatNumero(r.numero, r.ano) },
              { label: 'Data', value: formatDate(r.data) },
              { label: 'Centro de custo', value: r.centroCustoNome },
              { label: 'Solicitante', value: r.solicitanteNome },
              { label: 'Itens', value: itens(r.itens) },
              { label: 'Valor total estimado', value: formatMoney(r.valorTotal) },
              { label: 'Justificativa (será o objeto da cotação)', value: <span className="text-pre-wrap">{r.justificativa}</span>, wide: true },
            ]}
          />
        ),
      }}
      create={{
        endpoint: 'cotacoes/cotacoes/de-requisicao',
        submit: 'Criar cotação',
        created: (c, r) => `Cotação ${formatNumero(c.numero as number, c.ano as number)} criada a partir da requisição ${formatNumero(r.numero, r.ano)}.`,
        failed: 'Não foi possível criar a cotação.',
        open: (c) => `/add/${encodeURIComponent(String(c.id))}`,
        document: COTACOES_ENDPOINT,
      }}
    />
  );
}
