// The plan's PDF (the kit's main file): entidade, number, status and verification code come from the kit.
import { formatDate } from '@app/br';
import { formatDecimal, formatMoney } from '@app/documents';
import { type DocumentPdfContent, type PdfBlock, type PdfTable, type RequestContext, pdfTable } from '@app/server-core';
import { PRIORIDADE_LABEL } from '@app/memorandos/shared';
import { CATEGORIA_ITEM_PCA, calendarioPorMes, mesPorExtenso } from '../shared/index.js';
import { lerContratacoes } from './contratacoes.js';
import { lerManuais } from './manuais.js';
import { lerRevisao } from './revisao.js';
import { lerFracionamento } from './fracionamento.js';
import { lerItens, lerTotais, type TotalDoPlano } from './leitura.js';

const dinheiro = (valor: string) => formatMoney(valor, 4);
/** A quantity and its value: '10 – R$ 5,00'. */
const quantoValor = (i: { quantidade: string; valorTotal: string }) => `${formatDecimal(i.quantidade)} – ${dinheiro(i.valorTotal)}`;
/** A sub-heading with its table, kept on one page when it fits. */
const secao = (heading: string, table: PdfTable): PdfBlock => ({ group: [{ heading, level: 2 }, { table }] });
const totais = (primeira: string, linhas: TotalDoPlano[]) =>
  pdfTable(
    linhas,
    [
      { header: primeira, cell: (l) => l.rotulo },
      { header: 'Itens', align: 'right', cell: (l) => String(l.itens) },
      { header: 'Valor', align: 'right', cell: (l) => dinheiro(l.valor) },
    ],
    { empty: 'Nenhum item.' },
  );

