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
import { type CellValue, type PdfBlock, type PdfDocument, type PdfDocumentField, type XlsxSheet, pdfTable, xlsxTable } from '@app/server-core';
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
import { type EntidadeImpressa, numeroCotacao as numero } from './documentos-formulario.js';

export interface Geracao {
  em: Date;
  por: string;
}

const unitario = (v: string | null | undefined) => (v ? formatMoney(v, 4) : '—');
const dinheiro = (v: string | null | undefined) => (v ? formatMoney(v) : '—');
/** Amounts in table cells, without 'R$' (the column header says it): narrower columns, fewer words. */
const valor = (v: string | null | undefined, places = 2) => (v ? formatDecimal(v, { min: 2, max: places }) : '—');
const percentual = (v: string) => `${formatDecimal(v, { min: 1, max: 1 })}%`;
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

const situacaoCompleta = ({ uso, motivo }: { uso: string; motivo: string }) => (motivo ? `${uso}: ${motivo}` : uso);

/** Everything the two formats print, computed once. */
function montar(mapa: MapaCotacao) {
  const situacoes = new Map(mapa.avaliacao.precos.map((s) => [s.precoId, s]));
  const resultados = new Map(mapa.avaliacao.itens.map((r) => [r.produtoId, r]));
  const precosPorItem = new Map(mapa.itens.map((item) => [item.produtoId, [] as PrecoListado[]]));
  for (const p of mapa.precos) precosPorItem.get(p.produtoId)?.push(p);
  // cheapest first, so the outliers sit at both ends
  for (const lista of precosPorItem.values()) {
    lista.sort((a, b) => compareDecimal(a.valorUnitario, b.valorUnitario) || a.fonte.localeCompare(b.fonte) || a.dataColeta.localeCompare(b.dataColeta));
  }
  const nomes = new Map(mapa.convites.map((c) => [c.fornecedorId, c.fornecedorNome]));
  const escolhas = new Map(mapa.vencedores.map((v) => [v.produtoId, v]));
  const origem = (p: PrecoListado) => (p.fonte === 'fornecedor' ? (p.fornecedorNome ?? p.fonteDescricao) : p.fonteDescricao);
  const evidencia = (p: PrecoListado) => (p.evidencia ? `${p.evidencia.nome} (SHA-256 ${p.evidencia.sha256})` : '');
  const usados = mapa.avaliacao.precos.filter((s) => s.usado).length;
  // one row per item (its number i, result r, statistics e and prices), per price, per invited supplier
  const itens = mapa.itens.map((item, i) => {
    const r = resultados.get(item.produtoId);
    return { item, i, r, e: r?.estatisticas, precos: precosPorItem.get(item.produtoId) ?? [] };
  });
  const precos = itens.flatMap((x) => x.precos.map((p) => ({ ...x, p, ...situacaoTexto(p, situacoes.get(p.id)) })));
  const convidados = mapa.convites.map((c) => ({ c, t: mapa.avaliacao.fornecedores.find((f) => f.fornecedorId === c.fornecedorId) }));
  return { situacoes, resultados, precosPorItem, nomes, escolhas, origem, evidencia, usados, itens, precos, convidados };
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
  const linhas = r.rodadas.map((x) => ({ ...x, e: x.estatisticas, descartados: descritos(x.descartados), mantidos: x.mantidos.length }));
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

/** The rounds as a PDF table (and the line saying why they stopped). */
function rodadasPdf(rodadas: ReturnType<typeof rodadasDoItem>): PdfBlock[] {
  if (!rodadas) return [];
  return [
    { text: 'Rodadas da média saneada (cada rodada descarta os preços fora de média ± 1 desvio-padrão dos preços com que começou):', bold: true },
    {
      table: pdfTable(rodadas.linhas, [
        { header: 'Rodada', align: 'right', cell: (l) => `${l.rodada}ª` },
        { header: 'Preços', align: 'right', cell: (l) => String(l.e.n) },
        { header: 'Média (R$)', align: 'right', cell: (l) => valor(l.e.media) },
        { header: 'Desvio-padrão (R$)', align: 'right', cell: (l) => valor(l.e.desvioPadrao) },
        { header: 'CV', align: 'right', cell: (l) => percentual(l.e.cv) },
        { header: 'Média ± 1 DP (R$)', width: 110, cell: (l) => `${valor(l.limiteInferior)} a ${valor(l.limiteSuperior)}` },
        { header: 'Descartados (nº e valor)', width: '*', cell: (l) => l.descartados },
        { header: 'Mantidos', align: 'right', cell: (l) => String(l.mantidos) },
      ]),
    },
    { text: rodadas.depois, muted: true },
  ];
}

/** The memória de cálculo as a printable document (A4 landscape). */
export function memoriaPdf(mapa: MapaCotacao, entidade: EntidadeImpressa, geracao: Geracao): PdfDocument {
  const { cotacao, itens, avaliacao } = mapa;
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
      table: pdfTable(
        m.itens,
        [
          { header: 'Nº', align: 'right', cell: (x) => String(x.i + 1) },
          { header: 'Código', width: 'auto', cell: (x) => x.item.codigo },
          { header: 'Descrição', width: '*', cell: (x) => x.item.descricao },
          { header: 'Unid.', align: 'center', cell: (x) => x.item.unidade },
          { header: 'Qtde.', align: 'right', cell: (x) => formatDecimal(x.item.quantidade) },
          { header: 'Preços válidos', align: 'center', cell: (x) => `${x.e?.n ?? 0} de ${x.precos.length}${x.r?.menosDeTres ? ' *' : ''}` },
          { header: 'Média (R$)', align: 'right', cell: (x) => valor(x.e?.media) },
          { header: 'Mediana (R$)', align: 'right', cell: (x) => valor(x.e?.mediana) },
          { header: 'Menor (R$)', align: 'right', cell: (x) => valor(x.e?.menor, 4) },
          { header: 'Maior (R$)', align: 'right', cell: (x) => valor(x.e?.maior, 4) },
          { header: 'Desvio-padrão (R$)', align: 'right', cell: (x) => valor(x.e?.desvioPadrao) },
          { header: 'CV', align: 'right', cell: (x) => (x.e ? percentual(x.e.cv) : '—') },
          { header: 'Preço estimado (R$)', align: 'right', cell: (x) => valor(x.r?.valorEstimado) },
          { header: 'Valor estimado (R$)', align: 'right', cell: (x) => valor(x.r?.valorTotal) },
        ],
        { total: { label: 'Valor estimado total (R$)', value: valor(avaliacao.valorEstimadoTotal) } },
      ),
    },
    ...(avaliacao.itensMenosDeTres.length
      ? [{ text: `* Menos de ${MINIMO_PRECOS} preços válidos: ver a justificativa ao final.`, muted: true } as PdfBlock]
      : []),

    { heading: 'Preços por item' },
    ...m.itens.map(({ item, i, r, precos }): PdfBlock => {
      const table = pdfTable(
        precos,
        [
          { header: 'Nº', align: 'right', cell: (_p, k) => String(k + 1) },
          { header: 'Fonte', width: 64, cell: (p) => FONTE_CURTA[p.fonte] },
          {
            header: 'Origem, link e evidência',
            width: '*',
            cell: (p) =>
              [p.marca ? `${m.origem(p)} (marca ${p.marca})` : m.origem(p), p.link ? `Link: ${p.link}` : '', p.evidencia ? `Evidência: ${m.evidencia(p)}` : '']
                .filter(Boolean)
                .join(' · '),
          },
          // who collected it, when not the person responsible for the research
          {
            header: 'Data e hora',
            width: 80,
            cell: (p) =>
              p.coletadoPorNome === cotacao.responsavelNome ? formatDateTime(p.dataColeta) : `${formatDateTime(p.dataColeta)} por ${p.coletadoPorNome}`,
          },
          { header: 'Valor unitário (R$)', align: 'right', cell: (p) => valor(p.valorUnitario, 4) },
          { header: 'Situação', width: '*', cell: (p) => situacaoCompleta(situacaoTexto(p, m.situacoes.get(p.id))) },
        ],
        { muted: (p) => !m.situacoes.get(p.id)?.usado, empty: 'Nenhum preço coletado.' },
      );
      // the statistics of the valid prices are in the summary table; those of the kept ones in the criterion and the XLSX
      const estimado = r?.valorEstimado
        ? `Preço estimado (${METODO_LABEL[cotacao.metodo]}): ${dinheiro(r.valorEstimado)} × ${formatDecimal(item.quantidade)} ${item.unidade} = ${dinheiro(r.valorTotal)}`
        : 'Sem preço estimado: o item não tem preço válido.';
      const menos = r?.menosDeTres ? ` Menos de ${MINIMO_PRECOS} preços válidos: ver a justificativa ao final.` : '';
      return {
        group: [
          { heading: `${itemTitulo(i, item)} (${formatDecimal(item.quantidade)} ${item.unidade})`, level: 2 },
          { table },
          ...rodadasPdf(rodadasDoItem(r, precos)),
          { text: `Critério: ${r?.criterio || 'sem preços válidos.'}` },
          { text: estimado, bold: true },
          { text: `Vencedor: ${vencedorTexto(r, m.nomes, m.escolhas.get(item.produtoId))}${menos}` },
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
      table: pdfTable(
        m.itens.flatMap((x) => (x.r?.vencedor?.escolhido ? [{ ...x, v: x.r.vencedor, escolha: m.escolhas.get(x.item.produtoId) }] : [])),
        [
          { header: 'Nº', align: 'right', cell: (x) => String(x.i + 1) },
          { header: 'Item', width: '*', cell: (x) => `${x.item.codigo} – ${x.item.descricao}` },
          { header: 'Fornecedor escolhido', width: '*', cell: (x) => m.nomes.get(x.v.fornecedorId) ?? '' },
          { header: 'Valor unitário (R$)', align: 'right', cell: (x) => valor(x.v.valorUnitario, 4) },
          {
            header: 'Menor preço válido (R$)',
            align: 'right',
            cell: (x) => {
              const menor = mapa.precos.find((p) => p.id === x.r?.menores[0]);
              return menor ? valor(menor.valorUnitario, 4) : '—';
            },
          },
          { header: 'Escolhido por', width: 110, cell: (x) => (x.escolha ? `${x.escolha.escolhidoPorNome}, ${formatDateTime(x.escolha.escolhidoEm)}` : '') },
          { header: 'Motivo', width: '*', cell: (x) => x.v.motivo ?? '' },
        ],
        { empty: 'Nenhuma escolha diferente do menor preço válido.' },
      ),
    },

    { heading: 'Fornecedores consultados (IN 65/2021, art. 5º, IV)' },
    {
      table: pdfTable(
        m.convidados,
        [
          { header: 'Fornecedor', width: '*', cell: ({ c }) => c.fornecedorNome },
          // short values: as wide as they are (a '*' column is as wide as the widest word of any '*' column)
          { header: 'CNPJ/CPF', width: 'auto', cell: ({ c }) => formatCpfCnpj(c.fornecedorDocumento) },
          { header: 'Convidado em', width: 'auto', cell: ({ c }) => formatDate(c.convidadoEm) },
          { header: 'Motivo da escolha', width: '*', cell: ({ c }) => c.motivoEscolha ?? '—' },
          {
            header: 'Situação',
            width: '*',
            cell: ({ c }) =>
              c.situacao === 'nao_respondeu' && c.motivoNaoResposta
                ? `${SITUACAO_CONVITE_LABEL[c.situacao]}: ${c.motivoNaoResposta}`
                : SITUACAO_CONVITE_LABEL[c.situacao],
          },
          { header: 'Proposta de', width: 'auto', cell: ({ c }) => (c.dataProposta ? formatDate(c.dataProposta) : '—') },
          { header: 'Validade', width: 'auto', cell: ({ c }) => (c.validade ? formatDate(c.validade) : '—') },
          { header: 'Itens cotados', align: 'right', cell: ({ t }) => String(t?.itensCotados ?? 0) },
          { header: 'Total cotado (R$)', align: 'right', cell: ({ t }) => valor(t?.totalCotado ?? '0') },
          { header: 'Itens vencidos', align: 'right', cell: ({ t }) => String(t?.itensVencidos ?? 0) },
          { header: 'Total vencido (R$)', align: 'right', cell: ({ t }) => valor(t?.totalVencido ?? '0') },
        ],
        { empty: 'Nenhum fornecedor convidado.' },
      ),
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
    .map(({ item, i }) => {
      const n = mapa.avaliacao.itens.find((r) => r.produtoId === item.produtoId)?.estatisticas?.n ?? 0;
      return `${itemTitulo(i, item)} (${n} ${n === 1 ? 'preço válido' : 'preços válidos'})`;
    });
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
  const { cotacao, avaliacao } = mapa;
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
  const resumo = xlsxTable({
    name: 'Resumo',
    preamble,
    freezeHeader: false,
    rows: m.itens,
    columns: [
      { header: 'Nº', width: 28, cell: (x) => x.i + 1 },
      { header: 'Código', width: 12, cell: (x) => x.item.codigo },
      { header: 'Descrição', width: 50, cell: (x) => x.item.descricao },
      { header: 'Unidade', width: 9, cell: (x) => x.item.unidade },
      { header: 'Quantidade', width: 12, cell: (x) => dec(x.item.quantidade, 0) },
      { header: 'Preços coletados', width: 10, cell: (x) => x.precos.length },
      { header: 'Preços válidos', width: 10, cell: (x) => x.e?.n ?? 0 },
      { header: 'Média', width: 14, cell: (x) => dec(x.e?.media) },
      { header: 'Mediana', width: 14, cell: (x) => dec(x.e?.mediana) },
      { header: 'Menor', width: 14, cell: (x) => dec(x.e?.menor) },
      { header: 'Maior', width: 14, cell: (x) => dec(x.e?.maior) },
      { header: 'Desvio-padrão', width: 14, cell: (x) => dec(x.e?.desvioPadrao) },
      { header: 'CV (%)', width: 9, cell: (x) => dec(x.e?.cv, 1) },
      { header: 'Preços mantidos pelo método', width: 12, cell: (x) => x.r?.estatisticasFinais?.n ?? 0 },
      { header: 'Média dos mantidos', width: 14, cell: (x) => dec(x.r?.estatisticasFinais?.media) },
      { header: 'Mediana dos mantidos', width: 14, cell: (x) => dec(x.r?.estatisticasFinais?.mediana) },
      { header: 'Desvio-padrão dos mantidos', width: 14, cell: (x) => dec(x.r?.estatisticasFinais?.desvioPadrao) },
      { header: 'CV dos mantidos (%)', width: 9, cell: (x) => dec(x.r?.estatisticasFinais?.cv, 1) },
      { header: 'Critério', width: 60, cell: (x) => x.r?.criterio ?? '' },
      { header: 'Preço estimado', width: 14, cell: (x) => dec(x.r?.valorEstimado) },
      { header: 'Valor estimado', width: 16, cell: (x) => dec(x.r?.valorTotal) },
      { header: 'Menos de 3 preços', width: 10, cell: (x) => Boolean(x.r?.menosDeTres) },
      { header: 'Vencedor', width: 36, cell: (x) => (x.r?.vencedor ? (m.nomes.get(x.r.vencedor.fornecedorId) ?? '') : '') },
      { header: 'Valor unitário do vencedor', width: 14, cell: (x) => dec(x.r?.vencedor?.valorUnitario) },
      { header: 'Valor total do vencedor', width: 16, cell: (x) => dec(x.r?.vencedor?.valorTotal) },
      {
        header: 'Motivo da escolha do vencedor',
        width: 50,
        cell: ({ r }) => (r?.vencedor?.escolhido ? (r.vencedor.motivo ?? '') : r?.vencedor ? 'Menor preço válido' : ''),
      },
    ],
  });
  const precos = xlsxTable({
    name: 'Preços',
    rows: m.precos,
    columns: [
      { header: 'Nº do item', cell: (x) => x.i + 1 },
      { header: 'Código', cell: (x) => x.item.codigo },
      { header: 'Item', cell: (x) => x.item.descricao },
      { header: 'Fonte', cell: (x) => FONTE_CURTA[x.p.fonte] },
      { header: 'Fonte (IN 65/2021)', cell: (x) => FONTE_LABEL[x.p.fonte] },
      { header: 'Fornecedor ou descrição da fonte', cell: (x) => m.origem(x.p) },
      { header: 'Marca', cell: (x) => x.p.marca ?? '' },
      { header: 'Data e hora', cell: (x) => new Date(x.p.dataColeta) },
      { header: 'Validade da proposta', cell: (x) => (x.p.validade ? formatDate(x.p.validade) : '') },
      { header: 'Link', cell: (x) => x.p.link ?? '' },
      { header: 'Evidência (arquivo)', cell: (x) => x.p.evidencia?.nome ?? '' },
      { header: 'Evidência (SHA-256)', cell: (x) => x.p.evidencia?.sha256 ?? '' },
      { header: 'Coletado por', cell: (x) => x.p.coletadoPorNome },
      { header: 'Valor unitário', cell: (x) => dec(x.p.valorUnitario) },
      { header: 'Situação', cell: (x) => x.uso },
      { header: 'Motivo', cell: (x) => x.motivo },
    ],
  });
  const fornecedoresSheet = xlsxTable({
    name: 'Fornecedores',
    rows: m.convidados,
    columns: [
      { header: 'Fornecedor', cell: ({ c }) => c.fornecedorNome },
      { header: 'CNPJ/CPF', cell: ({ c }) => formatCpfCnpj(c.fornecedorDocumento) },
      { header: 'E-mail', cell: ({ c }) => c.fornecedorEmail ?? '' },
      { header: 'Convidado em', cell: ({ c }) => new Date(c.convidadoEm) },
      { header: 'Motivo da escolha', cell: ({ c }) => c.motivoEscolha ?? '' },
      { header: 'Situação', cell: ({ c }) => SITUACAO_CONVITE_LABEL[c.situacao] },
      { header: 'Motivo da não resposta', cell: ({ c }) => c.motivoNaoResposta ?? '' },
      { header: 'Data da proposta', cell: ({ c }) => (c.dataProposta ? new Date(c.dataProposta) : null) },
      { header: 'Validade da proposta', cell: ({ c }) => (c.validade ? formatDate(c.validade) : '') },
      { header: 'Itens cotados', cell: ({ t }) => t?.itensCotados ?? 0 },
      { header: 'Total cotado', cell: ({ t }) => dec(t?.totalCotado ?? '0') },
      { header: 'Itens vencidos', cell: ({ t }) => t?.itensVencidos ?? 0 },
      { header: 'Total vencido', cell: ({ t }) => dec(t?.totalVencido ?? '0') },
    ],
  });
  // the rounds of the média saneada, one row per item and round (issue 18): only when there are any
  const rodadas = xlsxTable({
    name: 'Rodadas',
    rows: m.itens.flatMap((x) => {
      const dados = rodadasDoItem(x.r, x.precos);
      return (dados?.linhas ?? []).map((l, k, todas) => ({ ...x, l, depois: k === todas.length - 1 ? dados!.depois : '' }));
    }),
    columns: [
      { header: 'Nº do item', width: 10, cell: (x) => x.i + 1 },
      { header: 'Código', width: 12, cell: (x) => x.item.codigo },
      { header: 'Item', width: 50, cell: (x) => x.item.descricao },
      { header: 'Rodada', width: 8, cell: (x) => x.l.rodada },
      { header: 'Preços no início da rodada', width: 12, cell: (x) => x.l.e.n },
      { header: 'Média', width: 14, cell: (x) => dec(x.l.e.media) },
      { header: 'Desvio-padrão', width: 14, cell: (x) => dec(x.l.e.desvioPadrao) },
      { header: 'CV (%)', width: 9, cell: (x) => dec(x.l.e.cv, 1) },
      { header: 'Média − 1 DP', width: 14, cell: (x) => dec(x.l.limiteInferior) },
      { header: 'Média + 1 DP', width: 14, cell: (x) => dec(x.l.limiteSuperior) },
      { header: 'Descartados (nº do preço e valor)', width: 50, cell: (x) => x.l.descartados },
      { header: 'Mantidos', width: 10, cell: (x) => x.l.mantidos },
      { header: 'Depois da última rodada', width: 80, cell: (x) => x.depois },
    ],
  });
  return rodadas.rows.length ? [resumo, precos, fornecedoresSheet, rodadas] : [resumo, precos, fornecedoresSheet];
}
