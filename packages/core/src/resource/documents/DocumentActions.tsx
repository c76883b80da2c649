// The action bar of a document's Edit page: exactly the transitions the server says this person may
// perform on this record now (`transicoes`), then Duplicar and Imprimir (PDF). The transitions run
// through useDocumentTransition (the same hook a custom page uses).
import type { FlowTransitionDefinition } from '@app/documents';
import { Button, ConfirmDialog, TextareaField } from '@app/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { api, apiErrorMessage } from '../../api';
import { queryKeys } from '../../queryKeys';
import { useSomenteLeitura } from '../../routing/RouteMeta';
import { toast } from '../../toast/queue';
import { apiPath, downloadFile, editHref } from '../common';
import { OFFLINE_MESSAGE, isOfflineError } from '../form/offline';
import type { RecordSlotContext } from '../types';
import { useDocumentTransition } from './hooks';
import type { DocumentInfo } from './info';
import { numeroOf } from './numero';

type Row = Record<string, unknown>;

export type { DocumentInfo } from './info';

const lowerFirst = (s: string) => (/^.[\p{Ll}\s]/u.test(s) || s.length === 1 ? s.charAt(0).toLowerCase() + s.slice(1) : s);

/** Opens GET <endpoint>/:id.pdf in a new tab (through the API client: see downloadFile). */
export function openPdf(endpoint: string, id: string, fileLabel: string): Promise<void> {
  return downloadFile(`${endpoint}/${encodeURIComponent(id)}.pdf`, { fileName: `${fileLabel}.pdf`, errorMessage: 'Não foi possível gerar o PDF.', open: true });
}

interface Pending {
  name: string;
  transition: FlowTransitionDefinition<string, string>;
  motivo: string;
  error: string | null;
  /** More body fields from the plugin's dialog content (doc.transitionDialog) and the server's errors on them. */
  body: Row;
  errors: Record<string, string>;
  /** Fields the dialog content still requires (TransitionDialogState.require): checked before sending. */
  required: Record<string, string>;
}

