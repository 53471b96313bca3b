/**
 * The route tables and request mixes of the benchmarks: a large Rails-like table drawn
 * through the public API, and the 12-route table of the router benchmarks that
 * delvedor's router-benchmark started (in the form Hono's and rou3's benchmarks use,
 * with `/static/:path` for the wildcard, which this router does not have).
 * @module
 */

import { Router } from "../mod.ts";
import type { Mapper, Route } from "../mod.ts";

/** One request of a mix. */
export interface Request {
  /** Upper-case method. */
  readonly method: string;
  /** The pathname. */
  readonly path: string;
}

/** A route as the peers get it: method (`ANY`: every method) and template. */
export interface PlainRoute {
  /** `GET`, `POST`, `PUT`, `PATCH`, `DELETE` or `ANY`. */
  readonly method: string;
  /** The template in this router's syntax. */
  readonly path: string;
  /** The requirements by variable, as `RegExp` sources. */
  readonly requirements: Readonly<Record<string, string>>;
}

/** Top-level resources with their nested resources, two levels deep. */
const RESOURCES: readonly [string, readonly (readonly [string, readonly string[]])[]][] = [
  ["articles", [["comments", ["votes", "reports"]], ["tags", []], ["revisions", []]]],
  ["photos", [["comments", ["votes"]], ["likes", []]]],
  ["albums", [["photos", ["tags"]]]],
  ["users", [["posts", ["comments"]], ["followers", []], ["sessions", []]]],
  ["projects", [["tasks", ["notes", "attachments"]], ["milestones", []], ["members", []]]],
  ["orders", [["line_items", []], ["payments", ["refunds"]], ["shipments", []]]],
  ["products", [["variants", ["prices"]], ["reviews", []]]],
  ["invoices", [["lines", []]]],
  ["teams", [["memberships", []], ["invitations", []]]],
  ["tickets", [["replies", []]]],
  ["events", [["attendees", []], ["sponsors", []]]],
  ["forums", [["topics", ["posts"]]]],
  ["messages", [["comments", []]]],
  ["pages", []],
  ["categories", []],
  ["coupons", []],
  ["webhooks", [["deliveries", []]]],
  ["reports", []],
  ["settings_groups", []],
];

/** Custom actions with every method, spread over the top-level resources. */
const CUSTOM = [
  { collection: { search: "get", export: "post" }, member: { publish: "put", archive: "patch" } },
  { collection: { recent: "get" }, member: { flag: "post", purge: "delete", preview: "any" } },
  { new: { preview: "post" }, member: { duplicate: "post" } },
  {},
] as const;

/**
 * Draws the large table (variant A, 1,264 routes): 66 resources (7 of them singletons),
 * nesting two deep, custom actions with every method, a path prefix with a variable,
 * named routes and the catch-all.
 */
export function drawLarge(map: Mapper): void {
  map.named("root", "/", { controller: "home", action: "index" });
  map.named("login", "/login", {
    controller: "sessions",
    action: "new",
    conditions: { method: "get" },
  });
  map.named("logout", "/logout", {
    controller: "sessions",
    action: "destroy",
    conditions: { method: "delete" },
  });
  map.resource("account", { member: { password: "put" } }, (account) => {
    account.resources("notifications", { collection: { read_all: "put" } });
    account.resource("avatar");
  });
  map.resource("dashboard");
  RESOURCES.forEach(([name, children], index) => {
    map.resources(name, CUSTOM[index % CUSTOM.length], (parent) => {
      for (const [child, grandchildren] of children) {
        parent.resources(child, (nested) => {
          for (const grandchild of grandchildren) nested.resources(grandchild);
        });
      }
      if (index % 5 === 0) parent.resource("cover");
    });
  });
  map.resources("repositories", { pathPrefix: "/orgs/:org", namePrefix: "org_" }, (repos) => {
    repos.resources("issues", { member: { close: "put", reopen: "put" } });
  });
  map.resources("members", { pathPrefix: "/orgs/:org", namePrefix: "org_" });
  map.connect("/files/:name", {
    controller: "files",
    action: "show",
    requirements: { name: /[a-z0-9_\-]+\.[a-z0-9]+/i },
  });
  map.connect("/archive/:year/:month", {
    controller: "archive",
    action: "show",
    requirements: { year: /\d{4}/, month: /\d{2}/ },
  });
  map.connect(":controller/:action/:id");
}

