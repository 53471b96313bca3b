/**
 * The large table's recognition timed in a plain loop at module top level, the way a
 * hand-written benchmark script times it, beside `deno task bench`'s `Deno.bench` numbers.
 *
 * The two differ for one reason: where Deno calls JavaScript from a callback (as
 * `Deno.bench` does), V8 does more work for every `throw` (it builds a message, and
 * records a stack trace unless the thrown value inherits one), so each 404 or 405 that
 * `router.recognize` throws costs about 0.45 µs more there than here (see docs/performance.md,
 * "Misses are thrown"). Matching itself costs the same in both.
 *
 * Run with `deno task bench:loop`. Each contender gets the same requests in the same
 * order; the time printed is the median of several rounds over the mix, per request. The
 * last column gives every request a path string of its own, as a server sees them: a
 * router that looks a path up in a string-keyed `Map` or object pays there for V8
 * internalizing the string, which a loop over the same strings pays only once.
 * The URLPattern scan takes milliseconds a request, so it runs over every 20th request.
 * @module
 */

import { createCompiledMatcher } from "../src/compiled_matcher.ts";
import { createReferenceMatcher } from "../src/reference_matcher.ts";
import { servingRecognizer } from "../src/router.ts";
import { PEERS } from "./peers.ts";
import { largeRequests, largeRouter, type Request, requestPath } from "./tables.ts";

const ROUNDS = 15;

/** A value the timed calls write to, so that V8 cannot drop them. */
let sink: unknown;

/**
 * The median time per request, in nanoseconds, of `lookup` over `requests`. With `fresh`,
 * every request of every round gets a path string of its own, made before the clock starts
 * the way `new URL()` makes it for `fetch`; otherwise the rounds reuse the same strings.
 */
function timePerRequest(
  requests: readonly Request[],
  lookup: (method: string, path: string) => unknown,
  { repeat, fresh = false }: { repeat: number; fresh?: boolean },
): number {
  const run = () => {
    const rounds = Array.from(
      { length: repeat },
      () =>
        fresh
          ? requests.map(({ method, path }) => ({ method, path: requestPath(path) }))
          : requests,
    );
    // Collect first, so that the copies are old by the time the clock runs and every
    // contender starts from the same heap.
    (globalThis as { gc?: () => void }).gc?.();
    const start = performance.now();
    for (const round of rounds) {
      for (const { method, path } of round) {
        try {
          sink = lookup(method, path);
        } catch (error) {
          sink = error;
        }
      }
    }
    return (performance.now() - start) * 1e6 / (repeat * requests.length);
  };
  for (let i = 0; i < 3; i++) run();
  const times = Array.from({ length: ROUNDS }, run).sort((a, b) => a - b);
  return times[ROUNDS >> 1];
}

/** Nanoseconds as the bench report writes them. */
function format(ns: number): string {
  return ns >= 1e6
    ? `${(ns / 1e6).toFixed(2)} ms`
    : ns >= 1e3
    ? `${(ns / 1e3).toFixed(2)} µs`
    : `${ns.toFixed(0)} ns`;
}

const router = largeRouter();
const mix = largeRequests(router.routes);
const routes = mix.filter(({ method, path }) => {
  try {
    router.recognize(path, method);
    return true;
  } catch {
    return false;
  }
});
const refused = mix.filter((request) => !routes.includes(request));
const compiled = createCompiledMatcher(router.routes);
const serving = servingRecognizer(router);
const servingRecognition = (method: string, path: string) => serving(path, method);
const contenders: (readonly [string, (method: string, path: string) => unknown])[] = [
  ["router.recognize", (method, path) => router.recognize(path, method)],
  ["recognition in handle (misses returned)", servingRecognition],
  ["compiled matcher alone", (method, path) => compiled.match(path, method)],
  ...PEERS.map((peer) => [peer.name, peer.build(router.routes).lookup] as const),
];

console.log(
  `Large table: ${router.routes.length} routes; ${mix.length} requests, ` +
    `${refused.length} of them 404 or 405. Median per request of ${ROUNDS} rounds.\n`,
);
console.log(
  "| contender | whole mix | requests that route | 404s and 405s | whole mix, fresh strings |",
);
console.log("|---|---|---|---|---|");
const wholeMix = new Map<string, number>();
for (const [name, lookup] of contenders) {
  const times = [mix, routes, refused].map((list) => timePerRequest(list, lookup, { repeat: 20 }));
  times.push(timePerRequest(mix, lookup, { repeat: 20, fresh: true }));
  wholeMix.set(name, times[0]);
  console.log(`| ${name} | ${times.map(format).join(" | ")} |`);
}
const reference = createReferenceMatcher(router.routes);
const sample = mix.filter((_, index) => index % 20 === 0);
const scan = timePerRequest(sample, (method, path) => reference.match(path, method), {
  repeat: 1,
});
console.log(`| URLPattern scan (every 20th request) | ${format(scan)} | | | |`);
const ratio = scan / wholeMix.get("router.recognize")!;
console.log(`\nrouter.recognize is ${ratio.toFixed(0)} times faster than the scan.`);
// Read once, so that the stores to it are not dead code to V8.
if (sink === Symbol.for("never")) console.log(sink);
