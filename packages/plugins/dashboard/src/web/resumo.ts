/**
 * Shape of GET /api/dashboard/resumo as the page reads it. The page is tolerant: it also accepts
 * a flat object of numbers (`{ memorandos: 3, requisicoes: 5 }`) and shows one card per key.
 */
export interface ResumoCard {
  id: string;
  label: string;
  value: number | string;
  /** Short explanation under the value. */
  hint?: string;
  /** Where the card leads (absolute path of a section). */
  href?: string;
  /** Permission tag of the section; the card is hidden when the user lacks it. */
  tag?: number;
}

export interface DashboardResumo {
  cards: ResumoCard[];
  /** ISO timestamp of the figures. */
  geradoEm?: string;
}

function humanize(key: string): string {
  const words = key.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toLocaleUpperCase('pt-BR') + words.slice(1);
}

/** Normalises whatever the server answered into cards (unknown shapes → no cards). */
export function toCards(data: unknown): { cards: ResumoCard[]; geradoEm?: string } {
  if (!data || typeof data !== 'object') return { cards: [] };
  const record = data as Record<string, unknown>;
  const geradoEm = typeof record.geradoEm === 'string' ? record.geradoEm : undefined;
  if (Array.isArray(record.cards)) {
    const cards = record.cards.filter(
      (c): c is ResumoCard =>
        typeof c === 'object' && c !== null && typeof (c as ResumoCard).label === 'string' && (c as ResumoCard).value !== undefined,
    );
    return { cards: cards.map((c, i) => ({ ...c, id: c.id ?? String(i) })), geradoEm };
  }
  const cards: ResumoCard[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (typeof value === 'number') cards.push({ id: key, label: humanize(key), value });
  }
  return { cards, geradoEm };
}
