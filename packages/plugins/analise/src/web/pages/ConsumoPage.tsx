// '/analise-consumo-precos': consumption of the approved requisições month by month, per centro de
// custo, núcleo or grupo (line chart) and per grupo (stacked bars), each also as a table whose
// figures open the requisições behind them. The filters live in the URL's query string.
import { formatDate, today } from '@app/br';
import { LoadErrorAlert, queryKeys, useApi, useQuery } from '@app/core';
import { AsyncComboboxField, Button, Card, EmptyState, PageHeader, SelectField, Spinner, TextField, formatMoney, formatNumber } from '@app/ui';
import { Fragment, type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'wouter';
import type { Agrupamento, Consumo, DocumentosConsumo, OpcoesConsumo, Serie } from '../../shared/index.js';
import { MAX_MESES, isMes, mesesDoPeriodo, rotuloMes, somarMeses } from '../../shared/meses.js';
import { Grafico } from './Grafico';
import { Secoes } from './Secoes';

const FILTROS = ['de', 'ate', 'por', 'centroCustoId', 'nucleoId', 'grupoId', 'subgrupoId', 'produtoId'] as const;
type Filtros = Partial<Record<(typeof FILTROS)[number], string>>;
const POR: Record<Agrupamento, { rotulo: string; filtro: keyof Filtros }> = {
  centro: { rotulo: 'Centro de custo', filtro: 'centroCustoId' },
  nucleo: { rotulo: 'Núcleo de consumo', filtro: 'nucleoId' },
  grupo: { rotulo: 'Grupo', filtro: 'grupoId' },
};
type Opcao = { id: string; nome: string };
const dinheiro = (valor: string | undefined) => formatMoney(valor);
const quantidade = (valor: string | undefined) => formatNumber(valor, { maximumFractionDigits: 4 });
const periodo = (de: string, ate: string) => (de === ate ? rotuloMes(de) : `${rotuloMes(de)} a ${rotuloMes(ate)}`);

/** A figure whose requisições are listed: the series (as a filter) and the month (absent: the period). */
interface Alvo {
  nome: string;
  mes?: string;
  filtro?: [keyof Filtros, string];
}

function erroDoPeriodo(de: string, ate: string): Partial<Record<'de' | 'ate', string>> {
  if (!isMes(de)) return { de: 'Informe o mês inicial.' };
  if (!isMes(ate)) return { ate: 'Informe o mês final.' };
  if (ate < de) return { ate: 'O mês final deve ser igual ou posterior ao mês inicial.' };
  if (mesesDoPeriodo(de, ate).length > MAX_MESES) return { ate: `O período pode ter no máximo ${MAX_MESES} meses.` };
  return {};
}

/** Text for a screen reader (and under the chart): the period's total, average, largest series and busiest month. */
function resumoDe(c: Consumo, series: Serie[], oque: string): string {
  if (series.length === 0) return `Nenhum consumo aprovado de ${periodo(c.de, c.ate)}.`;
  const maior = series[0]!;
  let pico = 0;
  c.total.meses.forEach((m, i) => {
    if (Number(m.valor) > Number(c.total.meses[pico]!.valor)) pico = i;
  });
  return (
    `${oque} de ${periodo(c.de, c.ate)}: total ${dinheiro(c.total.total.valor)}, consumo médio mensal ${dinheiro(c.total.media.valor)}. ` +
    `Maior: ${maior.nome}, ${dinheiro(maior.total.valor)}. Mês de maior consumo: ${rotuloMes(c.meses[pico]!)}, ${dinheiro(c.total.meses[pico]!.valor)}.`
  );
}

interface TabelaProps {
  legenda: string;
  cabecalho: string;
  consumo: Consumo;
  series: Serie[];
  filtro: keyof Filtros;
  comQuantidade: boolean;
  abrir: (alvo: Alvo) => void;
}

/** The numbers of a chart: one row per series, one column per month, total and consumo médio mensal. */
function Tabela({ legenda, cabecalho, consumo, series, filtro, comQuantidade, abrir }: TabelaProps) {
  const celula = (s: Serie | null, valores: { quantidade: string; valor: string }, mes?: string) => {
    const nome = s?.nome ?? 'Total';
    const texto = dinheiro(valores.valor);
    const vazio = Number(valores.valor) === 0;
    return (
      <td className="data-table__cell--end data-table__nowrap">
        {vazio || (s && s.id === null) ? (
          texto
        ) : (
          <Button
            variant="ghost"
            size="sm"
            aria-label={`${texto}: ver as requisições de ${nome} em ${mes ? rotuloMes(mes) : periodo(consumo.de, consumo.ate)}`}
            onClick={() => abrir({ nome, ...(mes ? { mes } : {}), ...(s?.id ? { filtro: [filtro, s.id] as [keyof Filtros, string] } : {}) })}
          >
            {texto}
          </Button>
        )}
        {comQuantidade ? <div className="field__hint">{quantidade(valores.quantidade)}</div> : null}
      </td>
    );
  };
  const linha = (s: Serie | null, dados: Serie) => (
    <tr key={s ? `${s.id}` : 'total'}>
      <th scope="row">{s?.nome ?? 'Total'}</th>
      {dados.meses.map((m, i) => (
        <Fragment key={consumo.meses[i]}>{celula(s, m, consumo.meses[i])}</Fragment>
      ))}
      {celula(s, dados.total)}
      <td className="data-table__cell--end data-table__nowrap">
        {dinheiro(dados.media.valor)}
        {comQuantidade ? <div className="field__hint">{quantidade(dados.media.quantidade)}</div> : null}
      </td>
    </tr>
  );
  return (
    <div className="data-table__scroll">
      <table className="data-table__table">
        <caption className="data-table__caption">{legenda}</caption>
        <thead>
          <tr>
            <th scope="col">{cabecalho}</th>
            {consumo.meses.map((m) => (
              <th key={m} scope="col" className="data-table__cell--end">
                {rotuloMes(m)}
              </th>
            ))}
            <th scope="col" className="data-table__cell--end">
              Total
            </th>
            <th scope="col" className="data-table__cell--end">
              Média mensal
            </th>
          </tr>
        </thead>
        <tbody>{series.map((s) => linha(s, s))}</tbody>
        <tfoot>{linha(null, consumo.total)}</tfoot>
      </table>
    </div>
  );
}

function Documentos({ alvo, params, fechar }: { alvo: Alvo; params: Record<string, string>; fechar: () => void }) {
  const api = useApi();
  const titulo = useRef<HTMLHeadingElement>(null);
  const searchParams = { ...params, ...(alvo.filtro ? { [alvo.filtro[0]]: alvo.filtro[1] } : {}), ...(alvo.mes ? { mes: alvo.mes } : {}) };
  const query = useQuery({
    queryKey: queryKeys.plugin('analise', 'consumo', 'documentos', searchParams),
    queryFn: () => api.get('analise/consumo/documentos', { searchParams }).json<DocumentosConsumo>(),
  });
  useEffect(() => titulo.current?.focus(), []);
  const quando = alvo.mes ? rotuloMes(alvo.mes) : periodo(params.de!, params.ate!);
  let corpo: ReactNode;
  if (query.isPending) corpo = <Spinner label="Carregando as requisições…" />;
  else if (query.isError) corpo = <LoadErrorAlert title="Não foi possível carregar as requisições" error={query.error} onRetry={() => void query.refetch()} />;
  else {
    const { items, total, quantidadeDocumentos } = query.data;
    corpo = (
      <div className="data-table__scroll">
        <table className="data-table__table">
          <caption className="visually-hidden">{`Requisições aprovadas: ${alvo.nome}, ${quando}`}</caption>
          <thead>
            <tr>
              <th scope="col">Requisição</th>
              <th scope="col">Data</th>
              <th scope="col">Aprovada em</th>
              <th scope="col">Centro de custo</th>
              <th scope="col" className="data-table__cell--end">
                Valor
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((d) => (
              <tr key={d.id}>
                <th scope="row">
                  <Link href={`~${d.href}`}>Requisição {d.numero}</Link>
                </th>
                <td>{formatDate(d.data)}</td>
                <td>{formatDate(d.aprovadaEm)}</td>
                <td>{d.centroCusto}</td>
                <td className="data-table__cell--end">{dinheiro(d.valor)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={4}>
                {quantidadeDocumentos === 1 ? '1 requisição' : `${quantidadeDocumentos} requisições`}
                {quantidadeDocumentos > items.length ? ` (mostrando as ${items.length} primeiras)` : ''}
              </th>
              <td className="data-table__cell--end">{dinheiro(total.valor)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
    );
  }
  return (
    <Card
      title={
        <span ref={titulo} tabIndex={-1}>
          Requisições: {alvo.nome}, {quando}
        </span>
      }
      actions={
        <Button variant="secondary" size="sm" onClick={fechar}>
          Fechar
        </Button>
      }
    >
      {corpo}
    </Card>
  );
}

export default function ConsumoPage() {
  const api = useApi();
  const [search, setSearch] = useSearchParams();
  const ate = search.get('ate') ?? today().slice(0, 7);
  const f: Filtros = { ...Object.fromEntries(FILTROS.map((k) => [k, search.get(k) ?? ''])), de: search.get('de') ?? somarMeses(ate, -11), ate };
  const por = (f.por && Object.hasOwn(POR, f.por) ? f.por : 'centro') as Agrupamento;
  const params = Object.fromEntries(Object.entries({ ...f, por }).filter(([, v]) => v)) as Record<string, string>;
  const erros = erroDoPeriodo(f.de!, f.ate!);
  const [alvo, setAlvo] = useState<Alvo | null>(null);
  const [produtoNome, setProdutoNome] = useState(search.get('produtoNome') ?? '');
  const mudar = (campo: string, valor: string, extra: Record<string, string> = {}) => {
    setAlvo(null);
    setSearch((atual) => {
      const next = new URLSearchParams(atual);
      for (const [k, v] of Object.entries({ de: f.de!, ate: f.ate!, [campo]: valor, ...extra })) {
        if (v) next.set(k, v);
        else next.delete(k);
      }
      return next;
    });
  };

  const opcoes = useQuery({
    queryKey: queryKeys.plugin('analise', 'consumo', 'opcoes'),
    queryFn: () => api.get('analise/consumo/opcoes').json<OpcoesConsumo>(),
  });
  const consumo = useQuery({
    queryKey: queryKeys.plugin('analise', 'consumo', params),
    queryFn: () => api.get('analise/consumo', { searchParams: params }).json<Consumo>(),
    enabled: Object.keys(erros).length === 0,
  });
  const lista = (itens: Opcao[] | undefined) => (itens ?? []).map((o) => ({ value: o.id, label: o.nome }));
  const c = consumo.data;

  return (
    <div data-testid="analise-consumo">
      <PageHeader
        before={<Secoes />}
        title="Consumo por centro de custo e núcleo"
        description="Quantidades e valores das requisições aprovadas, mês a mês, pelo mês da aprovação. Escolha um número da tabela para ver as requisições."
      />
      <Card title="Filtros">
        <div className="form-grid">
          <TextField label="De" type="month" value={f.de} error={erros.de} onChange={(e) => mudar('de', e.target.value)} />
          <TextField label="Até" type="month" value={f.ate} error={erros.ate} onChange={(e) => mudar('ate', e.target.value)} />
          <SelectField
            label="Agrupar por"
            value={por}
            options={Object.entries(POR).map(([value, p]) => ({ value, label: p.rotulo }))}
            onChange={(e) => mudar('por', e.target.value)}
          />
          <SelectField
            label="Centro de custo"
            placeholder="Todos"
            value={f.centroCustoId}
            options={lista(opcoes.data?.centros)}
            onChange={(e) => mudar('centroCustoId', e.target.value)}
          />
          <SelectField
            label="Núcleo de consumo"
            placeholder="Todos"
            value={f.nucleoId}
            options={lista(opcoes.data?.nucleos)}
            onChange={(e) => mudar('nucleoId', e.target.value)}
          />
          <SelectField
            label="Grupo"
            placeholder="Todos"
            value={f.grupoId}
            options={lista(opcoes.data?.grupos)}
            onChange={(e) => mudar('grupoId', e.target.value, { subgrupoId: '' })}
          />
          <SelectField
            label="Subgrupo"
            placeholder="Todos"
            value={f.subgrupoId}
            options={lista(opcoes.data?.subgrupos.filter((s) => !f.grupoId || s.grupoId === f.grupoId))}
            onChange={(e) => mudar('subgrupoId', e.target.value)}
          />
          <AsyncComboboxField
            id="analise-produto"
            label="Produto ou serviço"
            placeholder="Todos"
            value={f.produtoId || null}
            selectedLabel={produtoNome}
            loadOptions={async (q, signal) =>
              (await api.get('analise/consumo/produtos', { searchParams: { q }, signal }).json<{ items: Opcao[] }>()).items.map((p) => ({
                value: p.id,
                label: p.nome,
              }))
            }
            onChange={(valor, opcao) => {
              setProdutoNome(opcao?.label ?? '');
              mudar('produtoId', valor ?? '', { produtoNome: opcao?.label ?? '' });
            }}
          />
        </div>
      </Card>
      {consumo.isError ? (
        <LoadErrorAlert title="Não foi possível carregar o consumo" error={consumo.error} onRetry={() => void consumo.refetch()} />
      ) : !c ? (
        Object.keys(erros).length ? null : (
          <Spinner label="Carregando o consumo…" />
        )
      ) : c.series.length === 0 ? (
        <EmptyState icon="info" title="Nenhum consumo no período" description="Nenhuma requisição aprovada com estes filtros." />
      ) : (
        <>
          <Card title={`Valor por ${POR[por].rotulo.toLowerCase()}, mês a mês`}>
            <Grafico
              titulo={`Gráfico de linhas: valor por ${POR[por].rotulo.toLowerCase()}, ${periodo(c.de, c.ate)}`}
              tipo="line"
              meses={c.meses}
              series={c.series}
              resumo={resumoDe(c, c.series, `Consumo por ${POR[por].rotulo.toLowerCase()}`)}
              tabela={
                <Tabela
                  legenda={`Valor consumido por ${POR[por].rotulo.toLowerCase()} e mês, ${periodo(c.de, c.ate)}`}
                  cabecalho={POR[por].rotulo}
                  consumo={c}
                  series={c.series}
                  filtro={POR[por].filtro}
                  comQuantidade={Boolean(f.produtoId)}
                  abrir={setAlvo}
                />
              }
            />
          </Card>
          <Card title="Valor por grupo, mês a mês">
            <Grafico
              titulo={`Gráfico de barras empilhadas: valor por grupo, ${periodo(c.de, c.ate)}`}
              tipo="bar"
              meses={c.meses}
              series={c.grupos}
              resumo={resumoDe(c, c.grupos, 'Consumo por grupo')}
              tabela={
                <Tabela
                  legenda={`Valor consumido por grupo e mês, ${periodo(c.de, c.ate)}`}
                  cabecalho="Grupo"
                  consumo={c}
                  series={c.grupos}
                  filtro="grupoId"
                  comQuantidade={Boolean(f.produtoId)}
                  abrir={setAlvo}
                />
              }
            />
          </Card>
          {alvo ? <Documentos key={JSON.stringify(alvo)} alvo={alvo} params={params} fechar={() => setAlvo(null)} /> : null}
        </>
      )}
    </div>
  );
}
