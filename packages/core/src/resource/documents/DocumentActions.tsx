// The action bar of a document's Edit page: exactly the transitions the server says this person may
// perform on this record now (`transicoes`), then Duplicar and Imprimir (PDF).
import { type Flow, type FlowTransitionDefinition, reasonSchemaOf } from '@app/documents';
import { Button, ConfirmDialog, TextareaField } from '@app/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { api, apiErrorBody, apiErrorMessage, apiErrorStatus } from '../../api';
import { useSomenteLeitura } from '../../routing/RouteMeta';
import { toast } from '../../toast/queue';
import { apiPath, downloadFile, editHref, queryKeys } from '../common';
import { OFFLINE_MESSAGE, isOfflineError } from '../form/offline';
import { numeroOf } from './numero';
import type { RecordSlotContext } from '../types';
import type { DocumentInfo } from './info';

type Row = Record<string, unknown>;

export type { DocumentInfo } from './info';

const lowerFirst = (s: string) => (/^.[\p{Ll}\s]/u.test(s) || s.length === 1 ? s.charAt(0).toLowerCase() + s.slice(1) : s);

/** The transitions to show: those the record lists in `transicoes` that the flow declares, in the flow's order. */
export function availableTransitions(flow: Flow, record: Row): string[] {
  const listed = new Set(Array.isArray(record.transicoes) ? record.transicoes.map(String) : []);
  return flow.transitionNames.filter((name) => listed.has(name));
}

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
  const nome = `${documento} ${numero}`.trim();
  const base = `${apiPath(doc.endpoint)}/${encodeURIComponent(id)}`;

  const blockedByChanges = (action: string) => {
    if (!ctx.dirty) return false;
    toast.info(`Salve as alterações antes de ${lowerFirst(action)}.`, 'Alterações não salvas');
    return true;
  };

  const ask = (name: string) => {
    const transition = doc.flow.transitions[name];
    if (!transition || blockedByChanges(transition.label)) return;
    setPending({ name, transition, motivo: '', error: null, body: {}, errors: {} });
  };

  /** Performs the pending transition; false keeps the dialog open (a missing reason). */
  const perform = async (): Promise<boolean> => {
    if (!pending) return true;
    const { name, transition } = pending;
    let motivo: string | null = null;
    if (transition.reason) {
      const parsed = reasonSchemaOf(transition.reasonMin ?? 3).safeParse(pending.motivo);
      if (!parsed.success) {
        setPending({ ...pending, error: parsed.error.issues[0]?.message ?? 'Informe o motivo.' });
        return false;
      }
      motivo = parsed.data;
    }
    try {
      const row = await api.post(`${base}/${name}`, { json: { ...pending.body, version: record.version, ...(motivo ? { motivo } : {}) } }).json<Row>();
      ctx.setRecord(row);
      toast.success(`${nome} ${transition.done}.`);
      return true;
    } catch (error) {
      if (isOfflineError(error)) {
        toast.error(OFFLINE_MESSAGE, 'Sem conexão');
        return false;
      }
      const body = apiErrorBody(error);
      if (apiErrorStatus(error) === 400 && body?.fields?.motivo) {
        setPending({ ...pending, error: body.fields.motivo });
        return false;
      }
      // a field of the plugin's dialog content (e.g. an acknowledgement): shown there, the dialog stays open
      if (apiErrorStatus(error) === 400 && doc.transitionDialog && body?.fields && Object.keys(body.fields).length) {
        setPending({ ...pending, errors: body.fields });
        return false;
      }
      toast.error(apiErrorMessage(error, `Não foi possível ${lowerFirst(transition.label)} ${doc.feminino ? 'a' : 'o'} ${lowerFirst(documento)}.`));
      // the record moved on (another person, another tab): show what it is now
      if (apiErrorStatus(error) === 409 || apiErrorStatus(error) === 403) await ctx.reload().catch(() => undefined);
      return true;
    }
  };

  const duplicate = async () => {
    if (duplicating || blockedByChanges('duplicar')) return;
    setDuplicating(true);
    try {
      const created = await api.post(`${base}/duplicar`).json<Row>();
      toast.success(`${documento} ${numeroOf(created)} ${doc.feminino ? 'criada' : 'criado'} a partir de ${numero}.`);
      queryClient.setQueryData(queryKeys.item(doc.endpoint, String(created.id)), created);
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

  const transitions = availableTransitions(doc.flow, record);
  const t = pending?.transition;
  return (
    <>
      {transitions.map((name) => {
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
        title={t ? (t.confirm ?? `${t.label} ${lowerFirst(documento)} ${numero}?`) : ''}
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
            })
          : null}
      </ConfirmDialog>
    </>
  );
}
