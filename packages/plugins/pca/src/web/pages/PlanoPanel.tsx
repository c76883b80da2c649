// The plan's own panel: its items (each opens the DFD lines it came from; a big plan's are shown a page
// at a time, with a search) and, while it is being elaborated, the consolidation: the accepted DFDs of
// the plan's year, picked with checkboxes (a page at a time, searched and filtered by Classe/Grupo, the
// DFDs found marked at once).
// Once a publisher (the PNCP) took the plan, a column says how each item stands there, and the items a
// revision took out that the PNCP holds or held are listed under them (to delete there, or deleted on a day). A grupo whose
// total passes the year's dispensa limit is flagged "exige licitação" (card, and on each of its items).
// The contratações planejadas and their calendar: ./Contratacoes.tsx; the lines added without DFD: ./ItensSemDfd.tsx.
import { comprasBusca, formatDate } from '@app/br';
import { type RecordSlotContext, apiErrorBody, apiErrorMessage, downloadFile, queryKeys, useApi, useDocumentChildren, useMutation, useQuery } from '@app/core';
import { formatDecimal, formatMoney, formatNumero } from '@app/documents';
import {
  Alert,
  Button,
  Card,
  CheckboxField,
  DataTable,
  type DataTableColumn,
  Pagination,
  PromptDialog,
  type PromptOptions,
  SelectField,
  TextField,
} from '@app/ui';
import { useEffect, useMemo, useState } from 'react';
import { CATEGORIA_ITEM_PCA, type ContratacaoPlanejada, type FracionamentoDoGrupo, PCA_PATH, PENDENCIA_LABEL } from '../../shared/index.js';
import { Contratacoes } from './Contratacoes';
import { ItensSemDfd } from './ItensSemDfd';
import { RevisaoDoPlano } from './Revisao';

type Row = Record<string, unknown>;
type Fonte = {
  memorandoId: string | null;
  memorandoItemId: string | null;
  manualId: string | null;
  numero: number;
  ano: number;
  origemNome: string;
  justificativa: string | null;
  quantidade: string;
  valorTotal: string;
};
type Item = Row & {
  id: string;
  numeroItem: number;
  descricao: string;
  pendencias: string[];
  /** How many DFD lines the item came from (the lines: GET /planos/:id/itens/:numeroItem/dfds, on opening). */
  dfds: number;
  /** How many lines the setor added without DFD. */
  manuais: number;
  /** The autoridade's refusal (the item is out of the total and of the PNCP). */
  recusaMotivo?: string | null;
  recusadoPor?: string | null;
  recusadoEm?: string | null;
  /** A DFD without desired date, when the item lacks one. */
  semData: { id: string; numero: number; ano: number } | null;
  /** What the publisher (the PNCP) says of the item, once it took the plan. */
  publicacao?: { texto: string; tom: string } | null;
};
type Demanda = {
  id: string;
  numero: number;
  ano: number;
  assunto: string;
  origemNome: string;
  valorTotal: string;
  plano: { id: string; numero: number; ano: number } | null;
  /** The Classes/Grupos of its lines (their `chave`s, in the order of GET /demandas' `classes`). */
  classes?: string[];
};
/** A Classe/Grupo of the DFDs' lines (GET /planos/:id/demandas `classes`): null `tipo` for lines without one. */
type ClasseDasDemandas = { chave: string; tipo: 'classe' | 'grupo' | null; codigo: string | null; nome: string | null; dfds: number };

/** GET /planos/:id `totais`: by PCA category and by requesting unit (the DFD lines consolidated). */
type Total = { rotulo: string; itens: number; valor: string };
type Totais = { porCategoria: Total[]; porUnidade: Total[] };

const colunasTotais = (primeira: string): DataTableColumn<Total>[] => [
  { key: 'rotulo', header: primeira, rowHeader: true, render: (l) => l.rotulo },
  { key: 'itens', header: 'Itens', align: 'end', render: (l) => l.itens },
  { key: 'valor', header: 'Valor', align: 'end', render: (l) => formatMoney(l.valor, 4) },
];

