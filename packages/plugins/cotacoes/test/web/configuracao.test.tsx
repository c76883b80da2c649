// @vitest-environment jsdom
// The entidade's default method (/cotacao/configuracao, tag 3), against a mocked API.
import { makeTestSession, pageOf, renderPlugin } from '@app/core/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { descreverMetodo } from '../../src/shared/index';
import plugin from '../../src/web/index';

const T = { timeout: 8000 };
const STALE = 'Este registro foi alterado por outra pessoa. Recarregue para ver a versão atual.';

const radio = (name: string) => screen.getByRole('radio', { name }) as HTMLInputElement;

describe('configuração das cotações', () => {
  it('explains each method, saves the choice with the version read, and the new cotação starts with it', async () => {
    let lida = { metodo: 'media_saneada', iterar: false, version: 2 };
    const puts: unknown[] = [];
    const { calls } = renderPlugin(plugin, {
      path: '/cotacao/configuracao',
      session: makeTestSession({ tags: [73, 3] }),
      api: {
        'GET /api/cotacoes/configuracao': () => Response.json(lida),
        'PUT /api/cotacoes/configuracao': (call) => {
          puts.push(call.body);
          lida = { ...(call.body as typeof lida), version: lida.version + 1 };
          return Response.json(lida);
        },
        'GET /api/cotacoes/centros-custo': () => Response.json(pageOf([])),
        'GET /api/cotacoes/cotacoes': () => Response.json(pageOf([])),
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Configuração das cotações' }, T)).toBeTruthy();
    const grupo = screen.getByRole('group', { name: 'Método de cálculo do preço estimado' });
    expect(
      within(grupo)
        .getAllByRole('radio')
        .map((r) => (r as HTMLInputElement).value),
    ).toEqual(['media', 'mediana', 'menor', 'media_saneada', 'intervalo_mediana']);
    expect(radio('Média saneada').checked).toBe(true);
    // each method with its rule (the média saneada's as configured: applied once)
    expect(radio('Média saneada').getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText(descreverMetodo('media_saneada', false))).toBeTruthy();
    expect(screen.getByText(descreverMetodo('intervalo_mediana', false))).toBeTruthy();
    const iterar = screen.getByLabelText('Repetir a regra de exclusão (iterar)') as HTMLInputElement;
    fireEvent.click(iterar);
    expect(screen.getByText(descreverMetodo('media_saneada', true))).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Configuração salva: novas cotações usarão média saneada.', {}, T)).toBeTruthy();
    expect(puts).toEqual([{ metodo: 'media_saneada', iterar: true, version: 2 }]);

    // another method: iterar only means something for the média saneada
    fireEvent.click(radio('Mediana'));
    expect(screen.queryByLabelText('Repetir a regra de exclusão (iterar)')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Configuração salva: novas cotações usarão mediana.', {}, T)).toBeTruthy();
    expect(puts.at(-1)).toEqual({ metodo: 'mediana', iterar: false, version: 3 });

    // the new cotação's form starts with it
    fireEvent.click(screen.getByRole('link', { name: 'Voltar para Cotações' }));
    fireEvent.click(await screen.findByRole('link', { name: 'Nova cotação' }, T));
    await waitFor(() => expect((screen.getByRole('combobox', { name: /Método de cálculo/ }) as HTMLSelectElement).value).toBe('mediana'), T);
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2);
  });

  it('a change made meanwhile by someone else (409 stale) is said, and Recarregar shows the current one', async () => {
    let versao = 2;
    renderPlugin(plugin, {
      path: '/cotacao/configuracao',
      session: makeTestSession({ tags: [73, 3] }),
      api: {
        'GET /api/cotacoes/configuracao': () =>
          Response.json(versao === 2 ? { metodo: 'media_saneada', iterar: false, version: 2 } : { metodo: 'menor', iterar: false, version: 3 }),
        'PUT /api/cotacoes/configuracao': () => {
          versao = 3;
          return Response.json({ error: { code: 'stale', message: STALE } }, { status: 409 });
        },
      },
    });
    await screen.findByRole('heading', { level: 1, name: 'Configuração das cotações' }, T);
    fireEvent.click(radio('Média'));
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Registro alterado por outra pessoa', {}, T)).toBeTruthy();
    expect(screen.getByText(`${STALE} Suas alterações não salvas serão descartadas.`)).toBeTruthy();
    // what was typed stays until the person reloads
    expect(radio('Média').checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Recarregar' }));
    await waitFor(() => expect(radio('Menor preço').checked).toBe(true), T);
    expect(screen.queryByText('Registro alterado por outra pessoa')).toBeNull();
  });

  it('only administrators (tag 3): with tag 73 alone the page answers Erro 403', async () => {
    renderPlugin(plugin, {
      path: '/cotacao/configuracao',
      session: makeTestSession({ tags: [73] }),
      api: { 'GET /api/cotacoes/configuracao': () => Response.json({ metodo: 'media', iterar: false, version: 0 }) },
    });
    expect(await screen.findByRole('heading', { name: 'Erro 403' }, T)).toBeTruthy();
  });
});