export default function DocumentActions({ doc, record, ctx }: { doc: DocumentInfo; record: Row; ctx: RecordSlotContext }) {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  // the controle interno reads: it neither duplicates nor moves a document (its `transicoes` are empty)
  const somenteLeitura = useSomenteLeitura();
  const [pending, setPending] = useState<Pending | null>(null);
  const [duplicating, setDuplicating] = useState(false);
  const [printing, setPrinting] = useState(false);
  const id = String(record.id);
  const numero = numeroOf(record);
  const documento = doc.documento;
  const base = `${apiPath(doc.endpoint)}/${encodeURIComponent(id)}`;
  const transitions = useDocumentTransition(doc, record);

  const blockedByChanges = (action: string) => {
    if (!ctx.dirty) return false;
    toast.info(`Salve as alterações antes de ${lowerFirst(action)}.`, 'Alterações não salvas');
    return true;
  };

  const ask = (name: string) => {
    const transition = doc.flow.transitions[name];
    if (!transition || blockedByChanges(transition.label)) return;
    setPending({ name, transition, motivo: '', error: null, body: {}, errors: {}, required: {} });
  };

  /** Performs the pending transition; false keeps the dialog open (a missing reason, a field of the dialog). */
  const perform = async (): Promise<boolean> => {
    if (!pending) return true;
    const { name } = pending;
    if (Object.keys(pending.required).length) {
      setPending({ ...pending, errors: pending.required });
      return false;
    }
    const result = await transitions.run(name, { motivo: pending.transition.reason ? pending.motivo : undefined, body: pending.body });
    if (result.ok) {
      ctx.setRecord(result.record);
      // a transition answers without what GET /:id adds (expandOne: a plan's items, totals…): read it again
      void ctx.reload().catch(() => undefined);
      toast.success(doc.transitionDone?.(name, result.record) ?? transitions.doneMessage(name, result.record));
      return true;
    }
    if (result.reason === 'offline') {
      toast.error(OFFLINE_MESSAGE, 'Sem conexão');
      return false;
    }
    if (result.reason === 'invalid' && result.fields.motivo) {
      setPending({ ...pending, error: result.fields.motivo });
      return false;
    }
    // a field of the plugin's dialog content (e.g. an acknowledgement): shown there, the dialog stays open
    if (result.reason === 'invalid' && doc.transitionDialog) {
      setPending({ ...pending, errors: result.fields });
      return false;
    }
    toast.error(result.message);
    // the record moved on (another person, another tab): show what it is now
    if (result.reason === 'refused' || result.reason === 'stale') await ctx.reload().catch(() => undefined);
    return true;
  };

  const duplicate = async () => {
    if (duplicating || blockedByChanges('duplicar')) return;
    setDuplicating(true);
    try {
      const created = await api.post(`${base}/duplicar`).json<Row>();
      toast.success(`${documento} ${numeroOf(created)} ${doc.feminino ? 'criada' : 'criado'} a partir de ${numero}.`);
      queryClient.setQueryData(queryKeys.document(doc.endpoint, String(created.id)), created);
      void queryClient.invalidateQueries({ queryKey: queryKeys.all(doc.endpoint) });
      navigate(editHref({ base: doc.base }, String(created.id)));
    } catch (error) {
      toast.error(
        isOfflineError(error) ? OFFLINE_MESSAGE : apiErrorMessage(error, `Não foi possível duplicar ${doc.feminino ? 'a' : 'o'} ${lowerFirst(documento)}.`),
      );
    } finally {
      setDuplicating(false);
    }
  };

  const print = async () => {
    setPrinting(true);
    try {
      await openPdf(doc.endpoint, id, `${lowerFirst(documento)}-${numero.replace('/', '-')}`);
    } finally {
      setPrinting(false);
    }
  };

  const t = pending?.transition;
  return (
    <>
      {transitions.available.map((name) => {
        const transition = doc.flow.transitions[name]!;
        const variant = transition.tone === 'danger' ? 'danger' : transition.tone === 'primary' ? 'primary' : 'secondary';
        return (
          <Button key={name} variant={variant} onClick={() => ask(name)}>
            {transition.label}
          </Button>
        );
      })}
      {doc.duplicate && !somenteLeitura ? (
        <Button variant="secondary" icon="plus" loading={duplicating} onClick={() => void duplicate()}>
          Duplicar
        </Button>
      ) : null}
      {doc.pdf ? (
        <Button variant="secondary" loading={printing} onClick={() => void print()}>
          Imprimir (PDF)
        </Button>
      ) : null}
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => (open ? undefined : setPending(null))}
        title={pending ? transitions.confirmText(pending.name) : ''}
        description={t?.reason ? 'O motivo fica registrado no histórico do documento.' : undefined}
        confirmLabel={t?.label ?? 'Confirmar'}
        cancelLabel="Voltar"
        tone={t?.tone === 'danger' ? 'danger' : 'default'}
        onConfirm={perform}
      >
        {t?.reason && pending ? (
          <TextareaField
            label="Motivo"
            required
            rows={3}
            maxLength={2000}
            value={pending.motivo}
            error={pending.error ?? undefined}
            onChange={(e) => setPending({ ...pending, motivo: e.target.value, error: null })}
          />
        ) : null}
        {pending && doc.transitionDialog
          ? doc.transitionDialog(pending.name, record, {
              body: pending.body,
              setBody: (next) => setPending((p) => (p ? { ...p, body: next, errors: {} } : p)),
              errors: pending.errors,
              require: (field, message) =>
                setPending((p) => {
                  if (!p || (p.required[field] ?? null) === message) return p;
                  const required = { ...p.required };
                  if (message === null) delete required[field];
                  else required[field] = message;
                  return { ...p, required };
                }),
            })
          : null}
      </ConfirmDialog>
    </>
  );
}
