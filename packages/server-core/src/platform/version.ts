/** Version of @app/server-core (replaced at build time). Plugins declare a `core` range against it. */
export const SERVER_CORE_VERSION: string = __PKG_VERSION__;

/** Tags any signed-in user holds (spec §6): 0 (every user) and -1..-4 (system pages). */
export const EXEMPT_TAGS: readonly number[] = Object.freeze([0, -1, -2, -3, -4]);

export function isExemptTag(tag: number): boolean {
  return EXEMPT_TAGS.includes(tag);
}
