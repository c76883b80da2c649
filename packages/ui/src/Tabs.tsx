import { type KeyboardEvent, type ReactNode, useRef } from 'react';

export type TabsProps<K extends string> = {
  /** Accessible name of the tab list. */
  label: string;
  tabs: readonly { id: K; label: ReactNode }[];
  value: K;
  onChange: (id: K) => void;
  /** Prefix of the ids of the tabs and the panel (`<idPrefix>-aba-<id>`, `<idPrefix>-painel-<id>`). */
  idPrefix: string;
  /** The selected tab's panel. */
  children: ReactNode;
};

/**
 * WAI-ARIA tabs: a tablist (arrows, Home and End move and select, roving tabindex) and the panel of
 * the selected tab.
 */
export function Tabs<K extends string>({ label, tabs, value, onChange, idPrefix, children }: TabsProps<K>) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, i: number) => {
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const j = (to + tabs.length) % tabs.length;
    onChange(tabs[j]!.id);
    refs.current[j]?.focus();
  };
  return (
    <>
      <div role="tablist" aria-label={label} className="tabs">
        {tabs.map((tab, i) => (
          <button
            key={tab.id}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${idPrefix}-aba-${tab.id}`}
            aria-controls={value === tab.id ? `${idPrefix}-painel-${tab.id}` : undefined}
            aria-selected={value === tab.id}
            tabIndex={value === tab.id ? 0 : -1}
            className="tabs__tab"
            onClick={() => onChange(tab.id)}
            onKeyDown={(e) => onKeyDown(e, i)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${idPrefix}-painel-${value}`} aria-labelledby={`${idPrefix}-aba-${value}`}>
        {children}
      </div>
    </>
  );
}
