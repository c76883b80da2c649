// The requisição's PDF: what an auditor needs on paper besides the items: where it came from
// (pré-requisições and their memorandos), each approval level of the current round (alçada, who, when,
// and whether by substitution), the approved and researched values, every step of its processing with
// the reasons of returns and rejections (read from the record's audit trail), the dispensa alert, and
// the signatures of who really acted, each with their role.
import { formatDateTime } from '@app/br';
import { formatMoney, formatNumero } from '@app/documents';
import { type DocumentPdfContent, type PdfBlock, type RequestContext, catalogueItemsPdf, recordHistory } from '@app/server-core';
import { sql } from '@app/server-core/orm';
import { CATEGORIA_LABEL, type Categoria, fluxoRequisicao } from '../shared/index.js';
import { aprovacao } from './aprovacao.js';
import { alertasDaRequisicao } from './dispensa.js';

type Row = Record<string, unknown>;

const dataBr = (iso: unknown) => (typeof iso === 'string' && iso ? iso.slice(0, 10).split('-').reverse().join('/') : '');
const nomeCentro = (codigo: unknown, nome: unknown) => `${String(codigo ?? '')} – ${String(nome ?? '')}`;

/** How an approval was given when not by the level's own approvers (requisicao_aprovacoes.substituicao). */
const SUBSTITUICAO: Record<string, string> = {
  nivel_superior: 'Por substituição (aprovador do nível superior)',
  substituto: 'Por substituição (substituto designado)',
};

