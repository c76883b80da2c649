import { type ReactNode, useState } from 'react';
import { ConfirmDialog, type ConfirmTone } from './ConfirmDialog';
import { TextareaField } from './fields';

/** Counter under a text with a minimum: what is still missing, then the length (pt-BR). */
export function characterCount(text: string, min: number): string {
  const n = text.trim().length;
  if (min <= 0) return `${n} caracteres.`;
  return n < min ? `Ao menos ${min} caracteres: faltam ${min - n}.` : `${n} caracteres (mínimo ${min}).`;
}

/** A text asked in a dialog (a reason, a note). */
export type PromptOptions = {
  title: ReactNode;
  description?: ReactNode;
  /** Label of the text field ('Motivo da exclusão'). */
  label: string;
  confirmLabel: string;
  /** Shortest text (0: optional); a shorter one is refused with 'Informe o <label> (ao menos N caracteres).'. */
  min: number;
  tone?: ConfirmTone;
  /** Sends the trimmed text; answers an error message to keep the dialog open (shown on the field), or null. */
  submit: (text: string) => Promise<string | null>;
};

/**
 * The dialog of a `PromptOptions` (`prompt` null: closed): a textarea with a character counter,
 * 'Voltar' and the confirm button; the text is checked against `min` before `submit` runs.
 *
 *   const [pedido, setPedido] = useState<PromptOptions | null>(null);
 *   <PromptDialog prompt={pedido} onClose={() => setPedido(null)} />
 */
export function PromptDialog({ prompt, onClose }: { prompt: PromptOptions | null; onClose: () => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setText('');
    setError(null);
    onClose();
  };
  return (
    <ConfirmDialog
      open={prompt !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      title={prompt?.title ?? ''}
      description={prompt?.description}
      confirmLabel={prompt?.confirmLabel ?? 'Confirmar'}
      cancelLabel="Voltar"
      tone={prompt?.tone ?? 'default'}
      onConfirm={async () => {
        if (!prompt) return true;
        if (prompt.min > 0 && text.trim().length < prompt.min) {
          setError(`Informe o ${prompt.label.toLowerCase()} (ao menos ${prompt.min} caracteres).`);
          return false;
        }
        const failure = await prompt.submit(text.trim());
        setError(failure);
        if (failure) return false;
        setText('');
        return true;
      }}
    >
      {prompt ? (
        <TextareaField
          label={prompt.label}
          required={prompt.min > 0}
          rows={3}
          maxLength={2000}
          hint={characterCount(text, prompt.min)}
          value={text}
          error={error ?? undefined}
          onChange={(e) => {
            setText(e.target.value);
            setError(null);
          }}
        />
      ) : null}
    </ConfirmDialog>
  );
}
