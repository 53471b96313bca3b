/**
 * The peers of the benchmarks, each fed the same method/path list converted to its own
 * syntax: find-my-way, Hono's RegExpRouter and TrieRouter, and rou3. A route a peer
 * cannot express is left out, with the reason, so the report can say which and how many.
 *
 * Conversion rules, kept as close to each peer's own style as its syntax allows:
 * - `ANY` becomes every method the peer knows (find-my-way: the five the table uses;
 *   Hono: `ALL`; rou3: the empty method).
 * - Optional trailing variables become one route per present count, in order.
 * - A variable under the default rule becomes the peer's plain parameter, which in every
 *   peer also takes `.`, `;` and `,`: that is a difference in meaning, counted in the
 *   report as disagreements, not hidden by regex parameters that would slow the peers.
 *   Only where the peer needs a pattern to see where a parameter ends (find-my-way before
 *   a `;`) is one used.
 * - Requirements become the peer's regex parameters where it has them.
 * @module
 */

import FindMyWay from "find-my-way";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { TrieRouter } from "hono/router/trie-router";
import { addRoute, createRouter, findRoute } from "rou3";
import type { Route, Segment } from "../mod.ts";

/** A route the peer could not take, and why. */
export interface LeftOut {
  /** `METHOD template`. */
  readonly route: string;
  /** Why. */
  readonly reason: string;
}

/** A peer router built from a table. */
export interface Built {
  /** The peer's own lookup, as the benchmark times it. */
  readonly lookup: (method: string, path: string) => unknown;
  /** The registration index of the route a lookup result found, or -1 for none. */
  readonly indexOf: (result: unknown) => number;
  /** The routes left out. */
  readonly leftOut: readonly LeftOut[];
}

