import { confirmDialog } from '@app/ui';

/** 'Sair sem salvar?' in the app's confirmation dialog: resolves true to leave. */
export function askToLeave(message: string): Promise<boolean> {
  return confirmDialog({
    title: 'Sair sem salvar?',
    description: message,
    confirmLabel: 'Sair sem salvar',
    cancelLabel: 'Continuar editando',
    tone: 'danger',
  });
}
