// The memória de cálculo of a cotação (IN SEGES/ME 65/2021): the document a Tribunal de Contas reads,
// as PDF (A4 landscape) and XLSX (sheets Resumo, Preços, Fornecedores and, for the média saneada,
// Rodadas). From the same MapaCotacao as
// the mapa comparativo (carregarCotacao): the legal basis and the method in force with its rule; per
// item every price with its source, origin, date and time, link, evidence (file name and SHA-256),
// value and whether it was used or left out and why (automatic or a person's reason), the statistics
// (n, média, mediana, menor, maior, desvio-padrão, CV), the criterion and the estimated price; the
// winners (and the choices other than the lowest, with their reasons); the suppliers invited, why
// they were chosen and who did not answer; the justification of items with fewer than three prices
// and who approved it; the estimated total; the reference date; who generated it and when.
import { formatCpfCnpj, formatDate, formatDateTime } from '@app/br';
import { compareDecimal, decimalPlaces, formatDecimal, formatMoney } from '@app/documents';
import type { CellValue, PdfBlock, PdfDocument, PdfDocumentField, XlsxSheet } from '@app/server-core';
import {
  FONTE_CURTA,
  FONTE_LABEL,
  IDADE_MAXIMA_MESES,
  type ItemCotacao,
  MINIMO_PRECOS,
  METODO_LABEL,
  type MapaCotacao,
  PARADA_TEXTO,
  type PrecoListado,
  type ResultadoItem,
  SITUACAO_CONVITE_LABEL,
  type SituacaoPreco,
  descreverMetodo,
  fluxoCotacao,
} from '../shared/index.js';
import type { EntidadeImpressa } from './documentos-formulario.js';

export interface Geracao {
  em: Date;
  por: string;
}

const unitario = (v: string | null | undefined) => (v ? formatMoney(v, 4) : '—');
const dinheiro = (v: string | null | undefined) => (v ? formatMoney(v) : '—');
/** Amounts in table cells, without 'R$' (the column header says it): narrower columns, fewer words. */
const valor = (v: string | null | undefined, places = 2) => (v ? formatDecimal(v, { min: 2, max: places }) : '—');
const percentual = (v: string) => `${formatDecimal(v, { min: 1, max: 1 })}%`;
const numero = (mapa: MapaCotacao) => `${mapa.cotacao.numero}/${mapa.cotacao.ano}`;
/** A decimal cell of the XLSX: exact, with the places it has (at least `min`). */
const dec = (v: string | null | undefined, min = 2): CellValue => (v ? { decimal: v, places: Math.max(min, decimalPlaces(v)) } : null);

const metodoTexto = (mapa: MapaCotacao) =>
  `${METODO_LABEL[mapa.cotacao.metodo]}${mapa.cotacao.metodo === 'media_saneada' ? (mapa.cotacao.iterar ? ' (iterativa)' : ' (uma aplicação)') : ''}`;

/** The age rules as applied against the reference date (IN 65, art. 5). */
function regrasDeIdade(mapa: MapaCotacao): string {
  const ref = formatDate(mapa.cotacao.dataReferencia);
  const limites = (Object.entries(IDADE_MAXIMA_MESES) as [keyof typeof IDADE_MAXIMA_MESES, number | null][])
    .filter(([, meses]) => meses !== null)
    .map(([fonte, meses]) => `${FONTE_CURTA[fonte].toLowerCase()}: ${meses === 12 ? '1 ano' : `${meses} meses`}`);
  return (
    `Idade máxima dos preços, contada da data de referência (${ref}): ${limites.join('; ')}. ` +
    'Preços mais antigos, e propostas de fornecedores com validade vencida na data de referência, ficam fora do cálculo, ' +
    'salvo inclusão motivada por uma pessoa. Cálculos em decimais exatos; resultados arredondados a centavos apenas ao final.'
  );
}

