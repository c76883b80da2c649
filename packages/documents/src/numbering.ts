// Document numbers: one sequence per entidade, kind and year, shown as 'numero/ano' ('12/2026').

/** '12/2026'. */
export function formatNumero(numero: number | null | undefined, ano: number | null | undefined): string {
  if (numero === null || numero === undefined || ano === null || ano === undefined) return '';
  return `${numero}/${ano}`;
}

/** '12/2026' or '12-2026' → { numero: 12, ano: 2026 }; anything else → null (a search term then). */
export function parseNumero(text: string): { numero: number; ano: number } | null {
  const m = /^\s*(\d{1,9})\s*[/-]\s*(\d{4})\s*$/.exec(text);
  if (!m) return null;
  return { numero: Number(m[1]), ano: Number(m[2]) };
}
