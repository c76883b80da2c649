import { type ComponentPropsWithRef, type ReactNode, useId, useState } from 'react';
import { cx, ids } from './cx';
import { Icon } from './Icon';
import { VisuallyHidden } from './VisuallyHidden';

/** Props every field shares. `className` goes on the wrapper; every other prop goes on the control. */
export type FieldOwnProps = {
  /** Visible label (always rendered as a <label>). */
  label: ReactNode;
  /** Help text under the label, linked with aria-describedby. */
  hint?: ReactNode;
  /** Error message; sets aria-invalid and is linked with aria-describedby. */
  error?: ReactNode;
  /** Class of the wrapper element. */
  className?: string;
};

function useFieldIds(id: string | undefined, hint: ReactNode, error: ReactNode, describedBy: string | undefined) {
  const auto = useId();
  const base = id ?? `campo${auto.replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const hintId = `${base}-dica`;
  const errorId = `${base}-erro`;
  return {
    id: base,
    hintId,
    errorId,
    describedBy: ids(hint ? hintId : undefined, error ? errorId : undefined, describedBy),
  };
}

function hasError(error: ReactNode): boolean {
  return error !== undefined && error !== null && error !== false && error !== '';
}

function FieldHint({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="field__hint">
      {children}
    </p>
  );
}

function FieldError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="field__error">
      <Icon name="alert" size="1.125em" />
      <VisuallyHidden>Erro: </VisuallyHidden>
      {children}
    </p>
  );
}

type ShellProps = {
  kind: string;
  id: string;
  label: ReactNode;
  hint: ReactNode;
  hintId: string;
  error: ReactNode;
  errorId: string;
  required?: boolean;
  disabled?: boolean;
  className?: string;
  children: ReactNode;
};

function FieldShell({ kind, id, label, hint, hintId, error, errorId, required, disabled, className, children }: ShellProps) {
  const invalid = hasError(error);
  return (
    <div className={cx('field', `field--${kind}`, invalid && 'field--invalid', disabled && 'field--disabled', className)}>
      <label className="field__label" htmlFor={id}>
        {label}
        {required ? (
          <span className="field__required" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </label>
      {hint ? <FieldHint id={hintId}>{hint}</FieldHint> : null}
      {children}
      {invalid ? <FieldError id={errorId}>{error}</FieldError> : null}
    </div>
  );
}

export type TextFieldProps = Omit<ComponentPropsWithRef<'input'>, 'children'> & FieldOwnProps;

/** Labelled text input (any text-like `type`: text, email, tel, number, date…). */
export function TextField({ label, hint, error, className, id, type = 'text', ...rest }: TextFieldProps) {
  const invalid = hasError(error);
  const f = useFieldIds(id, hint, invalid ? error : undefined, rest['aria-describedby']);
  return (
    <FieldShell kind="text" {...f} label={label} hint={hint} error={error} required={rest.required} disabled={rest.disabled} className={className}>
      <input {...rest} id={f.id} type={type} className="input" aria-invalid={invalid || rest['aria-invalid'] || undefined} aria-describedby={f.describedBy} />
    </FieldShell>
  );
}

export type PasswordFieldProps = Omit<TextFieldProps, 'type'>;

/** Password input with a 'Mostrar senha' / 'Ocultar senha' toggle. */
export function PasswordField({ label, hint, error, className, id, autoComplete = 'current-password', ...rest }: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  const invalid = hasError(error);
  const f = useFieldIds(id, hint, invalid ? error : undefined, rest['aria-describedby']);
  return (
    <FieldShell kind="password" {...f} label={label} hint={hint} error={error} required={rest.required} disabled={rest.disabled} className={className}>
      <div className="field__control">
        <input
          {...rest}
          id={f.id}
          type={visible ? 'text' : 'password'}
          autoComplete={autoComplete}
          spellCheck={false}
          autoCapitalize="off"
          className="input"
          aria-invalid={invalid || rest['aria-invalid'] || undefined}
          aria-describedby={f.describedBy}
        />
        <button
          type="button"
          className="field__addon-button"
          aria-controls={f.id}
          aria-label={visible ? 'Ocultar senha' : 'Mostrar senha'}
          title={visible ? 'Ocultar senha' : 'Mostrar senha'}
          disabled={rest.disabled}
          onClick={() => setVisible((v) => !v)}
        >
          <Icon name={visible ? 'eye-off' : 'eye'} />
        </button>
      </div>
    </FieldShell>
  );
}

export type SelectOption = { value: string; label: string; disabled?: boolean };

export type SelectFieldProps = Omit<ComponentPropsWithRef<'select'>, 'children'> &
  FieldOwnProps & {
    options?: SelectOption[];
    /** First, empty option (value ''), e.g. 'Selecione…'. */
    placeholder?: string;
    /** Extra <option>/<optgroup> elements after `options`. */
    children?: ReactNode;
  };

/** Labelled native <select>. */
export function SelectField({ label, hint, error, className, id, options, placeholder, children, ...rest }: SelectFieldProps) {
  const invalid = hasError(error);
  const f = useFieldIds(id, hint, invalid ? error : undefined, rest['aria-describedby']);
  return (
    <FieldShell kind="select" {...f} label={label} hint={hint} error={error} required={rest.required} disabled={rest.disabled} className={className}>
      <select {...rest} id={f.id} className="input select" aria-invalid={invalid || rest['aria-invalid'] || undefined} aria-describedby={f.describedBy}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options?.map((o) => (
          <option key={o.value} value={o.value} disabled={o.disabled}>
            {o.label}
          </option>
        ))}
        {children}
      </select>
    </FieldShell>
  );
}

export type TextareaFieldProps = Omit<ComponentPropsWithRef<'textarea'>, 'children'> & FieldOwnProps;

/** Labelled multi-line text. */
export function TextareaField({ label, hint, error, className, id, rows = 4, ...rest }: TextareaFieldProps) {
  const invalid = hasError(error);
  const f = useFieldIds(id, hint, invalid ? error : undefined, rest['aria-describedby']);
  return (
    <FieldShell kind="textarea" {...f} label={label} hint={hint} error={error} required={rest.required} disabled={rest.disabled} className={className}>
      <textarea
        {...rest}
        id={f.id}
        rows={rows}
        className="input textarea"
        aria-invalid={invalid || rest['aria-invalid'] || undefined}
        aria-describedby={f.describedBy}
      />
    </FieldShell>
  );
}

export type CheckboxFieldProps = Omit<ComponentPropsWithRef<'input'>, 'type' | 'children'> & FieldOwnProps;

/** Checkbox with its label on the right; hint and error below. */
export function CheckboxField({ label, hint, error, className, id, ...rest }: CheckboxFieldProps) {
  const invalid = hasError(error);
  const f = useFieldIds(id, hint, invalid ? error : undefined, rest['aria-describedby']);
  return (
    <div className={cx('field', 'field--checkbox', invalid && 'field--invalid', rest.disabled && 'field--disabled', className)}>
      <div className="checkbox">
        <input
          {...rest}
          id={f.id}
          type="checkbox"
          className="checkbox__input"
          aria-invalid={invalid || rest['aria-invalid'] || undefined}
          aria-describedby={f.describedBy}
        />
        <label className="field__label checkbox__label" htmlFor={f.id}>
          {label}
        </label>
      </div>
      {hint ? <FieldHint id={f.hintId}>{hint}</FieldHint> : null}
      {invalid ? <FieldError id={f.errorId}>{error}</FieldError> : null}
    </div>
  );
}