export async function planoPdf(row: Record<string, unknown>, ctx: RequestContext): Promise<DocumentPdfContent> {
  const planoId = String(row.id);
  const itens = await lerItens(ctx.db, planoId);
  const { porCategoria, porUnidade } = await lerTotais(ctx.db, planoId, CATEGORIA_ITEM_PCA);
  const acima = (await lerFracionamento(ctx.db, { id: planoId, entidadeId: ctx.entidadeId, anoPca: Number(row.anoPca) })).filter((g) => g.exigeLicitacao);
  const contratacoes = await lerContratacoes(ctx.db, planoId);
  const manuais = await lerManuais(ctx.db, planoId);
  const revisao = await lerRevisao(ctx.db, row);
  return {
    orientation: 'landscape',
    subtitle: `Plano de Contratações Anual de ${row.anoPca} (Lei 14.133/2021, art. 12, VII)`,
    fields: [
      { label: 'Ano do plano', value: String(row.anoPca) },
      { label: 'Unidade no PNCP', value: String(row.codigoUnidade) },
      { label: 'Versão', value: String(row.versao) },
      { label: 'Data', value: formatDate(String(row.data)) },
      { label: 'Elaborado por', value: String(row.solicitanteNome) },
    ],
    items: {
      ...pdfTable(itens, [
        { header: 'Item', align: 'right', cell: (i) => String(i.numeroItem) },
        { header: 'Categoria', cell: (i) => CATEGORIA_ITEM_PCA[i.categoriaItemPca] ?? '' },
        { header: 'Classe/Grupo', cell: (i) => [i.classificacaoSuperiorCodigo, i.classificacaoSuperiorNome].filter(Boolean).join(' – ') },
        { header: 'Código', cell: (i) => i.codigoItem ?? '' },
        // refused by the autoridade: out of the total and of the PNCP, on the record
        { header: 'Descrição', width: '*', cell: (i) => (i.recusaMotivo ? `${i.descricao} (recusado por ${i.recusadoPor}: ${i.recusaMotivo})` : i.descricao) },
        { header: 'Unid.', cell: (i) => i.unidadeFornecimento ?? '' },
        { header: 'Quantidade', align: 'right', cell: (i) => formatDecimal(i.quantidade) },
        { header: 'Valor unitário', align: 'right', cell: (i) => dinheiro(i.valorUnitario) },
        { header: 'Valor total', align: 'right', cell: (i) => dinheiro(i.valorTotal) },
        { header: 'Data desejada', cell: (i) => (i.dataDesejada ? formatDate(i.dataDesejada) : '') },
        { header: 'Unidades requisitantes', cell: (i) => i.unidadeRequisitante ?? '' },
      ]),
      total: { label: 'Valor total do plano', value: dinheiro(String(row.valorTotal)) },
    },
    blocks: [
      // a revised plan: why, and what changed since the approved version
      ...(revisao
        ? [
            {
              group: [
                { heading: `Revisão: versão ${revisao.versao} (alterações desde a versão ${revisao.versao - 1})`, level: 2 as const },
                {
                  table: {
                    columns: [
                      { header: 'Alteração' },
                      { header: 'Item', width: '*' as const },
                      { header: 'Antes', align: 'right' as const },
                      { header: 'Agora', align: 'right' as const },
                    ],
                    rows: [
                      ...revisao.incluidos.map((i) => ['Incluído', `${i.numeroItem} – ${i.descricao}`, '—', quantoValor(i)]),
                      ...revisao.excluidos.map((i) => ['Excluído', i.descricao, quantoValor(i), '—']),
                      ...revisao.redimensionados.map((i) => [
                        'Redimensionado',
                        `${i.numeroItem} – ${i.descricao}`,
                        quantoValor({ quantidade: i.quantidadeAntes, valorTotal: i.valorAntes }),
                        quantoValor(i),
                      ]),
                    ],
                    empty: 'Nenhum item mudou.',
                  },
                },
                {
                  text: `Justificativa da revisão: ${revisao.justificativa ?? 'dentro de um período de revisão (não exigida).'}${revisao.dataLoa ? ` LOA publicada em ${formatDate(revisao.dataLoa)}.` : ''}`,
                },
              ],
            },
          ]
        : []),
      secao('Totais por categoria', totais('Categoria', porCategoria)),
      secao('Totais por unidade requisitante (linhas dos DFDs consolidadas)', totais('Unidade requisitante', porUnidade)),
      secao(
        'Grupos acima do limite de dispensa: exigem licitação',
        pdfTable(
          acima,
          [
            { header: 'Classe/Grupo', cell: (g) => `${g.grupoCodigo} – ${g.grupoNome}` },
            { header: 'Categoria', cell: (g) => g.categoriaRotulo },
            { header: 'Itens', align: 'right', cell: (g) => String(g.itens) },
            { header: 'Total planejado', align: 'right', cell: (g) => dinheiro(g.total) },
            { header: 'Limite de dispensa', align: 'right', cell: (g) => `${formatMoney(g.limite)} (${g.anoLimite})` },
          ],
          { empty: 'Nenhum grupo passa do limite de dispensa do ano.' },
        ),
      ),
      secao(
        'Itens incluídos sem DFD e suas justificativas',
        pdfTable(
          manuais,
          [
            { header: 'Produto ou serviço', cell: (m) => `${m.produtoCodigo} – ${m.produtoDescricao}` },
            { header: 'Quantidade', align: 'right', cell: (m) => formatDecimal(m.quantidade) },
            { header: 'Valor unitário', align: 'right', cell: (m) => dinheiro(m.valorUnitario) },
            { header: 'Justificativa', width: '*', cell: (m) => m.justificativa },
          ],
          { empty: 'Todos os itens vêm das demandas (DFD) das áreas.' },
        ),
      ),
      secao(
        'Contratações planejadas',
        pdfTable(
          contratacoes,
          [
            { header: 'Nº', align: 'right', cell: (c) => String(c.numero) },
            { header: 'Título', cell: (c) => c.titulo },
            { header: 'Categoria', cell: (c) => CATEGORIA_ITEM_PCA[c.categoriaItemPca] ?? '' },
            { header: 'Prioridade', cell: (c) => PRIORIDADE_LABEL[c.prioridade] },
            { header: 'Início', cell: (c) => formatDate(c.inicio) },
            { header: 'Conclusão', cell: (c) => formatDate(c.fim) },
            { header: 'Itens', cell: (c) => c.numerosItem.join(', ') },
            { header: 'Valor', align: 'right', cell: (c) => dinheiro(c.valorTotal) },
          ],
          { empty: 'Nenhuma contratação planejada.' },
        ),
      ),
      secao(
        'Calendário de contratações por mês',
        pdfTable(
          calendarioPorMes(contratacoes),
          [
            { header: 'Mês', cell: (m) => mesPorExtenso(m.mes) },
            { header: 'Em andamento', cell: (m) => m.emAndamento.join(', ') },
            { header: 'Concluídas', cell: (m) => m.concluidas.join(', ') || '—' },
            { header: 'Valor concluído', align: 'right', cell: (m) => (m.concluidas.length ? dinheiro(m.valorConcluido) : '—') },
          ],
          { empty: 'Sem contratações planejadas, não há calendário.' },
        ),
      ),
    ],
    signatures: [
      { name: String(row.solicitanteNome), role: 'Setor de contratações' },
      { name: '', role: 'Autoridade competente' },
    ],
  };
}
