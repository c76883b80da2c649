// Kept at the top of src/ so the relative URL is the same from src/*.ts (tests) and from the
// bundled dist/*.js: both are one level below the package root, where migrations/ and data/ ship.
export const CORE_MIGRATIONS_DIR = new URL('../migrations/', import.meta.url);
export const COMMON_PASSWORDS_FILE = new URL('../data/common-passwords.txt', import.meta.url);
