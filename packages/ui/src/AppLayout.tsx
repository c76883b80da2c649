import { type MouseEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import { cx } from './cx';
import { Icon, type IconName, isIconName } from './Icon';
import { findActiveHref, groupMenu, type MenuItem } from './menu';
import { VisuallyHidden } from './VisuallyHidden';

export type ThemePreference = 'light' | 'dark' | 'system';

export type AppLayoutProps = {
  appName: string;
  /** Name of the entidade the user works in (ENT_NOME), shown prominently in the header. */
  entidadeNome: string;
  userName: string;
  menu: MenuItem[];
  /** Current location path, e.g. from wouter's useLocation(). */
  currentPath: string;
  theme: ThemePreference;
  onThemeChange(theme: ThemePreference): void;
  onSignOut(): void;
  /** Extra header content before the theme switch (e.g. an entidade switcher). */
  headerExtra?: ReactNode;
  children: ReactNode;
};

/** Calls `handler` while `active` whenever the user presses Escape or interacts outside `inside()`. */
function useDismiss(active: boolean, inside: () => Array<HTMLElement | null>, onDismiss: (reason: 'escape' | 'outside') => void) {
  const latest = useRef({ inside, onDismiss });
  latest.current = { inside, onDismiss };
  useEffect(() => {
    if (!active) return;
    const isInside = (target: EventTarget | null) => target instanceof Node && latest.current.inside().some((el) => el?.contains(target));
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) {
        event.preventDefault();
        latest.current.onDismiss('escape');
      }
    };
    const onOutside = (event: Event) => {
      if (!isInside(event.target)) latest.current.onDismiss('outside');
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onOutside);
    document.addEventListener('focusin', onOutside);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onOutside);
      document.removeEventListener('focusin', onOutside);
    };
  }, [active]);
}

const themeOptions: Array<{ value: ThemePreference; label: string; icon: IconName }> = [
  { value: 'light', label: 'Claro', icon: 'sun' },
  { value: 'dark', label: 'Escuro', icon: 'moon' },
  { value: 'system', label: 'Sistema', icon: 'monitor' },
];

export type ThemeSwitchProps = {
  value: ThemePreference;
  onChange(theme: ThemePreference): void;
  /** Show 'Claro' / 'Escuro' / 'Sistema' next to the icons (otherwise screen readers and tooltips only). */
  showLabels?: boolean;
  className?: string;
};

/** Radio group 'Tema': Claro / Escuro / Sistema. Arrow keys move between options (native radios). */
export function ThemeSwitch({ value, onChange, showLabels = false, className }: ThemeSwitchProps) {
  const name = useId();
  return (
    <fieldset className={cx('theme-switch', showLabels && 'theme-switch--labelled', className)}>
      <legend className="visually-hidden">Tema</legend>
      {themeOptions.map((option) => (
        <label key={option.value} className="theme-switch__option" title={option.label}>
          <input
            type="radio"
            className="theme-switch__input"
            name={name}
            value={option.value}
            checked={value === option.value}
            onChange={() => onChange(option.value)}
          />
          <Icon name={option.icon} size={18} />
          <span className={showLabels ? 'theme-switch__text' : 'visually-hidden'}>{option.label}</span>
        </label>
      ))}
    </fieldset>
  );
}

function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0]?.[0] ?? '';
  const last = words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '';
  return (first + last).toLocaleUpperCase('pt-BR');
}

export type UserMenuProps = {
  userName: string;
  /** Shown under the name inside the menu. */
  entidadeNome?: string;
  onSignOut(): void;
  /** Extra content of the panel, above 'Sair'. */
  children?: ReactNode;
};

/**
 * Disclosure button with the user's name; opens a small panel with 'Sair'. Enter/Space toggles (native
 * button), Escape closes and returns focus to the button, clicking or tabbing outside closes.
 */
export function UserMenu({ userName, entidadeNome, onSignOut, children }: UserMenuProps) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const signOutRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (open) signOutRef.current?.focus();
  }, [open]);

  useDismiss(
    open,
    () => [rootRef.current],
    (reason) => {
      setOpen(false);
      if (reason === 'escape') buttonRef.current?.focus();
    },
  );

  return (
    <div className="user-menu" ref={rootRef}>
      <button ref={buttonRef} type="button" className="user-menu__button" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((v) => !v)}>
        <span className="avatar" aria-hidden="true">
          {initials(userName)}
        </span>
        <span className="user-menu__button-name">{userName}</span>
        <Icon name="chevron-down" size={16} className="user-menu__chevron" />
      </button>
      <div id={panelId} className="user-menu__panel" hidden={!open}>
        <div className="user-menu__identity">
          <p className="user-menu__name">{userName}</p>
          {entidadeNome ? <p className="user-menu__entidade">{entidadeNome}</p> : null}
        </div>
        {children}
        <ul className="user-menu__list">
          <li>
            <button
              ref={signOutRef}
              type="button"
              className="user-menu__item"
              onClick={() => {
                setOpen(false);
                onSignOut();
              }}
            >
              <Icon name="log-out" size={18} />
              Sair
            </button>
          </li>
        </ul>
      </div>
    </div>
  );
}