/** A router (variant A) drawn with {@linkcode drawLarge}. */
export function largeRouter(): Router {
  return new Router({ variant: "A", onDeprecation: () => {} }).draw(drawLarge);
}

/** The resources of the wide table. */
const WIDE_RESOURCES = (
  "articles authors books categories clients companies contacts customers deals documents " +
  "employees events expenses files forums galleries groups invoices issues items jobs leads lists " +
  "locations meetings messages milestones notes orders pages payments people photos posts " +
  "products projects reports reviews sessions shipments stores tasks teams tickets topics"
).split(" ");

/**
 * Draws the wide table (variant A, 2,929 routes), shaped like the table issue #4 says
 * its own benchmark draws: a singleton, then 45 resources, each with a custom
 * collection action and two member actions (one of them `any`), comments nested in each
 * and likes in each comment, a singleton under every third, and the catch-all route.
 */
export function drawWide(map: Mapper): void {
  map.resource("account", { member: { password: "put" } });
  WIDE_RESOURCES.forEach((name, index) => {
    map.resources(name, {
      collection: { search: "get" },
      member: { publish: "put", preview: "any" },
    }, (parent) => {
      parent.resources("comments", (comments) => comments.resources("likes"));
      if (index % 3 === 0) parent.resource("cover");
    });
  });
  map.connect(":controller/:action/:id");
}

/** A router (variant A) drawn with {@linkcode drawWide}. */
export function wideRouter(): Router {
  return new Router({ variant: "A", onDeprecation: () => {} }).draw(drawWide);
}

/**
 * The request mix over the wide table, as a hand-written benchmark would make it: one
 * request per route (its method, `ANY` as GET), each variable replaced by a number and
 * `:format` by `json` or `xml`, shuffled. Every request routes: with the catch-all in
 * the table, a path of up to three segments always finds a route.
 */
export function wideRequests(routes: readonly Route[]): Request[] {
  let counter = 0;
  const requests = routes.map((route) => ({
    method: route.method === "ANY" ? "GET" : route.method,
    path: route.path.replace(
      /:(\w+)/g,
      (_, name) =>
        name === "format" ? (counter++ % 2 ? "json" : "xml") : String(100 + counter++ % 900),
    ) || "/",
  }));
  const random = seededRandom(7);
  for (let i = requests.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [requests[i], requests[j]] = [requests[j], requests[i]];
  }
  return requests;
}

/** The 12 routes of the common router benchmark. */
export const SMALL_ROUTES: readonly PlainRoute[] = [
  ["GET", "/user"],
  ["GET", "/user/comments"],
  ["GET", "/user/avatar"],
  ["GET", "/user/lookup/username/:username"],
  ["GET", "/user/lookup/email/:address"],
  ["GET", "/event/:id"],
  ["GET", "/event/:id/comments"],
  ["POST", "/event/:id/comment"],
  ["GET", "/map/:location/events"],
  ["GET", "/status"],
  ["GET", "/very/deeply/nested/route/hello/there"],
  ["GET", "/static/:path"],
].map(([method, path]) => ({ method, path, requirements: {} }));

/** The small table drawn through the public API, in registration order. */
export function smallRouter(): Router {
  return new Router({ variant: "B" }).draw((map) => {
    for (const { method, path } of SMALL_ROUTES) {
      map.connect(path, {
        controller: "bench",
        conditions: { method: method.toLowerCase() as "get" | "post" },
      });
    }
  });
}

/** The requests of the common router benchmark, plus a 404 and a 405. */
export const SMALL_REQUESTS: readonly Request[] = [
  ["GET", "/user"],
  ["GET", "/user/comments"],
  ["GET", "/user/lookup/username/hey"],
  ["GET", "/event/abcd1234/comments"],
  ["POST", "/event/abcd1234/comment"],
  ["GET", "/very/deeply/nested/route/hello/there"],
  ["GET", "/static/index.html"],
  ["GET", "/nothing/here"],
  ["DELETE", "/user/comments"],
].map(([method, path]) => ({ method, path: requestPath(path) }));

