/**
 * Issue #4's construction target: declaring and compiling 1,000 routes (a variant A
 * table of 63 plain resources, 1,008 routes) in under 5 ms.
 *
 * It has a file of its own because `deno bench` runs each file in a fresh isolate, as a
 * router is built at start-up. In `build_bench.ts`, after the large tables and the
 * memory measurements, V8 has learnt that the objects a draw allocates live long and
 * allocates them in the old generation from then on (allocation-site pretenuring):
 * right for a router that lives as long as the process, but in a loop that throws each
 * table away, every iteration then pays for collecting the old generation, and the
 * average there is several times this file's.
 * @module
 */

import { createCompiledMatcher } from "../src/compiled_matcher.ts";
import { oneRequestPerRoute, thousandRouter } from "./tables.ts";

const requests = oneRequestPerRoute(thousandRouter());

Deno.bench({
  name: "resource-router: declare 1,008 routes (draw; helpers and matcher build on first use)",
  group: "build: 1,008 routes",
  baseline: true,
  fn: () => void thousandRouter(),
});
Deno.bench({
  name: "resource-router: declare 1,008 routes, build the helpers and every part of the matcher",
  group: "build: 1,008 routes",
  fn: () => {
    const router = thousandRouter();
    void router.helpers;
    // The router builds its matcher on the first request and each part of it on the
    // first request that needs it; one match per route builds them all.
    const matcher = createCompiledMatcher(router.routes);
    for (const { method, path } of requests) matcher.match(path, method);
  },
});
