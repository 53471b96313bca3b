/**
 * The `URLPattern` class: the runtime's own where it has one (Deno, Workers, browsers),
 * otherwise `urlpattern-polyfill`, loaded only then.
 * @module
 */

/** The constructor of `URLPattern` used by `route.pattern`. */
export const URLPatternClass: typeof URLPattern = typeof globalThis.URLPattern === "function"
  ? globalThis.URLPattern
  : (await import("urlpattern-polyfill/urlpattern")).URLPattern as unknown as typeof URLPattern;
