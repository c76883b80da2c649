import { useQueryClient } from '@app/core';
import { Alert, Button } from '@app/ui';
import { useState } from 'react';

/** Why the last save failed; `stale`: someone else changed the record (409 `stale`). */
export interface SaveProblem {
  message: string;
  stale: boolean;
}

/**
 * The save error of the user and perfil forms. A stale record shows what the resource kit's forms
 * show (same title, message and 'Recarregar'): reloading refetches the record, and the page mounts
 * the form again on the new version, so the changes not saved are discarded.
 */
export function SaveProblemAlert({ problem }: { problem: SaveProblem | null }) {
  const queryClient = useQueryClient();
  const [reloading, setReloading] = useState(false);
  if (!problem) return null;
  return (
    <div style={{ marginBottom: 'var(--space-5)' }}>
      {problem.stale ? (
        <Alert
          variant="warning"
          title="Registro alterado por outra pessoa"
          actions={
            <Button
              variant="primary"
              size="sm"
              loading={reloading}
              onClick={() => {
                setReloading(true);
                void queryClient.invalidateQueries({ queryKey: ['usuarios'] }).finally(() => setReloading(false));
              }}
            >
              Recarregar
            </Button>
          }
        >
          {`${problem.message} Suas alterações não salvas serão descartadas.`}
        </Alert>
      ) : (
        <Alert variant="error" title="Não foi possível salvar">
          {problem.message}
        </Alert>
      )}
    </div>
  );
}
