/**
 * The matcher interface, and the simplest matcher behind it: the ordered scan over each
 * route's regular expression. The router uses the compiled matcher
 * (`compiled_matcher.ts`); the tests run the same cases against the scan, the compiled
 * matcher and the `URLPattern` reference (`reference_matcher.ts`).
 *
 * A matcher answers one question for the router: for a raw (still percent-encoded)
 * pathname and an upper-case method, which route matches first in registration order,
 * with which raw variable texts; and, when none accepts the method, which methods would
 * have. Decoding, errors and the limits stay in the router, so matchers are
 * interchangeable, but for one: the compiled matcher, given `longest` (the router's
 * `maxParamLength`), passes over a route that backtracks where its text is longer than
 * that, and says so in `overLimit` (the router answers such a path 414).
 * @module
 */

import { pathRegexOf, type Route } from "./route.ts";

/** What a matcher reports for one path and method. */
export interface MatchResult {
  /** The first route whose path matches and whose method condition admits the method. */
  readonly route: Route | null;
  /**
   * The raw variable texts (in `variables` order, `undefined` for a left-out optional
   * one) of `route`, or, when `route` is null, of the first route whose path matched.
   */
  readonly values: readonly (string | undefined)[] | null;
  /** When `route` is null: the methods of every path-matching route, in order, once each. */
  readonly allowed: readonly string[];
}

/** Recognition over a route table, in registration order. */
export interface Matcher {
  /** Matches a raw pathname (starting with `/`) against `method` (`HEAD` given as `GET`). */
  match(path: string, method: string): MatchResult;
}

/** Builds a matcher for a table. */
export type MatcherFactory = (routes: readonly Route[]) => Matcher;

/**
 * The ordered scan shared by the simple matchers: tries `valuesOf` on every route in
 * registration order and keeps the bookkeeping for 405 answers.
 */
export function scanRoutes(
  routes: readonly Route[],
  method: string,
  valuesOf: (route: Route) => (string | undefined)[] | null,
): MatchResult {
  let first: (string | undefined)[] | null = null;
  const allowed: string[] = [];
  for (const route of routes) {
    const values = valuesOf(route);
    if (values === null) continue;
    if (route.accepts(method)) return { route, values, allowed: [] };
    first ??= values;
    if (!allowed.includes(route.method)) allowed.push(route.method);
  }
  return { route: null, values: first, allowed };
}

/**
 * The ordered scan over each route's own regular expression: simple and exact, but its
 * time grows with the table. Every route's expression is compiled on first use.
 */
export function createScanMatcher(routes: readonly Route[]): Matcher {
  return {
    match: (path, method) =>
      scanRoutes(routes, method, (route) => pathRegexOf(route).exec(path)?.slice(1) ?? null),
  };
}
