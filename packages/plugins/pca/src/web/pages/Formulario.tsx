// What the plan's own tables and forms share (the contratações planejadas, the lines added without DFD):
// the actions column, the form with its two buttons, and the PCA category select.
import { Button, type DataTableColumn, SelectField, type SelectFieldProps } from '@app/ui';
import type { ReactNode } from 'react';
import { CATEGORIA_ITEM_PCA } from '../../shared/index.js';

const OPCOES_CATEGORIA = Object.entries(CATEGORIA_ITEM_PCA).map(([value, label]) => ({ value, label }));

/** The PCA category of a contratação or of a line added without DFD. */
export const CampoCategoria = (props: Pick<SelectFieldProps, 'value' | 'onChange' | 'error'>) => (
  <SelectField label="Categoria" required options={OPCOES_CATEGORIA} {...props} />
);

/** The 'Ações' column of a table, while the plan may change. */
export const colunaAcoes = <T,>(editavel: boolean, render: (row: T) => ReactNode): DataTableColumn<T>[] =>
  editavel ? [{ key: 'acoes', header: 'Ações', render }] : [];

type Props = { rotulo: string; enviar: string; ocupado: boolean; salvar: () => unknown; fechar: () => void; children: ReactNode };

/** A form of the plan's panel: its fields, then `enviar` (submits, busy while `ocupado`) and 'Fechar sem salvar'. */
export function Formulario({ rotulo, enviar, ocupado, salvar, fechar, children }: Props) {
  return (
    <form
      className="stack"
      aria-label={rotulo}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void salvar();
      }}
    >
      {children}
      <div className="button-row">
        <Button type="submit" variant="primary" loading={ocupado}>
          {enviar}
        </Button>
        <Button type="button" variant="secondary" onClick={fechar}>
          Fechar sem salvar
        </Button>
      </div>
    </form>
  );
}
