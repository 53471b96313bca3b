/**
 * Construction of each table by each contender, and (printed before the timings) the
 * memory each contender keeps per route. The 1,008-route target is in
 * `compile_bench.ts`.
 * Memory needs `--v8-flags=--expose-gc`, which `deno task bench` passes.
 * @module
 */

import { Router } from "../mod.ts";
import { createCompiledMatcher } from "../src/compiled_matcher.ts";
import { PEERS } from "./peers.ts";
import { largeRouter, note, oneRequestPerRoute, smallRouter } from "./tables.ts";

/** Recognises every request once, so that every part of the matcher is built. */
function warm(router: Router, requests: readonly { method: string; path: string }[]): void {
  for (const { method, path } of requests) router.recognize(path, method);
}

const largeHits = oneRequestPerRoute(largeRouter());

for (
  const [name, build, hits] of [
    ["large table", largeRouter, largeHits],
    ["12-route table", smallRouter, null],
  ] as const
) {
  const group = `build: ${name}`;
  const routes = build().routes;
  Deno.bench({
    name: "resource-router: draw (helpers and matcher built on first use)",
    group,
    baseline: true,
    fn: () => void build(),
  });
  if (hits !== null) {
    Deno.bench({
      name: "resource-router: draw, then one request per route (all compiled)",
      group,
      fn: () => warm(build(), hits),
    });
  }
  Deno.bench({
    name: "URLPattern scan: draw and build every route's URLPattern",
    group,
    fn: () => {
      for (const route of build().routes) void route.pattern;
    },
  });
  for (const peer of PEERS) {
    Deno.bench({ name: peer.name, group, fn: () => void peer.build(routes) });
  }
}

// Memory per route, with the garbage collector run before and after.

const gc = (globalThis as { gc?: () => void }).gc;

/**
 * Bytes of heap per route that `copies` results of `build` keep alive; `prepare` runs
 * before the first measurement, so what it makes is not counted.
 */
function heapPerRoute<T>(
  prepare: () => T,
  build: (prepared: T) => unknown,
  copies: number,
): number | null {
  if (gc === undefined) return null;
  const prepared = Array.from({ length: copies }, prepare);
  gc();
  gc();
  const before = Deno.memoryUsage().heapUsed;
  const kept = prepared.map(build);
  gc();
  gc();
  const after = Deno.memoryUsage().heapUsed;
  if (kept.length !== copies) throw new Error("unreachable");
  return (after - before) / copies / routeCount;
}

const routeCount = largeRouter().routes.length;
const fresh = () => largeRouter().routes;
const memory: [string, number | null][] = [
  [
    "resource-router: the whole router (routes, helpers, compiled matcher)",
    heapPerRoute(
      () => null,
      () => {
        const router = largeRouter();
        void router.helpers;
        warm(router, largeHits);
        return router;
      },
      10,
    ),
  ],
  [
    "resource-router: the compiled matcher (fully built)",
    heapPerRoute(fresh, (routes) => {
      const matcher = createCompiledMatcher(routes);
      for (const { method, path } of largeHits) matcher.match(path, method);
      return matcher;
    }, 10),
  ],
  [
    "URLPattern scan: the URLPatterns",
    heapPerRoute(fresh, (routes) => {
      for (const route of routes) void route.pattern;
      return routes;
    }, 2),
  ],
  ...PEERS.map((peer): [string, number | null] => [
    peer.name,
    heapPerRoute(fresh, (routes) => peer.build(routes), 10),
  ]),
];
if (gc === undefined) {
  console.log("memory per route: run with --v8-flags=--expose-gc to measure it");
} else {
  for (const [contender, bytes] of memory) {
    note(
      `memory per route (large table, ${routeCount} routes): ${contender}: ${bytes!.toFixed(0)} B`,
      { memory: contender, bytesPerRoute: Math.round(bytes!), routes: routeCount },
    );
  }
}
