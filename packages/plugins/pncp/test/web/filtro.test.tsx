// @vitest-environment jsdom
// /pncp?estado=erro (where the home page's 'Publicações no PNCP com erro' leads): the list asks the server
// for that state only and the filter 'Situação' shows it; choosing 'Todas' drops it from the URL.
import { makeTestSession, renderPlugin } from '@app/core/testing';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PNCP_TAG, type Publicacao } from '../../src/shared/index';
import pncp from '../../src/web/index';

const T = { timeout: 5000 };

const publicacao = (id: string, estado: Publicacao['estado'], documento: string): Publicacao => ({
  id,
  planoId: `plano-${id}`,
  documento,
  operacao: 'publicar',
  estado,
  etapa: null,
  feitos: 0,
  total: 2,
  tentativas: 1,
  proximaTentativa: null,
  ultimoErro: estado === 'erro' ? 'O PNCP recusou: Unidade não cadastrada.' : null,
  erros: [],
  solicitadoPorNome: 'Carla Compradora',
  createdAt: '2026-03-10T17:45:00.000Z',
  concluidoEm: null,
  numeroControle: null,
  link: null,
});

describe('Publicações no PNCP: the filter Situação in the URL', () => {
  it('opens filtered on the errors and shows every publication once the filter is cleared', async () => {
    const todas = [publicacao('1', 'erro', 'PCA 1/2026 — plano de 2027, unidade 1'), publicacao('2', 'concluido', 'PCA 2/2026 — plano de 2027, unidade 2')];
    const { calls } = renderPlugin(pncp, {
      path: '/pncp?estado=erro',
      session: makeTestSession({ tags: [PNCP_TAG] }),
      api: {
        'GET /api/pncp/publicacoes': (c) => Response.json({ items: todas.filter((p) => !c.search.get('estado') || p.estado === c.search.get('estado')) }),
      },
    });
    expect(await screen.findByText('PCA 1/2026 — plano de 2027, unidade 1', {}, T)).toBeTruthy();
    expect(screen.queryByText('PCA 2/2026 — plano de 2027, unidade 2')).toBeNull();
    const filtro = screen.getByLabelText('Situação') as HTMLSelectElement;
    expect(filtro.selectedOptions[0]?.textContent).toBe('Com erro');
    expect(calls.filter((c) => c.path === '/api/pncp/publicacoes').map((c) => c.search.get('estado'))).toEqual(['erro']);

    fireEvent.change(filtro, { target: { value: '' } });
    expect(await screen.findByText('PCA 2/2026 — plano de 2027, unidade 2', {}, T)).toBeTruthy();
    await waitFor(() => expect(window.location.search).toBe(''), T);
    expect(calls.at(-1)?.search.get('estado')).toBeNull();
  });
});