/** 'Usado' / 'Excluído' / 'Descartado' and why, as printed beside each price. */
export function situacaoTexto(preco: PrecoListado, s: SituacaoPreco | undefined): { uso: string; motivo: string } {
  if (!s) return { uso: '—', motivo: '' };
  if (s.usado) {
    return {
      uso: 'Usado',
      motivo: s.incluidoPorDecisao && preco.inclusaoMotivo ? `Incluído por decisão (motivo informado): ${preco.inclusaoMotivo}` : '',
    };
  }
  switch (s.exclusao) {
    case 'manual':
      return { uso: 'Excluído (decisão)', motivo: `Motivo informado: ${preco.exclusaoMotivo ?? s.motivo ?? ''}` };
    case 'estatistica':
      return { uso: 'Descartado pelo método (automático)', motivo: s.motivo ?? '' };
    case 'antigo':
    case 'vencido':
      return { uso: 'Excluído (automático)', motivo: s.motivo ?? '' };
    default:
      return { uso: 'Não usado', motivo: s.motivo ?? '' };
  }
}

/** Everything the two formats print, computed once. */
function montar(mapa: MapaCotacao) {
  const situacoes = new Map(mapa.avaliacao.precos.map((s) => [s.precoId, s]));
  const resultados = new Map(mapa.avaliacao.itens.map((r) => [r.produtoId, r]));
  const precosPorItem = new Map<string, PrecoListado[]>();
  for (const p of mapa.precos) {
    const lista = precosPorItem.get(p.produtoId);
    if (lista) lista.push(p);
    else precosPorItem.set(p.produtoId, [p]);
  }
  // cheapest first, so the outliers sit at both ends
  for (const lista of precosPorItem.values()) {
    lista.sort((a, b) => compareDecimal(a.valorUnitario, b.valorUnitario) || a.fonte.localeCompare(b.fonte) || a.dataColeta.localeCompare(b.dataColeta));
  }
  const nomes = new Map(mapa.convites.map((c) => [c.fornecedorId, c.fornecedorNome]));
  const escolhas = new Map(mapa.vencedores.map((v) => [v.produtoId, v]));
  const origem = (p: PrecoListado) => (p.fonte === 'fornecedor' ? (p.fornecedorNome ?? p.fonteDescricao) : p.fonteDescricao);
  const evidencia = (p: PrecoListado) => (p.evidencia ? `${p.evidencia.nome} (SHA-256 ${p.evidencia.sha256})` : '');
  const usados = mapa.avaliacao.precos.filter((s) => s.usado).length;
  return { situacoes, resultados, precosPorItem, nomes, escolhas, origem, evidencia, usados };
}

const itemTitulo = (i: number, item: ItemCotacao) => `Item ${i + 1} – ${item.codigo} – ${item.descricao}`;

/**
 * The rounds of the média saneada of one item (issue 18): each applied round with the prices it
 * started with (n, mean, SD, CV), its interval média ± 1 DP, the prices it dropped (by their Nº in the
 * item's price table and value) and how many it kept; and why no further round was applied.
 */
function rodadasDoItem(r: ResultadoItem | undefined, precos: PrecoListado[]) {
  if (!r?.rodadas.length) return null;
  const numeroDoPreco = new Map(precos.map((p, k) => [p.id, k + 1]));
  const valorDe = new Map(precos.map((p) => [p.id, p.valorUnitario]));
  const descritos = (ids: string[]) =>
    ids
      .map((id) => ({ n: numeroDoPreco.get(id) ?? 0, v: valorDe.get(id) }))
      .sort((a, b) => a.n - b.n)
      .map(({ n, v }) => `nº ${n} (${valor(v, 4)})`)
      .join(', ');
  const linhas = r.rodadas.map((x) => ({
    rodada: x.rodada,
    e: x.estatisticas,
    limiteInferior: x.limiteInferior,
    limiteSuperior: x.limiteSuperior,
    descartados: descritos(x.descartados),
    mantidos: x.mantidos.length,
  }));
  const f = r.estatisticasFinais;
  const depois = f
    ? `Depois da ${r.rodadas.length}ª rodada: ${f.n} ${f.n === 1 ? 'preço' : 'preços'}, média ${dinheiro(f.media)}, desvio-padrão ${dinheiro(f.desvioPadrao)}, CV ${percentual(f.cv)}; ${r.parada ? PARADA_TEXTO[r.parada] : ''}.`
    : '';
  return { linhas, depois };
}