/** An item the publisher (the PNCP) holds or held that the plan no longer has (GET /planos/:id `itensForaDoPlano`). */
type ItemForaDoPlano = {
  numeroItem: number;
  descricao: string | null;
  quantidade: string | null;
  valorTotal: string | null;
  texto: string;
  tom: string;
};
const colunasForaDoPlano: DataTableColumn<ItemForaDoPlano>[] = [
  { key: 'numeroItem', header: 'Item', rowHeader: true, render: (i) => i.numeroItem },
  { key: 'descricao', header: 'Descrição', render: (i) => i.descricao ?? '—' },
  { key: 'quantidade', header: 'Quantidade', align: 'end', render: (i) => (i.quantidade ? formatDecimal(i.quantidade) : '—') },
  { key: 'valorTotal', header: 'Valor total', align: 'end', render: (i) => (i.valorTotal ? formatMoney(i.valorTotal, 4) : '—') },
  { key: 'situacao', header: 'PNCP', render: (i) => <span data-tom={i.tom}>{i.texto}</span> },
];

/** What a publisher (the PNCP) says of the plan (GET /planos/:id `publicacoes`), and what the person may ask of it ('Excluir do PNCP'). */
type Publicacao = {
  texto: string;
  tom: 'info' | 'success' | 'warning' | 'danger';
  link: { href: string; texto: string } | null;
  acao?: { rotulo: string; titulo: string; descricao: string; campo: string; caminho: string };
};
const ALERTA = { info: 'info', success: 'success', warning: 'warning', danger: 'error' } as const;

const colunasFracionamento: DataTableColumn<FracionamentoDoGrupo>[] = [
  { key: 'grupo', header: 'Classe/Grupo', rowHeader: true, render: (g) => `${g.grupoCodigo} – ${g.grupoNome}` },
  { key: 'categoria', header: 'Categoria', render: (g) => g.categoriaRotulo },
  { key: 'itens', header: 'Itens', align: 'end', render: (g) => g.itens },
  { key: 'total', header: 'Total planejado', align: 'end', render: (g) => formatMoney(g.total, 4) },
  {
    key: 'limite',
    header: 'Limite de dispensa',
    align: 'end',
    render: (g) => (g.limite ? `${formatMoney(g.limite)} (${g.anoLimite})` : 'Sem limite cadastrado'),
  },
];

const numero = (d: { numero: number; ano: number }) => formatNumero(d.numero, d.ano);
const data = (iso: unknown) => (typeof iso === 'string' && iso ? formatDate(iso) : '—');

/** A pendência, linked to where it is fixed: the product (catalogue) or the DFD without a desired date. */
function Pendencia({ item, p }: { item: Item; p: string }) {
  const texto = PENDENCIA_LABEL[p] ?? p;
  const href =
    p === 'data_desejada' ? (item.semData ? `/memorandos/edit/${item.semData.id}` : null) : item.produtoId ? `/produtos/edit/${String(item.produtoId)}` : null;
  return href ? <a href={href}>{texto}</a> : texto;
}

/** The checks before approval: every item the PNCP would refuse, each with a link to what must be fixed. */
function Pendencias({ itens }: { itens: Item[] }) {
  const pendentes = itens.filter((i) => i.pendencias.length > 0);
  if (pendentes.length === 0) return null;
  const quantos = pendentes.length === 1 ? '1 item' : `${pendentes.length} itens`;
  return (
    <Alert variant="warning" title={`Pendências para o PNCP: ${quantos}`}>
      <p>O plano só pode ser enviado para aprovação quando cada item tiver o que o PNCP exige. Corrija e envie de novo: os itens são consolidados outra vez.</p>
      <ul aria-label="Pendências para o PNCP">
        {pendentes.slice(0, 50).map((item) =>
          item.pendencias.map((p) => (
            <li key={`${item.id}-${p}`}>
              Item {item.numeroItem} ({item.descricao}): <Pendencia item={item} p={p} />
            </li>
          )),
        )}
      </ul>
      {pendentes.length > 50 ? <p>E mais {(pendentes.length - 50).toLocaleString('pt-BR')} itens (veja a coluna Descrição).</p> : null}
    </Alert>
  );
}

