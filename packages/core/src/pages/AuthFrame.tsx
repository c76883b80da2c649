import type { ReactNode } from 'react';

/** Centered card used by the public pages (sign-in, recovery); classes from @app/ui's styles.css. */
export function AuthFrame({
  title,
  titleId,
  subtitle,
  footer,
  children,
}: {
  title: string;
  titleId: string;
  subtitle?: ReactNode;
  footer?: ReactNode;
  children: ReactNode;
}) {
  return (
    <main className="auth-page">
      <section className="auth-card" aria-labelledby={titleId}>
        <header className="auth-card__header">
          <p className="auth-card__app">Compras</p>
          <h1 id={titleId} className="auth-card__title">
            {title}
          </h1>
          {subtitle ? <p className="auth-card__subtitle">{subtitle}</p> : null}
        </header>
        {children}
        {footer ? <div className="auth-card__footer">{footer}</div> : null}
      </section>
    </main>
  );
}
