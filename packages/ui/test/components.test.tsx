import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Alert } from '../src/Alert';
import { Button } from '../src/Button';
import { Card } from '../src/Card';
import { EmptyState } from '../src/EmptyState';
import { Icon, iconNames } from '../src/Icon';
import { PageHeader } from '../src/PageHeader';
import { PageLoading, Spinner } from '../src/Spinner';

describe('Button', () => {
  it('defaults to type=button, forwards the ref and calls onClick', async () => {
    const ref = createRef<HTMLButtonElement>();
    const onClick = vi.fn();
    render(
      <Button ref={ref} onClick={onClick} icon="plus">
        Novo
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Novo' });
    expect(ref.current).toBe(button);
    expect(button.getAttribute('type')).toBe('button');
    expect(button.className).toContain('button--primary');
    await userEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('while loading: aria-busy, stays focusable, ignores clicks and does not submit', async () => {
    const onClick = vi.fn();
    const onSubmit = vi.fn((e: { preventDefault(): void }) => e.preventDefault());
    render(
      <form onSubmit={onSubmit}>
        <Button type="submit" variant="danger" loading onClick={onClick}>
          Excluir
        </Button>
      </form>,
    );
    const button = screen.getByRole('button', { name: 'Excluir' }) as HTMLButtonElement;
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.disabled).toBe(false);
    await userEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});

describe('Alert', () => {
  it('is role=alert for errors and role=status otherwise; dismissible', async () => {
    const onDismiss = vi.fn();
    const { rerender } = render(
      <Alert variant="error" title="Não foi possível salvar." onDismiss={onDismiss}>
        Tente novamente.
      </Alert>,
    );
    expect(screen.getByRole('alert').textContent).toContain('Não foi possível salvar.');
    await userEvent.click(screen.getByRole('button', { name: 'Fechar aviso' }));
    expect(onDismiss).toHaveBeenCalled();
    rerender(<Alert variant="success">Salvo.</Alert>);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Salvo.');
  });
});

describe('Spinner / PageLoading', () => {
  it('announce "Carregando…" with role=status', () => {
    render(<PageLoading />);
    expect(screen.getByRole('status').textContent).toBe('Carregando…');
  });

  it('Spinner is a status with hidden text, or purely decorative', () => {
    const { container, rerender } = render(<Spinner />);
    expect(screen.getByRole('status').textContent).toBe('Carregando…');
    rerender(<Spinner decorative />);
    expect(screen.queryByRole('status')).toBeNull();
    expect(container.firstElementChild?.getAttribute('aria-hidden')).toBe('true');
  });
});

describe('Icon', () => {
  it('is aria-hidden by default and an img when labelled', () => {
    const { container } = render(<Icon name="trash" />);
    expect(container.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
    render(<Icon name="alert" label="Atenção" />);
    expect(screen.getByRole('img', { name: 'Atenção' })).toBeTruthy();
  });

  it('has every icon the menu and pages need', () => {
    for (const name of ['menu', 'home', 'info', 'box', 'users', 'file', 'settings', 'log-out', 'sun', 'moon', 'monitor']) {
      expect(iconNames).toContain(name);
    }
    for (const name of ['chevron-down', 'search', 'plus', 'edit', 'trash', 'x', 'alert', 'check']) {
      expect(iconNames).toContain(name);
    }
  });
});

describe('PageHeader, Card, EmptyState', () => {
  it('PageHeader renders the h1 and the actions', () => {
    render(<PageHeader title="Memorandos" description="Documentos internos." actions={<Button>Novo memorando</Button>} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Memorandos' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Novo memorando' })).toBeTruthy();
  });

  it('Card with a title is a region named by its heading', () => {
    render(<Card title="Dados gerais">conteúdo</Card>);
    expect(screen.getByRole('region', { name: 'Dados gerais' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Dados gerais' })).toBeTruthy();
  });

  it('EmptyState shows title, description and action', () => {
    render(<EmptyState title="Nenhum memorando" description="Crie o primeiro." action={<Button>Novo</Button>} />);
    expect(screen.getByText('Nenhum memorando')).toBeTruthy();
    expect(screen.getByText('Crie o primeiro.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Novo' })).toBeTruthy();
  });
});
