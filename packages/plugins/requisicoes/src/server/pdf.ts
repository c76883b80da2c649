// The requisição's PDF: what an auditor needs on paper besides the items: where it came from
// (pré-requisições and their memorandos), each approval level of the current round (alçada, who, when,
// and whether by substitution), the approved and researched values, every step of its processing with
// the reasons of returns and rejections (read from the record's audit trail), the dispensa alert, and
// the signatures of who really acted, each with their role.
import { formatDate, formatDateTime } from '@app/br';
import { formatMoney, formatNumero } from '@app/documents';
import { type DocumentPdfContent, type PdfBlock, type RequestContext, catalogueItemsPdf, documentSteps, documentStepsPdf, pdfTable } from '@app/server-core';
import { sql } from '@app/server-core/orm';
import { CATEGORIA_LABEL, type Categoria, fluxoRequisicao } from '../shared/index.js';
import { aprovacao } from './aprovacao.js';
import { alertasDaRequisicao } from './dispensa.js';

type Row = Record<string, unknown>;
type Etapa = { nivel: number; nome: string; aprovadoPor: string | null; aprovadoEm: string | null; substituicao: string | null };

/** How an approval was given when not by the level's own approvers (requisicao_aprovacoes.substituicao). */
const SUBSTITUICAO: Record<string, string> = {
  nivel_superior: 'Por substituição (aprovador do nível superior)',
  substituto: 'Por substituição (substituto designado)',
};

/** What each step of the timeline is called in the PDF. */
const ACAO: Record<string, string> = {
  criar: 'Elaboração',
  enviar: 'Envio para aprovação',
  aprovar: 'Aprovação',
  reprovar: 'Reprovação',
  devolver: 'Devolução',
  cancelar: 'Cancelamento',
  pesquisa_de_precos: 'Pesquisa de preços',
};

