// /cotacao/de-requisicao: a new cotação with the items of an approved requisição. The requisição is
// searched among the approved ones of the person's centros that no live cotação prices yet (GET
// /cotacoes/requisicoes-aprovadas, tag 73: a comprador may not hold Requisições); then POST
// /cotacoes/cotacoes/de-requisicao → a rascunho (its objeto, centro, items with their reference
// values, the entidade's method, today's reference date) and the collection of prices (/add/:id).
import { formatDate } from '@app/br';
import { api, apiErrorBody, apiErrorMessage, apiErrorStatus, toast, useQueryClient } from '@app/core';
import { formatMoney, formatNumero } from '@app/documents';
import { AsyncCombobox, type AsyncComboboxOption, Button, Card, PageHeader } from '@app/ui';
import { type FormEvent, useCallback, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { COTACOES_ENDPOINT } from '../components/comum';
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
type Page<T> = { items: T[]; total: number };
type Row = Record<string, unknown>;

const CAMPO = 'de-requisicao-requisicao';
const ERRO = `${CAMPO}-erro`;
const DICA = `${CAMPO}-dica`;

const itens = (n: number) => (n === 1 ? '1 item' : `${n.toLocaleString('pt-BR')} itens`);
const rotulo = (r: RequisicaoAprovada) =>
  `${formatNumero(r.numero, r.ano)} – ${r.justificativa.length > 80 ? `${r.justificativa.slice(0, 79)}…` : r.justificativa}`;
const descricao = (r: RequisicaoAprovada) => `${r.centroCustoNome} · ${r.solicitanteNome} · ${itens(r.itens)} · ${formatMoney(r.valorTotal)}`;

export default function DeRequisicao() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [requisicao, setRequisicao] = useState<RequisicaoAprovada | null>(null);
  const [erro, setErro] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const found = useRef(new Map<string, RequisicaoAprovada>());

  const loadOptions = useCallback(async (q: string, signal: AbortSignal): Promise<AsyncComboboxOption[]> => {
    const page = await api
      .get('cotacoes/requisicoes-aprovadas', { searchParams: { q, disponiveis: 'true', pageSize: '20' }, signal })
      .json<Page<RequisicaoAprovada>>();
    for (const r of page.items) found.current.set(r.id, r);
    return page.items.map((r) => ({ value: r.id, label: rotulo(r), description: descricao(r) }));
  }, []);

  const focar = () => requestAnimationFrame(() => document.getElementById(CAMPO)?.focus());

  const criar = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    if (!requisicao) {
      setErro('Escolha a requisição aprovada.');
      focar();
      return;
    }
    setErro(null);
    setSaving(true);
    try {
      const created = await api.post('cotacoes/cotacoes/de-requisicao', { json: { requisicaoId: requisicao.id } }).json<Row>();
      const nome = formatNumero(created.numero as number, created.ano as number);
      toast.success(`Cotação ${nome} criada a partir da requisição ${formatNumero(requisicao.numero, requisicao.ano)}.`);
      queryClient.setQueryData(['resource', COTACOES_ENDPOINT, 'item', String(created.id)], created);
      await queryClient.invalidateQueries({ queryKey: ['resource', COTACOES_ENDPOINT] });
      navigate(`/add/${encodeURIComponent(String(created.id))}`);
    } catch (error) {
      // the server's word on this requisição (not approved, already priced, not found) goes on the field
      const status = apiErrorStatus(error);
      const noCampo = apiErrorBody(error)?.fields?.requisicaoId ?? (status === 404 || status === 409 ? apiErrorMessage(error) : null);
      if (noCampo) {
        setErro(noCampo);
        focar();
      } else toast.error(apiErrorMessage(error, 'Não foi possível criar a cotação.'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <PageHeader
        title={COTACAO_TITLES.fromRequisicaoTitle}
        description="O objeto (a justificativa), o centro de custo e os itens da requisição aprovada, com os valores dela como referência, vão para um rascunho de cotação, com o método de cálculo padrão da entidade e a data de referência de hoje. Cada requisição tem uma só cotação em andamento."
        before={<Link href="/">Voltar para {COTACAO_TITLES.title}</Link>}
      />
      <form onSubmit={(e) => void criar(e)} noValidate aria-label={COTACAO_TITLES.fromRequisicaoTitle}>
        <Card title="Requisição aprovada">
          <div className={erro ? 'field field--invalid' : 'field'}>
            <label className="field__label" htmlFor={CAMPO}>
              Requisição aprovada
              <span className="field__required" aria-hidden="true">
                {' '}
                *
              </span>
            </label>
            <AsyncCombobox
              id={CAMPO}
              label="Requisição aprovada"
              value={requisicao?.id ?? null}
              selectedLabel={requisicao ? rotulo(requisicao) : undefined}
              loadOptions={loadOptions}
              placeholder="Número (12/2026), justificativa ou solicitante…"
              emptyText="Nenhuma requisição aprovada sem cotação encontrada"
              required
              invalid={Boolean(erro)}
              describedBy={erro ? `${DICA} ${ERRO}` : DICA}
              onChange={(value) => {
                setRequisicao(value ? (found.current.get(value) ?? null) : null);
                setErro(null);
              }}
            />
            <p id={DICA} className="field__hint">
              Requisições aprovadas dos seus centros de custo que ainda não têm cotação em andamento.
            </p>
            {erro ? (
              <p id={ERRO} className="field__error">
                {erro}
              </p>
            ) : null}
          </div>
          {requisicao ? (
            <dl className="details-list" data-testid="requisicao-escolhida" style={{ marginTop: '1rem' }}>
              <div>
                <dt>Requisição</dt>
                <dd>{formatNumero(requisicao.numero, requisicao.ano)}</dd>
              </div>
              <div>
                <dt>Data</dt>
                <dd>{formatDate(requisicao.data)}</dd>
              </div>
              <div>
                <dt>Centro de custo</dt>
                <dd>{requisicao.centroCustoNome}</dd>
              </div>
              <div>
                <dt>Solicitante</dt>
                <dd>{requisicao.solicitanteNome}</dd>
              </div>
              <div>
                <dt>Itens</dt>
                <dd>{itens(requisicao.itens)}</dd>
              </div>
              <div>
                <dt>Valor total estimado</dt>
                <dd>{formatMoney(requisicao.valorTotal)}</dd>
              </div>
              <div className="details-list__wide">
                <dt>Justificativa (será o objeto da cotação)</dt>
                <dd className="text-pre-wrap">{requisicao.justificativa}</dd>
              </div>
            </dl>
          ) : null}
          <div className="form-actions">
            <Link href="/" className="button button--secondary">
              Cancelar
            </Link>
            <Button type="submit" loading={saving}>
              Criar cotação
            </Button>
          </div>
        </Card>
      </form>
    </>
  );
}
