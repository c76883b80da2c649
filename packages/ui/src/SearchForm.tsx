import type { FormEvent } from 'react';
import { Button } from './Button';
import { TextField } from './fields';

export interface SearchFormProps {
  /** Name of the search landmark, e.g. 'Pesquisar usuários'. */
  'aria-label': string;
  /** What the search looks in, e.g. 'Nome, login, e-mail ou CPF'. */
  hint?: string;
  value: string;
  onChange: (value: string) => void;
  /** Enter or 'Pesquisar': run the search with the current value. */
  onSubmit: () => void;
}

/** A list's search box: a `search` landmark with one field and a 'Pesquisar' button (Enter submits). */
export function SearchForm({ 'aria-label': ariaLabel, hint, value, onChange, onSubmit }: SearchFormProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <search aria-label={ariaLabel}>
      <form onSubmit={submit} data-allow-enter className="form-grid">
        <TextField label="Pesquisar" hint={hint} type="search" value={value} onChange={(e) => onChange(e.target.value)} />
        <div className="form-actions" style={{ alignSelf: 'end', marginTop: 0 }}>
          <Button type="submit" variant="secondary" icon="search">
            Pesquisar
          </Button>
        </div>
      </form>
    </search>
  );
}
