/** Joins class names, skipping falsy values. */
export function cx(...names: Array<string | false | null | undefined>): string | undefined {
  const out = names.filter(Boolean).join(' ');
  return out === '' ? undefined : out;
}

/** Joins ids for aria-describedby, skipping empty ones. */
export function ids(...values: Array<string | false | null | undefined>): string | undefined {
  return cx(...values);
}
