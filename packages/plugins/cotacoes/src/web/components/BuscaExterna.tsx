// 'Buscar no PNCP' (or any external price source a plugin contributes, GET /api/cotacoes/fontes-externas)
// for one item of the 'Por item' tab: search by the catalogue code (CATMAT/CATSER, filled from the
// product) or the description, in the year up to the reference date; one page of results (description,
// unit, price, órgão, supplier, date, link), a different unit flagged, those already in the cotação
// marked; the chosen ones become prices of the source, each kept with the source's answer as evidence.
import { formatDate, formatDateTime } from '@app/br';
import { api, apiErrorBody, apiErrorMessage, queryKeys, toast, useQuery } from '@app/core';
import { formatDecimal, formatMoney } from '@app/documents';
import { Alert, Button, DataTable, type DataTableColumn, Pagination, TextField } from '@app/ui';
import { type FormEvent, useState } from 'react';
import type { BuscaExterna as Busca, FonteExterna, IncluirExternosInput, ItemCotacao, MapaCotacao, PrecoExterno } from '../../shared/index.js';
import { cotacaoPath, useAtualizar } from './comum';

/** The external sources the server offers (none: nothing is shown). */
export function useFontesExternas() {
  return useQuery({
    queryKey: queryKeys.plugin('cotacoes', 'fontes-externas'),
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: ({ signal }) => api.get('cotacoes/fontes-externas', { signal }).json<{ items: FonteExterna[] }>(),
  });
}

interface Consulta {
  codigo: string;
  descricao: string;
  pagina: number;
}

