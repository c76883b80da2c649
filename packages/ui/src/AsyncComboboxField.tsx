import type { ReactNode } from 'react';
import { AsyncCombobox, type AsyncComboboxProps } from './AsyncCombobox';
import { cx, ids } from './cx';

export type AsyncComboboxFieldProps = Omit<AsyncComboboxProps, 'id' | 'label' | 'invalid' | 'describedBy'> & {
  /** Id of the input; the hint is `<id>-dica`, the error `<id>-erro`. */
  id: string;
  /** Visible label (also the combobox's accessible name). */
  label: string;
  /** Help text under the picker. */
  hint?: ReactNode;
  error?: ReactNode;
};

/** An `AsyncCombobox` as a form field: label (with the required mark), hint and error under it. */
export function AsyncComboboxField({ id, label, hint, error, ...rest }: AsyncComboboxFieldProps) {
  const hintId = `${id}-dica`;
  const errorId = `${id}-erro`;
  return (
    <div className={cx('field', error ? 'field--invalid' : false)}>
      <label className="field__label" htmlFor={id}>
        {label}
        {rest.required ? (
          <span className="field__required" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </label>
      <AsyncCombobox {...rest} id={id} label={label} invalid={Boolean(error)} describedBy={ids(hint ? hintId : false, error ? errorId : false)} />
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
