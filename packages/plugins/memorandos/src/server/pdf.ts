// The memorando's PDF: the Documento de Formalização da Demanda (DFD) of Lei 14.133/2021, art. 12, VII
// (Decreto 10.947/2022, art. 8º): the demand, its items and justification, who accepted it and when,
// the returns with their reasons (read from the record's audit trail), and the signatures.
import { formatDateTime } from '@app/br';
import { type DocumentPdfContent, type RequestContext, catalogueItemsPdf, recordHistory } from '@app/server-core';
import { PRIORIDADE_LABEL, type Prioridade, fluxo } from '../shared/index.js';

type Row = Record<string, unknown>;

export const DFD_TITULO = 'Documento de Formalização da Demanda (DFD)';
const BASE_LEGAL = 'Lei nº 14.133/2021, art. 12, VII; Decreto nº 10.947/2022.';

const dataBr = (iso: unknown) => (typeof iso === 'string' && iso ? iso.slice(0, 10).split('-').reverse().join('/') : '');
const centro = (codigo: unknown, nome: unknown) => `${String(codigo ?? '')} – ${String(nome ?? '')}`;

/** What each step of the timeline is called in the PDF. */
const ACAO: Record<string, string> = {
  criar: 'Elaboração',
  alterar: 'Alteração',
  enviar: 'Envio',
  aceitar: 'Aceite',
  devolver: 'Devolução',
  arquivar: 'Arquivamento',
  cancelar: 'Cancelamento',
};

export async function memorandoPdf(row: Row, ctx: RequestContext): Promise<DocumentPdfContent> {
  const history = await recordHistory(ctx.db, { entidadeId: ctx.entidadeId, plugin: 'memorandos', registro: String(row.id), limit: 500 });
  // oldest first; only the steps of the flow (not every edit of a draft)
  const passos = [...history.items].reverse().filter((h) => fluxo.isTransition(h.acao));
  const aceite = passos.filter((h) => h.acao === 'aceitar').at(-1);
  const status = String(row.status);
  const aceito = aceite && (status === 'aceito' || status === 'arquivado');
  return {
    subtitle: DFD_TITULO,
    fields: [
      { label: 'Data', value: dataBr(row.data) },
      { label: 'Prioridade', value: PRIORIDADE_LABEL[row.prioridade as Prioridade] },
      { label: 'Origem (área requisitante)', value: centro(row.origemCodigo, row.origemNome) },
      { label: 'Destino', value: centro(row.destinoCodigo, row.destinoNome) },
      { label: 'Solicitante', value: String(row.solicitanteNome) },
      { label: 'Data desejada', value: dataBr(row.dataDesejada) || 'Não informada' },
      { label: 'Assunto', value: String(row.assunto) },
      { label: 'Base legal', value: BASE_LEGAL },
      ...(aceito
        ? [
            { label: 'Aceito por', value: aceite.usuario?.nome ?? 'Sistema' },
            { label: 'Aceito em', value: formatDateTime(aceite.at) },
          ]
        : [{ label: 'Aceite', value: 'Ainda não aceito pelo destino.' }]),
    ],
    items: catalogueItemsPdf(row.itens as Row[], row.valorTotal),
    blocks: passos.length
      ? [
          { heading: 'Tramitação' },
          {
            table: {
              columns: [
                { header: 'Data e hora', width: 'auto' },
                { header: 'Etapa', width: 'auto' },
                { header: 'Por', width: '*' },
                { header: 'Motivo', width: '*' },
              ],
              rows: passos.map((h) => [formatDateTime(h.at), ACAO[h.acao] ?? h.acao, h.usuario?.nome ?? 'Sistema', h.motivo ?? '']),
            },
          },
        ]
      : [],
    sections: [{ title: 'Justificativa da necessidade', text: String(row.justificativa) }],
    signatures: [
      { name: String(row.solicitanteNome), role: 'Solicitante' },
      { name: String(row.origemResponsavel ?? ''), role: `Responsável pelo centro de custo de origem – ${String(row.origemNome)}` },
      ...(aceito ? [{ name: aceite.usuario?.nome ?? '', role: `Aceite – ${String(row.destinoNome)}` }] : []),
    ],
  };
}