/** A peer: a name and how to build it from this router's route table. */
export interface Peer {
  /** Display name. */
  readonly name: string;
  /** Builds the peer's router; every route carries its registration index as data. */
  readonly build: (routes: readonly Route[]) => Built;
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const DEFAULT_RULE = String.raw`[^\/;.,?]+`;

/** The requirement of a variable part as the user wrote it, or null for the default rule. */
function requirementOf(part: Segment["parts"][number]): RegExp | null {
  if ("literal" in part || part.requirement === null) return null;
  const original = part.requirement.original;
  return original.source === DEFAULT_RULE ? null : original;
}

/** One route per present-segment count (optional trailing variables), longest last. */
function expansions(route: Route): Segment[][] {
  const required = route.segments.length - route.optional.size;
  const out: Segment[][] = [];
  for (let count = required; count <= route.segments.length; count++) {
    out.push(route.segments.slice(0, count));
  }
  return out;
}

/** A path in a peer's syntax, or the reason it has none. */
type Converter = (segments: readonly Segment[]) => string | { reason: string };

function convertAll(
  routes: readonly Route[],
  convert: Converter,
  add: (method: string, path: string, index: number) => void,
): LeftOut[] {
  const leftOut: LeftOut[] = [];
  routes.forEach((route, index) => {
    const label = `${route.method} ${route.path}`;
    const paths: string[] = [];
    for (const segments of expansions(route)) {
      const path = convert(segments);
      if (typeof path !== "string") {
        leftOut.push({ route: label, reason: path.reason });
        return;
      }
      paths.push(path);
    }
    try {
      for (const path of paths) add(route.method, path, index);
    } catch (error) {
      leftOut.push({
        route: label,
        reason: `refused by the peer (${(error as Error).constructor.name})`,
      });
    }
  });
  return leftOut;
}

const findMyWayPath: Converter = (segments) => {
  let path = "";
  for (const segment of segments) {
    path += "/";
    for (const [i, part] of segment.parts.entries()) {
      if ("literal" in part) {
        if (part.literal.includes("*")) return { reason: "a literal * (its wildcard)" };
        path += part.literal;
        continue;
      }
      const requirement = requirementOf(part);
      const next = segment.parts[i + 1];
      if (requirement !== null) {
        if (requirement.flags.includes("i")) return { reason: "a case-insensitive requirement" };
        if (segment.parts.length > 1) return { reason: "a requirement beside other text" };
        path += `:${part.variable}(^${requirement.source}$)`;
      } else if (next === undefined || /^[.-]/.test((next as { literal: string }).literal)) {
        path += `:${part.variable}`;
      } else {
        // Without a pattern the parameter's name would run into the literal text.
        path += `:${part.variable}(^${DEFAULT_RULE})`;
      }
    }
  }
  return path === "" ? "/" : path;
};

/** find-my-way (Fastify's router), trailing slash ignored like this router does. */
export const findMyWay: Peer = {
  name: "find-my-way",
  build(routes) {
    const router = FindMyWay({ ignoreTrailingSlash: true });
    const leftOut = convertAll(routes, findMyWayPath, (method, path, index) => {
      const methods = method === "ANY" ? [...METHODS] : [method];
      router.on(methods as FindMyWay.HTTPMethod[], path, () => {}, { index });
    });
    return {
      lookup: (method, path) => router.find(method as FindMyWay.HTTPMethod, path),
      indexOf: (result) =>
        result === null ? -1 : ((result as { store: { index: number } }).store.index),
      leftOut,
    };
  },
};

const honoPath: Converter = (segments) => {
  let path = "";
  for (const segment of segments) {
    if (segment.parts.length > 1) {
      return { reason: "text and variables in one segment (like :id.:format or :id;edit)" };
    }
    const part = segment.parts[0];
    if ("literal" in part) {
      if (/[*{}]/.test(part.literal)) return { reason: "a literal * { or }" };
      path += `/${part.literal}`;
      continue;
    }
    const requirement = requirementOf(part);
    if (requirement === null) path += `/:${part.variable}`;
    else if (requirement.flags.includes("i")) {
      return { reason: "a case-insensitive requirement" };
    } else if (/[{}/]/.test(requirement.source)) {
      return { reason: "a requirement with { } or /" };
    } else path += `/:${part.variable}{${requirement.source}}`;
  }
  return path === "" ? "/" : path;
};

/** Hono's routers return every matching handler; the earliest registered is the match. */
function honoPeer(name: string, create: () => RegExpRouter<number> | TrieRouter<number>): Peer {
  return {
    name,
    build(routes) {
      const router = create();
      const leftOut = convertAll(routes, honoPath, (method, path, index) => {
        router.add(method === "ANY" ? "ALL" : method, path, index);
      });
      // RegExpRouter builds its expressions on the first match; a failure then would
      // refuse the whole table, so it is checked here, outside the timings.
      router.match("GET", "/");
      return {
        lookup: (method, path) => router.match(method, path),
        indexOf: (result) => {
          const handlers = (result as [[number, unknown][]])[0];
          return handlers.length === 0 ? -1 : Math.min(...handlers.map(([index]) => index));
        },
        leftOut,
      };
    },
  };
}

/** Hono's RegExpRouter: one big RegExp for the whole table. */
export const honoRegExp: Peer = honoPeer("Hono RegExpRouter", () => new RegExpRouter<number>());

/** Hono's TrieRouter. */
export const honoTrie: Peer = honoPeer("Hono TrieRouter", () => new TrieRouter<number>());

const rou3Path: Converter = (segments) => {
  let path = "";
  for (const segment of segments) {
    path += "/";
    for (const part of segment.parts) {
      if ("literal" in part) {
        if (/[(){}*+?:\\]/.test(part.literal)) return { reason: "a literal with ( ) { } * + or ?" };
        path += part.literal;
        continue;
      }
      const requirement = requirementOf(part);
      if (requirement === null) path += `:${part.variable}`;
      else if (requirement.flags.includes("i")) {
        return { reason: "a case-insensitive requirement" };
      } else if (/[()]/.test(requirement.source)) {
        return { reason: "a requirement with a group" };
      } else path += `:${part.variable}(${requirement.source})`;
    }
  }
  return path === "" ? "/" : path;
};

/** rou3 (h3's router), without its `new Function` compiler. */
export const rou3: Peer = {
  name: "rou3",
  build(routes) {
    const router = createRouter<number>();
    const leftOut = convertAll(routes, rou3Path, (method, path, index) => {
      addRoute(router, method === "ANY" ? "" : method, path, index);
    });
    return {
      lookup: (method, path) => findRoute(router, method, path),
      indexOf: (result) => result === undefined ? -1 : (result as { data: number }).data,
      leftOut,
    };
  },
};

/** Every peer, in the order the report lists them. */
export const PEERS: readonly Peer[] = [findMyWay, honoRegExp, honoTrie, rou3];