/** The DFD lines of one item, read when it is opened. */
function FontesDoItem({ planoId, item }: { planoId: string; item: Item }) {
  const api = useApi();
  const fontes = useQuery({
    queryKey: queryKeys.plugin('pca', 'planos', planoId, 'itens', item.numeroItem, 'dfds'),
    queryFn: () => api.get(`pca${PCA_PATH}/${planoId}/itens/${item.numeroItem}/dfds`).json<{ items: Fonte[] }>(),
  });
  if (fontes.isError) return <Alert variant="error">{apiErrorMessage(fontes.error, 'Não foi possível ler os DFDs do item.')}</Alert>;
  if (!fontes.data) return <p>Carregando os DFDs do item…</p>;
  return (
    <ul aria-label={`DFDs do item ${item.numeroItem}`}>
      {fontes.data.items.map((f) =>
        f.memorandoId ? (
          <li key={f.memorandoItemId}>
            <a href={`/memorandos/edit/${f.memorandoId}`}>Memorando {numero(f)}</a> – {f.origemNome}: {formatDecimal(f.quantidade)} ×{' '}
            {formatMoney(f.valorTotal, 4)}
          </li>
        ) : (
          <li key={f.manualId}>
            Incluído sem DFD – {f.origemNome}: {formatDecimal(f.quantidade)} × {formatMoney(f.valorTotal, 4)}. Justificativa: {f.justificativa}
          </li>
        ),
      )}
    </ul>
  );
}

/** Item rows on a page: a plan of 5 000 items is not rendered at once (its first rows would take seconds). */
export const ITENS_POR_PAGINA = 100;

/**
 * The page of `linhas` shown (`porPagina` each), its pagination, and the onChange of a search or filter
 * (back to page 1); a page past the last (fewer rows after a search or a new consolidation) is the last.
 */
function usePaginacao<T>(linhas: T[], porPagina: number, noun: { one: string; other: string }) {
  const [pagina, setPagina] = useState(1);
  const atual = Math.min(pagina, Math.max(1, Math.ceil(linhas.length / porPagina)));
  return {
    visiveis: linhas.slice((atual - 1) * porPagina, atual * porPagina),
    paginacao: <Pagination page={atual} pageSize={porPagina} total={linhas.length} onPageChange={setPagina} noun={noun} />,
    filtro: (set: (valor: string) => void) => (e: { currentTarget: { value: string } }) => {
      set(e.currentTarget.value);
      setPagina(1);
    },
  };
}

/** The items a search term picks (número, descrição, código or Classe/Grupo); all of them without one. */
function filtrarItens(itens: Item[], busca: string): Item[] {
  const termo = busca.trim().toLocaleLowerCase('pt-BR');
  if (!termo) return itens;
  return itens.filter((i) =>
    [i.numeroItem, i.descricao, i.codigoItem, i.classificacaoSuperiorCodigo, i.classificacaoSuperiorNome]
      .filter((v) => v !== null && v !== undefined)
      .join(' ')
      .toLocaleLowerCase('pt-BR')
      .includes(termo),
  );
}