function vencedorTexto(r: ResultadoItem | undefined, nomes: Map<string, string>, escolha: MapaCotacao['vencedores'][number] | undefined): string {
  if (!r?.vencedor) return 'Sem proposta válida de fornecedor.';
  const v = r.vencedor;
  const base = `${nomes.get(v.fornecedorId) ?? 'Fornecedor'} — ${unitario(v.valorUnitario)} (total ${dinheiro(v.valorTotal)})`;
  if (!v.escolhido) return `${base}: menor preço válido.`;
  const quem = escolha ? ` por ${escolha.escolhidoPorNome} em ${formatDateTime(escolha.escolhidoEm)}` : '';
  return `${base}: escolhido${quem} em lugar do menor preço. Motivo: ${v.motivo ?? escolha?.motivo ?? ''}`;
}

/** The memória de cálculo as a printable document (A4 landscape). */
/** The rounds as a PDF table (and the line saying why they stopped). */
function rodadasPdf(rodadas: ReturnType<typeof rodadasDoItem>): PdfBlock[] {
  if (!rodadas) return [];
  return [
    { text: 'Rodadas da média saneada (cada rodada descarta os preços fora de média ± 1 desvio-padrão dos preços com que começou):', bold: true },
    {
      table: {
        columns: [
          { header: 'Rodada', align: 'right' },
          { header: 'Preços', align: 'right' },
          { header: 'Média (R$)', align: 'right' },
          { header: 'Desvio-padrão (R$)', align: 'right' },
          { header: 'CV', align: 'right' },
          { header: 'Média ± 1 DP (R$)', width: 110 },
          { header: 'Descartados (nº e valor)', width: '*' },
          { header: 'Mantidos', align: 'right' },
        ],
        rows: rodadas.linhas.map((l) => [
          `${l.rodada}ª`,
          String(l.e.n),
          valor(l.e.media),
          valor(l.e.desvioPadrao),
          percentual(l.e.cv),
          `${valor(l.limiteInferior)} a ${valor(l.limiteSuperior)}`,
          l.descartados,
          String(l.mantidos),
        ]),
      },
    },
    { text: rodadas.depois, muted: true },
  ];
}

