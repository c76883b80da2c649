import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AsyncCombobox, type AsyncComboboxOption, type AsyncComboboxProps } from '../src/AsyncCombobox';

const produtos: AsyncComboboxOption[] = [
  { value: '1', label: 'Papel A4 75 g', description: 'Resma 500 folhas · PCT' },
  { value: '2', label: 'Papel A3 90 g', description: 'Resma 500 folhas · PCT' },
  { value: '3', label: 'Parafuso sextavado M6', description: 'UN' },
  { value: '4', label: 'Caneta azul', description: 'CX com 50' },
];

/** A server over `produtos`: a case-insensitive substring search. */
const search = (query: string) => produtos.filter((p) => p.label.toLowerCase().includes(query.toLowerCase()));

type Deferred = { query: string; signal: AbortSignal; resolve: (o: AsyncComboboxOption[]) => void; reject: (e: unknown) => void };

/** loadOptions whose answers the test releases by hand. */
function manualLoader() {
  const calls: Deferred[] = [];
  const load = vi.fn(
    (query: string, signal: AbortSignal) =>
      new Promise<AsyncComboboxOption[]>((resolve, reject) => {
        calls.push({ query, signal, resolve, reject });
      }),
  );
  return { calls, load };
}

/** A form holding the value the way a page does (value + its label). */
function Picker({ initial = null, initialLabel, onChange, ...props }: Partial<AsyncComboboxProps> & { initial?: string | null; initialLabel?: string }) {
  const [value, setValue] = useState<string | null>(initial);
  const [labelText, setLabelText] = useState<string | undefined>(initialLabel);
  return (
    <>
      <AsyncCombobox
        label="Produto"
        loadOptions={async (q) => search(q)}
        debounceMs={20}
        {...props}
        value={value}
        selectedLabel={labelText}
        onChange={(...args) => {
          setValue(args[0]);
          setLabelText(args[1]?.label);
          onChange?.(...args);
        }}
      />
      <output data-testid="valor">{value ?? 'nenhum'}</output>
      <button type="button">Depois</button>
    </>
  );
}

const liveText = () => document.querySelector('.combobox [role="status"]')?.textContent;

// Keystrokes without a macrotask in between (delay: null), so a debounce cannot fire mid-word on a
// busy machine: each test's request count is exact.
const setupUser = () => userEvent.setup({ delay: null });

