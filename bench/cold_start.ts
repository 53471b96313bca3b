/**
 * Construction in a fresh process, as at an edge platform's start-up, where V8 has
 * compiled nothing yet: the 1,008-route table of `compile_bench.ts` (which times the same
 * work warm), drawn by this router and then its first request (which builds the compiled
 * matcher's index of the table), against find-my-way and rou3 building the same routes.
 *
 * Run with `deno task bench:cold`. Each contender is timed in fresh processes of its own
 * (`RUNS` of them); the median is printed. A peer's process draws this router's table
 * first, untimed, to get the routes; its own code is still cold when its build is timed.
 * @module
 */

import { PEERS } from "./peers.ts";
import { thousandRouter } from "./tables.ts";

const RUNS = 9;
const CONTENDERS = ["resource-router", "find-my-way", "rou3"] as const;

/** One fresh process's times, in milliseconds. */
interface ColdTimes {
  /** Declaring (this router) or building (a peer) the table. */
  readonly build: number;
  /** The first request after it. */
  readonly first: number;
}

/**
 * What is timed for the contender named `name`: building its router for the table, which
 * gives its lookup. A peer's routes come from this router's table, drawn before the clock.
 */
function builderOf(name: string): () => (method: string, path: string) => unknown {
  if (name === "resource-router") {
    return () => {
      const router = thousandRouter();
      return (method, path) => router.recognize(path, method);
    };
  }
  const peer = PEERS.find((peer) => peer.name === name);
  if (peer === undefined) throw new TypeError(`No contender named ${JSON.stringify(name)}`);
  const routes = thousandRouter().routes;
  return () => peer.build(routes).lookup;
}

/** Times the contender named `name` once, in this process, which must be fresh. */
function timeOnce(name: string): ColdTimes {
  const build = builderOf(name);
  const start = performance.now();
  const lookup = build();
  const built = performance.now();
  lookup("GET", "/things3/1");
  return { build: built - start, first: performance.now() - built };
}

/** Runs this file as a fresh process that times `name` once. */
async function timeInChild(name: string): Promise<ColdTimes> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", import.meta.filename!, "--child", name],
  }).output();
  const decoder = new TextDecoder();
  if (code !== 0) throw new Error(`${name}: exit ${code}: ${decoder.decode(stderr)}`);
  return JSON.parse(decoder.decode(stdout));
}

function median(values: number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

if (Deno.args[0] === "--child") {
  console.log(JSON.stringify(timeOnce(Deno.args[1])));
} else {
  console.log(`1,008 routes, cold: the median of ${RUNS} fresh processes each.\n`);
  console.log("| contender | build the table | first request |");
  console.log("|---|---|---|");
  for (const name of CONTENDERS) {
    const times: ColdTimes[] = [];
    for (let run = 0; run < RUNS; run++) times.push(await timeInChild(name));
    const build = median(times.map((time) => time.build));
    const first = median(times.map((time) => time.first));
    console.log(`| ${name} | ${build.toFixed(1)} ms | ${first.toFixed(2)} ms |`);
  }
}
