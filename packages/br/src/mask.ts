// The one mask engine of the application, and the Brazilian masks built on it: CPF, CNPJ (the 2026
// alphanumeric CNPJ too), CEP and telefone, progressive while the person types; and the partial CPF
// (LGPD) shown where the full number is not needed. Pure functions, no dependency.

type TextInput = string | null | undefined;

const fits = (slot: string, c: string): boolean => (slot === '9' ? c >= '0' && c <= '9' : slot === 'A' ? /[A-Za-z]/.test(c) : /[A-Za-z0-9]/.test(c));

/**
 * Applies a mask: '9' a digit, 'A' a letter (upper-cased), '*' a letter or a digit; any other
 * character is a literal, written only when a character follows it (so a partial value never ends
 * in a separator). Characters that do not fit their slot are skipped; what is past the mask is
 * dropped. `applyMask('9999-9/99', '4761003')` → '4761-0/03'; `applyMask('999.999', '12')` → '12'.
 */
export function applyMask(mask: string, value: TextInput): string {
  const raw = (value ?? '').replace(/[^A-Za-z0-9]/g, '');
  let out = '';
  let pending = '';
  let i = 0;
  for (const slot of mask) {
    if (slot !== '9' && slot !== 'A' && slot !== '*') {
      pending += slot;
      continue;
    }
    while (i < raw.length && !fits(slot, raw[i]!)) i++;
    if (i >= raw.length) break;
    out += pending + (slot === 'A' ? raw[i]!.toUpperCase() : raw[i]!);
    pending = '';
    i++;
  }
  return out;
}

export const CPF_MASK = '999.999.999-99';
/** 12 base characters (letters since July 2026, IN RFB 2.229/2024) and two numeric check digits. */
export const CNPJ_MASK = '**.***.***/****-99';
export const CEP_MASK = '99999-999';

/** '12345678909' → '123.456.789-09'; progressive while typing ('1234' → '123.4'); letters dropped. */
export function maskCpf(value: TextInput): string {
  return applyMask(CPF_MASK, value);
}

/** '12abc34501de35' → '12.ABC.345/01DE-35' (upper case); progressive ('12ABC' → '12.ABC'). */
export function maskCnpj(value: TextInput): string {
  return applyMask(CNPJ_MASK, (value ?? '').toUpperCase());
}

/**
 * A CPF or a CNPJ being typed, decided as it grows: up to 11 digits a CPF ('123.456.789-0'); a
 * letter or a 12th character makes it a CNPJ ('12.ABC.345/01DE-35').
 */
export function maskCpfCnpjInput(value: TextInput): string {
  const v = (value ?? '').toUpperCase().replace(/[^0-9A-Z]/g, '');
  return v.length <= 11 && /^\d*$/.test(v) ? maskCpf(v) : maskCnpj(v);
}

/** '01310100' → '01310-100'; progressive. */
export function maskCep(value: TextInput): string {
  return applyMask(CEP_MASK, (value ?? '').replace(/\D/g, ''));
}

/**
 * Telefone with DDD: '1134567890' → '(11) 3456-7890', '11987654321' → '(11) 98765-4321',
 * '08001234567' → '0800 123 4567'. A leading '+55' is dropped; progressive while typing.
 */
export function maskPhone(value: TextInput): string {
  let raw = (value ?? '').trim();
  if (raw.startsWith('+55')) raw = raw.slice(3);
  const d = raw.replace(/\D/g, '').slice(0, 11);
  if (/^0[3589]00/.test(d)) return applyMask('9999 999 9999', d);
  return applyMask(d.length === 11 ? '(99) 99999-9999' : '(99) 9999-9999', d);
}

/** What `maskCpfPartial` shows of a value that is not a CPF: nothing of it. */
export const CPF_HIDDEN = '***.***.***-**';

/**
 * The CPF with only the six middle digits visible, as the LGPD guidance for public display:
 * '123.456.789-09' → '***.456.789-**'. One rule for the whole application (lists, audit trail):
 * - exactly 11 digits, with or without the usual mask ('.', '-', spaces), shows the middle digits;
 * - anything else that is not empty (too short or long, letters, other characters) shows
 *   CPF_HIDDEN: a value that is not a CPF is never partially revealed;
 * - null, undefined, '' and blanks give '' (nothing to hide).
 * Numbers are read as their decimal digits (a CPF stored as a number).
 */
export function maskCpfPartial(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value).trim();
  if (text === '') return '';
  if (!/^[\d.\s-]+$/.test(text)) return CPF_HIDDEN;
  const d = text.replace(/\D/g, '');
  if (d.length !== 11) return CPF_HIDDEN;
  return `***.${d.slice(3, 6)}.${d.slice(6, 9)}-**`;
}
