import { Button } from '@app/ui';
import { useAtomValue } from 'jotai';
import { useId, useMemo } from 'react';
import { clearCaches } from '../runtime/caches';
import { SESSION_KEY, TOKEN_KEY, clearStorage, writeStorage } from '../storage';
import { sessionAtom } from '../store';
import { toast } from '../toast/queue';
import { buildErrorLog } from './log';

export const ERROR_SCREEN_TITLE = 'Que deselegante';
export const LOG_COPIED_MESSAGE = 'Log copiado para a área de transferência';
/** Used in place of the phone number when the session (and so the config) is unknown. */
export const UNKNOWN_PHONE_TEXT = 'informado pela sua entidade';

/**
 * "Limpar aplicação e tentar novamente": drops token and session from localStorage (the theme
 * stays), sessionStorage, the query cache, then reloads the app at /signin.
 */
export function clearApplicationAndReload(): void {
  writeStorage('localStorage', TOKEN_KEY, null);
  writeStorage('localStorage', SESSION_KEY, null);
  clearStorage('sessionStorage');
  clearCaches();
  window.location.assign('/signin');
}

function Illustration({ titleId }: { titleId: string }) {
  return (
    <svg
      className="error-screen__image"
      role="img"
      aria-labelledby={titleId}
      viewBox="0 0 240 160"
      width="240"
      height="160"
      fill="none"
      stroke="currentColor"
      strokeWidth="4"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <title id={titleId}>Ilustração de uma xícara de café derramada sobre a mesa</title>
      <path d="M20 140h200" opacity="0.5" />
      <g transform="rotate(-70 92 104)">
        <path d="M60 70h64l-8 56a10 10 0 0 1-10 8H78a10 10 0 0 1-10-8z" />
        <path d="M124 84h8a14 14 0 0 1 0 28h-10" />
      </g>
      <path d="M124 134c14-8 36-6 52 0s30 4 40 0" />
      <path d="M150 122c6-4 14-4 20 0" opacity="0.6" />
      <path d="M70 40c-6-8 6-14 0-22M92 36c-6-8 6-14 0-22" opacity="0.6" />
    </svg>
  );
}

export interface ErrorScreenProps {
  /** The failure (absent on the /500 route). */
  error?: unknown;
  /** Extra explanation (e.g. a plugin composition refusal), shown above the standard text. */
  message?: string;
}

/**
 * Full-page error screen (spec §8): 'Que deselegante', an illustration, the support text with the
 * phone from the session config, 'Limpar aplicação e tentar novamente' and a copyable JSON log.
 */
export function ErrorScreen({ error, message }: ErrorScreenProps) {
  const session = useAtomValue(sessionAtom);
  const phone = session?.config.supportPhone || session?.entidade.telefoneSuporte || UNKNOWN_PHONE_TEXT;
  const titleId = useId();
  const imageId = useId();
  const logText = useMemo(() => JSON.stringify(buildErrorLog(error ?? new Error(message ?? 'Erro 500')), null, 2), [error, message]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(logText);
      toast.success(LOG_COPIED_MESSAGE);
    } catch {
      toast.error('Não foi possível copiar o log. Selecione o texto e copie manualmente.');
    }
  };

  return (
    <main className="error-screen" data-testid="error-screen" aria-labelledby={titleId}>
      <div className="error-screen__panel">
        <Illustration titleId={imageId} />
        <h1 id={titleId} className="error-screen__title">
          {ERROR_SCREEN_TITLE}
        </h1>
        {message ? (
          <p
            className="error-screen__message"
            data-testid="error-screen-message"
            role="alert"
            // a composition refusal lists one problem per line
            style={{ whiteSpace: 'pre-line' }}
          >
            {message}
          </p>
        ) : null}
        <p>
          A aplicação encontrou um erro. Pressione o botão abaixo para limpar a aplicação e tentar novamente. Se o problema persistir, entre em contato com o
          suporte pelo telefone {phone}.
        </p>
        <div className="error-screen__actions">
          <Button variant="primary" icon="trash" onClick={clearApplicationAndReload}>
            Limpar aplicação e tentar novamente
          </Button>
        </div>
        <details className="error-screen__details">
          <summary>Detalhes técnicos</summary>
          {/* a scrollable region must be reachable by keyboard (axe: scrollable-region-focusable) */}
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: scrollable log, keyboard users need to scroll it */}
          <pre className="error-screen__log" data-testid="error-log" tabIndex={0}>
            {logText}
          </pre>
          <div className="error-screen__actions">
            <Button variant="secondary" size="sm" icon="file" onClick={copy}>
              Copiar log
            </Button>
          </div>
        </details>
      </div>
    </main>
  );
}
