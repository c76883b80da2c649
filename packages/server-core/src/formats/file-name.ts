// The name of a file as it enters the application (import routes, evidence uploads): cleaned ONCE,
// here, so the audit row, the database and the screens only ever see a name that is safe to show.

/** Longest stored file name (characters), extension included. */
export const FILE_NAME_MAX = 255;

// C0 and C1 control characters (NUL included), the bidirectional controls that reorder what is shown
// (LRE RLE PDF LRO RLO U+202A–U+202E, LRI RLI FSI PDI U+2066–U+2069, LRM RLM U+200E/U+200F, ALM
// U+061C) and other invisible format characters (zero-width space/joiners, BOM, soft hyphen).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/**
 * A received file name made safe to store, log and show: no folders ('C:\\x\\a.pdf' → 'a.pdf'), no
 * control or bidirectional-override characters ('fatura\u202Efdp.exe' → 'faturafdp.exe', so it no
 * longer shows as "…exe.pdf"), NFC, blanks collapsed, at most `max` characters keeping the extension.
 * `fallback` when nothing is left.
 */
export function cleanFileName(name: string | null | undefined, fallback = 'arquivo', max = FILE_NAME_MAX): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base.toWellFormed().replace(INVISIBLE, '').normalize('NFC').replace(/\s+/g, ' ').trim().replace(/^\.+$/, '');
  if (!clean) return fallback;
  const chars = Array.from(clean);
  if (chars.length <= max) return clean;
  const dot = clean.lastIndexOf('.');
  const ext = dot > 0 ? Array.from(clean.slice(dot)) : [];
  if (ext.length === 0 || ext.length > 16) return chars.slice(0, max).join('').trim();
  return `${chars
    .slice(0, max - ext.length)
    .join('')
    .trim()}${ext.join('')}`;
}
