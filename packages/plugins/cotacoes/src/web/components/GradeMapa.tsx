// The grid of the mapa comparativo: every item (rows) × every invited supplier (unit and total
// columns), the prices of the other sources, the statistics over the valid prices, the method's
// result and the winner; totals per supplier in the footer. Plain table markup (500 items × 10
// suppliers: no per-cell component or hook), everything derived once by `calcularMapa`; the first
// column, the header and the result columns (Estimado, Total estimado, Vencedor, Ações: @app/ui's
// .sticky-grid__end, fixed widths) stay in place while the suppliers scroll inside the grid's own box.
import { formatDate } from '@app/br';
import { formatDecimal, formatMoney, lineTotal } from '@app/documents';
import { ButtonRow } from '@app/ui';
import { Fragment, type ReactNode, memo, useEffect, useState } from 'react';
import {
  type Convite,
  FONTE_CURTA,
  type ItemCotacao,
  type MapaCotacao,
  type PrecoListado,
  type ResultadoItem,
  SITUACAO_CONVITE_LABEL,
  type SituacaoPreco,
  type TotalFornecedor,
} from '../../shared/index.js';
import { plural } from './comum';

export interface LinhaMapa {
  item: ItemCotacao;
  resultado: ResultadoItem | null;
  /** The supplier's price per invited supplier (the columns' order), or null. */
  celulas: (PrecoListado | null)[];
  /** Prices of the other sources (and of suppliers no longer among the invited). */
  outras: PrecoListado[];
  /** Valid supplier prices: the choices of 'Escolher outro vencedor'. */
  opcoes: PrecoListado[];
  vencedorNome: string | null;
}

export interface CalculoMapa {
  linhas: LinhaMapa[];
  situacao: Map<string, SituacaoPreco>;
  /** Lowest valid supplier price(s) of each item. */
  menores: Set<string>;
  /** The winning price of each item. */
  vencedores: Set<string>;
  /** Per invited supplier (the columns' order). */
  totais: (TotalFornecedor | null)[];
  /** The quote's validity ended before the reference date (per supplier). */
  propostaVencida: boolean[];
}

/** One pass over the answer: prices into their (item, supplier) cells, the evaluation indexed. */
export function calcularMapa(mapa: MapaCotacao): CalculoMapa {
  const { convites, avaliacao } = mapa;
  const coluna = new Map(convites.map((c, i) => [c.fornecedorId, i]));
  const nomes = new Map(convites.map((c) => [c.fornecedorId, c.fornecedorNome]));
  const situacao = new Map(avaliacao.precos.map((s) => [s.precoId, s]));
  const resultados = new Map(avaliacao.itens.map((r) => [r.produtoId, r]));
  const menores = new Set<string>();
  const vencedores = new Set<string>();
  for (const r of avaliacao.itens) {
    for (const precoId of r.menores) menores.add(precoId);
    if (r.vencedor) vencedores.add(r.vencedor.precoId);
  }
  const porProduto = new Map<string, LinhaMapa>();
  const linhas = [...mapa.itens]
    .sort((a, b) => a.ordem - b.ordem)
    .map((item) => {
      const resultado = resultados.get(item.produtoId) ?? null;
      const linha: LinhaMapa = {
        item,
        resultado,
        celulas: convites.map(() => null),
        outras: [],
        opcoes: [],
        vencedorNome: resultado?.vencedor ? (nomes.get(resultado.vencedor.fornecedorId) ?? null) : null,
      };
      porProduto.set(item.produtoId, linha);
      return linha;
    });
  for (const preco of mapa.precos) {
    const linha = porProduto.get(preco.produtoId);
    if (!linha) continue;
    const col = preco.fonte === 'fornecedor' && preco.fornecedorId ? coluna.get(preco.fornecedorId) : undefined;
    if (col === undefined) {
      linha.outras.push(preco);
      continue;
    }
    linha.celulas[col] = preco;
    if (situacao.get(preco.id)?.valido) linha.opcoes.push(preco);
  }
  const totais = new Map(avaliacao.fornecedores.map((t) => [t.fornecedorId, t]));
  return {
    linhas,
    situacao,
    menores,
    vencedores,
    totais: convites.map((c) => totais.get(c.fornecedorId) ?? null),
    propostaVencida: convites.map((c) => Boolean(c.validade && c.validade < mapa.cotacao.dataReferencia)),
  };
}

