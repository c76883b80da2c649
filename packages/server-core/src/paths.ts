// Kept at the top of src/ so the relative URL is the same from src/*.ts (tests) and from the
// bundled dist/*.js: both are one level below the package root, where migrations/ and data/ ship.
export const PACKAGE_ROOT = new URL('../', import.meta.url);
export const CORE_MIGRATIONS_DIR = new URL('migrations/', PACKAGE_ROOT);
export const COMMON_PASSWORDS_FILE = new URL('data/common-passwords.txt', PACKAGE_ROOT);
