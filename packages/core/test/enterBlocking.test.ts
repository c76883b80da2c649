import { afterEach, describe, expect, it } from 'vitest';
import { ENTER_BLOCKED_INPUT_TYPES, installEnterBlocking, shouldBlockEnter } from '../src/runtime/enterBlocking';

let uninstall: (() => void) | null = null;
afterEach(() => {
  uninstall?.();
  uninstall = null;
  document.body.innerHTML = '';
});

/** Dispatches Enter on `el`; returns true when the default (form submission) was prevented. */
function pressEnter(el: Element): boolean {
  const event = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
  el.dispatchEvent(event);
  return event.defaultPrevented;
}

function form(html: string, attrs = ''): HTMLFormElement {
  document.body.innerHTML = `<form ${attrs}>${html}<button type="submit">Salvar</button></form>`;
  return document.querySelector('form')!;
}

describe('Enter blocking', () => {
  it.each(ENTER_BLOCKED_INPUT_TYPES)('blocks Enter in <input type="%s"> inside a form', (type) => {
    uninstall = installEnterBlocking(document);
    const f = form(`<input type="${type}" />`);
    expect(pressEnter(f.querySelector('input')!)).toBe(true);
  });

  it('blocks an input without type (text) and unknown types', () => {
    uninstall = installEnterBlocking(document);
    const f = form('<input name="a" /><input type="qualquer" name="b" />');
    for (const input of f.querySelectorAll('input')) expect(pressEnter(input)).toBe(true);
  });

  it('allows textarea, select, buttons, links and button-like inputs', () => {
    uninstall = installEnterBlocking(document);
    const f = form(
      '<textarea></textarea><select><option>a</option></select><a href="#x">link</a>' +
        '<input type="submit" /><input type="button" /><input type="reset" /><input type="image" alt="ir" /><button type="button">b</button>',
    );
    for (const el of f.querySelectorAll('textarea, select, a, input, button')) expect(pressEnter(el)).toBe(false);
  });

  it('allows inputs inside (or marked) data-allow-enter, unless data-allow-enter="false"', () => {
    uninstall = installEnterBlocking(document);
    let f = form('<input type="text" /><input type="password" />', 'data-allow-enter');
    for (const input of f.querySelectorAll('input')) expect(pressEnter(input)).toBe(false);
    f = form('<input type="text" data-allow-enter />');
    expect(pressEnter(f.querySelector('input')!)).toBe(false);
    f = form('<div data-allow-enter="false"><input type="text" /></div>');
    expect(pressEnter(f.querySelector('input')!)).toBe(true);
  });

  it('leaves inputs outside forms, other keys and IME composition alone', () => {
    uninstall = installEnterBlocking(document);
    document.body.innerHTML = '<input type="search" />';
    expect(pressEnter(document.querySelector('input')!)).toBe(false);
    const f = form('<input type="text" />');
    const input = f.querySelector('input')!;
    const tab = new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, cancelable: true });
    input.dispatchEvent(tab);
    expect(tab.defaultPrevented).toBe(false);
    const ime = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true, isComposing: true });
    input.dispatchEvent(ime);
    expect(ime.defaultPrevented).toBe(false);
  });

  it('the field still sees the keydown (only the default action is prevented)', () => {
    uninstall = installEnterBlocking(document);
    const f = form('<input type="text" />');
    const input = f.querySelector('input')!;
    let seen = false;
    input.addEventListener('keydown', (e) => {
      seen = e.key === 'Enter';
    });
    expect(pressEnter(input)).toBe(true);
    expect(seen).toBe(true);
  });

  it('uninstalls', () => {
    installEnterBlocking(document)();
    const f = form('<input type="text" />');
    expect(pressEnter(f.querySelector('input')!)).toBe(false);
    expect(shouldBlockEnter(f.querySelector('input'))).toBe(true);
  });
});
