import * as RadixToast from '@radix-ui/react-toast';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'jotai';
import { useState } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { getCoreStore } from '../src/store';
import { MAX_VISIBLE_TOASTS, TOAST_DURATIONS, toast, toastsAtom } from '../src/toast/queue';
import Toaster from '../src/toast/Toaster';

beforeAll(() => {
  // jsdom has no PointerEvent (fireEvent.pointerMove would drop clientX) nor pointer capture
  if (typeof window.PointerEvent !== 'function') {
    class PointerEventPolyfill extends MouseEvent {
      readonly pointerId: number;
      readonly pointerType: string;
      constructor(type: string, init: PointerEventInit = {}) {
        super(type, init);
        this.pointerId = init.pointerId ?? 1;
        this.pointerType = init.pointerType ?? 'mouse';
      }
    }
    window.PointerEvent = PointerEventPolyfill as unknown as typeof PointerEvent;
  }
  const proto = Element.prototype as unknown as Record<string, unknown>;
  proto.setPointerCapture ??= () => {};
  proto.releasePointerCapture ??= () => {};
  proto.hasPointerCapture ??= () => false;
});

function renderToaster() {
  return render(
    <Provider store={getCoreStore()}>
      <Toaster />
    </Provider>,
  );
}

const visibleMessages = () => screen.queryAllByTestId('toast').map((el) => el.querySelector('.toast__description')?.textContent);

/** Close by click, the way a user does it: focus inside the toast, then click its close button. */
function closeByClick(message: string) {
  const item = screen.getByText(message, { selector: '.toast__description' }).closest('li')!;
  const button = item.querySelector('button')!;
  act(() => button.focus());
  fireEvent.click(button);
}

/** A right swipe past the threshold (pointer moves over the viewport: radix pauses its timers). */
function swipeAway(message: string) {
  const item = screen.getByText(message, { selector: '.toast__description' }).closest('li')!;
  fireEvent.pointerDown(item, { button: 0, clientX: 0, clientY: 0, pointerId: 1 });
  fireEvent.pointerMove(item, { clientX: 20, clientY: 0, pointerId: 1 });
  fireEvent.pointerMove(item, { clientX: 120, clientY: 0, pointerId: 1 });
  fireEvent.pointerUp(item, { clientX: 120, clientY: 0, pointerId: 1 });
}

describe('toast queue', () => {
  it('toast.success/error/info(message, title?) queue items with per-kind durations', () => {
    const id = toast.success('Salvo.');
    toast.error('Falhou.', 'Erro');
    toast.info('Olá');
    const queue = getCoreStore().get(toastsAtom);
    expect(queue.map((t) => [t.kind, t.message, t.title, t.duration])).toEqual([
      ['success', 'Salvo.', undefined, TOAST_DURATIONS.success],
      ['error', 'Falhou.', 'Erro', TOAST_DURATIONS.error],
      ['info', 'Olá', undefined, TOAST_DURATIONS.info],
    ]);
    expect(toast.success('Salvo.')).toBe(id); // the same message is not stacked twice
    toast.dismiss(id);
    expect(getCoreStore().get(toastsAtom)).toHaveLength(2);
  });

  it(`shows at most ${MAX_VISIBLE_TOASTS}; the rest wait, in order`, () => {
    vi.useFakeTimers();
    renderToaster();
    act(() => {
      for (let i = 1; i <= 5; i++) toast.info(`mensagem ${i}`, undefined, { duration: 1000 * i });
    });
    expect(visibleMessages()).toEqual(['mensagem 1', 'mensagem 2', 'mensagem 3']);
    act(() => vi.advanceTimersByTime(1000));
    expect(visibleMessages()).toEqual(['mensagem 2', 'mensagem 3', 'mensagem 4']);
    expect(screen.getByRole('region', { name: 'Notificações' })).toBeTruthy();
  });

  it('title and message are rendered once (no announcer copy); the close button is labelled', async () => {
    renderToaster();
    act(() => void toast.info('Atualização disponível', 'Nova Versão'));
    // radix's announcer renders on the next animation frame: wait for it
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(screen.getAllByText(/Nova Versão/)).toHaveLength(1);
    expect(screen.getAllByText(/Atualização disponível/)).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Fechar notificação' })).toBeTruthy();
    const viewport = screen.getByRole('region', { name: 'Notificações' }).querySelector('ol');
    expect(viewport?.getAttribute('aria-live')).toBe('polite');
  });

  it('error messages are role=alert', () => {
    renderToaster();
    act(() => void toast.error('Não foi possível salvar.'));
    expect(screen.getByRole('alert').textContent).toBe('Não foi possível salvar.');
  });
});

