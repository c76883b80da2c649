// '/verificar': the public page where anyone checks the verification code printed on a document's PDF.
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { App } from '../src/App';
import { definePlugin } from '../src/contract';
import { json, mockApi } from './helpers';

const home = definePlugin({
  id: 'dashboard',
  title: 'Dashboard',
  basePath: '/',
  tag: 0,
  core: '^1.0.0',
  menu: { label: 'Início' },
  routes: [{ path: '/', title: 'Dashboard', load: async () => ({ default: () => <h1>Painel</h1> }) }],
});

function start(path: string) {
  window.history.replaceState(null, '', path);
  return render(<App plugins={[home]} pollers={false} />);
}

async function verify(codigo: string) {
  fireEvent.change(await screen.findByLabelText(/^Código de verificação/), { target: { value: codigo } });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Verificar' }));
  });
}

describe('verification page', () => {
  it('opens without signing in, asks GET /api/verificar/:codigo (typed any way) and shows the document and whether it changed', async () => {
    const answer = vi.fn(async (request: Request) => {
      expect(request.headers.get('authorization')).toBeNull();
      return json({
        codigo: 'ABCD-EFGH-JKLM',
        entidade: 'Prefeitura Municipal de Exemplo',
        documento: 'Requisição',
        numero: '8/2026',
        status: 'Aprovada',
        emitidoEm: '27/11/2026 09:41',
        conteudoHash: 'a'.repeat(64),
        alterado: true,
        situacao: 'O documento foi alterado depois desta emissão: o conteúdo atual é diferente do impresso.',
      });
    });
    mockApi({ 'GET /api/verificar/ABCDEFGHJKLM': answer });
    start('/verificar');
    await waitFor(() => expect(document.title).toBe('Verificar documento · Compras'));
    await verify('abcd efgh-jklm');
    const result = await screen.findByTestId('verify-result');
    expect(answer).toHaveBeenCalledTimes(1);
    expect(result.textContent).toContain('O documento foi alterado depois desta emissão');
    expect(result.textContent).toContain('Requisição nº 8/2026');
    expect(result.textContent).toContain('Aprovada');
    expect(result.textContent).toContain('27/11/2026 09:41');
    expect(screen.queryByLabelText(/^Senha/)).toBeNull();
  });

  it('says so for a code it does not know, and refuses what cannot be a code without asking', async () => {
    const { fetchMock } = mockApi({
      'GET /api/verificar/AAAABBBBCCCC': async () =>
        json({ error: { code: 'not_found', message: 'Código de verificação não encontrado. Confira o código impresso no documento.' } }, 404),
    });
    start('/verificar');
    await verify('123');
    expect(await screen.findByText('Informe os 12 caracteres do código (ex.: ABCD-EFGH-JKLM).')).toBeTruthy();
    const before = fetchMock.mock.calls.filter(([input]) => String(input instanceof Request ? input.url : input).includes('/verificar/')).length;
    expect(before).toBe(0);
    await verify('AAAA-BBBB-CCCC');
    expect(await screen.findByText('Código de verificação não encontrado. Confira o código impresso no documento.')).toBeTruthy();
    expect(screen.queryByTestId('verify-result')).toBeNull();
  });
});