export async function requisicaoPdf(row: Row, ctx: RequestContext): Promise<DocumentPdfContent> {
  const id = String(row.id);
  const ciclo = Number(row.ciclo);
  const status = String(row.status);
  // the levels of this round (the kit's approval steps): those the value requires, except while it is back
  // with its authors (rascunho, devolvida), and those given
  const etapas = ((await aprovacao.steps(ctx.db, ctx.entidadeId, row)).etapas as Etapa[]).filter(
    (e) => e.aprovadoPor !== null || (status !== 'rascunho' && status !== 'devolvida'),
  );
  const aprovadas = etapas.filter((e) => e.aprovadoPor !== null);
  const { rows: fontes } = await ctx.db.execute<{ pre_numero: number; pre_ano: number; memorando_numero: number | null; memorando_ano: number | null }>(sql`
    SELECT DISTINCT p.numero AS pre_numero, p.ano AS pre_ano, m.numero AS memorando_numero, m.ano AS memorando_ano
      FROM requisicao_itens ri
      JOIN pre_requisicao_itens pi ON pi.id = ri.pre_requisicao_item_id
      JOIN pre_requisicoes p ON p.id = pi.pre_requisicao_id
      LEFT JOIN memorandos m ON m.id = p.memorando_id
     WHERE ri.requisicao_id = ${id}::uuid
     ORDER BY p.ano, p.numero`);
  const isStep = (acao: string) => fluxoRequisicao.isTransition(acao) || acao === 'pesquisa_de_precos';
  const passos = await documentSteps(ctx.db, { entidadeId: ctx.entidadeId, plugin: 'requisicoes', registro: id, isStep });
  const alertas = await alertasDaRequisicao(ctx.db, ctx, id);

  const pre = [...new Set(fontes.map((f) => formatNumero(Number(f.pre_numero), Number(f.pre_ano))))];
  const memorandos = [
    ...new Set(fontes.filter((f) => f.memorando_numero !== null).map((f) => formatNumero(Number(f.memorando_numero), Number(f.memorando_ano)))),
  ];
  const valor = (key: string) => (row[key] === null || row[key] === undefined || row[key] === '' ? null : formatMoney(row[key] as string));
  const valorAprovado = valor('valorAprovado');
  const valorPesquisado = valor('valorPesquisado');

  const blocks: PdfBlock[] = [];

  // the approval of the current round: the levels the value requires (alçadas) and those given
  blocks.push({ heading: 'Aprovação' });
  if (ciclo === 0) {
    blocks.push({ text: 'Ainda não enviada para aprovação.', muted: true });
  } else {
    const pendente = status === 'em_aprovacao' ? 'Aguardando' : status === 'aprovada' ? '' : 'Não aprovado';
    blocks.push({
      table: pdfTable(
        etapas,
        [
          { header: 'Nível', align: 'right', cell: (e) => String(e.nivel) },
          { header: 'Alçada', width: '*', cell: (e) => e.nome },
          { header: 'Aprovado por', width: '*', cell: (e) => e.aprovadoPor ?? pendente },
          { header: 'Em', width: 'auto', cell: (e) => (e.aprovadoEm ? formatDateTime(e.aprovadoEm) : '') },
          { header: 'Observação', width: '*', cell: (e) => (e.substituicao ? (SUBSTITUICAO[e.substituicao] ?? e.substituicao) : '') },
        ],
        { empty: 'Nenhum nível de aprovação.' },
      ),
    });
    if (ciclo > 1) blocks.push({ text: `Rodada de aprovação nº ${ciclo} (as anteriores constam da tramitação).`, muted: true });
  }

  // the processing, each approval with the level it gave
  blocks.push(
    ...documentStepsPdf(passos, {
      labels: ACAO,
      reasonHeader: 'Motivo / observação',
      step: (h) => {
        const nivel = h.acao === 'aprovar' ? h.mudancas.find((m) => m.campo === 'nivelAtual')?.antes : undefined;
        return (ACAO[h.acao] ?? h.acao) + (nivel !== undefined && nivel !== null ? ` – nível ${String(nivel)}` : '');
      },
    }),
  );

  if (alertas.length) {
    blocks.push({ heading: 'Alerta de limite de dispensa (possível fracionamento)' });
    for (const a of alertas) {
      const outras = a.requisicoes.map((r) => formatNumero(r.numero, r.ano)).join(', ') + (a.mais > 0 ? ` e mais ${a.mais}` : '');
      const grupo = `Grupo ${a.grupoCodigo} – ${a.grupoNome}: ${formatMoney(a.total)} em ${a.ano} na categoria ${CATEGORIA_LABEL[a.categoria as Categoria]}, `;
      const limite = `limite de dispensa de ${formatMoney(a.limite)} (${a.artigo}; limite de ${a.anoLimite})`;
      blocks.push({
        text:
          grupo +
          (a.excedido ? `acima do ${limite}.` : `dentro do ${limite}.`) +
          (outras ? ` Requisições somadas: ${outras}.` : '') +
          // a draft's amount is not in the total yet
          (a.estaConta ? '' : ` Esta requisição (${formatMoney(a.valorDesta)}) ainda não está somada: entra na soma quando enviada.`),
        bold: true,
      });
      if (a.planejado) {
        const planos = a.planejado.planos.map((p) => `${p.rotulo} (${p.situacao.toLowerCase()}): ${formatMoney(p.valor)}`).join('; ');
        blocks.push({
          text:
            `Planejado para o grupo em ${a.ano}: ${formatMoney(a.planejado.total)} (${planos})` +
            (a.planejado.passa ? ', acima do limite: o plano prevê licitação para este grupo.' : '.'),
          bold: a.planejado.passa,
        });
      }
    }
  }

  return {
    fields: [
      { label: 'Data', value: formatDate(String(row.data ?? '')) },
      { label: 'Centro de custo', value: `${String(row.centroCustoCodigo ?? '')} – ${String(row.centroCustoNome ?? '')}` },
      { label: 'Tipo de solicitação', value: String(row.tipoSolicitacaoNome ?? '') },
      { label: 'Categoria', value: CATEGORIA_LABEL[row.categoria as Categoria] },
      { label: 'Dotação orçamentária', value: String(row.dotacao ?? '') || 'Não informada' },
      { label: 'Solicitante', value: String(row.solicitanteNome) },
      { label: 'Pré-requisições de origem', value: pre.length ? pre.join(', ') : 'Nenhuma (itens informados diretamente)' },
      { label: 'Memorandos (DFD) de origem', value: memorandos.length ? memorandos.join(', ') : 'Nenhum' },
      ...(valorAprovado ? [{ label: 'Valor aprovado', value: valorAprovado }] : []),
      ...(valorPesquisado ? [{ label: 'Valor pesquisado (cotação)', value: valorPesquisado }] : []),
    ],
    items: catalogueItemsPdf(row.itens as Row[], row.valorTotal),
    blocks,
    sections: [{ title: 'Justificativa', text: String(row.justificativa) }],
    signatures: [
      { name: String(row.solicitanteNome), role: 'Solicitante' },
      { name: String(row.centroCustoResponsavel ?? ''), role: `Responsável pelo centro de custo – ${String(row.centroCustoNome ?? '')}` },
      ...aprovadas.map((e) => ({ name: String(e.aprovadoPor), role: `Aprovação – nível ${e.nivel} (${e.nome})` })),
    ],
  };
}
