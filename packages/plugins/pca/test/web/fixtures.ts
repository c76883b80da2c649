// What the web tests of @app/pca share: the plan the setor edits (em elaboração, 2027, without items
// unless given), the routes its page reads, and the setor's session.
import { type ApiHandler, makeTestSession, pageOf } from '@app/core/testing';

export const T = { timeout: 8000 };
export const ID = '00000000-0000-4000-8000-000000000001';
export const CENTRO = '00000000-0000-4000-8000-0000000000c1';

/** The plan of ID as GET /api/pca/planos/:id answers it; `over` replaces fields. */
export const planoDoSetor = (over: Record<string, unknown> = {}) => ({
  id: ID,
  numero: 1,
  ano: 2026,
  data: '2026-04-20',
  status: 'em_elaboracao',
  version: 2,
  anoPca: 2027,
  codigoUnidade: '926001',
  centroCustoId: CENTRO,
  centroCustoNome: 'Compras e Licitações',
  solicitanteNome: 'Sérgio Setor',
  observacao: null,
  valorTotal: '0.0000',
  memorandos: [] as Record<string, unknown>[],
  itens: [] as Record<string, unknown>[],
  totais: { porCategoria: [] as unknown[], porUnidade: [] as unknown[] },
  transicoes: ['enviar', 'cancelar'],
  editavel: true,
  ...over,
});

/** What the plan page of `row` reads (no DFDs to consolidate unless `more` says), plus `more`. */
export const apiDoPlano = (row: { id: string }, more: Record<string, ApiHandler> = {}) => ({
  'GET /api/pca/planos': () => Response.json(pageOf([row])),
  [`GET /api/pca/planos/${row.id}`]: () => Response.json(row),
  [`GET /api/pca/planos/${row.id}/historico`]: () => Response.json({ items: [], truncated: false }),
  [`GET /api/pca/planos/${row.id}/demandas`]: () => Response.json({ items: [] }),
  'GET /api/pca/centros-custo': () => Response.json(pageOf([{ id: CENTRO, codigo: '01', nome: 'Compras e Licitações' }])),
  ...more,
});

/** A person of the setor de contratações (tag 101) in the Compras centro. */
export const sessaoDoSetor = () => makeTestSession({ tags: [101], centrosCusto: [CENTRO] });
