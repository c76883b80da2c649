/**
 * Enter blocking (spec §5): pressing Enter inside a form field must not submit the form.
 *
 * A document-level `keydown` listener (capture phase) calls `preventDefault()` on Enter when the
 * target is an `<input>` that belongs to a form and whose type is one of {@link ENTER_BLOCKED_INPUT_TYPES}:
 *
 *   text, email, number, password, search, tel, url, date, datetime-local, month, week, time,
 *   color, range, checkbox, radio, file (and any unknown type, which browsers treat as text).
 *
 * Enter is left alone (default behaviour kept) for:
 * - `<textarea>` (new line), `<select>`, `<button>` (any type), links (`<a>`), contenteditable;
 * - `<input type="submit" | "button" | "reset" | "image">` (they are buttons);
 * - inputs that are not inside a form (nothing to submit);
 * - any element inside (or being) an element with `data-allow-enter` (e.g. the sign-in form:
 *   `<form data-allow-enter>`), unless its value is "false";
 * - IME composition (`isComposing`) and events already prevented.
 *
 * Only the default action is prevented: the event still propagates, so a field's own
 * `onKeyDown` handler for Enter keeps working.
 */
export const ENTER_BLOCKED_INPUT_TYPES: readonly string[] = [
  'text',
  'email',
  'number',
  'password',
  'search',
  'tel',
  'url',
  'date',
  'datetime-local',
  'month',
  'week',
  'time',
  'color',
  'range',
  'checkbox',
  'radio',
  'file',
];

/** Input types that act as buttons: Enter keeps its default there. */
export const ENTER_ALLOWED_INPUT_TYPES: readonly string[] = ['submit', 'button', 'reset', 'image'];

/** Pure decision: should Enter on this target be blocked? */
export function shouldBlockEnter(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target.tagName !== 'INPUT') return false;
  const input = target as HTMLInputElement;
  if (!input.form) return false;
  const optIn = input.closest('[data-allow-enter]');
  if (optIn && optIn.getAttribute('data-allow-enter') !== 'false') return false;
  const type = (input.getAttribute('type') ?? 'text').toLowerCase();
  if (ENTER_ALLOWED_INPUT_TYPES.includes(type)) return false;
  return true;
}

export function handleEnterKeydown(event: KeyboardEvent): void {
  if (event.key !== 'Enter' || event.defaultPrevented || event.isComposing) return;
  if (shouldBlockEnter(event.target)) event.preventDefault();
}

/** Installs the capture-phase listener; returns the uninstaller. */
export function installEnterBlocking(doc: Document = document): () => void {
  doc.addEventListener('keydown', handleEnterKeydown, true);
  return () => doc.removeEventListener('keydown', handleEnterKeydown, true);
}
