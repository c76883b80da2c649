import { Alert, Button } from '@app/ui';
import { apiErrorMessage } from '../api';

export interface LoadErrorAlertProps {
  /** What could not be loaded, e.g. 'Não foi possível carregar os perfis'. */
  title: string;
  /** The failed query's error: its pt-BR message is shown. */
  error: unknown;
  /** Text when the error carries none (default: apiErrorMessage's). */
  fallback?: string;
  /** 'Tentar novamente': usually `() => void query.refetch()`. */
  onRetry: () => void;
}

/** A query that failed to load: the server's pt-BR message and a 'Tentar novamente' button. */
export function LoadErrorAlert({ title, error, fallback, onRetry }: LoadErrorAlertProps) {
  return (
    <Alert
      variant="error"
      title={title}
      actions={
        <Button variant="secondary" size="sm" onClick={onRetry}>
          Tentar novamente
        </Button>
      }
    >
      {fallback === undefined ? apiErrorMessage(error) : apiErrorMessage(error, fallback)}
    </Alert>
  );
}