/** This requisição's amount in the grupo when the alert's total does not count it yet (a draft), else null. */
const naoSomada = (a: object): string | null => {
  const x = a as { estaConta?: boolean; valorDesta?: string };
  return x.estaConta === false && x.valorDesta ? x.valorDesta : null;
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

interface Aprovacao {
  ciclo: number;
  nivel: number;
  usuario_nome: string;
  created_at: string;
  substituicao?: string | null;
}

type Fonte = {
  pre_numero: number;
  pre_ano: number;
  memorando_numero: number | null;
  memorando_ano: number | null;
};

export async function requisicaoPdf(row: Row, ctx: RequestContext): Promise<DocumentPdfContent> {
  const id = String(row.id);
  const ciclo = Number(row.ciclo);
  // every column of the approval rows (to_jsonb): `substituicao` when the database has it
  const { rows: aprovacoesJson } = await ctx.db.execute<{ a: Aprovacao | string }>(sql`
    SELECT to_jsonb(a) AS a FROM requisicao_aprovacoes a
     WHERE a.requisicao_id = ${id}::uuid AND a.entidade_id = ${ctx.entidadeId}::uuid AND a.ciclo = ${ciclo}
     ORDER BY a.nivel`);
  const aprovacoes = aprovacoesJson.map((r) => (typeof r.a === 'string' ? (JSON.parse(r.a) as Aprovacao) : r.a));
  const { rows: fontes } = await ctx.db.execute<Fonte>(sql`
    SELECT DISTINCT p.numero AS pre_numero, p.ano AS pre_ano, m.numero AS memorando_numero, m.ano AS memorando_ano
      FROM requisicao_itens ri
      JOIN pre_requisicao_itens pi ON pi.id = ri.pre_requisicao_item_id
      JOIN pre_requisicoes p ON p.id = pi.pre_requisicao_id
      LEFT JOIN memorandos m ON m.id = p.memorando_id
     WHERE ri.requisicao_id = ${id}::uuid
     ORDER BY p.ano, p.numero`);
  const history = await recordHistory(ctx.db, { entidadeId: ctx.entidadeId, plugin: 'requisicoes', registro: id, limit: 500 });
  const passos = [...history.items].reverse().filter((h) => fluxoRequisicao.isTransition(h.acao) || h.acao === 'pesquisa_de_precos');
  const alertas = await alertasDaRequisicao(ctx.db, ctx.entidadeId, id);
  const alcadas = await aprovacao.levelsFor(ctx.db, ctx.entidadeId, String(row.centroCustoId));
  const nomeNivel = (nivel: number) => alcadas.find((a) => a.nivel === nivel)?.nome ?? `Nível ${nivel}`;

  const pre = [...new Set(fontes.map((f) => formatNumero(Number(f.pre_numero), Number(f.pre_ano))))];
  const memorandos = [
    ...new Set(fontes.filter((f) => f.memorando_numero !== null).map((f) => formatNumero(Number(f.memorando_numero), Number(f.memorando_ano)))),
  ];
  const valor = (key: string) => (row[key] === null || row[key] === undefined || row[key] === '' ? null : formatMoney(row[key] as string));
  const valorAprovado = valor('valorAprovado');
  const valorPesquisado = valor('valorPesquisado');

  const blocks: PdfBlock[] = [];

  // the approval of the current round: the levels the value requires (alçadas) and those given
  const status = String(row.status);
  blocks.push({ heading: 'Aprovação' });
  if (ciclo === 0) {
    blocks.push({ text: 'Ainda não enviada para aprovação.', muted: true });
  } else {
    const exigidos = status === 'rascunho' || status === 'devolvida' ? [] : aprovacao.requiredLevels(String(row.valorTotal), alcadas);
    const niveis = [...new Set([...exigidos, ...aprovacoes.map((a) => Number(a.nivel))])].sort((a, b) => a - b);
    const pendente = status === 'em_aprovacao' ? 'Aguardando' : status === 'aprovada' ? '' : 'Não aprovado';
    blocks.push({
      table: {
        columns: [
          { header: 'Nível', align: 'right' },
          { header: 'Alçada', width: '*' },
          { header: 'Aprovado por', width: '*' },
          { header: 'Em', width: 'auto' },
          { header: 'Observação', width: '*' },
        ],
        rows: niveis.map((nivel) => {
          const a = aprovacoes.find((x) => Number(x.nivel) === nivel);
          return [
            String(nivel),
            nomeNivel(nivel),
            a ? a.usuario_nome : pendente,
            a ? formatDateTime(a.created_at) : '',
            a?.substituicao ? (SUBSTITUICAO[a.substituicao] ?? a.substituicao) : '',
          ];
        }),
        empty: 'Nenhum nível de aprovação.',
      },
    });
    if (ciclo > 1) blocks.push({ text: `Rodada de aprovação nº ${ciclo} (as anteriores constam da tramitação).`, muted: true });
  }

  if (passos.length) {
    blocks.push({ heading: 'Tramitação' });
    blocks.push({
      table: {
        columns: [
          { header: 'Data e hora', width: 'auto' },
          { header: 'Etapa', width: 'auto' },
          { header: 'Por', width: '*' },
          { header: 'Motivo / observação', width: '*' },
        ],
        rows: passos.map((h) => {
          const nivel = h.acao === 'aprovar' ? h.mudancas.find((m) => m.campo === 'nivelAtual')?.antes : undefined;
          const etapa = (ACAO[h.acao] ?? h.acao) + (nivel !== undefined && nivel !== null ? ` – nível ${String(nivel)}` : '');
          return [formatDateTime(h.at), etapa, h.usuario?.nome ?? 'Sistema', h.motivo ?? ''];
        }),
      },
    });
  }

  if (alertas.length) {
    blocks.push({ heading: 'Alerta de limite de dispensa (possível fracionamento)' });
    for (const a of alertas) {
      const outras = a.requisicoes.map((r) => formatNumero(r.numero, r.ano)).join(', ') + (a.mais > 0 ? ` e mais ${a.mais}` : '');
      blocks.push({
        text:
          `Grupo ${a.grupoCodigo} – ${a.grupoNome}: ${formatMoney(a.total)} em ${a.ano} na categoria ${CATEGORIA_LABEL[a.categoria as Categoria]}, ` +
          `acima do limite de dispensa de ${formatMoney(a.limite)} (${a.artigo}; limite de ${a.anoLimite}). Requisições somadas: ${outras}.` +
          (naoSomada(a) ? ` Esta requisição (${formatMoney(naoSomada(a)!)}) ainda não está somada: entra na soma quando enviada.` : ''),
        bold: true,
      });
    }
  }

  return {
    fields: [
      { label: 'Data', value: dataBr(row.data) },
      { label: 'Centro de custo', value: nomeCentro(row.centroCustoCodigo, row.centroCustoNome) },
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
      ...aprovacoes.map((a) => ({ name: a.usuario_nome, role: `Aprovação – nível ${a.nivel} (${nomeNivel(Number(a.nivel))})` })),
    ],
  };
}
