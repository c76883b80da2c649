// /requisicao/pre-requisicao: pré-requisições with items still to convert; /pre-requisicao/edit/:id:
// choose items and quantities of one of them → a new requisição (its lines keep preRequisicaoItemId:
// what is left stays pending on the pré-requisição).
import { LoadErrorAlert, api, apiErrorBody, apiErrorMessage, toast, useQuery, useQueryClient } from '@app/core';
import { compareDecimal, formatMoney, formatNumero, lineTotal, parseDecimalInput, sumMoney } from '@app/documents';
import { Alert, Button, Card, CheckboxField, DataTable, PageHeader, PageLoading, SelectField, TextField } from '@app/ui';
import { useMemo, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { CATEGORIA_LABEL, CATEGORIAS, type ItemPendente, requisicaoInputSchema } from '../../shared/index.js';
import { REQ_TITLES } from '../titles';
import { PRE_ENDPOINT, REQ_ENDPOINT, type Row, quantidade, resourceKey, useRecord } from './common';

const usePendentes = (preRequisicaoId?: string) =>
  useQuery({
    queryKey: ['requisicoes', 'itens-pendentes', preRequisicaoId ?? ''],
    queryFn: () =>
      api.get('requisicoes/pre-requisicoes/itens-pendentes', { searchParams: preRequisicaoId ? { preRequisicaoId } : {} }).json<{ items: ItemPendente[] }>(),
  });

interface Grupo {
  id: string;
  numero: string;
  centro: string;
  itens: number;
  valor: string;
}

export function PendingList() {
  const pendentes = usePendentes();
  const grupos = useMemo<Grupo[]>(() => {
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
          <DataTable<Grupo>
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

interface Escolha {
  incluir: boolean;
  quantidade: string;
}

export function ConvertPage() {
  const { id = '' } = useParams<{ id: string }>();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const pre = useRecord(PRE_ENDPOINT, id);
  const pendentes = usePendentes(id);
  const [escolhas, setEscolhas] = useState<Record<string, Escolha>>({});
  const [categoria, setCategoria] = useState('compras');
  const [dotacao, setDotacao] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  const itens = pendentes.data?.items ?? [];
  const escolha = (item: ItemPendente): Escolha => escolhas[item.id] ?? { incluir: true, quantidade: quantidade(item.pendente) };
  const set = (item: ItemPendente, patch: Partial<Escolha>) => setEscolhas((all) => ({ ...all, [item.id]: { ...escolha(item), ...patch } }));

  if (pre.isError || pendentes.isError) {
    return (
      <>
        <PageHeader title={REQ_TITLES.convertTitle} before={<Link href="/pre-requisicao">Voltar</Link>} />
        <LoadErrorAlert title="Não foi possível carregar a pré-requisição" error={pre.error ?? pendentes.error} onRetry={() => void pre.refetch()} />
      </>
    );
  }
  if (!pre.data || !pendentes.data) return <PageLoading />;
  const row: Row = pre.data;
  const nomePre = formatNumero(row.numero as number, row.ano as number);

  const escolhidos = itens.filter((i) => escolha(i).incluir);
  const total = sumMoney(escolhidos.map((i) => lineTotal(parseDecimalInput(escolha(i).quantidade) ?? '0', i.valorUnitario)));

  const criar = async () => {
    const next: Record<string, string> = {};
    const linhas = escolhidos.map((item) => {
      const q = parseDecimalInput(escolha(item).quantidade);
      if (!q || compareDecimal(q, '0') <= 0) next[item.id] = 'Informe a quantidade.';
      else if (compareDecimal(q, item.pendente) > 0) next[item.id] = `A quantidade passa do pendente (${quantidade(item.pendente)}).`;
      return { produtoId: item.produtoId, quantidade: q ?? '', valorUnitario: item.valorUnitario, preRequisicaoItemId: item.id };
    });
    if (linhas.length === 0) next.itens = 'Escolha ao menos um item.';
    const body = {
      centroCustoId: row.centroCustoId,
      tipoSolicitacaoId: row.tipoSolicitacaoId,
      categoria,
      dotacao: dotacao.trim() || null,
      justificativa: row.justificativa,
      itens: linhas,
    };
    const parsed = requisicaoInputSchema.safeParse(body);
    if (!parsed.success && Object.keys(next).length === 0) next.itens = parsed.error.issues[0]?.message ?? 'Verifique os itens.';
    setErrors(next);
    if (Object.keys(next).length) return;
    setSaving(true);
    try {
      const created = await api.post('requisicoes/requisicoes', { json: body }).json<Row>();
      toast.success(`Requisição ${formatNumero(created.numero as number, created.ano as number)} criada a partir da pré-requisição ${nomePre}.`);
      queryClient.setQueryData(['resource', REQ_ENDPOINT, 'item', String(created.id)], created);
      await queryClient.invalidateQueries({ queryKey: resourceKey(REQ_ENDPOINT) });
      await queryClient.invalidateQueries({ queryKey: resourceKey(PRE_ENDPOINT) });
      await queryClient.invalidateQueries({ queryKey: ['requisicoes'] });
      navigate(`/edit/${String(created.id)}`);
    } catch (error) {
      const fields = apiErrorBody(error)?.fields ?? {};
      const porItem: Record<string, string> = {};
      for (const [path, message] of Object.entries(fields)) {
        const m = /^itens\.(\d+)\./.exec(path);
        const item = m ? escolhidos[Number(m[1])] : undefined;
        if (item) porItem[item.id] = message;
        else porItem.itens = message;
      }
      setErrors(porItem);
      toast.error(apiErrorMessage(error, 'Não foi possível criar a requisição.'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <PageHeader
        title={`${REQ_TITLES.convertTitle} ${nomePre}`}
        description={`${String(row.centroCustoCodigo ?? '')} – ${String(row.centroCustoNome ?? '')} · ${String(row.tipoSolicitacaoNome ?? '')}`}
        before={<Link href="/pre-requisicao">Voltar para {REQ_TITLES.pendingTitle}</Link>}
        actions={
          <Button loading={saving} onClick={() => void criar()}>
            Criar requisição
          </Button>
        }
      />
      <Card title="Requisição">
        <div style={{ display: 'grid', gap: '1rem', gridTemplateColumns: 'repeat(auto-fit, minmax(16rem, 1fr))' }}>
          <SelectField
            label="Categoria do objeto"
            required
            value={categoria}
            onChange={(e) => setCategoria(e.target.value)}
            options={CATEGORIAS.map((value) => ({ value, label: CATEGORIA_LABEL[value] }))}
            hint="Decide o limite de dispensa (art. 75, I ou II, da Lei 14.133/2021)."
          />
          <TextField label="Dotação orçamentária" maxLength={200} value={dotacao} onChange={(e) => setDotacao(e.target.value)} />
        </div>
        <p className="field__label">Justificativa (da pré-requisição)</p>
        <p style={{ whiteSpace: 'pre-wrap' }}>{String(row.justificativa ?? '')}</p>
      </Card>
      <Card title="Itens a converter" flush>
        {errors.itens ? <Alert variant="error">{errors.itens}</Alert> : null}
        <DataTable<ItemPendente>
          caption="Itens pendentes da pré-requisição"
          captionHidden
          rows={itens}
          empty="Todos os itens desta pré-requisição já foram atendidos."
          columns={[
            {
              key: 'incluir',
              header: 'Incluir',
              width: '5rem',
              render: (item) => (
                <CheckboxField
                  label={<span className="visually-hidden">Incluir {item.produtoDescricao}</span>}
                  checked={escolha(item).incluir}
                  onChange={(e) => set(item, { incluir: e.target.checked })}
                />
              ),
            },
            { key: 'produto', header: 'Produto ou serviço', rowHeader: true, render: (item) => `${item.produtoCodigo} – ${item.produtoDescricao}` },
            { key: 'unidadeSigla', header: 'Unid.', width: '5rem' },
            { key: 'quantidadePedida', header: 'Pedida', align: 'end', render: (item) => quantidade(item.quantidade) },
            { key: 'atendido', header: 'Atendida', align: 'end', render: (item) => quantidade(item.atendido) },
            { key: 'pendente', header: 'Pendente', align: 'end', render: (item) => quantidade(item.pendente) },
            {
              key: 'quantidade',
              header: 'Quantidade na requisição',
              width: '10rem',
              render: (item) => (
                <TextField
                  label={<span className="visually-hidden">Quantidade de {item.produtoDescricao} na requisição</span>}
                  inputMode="decimal"
                  disabled={!escolha(item).incluir}
                  value={escolha(item).quantidade}
                  error={errors[item.id]}
                  onChange={(e) => set(item, { quantidade: e.target.value })}
                />
              ),
            },
            { key: 'valorUnitario', header: 'Valor unitário estimado', align: 'end', render: (item) => formatMoney(item.valorUnitario, 4) },
          ]}
        />
        <p style={{ textAlign: 'end', padding: '0.75rem 1rem', margin: 0 }}>
          Valor total estimado: <strong>{formatMoney(total)}</strong>
        </p>
      </Card>
    </>
  );
}