export function BuscaExterna({ mapa, item, fonte }: { mapa: MapaCotacao; item: ItemCotacao; fonte: FonteExterna }) {
  const atualizar = useAtualizar();
  const [campos, setCampos] = useState({ codigo: item.codigoCatalogo ?? '', descricao: item.codigoCatalogo ? '' : item.descricao });
  const [consulta, setConsulta] = useState<Consulta | null>(null);
  const [erros, setErros] = useState<Record<string, string>>({});
  const [escolhidos, setEscolhidos] = useState<Set<string>>(new Set());
  const [incluindo, setIncluindo] = useState(false);
  const caminho = `${cotacaoPath(mapa.cotacao.id)}/fontes-externas/${encodeURIComponent(fonte.id)}`;
  const params = (c: Consulta) => ({
    produtoId: item.produtoId,
    ...(c.codigo ? { codigo: c.codigo } : {}),
    ...(c.descricao ? { descricao: c.descricao } : {}),
    pagina: c.pagina,
  });
  const busca = useQuery({
    queryKey: [...queryKeys.view('/cotacoes/cotacoes', mapa.cotacao.id, `fonte-${fonte.id}`), item.produtoId, consulta],
    enabled: consulta !== null,
    retry: false,
    queryFn: ({ signal }) => api.get(caminho, { searchParams: params(consulta!), signal }).json<Busca>(),
  });
  const erroBusca = busca.error ? apiErrorBody(busca.error) : null;
  const mudar = (campo: 'codigo' | 'descricao') => (e: { target: { value: string } }) => {
    setCampos((c) => ({ ...c, [campo]: e.target.value }));
    setErros((x) => ({ ...x, [campo]: '' }));
  };

  const buscar = (event: FormEvent) => {
    event.preventDefault();
    const codigo = campos.codigo.trim();
    const descricao = campos.descricao.trim();
    const next: Record<string, string> = {};
    if (codigo && !/^\d+$/.test(codigo)) next.codigo = 'O código do catálogo tem só algarismos.';
    if (!codigo && descricao.length < 3) next.descricao = 'Informe o código do catálogo ou ao menos 3 letras da descrição.';
    setErros(next);
    if (Object.keys(next).length) return;
    setEscolhidos(new Set());
    setConsulta({ codigo, descricao, pagina: 1 });
  };

  const incluir = async () => {
    if (!consulta || escolhidos.size === 0) return;
    setIncluindo(true);
    try {
      const corpo: IncluirExternosInput = { ...params(consulta), refs: [...escolhidos] };
      const out = await api.post(caminho, { json: corpo }).json<{ items: unknown[] }>();
      toast.success(out.items.length === 1 ? `1 preço de ${fonte.nome} incluído.` : `${out.items.length} preços de ${fonte.nome} incluídos.`);
      setEscolhidos(new Set());
      await atualizar();
      await busca.refetch();
    } catch (error) {
      toast.error(apiErrorMessage(error, `Não foi possível incluir os preços de ${fonte.nome}.`));
    } finally {
      setIncluindo(false);
    }
  };

  const alternar = (ref: string) =>
    setEscolhidos((atual) => {
      const novo = new Set(atual);
      if (novo.has(ref)) novo.delete(ref);
      else novo.add(ref);
      return novo;
    });

  const colunas: DataTableColumn<PrecoExterno>[] = [
    {
      key: 'escolher',
      header: <span className="visually-hidden">Escolher</span>,
      width: '3rem',
      render: (p) =>
        p.jaIncluido ? (
          <span className="text-sub">Incluído</span>
        ) : (
          <input
            type="checkbox"
            className="checkbox__input"
            checked={escolhidos.has(p.ref)}
            onChange={() => alternar(p.ref)}
            aria-label={`Escolher: ${p.orgao}, ${formatDate(p.data)}, ${formatMoney(p.valorUnitario, 4)}`}
          />
        ),
    },
    { key: 'descricao', header: 'Descrição', rowHeader: true, clamp: true, render: (p) => p.descricao },
    {
      key: 'unidade',
      header: 'Unidade',
      render: (p) => (
        <>
          {p.unidade || '—'}
          {p.unidadeDiferente ? <span className="text-sub"> (diferente de {item.unidade}: confira antes de incluir)</span> : null}
        </>
      ),
    },
    { key: 'quantidade', header: 'Quantidade', align: 'end', render: (p) => (p.quantidade ? formatDecimal(p.quantidade) : '—') },
    { key: 'valor', header: 'Valor unitário', align: 'end', render: (p) => formatMoney(p.valorUnitario, 4) },
    { key: 'orgao', header: 'Órgão', clamp: true, render: (p) => (p.local ? `${p.orgao} (${p.local})` : p.orgao) },
    { key: 'fornecedor', header: 'Fornecedor', clamp: true, render: (p) => p.fornecedor ?? '—' },
    { key: 'data', header: 'Data do resultado', render: (p) => formatDate(p.data) },
    {
      key: 'link',
      header: 'Link',
      render: (p) =>
        p.link ? (
          <a href={p.link} target="_blank" rel="noreferrer noopener">
            Ver no {fonte.nome}
            <span className="visually-hidden"> (abre em nova aba)</span>
          </a>
        ) : (
          '—'
        ),
    },
  ];

  const dados = busca.data;
  return (
    <div className="stack">
      <p className="text-sub">{fonte.descricao}</p>
      <form onSubmit={buscar} noValidate aria-label={`${fonte.acao}: ${item.descricao}`}>
        <div className="form-grid">
          <TextField
            label="Código do catálogo (CATMAT/CATSER)"
            inputMode="numeric"
            maxLength={20}
            value={campos.codigo}
            onChange={mudar('codigo')}
            error={erros.codigo ?? erroBusca?.fields?.codigo}
          />
          <TextField
            label="Descrição"
            maxLength={200}
            value={campos.descricao}
            onChange={mudar('descricao')}
            hint="Palavras da descrição do item, quando não houver código."
            error={erros.descricao ?? erroBusca?.fields?.descricao}
          />
        </div>
        <div className="form-actions">
          <Button type="submit" variant="secondary" loading={busca.isFetching}>
            {fonte.acao}
          </Button>
        </div>
      </form>
      {busca.isError ? <Alert variant="error">{apiErrorMessage(busca.error, `Não foi possível consultar ${fonte.nome}.`)}</Alert> : null}
      {dados ? (
        <>
          <p aria-live="polite">
            Resultados de {formatDate(dados.dataInicial)} a {formatDate(dados.dataFinal)} (até 1 ano antes da data de referência), consultados em{' '}
            {formatDateTime(dados.consultadoEm)}.
          </p>
          <DataTable<PrecoExterno>
            caption={`Preços encontrados em ${fonte.nome}`}
            captionHidden
            rows={dados.itens}
            columns={colunas}
            rowKey={(p) => p.ref}
            empty={`Nada encontrado em ${fonte.nome} no período para esta busca.`}
          />
          {dados.total > dados.tamanhoPagina ? (
            <Pagination
              page={dados.pagina}
              pageSize={dados.tamanhoPagina}
              total={dados.total}
              noun={{ one: 'resultado', other: 'resultados' }}
              onPageChange={(pagina) => {
                setEscolhidos(new Set());
                setConsulta((c) => (c ? { ...c, pagina } : c));
              }}
            />
          ) : null}
          <div className="form-actions">
            <Button onClick={() => void incluir()} loading={incluindo} disabled={escolhidos.size === 0}>
              {escolhidos.size === 1 ? 'Incluir 1 preço' : `Incluir ${escolhidos.size} preços`}
            </Button>
          </div>
        </>
      ) : null}
    </div>
  );
}
