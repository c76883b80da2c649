import { Button, TextField, type TextFieldProps } from '@app/ui';
import type { FormEvent } from 'react';

export interface SingleFieldFormProps extends TextFieldProps {
  /** `data-testid` of the form. */
  testId: string;
  onSubmit: (event: FormEvent) => void;
  busy: boolean;
  submitLabel: string;
}

/**
 * The one-field form of the public pages (the login or e-mail of the password recovery, the code of
 * the document verification): a required text field without spell check, its error, and the submit
 * button, busy while the request runs. The other props go to the field.
 */
export function SingleFieldForm({ testId, onSubmit, busy, submitLabel, ...field }: SingleFieldFormProps) {
  return (
    <form className="auth-card__form" onSubmit={onSubmit} data-allow-enter noValidate data-testid={testId}>
      <TextField spellCheck={false} aria-required="true" {...field} />
      <Button type="submit" variant="primary" block loading={busy}>
        {submitLabel}
      </Button>
    </form>
  );
}