describe('radix time-out bug workaround', () => {
  it('after a toast is closed by click, the next one still times out', () => {
    vi.useFakeTimers();
    renderToaster();
    act(() => void toast.info('primeiro'));
    closeByClick('primeiro');
    expect(visibleMessages()).toEqual([]);

    act(() => void toast.info('segundo'));
    expect(visibleMessages()).toEqual(['segundo']);
    act(() => vi.advanceTimersByTime(TOAST_DURATIONS.info - 1));
    expect(visibleMessages()).toEqual(['segundo']);
    act(() => vi.advanceTimersByTime(1));
    expect(visibleMessages()).toEqual([]);
  });

  it('after a toast is swiped away (and one dismissed), the next one still times out', () => {
    vi.useFakeTimers();
    renderToaster();
    act(() => void toast.success('arrastado'));
    swipeAway('arrastado');
    expect(visibleMessages()).toEqual([]);

    act(() => void toast.error('dispensado'));
    act(() => toast.dismiss(getCoreStore().get(toastsAtom)[0]!.id));
    expect(visibleMessages()).toEqual([]);

    act(() => void toast.success('seguinte'));
    act(() => vi.advanceTimersByTime(TOAST_DURATIONS.success));
    expect(visibleMessages()).toEqual([]);
  });

  it('pauses while hovered and resumes on leave', () => {
    vi.useFakeTimers();
    renderToaster();
    act(() => void toast.info('pausável', undefined, { duration: 1000 }));
    const item = screen.getByTestId('toast');
    act(() => vi.advanceTimersByTime(400));
    fireEvent.pointerEnter(item);
    act(() => vi.advanceTimersByTime(5000));
    expect(visibleMessages()).toEqual(['pausável']);
    fireEvent.pointerLeave(item);
    act(() => vi.advanceTimersByTime(599));
    expect(visibleMessages()).toEqual(['pausável']);
    act(() => vi.advanceTimersByTime(1));
    expect(visibleMessages()).toEqual([]);
  });

  it('Escape dismisses; a toast with an infinite duration stays until closed', () => {
    vi.useFakeTimers();
    renderToaster();
    act(() => void toast.info('fica', 'Nova Versão', { duration: Number.POSITIVE_INFINITY }));
    act(() => vi.advanceTimersByTime(60 * 60 * 1000));
    expect(visibleMessages()).toEqual(['fica']);
    fireEvent.keyDown(screen.getByTestId('toast'), { key: 'Escape' });
    expect(visibleMessages()).toEqual([]);
  });
});

/** Radix used the plain way (its own timer): documents the bug the workaround exists for. */
function NaiveToaster({ messages }: { messages: string[] }) {
  const [open, setOpen] = useState<Record<string, boolean>>(() => Object.fromEntries(messages.map((m) => [m, true])));
  return (
    <RadixToast.Provider duration={1000}>
      {messages.map((m) => (
        <RadixToast.Root key={m} open={open[m]} onOpenChange={(o) => setOpen((s) => ({ ...s, [m]: o }))}>
          <RadixToast.Description>{m}</RadixToast.Description>
          <RadixToast.Close>fechar {m}</RadixToast.Close>
        </RadixToast.Root>
      ))}
      <RadixToast.Viewport />
    </RadixToast.Provider>
  );
}

describe('radix without the workaround (documents the upstream bug)', () => {
  it('after a close by click, the next toast never times out', () => {
    vi.useFakeTimers();
    const { rerender } = render(<NaiveToaster messages={['a']} />);
    const close = screen.getByText('fechar a');
    act(() => close.focus());
    fireEvent.click(close);
    expect(screen.queryByText('a', { selector: '[role=status] *, li *' })).toBeNull();
    rerender(<NaiveToaster messages={['a', 'b']} />);
    act(() => vi.advanceTimersByTime(10_000));
    // still open: if radix fixes the bug this fails, and the workaround may be revisited
    expect(screen.getByText('fechar b')).toBeTruthy();
  });
});