function Itens({
  planoId,
  itens,
  exigem,
  contratacao,
  ctx,
  autoridade,
}: {
  planoId: string;
  itens: Item[];
  exigem: Set<number>;
  contratacao: Map<string, number>;
  ctx: RecordSlotContext<Row>;
  /** The person may approve the plan now: she may refuse single items too. */
  autoridade: boolean;
}) {
  const [aberto, setAberto] = useState<string | null>(null);
  const filhos = useDocumentChildren(`/pca${PCA_PATH}`, planoId, 'itens', { list: false });
  const [pedido, setPedido] = useState<PromptOptions | null>(null);
  const recusar = (item: Item) =>
    setPedido({
      title: `Recusar o item ${item.numeroItem} (${item.descricao})?`,
      description: 'O item fica no registro do plano, sai do valor total e não vai ao PNCP.',
      label: 'Motivo da recusa',
      confirmLabel: 'Recusar item',
      min: 5,
      tone: 'danger',
      submit: async (motivo) => {
        const feito = await filhos.action(item.id, 'recusar', { motivo });
        if (!feito.ok) return feito.reason === 'invalid' ? (feito.fields.motivo ?? feito.message) : feito.message;
        await ctx.reload();
        return null;
      },
    });
  const aceitar = async (item: Item) => {
    if ((await filhos.action(item.id, 'aceitar')).ok) await ctx.reload();
  };
  const [busca, setBusca] = useState('');
  const filtrados = useMemo(() => filtrarItens(itens, busca), [itens, busca]);
  const { visiveis, paginacao, filtro } = usePaginacao(filtrados, ITENS_POR_PAGINA, { one: 'item', other: 'itens' });
  const comPublicacao = useMemo(() => itens.some((i) => i.publicacao), [itens]);
  if (itens.length === 0) return <p>Nenhum item: consolide as demandas (DFD) do ano.</p>;
  const paginado = itens.length > ITENS_POR_PAGINA;
  const colunas: DataTableColumn<Item>[] = [
    { key: 'numeroItem', header: 'Item', rowHeader: true, render: (item) => item.numeroItem },
    { key: 'categoria', header: 'Categoria', render: (item) => CATEGORIA_ITEM_PCA[Number(item.categoriaItemPca)] },
    {
      key: 'classe',
      header: 'Classe/Grupo',
      render: (item) => (
        <>
          {[item.classificacaoSuperiorCodigo, item.classificacaoSuperiorNome].filter(Boolean).join(' – ')}
          {exigem.has(item.numeroItem) ? (
            <div className="field__hint">
              <strong>Exige licitação</strong> (grupo acima do limite de dispensa)
            </div>
          ) : null}
        </>
      ),
    },
    {
      key: 'descricao',
      header: 'Descrição',
      render: (item) => (
        <>
          {item.descricao}
          {item.recusaMotivo ? (
            <div className="field__error">
              Recusado por {String(item.recusadoPor)} em {formatDate(String(item.recusadoEm))}: {String(item.recusaMotivo)}
            </div>
          ) : null}
          {autoridade ? (
            <div className="button-row">
              {item.recusaMotivo ? (
                <Button size="sm" variant="secondary" onClick={() => void aceitar(item)} aria-label={`Desfazer a recusa do item ${item.numeroItem}`}>
                  Desfazer recusa
                </Button>
              ) : (
                <Button size="sm" variant="danger" onClick={() => recusar(item)} aria-label={`Recusar o item ${item.numeroItem}`}>
                  Recusar item
                </Button>
              )}
            </div>
          ) : null}
          {item.pendencias.map((p) => (
            <div key={p} className="field__error">
              <Pendencia item={item} p={p} />
            </div>
          ))}
        </>
      ),
    },
    { key: 'unidadeFornecimento', header: 'Unid.' },
    { key: 'quantidade', header: 'Quantidade', render: (item) => formatDecimal(String(item.quantidade)) },
    { key: 'valorUnitario', header: 'Valor unitário', render: (item) => formatMoney(String(item.valorUnitario), 4) },
    { key: 'valorTotal', header: 'Valor total', render: (item) => formatMoney(String(item.valorTotal), 4) },
    { key: 'dataDesejada', header: 'Data desejada', render: (item) => data(item.dataDesejada) },
    { key: 'unidadeRequisitante', header: 'Unidades requisitantes', clamp: false },
    { key: 'contratacao', header: 'Contratação', render: (item) => contratacao.get(String(item.contratacaoId)) ?? '—' },
    {
      key: 'dfds',
      header: 'DFDs',
      render: (item) => (
        <Button size="sm" variant="secondary" aria-expanded={aberto === item.id} onClick={() => setAberto(aberto === item.id ? null : item.id)}>
          {`${item.dfds} DFD${item.manuais ? ` + ${item.manuais} sem DFD` : ''}`}
          <span className="visually-hidden">{` do item ${item.numeroItem}`}</span>
        </Button>
      ),
    },
    ...(comPublicacao
      ? [{ key: 'publicacao', header: 'PNCP', render: (item: Item) => <span data-tom={item.publicacao?.tom}>{item.publicacao?.texto ?? '—'}</span> }]
      : []),
  ];
  return (
    <>
      {paginado ? <TextField label="Buscar item" hint="Número, descrição, código ou Classe/Grupo" value={busca} onChange={filtro(setBusca)} /> : null}
      <PromptDialog prompt={pedido} onClose={() => setPedido(null)} />
      {filhos.mutationError && <Alert variant="error">{filhos.mutationError}</Alert>}
      <DataTable<Item>
        caption="Itens consolidados"
        rows={visiveis}
        columns={colunas}
        empty="Nenhum item encontrado."
        rowDetail={(item) => (aberto === item.id ? <FontesDoItem planoId={planoId} item={item} /> : null)}
      />
      {paginado ? paginacao : null}
    </>
  );
}