const unitario = (valor: string | null | undefined) => formatMoney(valor, 4);
const dinheiro = (valor: string | null | undefined) => formatMoney(valor);

const EXCLUSAO_ROTULO: Record<NonNullable<SituacaoPreco['exclusao']>, string> = {
  manual: 'Excluído',
  antigo: 'Antigo',
  vencido: 'Vencida',
  estatistica: 'Fora da curva',
};

/** The marks of a price: classes of its cell and the short tags printed in it. */
function marcas(preco: PrecoListado, calculo: CalculoMapa): { classe: string; tags: ReactNode; motivo: string | undefined } {
  const s = calculo.situacao.get(preco.id);
  const classes: string[] = [];
  const tags: string[] = [];
  if (calculo.menores.has(preco.id)) {
    classes.push('sticky-grid__cell--best');
    tags.push('Menor');
  }
  if (calculo.vencedores.has(preco.id)) {
    classes.push('sticky-grid__cell--winner');
    tags.push('Vencedor');
  }
  if (s?.exclusao) {
    classes.push(s.exclusao === 'estatistica' ? 'sticky-grid__cell--dropped' : 'sticky-grid__cell--out');
    tags.push(EXCLUSAO_ROTULO[s.exclusao]);
  } else if (s?.incluidoPorDecisao) {
    tags.push('Incluído');
  }
  const motivo = s?.motivo ?? (s?.incluidoPorDecisao ? (preco.inclusaoMotivo ?? undefined) : undefined);
  return {
    classe: classes.join(' '),
    tags: tags.map((t) => (
      <span key={t} className="sticky-grid__tag">
        {t}
      </span>
    )),
    motivo,
  };
}

export interface GradeMapaProps {
  mapa: MapaCotacao;
  calculo: CalculoMapa;
  /** Shows the column of actions (winner overrides). */
  podeEditar: boolean;
  onEscolher: (linha: LinhaMapa) => void;
  onVoltar: (linha: LinhaMapa) => void;
}

const COLUNAS_ESTATISTICA = ['n', 'Média', 'Mediana', 'Menor', 'Maior', 'DP', 'CV'] as const;
/** The two rows of the footer: what each supplier quoted and won, and the totals of the cotação. */
const RODAPE = [
  {
    rotulo: 'Total cotado',
    itens: 'itensCotados',
    total: 'totalCotado',
    dado: 'data-total-cotado',
    geral: 'Valor estimado total',
    testid: 'valor-estimado-total',
    valor: 'valorEstimadoTotal',
  },
  {
    rotulo: 'Total vencido',
    itens: 'itensVencidos',
    total: 'totalVencido',
    dado: 'data-total-vencido',
    geral: 'Total dos vencedores',
    testid: 'valor-vencedores-total',
    valor: 'valorVencedoresTotal',
  },
] as const;
/** Rows of the first paint; the rest right after it (500 rows × 10 suppliers is ~20 000 cells). */
const PRIMEIRAS_LINHAS = 60;

