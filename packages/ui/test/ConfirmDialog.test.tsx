import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog, type ConfirmDialogProps, type ConfirmOptions, confirmDialog, useConfirm } from '../src/ConfirmDialog';

function Harness(props: Partial<ConfirmDialogProps> & { onConfirm?: ConfirmDialogProps['onConfirm'] }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Excluir registro
      </button>
      <ConfirmDialog
        title="Excluir o registro?"
        description="Esta ação não pode ser desfeita."
        onConfirm={() => {}}
        {...props}
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          props.onOpenChange?.(next);
        }}
      />
    </>
  );
}

function ReasonDialog({ pending }: { pending: () => Promise<boolean> }) {
  const [open, setOpen] = useState(true);
  const [motivo, setMotivo] = useState('');
  const [erro, setErro] = useState('');
  return open ? (
    <ConfirmDialog
      open
      onOpenChange={setOpen}
      title="Cancelar o pedido?"
      confirmLabel="Cancelar pedido"
      cancelLabel="Voltar"
      onConfirm={() => {
        if (!motivo.trim()) {
          setErro('Informe o motivo.');
          return false;
        }
        return pending();
      }}
    >
      <label htmlFor="motivo">Motivo</label>
      <textarea id="motivo" value={motivo} onChange={(e) => setMotivo(e.target.value)} />
      {erro ? <p>{erro}</p> : null}
    </ConfirmDialog>
  ) : (
    <p>fechado</p>
  );
}

/** A button that asks `ask` with useConfirm. */
function AskPage({
  ask,
  label,
  onAsk,
  onAnswer,
}: {
  ask: ConfirmOptions;
  label: string;
  onAsk?: (answer: Promise<boolean>) => void;
  onAnswer?: (answer: boolean) => void;
}) {
  const [element, confirm] = useConfirm();
  return (
    <>
      <button
        type="button"
        onClick={async () => {
          const answer = confirm(ask);
          onAsk?.(answer);
          onAnswer?.(await answer);
        }}
      >
        {label}
      </button>
      {element}
    </>
  );
}

describe('ConfirmDialog', () => {
  it('is a labelled alertdialog; danger tone focuses Cancelar; Escape cancels and focus returns to the trigger', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    const onOpenChange = vi.fn();
    render(<Harness tone="danger" confirmLabel="Excluir" onConfirm={onConfirm} onOpenChange={onOpenChange} />);
    const trigger = screen.getByRole('button', { name: 'Excluir registro' });
    await user.click(trigger);

    const dialog = await screen.findByRole('alertdialog', { name: 'Excluir o registro?' });
    expect(dialog.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(dialog.getAttribute('aria-describedby')!)?.textContent).toBe('Esta ação não pode ser desfeita.');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancelar' }));
    expect(screen.getByRole('button', { name: 'Excluir' }).className).toContain('button--danger');

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
    expect(onConfirm).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(trigger);
  });

  it('default tone focuses the confirm button; confirming calls onConfirm and closes', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    render(<Harness onConfirm={onConfirm} description={undefined} />);
    await user.click(screen.getByRole('button', { name: 'Excluir registro' }));
    const dialog = await screen.findByRole('alertdialog');
    // no description: no dangling aria-describedby
    expect(dialog.hasAttribute('aria-describedby')).toBe(false);
    const confirm = screen.getByRole('button', { name: 'Confirmar' });
    expect(document.activeElement).toBe(confirm);
    expect(confirm.className).toContain('button--primary');
    await user.keyboard('{Enter}');
    expect(onConfirm).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('keeps the focus inside while open (Tab cycles between the buttons)', async () => {
    const user = userEvent.setup();
    render(<Harness tone="danger" />);
    await user.click(screen.getByRole('button', { name: 'Excluir registro' }));
    await screen.findByRole('alertdialog');
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Confirmar' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancelar' }));
  });

  it('children (a required reason): onConfirm returning false keeps it open; a pending promise shows busy', async () => {
    const user = userEvent.setup();
    let release: (v: boolean) => void = () => {};
    // StrictMode: effects run twice; the dialog must still close when the promise settles
    render(
      <StrictMode>
        <ReasonDialog
          pending={() =>
            new Promise<boolean>((resolve) => {
              release = resolve;
            })
          }
        />
      </StrictMode>,
    );
    await screen.findByRole('alertdialog', { name: 'Cancelar o pedido?' });
    // default tone with a field: the field gets the focus
    expect(document.activeElement).toBe(screen.getByLabelText('Motivo'));
    await user.click(screen.getByRole('button', { name: 'Cancelar pedido' }));
    expect(screen.getByText('Informe o motivo.')).toBeTruthy();
    expect(screen.getByRole('alertdialog')).toBeTruthy();

    await user.type(screen.getByLabelText('Motivo'), 'Duplicado');
    await user.click(screen.getByRole('button', { name: 'Cancelar pedido' }));
    const busy = screen.getByRole('button', { name: 'Cancelar pedido' });
    await waitFor(() => expect(busy.getAttribute('aria-busy')).toBe('true'));
    expect((screen.getByRole('button', { name: 'Voltar' }) as HTMLButtonElement).disabled).toBe(true);
    // Escape is ignored while pending
    await user.keyboard('{Escape}');
    expect(screen.getByRole('alertdialog')).toBeTruthy();
    await act(async () => release(true));
    await waitFor(() => expect(screen.getByText('fechado')).toBeTruthy());
  });
});

