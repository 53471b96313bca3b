/**
 * Recognition per request, on the large Rails-like table, on the wide table (shaped like
 * the one issue #4's own benchmark draws, every request routes), and on the 12-route
 * table of the common router benchmark: this router (`router.recognize`; the same
 * recognition as `handle` runs it, where a miss is returned instead of thrown; its
 * compiled matcher alone), the URLPattern scan of the reference matcher, and the peers fed
 * the same method/path list. Each iteration is one request of the mix, taken in turn.
 *
 * Before the timings it prints, per table, the routes each peer left out (and why) and
 * how many requests each contender answers differently from `router.recognize`.
 * @module
 */

import { createCompiledMatcher } from "../src/compiled_matcher.ts";
import { createReferenceMatcher } from "../src/reference_matcher.ts";
import type { Route, Router } from "../mod.ts";
import { servingRecognizer } from "../src/router.ts";
import { PEERS } from "./peers.ts";
import {
  largeRequests,
  largeRouter,
  note,
  type Request,
  SMALL_REQUESTS,
  smallRouter,
  wideRequests,
  wideRouter,
} from "./tables.ts";

interface Table {
  readonly name: string;
  readonly router: Router;
  readonly requests: readonly Request[];
}

/** The registration index `recognize` answers, or -1 for a RoutingError. */
function recognized(router: Router, { method, path }: Request): number {
  try {
    return router.routes.indexOf(router.recognize(path, method).route);
  } catch {
    return -1;
  }
}

/**
 * The large table's mix, whole and split into the requests that route and those that
 * do not: `recognize` must throw for the latter, which costs more than matching (see
 * docs/performance.md), so the split shows each side on its own.
 */
function largeTables(): Table[] {
  const router = largeRouter();
  const requests = largeRequests(router.routes);
  const routed = requests.filter((request) => recognized(router, request) >= 0);
  const refused = requests.filter((request) => recognized(router, request) < 0);
  return [
    { name: "large table", router, requests },
    { name: "large table, requests that route", router, requests: routed },
    { name: "large table, 404s and 405s", router, requests: refused },
  ];
}

const TABLES: readonly Table[] = [
  ...largeTables(),
  wideTable(),
  { name: "12-route table", router: smallRouter(), requests: SMALL_REQUESTS },
];

function wideTable(): Table {
  const router = wideRouter();
  return { name: "wide table", router, requests: wideRequests(router.routes) };
}

/** Calls `lookup` on each request in turn, one per iteration. */
function cycling(requests: readonly Request[], lookup: (method: string, path: string) => unknown) {
  let next = 0;
  return () => {
    const request = requests[next];
    next = next + 1 === requests.length ? 0 : next + 1;
    lookup(request.method, request.path);
  };
}

for (const { name, router, requests } of TABLES) {
  const routes: readonly Route[] = router.routes;
  const expected = requests.map((request) => recognized(router, request));
  const refused = expected.filter((index) => index < 0).length;
  note(
    `${name}: ${routes.length} routes, ${requests.length} requests in the mix ` +
      `(${refused} answered 404 or 405)`,
    { table: name, routes: routes.length, requests: requests.length, refused },
  );
  const group = `recognize: ${name}`;

  Deno.bench({
    name: "resource-router: router.recognize",
    group,
    baseline: true,
    fn: cycling(requests, (method, path) => {
      try {
        router.recognize(path, method);
      } catch {
        // 404 and 405 are RoutingErrors.
      }
    }),
  });

  // What `handle` and `fetch` run for the same request: a miss is returned, not thrown.
  const serving = servingRecognizer(router);
  Deno.bench({
    name: "resource-router: recognition in handle (misses returned)",
    group,
    fn: cycling(requests, (method, path) => serving(path, method)),
  });

  const compiled = createCompiledMatcher(routes);
  Deno.bench({
    name: "resource-router: compiled matcher alone",
    group,
    fn: cycling(requests, (method, path) => compiled.match(path, method)),
  });

  const reference = createReferenceMatcher(routes);
  let disagreements = 0;
  requests.forEach(({ method, path }, at) => {
    const route = reference.match(path, method).route;
    if ((route === null ? -1 : routes.indexOf(route)) !== expected[at]) disagreements++;
  });
  note(`  URLPattern scan (reference): ${disagreements} answers differ`, {
    table: name,
    contender: "URLPattern scan",
    leftOut: 0,
    disagreements,
  });
  Deno.bench({
    name: "URLPattern scan (reference matcher)",
    group,
    fn: cycling(requests, (method, path) => reference.match(path, method)),
  });

  for (const peer of PEERS) {
    const built = peer.build(routes);
    let differing = 0;
    requests.forEach(({ method, path }, at) => {
      if (built.indexOf(built.lookup(method, path)) !== expected[at]) differing++;
    });
    const reasons = new Map<string, string[]>();
    for (const { route, reason } of built.leftOut) {
      reasons.set(reason, [...reasons.get(reason) ?? [], route]);
    }
    const lines = [...reasons].map(([reason, list]) =>
      `    ${list.length} × ${reason}, e.g. ${list.slice(0, 3).join(", ")}`
    );
    note(
      `  ${peer.name}: left out ${built.leftOut.length} of ${routes.length} routes, ` +
        `${differing} of ${requests.length} answers differ` +
        (lines.length > 0 ? `\n${lines.join("\n")}` : ""),
      {
        table: name,
        contender: peer.name,
        leftOut: built.leftOut.length,
        leftOutReasons: Object.fromEntries([...reasons].map(([r, list]) => [r, list.length])),
        disagreements: differing,
      },
    );
    Deno.bench({ name: peer.name, group, fn: cycling(requests, built.lookup) });
  }
}
