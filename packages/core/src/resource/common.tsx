// Pieces shared by the list and form pages of the resource kit (lazy chunk).
import { Button } from '@app/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { api, apiErrorMessage } from '../api';
import { toast } from '../toast/queue';
import type { ResourceConfig, ResourceOptionsSource } from './types';

type Row = Record<string, unknown>;
export interface PageBody<T = Row> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** '/registros/grupos' → 'registros/grupos' (ky's prefix is '/api'). */
export const apiPath = (endpoint: string) => endpoint.replace(/^\/+/, '');

export const queryKeys = {
  all: (endpoint: string) => ['resource', endpoint] as const,
  list: (endpoint: string, params: Record<string, string>) => ['resource', endpoint, 'list', params] as const,
  item: (endpoint: string, id: string) => ['resource', endpoint, 'item', id] as const,
  options: (endpoint: string, params: Record<string, string>) => ['resource', endpoint, 'options', params] as const,
};

export function recordLabel(config: ResourceConfig, row: Row): string {
  if (config.recordLabel) return config.recordLabel(row);
  const first = config.columns[0];
  if (!first) return String(row.id ?? '');
  const value = first.value ? first.value(row) : row[first.key];
  return value === null || value === undefined ? '' : String(value);
}

/** Where the list of this resource is, with the query string it had last (so Voltar keeps filters). */
export function listHref(config: ResourceConfig): string {
  // '' is the plugin's base itself (wouter resolves hrefs against the nested base)
  const base = (config.base ?? '').replace(/\/+$/, '');
  let search = '';
  try {
    search = sessionStorage.getItem(listStateKey(config)) ?? '';
  } catch {
    // storage unavailable: the default list
  }
  return search ? `${base}?${search}` : base;
}
export const listStateKey = (config: ResourceConfig) => `compras:lista:${config.endpoint}`;
export const newHref = (config: ResourceConfig) => `${(config.base ?? '').replace(/\/+$/, '')}/new`;
export const editHref = (config: ResourceConfig, id: string) => `${(config.base ?? '').replace(/\/+$/, '')}/edit/${encodeURIComponent(id)}`;

/** Active records of another resource as select options (+ the current value when it is inactive). */
export function useResourceOptions(
  source: ResourceOptionsSource,
  values: Row,
  current: string[],
  selfId: string | undefined,
): { options: { value: string; label: string }[]; loading: boolean; error: unknown; truncated: boolean } {
  const extra = typeof source.params === 'function' ? source.params(values) : (source.params ?? {});
  const params: Record<string, string> = { ativo: 'true', pageSize: '200' };
  if (source.sort) params.sort = source.sort;
  for (const [k, v] of Object.entries(extra)) if (v !== undefined && v !== null && v !== '') params[k] = String(v);
  const list = useQuery({
    queryKey: queryKeys.options(source.endpoint, params),
    queryFn: ({ signal }) => api.get(apiPath(source.endpoint), { searchParams: params, signal }).json<PageBody>(),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const items = list.data?.items ?? [];
  const missing = current.filter((id) => id && !items.some((row) => row.id === id));
  const extraRows = useQuery({
    queryKey: ['resource', source.endpoint, 'option-items', missing],
    enabled: missing.length > 0 && !list.isFetching,
    queryFn: async ({ signal }) =>
      Promise.all(
        missing.map((id) =>
          api
            .get(`${apiPath(source.endpoint)}/${encodeURIComponent(id)}`, { signal })
            .json<Row>()
            .catch(() => null),
        ),
      ),
    staleTime: 30_000,
  });
  const options = items
    .filter((row) => !(source.excludeSelf && selfId && row.id === selfId))
    .map((row) => ({ value: String(row.id), label: source.label(row) }));
  for (const row of extraRows.data ?? []) {
    if (row && !options.some((o) => o.value === row.id)) {
      options.push({ value: String(row.id), label: `${source.label(row)}${row.ativo === false ? ' (inativo)' : ''}` });
    }
  }
  return { options, loading: list.isLoading, error: list.error, truncated: (list.data?.total ?? 0) > items.length };
}

function fileNameOf(response: Response, fallback: string): string {
  const header = response.headers.get('content-disposition') ?? '';
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(header);
  return match ? decodeURIComponent(match[1]!) : fallback;
}

/** Downloads `<endpoint>.<ext>?<params>` through core's ky (bearer token) and saves it. */
export async function downloadExport(endpoint: string, ext: 'csv' | 'xlsx', params: Record<string, string>): Promise<void> {
  try {
    const response = await api.get(`${apiPath(endpoint)}.${ext}`, { searchParams: params });
    const blob = await response.blob();
    const name = fileNameOf(response, `${apiPath(endpoint).split('/').pop()}.${ext}`);
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.rel = 'noopener';
    a.style.display = 'none';
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    toast.success(`Arquivo ${name} gerado.`, 'Exportação');
  } catch (error) {
    toast.error(apiErrorMessage(error, 'Não foi possível exportar a lista.'));
  }
}

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  variant?: 'danger' | 'primary';
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A small modal confirmation (role alertdialog): Esc or 'Cancelar' closes, focus starts on Cancelar. */
export function ConfirmDialog({ open, title, children, confirmLabel, variant = 'danger', busy, onConfirm, onCancel }: ConfirmDialogProps) {
  const titleId = useId();
  const bodyId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    cancelRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        onCancel();
      } else if (event.key === 'Tab' && panelRef.current) {
        // keep the focus inside the dialog
        const focusables = [...panelRef.current.querySelectorAll<HTMLElement>('button:not([disabled])')];
        if (focusables.length === 0) return;
        const first = focusables[0]!;
        const last = focusables[focusables.length - 1]!;
        if (event.shiftKey && document.activeElement === first) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && document.activeElement === last) {
          event.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
  }, [open, onCancel]);
  if (!open) return null;
  return (
    <div
      style={{
        position: 'fixed',
        inset: 0,
        zIndex: 1000,
        display: 'grid',
        placeItems: 'center',
        padding: '1rem',
        background: 'rgb(0 0 0 / 0.45)',
      }}
    >
      <div
        ref={panelRef}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={children ? bodyId : undefined}
        className="card"
        style={{ maxWidth: '28rem', width: '100%' }}
      >
        <div className="card__body">
          <h2 id={titleId} className="card__title">
            {title}
          </h2>
          {children ? (
            <div id={bodyId} style={{ marginTop: '0.75rem' }}>
              {children}
            </div>
          ) : null}
          <div className="form-actions">
            <Button ref={cancelRef} variant="secondary" onClick={onCancel}>
              Cancelar
            </Button>
            <Button variant={variant} loading={busy} onClick={onConfirm}>
              {confirmLabel}
            </Button>
          </div>
        </div>
      </div>
    </div>
  );
}
