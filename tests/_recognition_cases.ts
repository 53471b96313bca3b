/**
 * Recognition cases shared by every matcher (the way Hono runs one case file against
 * each of its routers): each case draws a small table, sends requests, and states the
 * route (as `METHOD template`), the raw values and the allowed methods expected.
 */

import { assertEquals, assertStrictEquals } from "@std/assert";
import { Router } from "../mod.ts";
import type { Mapper, Variant } from "../mod.ts";
import type { MatcherFactory } from "../src/matcher.ts";

/** One request and the answer expected of every matcher. */
export interface Expectation {
  /** Upper-case method as the router passes it (`HEAD` already `GET`). */
  method: string;
  /** Raw pathname. */
  path: string;
  /** The route that matches, as `METHOD template` (the first such one), or `null`. */
  route: string | null;
  /** Raw variable values of that route (or of the first path match), or `null`. */
  values: (string | undefined)[] | null;
  /** Methods of the path-matching routes when `route` is `null`. */
  allowed?: string[];
}

/** A behaviour: a table and the answers that show it. */
export interface RecognitionCase {
  /** The behaviour, as a test name. */
  name: string;
  /** Variant of the table; default B. */
  variant?: Variant;
  /** Declares the table. */
  draw: (map: Mapper) => void;
  /** Requests and answers. */
  expect: Expectation[];
}

