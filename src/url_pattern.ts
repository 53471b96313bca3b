/**
 * The `URLPattern` class: the runtime's own where it has one (Deno, Workers, browsers),
 * otherwise `urlpattern-polyfill`, loaded only then.
 * @module
 */

const polyfill: typeof URLPattern | undefined = typeof globalThis.URLPattern === "function"
  ? undefined
  : (await import("urlpattern-polyfill/urlpattern")).URLPattern as unknown as typeof URLPattern;

/** The `URLPattern` constructor to use now: the global one, else the polyfill. */
export function urlPatternClass(): typeof URLPattern {
  return typeof globalThis.URLPattern === "function" ? globalThis.URLPattern : polyfill!;
}
