import { Link } from 'wouter';
import { ErrorScreen } from '../errors/ErrorScreen';
import { RouteMeta } from './RouteMeta';

function StatusPage({ status, title, message }: { status: 403 | 404; title: string; message: string }) {
  const headingId = `erro-${status}`;
  return (
    <section className="status-page" data-status={String(status)} data-testid={headingId} aria-labelledby={headingId}>
      <p className="status-page__code" aria-hidden="true">
        {status}
      </p>
      <h1 id={headingId} className="status-page__title">
        Erro {status}
      </h1>
      <p className="status-page__message">
        <strong>{title}.</strong> {message}
      </p>
      <div className="status-page__actions">
        <Link href="~/" className="button button--primary">
          Voltar ao início
        </Link>
      </div>
    </section>
  );
}

/** `*` → 'Erro 404' (tag -2). */
export function NotFoundPage() {
  return (
    <>
      <RouteMeta tag={-2} title="Erro 404" />
      <StatusPage status={404} title="Página não encontrada" message="O endereço acessado não existe ou foi removido." />
    </>
  );
}

/** `/403` → 'Erro 403' (tag -3). */
export function ForbiddenPage() {
  return (
    <>
      <RouteMeta tag={-3} title="Erro 403" />
      <StatusPage
        status={403}
        title="Acesso negado"
        message="Você não tem permissão para acessar esta página. Se precisar do acesso, fale com o administrador."
      />
    </>
  );
}

/** `/500` → 'Erro 500' (tag -4): the full-page error screen. */
export function ServerErrorPage() {
  return (
    <>
      <RouteMeta tag={-4} title="Erro 500" />
      <ErrorScreen />
    </>
  );
}

function Boom(): never {
  throw new Error('Erro de renderização provocado por /__boom');
}

/** `/__boom` (tag -4): throws during render so tests can prove the render-error path. */
export function BoomPage() {
  return (
    <>
      <RouteMeta tag={-4} title="Erro 500" />
      <Boom />
    </>
  );
}
