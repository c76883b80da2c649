// The status of a document as a small badge with the flow's label and tone.
import type { Flow, FlowTone } from '@app/documents';

const TONES: Record<FlowTone, { background: string; color: string }> = {
  neutral: { background: 'var(--color-surface-muted, #eef1f5)', color: 'var(--color-text, #1b2431)' },
  info: { background: 'var(--color-info-subtle, #e8f1fd)', color: 'var(--color-info-text, #0c4aa6)' },
  success: { background: 'var(--color-success-subtle, #e7f5ea)', color: 'var(--color-success-text, #17622a)' },
  warning: { background: 'var(--color-warning-subtle, #fff4e0)', color: 'var(--color-warning-text, #7a3e00)' },
  danger: { background: 'var(--color-danger-subtle, #fdecea)', color: 'var(--color-danger-text, #9b1c12)' },
};

export function StatusBadge({ flow, status }: { flow: Flow; status: unknown }) {
  const state = String(status ?? '');
  const tone = (flow.isState(state) ? flow.states[state]?.tone : undefined) ?? 'neutral';
  return (
    <span
      data-status={state}
      style={{
        ...TONES[tone],
        display: 'inline-block',
        padding: '0.0625rem 0.5rem',
        borderRadius: 'var(--radius-full, 999px)',
        border: '1px solid currentColor',
        fontSize: '0.8125rem',
        fontWeight: 600,
        lineHeight: 1.5,
        whiteSpace: 'nowrap',
      }}
    >
      {flow.stateLabel(state)}
    </span>
  );
}
