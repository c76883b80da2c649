// The one accent- and case-folding of the project: the SQL function compras_busca(text)
// (@app/server-core, migrations/0003_busca.sql) in JavaScript, for the browser and the server.
// Search columns, unique indexes and searches fold text in the database with compras_busca; code
// that compares text the same way (import keys, spreadsheet headers and words, filters) uses this.

const FROM = 'ÁÀÂÃÄÅáàâãäåªÉÈÊËéèêëÍÌÎÏíìîïÓÒÔÕÖØóòôõöøºÚÙÛÜúùûüÇçÑñÝýÿ';
const TO = 'AAAAAAaaaaaaaEEEEeeeeIIIIiiiiOOOOOOoooooooUUUUuuuuCcNnYyy';
const FOLD = new Map([...FROM].map((ch, i) => [ch, TO[i]!]));

/**
 * Lower case without Portuguese/Latin-1 accents, character by character, exactly as the SQL
 * `compras_busca` does ('Açúcar Nº 1' → 'acucar no 1'): `translate` of the accented letters (ª → a,
 * º → o), then `lower` of each character (as PostgreSQL's lower under a UTF-8 ctype: one character
 * stays one character, so 'İ' → 'i' and 'Σ' → 'σ' even at the end of a word). Nothing else changes:
 * spaces, punctuation and combining marks of decomposed (NFD) text are kept, as in SQL; compose text
 * first (`normalize('NFC')`) where decomposed input may arrive and the database is not involved.
 */
export function comprasBusca(value: string): string {
  let out = '';
  for (const ch of value) {
    const folded = FOLD.get(ch) ?? ch;
    if (folded < '\u0080') {
      out += folded >= 'A' && folded <= 'Z' ? String.fromCharCode(folded.charCodeAt(0) + 32) : folded;
      continue;
    }
    const lower = folded.toLowerCase();
    // a lower case of more than one character (only 'İ' → 'i̇'): PostgreSQL keeps one, the base letter
    out += lower.length === folded.length ? lower : lower.charAt(0);
  }
  return out;
}
