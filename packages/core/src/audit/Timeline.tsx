import { formatDateTime } from '@app/br';
import { Spinner } from '@app/ui';
import { LoadErrorAlert } from '../errors/LoadErrorAlert';
import { auditEntrySummary, auditUserName, describeAuditChange, describeAuditItems, sortAuditChanges } from './describe';
import type { AuditRenderOptions, HistoryEntry, HistoryFieldChange } from './types';
import { useRecordHistory } from './useRecordHistory';

export interface AuditChangeListProps extends AuditRenderOptions {
  changes: readonly HistoryFieldChange[];
  /** The row's action ('criar' shows only new values, 'excluir' only old ones). */
  acao?: string;
  /** Accessible name of the list (default 'Alterações'). */
  label?: string;
  id?: string;
}

/** The changes of one audit row, one item per field; line items get a nested list of what happened to them. */
export function AuditChangeList({ changes, acao, label = 'Alterações', id, ...options }: AuditChangeListProps) {
  if (!changes.length) return null;
  return (
    <ul className="audit-changes" aria-label={label} id={id}>
      {sortAuditChanges(changes, options.labels).map((change) => {
        const details = describeAuditItems(change, options);
        return (
          <li key={change.campo}>
            {describeAuditChange(change, { ...options, ...(acao ? { acao } : {}) })}
            {details.length ? (
              <ul>
                {details.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

export interface TimelineProps extends AuditRenderOptions {
  /** Newest first (as recordHistory answers). */
  entries: readonly HistoryEntry[];
  /** Accessible name of the list (default 'Histórico'). */
  label?: string;
  /** Text when there is no entry. */
  emptyText?: string;
}

/**
 * A record's history: an ordered list, newest first (numbered in chronological order), each entry
 * with when (dd/mm/aaaa hh:mm, America/Sao_Paulo), who, what, the reason, and 'Campo: antes → depois'
 * per changed field, with the caller's labels.
 */
export function Timeline({ entries, label = 'Histórico', emptyText = 'Nenhum registro no histórico.', ...options }: TimelineProps) {
  if (!entries.length) return <p className="field__hint">{emptyText}</p>;
  return (
    <ol className="audit-timeline" aria-label={label} reversed>
      {entries.map((entry) => (
        <li key={entry.id} className="audit-timeline__entry" style={{ marginBottom: 'var(--space-3, 0.75rem)' }}>
          <p className="audit-timeline__head">
            <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
            {' · '}
            <strong>{auditUserName(entry)}</strong>
            {' · '}
            <span>{auditEntrySummary(entry, options)}</span>
          </p>
          {entry.motivo ? <p className="audit-timeline__reason">Motivo: {entry.motivo}</p> : null}
          <AuditChangeList changes={entry.mudancas} acao={entry.acao} label={`Alterações de ${formatDateTime(entry.at)}`} {...options} />
        </li>
      ))}
    </ol>
  );
}

export interface RecordTimelineProps extends Omit<TimelineProps, 'entries'> {
  /** The resource's endpoint, as in its page config ('/memorandos/memorandos'). */
  endpoint: string;
  /** Record id; nothing is shown (nor fetched) without one (a new record). */
  id: string | null | undefined;
}

/** `<RecordTimeline endpoint id labels actions />`: fetches GET <endpoint>/:id/historico and renders the Timeline. */
export function RecordTimeline({ endpoint, id, ...props }: RecordTimelineProps) {
  const history = useRecordHistory(endpoint, id);
  if (!id) return null;
  if (history.isError) {
    return <LoadErrorAlert title="Não foi possível carregar o histórico" error={history.error} onRetry={() => void history.refetch()} />;
  }
  if (!history.data) return <Spinner label="Carregando o histórico…" />;
  const { items, truncated } = history.data;
  return (
    <>
      <Timeline entries={items} {...props} />
      {truncated ? <p className="field__hint">Mostrando os {items.length.toLocaleString('pt-BR')} registros mais recentes.</p> : null}
    </>
  );
}
