// '/analise-consumo-precos/precos': the history of one product's unit price from every source the
// person's documents hold (cotações: collected prices by source and the concluded estimates;
// requisições: their estimated unit values), as a line chart with the median and the atypical prices
// marked, or as a table; the summary figures and the suppliers compared. The filters (product, period)
// live in the URL's query string.
import { formatDate } from '@app/br';
import { LoadErrorAlert, queryKeys, useApi, useQuery } from '@app/core';
import { formatDecimal } from '@app/documents';
import { AsyncComboboxField, Card, DetailsList, EmptyState, PageHeader, Pagination, Spinner, TextField } from '@app/ui';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'wouter';
import type { PontoPreco, Precos } from '../../shared/index.js';
import { pontosDe } from '../../shared/pontos.js';
import { GraficoPrecos, preco } from './GraficoPrecos';
import { Secoes } from './Secoes';

const FILTROS = ['produtoId', 'de', 'ate'] as const;
type Filtros = Record<(typeof FILTROS)[number], string>;
type Produto = { id: string; codigo: string; descricao: string; unidadeSigla: string | null; grupoNome: string | null };

const plural = (n: number, um: string, varios: string) => (n === 1 ? `1 ${um}` : `${n} ${varios}`);

/** 'de 01/01/2026 a 31/12/2026', 'desde 01/01/2026', 'até 31/12/2026' or 'em todo o histórico'. */
function periodo(de: string | null, ate: string | null): string {
  if (de && ate) return de === ate ? `em ${formatDate(de)}` : `de ${formatDate(de)} a ${formatDate(ate)}`;
  if (de) return `desde ${formatDate(de)}`;
  if (ate) return `até ${formatDate(ate)}`;
  return 'em todo o histórico';
}

/** '+7,60%', '-52,00%', '0,00%'. */
function variacao(valor: string): string {
  const texto = `${formatDecimal(valor, { min: 2, max: 2 })}%`;
  return valor.startsWith('-') || /^0(\.0*)?$/.test(valor) ? texto : `+${texto}`;
}

/** Text for a screen reader (and under the chart): count, median, range, last price, variation, atypical prices. */
function resumoDe(p: Precos, pontos: readonly PontoPreco[]): string {
  const { resumo: r } = p;
  const quando = periodo(p.de, p.ate);
  if (r.quantidade === 0) return `Nenhum preço de ${p.produto.nome} ${quando}.`;
  const ultimo = pontos[pontos.length - 1]!;
  const partes = [
    `Preço unitário de ${p.produto.nome} ${quando}: ${plural(r.quantidade, 'preço', 'preços')}, mediana ${preco(r.mediana)}, de ${preco(r.menor)} a ${preco(r.maior)}.`,
    `Último preço: ${preco(r.ultimo)} em ${formatDate(ultimo.data)} (${ultimo.documento}, ${ultimo.fonte}).`,
  ];
  if (r.variacao !== null) partes.push(`Variação do primeiro ao último preço: ${variacao(r.variacao)}.`);
  if (r.faixa) {
    const faixa = `fora de ${preco(r.faixa.inferior)} a ${preco(r.faixa.superior)}, 75% a 125% da mediana`;
    partes.push(r.atipicos === 0 ? `Nenhum preço atípico (${faixa}).` : `${plural(r.atipicos, 'preço atípico', 'preços atípicos')} (${faixa}).`);
  }
  return partes.join(' ');
}

function erroDoPeriodo(de: string, ate: string): Partial<Record<'de' | 'ate', string>> {
  if (de && ate && ate < de) return { ate: 'A data final deve ser igual ou posterior à data inicial.' };
  return {};
}

/** Prices per page of the table (the chart shows them all). */
const PRECOS_POR_PAGINA = 100;

