import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AppLayout, type AppLayoutProps } from '../src/AppLayout';
import { findActiveHref, groupMenu, isActiveHref, type MenuItem } from '../src/menu';

const menu: MenuItem[] = [
  { href: '/memorando', label: 'Memorandos', icon: 'file', group: 'Documentos', order: 20 },
  { href: '/requisicao', label: 'Requisições', icon: 'file', group: 'Documentos', order: 10 },
  { href: '/oficio', label: 'Ofícios', group: 'Documentos', order: 20 },
  { href: '/fornecedor', label: 'Fornecedores', icon: 'users', group: 'Cadastros', order: 5 },
  { href: '/produto', label: 'Produtos', icon: 'box', group: 'Cadastros' },
  { href: '/config', label: 'Configurações', icon: 'settings', group: 'Sistema', order: 90 },
  { href: '/', label: 'Início', icon: 'home', order: 0 },
  { href: '/ajuda', label: 'Ajuda', icon: 'no-such-icon' },
];

function renderLayout(overrides: Partial<AppLayoutProps> = {}) {
  const props: AppLayoutProps = {
    appName: 'Compras',
    entidadeNome: 'Prefeitura Municipal de Exemplo',
    userName: 'Maria da Silva',
    menu,
    currentPath: '/',
    theme: 'system',
    onThemeChange: vi.fn(),
    onSignOut: vi.fn(),
    children: <h1>Conteúdo da página</h1>,
    ...overrides,
  };
  const user = userEvent.setup();
  const view = render(<AppLayout {...props} />);
  return { ...view, props, user };
}

describe('menu helpers', () => {
  it('groups: ungrouped first, then groups by their lowest order; items by order then label', () => {
    const groups = groupMenu(menu);
    expect(groups.map((g) => g.group)).toEqual([null, 'Cadastros', 'Documentos', 'Sistema']);
    expect(groups[0]?.items.map((i) => i.label)).toEqual(['Início', 'Ajuda']);
    expect(groups[1]?.items.map((i) => i.label)).toEqual(['Fornecedores', 'Produtos']);
    expect(groups[2]?.items.map((i) => i.label)).toEqual(['Requisições', 'Memorandos', 'Ofícios']);
  });

  it('matches the current path: exact or below, "/" only exactly', () => {
    expect(isActiveHref('/memorando', '/memorando')).toBe(true);
    expect(isActiveHref('/memorando', '/memorando/edit/3')).toBe(true);
    expect(isActiveHref('/memorando', '/memorandos')).toBe(false);
    expect(isActiveHref('/memorando/', '/memorando')).toBe(true);
    expect(isActiveHref('/', '/')).toBe(true);
    expect(isActiveHref('/', '/memorando')).toBe(false);
    expect(isActiveHref('/memorando', '/memorando?pagina=2')).toBe(true);
  });

  it('picks the longest matching href when entries are nested', () => {
    const items = [
      { href: '/cadastros', label: 'Cadastros' },
      { href: '/cadastros/fornecedores', label: 'Fornecedores' },
    ];
    expect(findActiveHref(items, '/cadastros/fornecedores/7')).toBe('/cadastros/fornecedores');
    expect(findActiveHref(items, '/cadastros/outro')).toBe('/cadastros');
    expect(findActiveHref(items, '/x')).toBeUndefined();
  });
});

