/**
 * Property tests: random declarations and values round-trip through the helpers and
 * recognition; random hostile paths never raise anything but `RoutingError` and never
 * get anything but a 2xx or 4xx from `fetch`.
 */

import fc from "fast-check";
import { assert, assertEquals, assertInstanceOf } from "@std/assert";
import { type Mapper, Router, RoutingError, type Variant } from "../mod.ts";

const RESOURCES = ["posts", "photos", "people", "boxes", "news", "accounts", "orders", "tags"];
const ACTIONS = ["archive", "rate", "preview", "search", "flag", "copy"];
const METHODS = ["get", "post", "put", "patch", "delete", "any"] as const;

/** A declaration: resources with custom actions, optional prefixes and one level of nesting. */
interface Declaration {
  name: string;
  singleton: boolean;
  collection: Record<string, (typeof METHODS)[number]>;
  member: Record<string, (typeof METHODS)[number]>;
  new: Record<string, (typeof METHODS)[number]>;
  namePrefix?: string;
  pathPrefix?: string;
  children: Declaration[];
}

const actions = fc.dictionary(fc.constantFrom(...ACTIONS), fc.constantFrom(...METHODS), {
  maxKeys: 2,
});

function declaration(name: string, childNames: readonly string[]): fc.Arbitrary<Declaration> {
  return fc.record({
    name: fc.constant(name),
    singleton: fc.boolean(),
    collection: actions,
    member: actions,
    new: actions,
    namePrefix: fc.option(fc.constantFrom("admin_", "v2_"), { nil: undefined }),
    pathPrefix: fc.option(fc.constantFrom("/scope/:org", "/api"), { nil: undefined }),
    children: childNames.length === 0
      ? fc.constant<Declaration[]>([])
      : fc.tuple(...childNames.map((child) => declaration(child, []))).map((list) => [...list]),
  });
}

/** Three or four distinct resources; the last one nested in the first. */
const tables = fc.shuffledSubarray(RESOURCES, { minLength: 3, maxLength: 4 }).chain((names) =>
  fc.record({
    variant: fc.constantFrom<Variant>("A", "B", "C"),
    declarations: fc.tuple(
      ...names.slice(0, -1).map((name, index) =>
        declaration(name, index === 0 ? names.slice(-1) : [])
      ),
    ).map((list) => [...list]),
  })
);

function drawAll(map: Mapper, list: Declaration[]): void {
  for (const declaration of list) {
    const options = {
      collection: declaration.collection,
      member: declaration.member,
      new: declaration.new,
      ...(declaration.namePrefix ? { namePrefix: declaration.namePrefix } : {}),
      ...(declaration.pathPrefix ? { pathPrefix: declaration.pathPrefix } : {}),
    };
    const block = (nested: Mapper) => drawAll(nested, declaration.children);
    if (declaration.singleton && map.variant !== "C") {
      map.resource(declaration.name, options, block);
    } else {
      map.resources(declaration.name, options, block);
    }
  }
}

/** Values with the separators, `%`, spaces and any Unicode; never a dot segment. */
const values = fc.array(
  fc.oneof(
    fc.constantFrom("/", ";", ".", ",", "?", "%", " ", "#", "+", "&", "=", "%2F", "é", "😀", "\0"),
    fc.string({ unit: "binary", minLength: 1, maxLength: 8 }),
    fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 40 }),
  ),
  { minLength: 1, maxLength: 6 },
).map((parts) => parts.join(""));

Deno.test("property: every named helper's path recognises back to its route and values", () => {
  fc.assert(
    fc.property(tables, fc.array(values, { minLength: 8, maxLength: 8 }), (table, pool) => {
      const router = new Router({ variant: table.variant, onDeprecation: () => {} });
      router.draw((map) => drawAll(map, table.declarations));
      // API.md: no two routes of a table share method, path and requirements.
      const keys = router.routes.map((route) =>
        `${route.method} ${route.path} ${Object.keys(route.requirements)}`
      );
      assertEquals(keys.length, new Set(keys).size, "a route is registered twice");
      // A value equal to a literal word of some template would be recognised as that
      // literal (as in Rails: /posts/new is new, not show with id "new").
      const literals = new Set(
        router.routes.flatMap((route) =>
          route.path.split(/[/;.]/).filter((word) => !word.startsWith(":"))
        ),
      );
      const usable = pool.filter((value) =>
        !literals.has(value) && value !== "." && value !== ".."
      );
      if (usable.length === 0) return;
      for (const [name, route] of router.namedRoutes) {
        const given = Object.fromEntries(
          route.variables.map((variable, index) => [variable, usable[index % usable.length]]),
        );
        const path = (router.helpers[`${name}_path`] as (v: unknown) => string)(given);
        const method = route.method === "ANY" ? "GET" : route.method;
        const { route: recognized, params } = router.recognize(path, method);
        assertEquals(
          recognized.name === name || recognized.path === route.path,
          true,
          `${name} ${path} came back as ${recognized.name} ${recognized.path}`,
        );
        for (const variable of route.variables) assertEquals(params[variable], given[variable]);
      }
    }),
    { numRuns: 150 },
  );
});

/**
 * A segment of two to four variables with text between them (`:a-:b~:c`), and after. (Text
 * right after a variable starts with no name character: `:a_b` is one variable.)
 */
