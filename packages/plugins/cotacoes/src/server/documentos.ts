// The documents of a cotação (tag 73, under /api/cotacoes). Its files, declared on the document (the
// kit makes the routes, file names, entidade, headers, workers, per-person limits and verification
// codes: server-core kit/documents/files.ts): the memória de cálculo (GET /cotacoes/:id/memoria.pdf
// and .xlsx) and the blank quote form of each invited supplier (GET
// /cotacoes/:id/fornecedores/:conviteId/formulario.pdf and .xlsx); what they print comes from
// carregarCotacao (documentos-memoria.ts, documentos-formulario.ts). And the import of that supplier's
// filled XLSX (documentos-importar.ts).
import { type DocumentChildren, type DocumentFiles, type PluginRouter, documentFile, readUploadedFile } from '@app/server-core';
import { z } from 'zod';
import { COTACOES_TAG, conviteSchema } from '../shared/index.js';
import { carregarCotacao } from './carregar.js';
import { formularioPdf, formularioPlanilha } from './documentos-formulario.js';
import { IMPORTACAO_MAX_BYTES, importarResposta } from './documentos-importar.js';
import { memoriaPdf, memoriaPlanilhas } from './documentos-memoria.js';
import { conviteFilho } from './comum.js';

const conviteParams = z.object({ id: z.string(), conviteId: z.string() });

/** The cotação's files (defineDocumentResource `files`); the verification kinds 'cotacoes/memoria' and 'cotacoes/formulario'. */
export const arquivosDaCotacao: DocumentFiles = {
  memoria: documentFile({
    title: 'Memória de cálculo da cotação',
    fileName: 'memoria-de-calculo-cotacao',
    description: {
      pdf: 'Para o processo e o Tribunal de Contas (A4 paisagem): método e regra, todos os preços com fonte, data, link, evidência (SHA-256) e situação (usado, excluído e por quê), estatísticas, preço estimado, vencedores, fornecedores consultados e os que não responderam, justificativa e aprovação, total estimado.',
      xlsx: 'As planilhas Resumo, Preços, Fornecedores e, na média saneada, Rodadas.',
    },
    load: (f) => carregarCotacao(f.ctx.db, f.ctx, String(f.row.id)),
    formats: {
      pdf: (mapa, f) => memoriaPdf(mapa, f.entidade, f.emissao),
      xlsx: (mapa, f) => memoriaPlanilhas(mapa, f.entidade, f.emissao),
    },
  }),
  formulario: documentFile({
    title: 'Formulário de cotação em branco do fornecedor',
    fileName: 'formulario-cotacao',
    description: {
      pdf: 'Para imprimir, preencher, assinar e devolver: itens, unidades e quantidades com colunas em branco para preço unitário e marca, validade e data.',
      xlsx: 'A planilha que o fornecedor preenche e devolve (importada em POST …/importar): só as células em amarelo são editáveis (validade, data, preço unitário, marca); uma coluna oculta identifica cada item, e a primeira linha, a cotação e o fornecedor.',
    },
    load: async (f) => {
      const mapa = await carregarCotacao(f.ctx.db, f.ctx, String(f.row.id));
      const convite = mapa.convites.find((c) => c.id === f.childId);
      return convite ? { mapa, convite } : null;
    },
    child: { ...conviteFilho, name: ({ convite }) => convite.fornecedorNome },
    formats: {
      pdf: ({ mapa, convite }, f) => formularioPdf(mapa, convite, f.entidade, f.emissao.em),
      xlsx: ({ mapa, convite }, f) => formularioPlanilha(mapa, convite, f.entidade),
    },
  }),
};

/** POST /cotacoes/:id/fornecedores/:conviteId/importar. */
export function registrarDocumentos(router: PluginRouter, convites: DocumentChildren): void {
  const tag = COTACOES_TAG;

  router.route({
    method: 'post',
    path: '/cotacoes/:id/fornecedores/:conviteId/importar',
    tag,
    summary: 'Importar a resposta do fornecedor (formulário XLSX preenchido)',
    description:
      'multipart/form-data, campo `arquivo`: o formulário deste fornecedor nesta cotação, preenchido. Cada linha é validada (item da cotação, preço positivo com até 4 casas, marca até 200 caracteres) e a data e a validade da proposta também; ' +
      'com qualquer problema, 400 com `fields.arquivo` (resumo) e `fields["linha.N.Coluna"]` (ou `fields["linha.N"]`, a linha toda) para cada problema, e nada é gravado. ' +
      'Sem problemas, a resposta substitui a anterior do fornecedor (como a resposta digitada). Só com a cotação em coleta (409 fora dela).',
    request: { params: conviteParams },
    bodyLimit: { maxBytes: IMPORTACAO_MAX_BYTES, message: 'O arquivo passa de 5 MB: envie o formulário de cotação preenchido (.xlsx).' },
    responses: {
      200: conviteSchema,
      400: { description: 'Arquivo que não é o formulário desta cotação e deste fornecedor, ou linhas com problemas (todas listadas)' },
      404: { description: 'Cotação ou convite não encontrado' },
      409: { description: 'Cotação fora de coleta' },
    },
    handler: async (c, ctx) => {
      const { id, conviteId } = c.req.valid('param');
      return c.json(await importarResposta(ctx, convites, id, conviteId, () => readUploadedFile(c)), 200);
    },
  });
}
