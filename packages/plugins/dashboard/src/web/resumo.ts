// GET /api/dashboard/resumo is described by ../shared (zod, validated on the server). Types only
// here: the page must not pull zod into the browser bundle.
import type { ResumoCard } from '../shared/index';

export type { ResumoCard } from '../shared/index';

function humanize(key: string): string {
  const words = key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim();
  return words.charAt(0).toLocaleUpperCase('pt-BR') + words.slice(1);
}

/**
 * Normalises the answer into cards. Tolerant on purpose (an older or newer server must not break
 * the home page): `{ cards }` as in ../shared, or a flat object of numbers (one card per key). The
 * server leaves out the figures the user's tags do not allow (the entidade's audit activity without
 * tag 90, its user count without tag 3 or 90), so they are simply absent from the page.
 */
export function toCards(data: unknown): { cards: ResumoCard[]; geradoEm?: string } {
  if (!data || typeof data !== 'object') return { cards: [] };
  const record = data as Record<string, unknown>;
  const geradoEm = typeof record.geradoEm === 'string' ? record.geradoEm : undefined;
  if (Array.isArray(record.cards)) {
    const cards = record.cards.filter(
      (c): c is ResumoCard =>
        typeof c === 'object' &&
        c !== null &&
        typeof (c as ResumoCard).label === 'string' &&
        // a figure the user may not see comes without value (or not at all): nothing is shown for it
        (c as ResumoCard).value !== undefined &&
        (c as ResumoCard).value !== null,
    );
    return { cards: cards.map((c, i) => ({ ...c, id: c.id ?? String(i) })), geradoEm };
  }
  const cards: ResumoCard[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (typeof value === 'number') cards.push({ id: key, label: humanize(key), value });
  }
  return { cards, geradoEm };
}