const splitSegments = fc.record({
  between: fc.array(
    fc.constantFrom("-", "~", "!", "*", "(", ")", "'", "-to-", "-x_", "-v2-", "!a1.", ".", "@"),
    {
      minLength: 1,
      maxLength: 3,
    },
  ),
  after: fc.constantFrom("", "-end", ".json", "~"),
});

/** Values made of the texts such segments hold between their variables. */
const splitValues = fc.array(
  fc.constantFrom(
    ..."a 1 2 v x to - ~ _ ! * ( ) ' . @ % é €".split(" "),
    " ",
    "-v2-",
    "!a1.",
  ),
  { minLength: 1, maxLength: 6 },
).map((parts) => parts.join("")).filter((value) => value !== "." && value !== "..");

Deno.test("property: a segment of several variables gives back each value its helper wrote", () => {
  fc.assert(
    fc.property(splitSegments, fc.array(splitValues, { minLength: 4, maxLength: 4 }), (
      { between, after },
      pool,
    ) => {
      const names = ["a", "b", "c", "d"].slice(0, between.length + 1);
      const segment = names.map((name, i) => `:${name}${between[i] ?? ""}`).join("") + after;
      const router = new Router({ variant: "B" }).draw((map) =>
        map.named("split", `/s/${segment}`, { controller: "s", action: "show" })
      );
      const given = Object.fromEntries(names.map((name, i) => [name, pool[i]]));
      const path = (router.helpers.split_path as (values: unknown) => string)(given);
      const { params } = router.recognize(path);
      for (const name of names) assertEquals(params[name], given[name], `${segment} ${path}`);
    }),
    { numRuns: 1000 },
  );
});

/** Methods a request may carry: the routed ones, HEAD, OPTIONS, lower case, an unknown one. */
const REQUEST_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "get", "BREW"];

/** Paths as hostile clients send them, before and after `new URL` canonicalises them. */
const hostilePaths = fc.array(
  fc.oneof(
    fc.constantFrom(
      "/",
      "//",
      "/..",
      "/.",
      "%00",
      "%",
      "%E0%A4%A",
      "%C0%AF",
      "%FF",
      "%2F",
      "%2E%2E",
      ";",
      ".",
      ",",
      "?",
      "#",
      "posts",
      "1",
      "new",
      "edit",
      ":id",
      "__proto__",
      "constructor",
    ),
    fc.string({ unit: "binary", maxLength: 12 }),
    fc.string({ unit: "grapheme-ascii", minLength: 200, maxLength: 2000 }),
  ),
  { maxLength: 12 },
).map((parts) => "/" + parts.join(""));

Deno.test("property: recognize raises nothing but RoutingError for any path and method", () => {
  const router = new Router({ variant: "A", maxParamLength: 300 }).draw((map) => {
    map.resources("posts", { member: { rate: "put" } }, (posts) => posts.resources("comments"));
    map.resource("account");
    map.connect("/files/:name", { controller: "files", requirements: { name: /[a-z.]+/i } });
    map.connect(":controller/:action/:id");
  });
  fc.assert(
    fc.property(
      hostilePaths,
      fc.constantFrom(...REQUEST_METHODS),
      (path, method) => {
        try {
          const { params } = router.recognize(path, method);
          assertEquals(Object.getPrototypeOf(params), null);
        } catch (error) {
          assertInstanceOf(error, RoutingError);
          assert([404, 405, 414].includes(error.status), `${error.status} for ${path}`);
        }
      },
    ),
    { numRuns: 2000 },
  );
});

Deno.test("property: recognize reads nothing after the first ? or #", () => {
  const router = new Router({ variant: "A", maxParamLength: 300 }).draw((map) => {
    map.resources("posts", { member: { rate: "put" } }, (posts) => posts.resources("comments"));
    map.connect(":controller/:action/:id");
  });
  const outcome = (path: string, method: string) => {
    try {
      const { route, params } = router.recognize(path, method);
      return { route: route.path, params: { ...params } };
    } catch (error) {
      assertInstanceOf(error, RoutingError);
      return { status: error.status, allowed: error.allowed };
    }
  };
  fc.assert(
    fc.property(
      hostilePaths,
      fc.constantFrom("?", "#"),
      hostilePaths,
      fc.constantFrom("GET", "PUT", "DELETE"),
      (path, mark, rest, method) => {
        const full = path + mark + rest;
        assertEquals(outcome(full, method), outcome(full.split(/[?#]/)[0], method), full);
      },
    ),
    { numRuns: 1000 },
  );
});

Deno.test("property: fetch answers any request path with a 2xx or 4xx, never a crash", async () => {
  const router = new Router({
    variant: "B",
    controllers: { posts: { index: () => "ok", show: () => "ok" } },
  }).draw((map) => {
    map.resources("posts", (posts) => posts.resources("comments"));
    map.connect(":controller/:action/:id");
  });
  await fc.assert(
    fc.asyncProperty(
      hostilePaths,
      fc.constantFrom(...REQUEST_METHODS),
      async (path, method) => {
        let url: URL;
        try {
          url = new URL(path, "http://localhost");
        } catch {
          return; // not a request anyone can send
        }
        const response = await router.fetch(new Request(url, { method }));
        await response.body?.cancel();
        assert(
          (response.status >= 200 && response.status < 300) ||
            (response.status >= 400 && response.status < 500),
          `${response.status} for ${method} ${url.pathname}`,
        );
      },
    ),
    { numRuns: 1000 },
  );
});
