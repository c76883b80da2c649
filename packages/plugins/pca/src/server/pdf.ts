// The plan's PDF (the kit's main file): entidade, number, status and verification code come from the kit.
import { formatDate } from '@app/br';
import { formatDecimal, formatMoney } from '@app/documents';
import type { DocumentPdfContent, RequestContext } from '@app/server-core';
import { PRIORIDADE_LABEL } from '@app/memorandos/shared';
import { CATEGORIA_ITEM_PCA, calendarioPorMes, mesPorExtenso } from '../shared/index.js';
import { lerContratacoes } from './contratacoes.js';
import { lerManuais } from './manuais.js';
import { lerRevisao } from './revisao.js';
import { lerFracionamento } from './fracionamento.js';
import { lerItens, lerTotais, type TotalDoPlano } from './leitura.js';

export async function planoPdf(row: Record<string, unknown>, ctx: RequestContext): Promise<DocumentPdfContent> {
  const itens = await lerItens(ctx.db, String(row.id));
  const totais = await lerTotais(ctx.db, String(row.id), CATEGORIA_ITEM_PCA);
  const acima = (await lerFracionamento(ctx.db, { id: String(row.id), entidadeId: ctx.entidadeId, anoPca: Number(row.anoPca) })).filter(
    (g) => g.exigeLicitacao,
  );
  const contratacoes = await lerContratacoes(ctx.db, String(row.id));
  const manuais = await lerManuais(ctx.db, String(row.id));
  const revisao = await lerRevisao(ctx.db, row);
  const tabela = (primeira: string, linhas: TotalDoPlano[]) => ({
    table: {
      columns: [{ header: primeira }, { header: 'Itens', align: 'right' as const }, { header: 'Valor', align: 'right' as const }],
      rows: linhas.map((l) => [l.rotulo, String(l.itens), formatMoney(l.valor, 4)]),
      empty: 'Nenhum item.',
    },
  });
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
      columns: [
        { header: 'Item', align: 'right' },
        { header: 'Categoria' },
        { header: 'Classe/Grupo' },
        { header: 'Código' },
        { header: 'Descrição', width: '*' },
        { header: 'Unid.' },
        { header: 'Quantidade', align: 'right' },
        { header: 'Valor unitário', align: 'right' },
        { header: 'Valor total', align: 'right' },
        { header: 'Data desejada' },
        { header: 'Unidades requisitantes' },
      ],
      rows: itens.map((i) => [
        String(i.numeroItem),
        CATEGORIA_ITEM_PCA[i.categoriaItemPca] ?? '',
        [i.classificacaoSuperiorCodigo, i.classificacaoSuperiorNome].filter(Boolean).join(' – '),
        i.codigoItem ?? '',
        // refused by the autoridade: out of the total and of the PNCP, on the record
        i.recusaMotivo ? `${i.descricao} (recusado por ${i.recusadoPor}: ${i.recusaMotivo})` : i.descricao,
        i.unidadeFornecimento ?? '',
        formatDecimal(i.quantidade),
        formatMoney(i.valorUnitario, 4),
        formatMoney(i.valorTotal, 4),
        i.dataDesejada ? formatDate(i.dataDesejada) : '',
        i.unidadeRequisitante ?? '',
      ]),
      total: { label: 'Valor total do plano', value: formatMoney(String(row.valorTotal), 4) },
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
                      ...revisao.incluidos.map((i) => [
                        'Incluído',
                        `${i.numeroItem} – ${i.descricao}`,
                        '—',
                        `${formatDecimal(i.quantidade)} – ${formatMoney(i.valorTotal, 4)}`,
                      ]),
                      ...revisao.excluidos.map((i) => ['Excluído', i.descricao, `${formatDecimal(i.quantidade)} – ${formatMoney(i.valorTotal, 4)}`, '—']),
                      ...revisao.redimensionados.map((i) => [
                        'Redimensionado',
                        `${i.numeroItem} – ${i.descricao}`,
                        `${formatDecimal(i.quantidadeAntes)} – ${formatMoney(i.valorAntes, 4)}`,
                        `${formatDecimal(i.quantidade)} – ${formatMoney(i.valorTotal, 4)}`,
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
      { group: [{ heading: 'Totais por categoria', level: 2 }, tabela('Categoria', totais.porCategoria)] },
      { group: [{ heading: 'Totais por unidade requisitante (linhas dos DFDs consolidadas)', level: 2 }, tabela('Unidade requisitante', totais.porUnidade)] },
      {
        group: [
          { heading: 'Grupos acima do limite de dispensa: exigem licitação', level: 2 },
          {
            table: {
              columns: [
                { header: 'Classe/Grupo' },
                { header: 'Categoria' },
                { header: 'Itens', align: 'right' as const },
                { header: 'Total planejado', align: 'right' as const },
                { header: 'Limite de dispensa', align: 'right' as const },
              ],
              rows: acima.map((g) => [
                `${g.grupoCodigo} – ${g.grupoNome}`,
                g.categoriaRotulo,
                String(g.itens),
                formatMoney(g.total, 4),
                `${formatMoney(g.limite)} (${g.anoLimite})`,
              ]),
              empty: 'Nenhum grupo passa do limite de dispensa do ano.',
            },
          },
        ],
      },
      {
        group: [
          { heading: 'Itens incluídos sem DFD e suas justificativas', level: 2 },
          {
            table: {
              columns: [
                { header: 'Produto ou serviço' },
                { header: 'Quantidade', align: 'right' as const },
                { header: 'Valor unitário', align: 'right' as const },
                { header: 'Justificativa', width: '*' },
              ],
              rows: manuais.map((m) => [
                `${m.produtoCodigo} – ${m.produtoDescricao}`,
                formatDecimal(m.quantidade),
                formatMoney(m.valorUnitario, 4),
                m.justificativa,
              ]),
              empty: 'Todos os itens vêm das demandas (DFD) das áreas.',
            },
          },
        ],
      },
      {
        group: [
          { heading: 'Contratações planejadas', level: 2 },
          {
            table: {
              columns: [
                { header: 'Nº', align: 'right' as const },
                { header: 'Título' },
                { header: 'Categoria' },
                { header: 'Prioridade' },
                { header: 'Início' },
                { header: 'Conclusão' },
                { header: 'Itens' },
                { header: 'Valor', align: 'right' as const },
              ],
              rows: contratacoes.map((c) => [
                String(c.numero),
                c.titulo,
                CATEGORIA_ITEM_PCA[c.categoriaItemPca] ?? '',
                PRIORIDADE_LABEL[c.prioridade],
                formatDate(c.inicio),
                formatDate(c.fim),
                c.numerosItem.join(', '),
                formatMoney(c.valorTotal, 4),
              ]),
              empty: 'Nenhuma contratação planejada.',
            },
          },
        ],
      },
      {
        group: [
          { heading: 'Calendário de contratações por mês', level: 2 },
          {
            table: {
              columns: [{ header: 'Mês' }, { header: 'Em andamento' }, { header: 'Concluídas' }, { header: 'Valor concluído', align: 'right' as const }],
              rows: calendarioPorMes(contratacoes).map((m) => [
                mesPorExtenso(m.mes),
                m.emAndamento.join(', '),
                m.concluidas.join(', ') || '—',
                m.concluidas.length ? formatMoney(m.valorConcluido, 4) : '—',
              ]),
              empty: 'Sem contratações planejadas, não há calendário.',
            },
          },
        ],
      },
    ],
    signatures: [
      { name: String(row.solicitanteNome), role: 'Setor de contratações' },
      { name: '', role: 'Autoridade competente' },
    ],
  };
}
