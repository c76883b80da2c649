// Kept at the top of src/ so the relative URL is the same from src/*.ts (tests) and from the
// bundled dist/*.js: both are one level below the package root, where migrations/ ships.
export const CORE_MIGRATIONS_DIR = new URL('../migrations/', import.meta.url);
