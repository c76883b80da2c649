// /pre-requisicao/de-memorando: a new pré-requisição from an accepted memorando (its items and
// justification copied, the link kept). The memorando is searched among the accepted ones of the
// person's centros that have not yet given a pré-requisição (GET /pre-requisicoes/memorandos-aceitos,
// tag 39: a requisitante may not hold Memorandos); then the centro de custo and the tipo de
// solicitação, and POST /pre-requisicoes/de-memorando → the new pré-requisição's edit page.
import { api, apiErrorBody, apiErrorMessage, toast, useQuery, useQueryClient, useSession } from '@app/core';
import { formatMoney, formatNumero } from '@app/documents';
import { Alert, AsyncCombobox, type AsyncComboboxOption, Button, Card, PageHeader, SelectField } from '@app/ui';
import { type FormEvent, useCallback, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { MemorandoAceito } from '../../shared/index.js';
import { PRE_TITLES } from '../titles';
import { PRE_ENDPOINT, type Row, resourceKey } from './common';

type Page<T> = { items: T[]; total: number };
type Campo = 'memorandoId' | 'centroCustoId' | 'tipoSolicitacaoId';

const opcoes = (endpoint: string, searchParams: Record<string, string>) =>
  api.get(endpoint, { searchParams: { pageSize: '200', ...searchParams } }).json<Page<Row>>();

const descricao = (m: MemorandoAceito) =>
  `${m.origemNome} → ${m.destinoNome} · ${m.solicitanteNome} · ${m.itens === 1 ? '1 item' : `${m.itens} itens`} · ${formatMoney(m.valorTotal)}`;

export default function DeMemorando() {
  const session = useSession();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [memorando, setMemorando] = useState<MemorandoAceito | null>(null);
  const [centro, setCentro] = useState('');
  const [tipo, setTipo] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Campo, string>>>({});
  const [saving, setSaving] = useState(false);
  const found = useRef(new Map<string, MemorandoAceito>());

  const centros = useQuery({
    queryKey: ['requisicoes', 'centros-custo', 'meus'],
    queryFn: async () => {
      const page = await opcoes('requisicoes/centros-custo', { meus: 'true' });
      return page.items.map((c) => ({ value: String(c.id), label: `${String(c.codigo)} – ${String(c.nome)}` }));
    },
  });
  const tipos = useQuery({
    queryKey: ['requisicoes', 'tipos-solicitacao'],
    queryFn: async () => (await opcoes('requisicoes/tipos-solicitacao', {})).items.map((t) => ({ value: String(t.id), label: String(t.nome) })),
  });
  // the memorando's origin when it is one of the person's centros, else their first centro
  const centroPadrao = (m: MemorandoAceito | null) => {
    const meus = centros.data?.map((c) => c.value) ?? [];
    if (m && meus.includes(m.origemId)) return m.origemId;
    const primeiro = session?.centrosCusto?.find((id) => meus.includes(id));
    return primeiro ?? (meus.length === 1 ? meus[0]! : '');
  };

  const loadOptions = useCallback(async (q: string, signal: AbortSignal): Promise<AsyncComboboxOption[]> => {
    const page = await api
      .get('requisicoes/pre-requisicoes/memorandos-aceitos', { searchParams: { q, disponiveis: 'true', pageSize: '20' }, signal })
      .json<Page<MemorandoAceito>>();
    for (const m of page.items) found.current.set(m.id, m);
    return page.items.map((m) => ({ value: m.id, label: `${formatNumero(m.numero, m.ano)} – ${m.assunto}`, description: descricao(m) }));
  }, []);

  const criar = async (event: FormEvent) => {
    event.preventDefault();
    const next: Partial<Record<Campo, string>> = {};
    if (!memorando) next.memorandoId = 'Escolha o memorando.';
    if (!centro) next.centroCustoId = 'Escolha o centro de custo.';
    if (!tipo) next.tipoSolicitacaoId = 'Escolha o tipo de solicitação.';
    setErrors(next);
    if (Object.keys(next).length || !memorando) return;
    setSaving(true);
    try {
      const created = await api
        .post('requisicoes/pre-requisicoes/de-memorando', { json: { memorandoId: memorando.id, centroCustoId: centro, tipoSolicitacaoId: tipo } })
        .json<Row>();
      const nome = formatNumero(created.numero as number, created.ano as number);
      toast.success(`Pré-requisição ${nome} criada a partir do memorando ${formatNumero(memorando.numero, memorando.ano)}.`);
      queryClient.setQueryData(['resource', PRE_ENDPOINT, 'item', String(created.id)], created);
      await queryClient.invalidateQueries({ queryKey: resourceKey(PRE_ENDPOINT) });
      await queryClient.invalidateQueries({ queryKey: ['requisicoes'] });
      navigate(`/edit/${String(created.id)}`);
    } catch (error) {
      const fields = apiErrorBody(error)?.fields ?? {};
      const porCampo: Partial<Record<Campo, string>> = {};
      for (const campo of ['memorandoId', 'centroCustoId', 'tipoSolicitacaoId'] as const) if (fields[campo]) porCampo[campo] = fields[campo];
      setErrors(porCampo);
      toast.error(apiErrorMessage(error, 'Não foi possível criar a pré-requisição.'));
    } finally {
      setSaving(false);
    }
  };

  const erroId = (campo: Campo) => `de-memorando-${campo}-erro`;
  return (
    <>
      <PageHeader
        title={PRE_TITLES.fromMemorandoTitle}
        description="Os itens e a justificativa do memorando aceito são copiados para a nova pré-requisição, que guarda o vínculo. Cada memorando gera uma só pré-requisição."
        before={<Link href="/">Voltar para {PRE_TITLES.title}</Link>}
      />
      {centros.isError || tipos.isError ? (
        <Alert variant="error" title="Não foi possível carregar os centros de custo e os tipos de solicitação">
          {apiErrorMessage(centros.error ?? tipos.error, 'Tente novamente.')}
        </Alert>
      ) : null}
      <form onSubmit={(e) => void criar(e)} noValidate aria-label={PRE_TITLES.fromMemorandoTitle}>
        <Card title="Memorando de origem">
          <div className={errors.memorandoId ? 'field field--invalid' : 'field'}>
            <label className="field__label" htmlFor="de-memorando-memorando">
              Memorando aceito
              <span className="field__required" aria-hidden="true">
                {' '}
                *
              </span>
            </label>
            <AsyncCombobox
              id="de-memorando-memorando"
              label="Memorando aceito"
              value={memorando?.id ?? null}
              selectedLabel={memorando ? `${formatNumero(memorando.numero, memorando.ano)} – ${memorando.assunto}` : undefined}
              loadOptions={loadOptions}
              placeholder="Número (12/2026), assunto ou solicitante…"
              emptyText="Nenhum memorando aceito sem pré-requisição encontrado"
              required
              invalid={Boolean(errors.memorandoId)}
              describedBy={['de-memorando-memorando-dica', errors.memorandoId ? erroId('memorandoId') : ''].filter(Boolean).join(' ')}
              onChange={(value) => {
                const m = value ? (found.current.get(value) ?? null) : null;
                setMemorando(m);
                if (m && !centro) setCentro(centroPadrao(m));
              }}
            />
            <p id="de-memorando-memorando-dica" className="field__hint">
              Memorandos aceitos dos seus centros de custo (origem ou destino) que ainda não geraram pré-requisição.
            </p>
            {errors.memorandoId ? (
              <p id={erroId('memorandoId')} className="field__error">
                {errors.memorandoId}
              </p>
            ) : null}
          </div>
          {memorando ? (
            <dl className="requisicoes-memorando" data-testid="memorando-escolhido">
              <dt>Origem → destino</dt>
              <dd>
                {memorando.origemNome} → {memorando.destinoNome}
              </dd>
              <dt>Solicitante</dt>
              <dd>{memorando.solicitanteNome}</dd>
              <dt>Itens</dt>
              <dd>{memorando.itens}</dd>
              <dt>Valor total estimado</dt>
              <dd>{formatMoney(memorando.valorTotal)}</dd>
            </dl>
          ) : null}
        </Card>
        <Card title="Pré-requisição">
          <div style={{ display: 'grid', gap: '1rem', gridTemplateColumns: 'repeat(auto-fit, minmax(16rem, 1fr))' }}>
            <SelectField
              label="Centro de custo"
              required
              placeholder={centros.data ? 'Escolha…' : 'Carregando…'}
              value={centro}
              onChange={(e) => setCentro(e.target.value)}
              options={centros.data ?? []}
              error={errors.centroCustoId}
            />
            <SelectField
              label="Tipo de solicitação"
              required
              placeholder={tipos.data ? 'Escolha…' : 'Carregando…'}
              value={tipo}
              onChange={(e) => setTipo(e.target.value)}
              options={tipos.data ?? []}
              error={errors.tipoSolicitacaoId}
            />
          </div>
          <div style={{ marginTop: '1rem' }}>
            <Button type="submit" loading={saving}>
              Criar pré-requisição
            </Button>
          </div>
        </Card>
      </form>
    </>
  );
}