/** DFDs on a page of the consolidation card: a year of 10 000 is not rendered at once. */
export const DEMANDAS_POR_PAGINA = 50;

/** How many Classes/Grupos of its lines a DFD's hint names (then 'e mais N'). */
const CLASSES_NA_DICA = 3;

const contagem = (n: number, um: string, varios: string) => `${n.toLocaleString('pt-BR')} ${n === 1 ? um : varios}`;

/** 'Classe 7510 – Artigos de escritório', 'Grupo 0750 – Expediente', 'Sem Classe/Grupo'. */
function rotuloDaClasse(c: ClasseDasDemandas): string {
  if (c.tipo === null) return 'Sem Classe/Grupo';
  return `${c.tipo === 'classe' ? 'Classe' : 'Grupo'} ${c.codigo}${c.nome ? ` – ${c.nome}` : ''}`;
}

/**
 * The consolidation: the accepted DFDs of the plan's year, searched (número, área requisitante, assunto)
 * and filtered by the Classe/Grupo of their lines, a page at a time; the DFDs found are marked or
 * unmarked at once (every page), and what is marked stays so across pages, searches and filters.
 * A DFD in another plan cannot be marked. One PUT names the DFDs marked.
 */
function Consolidacao({ record, ctx }: { record: Row; ctx: RecordSlotContext<Row> }) {
  const api = useApi();
  const id = String(record.id);
  const demandas = useQuery({
    queryKey: queryKeys.plugin('pca', 'planos', id, 'demandas'),
    queryFn: () => api.get(`pca${PCA_PATH}/${id}/demandas`).json<{ items: Demanda[]; classes?: ClasseDasDemandas[]; truncated?: boolean }>(),
  });
  const atuais = useMemo(() => ((record.memorandos as { id: string }[] | undefined) ?? []).map((m) => m.id), [record.memorandos]);
  const [escolhidos, setEscolhidos] = useState<Set<string>>(new Set(atuais));
  const [busca, setBusca] = useState('');
  const [classe, setClasse] = useState('');
  useEffect(() => setEscolhidos(new Set(atuais)), [atuais]);

  const itens = demandas.data?.items;
  const classes = demandas.data?.classes ?? [];
  const classeDe = useMemo(() => new Map(classes.map((c) => [c.chave, c])), [classes]);
  // each DFD's searchable text, once (a search runs over every DFD of the year at each key)
  const buscaveis = useMemo(() => (itens ?? []).map((d) => ({ d, texto: comprasBusca(`${numero(d)} ${d.origemNome} ${d.assunto}`) })), [itens]);
  const termo = comprasBusca(busca.trim()); // 'saude' finds 'Saúde'
  const filtrados = useMemo(
    () => buscaveis.filter(({ d, texto }) => (!termo || texto.includes(termo)) && (!classe || (d.classes ?? []).includes(classe))).map(({ d }) => d),
    [buscaveis, termo, classe],
  );
  const emOutro = (d: Demanda) => (d.plano && d.plano.id !== id ? d.plano : null);
  // the DFDs found that may be marked (not those already in another plan)
  const marcaveis = filtrados.filter((d) => !emOutro(d));
  const marcadosEncontrados = marcaveis.reduce((n, d) => n + (escolhidos.has(d.id) ? 1 : 0), 0);
  const filtrando = termo !== '' || classe !== '';
  const { visiveis, paginacao, filtro } = usePaginacao(filtrados, DEMANDAS_POR_PAGINA, { one: 'memorando', other: 'memorandos' });
  const paginado = (itens?.length ?? 0) > DEMANDAS_POR_PAGINA;

  const marcar = (lista: Demanda[], marcado: boolean) =>
    setEscolhidos((anterior) => {
      const novo = new Set(anterior);
      for (const d of lista) novo[marcado ? 'add' : 'delete'](d.id);
      return novo;
    });
  /** The Classes/Grupos of a DFD's lines, briefly (its hint). */
  const classesDe = (d: Demanda) => {
    const nomes = (d.classes ?? [])
      .map((c) => classeDe.get(c))
      .filter((c) => c !== undefined)
      .map(rotuloDaClasse);
    if (nomes.length === 0) return null;
    const mais = nomes.length > CLASSES_NA_DICA ? ` e mais ${nomes.length - CLASSES_NA_DICA}` : '';
    return `${nomes.length === 1 ? 'Classe/Grupo' : 'Classes/Grupos'}: ${nomes.slice(0, CLASSES_NA_DICA).join('; ')}${mais}.`;
  };
  const consolidar = useMutation({
    mutationFn: async () => {
      const { anoPca, codigoUnidade, centroCustoId, observacao, version } = record;
      await api.put(`pca${PCA_PATH}/${id}`, { json: { anoPca, codigoUnidade, centroCustoId, observacao, version, memorandoIds: [...escolhidos] } });
      await ctx.reload();
      await demandas.refetch();
    },
  });
  const encontrados = (n: number) => (n === 1 ? 'o 1 encontrado' : `os ${n.toLocaleString('pt-BR')} encontrados`);
  const total = itens?.length ?? 0;

  return (
    <Card title={`Consolidação das demandas (DFD de ${String(record.anoPca)})`} headingLevel={2}>
      <div className="stack">
        {ctx.dirty && <Alert variant="warning">Salve as alterações do plano antes de consolidar.</Alert>}
        {consolidar.error && <Alert variant="error">{apiErrorBody(consolidar.error)?.fields?.memorandoIds ?? apiErrorMessage(consolidar.error)}</Alert>}
        {demandas.data?.truncated ? (
          <Alert variant="warning">
            {`Há mais de ${contagem(total, 'memorando aceito', 'memorandos aceitos')} para o PCA de ${String(record.anoPca)}: aqui estão os primeiros ${total.toLocaleString('pt-BR')}, por área requisitante e número.`}
          </Alert>
        ) : null}
        {/* side by side where they fit, one under the other on a phone */}
        <div className="list-filters__bar">
          <TextField
            className="list-filters__search"
            label="Buscar DFD"
            hint="Número, área requisitante ou assunto"
            value={busca}
            onChange={filtro(setBusca)}
          />
          {classes.length > 0 ? (
            <SelectField
              label="Classe/Grupo"
              hint="Das linhas do memorando, como a consolidação as agrupa"
              value={classe}
              onChange={filtro(setClasse)}
              options={[
                { value: '', label: `Todas as Classes/Grupos (${contagem(total, 'DFD', 'DFDs')})` },
                ...classes.map((c) => ({ value: c.chave, label: `${rotuloDaClasse(c)} (${contagem(c.dfds, 'DFD', 'DFDs')})` })),
              ]}
            />
          ) : null}
        </div>
        {demandas.isError ? (
          <Alert variant="error">{apiErrorMessage(demandas.error, 'Não foi possível ler os memorandos (DFD) do ano.')}</Alert>
        ) : !itens ? (
          <p>Carregando…</p>
        ) : (
          <fieldset className="choice-list">
            <legend className="field__label">Memorandos (DFD) aceitos para o PCA de {String(record.anoPca)}</legend>
            <p role="status">
              {contagem(escolhidos.size, 'memorando marcado', 'memorandos marcados')}
              {filtrando ? ` (${marcadosEncontrados.toLocaleString('pt-BR')} entre ${encontrados(filtrados.length)})` : ''}
            </p>
            {marcaveis.length > 0 ? (
              <div className="button-row">
                <Button size="sm" variant="secondary" onClick={() => marcar(marcaveis, true)}>
                  {`Marcar ${encontrados(marcaveis.length)}`}
                </Button>
                <Button size="sm" variant="secondary" onClick={() => marcar(marcaveis, false)}>
                  {`Desmarcar ${encontrados(marcaveis.length)}`}
                </Button>
              </div>
            ) : null}
            {total === 0 ? <p>Nenhum memorando aceito para este ano.</p> : filtrados.length === 0 ? <p>Nenhum memorando encontrado.</p> : null}
            {visiveis.map((d) => {
              const outro = emOutro(d);
              const dica = [outro ? `Já consolidado no plano ${numero(outro)}.` : null, classesDe(d)].filter(Boolean).join(' ');
              return (
                <CheckboxField
                  key={d.id}
                  label={`Memorando ${numero(d)} – ${d.origemNome} – ${d.assunto} – ${formatMoney(d.valorTotal)}`}
                  hint={dica || undefined}
                  checked={escolhidos.has(d.id)}
                  disabled={Boolean(outro)}
                  onChange={(e) => marcar([d], e.currentTarget.checked)}
                />
              );
            })}
            {paginado ? paginacao : null}
          </fieldset>
        )}
        <div className="button-row">
          <Button variant="primary" loading={consolidar.isPending} disabled={ctx.dirty} onClick={() => consolidar.mutate()}>
            {`Consolidar ${contagem(escolhidos.size, 'memorando', 'memorandos')}`}
          </Button>
        </div>
      </div>
    </Card>
  );
}

