/**
 * The reference matcher: the ordered `URLPattern` scan of the design card. Slow (each
 * route's pattern is built on first use and tried in turn) but obviously right; the
 * tests run it beside the default matcher to keep that one honest.
 * @module
 */

import { type Matcher, scanRoutes } from "./matcher.ts";
import type { Route } from "./route.ts";

/** A matcher that tries `route.pattern` of every route in registration order. */
export function createReferenceMatcher(routes: readonly Route[]): Matcher {
  return {
    match: (path, method) =>
      scanRoutes(routes, method, (route) => {
        const groups = route.pattern.exec({ pathname: path })?.pathname.groups;
        return groups === undefined ? null : route.variables.map((name) => groups[name]);
      }),
  };
}