/** The shared cases. */
export const RECOGNITION_CASES: readonly RecognitionCase[] = [
  {
    name: "the first route in registration order wins when several match",
    draw: (map) => {
      map.connect("/pages/:name", { controller: "pages", action: "show" });
      map.connect("/pages/:slug", { controller: "pages", action: "other" });
    },
    expect: [{ method: "GET", path: "/pages/about", route: "ANY /pages/:name", values: ["about"] }],
  },
  {
    name: "a dynamic route declared before a static one shadows it",
    draw: (map) => {
      map.connect("/pages/:name", { controller: "pages", action: "show" });
      map.named("about", "/pages/about", { controller: "pages", action: "about" });
    },
    expect: [
      { method: "GET", path: "/pages/about", route: "ANY /pages/:name", values: ["about"] },
      { method: "POST", path: "/pages/about/", route: "ANY /pages/:name", values: ["about"] },
    ],
  },
  {
    name: "a static route declared before a dynamic one wins over it",
    draw: (map) => {
      map.named("about", "/pages/about", { controller: "pages", action: "about" });
      map.connect("/pages/:name", { controller: "pages", action: "show" });
    },
    expect: [
      { method: "GET", path: "/pages/about", route: "ANY /pages/about", values: [] },
      { method: "GET", path: "/pages/contact", route: "ANY /pages/:name", values: ["contact"] },
    ],
  },
  {
    name: "a route whose first segment is a variable keeps its place among literal ones",
    draw: (map) => {
      map.connect("/messages", { controller: "messages", action: "index" });
      map.connect("/:section", { controller: "sections", action: "show" });
      map.connect("/news", { controller: "news", action: "index" });
    },
    expect: [
      { method: "GET", path: "/messages", route: "ANY /messages", values: [] },
      { method: "GET", path: "/news", route: "ANY /:section", values: ["news"] },
      { method: "GET", path: "/other", route: "ANY /:section", values: ["other"] },
    ],
  },
  {
    name: "a path match with another method does not stop the search",
    draw: (map) => {
      map.connect("/items/:id", {
        controller: "items",
        action: "update",
        conditions: { method: "put" },
      });
      map.connect("/items/:id", {
        controller: "items",
        action: "show",
        conditions: { method: "get" },
      });
    },
    expect: [
      { method: "GET", path: "/items/3", route: "GET /items/:id", values: ["3"] },
      { method: "PUT", path: "/items/3", route: "PUT /items/:id", values: ["3"] },
    ],
  },
  {
    name: "an ANY route accepts every method, unusual ones included",
    draw: (map) => {
      map.connect("/hooks/:id", { controller: "hooks", action: "receive" });
    },
    expect: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PROPFIND", "HEAD"].map((
      method,
    ) => ({ method, path: "/hooks/9", route: "ANY /hooks/:id", values: ["9"] })),
  },
  {
    name: "HEAD reaches only ANY routes at the matcher (the router sends it as GET)",
    draw: (map) => map.connect("/feed", { controller: "feed", conditions: { method: "get" } }),
    expect: [
      { method: "HEAD", path: "/feed", route: null, values: [], allowed: ["GET"] },
      { method: "GET", path: "/feed", route: "GET /feed", values: [] },
    ],
  },
  {
    name: "a refused method gets the methods of every path match, once each, in order",
    draw: (map) => map.resources("messages"),
    expect: [
      {
        method: "POST",
        path: "/messages/5",
        route: null,
        values: ["5"],
        allowed: ["GET", "PUT", "DELETE"],
      },
      { method: "PATCH", path: "/messages", route: null, values: [], allowed: ["GET", "POST"] },
      {
        method: "OPTIONS",
        path: "/messages/5.xml",
        route: null,
        values: ["5", "xml"],
        allowed: ["GET", "PUT", "DELETE"],
      },
    ],
  },
  {
    name: "a refused method reports the values of the first route whose path matches",
    draw: (map) => {
      map.connect("/a/:x", { controller: "a", conditions: { method: "get" } });
      map.connect("/a/:y", { controller: "a", conditions: { method: "post" } });
      map.connect("/a/:z", { controller: "a", conditions: { method: "get" } });
    },
    expect: [
      { method: "DELETE", path: "/a/1", route: null, values: ["1"], allowed: ["GET", "POST"] },
    ],
  },
  {
    name: "an ANY route whose path matches means no 405",
    draw: (map) => {
      map.connect("/jobs/:id", { controller: "jobs", conditions: { method: "get" } });
      map.connect(":controller/:action/:id");
    },
    expect: [
      {
        method: "DELETE",
        path: "/jobs/4",
        route: "ANY /:controller/:action/:id",
        values: ["jobs", "4", undefined],
      },
    ],
  },
  {
    name: "nothing matches: no route, no values, nothing allowed",
    draw: (map) => map.resources("messages"),
    expect: [
      { method: "GET", path: "/nothing", route: null, values: null },
      { method: "GET", path: "/messages/1/2/3", route: null, values: null },
      { method: "GET", path: "messages", route: null, values: null },
    ],
  },
  {
    name: "one trailing slash is ignored, a second one is not",
    draw: (map) => map.resources("messages"),
    expect: [
      { method: "GET", path: "/messages/", route: "GET /messages", values: [] },
      { method: "GET", path: "/messages/7/", route: "GET /messages/:id", values: ["7"] },
      { method: "GET", path: "/messages//", route: null, values: null },
    ],
  },
  {
    name: "an empty segment matches no route, not even the catch-all",
    draw: (map) => map.connect(":controller/:action/:id"),
    expect: [
      { method: "GET", path: "/a//b", route: null, values: null },
      { method: "GET", path: "//", route: null, values: null },
      {
        method: "GET",
        path: "/a/b",
        route: "ANY /:controller/:action/:id",
        values: ["a", "b", undefined],
      },
    ],
  },
  {
    name: "the root route matches the empty path and a lone slash",
    draw: (map) => map.named("root", "/", { controller: "home" }),
    expect: [
      { method: "GET", path: "/", route: "ANY /", values: [] },
      { method: "GET", path: "", route: "ANY /", values: [] },
      { method: "GET", path: "/x", route: null, values: null },
    ],
  },
  {
    name: "a variable stops at . ; and , so formatted and action routes get their own",
    draw: (map) => map.resources("messages", { member: { mark: "post" } }),
    expect: [
      { method: "GET", path: "/messages/1", route: "GET /messages/:id", values: ["1"] },
      {
        method: "GET",
        path: "/messages/1.xml",
        route: "GET /messages/:id.:format",
        values: ["1", "xml"],
      },
      { method: "GET", path: "/messages/1;edit", route: "GET /messages/:id;edit", values: ["1"] },
      {
        method: "GET",
        path: "/messages/1.xml;edit",
        route: "GET /messages/:id.:format;edit",
        values: ["1", "xml"],
      },
      { method: "POST", path: "/messages/1;mark", route: "POST /messages/:id;mark", values: ["1"] },
      { method: "GET", path: "/messages/1,2", route: null, values: null },
      { method: "GET", path: "/messages/1.2.xml", route: null, values: null },
    ],
  },
  {
    name: "a requirement replaces the default rule for its variable, anchored",
    draw: (map) => {
      map.connect("/files/:name", {
        controller: "files",
        requirements: { name: /[a-z0-9.]+/i },
      });
      map.connect("/years/:year", { controller: "years", requirements: { year: /\d{4}/ } });
    },
    expect: [
      {
        method: "GET",
        path: "/files/Report.PDF",
        route: "ANY /files/:name",
        values: ["Report.PDF"],
      },
      { method: "GET", path: "/files/a_b", route: null, values: null },
      { method: "GET", path: "/years/2024", route: "ANY /years/:year", values: ["2024"] },
      { method: "GET", path: "/years/20245", route: null, values: null },
      { method: "GET", path: "/years/x2024", route: null, values: null },
    ],
  },
  {
    name: "a requirement inside a segment with literal text is honoured",
    draw: (map) => {
      map.connect("/v/:major.:minor", {
        controller: "versions",
        requirements: { major: /\d+/, minor: /\d+/ },
      });
      map.connect("/v/:name", { controller: "versions", requirements: { name: /[a-z.]+/ } });
    },
    expect: [
      { method: "GET", path: "/v/1.2", route: "ANY /v/:major.:minor", values: ["1", "2"] },
      { method: "GET", path: "/v/a.b", route: "ANY /v/:name", values: ["a.b"] },
      { method: "GET", path: "/v/1.b", route: null, values: null },
    ],
  },
  {
    name: "a variable before literal text that is not a separator backtracks like a RegExp",
    draw: (map) => {
      map.connect("/at/:hour-:minute", { controller: "clock" });
      map.connect("/span/:range", { controller: "span" });
    },
    expect: [
      { method: "GET", path: "/at/10-30", route: "ANY /at/:hour-:minute", values: ["10", "30"] },
      { method: "GET", path: "/at/1-2-3", route: "ANY /at/:hour-:minute", values: ["1-2", "3"] },
      { method: "GET", path: "/at/-30", route: null, values: null },
      { method: "GET", path: "/span/a-b", route: "ANY /span/:range", values: ["a-b"] },
    ],
  },
  {
    name: "several variables and literals in one segment are captured in order",
    draw: (map) => map.resources("messages", { new: { preview: "post" } }),
    expect: [
      {
        method: "POST",
        path: "/messages/new.json;preview",
        route: "POST /messages/new.:format;preview",
        values: ["json"],
      },
      {
        method: "GET",
        path: "/messages/new.json",
        route: "GET /messages/new.:format",
        values: ["json"],
      },
      { method: "GET", path: "/messages.json", route: "GET /messages.:format", values: ["json"] },
    ],
  },
  {
    name: "optional trailing variables are undefined when left out",
    draw: (map) => map.connect(":controller/:action/:id"),
    expect: [
      {
        method: "GET",
        path: "/widgets",
        route: "ANY /:controller/:action/:id",
        values: ["widgets", undefined, undefined],
      },
      {
        method: "GET",
        path: "/widgets/list/",
        route: "ANY /:controller/:action/:id",
        values: ["widgets", "list", undefined],
      },
      {
        method: "PUT",
        path: "/widgets/show/9",
        route: "ANY /:controller/:action/:id",
        values: ["widgets", "show", "9"],
      },
      { method: "GET", path: "/widgets/show/9/extra", route: null, values: null },
    ],
  },
  {
    name: "an optional segment whose requirement rejects the text leaves it to the next one",
    draw: (map) =>
      map.connect("/:year/:slug", {
        controller: "posts",
        requirements: { year: /\d{4}/ },
        defaults: { year: "2024", slug: "index" },
      }),
    expect: [
      { method: "GET", path: "/1999/party", route: "ANY /:year/:slug", values: ["1999", "party"] },
      { method: "GET", path: "/1999", route: "ANY /:year/:slug", values: ["1999", undefined] },
      { method: "GET", path: "/party", route: "ANY /:year/:slug", values: [undefined, "party"] },
      { method: "GET", path: "/", route: "ANY /:year/:slug", values: [undefined, undefined] },
      { method: "GET", path: "/party/1999", route: null, values: null },
    ],
  },
  {
    name: "a defaulted variable in the middle of the path is required",
    draw: (map) =>
      map.connect("/pages/:name/history", { controller: "pages", defaults: { name: "home" } }),
    expect: [
      {
        method: "GET",
        path: "/pages/about/history",
        route: "ANY /pages/:name/history",
        values: ["about"],
      },
      { method: "GET", path: "/pages/history", route: null, values: null },
    ],
  },
  {
    name: "values stay percent-encoded and literals match only their exact text",
    draw: (map) => {
      map.connect("/tags/:name", { controller: "tags" });
      map.connect("/About", { controller: "about" });
    },
    expect: [
      { method: "GET", path: "/tags/a%2Fb", route: "ANY /tags/:name", values: ["a%2Fb"] },
      { method: "GET", path: "/tags/caf%C3%A9", route: "ANY /tags/:name", values: ["caf%C3%A9"] },
      { method: "GET", path: "/About", route: "ANY /About", values: [] },
      { method: "GET", path: "/about", route: null, values: null },
      { method: "GET", path: "/%41bout", route: null, values: null },
    ],
  },
  {
    name: "nested resources under a variable path prefix resolve every level",
    variant: "A",
    draw: (map) => {
      map.resources("users", { pathPrefix: "/orgs/:org" }, (users) => {
        users.resources("keys", { member: { revoke: "delete" } });
      });
    },
    expect: [
      { method: "GET", path: "/orgs/acme/users", route: "GET /orgs/:org/users", values: ["acme"] },
      {
        method: "GET",
        path: "/orgs/acme/users/7/keys/3.json",
        route: "GET /orgs/:org/users/:user_id/keys/:id.:format",
        values: ["acme", "7", "3", "json"],
      },
      {
        method: "DELETE",
        path: "/orgs/acme/users/7/keys/3/revoke",
        route: "DELETE /orgs/:org/users/:user_id/keys/:id/revoke",
        values: ["acme", "7", "3"],
      },
      {
        method: "POST",
        path: "/orgs/acme/users/7/keys/3",
        route: null,
        values: ["acme", "7", "3"],
        allowed: ["GET", "PUT", "DELETE"],
      },
    ],
  },
  {
    name: "a singleton and its nested resources resolve under its path",
    draw: (map) => {
      map.resource("account", (account) => account.resources("notifications"));
    },
    expect: [
      { method: "GET", path: "/account", route: "GET /account", values: [] },
      { method: "GET", path: "/account;edit", route: "GET /account;edit", values: [] },
      {
        method: "DELETE",
        path: "/account/notifications/4",
        route: "DELETE /account/notifications/:id",
        values: ["4"],
      },
    ],
  },
  {
    name: "many resources with the same shape keep their own routes",
    variant: "C",
    draw: (map) => {
      for (let i = 0; i < 40; i++) map.resources(`things${i}`, { member: { mark: "post" } });
    },
    expect: [
      {
        method: "POST",
        path: "/things39/1;mark",
        route: "POST /things39/:id;mark",
        values: ["1"],
      },
      { method: "GET", path: "/things0", route: "GET /things0", values: [] },
      { method: "GET", path: "/things40", route: null, values: null },
    ],
  },
];