describe('useConfirm', () => {
  it('resolves true on confirm and false on cancel', async () => {
    const user = userEvent.setup();
    const results: boolean[] = [];
    render(<AskPage ask={{ title: 'Remover o item?', tone: 'danger', confirmLabel: 'Remover' }} label="Remover" onAnswer={(r) => results.push(r)} />);
    const trigger = screen.getByRole('button', { name: 'Remover' });
    await user.click(trigger);
    await screen.findByRole('alertdialog', { name: 'Remover o item?' });
    await user.click(screen.getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(results).toEqual([false]));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(document.activeElement).toBe(trigger);

    await user.click(trigger);
    const dialog = await screen.findByRole('alertdialog');
    await user.click(screen.getAllByRole('button', { name: 'Remover' }).find((b) => dialog.contains(b))!);
    await waitFor(() => expect(results).toEqual([false, true]));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('resolves false when the component unmounts with a question pending', async () => {
    let pending: Promise<boolean> | undefined;
    const { unmount } = render(<AskPage ask={{ title: 'Sair?' }} label="Sair" onAsk={(p) => (pending = p)} />);
    await userEvent.click(screen.getByRole('button', { name: 'Sair' }));
    await screen.findByRole('alertdialog', { name: 'Sair?' });
    unmount();
    await expect(pending).resolves.toBe(false);
  });
});

describe('confirmDialog', () => {
  it('mounts into document.body without a React tree, resolves and removes itself', async () => {
    const user = userEvent.setup();
    const link = document.createElement('a');
    link.href = '#x';
    link.textContent = 'Produtos';
    document.body.append(link);
    link.focus();

    let answer = confirmDialog({ title: 'Sair sem salvar?', description: 'As alterações serão perdidas.', confirmLabel: 'Sair' });
    const dialog = await screen.findByRole('alertdialog', { name: 'Sair sem salvar?' });
    expect(dialog.textContent).toContain('As alterações serão perdidas.');
    await user.click(screen.getByRole('button', { name: 'Sair' }));
    await expect(answer).resolves.toBe(true);
    await waitFor(() => expect(document.querySelector('[data-confirm-dialog]')).toBeNull());
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(link);

    answer = confirmDialog({ title: 'Sair sem salvar?' });
    await screen.findByRole('alertdialog');
    await user.keyboard('{Escape}');
    await expect(answer).resolves.toBe(false);
    await waitFor(() => expect(document.querySelector('[data-confirm-dialog]')).toBeNull());
    expect(document.activeElement).toBe(link);
    link.remove();
  });
});
