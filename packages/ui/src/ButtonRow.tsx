import type { ReactNode } from 'react';
import { Button, type ButtonProps } from './Button';

/** A button of a `ButtonRow`: Button's props, its text as `label`, `show: false` to leave it out. */
export type ButtonRowAction = Omit<ButtonProps, 'children'> & { label: ReactNode; show?: boolean };

/**
 * The actions of a row or a header as one declaration: small buttons (`size`, default 'sm') in a
 * `.button-row`, each shown unless `show` is false.
 *
 *   <ButtonRow actions={[{ label: 'Remover', icon: 'trash', variant: 'ghost', show: podeEditar, onClick: remover }]} />
 */
export function ButtonRow({
  actions,
  size = 'sm',
  variant = 'ghost',
}: {
  actions: ButtonRowAction[];
  size?: ButtonProps['size'];
  variant?: ButtonProps['variant'];
}) {
  const shown = actions.filter((a) => a.show !== false);
  if (shown.length === 0) return null;
  return (
    <div className="button-row">
      {shown.map(({ label, show: _show, ...props }, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of actions
        <Button key={i} size={size} variant={variant} {...props}>
          {label}
        </Button>
      ))}
    </div>
  );
}
