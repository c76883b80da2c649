import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AsyncComboboxField } from '../src/AsyncComboboxField';
import { ButtonRow } from '../src/ButtonRow';
import { DetailsList } from '../src/DetailsList';
import { characterCount, PromptDialog, type PromptOptions } from '../src/PromptDialog';
import { RadioGroupField } from '../src/RadioGroupField';
import { Tabs } from '../src/Tabs';

describe('DetailsList', () => {
  it('renders label/value pairs, wide ones spanning the row, hidden ones left out', () => {
    const { container } = render(
      <DetailsList
        items={[
          { label: 'Objeto', value: 'Papel', wide: true },
          { label: 'Requisição', value: '1/2026', hidden: true },
          { label: 'Situação', value: 'Rascunho' },
        ]}
      />,
    );
    expect([...container.querySelectorAll('dt')].map((d) => d.textContent)).toEqual(['Objeto', 'Situação']);
    expect(container.querySelector('.details-list__wide dd')?.textContent).toBe('Papel');
  });
});

describe('ButtonRow', () => {
  it('shows the actions not hidden by `show`, small and ghost by default, with their props', () => {
    const onClick = vi.fn();
    render(
      <ButtonRow
        actions={[
          { label: 'Remover', 'aria-label': 'Remover o convite', onClick },
          { label: 'Excluir', show: false },
        ]}
      />,
    );
    const button = screen.getByRole('button', { name: 'Remover o convite' });
    expect(button.className).toContain('button--ghost');
    expect(button.className).toContain('button--sm');
    expect(screen.queryByRole('button', { name: 'Excluir' })).toBeNull();
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledOnce();
  });

  it('renders nothing when every action is hidden', () => {
    const { container } = render(<ButtonRow actions={[{ label: 'A', show: false }]} />);
    expect(container.innerHTML).toBe('');
  });
});

function TabsHarness() {
  const [aba, setAba] = useState<'a' | 'b' | 'c'>('a');
  const tabs = [
    { id: 'a', label: 'Primeira' },
    { id: 'b', label: 'Segunda' },
    { id: 'c', label: 'Terceira' },
  ] as const;
  return (
    <Tabs label="Modo" idPrefix="t" tabs={tabs} value={aba} onChange={setAba}>
      painel {aba}
    </Tabs>
  );
}

describe('Tabs', () => {
  it('selects with a click and with the arrows, Home and End (roving tabindex), the panel labelled by its tab', () => {
    render(<TabsHarness />);
    const tab = (name: string) => screen.getByRole('tab', { name });
    expect(screen.getByRole('tablist', { name: 'Modo' })).toBeTruthy();
    expect(tab('Primeira').getAttribute('aria-selected')).toBe('true');
    expect(tab('Segunda').tabIndex).toBe(-1);
    fireEvent.keyDown(tab('Primeira'), { key: 'ArrowRight' });
    expect(tab('Segunda').getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(tab('Segunda'));
    fireEvent.keyDown(tab('Segunda'), { key: 'End' });
    expect(tab('Terceira').getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(tab('Terceira'), { key: 'ArrowRight' });
    expect(tab('Primeira').getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(tab('Primeira'), { key: 'ArrowLeft' });
    expect(tab('Terceira').getAttribute('aria-selected')).toBe('true');
    fireEvent.click(tab('Segunda'));
    const panel = screen.getByRole('tabpanel', { name: 'Segunda' });
    expect(panel.textContent).toBe('painel b');
    expect(tab('Segunda').getAttribute('aria-controls')).toBe(panel.id);
  });
});

describe('RadioGroupField', () => {
  it('a group of radios with hints and an error', () => {
    const onChange = vi.fn();
    render(
      <RadioGroupField
        label="Método"
        name="metodo"
        options={[
          { value: 'media', label: 'Média', hint: 'Média aritmética.' },
          { value: 'mediana', label: 'Mediana' },
        ]}
        value="media"
        error="Escolha um método."
        onChange={onChange}
      />,
    );
    const group = screen.getByRole('group', { name: 'Método' });
    expect(group.getAttribute('aria-describedby')).toBe('metodo-erro');
    expect(screen.getByText('Escolha um método.').id).toBe('metodo-erro');
    const media = within(group).getByRole('radio', { name: 'Média' }) as HTMLInputElement;
    expect(media.checked).toBe(true);
    expect(media.getAttribute('aria-describedby')).toBe('metodo-media-dica');
    fireEvent.click(within(group).getByRole('radio', { name: 'Mediana' }));
    expect(onChange).toHaveBeenCalledWith('mediana');
  });
});

describe('PromptDialog', () => {
  it('counts the characters, refuses a text under the minimum, then sends it trimmed; an answered error keeps it open', async () => {
    expect(characterCount('abc', 0)).toBe('3 caracteres.');
    expect(characterCount(' abc ', 5)).toBe('Ao menos 5 caracteres: faltam 2.');
    expect(characterCount('abcdef', 5)).toBe('6 caracteres (mínimo 5).');
    const submit = vi.fn<(text: string) => Promise<string | null>>().mockResolvedValueOnce('O servidor recusou.').mockResolvedValueOnce(null);
    const onClose = vi.fn();
    const prompt: PromptOptions = { title: 'Excluir?', label: 'Motivo da exclusão', confirmLabel: 'Excluir', min: 5, submit };
    render(<PromptDialog prompt={prompt} onClose={onClose} />);
    const dialog = await screen.findByRole('alertdialog', { name: 'Excluir?' });
    const campo = within(dialog).getByLabelText(/Motivo da exclusão/);
    fireEvent.change(campo, { target: { value: 'abc' } });
    expect(within(dialog).getByText('Ao menos 5 caracteres: faltam 2.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    expect(await within(dialog).findByText('Informe o motivo da exclusão (ao menos 5 caracteres).')).toBeTruthy();
    expect(submit).not.toHaveBeenCalled();
    fireEvent.change(campo, { target: { value: '  abcdef  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    expect(await within(dialog).findByText('O servidor recusou.')).toBeTruthy();
    expect(submit).toHaveBeenLastCalledWith('abcdef');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(submit).toHaveBeenCalledTimes(2);
  });
});

describe('AsyncComboboxField', () => {
  it('labels the picker, marks it required and links its hint and error', () => {
    render(
      <AsyncComboboxField
        id="fornecedor"
        label="Fornecedor"
        required
        hint="Fornecedores ativos."
        error="Escolha um fornecedor."
        value={null}
        loadOptions={async () => []}
        onChange={() => {}}
      />,
    );
    const input = screen.getByRole('combobox', { name: 'Fornecedor' });
    expect(input.id).toBe('fornecedor');
    expect(input.getAttribute('aria-describedby')).toBe('fornecedor-dica fornecedor-erro');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Escolha um fornecedor.').id).toBe('fornecedor-erro');
  });
});