export function memoriaPdf(mapa: MapaCotacao, entidade: EntidadeImpressa, geracao: Geracao): PdfDocument {
  const { cotacao, itens, convites, avaliacao } = mapa;
  const m = montar(mapa);
  const fields: PdfDocumentField[] = [
    { label: 'Objeto', value: cotacao.objeto },
    { label: 'Centro de custo', value: cotacao.centroCustoNome },
    { label: 'Data de referência', value: formatDate(cotacao.dataReferencia) },
    { label: 'Método de cálculo', value: metodoTexto(mapa) },
    { label: 'Responsável pela pesquisa', value: cotacao.responsavelNome },
    { label: 'Prazo de resposta dos fornecedores', value: cotacao.prazo ? formatDateTime(cotacao.prazo) : 'Não definido' },
    ...(cotacao.requisicaoNumero ? [{ label: 'Requisição', value: cotacao.requisicaoNumero }] : []),
    ...(cotacao.concluidaEm ? [{ label: 'Concluída em', value: formatDateTime(cotacao.concluidaEm) }] : []),
    {
      label: 'Itens e preços',
      value: `${itens.length} ${itens.length === 1 ? 'item' : 'itens'} · ${mapa.precos.length} preços coletados (${m.usados} usados no cálculo, ${mapa.precos.length - m.usados} fora dele)`,
    },
    { label: 'Valor estimado total', value: dinheiro(avaliacao.valorEstimadoTotal) },
    { label: 'Gerado por', value: `${geracao.por} em ${formatDateTime(geracao.em)}` },
  ];

  const blocks: PdfBlock[] = [
    { heading: 'Fundamentação e método de cálculo' },
    {
      text: 'Pesquisa de preços conforme a Instrução Normativa SEGES/ME nº 65/2021: fontes do art. 5º (sistemas oficiais, contratações similares, mídia especializada e sítios eletrônicos, cotações diretas com fornecedores e notas fiscais eletrônicas) e cálculo do art. 6º sobre ao menos três preços válidos.',
    },
    { text: `Método em vigor nesta cotação — ${metodoTexto(mapa)}: ${descreverMetodo(cotacao.metodo, cotacao.iterar)}`, bold: true },
    { text: regrasDeIdade(mapa) },

    { heading: 'Resumo por item' },
    {
      table: {
        columns: [
          { header: 'Nº', align: 'right' },
          { header: 'Código', width: 'auto' },
          { header: 'Descrição', width: '*' },
          { header: 'Unid.', align: 'center' },
          { header: 'Qtde.', align: 'right' },
          { header: 'Preços válidos', align: 'center' },
          { header: 'Média (R$)', align: 'right' },
          { header: 'Mediana (R$)', align: 'right' },
          { header: 'Menor (R$)', align: 'right' },
          { header: 'Maior (R$)', align: 'right' },
          { header: 'Desvio-padrão (R$)', align: 'right' },
          { header: 'CV', align: 'right' },
          { header: 'Preço estimado (R$)', align: 'right' },
          { header: 'Valor estimado (R$)', align: 'right' },
        ],
        rows: itens.map((item, i) => {
          const r = m.resultados.get(item.produtoId);
          const e = r?.estatisticas;
          const coletados = m.precosPorItem.get(item.produtoId)?.length ?? 0;
          return [
            String(i + 1),
            item.codigo,
            item.descricao,
            item.unidade,
            formatDecimal(item.quantidade),
            `${e?.n ?? 0} de ${coletados}${r?.menosDeTres ? ' *' : ''}`,
            valor(e?.media),
            valor(e?.mediana),
            valor(e?.menor, 4),
            valor(e?.maior, 4),
            valor(e?.desvioPadrao),
            e ? percentual(e.cv) : '—',
            valor(r?.valorEstimado),
            valor(r?.valorTotal),
          ];
        }),
        total: { label: 'Valor estimado total (R$)', value: valor(avaliacao.valorEstimadoTotal) },
      },
    },
    ...(avaliacao.itensMenosDeTres.length
      ? [{ text: `* Menos de ${MINIMO_PRECOS} preços válidos: ver a justificativa ao final.`, muted: true } as PdfBlock]
      : []),

    { heading: 'Preços por item' },
    ...itens.map((item, i): PdfBlock => {
      const r = m.resultados.get(item.produtoId);
      const precos = m.precosPorItem.get(item.produtoId) ?? [];
      const muted: number[] = [];
      const rows = precos.map((p, k) => {
        const s = m.situacoes.get(p.id);
        if (!s?.usado) muted.push(k);
        const { uso, motivo } = situacaoTexto(p, s);
        return [
          String(k + 1),
          FONTE_CURTA[p.fonte],
          [p.marca ? `${m.origem(p)} (marca ${p.marca})` : m.origem(p), p.link ? `Link: ${p.link}` : '', p.evidencia ? `Evidência: ${m.evidencia(p)}` : '']
            .filter(Boolean)
            .join(' · '),
          // who collected it, when not the person responsible for the research
          p.coletadoPorNome === cotacao.responsavelNome ? formatDateTime(p.dataColeta) : `${formatDateTime(p.dataColeta)} por ${p.coletadoPorNome}`,
          valor(p.valorUnitario, 4),
          motivo ? `${uso}: ${motivo}` : uso,
        ];
      });
      // the statistics of the valid prices are in the summary table; those of the kept ones in the criterion and the XLSX
      const resultado: PdfBlock[] = [];
      resultado.push({ text: `Critério: ${r?.criterio || 'sem preços válidos.'}` });
      resultado.push({
        text: r?.valorEstimado
          ? `Preço estimado (${METODO_LABEL[cotacao.metodo]}): ${dinheiro(r.valorEstimado)} × ${formatDecimal(item.quantidade)} ${item.unidade} = ${dinheiro(r.valorTotal)}`
          : 'Sem preço estimado: o item não tem preço válido.',
        bold: true,
      });
      resultado.push({
        text: `Vencedor: ${vencedorTexto(r, m.nomes, m.escolhas.get(item.produtoId))}${
          r?.menosDeTres ? ` Menos de ${MINIMO_PRECOS} preços válidos: ver a justificativa ao final.` : ''
        }`,
      });
      return {
        group: [
          { heading: `${itemTitulo(i, item)} (${formatDecimal(item.quantidade)} ${item.unidade})`, level: 2 },
          {
            table: {
              columns: [
                { header: 'Nº', align: 'right' },
                { header: 'Fonte', width: 64 },
                { header: 'Origem, link e evidência', width: '*' },
                { header: 'Data e hora', width: 80 },
                { header: 'Valor unitário (R$)', align: 'right' },
                { header: 'Situação', width: '*' },
              ],
              rows,
              muted,
              empty: 'Nenhum preço coletado.',
            },
          },
          ...rodadasPdf(rodadasDoItem(r, precos)),
          ...resultado,
        ],
      };
    }),

    { heading: 'Vencedores' },
    {
      text:
        `O vencedor de cada item é o menor preço válido de fornecedor, salvo escolha motivada (abaixo); o de cada item está em "Preços por item". ` +
        `Total dos vencedores: ${dinheiro(avaliacao.valorVencedoresTotal)}.`,
    },
    {
      table: {
        columns: [
          { header: 'Nº', align: 'right' },
          { header: 'Item', width: '*' },
          { header: 'Fornecedor escolhido', width: '*' },
          { header: 'Valor unitário (R$)', align: 'right' },
          { header: 'Menor preço válido (R$)', align: 'right' },
          { header: 'Escolhido por', width: 110 },
          { header: 'Motivo', width: '*' },
        ],
        rows: itens.flatMap((item, i) => {
          const r = m.resultados.get(item.produtoId);
          const v = r?.vencedor;
          if (!v?.escolhido) return [];
          const escolha = m.escolhas.get(item.produtoId);
          const menor = mapa.precos.find((p) => p.id === r?.menores[0]);
          return [
            [
              String(i + 1),
              `${item.codigo} – ${item.descricao}`,
              m.nomes.get(v.fornecedorId) ?? '',
              valor(v.valorUnitario, 4),
              menor ? valor(menor.valorUnitario, 4) : '—',
              escolha ? `${escolha.escolhidoPorNome}, ${formatDateTime(escolha.escolhidoEm)}` : '',
              v.motivo ?? '',
            ],
          ];
        }),
        empty: 'Nenhuma escolha diferente do menor preço válido.',
      },
    },

    { heading: 'Fornecedores consultados (IN 65/2021, art. 5º, IV)' },
    {
      table: {
        columns: [
          { header: 'Fornecedor', width: '*' },
          // short values: as wide as they are (a '*' column is as wide as the widest word of any '*' column)
          { header: 'CNPJ/CPF', width: 'auto' },
          { header: 'Convidado em', width: 'auto' },
          { header: 'Motivo da escolha', width: '*' },
          { header: 'Situação', width: '*' },
          { header: 'Proposta de', width: 'auto' },
          { header: 'Validade', width: 'auto' },
          { header: 'Itens cotados', align: 'right' },
          { header: 'Total cotado (R$)', align: 'right' },
          { header: 'Itens vencidos', align: 'right' },
          { header: 'Total vencido (R$)', align: 'right' },
        ],
        rows: convites.map((c) => {
          const t = avaliacao.fornecedores.find((f) => f.fornecedorId === c.fornecedorId);
          const situacao =
            c.situacao === 'nao_respondeu' && c.motivoNaoResposta
              ? `${SITUACAO_CONVITE_LABEL[c.situacao]}: ${c.motivoNaoResposta}`
              : SITUACAO_CONVITE_LABEL[c.situacao];
          return [
            c.fornecedorNome,
            formatCpfCnpj(c.fornecedorDocumento),
            formatDate(c.convidadoEm),
            c.motivoEscolha ?? '—',
            situacao,
            c.dataProposta ? formatDate(c.dataProposta) : '—',
            c.validade ? formatDate(c.validade) : '—',
            String(t?.itensCotados ?? 0),
            valor(t?.totalCotado ?? '0'),
            String(t?.itensVencidos ?? 0),
            valor(t?.totalVencido ?? '0'),
          ];
        }),
        empty: 'Nenhum fornecedor convidado.',
      },
    },
    { text: semResposta(mapa) },
    ...justificativa(mapa),
    ...(cotacao.observacoes ? [{ heading: 'Observações' }, { text: cotacao.observacoes }] : []),
  ];

  const signatures = [{ name: cotacao.responsavelNome, role: 'Responsável pela pesquisa de preços' }];
  if (cotacao.justificativaAprovadaPorNome) signatures.push({ name: cotacao.justificativaAprovadaPorNome, role: 'Autoridade competente' });
  return {
    orientation: 'landscape',
    entidade,
    title: 'Memória de cálculo da cotação',
    numero: numero(mapa),
    status: fluxoCotacao.stateLabel(cotacao.status),
    fields,
    blocks,
    signatures,
    generatedAt: geracao.em,
  };
}

