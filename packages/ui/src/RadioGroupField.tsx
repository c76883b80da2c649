import type { ReactNode } from 'react';
import { cx } from './cx';

export type RadioOption<V extends string> = { value: V; label: ReactNode; hint?: ReactNode };

export type RadioGroupFieldProps<V extends string> = {
  /** The legend of the group. */
  label: ReactNode;
  /** Name of the radios and prefix of their ids (`<name>-<value>`). */
  name: string;
  options: readonly RadioOption<V>[];
  value: V | null;
  onChange: (value: V) => void;
  error?: ReactNode;
};

/** A group of radio buttons (`<fieldset class="choice-list">`), each option with an optional hint under it. */
export function RadioGroupField<V extends string>({ label, name, options, value, onChange, error }: RadioGroupFieldProps<V>) {
  const errorId = `${name}-erro`;
  return (
    <fieldset className={cx('choice-list', error ? 'field--invalid' : false)} aria-describedby={error ? errorId : undefined}>
      <legend className="field__label">{label}</legend>
      {options.map((o) => {
        const id = `${name}-${o.value}`;
        return (
          <div key={o.value} className="checkbox">
            <input
              type="radio"
              className="checkbox__input"
              id={id}
              name={name}
              value={o.value}
              checked={value === o.value}
              aria-describedby={o.hint ? `${id}-dica` : undefined}
              onChange={() => onChange(o.value)}
            />
            <div>
              <label className="checkbox__label" htmlFor={id}>
                {o.label}
              </label>
              {o.hint ? (
                <p id={`${id}-dica`} className="field__hint">
                  {o.hint}
                </p>
              ) : null}
            </div>
          </div>
        );
      })}
      {error ? (
        <p id={errorId} className="field__error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