function TabelaPrecos({ precos, pontos }: { precos: Precos; pontos: readonly PontoPreco[] }) {
  const [pagina, setPagina] = useState(1);
  const paginas = Math.max(1, Math.ceil(pontos.length / PRECOS_POR_PAGINA));
  const atual = Math.min(pagina, paginas);
  const inicio = (atual - 1) * PRECOS_POR_PAGINA;
  const tabela = (
    <div className="data-table__scroll">
      <table className="data-table__table">
        <caption className="data-table__caption">{`Preços unitários de ${precos.produto.nome}, ${periodo(precos.de, precos.ate)}`}</caption>
        <thead>
          <tr>
            <th scope="col">Data</th>
            <th scope="col" className="data-table__cell--end">
              Preço unitário
            </th>
            <th scope="col">Fonte</th>
            <th scope="col">Documento</th>
            <th scope="col">Fornecedor</th>
            <th scope="col">Situação</th>
          </tr>
        </thead>
        <tbody>
          {pontos.slice(inicio, inicio + PRECOS_POR_PAGINA).map((p, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the price's place in the history (fixed for one answer) is its identity
            <tr key={inicio + i}>
              <th scope="row" className="data-table__nowrap">
                {formatDate(p.data)}
              </th>
              <td className="data-table__cell--end data-table__nowrap">{preco(p.valor)}</td>
              <td>
                {p.fonte}
                {p.descricao && p.origem === 'coletado' && !p.fornecedor ? <div className="field__hint">{p.descricao}</div> : null}
              </td>
              <td className="data-table__nowrap">
                <Link href={`~${p.href}`}>{p.documento}</Link>
              </td>
              <td>{p.fornecedor ?? '—'}</td>
              <td>{p.atipico ? `Atípico: ${p.atipico}` : 'Na faixa'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
  if (pontos.length <= PRECOS_POR_PAGINA) return tabela;
  return (
    <>
      {tabela}
      <Pagination page={atual} pageSize={PRECOS_POR_PAGINA} total={pontos.length} onPageChange={setPagina} noun={{ one: 'preço', other: 'preços' }} />
    </>
  );
}

function TabelaFornecedores({ precos }: { precos: Precos }) {
  return (
    <div className="data-table__scroll">
      <table className="data-table__table">
        <caption className="data-table__caption">{`Preços de cada fornecedor para ${precos.produto.nome}, ${periodo(precos.de, precos.ate)}`}</caption>
        <thead>
          <tr>
            <th scope="col">Fornecedor</th>
            <th scope="col" className="data-table__cell--end">
              Preços
            </th>
            <th scope="col" className="data-table__cell--end">
              Menor
            </th>
            <th scope="col" className="data-table__cell--end">
              Mediana
            </th>
            <th scope="col" className="data-table__cell--end">
              Último
            </th>
          </tr>
        </thead>
        <tbody>
          {precos.fornecedores.map((f) => (
            <tr key={f.nome}>
              <th scope="row">{f.nome}</th>
              <td className="data-table__cell--end">{f.quantidade}</td>
              <td className="data-table__cell--end data-table__nowrap">{preco(f.menor)}</td>
              <td className="data-table__cell--end data-table__nowrap">{preco(f.mediana)}</td>
              <td className="data-table__cell--end data-table__nowrap">
                {preco(f.ultimo)}
                <div className="field__hint">em {formatDate(f.ultimaData)}</div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Resultado({ precos }: { precos: Precos }) {
  const { resumo: r } = precos;
  const pontos = useMemo(() => pontosDe(precos), [precos]);
  if (r.quantidade === 0) {
    return <EmptyState icon="info" title="Nenhum preço no período" description={`Nenhum preço de ${precos.produto.nome} ${periodo(precos.de, precos.ate)}.`} />;
  }
  const ultimo = pontos[pontos.length - 1]!;
  return (
    <>
      <Card title="Resumo">
        <DetailsList
          items={[
            { label: 'Preços', value: String(r.quantidade) },
            { label: 'Mediana', value: preco(r.mediana) },
            { label: 'Último preço', value: `${preco(r.ultimo)} em ${formatDate(ultimo.data)}` },
            {
              label: 'Variação no período',
              value: r.variacao === null ? 'Um só preço' : `${variacao(r.variacao)} (de ${preco(r.primeiro)} a ${preco(r.ultimo)})`,
            },
            { label: 'Menor e maior', value: `${preco(r.menor)} e ${preco(r.maior)}` },
            {
              label: 'Preços atípicos',
              value: r.faixa ? `${r.atipicos} (fora de ${preco(r.faixa.inferior)} a ${preco(r.faixa.superior)}: 75% a 125% da mediana)` : String(r.atipicos),
            },
          ]}
        />
      </Card>
      <Card title="Preço unitário ao longo do tempo">
        <GraficoPrecos
          titulo={`Gráfico de linhas: preço unitário de ${precos.produto.nome}, ${periodo(precos.de, precos.ate)}, com a mediana e os preços atípicos`}
          precos={precos}
          pontos={pontos}
          resumo={resumoDe(precos, pontos)}
          tabela={<TabelaPrecos precos={precos} pontos={pontos} />}
        />
      </Card>
      <Card title="Comparação dos fornecedores">
        {precos.fornecedores.length === 0 ? <p>Nenhum preço de fornecedor para este produto no período.</p> : <TabelaFornecedores precos={precos} />}
      </Card>
    </>
  );
}

export default function PrecosPage() {
  const api = useApi();
  const [search, setSearch] = useSearchParams();
  const f = Object.fromEntries(FILTROS.map((k) => [k, search.get(k) ?? ''])) as Filtros;
  const erros = erroDoPeriodo(f.de, f.ate);
  const [escolhido, setEscolhido] = useState('');
  const params = Object.fromEntries(Object.entries(f).filter(([, v]) => v));
  const mudar = (campo: keyof Filtros, valor: string) =>
    setSearch((atual) => {
      const next = new URLSearchParams(atual);
      if (valor) next.set(campo, valor);
      else next.delete(campo);
      return next;
    });
  const precos = useQuery({
    queryKey: queryKeys.plugin('analise', 'precos', params),
    queryFn: () => api.get('analise/precos', { searchParams: params }).json<Precos>(),
    enabled: Boolean(f.produtoId) && Object.keys(erros).length === 0,
  });
  const p = precos.data;

  return (
    <div data-testid="analise-precos">
      <PageHeader
        before={<Secoes />}
        title="Histórico de preços"
        description="Os preços unitários de um produto ou serviço nas cotações (coletados, por fonte, e estimados) e nas requisições, com a mediana, a variação no período, os preços atípicos e a comparação dos fornecedores."
      />
      <Card title="Filtros">
        <div className="form-grid">
          <AsyncComboboxField
            id="analise-precos-produto"
            label="Produto ou serviço"
            required
            placeholder="Descrição ou código…"
            value={f.produtoId || null}
            selectedLabel={p?.produto.nome ?? escolhido}
            loadOptions={async (q, signal) =>
              (await api.get('analise/produtos', { searchParams: { q, pageSize: '20', ativo: 'todos' }, signal }).json<{ items: Produto[] }>()).items.map(
                (produto) => ({
                  value: produto.id,
                  label: `${produto.codigo} – ${produto.descricao}`,
                  description: [produto.unidadeSigla, produto.grupoNome].filter(Boolean).join(' · '),
                }),
              )
            }
            onChange={(valor, opcao) => {
              setEscolhido(opcao?.label ?? '');
              mudar('produtoId', valor ?? '');
            }}
          />
          <TextField label="De" type="date" value={f.de} error={erros.de} onChange={(e) => mudar('de', e.target.value)} />
          <TextField label="Até" type="date" value={f.ate} error={erros.ate} onChange={(e) => mudar('ate', e.target.value)} />
        </div>
      </Card>
      {!f.produtoId ? (
        <EmptyState icon="info" title="Escolha um produto ou serviço" description="O histórico mostra os preços do produto nas cotações e nas requisições." />
      ) : precos.isError ? (
        <LoadErrorAlert title="Não foi possível carregar os preços" error={precos.error} onRetry={() => void precos.refetch()} />
      ) : !p ? (
        Object.keys(erros).length ? null : (
          <Spinner label="Carregando os preços…" />
        )
      ) : (
        <Resultado precos={p} />
      )}
    </div>
  );
}
