import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { CheckboxField, PasswordField, SelectField, TextareaField, TextField } from '../src/fields';

/** The text an assistive technology reads as the description (aria-describedby, in order). */
function description(el: HTMLElement): string {
  return (el.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? `<missing #${id}>`)
    .join(' | ');
}

describe('TextField', () => {
  it('is labelled by a visible <label> and has no aria-invalid without an error', () => {
    render(<TextField label="Nome" name="nome" />);
    const input = screen.getByLabelText('Nome') as HTMLInputElement;
    expect(input.tagName).toBe('INPUT');
    expect(input.type).toBe('text');
    expect(input.name).toBe('nome');
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(input.hasAttribute('aria-describedby')).toBe(false);
    expect(document.querySelector(`label[for="${input.id}"]`)?.textContent).toBe('Nome');
  });

  it('links hint and error with aria-describedby and sets aria-invalid', () => {
    render(<TextField label="E-mail" type="email" hint="Use o e-mail institucional." error="Informe um e-mail válido." />);
    const input = screen.getByLabelText('E-mail');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(description(input)).toBe('Use o e-mail institucional. | Erro: Informe um e-mail válido.');
  });

  it('keeps a caller aria-describedby and uses the caller id', () => {
    render(
      <>
        <p id="extra">Texto extra</p>
        <TextField label="CPF" id="cpf" aria-describedby="extra" error="CPF inválido." />
      </>,
    );
    const input = screen.getByLabelText('CPF');
    expect(input.id).toBe('cpf');
    expect(description(input)).toBe('Erro: CPF inválido. | Texto extra');
  });

  it('forwards the ref and spreads input props; required shows a hidden asterisk', async () => {
    const ref = createRef<HTMLInputElement>();
    const onChange = vi.fn();
    render(<TextField ref={ref} label="Login" required placeholder="seu.login" onChange={onChange} />);
    const input = screen.getByRole('textbox', { name: 'Login' }) as HTMLInputElement;
    expect(ref.current).toBe(input);
    expect(input.required).toBe(true);
    expect(input.placeholder).toBe('seu.login');
    await userEvent.type(input, 'ana');
    expect(onChange).toHaveBeenCalledTimes(3);
    expect(document.querySelector('.field__required')?.getAttribute('aria-hidden')).toBe('true');
  });
});

describe('PasswordField', () => {
  it('toggles visibility with an accessible "Mostrar senha" / "Ocultar senha" button', async () => {
    const user = userEvent.setup();
    const ref = createRef<HTMLInputElement>();
    render(<PasswordField ref={ref} label="Senha" error="Informe a senha." />);
    const input = screen.getByLabelText('Senha') as HTMLInputElement;
    expect(ref.current).toBe(input);
    expect(input.type).toBe('password');
    expect(input.autocomplete).toBe('current-password');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(description(input)).toBe('Erro: Informe a senha.');

    const show = screen.getByRole('button', { name: 'Mostrar senha' });
    expect(show.getAttribute('aria-controls')).toBe(input.id);
    await user.click(show);
    expect(input.type).toBe('text');
    await user.click(screen.getByRole('button', { name: 'Ocultar senha' }));
    expect(input.type).toBe('password');
  });
});

describe('SelectField, TextareaField, CheckboxField', () => {
  it('SelectField renders the placeholder and options and wires the error', async () => {
    const ref = createRef<HTMLSelectElement>();
    render(
      <SelectField
        ref={ref}
        label="UF"
        placeholder="Selecione…"
        options={[
          { value: 'SP', label: 'São Paulo' },
          { value: 'RJ', label: 'Rio de Janeiro' },
        ]}
        error="Selecione a UF."
        defaultValue=""
      />,
    );
    const select = screen.getByRole('combobox', { name: 'UF' }) as HTMLSelectElement;
    expect(ref.current).toBe(select);
    expect([...select.options].map((o) => o.text)).toEqual(['Selecione…', 'São Paulo', 'Rio de Janeiro']);
    expect(select.getAttribute('aria-invalid')).toBe('true');
    expect(description(select)).toBe('Erro: Selecione a UF.');
    await userEvent.selectOptions(select, 'RJ');
    expect(select.value).toBe('RJ');
  });

  it('TextareaField is labelled, described and forwards the ref', () => {
    const ref = createRef<HTMLTextAreaElement>();
    render(<TextareaField ref={ref} label="Objeto" hint="Até 500 caracteres." maxLength={500} />);
    const textarea = screen.getByRole('textbox', { name: 'Objeto' }) as HTMLTextAreaElement;
    expect(ref.current).toBe(textarea);
    expect(textarea.maxLength).toBe(500);
    expect(textarea.rows).toBe(4);
    expect(description(textarea)).toBe('Até 500 caracteres.');
    expect(textarea.hasAttribute('aria-invalid')).toBe(false);
  });

  it('CheckboxField toggles from its label and wires hint and error', async () => {
    const ref = createRef<HTMLInputElement>();
    render(<CheckboxField ref={ref} label="Ativo" hint="Inativos não aparecem nas buscas." error="Obrigatório." />);
    const checkbox = screen.getByRole('checkbox', { name: 'Ativo' }) as HTMLInputElement;
    expect(ref.current).toBe(checkbox);
    expect(checkbox.getAttribute('aria-invalid')).toBe('true');
    expect(description(checkbox)).toBe('Inativos não aparecem nas buscas. | Erro: Obrigatório.');
    await userEvent.click(screen.getByText('Ativo'));
    expect(checkbox.checked).toBe(true);
  });
});