/** The plan's situation on each publisher, with its link and the action it offers (asked with a justification). */
function Publicacoes({ publicacoes, ctx }: { publicacoes: Publicacao[]; ctx: RecordSlotContext<Row> }) {
  const api = useApi();
  const [pedido, setPedido] = useState<PromptOptions | null>(null);
  const pedir = (acao: NonNullable<Publicacao['acao']>) =>
    setPedido({
      title: acao.titulo,
      description: acao.descricao,
      label: acao.campo,
      confirmLabel: acao.rotulo,
      min: 5,
      tone: 'danger',
      submit: async (justificativa) => {
        try {
          await api.post(acao.caminho, { json: { justificativa } });
        } catch (error) {
          return apiErrorBody(error)?.fields?.justificativa ?? apiErrorMessage(error);
        }
        await ctx.reload();
        return null;
      },
    });
  return (
    <>
      <PromptDialog prompt={pedido} onClose={() => setPedido(null)} />
      {publicacoes.map((p) => (
        <Alert key={p.texto} variant={ALERTA[p.tom]} title={p.texto}>
          {p.link ? (
            <a href={p.link.href} {...(/^https?:/.test(p.link.href) ? { target: '_blank', rel: 'noreferrer' } : {})}>
              {p.link.texto}
            </a>
          ) : null}
          {p.acao ? (
            <div className="button-row">
              <Button size="sm" variant="danger" onClick={() => pedir(p.acao!)}>
                {p.acao.rotulo}
              </Button>
            </div>
          ) : null}
        </Alert>
      ))}
    </>
  );
}