/**
 * The signed-in frame: skip link, header (menu button on small screens, app and entidade names,
 * `headerExtra`, theme switch, user menu), the grouped side menu and the main landmark (#conteudo).
 */
export function AppLayout({ appName, entidadeNome, userName, menu, currentPath, theme, onThemeChange, onSignOut, headerExtra, children }: AppLayoutProps) {
  const [navOpen, setNavOpen] = useState(false);
  const navId = `menu-principal${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const navRef = useRef<HTMLElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const mainRef = useRef<HTMLElement>(null);

  const groups = groupMenu(menu);
  const activeHref = findActiveHref(menu, currentPath);

  useEffect(() => {
    if (navOpen) navRef.current?.querySelector<HTMLElement>('a[href]')?.focus();
  }, [navOpen]);

  useDismiss(
    navOpen,
    () => [navRef.current, toggleRef.current],
    (reason) => {
      setNavOpen(false);
      if (reason === 'escape') toggleRef.current?.focus();
    },
  );

  const skipToContent = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    mainRef.current?.focus();
    mainRef.current?.scrollIntoView?.({ block: 'start' });
  };

  return (
    <div className="app-shell" data-nav-open={navOpen ? 'true' : undefined}>
      {/* biome-ignore lint/a11y/useValidAnchor: a real skip link; the click handler only avoids putting '#conteudo' in the router's URL */}
      <a className="skip-link" href="#conteudo" onClick={skipToContent}>
        Pular para o conteúdo
      </a>
      <header className="app-header">
        <button
          ref={toggleRef}
          type="button"
          className="app-header__menu-button icon-button"
          aria-expanded={navOpen}
          aria-controls={navId}
          onClick={() => setNavOpen((v) => !v)}
        >
          <Icon name={navOpen ? 'x' : 'menu'} size={22} />
          <VisuallyHidden>Menu</VisuallyHidden>
        </button>
        <Link href="/" className="app-brand">
          <span className="app-brand__app">{appName}</span>{' '}
          <span className="app-brand__entidade" title={entidadeNome}>
            {entidadeNome}
          </span>
        </Link>
        <div className="app-header__end">
          {headerExtra ? <div className="app-header__extra">{headerExtra}</div> : null}
          <ThemeSwitch value={theme} onChange={onThemeChange} className="app-header__theme" />
          <UserMenu userName={userName} entidadeNome={entidadeNome} onSignOut={onSignOut}>
            {/* On phones the header has no room for the switch: it moves into this panel (CSS). */}
            <div className="user-menu__theme">
              <ThemeSwitch value={theme} onChange={onThemeChange} showLabels />
            </div>
          </UserMenu>
        </div>
      </header>
      <div className="app-body">
        <nav id={navId} ref={navRef} className="app-nav" aria-label="Menu principal">
          {groups.map((group, index) => {
            const headingId = `${navId}-grupo-${index}`;
            return (
              <div key={group.group ?? ''} className="app-nav__group">
                {group.group ? (
                  <h2 id={headingId} className="app-nav__heading">
                    {group.group}
                  </h2>
                ) : null}
                <ul className="app-nav__list" aria-labelledby={group.group ? headingId : undefined}>
                  {group.items.map((item) => {
                    const current = item.href === activeHref;
                    return (
                      <li key={item.href}>
                        <Link href={item.href} className="app-nav__link" aria-current={current ? 'page' : undefined} onClick={() => setNavOpen(false)}>
                          {isIconName(item.icon) ? (
                            <Icon name={item.icon} size={18} className="app-nav__icon" />
                          ) : (
                            <span className="app-nav__icon" aria-hidden="true" />
                          )}
                          <span className="app-nav__label">{item.label}</span>
                          {item.count && item.count > 0 ? (
                            <span className="app-nav__count" data-testid="menu-count">
                              <span aria-hidden="true">{item.count > 99 ? '99+' : item.count}</span>
                              <span className="visually-hidden">
                                {`(${item.count.toLocaleString('pt-BR')}${item.countLabel ? ` ${item.countLabel}` : ''})`}
                              </span>
                            </span>
                          ) : null}
                        </Link>
                      </li>
                    );
                  })}
                </ul>
              </div>
            );
          })}
        </nav>
        <div className="app-backdrop" aria-hidden="true" />
        <main id="conteudo" ref={mainRef} tabIndex={-1} className="app-main">
          <div className="app-content">{children}</div>
        </main>
      </div>
    </div>
  );
}