/** A route as the cases name it. */
function label(route: { method: string; path: string } | null): string | null {
  return route === null ? null : `${route.method} ${route.path}`;
}

/** Registers one `Deno.test` per shared case for the matcher `factory` builds. */
export function testRecognitionCases(name: string, factory: MatcherFactory): void {
  for (const { name: behaviour, variant, draw, expect } of RECOGNITION_CASES) {
    Deno.test(`${name}: ${behaviour}`, () => {
      const router = new Router({ variant: variant ?? "B", onDeprecation: () => {} });
      const { routes } = router.draw(draw);
      const matcher = factory(routes);
      for (const { method, path, route, values, allowed = [] } of expect) {
        // Asked twice: answers may be cached, and the second must be the same.
        for (const attempt of ["first", "second"]) {
          const where = `${method} ${JSON.stringify(path)} (${attempt} time)`;
          const result = matcher.match(path, method);
          assertStrictEquals(label(result.route), route, `${where}: route`);
          if (route !== null) {
            assertStrictEquals(
              result.route,
              routes.find((candidate) => label(candidate) === route),
              `${where}: the first route of that method and template`,
            );
          }
          assertEquals(result.values === null ? null : [...result.values], values, where);
          assertEquals([...result.allowed], allowed, `${where}: allowed`);
        }
      }
    });
  }
}