export function PlanoPanel({ record, ctx }: { record: Row; ctx: RecordSlotContext<Row> }) {
  if (!record.id) return null;
  const itens = (record.itens as Item[] | undefined) ?? [];
  const foraDoPlano = (record.itensForaDoPlano as ItemForaDoPlano[] | undefined) ?? [];
  const publicacoes = (record.publicacoes as Publicacao[] | undefined) ?? [];
  const totais = record.totais as Totais | undefined;
  const acima = ((record.fracionamento as FracionamentoDoGrupo[] | undefined) ?? []).filter((g) => g.exigeLicitacao);
  // the items of those grupos (by number: a CNBS item shows its CNBS classe, not the grupo)
  const exigem = new Set(acima.flatMap((g) => g.numerosItem));
  const contratacao = new Map(((record.contratacoes as ContratacaoPlanejada[] | undefined) ?? []).map((c) => [c.id, c.numero]));
  return (
    <>
      <Publicacoes publicacoes={publicacoes} ctx={ctx} />
      <RevisaoDoPlano record={record} />
      <Pendencias itens={itens} />
      <Card title={`Itens do plano (${itens.length}) – ${formatMoney(String(record.valorTotal ?? '0'), 4)}`} headingLevel={2}>
        {itens.length > 0 ? (
          <Button
            size="sm"
            variant="secondary"
            onClick={() =>
              downloadFile(`/pca${PCA_PATH}/${String(record.id)}/itens.xlsx`, {
                fileName: 'pca-itens.xlsx',
                errorMessage: 'Não foi possível gerar a planilha dos itens.',
              })
            }
          >
            Baixar itens (planilha com as colunas do PNCP)
          </Button>
        ) : null}
        <Itens
          planoId={String(record.id)}
          itens={itens}
          exigem={exigem}
          contratacao={contratacao}
          ctx={ctx}
          autoridade={record.status === 'em_aprovacao' && ((record.transicoes as string[] | undefined) ?? []).includes('aprovar')}
        />
        {foraDoPlano.length > 0 ? (
          <DataTable<ItemForaDoPlano>
            caption="Itens que saíram do plano (no PNCP: quantidade e valor como foram enviados)"
            rows={foraDoPlano}
            columns={colunasForaDoPlano}
            rowKey={(i) => String(i.numeroItem)}
          />
        ) : null}
      </Card>
      <ItensSemDfd record={record} ctx={ctx} />
      <Contratacoes record={record} ctx={ctx} itens={itens} />
      {acima.length > 0 ? (
        <Card title="Fracionamento: grupos que exigem licitação" headingLevel={2}>
          <p>
            O total planejado destes grupos passa do limite de dispensa do ano (art. 75 da Lei 14.133/2021): as compras do grupo no ano devem ser licitadas, não
            divididas em dispensas.
          </p>
          <DataTable<FracionamentoDoGrupo>
            caption="Grupos acima do limite de dispensa"
            rows={acima}
            columns={colunasFracionamento}
            rowKey={(g) => `${g.grupoId}|${g.categoria}`}
          />
        </Card>
      ) : null}
      {totais && itens.length > 0 ? (
        <Card title="Totais do plano" headingLevel={2}>
          <div className="stack">
            <DataTable<Total> caption="Por categoria" rows={totais.porCategoria} columns={colunasTotais('Categoria')} rowKey={(l) => l.rotulo} />
            <DataTable<Total>
              caption="Por unidade requisitante (linhas dos DFDs)"
              rows={totais.porUnidade}
              columns={colunasTotais('Unidade requisitante')}
              rowKey={(l) => l.rotulo}
            />
          </div>
        </Card>
      ) : null}
      {record.editavel === true && <Consolidacao record={record} ctx={ctx} />}
    </>
  );
}
