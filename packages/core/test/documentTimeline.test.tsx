// documentTimeline: a document's timeline as its pages declare it (the Edit page's, and any other page's).
import { defineFlow } from '@app/documents';
import { describe, expect, it } from 'vitest';
import { documentTimeline } from '../src/resource/documents/timeline';
import type { DocumentConfig } from '../src/resource/documents/types';

const flow = defineFlow<'rascunho' | 'enviado', 'autor'>({
  initial: 'rascunho',
  states: { rascunho: { label: 'Rascunho', editable: true }, enviado: { label: 'Enviado' } },
  transitions: { enviar: { from: ['rascunho'], to: 'enviado', label: 'Enviar', done: 'Enviado', who: ['autor'] } },
});

describe('documentTimeline', () => {
  it('labels from the fields, the items and the plugin; a select’s option labels; formats of totals, items, instants and the plugin’s; the flow', () => {
    const config = {
      endpoint: '/docs/docs',
      title: 'Docs',
      newTitle: 'Novo doc',
      editTitle: 'Editar doc',
      documento: 'Doc',
      flow,
      columns: [],
      fields: [
        { name: 'assunto', type: 'text', label: 'Assunto' },
        { name: 'prazo', type: 'datetime', label: 'Prazo' },
        { name: 'metodo', type: 'select', label: 'Método', options: [{ value: 'media_saneada', label: 'Média saneada' }] },
      ],
      items: {
        headers: { unitValue: 'Valor unitário estimado' },
        product: { endpoint: '/p', label: () => '' },
        fields: [
          { name: 'obs', type: 'text', label: 'Obs.' },
          { name: 'categoria', type: 'select', label: 'Categoria', options: [{ value: 'material', label: 'Material' }] },
        ],
      },
      timelineLabels: { valorAprovado: 'Valor aprovado', 'itens.obs': 'Observação' },
      timelineFormats: { valorAprovado: 'money' },
    } as unknown as DocumentConfig;
    const t = documentTimeline(config);
    expect(t.endpoint).toBe('/docs/docs');
    expect(t.labels).toEqual({
      status: 'Situação',
      assunto: 'Assunto',
      prazo: 'Prazo',
      metodo: 'Método',
      itens: 'Itens',
      'itens.produtoId': 'Produto ou serviço',
      'itens.quantidade': 'Quantidade',
      'itens.valorUnitario': 'Valor unitário estimado',
      'itens.obs': 'Observação',
      'itens.categoria': 'Categoria',
      valorAprovado: 'Valor aprovado',
    });
    expect(t.formats).toEqual({ valorTotal: 'money', prazo: 'datetime', quantidade: 'decimal', valorUnitario: 'money', valorAprovado: 'money' });
    expect(t.actions).toBe(flow.transitions);
    // a select's stored codes read as its options (no 'media_saneada' in the history)
    expect(t.values).toEqual({ metodo: { media_saneada: 'Média saneada' }, 'itens.categoria': { material: 'Material' }, status: flow.states });
  });
});