describe('AsyncCombobox', () => {
  it('keyboard only: typing searches once (debounced), arrows move the active option, Enter selects', async () => {
    const user = setupUser();
    const load = vi.fn(async (q: string, _signal: AbortSignal) => search(q));
    const onChange = vi.fn();
    render(
      <StrictMode>
        <Picker loadOptions={load} debounceMs={200} onChange={onChange} />
      </StrictMode>,
    );
    // nothing is fetched before the user asks
    expect(load).not.toHaveBeenCalled();

    await user.tab();
    const input = screen.getByRole('combobox', { name: 'Produto' });
    expect(document.activeElement).toBe(input);
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(input.getAttribute('aria-autocomplete')).toBe('list');

    await user.keyboard('papel');
    expect(input.getAttribute('aria-expanded')).toBe('true');
    await waitFor(() => expect(liveText()).toBe('2 resultados'));
    expect(load).toHaveBeenCalledTimes(1);
    expect(load.mock.calls[0]?.[0]).toBe('papel');
    expect(load.mock.calls[0]?.[1]).toBeInstanceOf(AbortSignal);

    const listbox = screen.getByRole('listbox', { name: 'Produto' });
    expect(input.getAttribute('aria-controls')).toBe(listbox.id);
    const options = within(listbox).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Papel A4 75 gResma 500 folhas · PCT', 'Papel A3 90 gResma 500 folhas · PCT']);
    expect(input.hasAttribute('aria-activedescendant')).toBe(false);

    await user.keyboard('{ArrowDown}');
    expect(input.getAttribute('aria-activedescendant')).toBe(options[0]!.id);
    expect(options[0]!.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowDown}');
    expect(input.getAttribute('aria-activedescendant')).toBe(options[1]!.id);
    expect(options[0]!.getAttribute('aria-selected')).toBe('false');
    await user.keyboard('{ArrowDown}'); // wraps to the first
    expect(input.getAttribute('aria-activedescendant')).toBe(options[0]!.id);
    await user.keyboard('{ArrowUp}'); // and back to the last
    expect(input.getAttribute('aria-activedescendant')).toBe(options[1]!.id);

    await user.keyboard('{Enter}');
    expect(onChange).toHaveBeenCalledWith('2', produtos[1]);
    expect((input as HTMLInputElement).value).toBe('Papel A3 90 g');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(input.hasAttribute('aria-activedescendant')).toBe(false);
    expect(screen.getByTestId('valor').textContent).toBe('2');
    expect(document.activeElement).toBe(input);
  });

  it('ArrowDown on a closed list opens it with the first results (empty query); the current value is marked', async () => {
    const user = setupUser();
    const load = vi.fn(async (q: string, _signal: AbortSignal) => search(q));
    render(<Picker initial="4" initialLabel="Caneta azul" loadOptions={load} />);
    const input = screen.getByRole('combobox', { name: 'Produto' }) as HTMLInputElement;
    // the selected label is shown without a fetch
    expect(input.value).toBe('Caneta azul');
    expect(load).not.toHaveBeenCalled();
    input.focus();
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(liveText()).toBe('4 resultados'));
    expect(load).toHaveBeenCalledWith('', expect.any(AbortSignal));
    const current = screen.getByRole('option', { name: /Caneta azul/ });
    expect(current.hasAttribute('data-current')).toBe(true);
    await user.keyboard('{Alt>}{ArrowUp}{/Alt}');
    expect(input.getAttribute('aria-expanded')).toBe('false');
  });

  it('a slow earlier response does not overwrite a later one (the earlier request is aborted)', async () => {
    const user = setupUser();
    const { calls, load } = manualLoader();
    render(<Picker loadOptions={load} />);
    const input = screen.getByRole('combobox', { name: 'Produto' });
    input.focus();
    await user.keyboard('pa');
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.query).toBe('pa');
    expect(liveText()).toBe('Carregando…');
    expect(screen.getByRole('listbox').getAttribute('aria-busy')).toBe('true');

    await user.keyboard('raf');
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]!.query).toBe('paraf');
    expect(calls[0]!.signal.aborted).toBe(true);
    expect(calls[1]!.signal.aborted).toBe(false);

    await act(async () => calls[1]!.resolve(search('paraf')));
    await waitFor(() => expect(liveText()).toBe('1 resultado'));
    // the stale answer arrives late, from a server that ignored the abort
    await act(async () => calls[0]!.resolve(search('pa')));
    expect(screen.getAllByRole('option').map((o) => o.querySelector('.combobox__option-label')?.textContent)).toEqual(['Parafuso sextavado M6']);
    expect(liveText()).toBe('1 resultado');
  });

  it('empty state: "Nenhum resultado" (or emptyText) is shown and announced', async () => {
    const user = setupUser();
    const { rerender } = render(<Picker />);
    const input = screen.getByRole('combobox', { name: 'Produto' });
    input.focus();
    await user.keyboard('xyz');
    await waitFor(() => expect(liveText()).toBe('Nenhum resultado'));
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    expect(document.querySelector('.combobox__status')?.textContent).toBe('Nenhum resultado');
    // Enter with no active option chooses nothing
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('valor').textContent).toBe('nenhum');

    rerender(<Picker emptyText="Nenhum produto encontrado" />);
    await user.keyboard('w');
    await waitFor(() => expect(liveText()).toBe('Nenhum produto encontrado'));
  });

  it('minChars: shorter text does not search and says why', async () => {
    const user = setupUser();
    const load = vi.fn(async (q: string, _signal: AbortSignal) => search(q));
    render(<Picker loadOptions={load} minChars={3} />);
    screen.getByRole('combobox').focus();
    await user.keyboard('pa');
    expect(liveText()).toBe('Digite ao menos 3 caracteres para pesquisar.');
    await new Promise((r) => setTimeout(r, 60));
    expect(load).not.toHaveBeenCalled();
    await user.keyboard('p');
    await waitFor(() => expect(load).toHaveBeenCalledWith('pap', expect.any(AbortSignal)));
  });

  it('Escape closes; a second Escape puts the selected label back; Tab leaves without changing', async () => {
    const user = setupUser();
    const onChange = vi.fn();
    render(<Picker initial="4" initialLabel="Caneta azul" onChange={onChange} />);
    const input = screen.getByRole('combobox', { name: 'Produto' }) as HTMLInputElement;
    await user.click(input);
    await user.clear(input);
    await user.keyboard('papel');
    await waitFor(() => expect(liveText()).toBe('2 resultados'));
    await user.keyboard('{Escape}');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(input.value).toBe('papel');
    await user.keyboard('{Escape}');
    expect(input.value).toBe('Caneta azul');

    // Tab with an active option: nothing is chosen, the typed text is dropped
    await user.clear(input);
    await user.keyboard('papel');
    await waitFor(() => expect(liveText()).toBe('2 resultados'));
    await user.keyboard('{ArrowDown}');
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Depois' }));
    expect(input.value).toBe('Caneta azul');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByTestId('valor').textContent).toBe('4');
  });

  it('clearing: emptying the text and pressing Enter, or leaving it empty, or the clear button', async () => {
    const user = setupUser();
    const onChange = vi.fn();
    const { unmount } = render(<Picker initial="4" initialLabel="Caneta azul" onChange={onChange} />);
    let input = screen.getByRole('combobox', { name: 'Produto' }) as HTMLInputElement;
    await user.click(input);
    await user.clear(input);
    await user.keyboard('{Escape}{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(null);
    expect(screen.getByTestId('valor').textContent).toBe('nenhum');
    expect(input.value).toBe('');
    unmount();

    onChange.mockClear();
    const second = render(<Picker initial="4" initialLabel="Caneta azul" onChange={onChange} />);
    input = screen.getByRole('combobox', { name: 'Produto' }) as HTMLInputElement;
    await user.click(input);
    await user.clear(input);
    await user.tab();
    expect(onChange).toHaveBeenCalledWith(null);
    expect(screen.getByTestId('valor').textContent).toBe('nenhum');
    second.unmount();

    onChange.mockClear();
    render(<Picker initial="4" initialLabel="Caneta azul" onChange={onChange} />);
    input = screen.getByRole('combobox', { name: 'Produto' }) as HTMLInputElement;
    const clearButton = screen.getByRole('button', { name: 'Limpar Produto' });
    // not a tab stop: Tab goes from the input straight out of the picker
    expect(clearButton.tabIndex).toBe(-1);
    await user.click(clearButton);
    expect(onChange).toHaveBeenCalledWith(null);
    expect(input.value).toBe('');
    expect(document.activeElement).toBe(input);
    expect(screen.queryByRole('button', { name: 'Limpar Produto' })).toBeNull();
  });

  it('the pointer: the toggle opens the list, a click picks an option, focus stays in the input', async () => {
    const user = setupUser();
    const onChange = vi.fn();
    render(<Picker onChange={onChange} name="produtoId" />);
    const input = screen.getByRole('combobox', { name: 'Produto' });
    await user.click(screen.getByRole('button', { name: 'Mostrar opções de Produto' }));
    expect(document.activeElement).toBe(input);
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(4));
    await user.click(screen.getByRole('option', { name: /Parafuso/ }));
    expect(onChange).toHaveBeenCalledWith('3', produtos[2]);
    expect(document.activeElement).toBe(input);
    expect((document.querySelector('input[type="hidden"][name="produtoId"]') as HTMLInputElement).value).toBe('3');
  });

  it('a failed search says so; aria-invalid, aria-describedby, aria-labelledby and disabled pass through', async () => {
    const user = setupUser();
    render(
      <>
        <span id="rotulo">Fornecedor</span>
        <span id="erro">Escolha um fornecedor.</span>
        <AsyncCombobox
          aria-labelledby="rotulo"
          value={null}
          onChange={() => {}}
          invalid
          required
          describedBy="erro"
          debounceMs={0}
          loadOptions={() => Promise.reject(new Error('HTTP 500'))}
        />
      </>,
    );
    const input = screen.getByRole('combobox', { name: 'Fornecedor' });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-required')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe('erro');
    expect(screen.getByRole('listbox', { hidden: true }).getAttribute('aria-labelledby')).toBe('rotulo');
    input.focus();
    await user.keyboard('a');
    await waitFor(() => expect(liveText()).toBe('Não foi possível carregar as opções.'));

    render(<AsyncCombobox label="Unidade" value={null} onChange={() => {}} disabled loadOptions={async () => []} />);
    expect((screen.getByRole('combobox', { name: 'Unidade' }) as HTMLInputElement).disabled).toBe(true);
  });
});