/** The method/path list of a router's table, for the peers. */
export function plainRoutes(routes: readonly Route[]): PlainRoute[] {
  return routes.map((route) => ({
    method: route.method,
    path: route.path,
    requirements: Object.fromEntries(
      [...route.compiledRequirements].map(([name, requirement]) => [name, requirement.source]),
    ),
  }));
}

/** A deterministic pseudo-random generator (mulberry32), so every run sees the same mix. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SAMPLE_VALUES: Readonly<Record<string, readonly string[]>> = {
  format: ["json", "xml", "html"],
  controller: ["articles", "widgets", "reports"],
  action: ["index", "show", "list"],
  name: ["report-2024.pdf", "Logo.PNG"],
  year: ["2024", "1999"],
  month: ["01", "12"],
  org: ["acme", "deno-land"],
};

/** The pathname a server sees for `path` (as `handle` would pass it on). */
export function requestPath(path: string): string {
  return new URL(`http://localhost${path}`).pathname;
}

/** A path that the route recognises, with plausible values. */
function samplePath(route: Route, random: () => number): string {
  let path = "";
  for (const segment of route.segments) {
    if (segment.optional && random() < 0.5) break;
    path += "/";
    for (const part of segment.parts) {
      if ("literal" in part) path += part.literal;
      else {
        const choices = SAMPLE_VALUES[part.variable] ?? ["1", "42", "a1b2c3", "2024-01-31"];
        path += choices[Math.floor(random() * choices.length)];
      }
    }
  }
  return requestPath(path === "" ? "/" : path);
}

/**
 * The request mix over the large table: one request for every route (its method; `ANY`
 * as GET), shuffled, then about 10 % requests that find no route (404) and 5 % that
 * find a path but not the method (405).
 */
export function largeRequests(routes: readonly Route[]): Request[] {
  const random = seededRandom(42);
  const hits = routes.map((route) => ({
    method: route.method === "ANY" ? "GET" : route.method,
    path: samplePath(route, random),
  }));
  for (let i = hits.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [hits[i], hits[j]] = [hits[j], hits[i]];
  }
  const misses = [
    "/favicon.ico",
    "/articles/1/comments/2/votes/3/extra",
    "/wp-login.php",
    "/articles/1.json/edit/now",
    "/orgs/acme/repositories/7/issues/9/close/now",
    "/.env",
    "/users/5/posts/7/comments/9/likes/1",
    "/a/b/c/d",
    "/projects/3/tasks/4/notes/5.xml;edit;again",
    "/api/v1/users/1",
  ];
  const refused = [
    ["POST", "/articles/1.json"],
    ["PATCH", "/users/5/posts/7/comments/9"],
    ["DELETE", "/articles/1/comments/2/votes.json"],
    ["PUT", "/orders/9/payments/3/refunds"],
    ["POST", "/projects/3/tasks/4/notes/5.xml"],
  ];
  const mix: Request[] = [];
  hits.forEach((hit, index) => {
    mix.push(hit);
    if (index % 10 === 5) {
      mix.push({ method: "GET", path: requestPath(misses[(index / 10 | 0) % misses.length]) });
    }
    if (index % 20 === 15) {
      const [method, path] = refused[(index / 20 | 0) % refused.length];
      mix.push({ method, path: requestPath(path) });
    }
  });
  return mix;
}

/** Issue #4's construction target: a variant A table of 63 plain resources, 1,008 routes. */
export function thousandRouter(): Router {
  return new Router({ variant: "A", onDeprecation: () => {} }).draw((map) => {
    for (let i = 0; i < 63; i++) map.resources(`things${i}`);
  });
}

/**
 * The requests of {@linkcode largeRequests} that `router` answers: one per route (its
 * method, `ANY` as GET).
 */
export function oneRequestPerRoute(router: Router): Request[] {
  return largeRequests(router.routes).filter((request) => {
    try {
      router.recognize(request.path, request.method);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Prints a finding of a benchmark file for people, and again as one `@note` JSON line
 * for `bench/report.ts`, which reads them from the `deno bench --json` output.
 */
export function note(text: string, data: Record<string, unknown>): void {
  console.log(text);
  console.log(`@note ${JSON.stringify(data)}`);
}