describe('AppLayout', () => {
  it('renders landmarks, skip link, app and entidade names and the header slot', () => {
    renderLayout({ headerExtra: <button type="button">Trocar entidade</button> });
    expect(screen.getByRole('banner')).toBeTruthy();
    const main = screen.getByRole('main');
    expect(main.id).toBe('conteudo');
    expect(main.getAttribute('tabindex')).toBe('-1');
    expect(screen.getByRole('link', { name: 'Pular para o conteúdo' }).getAttribute('href')).toBe('#conteudo');
    const brand = within(screen.getByRole('banner')).getByRole('link', {
      name: 'Compras Prefeitura Municipal de Exemplo',
    });
    expect(brand.getAttribute('href')).toBe('/');
    expect(screen.getByRole('button', { name: 'Trocar entidade' })).toBeTruthy();
    expect(within(main).getByRole('heading', { level: 1, name: 'Conteúdo da página' })).toBeTruthy();
  });

  it('skip link moves focus to the main content', async () => {
    const { user } = renderLayout();
    await user.click(screen.getByRole('link', { name: 'Pular para o conteúdo' }));
    expect(document.activeElement).toBe(screen.getByRole('main'));
  });

  it('renders the menu grouped under headings, in order', () => {
    renderLayout();
    const nav = screen.getByRole('navigation', { name: 'Menu principal' });
    const headings = within(nav).getAllByRole('heading');
    expect(headings.map((h) => h.textContent)).toEqual(['Cadastros', 'Documentos', 'Sistema']);
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Início', 'Ajuda', 'Fornecedores', 'Produtos', 'Requisições', 'Memorandos', 'Ofícios', 'Configurações']);
    const documentos = within(nav).getByRole('list', { name: 'Documentos' });
    expect(within(documentos).getAllByRole('link')).toHaveLength(3);
    expect(within(nav).getByRole('link', { name: 'Memorandos' }).getAttribute('href')).toBe('/memorando');
  });

  it('shows a count beside an entry when above 0, named for screen readers; none at 0', () => {
    const counted: MenuItem[] = [
      { href: '/requisicao', label: 'Requisições', count: 3, countLabel: 'aguardando minha aprovação' },
      { href: '/memorando', label: 'Memorandos', count: 0, countLabel: 'novos' },
      { href: '/produto', label: 'Produtos', count: 150 },
    ];
    renderLayout({ menu: counted });
    const nav = screen.getByRole('navigation', { name: 'Menu principal' });
    expect(within(nav).getByRole('link', { name: 'Requisições (3 aguardando minha aprovação)' })).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'Memorandos' })).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'Produtos (150)' }).textContent).toContain('99+');
    expect(within(nav).getAllByTestId('menu-count')).toHaveLength(2);
  });

  it('marks the current item with aria-current="page"', () => {
    const { rerender, props } = renderLayout({ currentPath: '/memorando/edit/12' });
    const nav = screen.getByRole('navigation', { name: 'Menu principal' });
    const current = () =>
      within(nav)
        .getAllByRole('link')
        .filter((a) => a.getAttribute('aria-current') === 'page');
    expect(current().map((a) => a.textContent)).toEqual(['Memorandos']);

    rerender(<AppLayout {...props} currentPath="/" />);
    expect(current().map((a) => a.textContent)).toEqual(['Início']);

    rerender(<AppLayout {...props} currentPath="/memorandos-antigos" />);
    expect(current()).toEqual([]);
  });

  it('opens the user menu with Enter, closes with Escape and returns focus', async () => {
    const { user } = renderLayout();
    const button = screen.getByRole('button', { name: /Maria da Silva/ });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('button', { name: 'Sair' })).toBeNull();

    button.focus();
    await user.keyboard('{Enter}');
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const sair = screen.getByRole('button', { name: 'Sair' });
    expect(document.getElementById(button.getAttribute('aria-controls') ?? '')?.contains(sair)).toBe(true);
    expect(document.activeElement).toBe(sair);

    await user.keyboard('{Escape}');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('button', { name: 'Sair' })).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('opens the user menu with Space and "Sair" calls onSignOut', async () => {
    const { user, props } = renderLayout();
    const button = screen.getByRole('button', { name: /Maria da Silva/ });
    button.focus();
    await user.keyboard(' ');
    expect(button.getAttribute('aria-expanded')).toBe('true');
    await user.keyboard('{Enter}'); // focus is on 'Sair'
    expect(props.onSignOut).toHaveBeenCalledTimes(1);
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('closes the user menu on a click outside or when focus leaves it', async () => {
    const { user } = renderLayout();
    const button = screen.getByRole('button', { name: /Maria da Silva/ });
    await user.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    await user.click(screen.getByRole('main'));
    expect(button.getAttribute('aria-expanded')).toBe('false');

    await user.click(button);
    await user.tab(); // from 'Sair' to whatever follows: outside the menu
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('theme switch: labelled radio group that calls onThemeChange', async () => {
    const { user, props } = renderLayout({ theme: 'light' });
    const group = screen.getByRole('group', { name: 'Tema' });
    const claro = within(group).getByRole('radio', { name: 'Claro' }) as HTMLInputElement;
    const escuro = within(group).getByRole('radio', { name: 'Escuro' }) as HTMLInputElement;
    expect(within(group).getByRole('radio', { name: 'Sistema' })).toBeTruthy();
    expect(claro.checked).toBe(true);
    await user.click(escuro);
    expect(props.onThemeChange).toHaveBeenCalledWith('dark');
  });

  it('menu button toggles the drawer (aria-expanded/aria-controls) and Escape closes it', async () => {
    const { user } = renderLayout();
    const toggle = screen.getByRole('button', { name: 'Menu' });
    const nav = screen.getByRole('navigation', { name: 'Menu principal' });
    expect(toggle.getAttribute('aria-controls')).toBe(nav.id);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');

    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(nav.contains(document.activeElement)).toBe(true);

    await user.keyboard('{Escape}');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle);

    await user.click(toggle);
    await user.click(within(nav).getByRole('link', { name: 'Produtos' }));
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });
});
