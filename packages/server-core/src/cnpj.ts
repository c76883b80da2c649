/** Digits only. */
export function onlyDigits(value: string): string {
  return value.replace(/\D/g, '');
}

function checkDigit(digits: string, weights: number[]): number {
  const sum = weights.reduce((acc, w, i) => acc + w * Number(digits[i]), 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** Appends the two check digits to a 12-digit CNPJ base. */
export function cnpjWithCheckDigits(base12: string): string {
  const base = onlyDigits(base12);
  if (base.length !== 12) throw new Error('A CNPJ base has 12 digits.');
  const d1 = checkDigit(base, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = checkDigit(base + d1, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return `${base}${d1}${d2}`;
}

/** True for a CNPJ (with or without punctuation) whose check digits are right. */
export function isValidCnpj(value: string): boolean {
  const digits = onlyDigits(value);
  if (digits.length !== 14 || /^(\d)\1{13}$/.test(digits)) return false;
  return cnpjWithCheckDigits(digits.slice(0, 12)) === digits;
}