/** Who did not answer (IN 65 requires it on record), and who had not answered yet. */
function semResposta(mapa: MapaCotacao): string {
  const nao = mapa.convites.filter((c) => c.situacao === 'nao_respondeu');
  const aguardando = mapa.convites.filter((c) => c.situacao === 'convidado');
  const lista = (cs: typeof nao) => cs.map((c) => `${c.fornecedorNome}${c.motivoNaoResposta ? ` (${c.motivoNaoResposta})` : ''}`).join('; ');
  const partes = [nao.length ? `Não responderam: ${lista(nao)}.` : 'Todos os fornecedores consultados responderam ou aguardam resposta.'];
  if (aguardando.length) partes.push(`Sem resposta registrada: ${lista(aguardando)}.`);
  return partes.join(' ');
}

/** The justification of the items with fewer than three valid prices (IN 65, art. 6 §5) and its approval. */
function justificativa(mapa: MapaCotacao): PdfBlock[] {
  const { cotacao, avaliacao, itens } = mapa;
  if (!avaliacao.itensMenosDeTres.length && !cotacao.justificativa) return [];
  const menos = new Set(avaliacao.itensMenosDeTres);
  const lista = itens
    .map((item, i) => ({ item, i }))
    .filter(({ item }) => menos.has(item.produtoId))
    .map(
      ({ item, i }) => `${itemTitulo(i, item)} (${mapa.avaliacao.itens.find((r) => r.produtoId === item.produtoId)?.estatisticas?.n ?? 0} preço(s) válido(s))`,
    );
  const blocks: PdfBlock[] = [{ heading: `Itens com menos de ${MINIMO_PRECOS} preços válidos (IN 65/2021, art. 6º, § 5º)` }];
  if (lista.length) blocks.push({ text: lista.join('; ') });
  blocks.push({ text: cotacao.justificativa ? `Justificativa: ${cotacao.justificativa}` : 'Nenhuma justificativa registrada.' });
  if (cotacao.justificativa && cotacao.justificativaPorNome) {
    blocks.push({
      text: `Registrada por ${cotacao.justificativaPorNome}${cotacao.justificativaEm ? ` em ${formatDateTime(cotacao.justificativaEm)}` : ''}.`,
      muted: true,
    });
  }
  if (cotacao.justificativa) {
    blocks.push({
      text: cotacao.justificativaAprovadaPorNome
        ? `Aprovada pela autoridade competente: ${cotacao.justificativaAprovadaPorNome}${cotacao.justificativaAprovadaEm ? ` em ${formatDateTime(cotacao.justificativaAprovadaEm)}` : ''}.`
        : 'Aprovação da autoridade competente pendente.',
      bold: true,
    });
    // an approval voided by a later change of the items or prices it covered (issue 18)
    if (!cotacao.justificativaAprovadaPorNome && cotacao.justificativaAnuladaMotivo) {
      blocks.push({
        text: `${cotacao.justificativaAnuladaMotivo}${cotacao.justificativaAnuladaAprovador ? ` (aprovação anterior de ${cotacao.justificativaAnuladaAprovador})` : ''}`,
        muted: true,
      });
    }
  }
  return blocks;
}

