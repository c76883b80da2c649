import { useQueryClient } from '@app/core';
import { Alert, Button } from '@app/ui';

/** Why the last save failed; `stale`: someone else changed the record (409). */
export interface SaveProblem {
  message: string;
  stale: boolean;
}

/** The save error of the user and perfil forms; a stale record offers 'Recarregar'. */
export function SaveProblemAlert({ problem }: { problem: SaveProblem | null }) {
  const queryClient = useQueryClient();
  if (!problem) return null;
  return (
    <div style={{ marginBottom: 'var(--space-5)' }}>
      <Alert
        variant="error"
        title={problem.stale ? 'Registro desatualizado' : 'Não foi possível salvar'}
        actions={
          problem.stale ? (
            <Button variant="secondary" size="sm" onClick={() => void queryClient.invalidateQueries({ queryKey: ['usuarios'] })}>
              Recarregar
            </Button>
          ) : undefined
        }
      >
        {problem.message}
      </Alert>
    </div>
  );
}
