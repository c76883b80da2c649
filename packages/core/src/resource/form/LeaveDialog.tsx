// 'Sair sem salvar?' in the app's confirmation dialog (its own chunk: the guard is on the first page).
import { ConfirmDialog } from '@app/ui';

export default function LeaveDialog({ open, message, onAnswer }: { open: boolean; message: string; onAnswer: (leave: boolean) => void }) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) onAnswer(false);
      }}
      title="Sair sem salvar?"
      description={message}
      confirmLabel="Sair sem salvar"
      cancelLabel="Continuar editando"
      tone="danger"
      onConfirm={() => onAnswer(true)}
    />
  );
}
