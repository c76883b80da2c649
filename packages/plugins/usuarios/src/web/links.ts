// Plain-text e-mail bodies with their web addresses made clickable (no HTML is ever interpreted).

export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; href: string };

const URL_PATTERN = /https?:\/\/[^\s<>"'`]+/g;
/** Punctuation that ends a sentence rather than the address ('…em https://x/y.' → 'https://x/y'). */
const TRAILING = /[.,;:!?)\]}»”’]+$/;

/** Splits `text` into plain runs and http(s) addresses, in order; joining them gives `text` back. */
export function textParts(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const href = match[0].replace(TRAILING, '');
    const start = match.index;
    if (!/^https?:\/\/[^/]/.test(href)) continue;
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) });
    parts.push({ kind: 'link', href });
    last = start + href.length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}