/** False until the first rows were painted (then every row). */
function useDepoisDaPrimeiraPintura(pronto: boolean): boolean {
  const [depois, setDepois] = useState(pronto);
  useEffect(() => {
    if (depois) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // a timeout scheduled from an animation frame runs after that frame is painted
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setDepois(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [depois]);
  return depois;
}

function CabecalhoFornecedor({ convite, vencida }: { convite: Convite; vencida: boolean }) {
  return (
    <>
      {convite.fornecedorNome}
      <span className="text-sub">
        {SITUACAO_CONVITE_LABEL[convite.situacao]}
        {convite.validade ? ` · validade ${formatDate(convite.validade)}` : ''}
      </span>
      {vencida ? <span className="sticky-grid__tag sticky-grid__tag--warning">Proposta vencida</span> : null}
    </>
  );
}

/** The grid (memoised: typing in a dialog of the page does not render 5 000 cells again). */
export const GradeMapa = memo(function GradeMapa({ mapa, calculo, podeEditar, onEscolher, onVoltar }: GradeMapaProps) {
  const { convites } = mapa;
  const { totais } = calculo;
  const todas = useDepoisDaPrimeiraPintura(calculo.linhas.length <= PRIMEIRAS_LINHAS);
  const linhas = todas ? calculo.linhas : calculo.linhas.slice(0, PRIMEIRAS_LINHAS);
  return (
    <>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
      <section className="sticky-grid__scroll" tabIndex={0} aria-label="Mapa comparativo: role a grade para ver todos os fornecedores">
        <table className={podeEditar ? 'sticky-grid__table' : 'sticky-grid__table sticky-grid__table--no-actions'} aria-describedby="mapa-legenda">
          <caption className="visually-hidden">
            Mapa comparativo: {plural(calculo.linhas.length, 'item', 'itens')} × {plural(convites.length, 'fornecedor', 'fornecedores')}
          </caption>
          <colgroup span={3} />
          {convites.map((c) => (
            <colgroup key={c.id} span={2} />
          ))}
          <colgroup span={1} />
          <colgroup span={COLUNAS_ESTATISTICA.length} />
          <colgroup span={podeEditar ? 4 : 3} />
          <thead>
            <tr>
              <th scope="col" rowSpan={2} className="sticky-grid__fixed">
                Item
              </th>
              <th scope="col" rowSpan={2}>
                Unid.
              </th>
              <th scope="col" rowSpan={2} className="sticky-grid__num">
                <abbr title="Quantidade">Qtd.</abbr>
              </th>
              {convites.map((c, i) => (
                <th key={c.id} scope="colgroup" colSpan={2} className="sticky-grid__group">
                  <CabecalhoFornecedor convite={c} vencida={calculo.propostaVencida[i] ?? false} />
                </th>
              ))}
              <th scope="col" rowSpan={2}>
                Outras fontes
              </th>
              <th scope="colgroup" colSpan={COLUNAS_ESTATISTICA.length} className="sticky-grid__group">
                Preços válidos
              </th>
              <th scope="colgroup" colSpan={podeEditar ? 4 : 3} className="sticky-grid__group sticky-grid__end sticky-grid__end--group">
                Resultado
              </th>
            </tr>
            <tr>
              {convites.map((c) => (
                <Fragment key={c.id}>
                  <th scope="col" className="sticky-grid__num">
                    Unitário
                  </th>
                  <th scope="col" className="sticky-grid__num">
                    Total
                  </th>
                </Fragment>
              ))}
              {COLUNAS_ESTATISTICA.map((t) => (
                <th key={t} scope="col" className="sticky-grid__num">
                  {t}
                </th>
              ))}
              <th scope="col" className="sticky-grid__num sticky-grid__end sticky-grid__end--estimate">
                Estimado (unitário)
              </th>
              <th scope="col" className="sticky-grid__num sticky-grid__end sticky-grid__end--total">
                Total estimado
              </th>
              <th scope="col" className="sticky-grid__end sticky-grid__end--winner">
                Vencedor
              </th>
              {podeEditar ? (
                <th scope="col" className="sticky-grid__end sticky-grid__end--actions">
                  Ações
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {linhas.map((linha) => {
              const { item, resultado: r } = linha;
              const e = r?.estatisticas;
              const escolhido = r?.vencedor?.escolhido ?? false;
              return (
                <tr key={item.produtoId} data-produto={item.produtoId} className={r?.menosDeTres ? 'sticky-grid__row--warning' : undefined}>
                  <th scope="row" className="sticky-grid__fixed">
                    {item.ordem}. {item.descricao}
                    {r?.menosDeTres ? <span className="sticky-grid__tag sticky-grid__tag--warning">Menos de 3 preços válidos</span> : null}
                  </th>
                  <td>{item.unidade}</td>
                  <td className="sticky-grid__num">{formatDecimal(item.quantidade)}</td>
                  {linha.celulas.map((preco, i) => {
                    const fornecedorId = convites[i]!.fornecedorId;
                    if (!preco) {
                      return (
                        <td key={fornecedorId} colSpan={2} className="sticky-grid__cell--empty" data-celula={`${item.produtoId}:${fornecedorId}`}>
                          —
                        </td>
                      );
                    }
                    const m = marcas(preco, calculo);
                    return (
                      <Fragment key={fornecedorId}>
                        <td className={`sticky-grid__price ${m.classe}`.trimEnd()} data-celula={`${item.produtoId}:${fornecedorId}`} title={m.motivo}>
                          <span className="sticky-grid__amount">{unitario(preco.valorUnitario)}</span>
                          {preco.marca ? <span className="text-sub">{preco.marca}</span> : null}
                          {m.tags}
                        </td>
                        <td className={`sticky-grid__num ${m.classe}`.trimEnd()}>{dinheiro(lineTotal(item.quantidade, preco.valorUnitario))}</td>
                      </Fragment>
                    );
                  })}
                  <td className="sticky-grid__list">
                    {linha.outras.length === 0
                      ? '—'
                      : linha.outras.map((p) => {
                          const m = marcas(p, calculo);
                          return (
                            <span key={p.id} className={m.classe || undefined} title={m.motivo}>
                              {FONTE_CURTA[p.fonte]}: {unitario(p.valorUnitario)}
                              {m.tags}
                            </span>
                          );
                        })}
                  </td>
                  <td className="sticky-grid__num">{e?.n ?? 0}</td>
                  <td className="sticky-grid__num">{dinheiro(e?.media)}</td>
                  <td className="sticky-grid__num">{dinheiro(e?.mediana)}</td>
                  <td className="sticky-grid__num">{unitario(e?.menor)}</td>
                  <td className="sticky-grid__num">{unitario(e?.maior)}</td>
                  <td className="sticky-grid__num">{dinheiro(e?.desvioPadrao)}</td>
                  <td className="sticky-grid__num">{e ? `${formatDecimal(e.cv, { min: 1, max: 1 })}%` : ''}</td>
                  <td className="sticky-grid__num sticky-grid__end sticky-grid__end--estimate">
                    <strong>{r?.valorEstimado ? dinheiro(r.valorEstimado) : 'Sem preço válido'}</strong>
                    {r?.criterio ? (
                      <span className="sticky-grid__note" title={r.criterio}>
                        {r.criterio}
                      </span>
                    ) : null}
                  </td>
                  <td className="sticky-grid__num sticky-grid__end sticky-grid__end--total">{dinheiro(r?.valorTotal)}</td>
                  <td className="sticky-grid__end sticky-grid__end--winner">
                    {r?.vencedor ? (
                      <>
                        <span>{linha.vencedorNome ?? 'Fornecedor'}</span>
                        <span className="text-sub">
                          <span className="sticky-grid__amount">{unitario(r.vencedor.valorUnitario)}</span> ·{' '}
                          <span className="sticky-grid__amount">{dinheiro(r.vencedor.valorTotal)}</span>
                        </span>
                        {escolhido ? (
                          <span className="text-sub" title={r.vencedor.motivo ?? undefined}>
                            <span className="sticky-grid__tag">Escolhido</span> {r.vencedor.motivo}
                          </span>
                        ) : null}
                      </>
                    ) : (
                      '—'
                    )}
                  </td>
                  {podeEditar ? (
                    <td className="sticky-grid__end sticky-grid__end--actions">
                      <ButtonRow
                        actions={[
                          {
                            label: 'Escolher outro vencedor',
                            'aria-label': `Escolher outro vencedor para o item ${item.ordem}`,
                            variant: 'secondary',
                            show: linha.opcoes.length > 1 || (linha.opcoes.length === 1 && !r?.vencedor),
                            onClick: () => onEscolher(linha),
                          },
                          {
                            label: 'Voltar ao menor',
                            'aria-label': `Voltar ao menor preço no item ${item.ordem}`,
                            show: escolhido,
                            onClick: () => onVoltar(linha),
                          },
                        ]}
                      />
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
          <tfoot>
            {RODAPE.map((r) => (
              <tr key={r.rotulo}>
                <th scope="row" className="sticky-grid__fixed">
                  {r.rotulo}
                </th>
                <td colSpan={2} />
                {totais.map((t, i) => (
                  <Fragment key={convites[i]!.id}>
                    <td className="sticky-grid__num">{plural(t?.[r.itens] ?? 0, 'item', 'itens')}</td>
                    <td className="sticky-grid__num" {...{ [r.dado]: convites[i]!.fornecedorId }}>
                      {dinheiro(t?.[r.total] ?? '0')}
                    </td>
                  </Fragment>
                ))}
                <td colSpan={1 + COLUNAS_ESTATISTICA.length} />
                <th scope="row" className="sticky-grid__num sticky-grid__end sticky-grid__end--estimate">
                  {r.geral}
                </th>
                <td className="sticky-grid__num sticky-grid__end sticky-grid__end--total" data-testid={r.testid}>
                  <strong>{dinheiro(mapa.avaliacao[r.valor])}</strong>
                </td>
                <td colSpan={podeEditar ? 2 : 1} className="sticky-grid__end sticky-grid__end--rest" />
              </tr>
            ))}
          </tfoot>
        </table>
      </section>
    </>
  );
});
