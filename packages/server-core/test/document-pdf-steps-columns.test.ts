// The kit's document columns (header and lines, with the items declaration they fit) and the
// 'Tramitação' of a document's PDF.
import { getTableColumns } from 'drizzle-orm';
import { pgTable, uuid } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { documentHeaderColumns, documentLineColumns, documentLineItems } from '../src/kit/documents/columns.js';
import { documentStepsPdf } from '../src/kit/documents/pdf-steps.js';
import type { HistoryEntry } from '../src/platform/audit-history.js';

describe('document columns', () => {
  const docs = pgTable('docs', { ...documentHeaderColumns<'rascunho' | 'enviado'>('rascunho'), assunto: uuid('assunto') });
  const linhas = pgTable('doc_itens', { ...documentLineColumns(), docId: uuid('doc_id').notNull() });

  it('the header and the lines carry the kit columns, named as the migrations name them', () => {
    const header = getTableColumns(docs);
    expect(Object.fromEntries(Object.entries(header).map(([k, c]) => [k, c.name]))).toMatchObject({
      id: 'id',
      entidadeId: 'entidade_id',
      numero: 'numero',
      ano: 'ano',
      data: 'data',
      status: 'status',
      valorTotal: 'valor_total',
      version: 'version',
      createdAt: 'created_at',
      updatedAt: 'updated_at',
      busca: 'busca',
      assunto: 'assunto',
    });
    expect(header.status.default).toBe('rascunho');
    expect(header.valorTotal.getSQLType()).toBe('numeric(17, 2)');
    const lines = getTableColumns(linhas);
    expect(Object.keys(lines).sort()).toEqual(['docId', 'entidadeId', 'id', 'ordem', 'produtoId', 'quantidade', 'valorTotal', 'valorUnitario']);
    expect(lines.quantidade.getSQLType()).toBe('numeric(15, 4)');
  });

  it('documentLineItems: the items declaration of such lines', () => {
    expect(documentLineItems(linhas, linhas.docId, docs.valorTotal)).toEqual({
      table: linhas,
      documentColumn: linhas.docId,
      orderColumn: linhas.ordem,
      productColumn: linhas.produtoId,
      quantityColumn: linhas.quantidade,
      unitValueColumn: linhas.valorUnitario,
      totalColumn: linhas.valorTotal,
      documentTotalColumn: docs.valorTotal,
    });
  });
});

describe("the PDF's Tramitação", () => {
  const passo = (acao: string, motivo: string | null, nome: string | null): HistoryEntry => ({
    id: 1,
    at: '2026-03-03T13:00:00.000Z',
    usuario: nome ? { id: 'u', nome } : null,
    acao,
    motivo,
    duplicadoDe: null,
    mudancas: [],
  });

  it('nothing without steps; else when (São Paulo), the step by its label, who (or Sistema) and the reason', () => {
    expect(documentStepsPdf([], { labels: {} })).toEqual([]);
    const [heading, block] = documentStepsPdf([passo('enviar', null, 'Rita'), passo('devolver', 'Falta o orçamento.', null), passo('outra', null, 'Rita')], {
      labels: { enviar: 'Envio', devolver: 'Devolução' },
    });
    expect(heading).toEqual({ heading: 'Tramitação' });
    const table = (block as { table: { columns: { header: string }[]; rows: string[][] } }).table;
    expect(table.columns.map((c) => c.header)).toEqual(['Data e hora', 'Etapa', 'Por', 'Motivo']);
    expect(table.rows).toEqual([
      ['03/03/2026 10:00', 'Envio', 'Rita', ''],
      ['03/03/2026 10:00', 'Devolução', 'Sistema', 'Falta o orçamento.'],
      ['03/03/2026 10:00', 'outra', 'Rita', ''],
    ]);
    const [, custom] = documentStepsPdf([passo('enviar', null, 'Rita')], { labels: {}, step: (h) => `${h.acao}!`, reasonHeader: 'Motivo / observação' });
    expect((custom as { table: { columns: { header: string }[]; rows: string[][] } }).table.rows[0]![1]).toBe('enviar!');
    expect((custom as { table: { columns: { header: string }[] } }).table.columns[3]!.header).toBe('Motivo / observação');
  });
});