/** The memória de cálculo's XLSX sheets: Resumo (the header facts above the items), Preços, Fornecedores, Rodadas (the route writes them in a worker thread: writeXlsxInWorker). */
export function memoriaPlanilhas(mapa: MapaCotacao, entidade: EntidadeImpressa, geracao: Geracao): XlsxSheet[] {
  const { cotacao, itens, convites, avaliacao } = mapa;
  const m = montar(mapa);
  const preamble: CellValue[][] = [
    [`Memória de cálculo da cotação nº ${numero(mapa)}`],
    ['Entidade', `${entidade.nome} — CNPJ ${formatCpfCnpj(entidade.cnpj)}`],
    ['Situação', fluxoCotacao.stateLabel(cotacao.status)],
    ['Objeto', cotacao.objeto],
    ['Centro de custo', cotacao.centroCustoNome],
    ...(cotacao.requisicaoNumero ? [['Requisição', cotacao.requisicaoNumero]] : []),
    ['Data de referência', formatDate(cotacao.dataReferencia)],
    ['Método de cálculo', metodoTexto(mapa)],
    ['Regra do método', descreverMetodo(cotacao.metodo, cotacao.iterar)],
    ['Idade dos preços', regrasDeIdade(mapa)],
    ['Responsável pela pesquisa', cotacao.responsavelNome],
    ['Valor estimado total', dec(avaliacao.valorEstimadoTotal)],
    ['Total dos vencedores', dec(avaliacao.valorVencedoresTotal)],
    ['Fornecedores sem resposta', semResposta(mapa)],
    ...(cotacao.justificativa || avaliacao.itensMenosDeTres.length
      ? [
          ['Justificativa (menos de 3 preços)', cotacao.justificativa ?? 'Nenhuma justificativa registrada.'],
          [
            'Justificativa registrada por',
            cotacao.justificativaPorNome ? `${cotacao.justificativaPorNome} em ${formatDateTime(cotacao.justificativaEm)}` : '—',
          ],
          [
            'Aprovada pela autoridade competente',
            cotacao.justificativaAprovadaPorNome
              ? `${cotacao.justificativaAprovadaPorNome} em ${formatDateTime(cotacao.justificativaAprovadaEm)}`
              : cotacao.justificativaAnuladaMotivo
                ? `Pendente. ${cotacao.justificativaAnuladaMotivo}`
                : 'Pendente',
          ],
        ]
      : []),
    ...(cotacao.concluidaEm ? [['Concluída em', formatDateTime(cotacao.concluidaEm)]] : []),
    ['Gerado por', `${geracao.por} em ${formatDateTime(geracao.em)}`],
    [],
  ];
  const resumo: XlsxSheet = {
    name: 'Resumo',
    preamble,
    header: [
      'Nº',
      'Código',
      'Descrição',
      'Unidade',
      'Quantidade',
      'Preços coletados',
      'Preços válidos',
      'Média',
      'Mediana',
      'Menor',
      'Maior',
      'Desvio-padrão',
      'CV (%)',
      'Preços mantidos pelo método',
      'Média dos mantidos',
      'Mediana dos mantidos',
      'Desvio-padrão dos mantidos',
      'CV dos mantidos (%)',
      'Critério',
      'Preço estimado',
      'Valor estimado',
      'Menos de 3 preços',
      'Vencedor',
      'Valor unitário do vencedor',
      'Valor total do vencedor',
      'Motivo da escolha do vencedor',
    ],
    rows: itens.map((item, i) => {
      const r = m.resultados.get(item.produtoId);
      const e = r?.estatisticas;
      const v = r?.vencedor;
      return [
        i + 1,
        item.codigo,
        item.descricao,
        item.unidade,
        dec(item.quantidade, 0),
        m.precosPorItem.get(item.produtoId)?.length ?? 0,
        e?.n ?? 0,
        dec(e?.media),
        dec(e?.mediana),
        dec(e?.menor),
        dec(e?.maior),
        dec(e?.desvioPadrao),
        dec(e?.cv, 1),
        r?.estatisticasFinais?.n ?? 0,
        dec(r?.estatisticasFinais?.media),
        dec(r?.estatisticasFinais?.mediana),
        dec(r?.estatisticasFinais?.desvioPadrao),
        dec(r?.estatisticasFinais?.cv, 1),
        r?.criterio ?? '',
        dec(r?.valorEstimado),
        dec(r?.valorTotal),
        Boolean(r?.menosDeTres),
        v ? (m.nomes.get(v.fornecedorId) ?? '') : '',
        dec(v?.valorUnitario),
        dec(v?.valorTotal),
        v?.escolhido ? (v.motivo ?? '') : v ? 'Menor preço válido' : '',
      ];
    }),
    widths: [28, 12, 50, 9, 12, 10, 10, 14, 14, 14, 14, 14, 9, 12, 14, 14, 14, 9, 60, 14, 16, 10, 36, 14, 16, 50],
    freezeHeader: false,
  };
  const precos: XlsxSheet = {
    name: 'Preços',
    header: [
      'Nº do item',
      'Código',
      'Item',
      'Fonte',
      'Fonte (IN 65/2021)',
      'Fornecedor ou descrição da fonte',
      'Marca',
      'Data e hora',
      'Validade da proposta',
      'Link',
      'Evidência (arquivo)',
      'Evidência (SHA-256)',
      'Coletado por',
      'Valor unitário',
      'Situação',
      'Motivo',
    ],
    rows: itens.flatMap((item, i) =>
      (m.precosPorItem.get(item.produtoId) ?? []).map((p) => {
        const { uso, motivo } = situacaoTexto(p, m.situacoes.get(p.id));
        return [
          i + 1,
          item.codigo,
          item.descricao,
          FONTE_CURTA[p.fonte],
          FONTE_LABEL[p.fonte],
          m.origem(p),
          p.marca ?? '',
          new Date(p.dataColeta),
          p.validade ? formatDate(p.validade) : '',
          p.link ?? '',
          p.evidencia?.nome ?? '',
          p.evidencia?.sha256 ?? '',
          p.coletadoPorNome,
          dec(p.valorUnitario),
          uso,
          motivo,
        ];
      }),
    ),
  };
  const fornecedoresSheet: XlsxSheet = {
    name: 'Fornecedores',
    header: [
      'Fornecedor',
      'CNPJ/CPF',
      'E-mail',
      'Convidado em',
      'Motivo da escolha',
      'Situação',
      'Motivo da não resposta',
      'Data da proposta',
      'Validade da proposta',
      'Itens cotados',
      'Total cotado',
      'Itens vencidos',
      'Total vencido',
    ],
    rows: convites.map((c) => {
      const t = avaliacao.fornecedores.find((f) => f.fornecedorId === c.fornecedorId);
      return [
        c.fornecedorNome,
        formatCpfCnpj(c.fornecedorDocumento),
        c.fornecedorEmail ?? '',
        new Date(c.convidadoEm),
        c.motivoEscolha ?? '',
        SITUACAO_CONVITE_LABEL[c.situacao],
        c.motivoNaoResposta ?? '',
        c.dataProposta ? new Date(c.dataProposta) : null,
        c.validade ? formatDate(c.validade) : '',
        t?.itensCotados ?? 0,
        dec(t?.totalCotado ?? '0'),
        t?.itensVencidos ?? 0,
        dec(t?.totalVencido ?? '0'),
      ];
    }),
  };
  // the rounds of the média saneada, one row per item and round (issue 18): only when there are any
  const rodadas: XlsxSheet = {
    name: 'Rodadas',
    header: [
      'Nº do item',
      'Código',
      'Item',
      'Rodada',
      'Preços no início da rodada',
      'Média',
      'Desvio-padrão',
      'CV (%)',
      'Média − 1 DP',
      'Média + 1 DP',
      'Descartados (nº do preço e valor)',
      'Mantidos',
      'Depois da última rodada',
    ],
    rows: itens.flatMap((item, i) => {
      const r = m.resultados.get(item.produtoId);
      const dados = rodadasDoItem(r, m.precosPorItem.get(item.produtoId) ?? []);
      if (!dados) return [];
      return dados.linhas.map((l, k) => [
        i + 1,
        item.codigo,
        item.descricao,
        l.rodada,
        l.e.n,
        dec(l.e.media),
        dec(l.e.desvioPadrao),
        dec(l.e.cv, 1),
        dec(l.limiteInferior),
        dec(l.limiteSuperior),
        l.descartados,
        l.mantidos,
        k === dados.linhas.length - 1 ? dados.depois : '',
      ]);
    }),
    widths: [10, 12, 50, 8, 12, 14, 14, 9, 14, 14, 50, 10, 80],
  };
  return rodadas.rows.length ? [resumo, precos, fornecedoresSheet, rodadas] : [resumo, precos, fornecedoresSheet];
}
