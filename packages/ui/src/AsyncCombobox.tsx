import { type CSSProperties, type KeyboardEvent, type MouseEvent, useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { cx } from './cx';
import { Icon } from './Icon';
import { Spinner } from './Spinner';

export type AsyncComboboxOption = { value: string; label: string; description?: string };

export type AsyncComboboxProps = {
  id?: string;
  /** Accessible name (aria-label of the input and the list). Or pass `aria-labelledby`, or point a <label for={id}> at it. */
  label?: string;
  'aria-labelledby'?: string;
  /** The selected value, or null. */
  value: string | null;
  /** Text of the current value, shown without a fetch (e.g. the product's name from the loaded record). */
  selectedLabel?: string;
  /**
   * Options for a search text ('' when the list is opened without typing). Called after `debounceMs`;
   * the previous call's signal is aborted, and a stale answer is ignored even if it does not abort.
   */
  loadOptions: (query: string, signal: AbortSignal) => Promise<AsyncComboboxOption[]>;
  /** A choice (with its option) or null when cleared (the text emptied and confirmed, or the clear button). */
  onChange: (value: string | null, option?: AsyncComboboxOption) => void;
  placeholder?: string;
  disabled?: boolean;
  required?: boolean;
  invalid?: boolean;
  /** Ids for aria-describedby (hint, error). */
  describedBy?: string;
  /** Search only from this many typed characters; default 0. */
  minChars?: number;
  /** Wait after the last keystroke; default 200 ms. */
  debounceMs?: number;
  /** Text when a search finds nothing; default 'Nenhum resultado'. */
  emptyText?: string;
  /** Submits the value in a hidden input. */
  name?: string;
  className?: string;
};

type Status = 'idle' | 'short' | 'loading' | 'done' | 'error';

export const COMBOBOX_LOAD_ERROR = 'Não foi possível carregar as opções.';

const resultsText = (n: number) => (n === 1 ? '1 resultado' : `${n} resultados`);

/**
 * Searchable reference picker over a server-side list (WAI-ARIA 1.2 combobox with a listbox popup,
 * list autocomplete without automatic selection). It never loads all options: each search calls
 * `loadOptions(query, signal)`, debounced, aborting the previous one.
 *
 * Keyboard: typing searches; ArrowDown/ArrowUp open the list and move the active option
 * (aria-activedescendant); Enter selects it; Escape closes the list, and a second Escape puts the
 * selected label back in place of the typed text; Tab leaves without changing the value (the typed
 * text is dropped). Emptying the text and pressing Enter or leaving clears the value. Loading, 'N
 * resultados' and the empty state are announced (aria-live polite).
 */
export function AsyncCombobox({
  id,
  label,
  'aria-labelledby': labelledBy,
  value,
  selectedLabel,
  loadOptions,
  onChange,
  placeholder,
  disabled = false,
  required,
  invalid,
  describedBy,
  minChars = 0,
  debounceMs = 200,
  emptyText = 'Nenhum resultado',
  name,
  className,
}: AsyncComboboxProps) {
  const auto = useId();
  const base = id ?? `combobox${auto.replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const listId = `${base}-opcoes`;
  const optionId = (index: number) => `${base}-opcao-${index}`;

  // Text typed since the last choice; null: the input shows the selected label.
  const [typed, setTyped] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [options, setOptions] = useState<AsyncComboboxOption[]>([]);
  const [active, setActive] = useState(-1);
  const [status, setStatus] = useState<Status>('idle');
  const [popupStyle, setPopupStyle] = useState<CSSProperties>();

  // The label of a value chosen here, for when the caller does not pass `selectedLabel`.
  const [chosen, setChosen] = useState<AsyncComboboxOption | null>(null);
  const displayLabel = value === null ? '' : (selectedLabel ?? (chosen && chosen.value === value ? chosen.label : value));
  const inputValue = typed ?? displayLabel;

  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const controller = useRef<AbortController | null>(null);
  const loadRef = useRef(loadOptions);
  loadRef.current = loadOptions;

  const cancelPending = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
    controller.current?.abort();
    controller.current = null;
  }, []);

  useEffect(() => cancelPending, [cancelPending]);

  /** Searches `query`, after `delay` ms; anything still pending is cancelled first. */
  const search = useCallback(
    (query: string, delay: number) => {
      cancelPending();
      setActive(-1);
      if (query.trim().length < minChars) {
        setOptions([]);
        setStatus('short');
        return;
      }
      const run = () => {
        timer.current = undefined;
        const current = new AbortController();
        controller.current = current;
        setStatus('loading');
        loadRef.current(query, current.signal).then(
          (result) => {
            if (controller.current !== current || current.signal.aborted) return;
            controller.current = null;
            setOptions(result);
            setActive(-1);
            setStatus('done');
          },
          () => {
            if (controller.current !== current || current.signal.aborted) return;
            controller.current = null;
            setOptions([]);
            setStatus('error');
          },
        );
      };
      if (delay > 0) timer.current = setTimeout(run, delay);
      else run();
    },
    [cancelPending, minChars],
  );

  const openList = (query: string, delay: number) => {
    setOpen(true);
    search(query, delay);
  };

  const closeList = () => {
    cancelPending();
    setOpen(false);
    setActive(-1);
    setStatus((s) => (s === 'loading' ? 'idle' : s));
  };

  const select = (option: AsyncComboboxOption) => {
    closeList();
    setTyped(null);
    setChosen(option);
    if (option.value !== value) onChange(option.value, option);
  };

  const clear = () => {
    closeList();
    setTyped(null);
    setChosen(null);
    if (value !== null) onChange(null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        event.preventDefault();
        if (!open) {
          if (!event.altKey || event.key === 'ArrowDown') openList(typed ?? '', 0);
          return;
        }
        if (event.altKey) {
          if (event.key === 'ArrowUp') closeList();
          return;
        }
        if (options.length === 0) return;
        const last = options.length - 1;
        setActive((i) => (event.key === 'ArrowDown' ? (i >= last ? 0 : i + 1) : i <= 0 ? last : i - 1));
        return;
      }
      case 'Enter': {
        if (!open) {
          if (typed !== null && typed.trim() === '' && value !== null) {
            event.preventDefault();
            clear();
          }
          return;
        }
        event.preventDefault();
        const option = options[active];
        if (option) select(option);
        else if ((typed ?? '').trim() === '' && value !== null) clear();
        return;
      }
      case 'Escape': {
        if (open) {
          event.preventDefault();
          closeList();
        } else if (typed !== null) {
          event.preventDefault();
          setTyped(null);
        }
        return;
      }
      default:
        return;
    }
  };

  const onBlur = () => {
    if (typed !== null && typed.trim() === '' && value !== null) clear();
    else {
      closeList();
      setTyped(null);
    }
  };

  // Keep our own buttons and the list from taking the focus away from the input.
  const keepFocus = (event: MouseEvent) => event.preventDefault();

  // The active option stays visible while moving with the arrows.
  useEffect(() => {
    if (active < 0) return;
    listRef.current?.children[active]?.scrollIntoView?.({ block: 'nearest' });
  }, [active]);

  // The popup is position: fixed (a table cell's scroller would clip it), placed under the input, or
  // above it when there is more room there.
  useLayoutEffect(() => {
    if (!open) return;
    const place = () => {
      const input = inputRef.current;
      if (!input) return;
      const rect = input.getBoundingClientRect();
      const below = window.innerHeight - rect.bottom;
      const above = rect.top;
      const up = below < 200 && above > below;
      const room = Math.max((up ? above : below) - 12, 120);
      setPopupStyle({
        left: rect.left,
        width: Math.max(rect.width, 240),
        maxHeight: Math.min(room, 352),
        ...(up ? { bottom: window.innerHeight - rect.top + 4 } : { top: rect.bottom + 4 }),
      });
    };
    place();
    window.addEventListener('scroll', place, true);
    window.addEventListener('resize', place);
    return () => {
      window.removeEventListener('scroll', place, true);
      window.removeEventListener('resize', place);
    };
  }, [open]);

  const announcement = !open
    ? ''
    : status === 'loading'
      ? 'Carregando…'
      : status === 'short'
        ? `Digite ao menos ${minChars} ${minChars === 1 ? 'caractere' : 'caracteres'} para pesquisar.`
        : status === 'error'
          ? COMBOBOX_LOAD_ERROR
          : status === 'done'
            ? options.length === 0
              ? emptyText
              : resultsText(options.length)
            : '';

  const visibleStatus =
    status === 'loading' && options.length === 0 ? (
      <>
        <Spinner size="sm" decorative />
        Carregando…
      </>
    ) : status === 'done' && options.length === 0 ? (
      emptyText
    ) : status === 'short' || status === 'error' ? (
      announcement
    ) : null;

  const activeOption = open && active >= 0 && active < options.length ? optionId(active) : undefined;

  return (
    <div
      className={cx(
        'combobox',
        open && 'combobox--open',
        value !== null && !disabled && 'combobox--has-value',
        invalid && 'combobox--invalid',
        disabled && 'combobox--disabled',
        className,
      )}
    >
      <div className="combobox__control">
        <input
          ref={inputRef}
          id={base}
          type="text"
          role="combobox"
          className="input combobox__input"
          value={inputValue}
          placeholder={placeholder}
          disabled={disabled}
          autoComplete="off"
          autoCorrect="off"
          spellCheck={false}
          aria-label={labelledBy ? undefined : label}
          aria-labelledby={labelledBy}
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={activeOption}
          aria-invalid={invalid || undefined}
          aria-required={required || undefined}
          aria-describedby={describedBy}
          onChange={(event) => {
            const text = event.target.value;
            setTyped(text);
            openList(text, debounceMs);
          }}
          onKeyDown={onKeyDown}
          onBlur={onBlur}
        />
        <span className="combobox__buttons">
          {value !== null && !disabled ? (
            <button
              type="button"
              tabIndex={-1}
              className="combobox__button"
              aria-label={label ? `Limpar ${label}` : 'Limpar'}
              title="Limpar"
              onMouseDown={keepFocus}
              onClick={() => {
                clear();
                inputRef.current?.focus();
              }}
            >
              <Icon name="x" size={16} />
            </button>
          ) : null}
          <button
            type="button"
            tabIndex={-1}
            className="combobox__button"
            aria-label={label ? `Mostrar opções de ${label}` : 'Mostrar opções'}
            aria-controls={listId}
            aria-expanded={open}
            disabled={disabled}
            onMouseDown={keepFocus}
            onClick={() => {
              inputRef.current?.focus();
              if (open) closeList();
              else openList(typed ?? '', 0);
            }}
          >
            <Icon name="chevron-down" size={18} className="combobox__chevron" />
          </button>
        </span>
      </div>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: only keeps the focus in the input while the pointer picks an option */}
      <div className="combobox__popup" hidden={!open} style={popupStyle} onMouseDown={keepFocus}>
        <div
          ref={listRef}
          id={listId}
          role="listbox"
          className="combobox__list"
          aria-label={labelledBy ? undefined : label}
          aria-labelledby={labelledBy}
          aria-busy={status === 'loading' || undefined}
        >
          {options.map((option, index) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard acts on the combobox input (aria-activedescendant)
            // biome-ignore lint/a11y/useFocusableInteractive: options are never focused; the input points at the active one (aria-activedescendant)
            <div
              key={option.value}
              id={optionId(index)}
              role="option"
              className="combobox__option"
              aria-selected={index === active}
              data-active={index === active || undefined}
              data-current={option.value === value || undefined}
              onMouseMove={() => {
                if (index !== active) setActive(index);
              }}
              onClick={() => select(option)}
            >
              <span className="combobox__option-label">{option.label}</span>
              {option.description ? <span className="combobox__option-description">{option.description}</span> : null}
              {option.value === value ? <Icon name="check" size={16} className="combobox__check" /> : null}
            </div>
          ))}
        </div>
        {visibleStatus ? (
          <p className="combobox__status" aria-hidden="true">
            {visibleStatus}
          </p>
        ) : null}
      </div>
      <span className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
        {announcement}
      </span>
      {name ? <input type="hidden" name={name} value={value ?? ''} /> : null}
    </div>
  );
}
