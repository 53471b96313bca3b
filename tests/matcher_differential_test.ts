// Differential tests: on random route tables and random paths, the compiled matcher, the
// regex scan and the URLPattern reference give the same answer; and a helper gives the
// same path whether its values come positionally (the fast path) or by name. The router's
// entry point (matchRequest, which builds params itself) agrees with the scan too.
import { assertEquals, assertGreater, assertStrictEquals } from "@std/assert";
import fc from "fast-check";
import { Router } from "../mod.ts";
import type { Mapper, Method, Route, Variant } from "../mod.ts";
import { createCompiledMatcher, type RequestMatcher } from "../src/compiled_matcher.ts";
import { createScanMatcher, type Matcher, type MatchResult } from "../src/matcher.ts";
import { createReferenceMatcher } from "../src/reference_matcher.ts";
import { paramsOf } from "../src/route.ts";

// ---------------------------------------------------------------------------------------
// Random declarations

const NAMES = ["messages", "comments", "posts", "tags", "users", "news", "photos", "items"];
const ACTIONS = ["rss", "search", "mark", "publish", "preview", "archive", "flag"];
const METHODS: readonly Method[] = ["get", "post", "put", "patch", "delete", "any"];
const REQUIREMENTS = [/\d+/, /[a-z]+/i, /[a-z0-9.]+/, /[^;]+/, /x|y{2}/, /[\w.-]+/];
const LITERALS = ["a", "b", "new", "edit", "x.y", ";z", ".json", "-", "a,b", "v1", "~", ".", ".."];

type Actions = Record<string, Method>;

interface ResourceDecl {
  kind: "resources" | "resource";
  name: string;
  collection: Actions;
  member: Actions;
  new: Actions;
  pathPrefix: string | null;
  namePrefix: string | null;
  children: ResourceDecl[];
}

interface ConnectDecl {
  kind: "connect";
  /** Segments as parts: a literal or a variable (with an optional requirement index). */
  segments: { literal?: string; variable?: boolean; requirement?: number }[][];
  method: Method | null;
  /** Give the trailing variables defaults, so they become optional. */
  optionalTail: boolean;
  named: boolean;
}

type Decl = ResourceDecl | ConnectDecl;

interface Table {
  variant: Variant;
  separator: string;
  decls: Decl[];
}

const actions: fc.Arbitrary<Actions> = fc.dictionary(
  fc.constantFrom(...ACTIONS),
  fc.constantFrom(...METHODS),
  { maxKeys: 2 },
);

function resource(depth: number, taken: readonly string[]): fc.Arbitrary<ResourceDecl> {
  const names = NAMES.filter((name) => !taken.includes(name));
  return fc.record({
    kind: fc.constantFrom<"resources" | "resource">("resources", "resources", "resource"),
    name: fc.constantFrom(...names),
    collection: actions,
    member: actions,
    new: actions,
    pathPrefix: depth === 0
      ? fc.option(fc.constantFrom("/orgs/:org", "/admin", "/api/v1"), { freq: 4 })
      : fc.constant(null),
    namePrefix: fc.option(fc.constantFrom("admin_", "org_"), { freq: 4 }),
  }).chain((decl) =>
    (depth < 2
      ? fc.array(resource(depth + 1, [...taken, decl.name]), { maxLength: depth === 0 ? 2 : 1 })
      : fc.constant([] as ResourceDecl[])).map((children) => ({ ...decl, children }))
  );
}

const part = fc.oneof(
  fc.record({ literal: fc.constantFrom(...LITERALS) }),
  fc.record({ variable: fc.constant(true) }),
  fc.record({
    variable: fc.constant(true),
    requirement: fc.nat({ max: REQUIREMENTS.length - 1 }),
  }),
);

const connect: fc.Arbitrary<ConnectDecl> = fc.record({
  kind: fc.constant<"connect">("connect"),
  segments: fc.array(fc.array(part, { minLength: 1, maxLength: 3 }), {
    minLength: 1,
    maxLength: 4,
  }),
  method: fc.option(fc.constantFrom(...METHODS)),
  optionalTail: fc.boolean(),
  named: fc.boolean(),
});

const tables: fc.Arbitrary<Table> = fc.record({
  variant: fc.constantFrom<Variant>("A", "B", "C"),
  separator: fc.constantFrom("/", ";", "-", "!", "~", "+"),
  decls: fc.array(fc.oneof(resource(0, []), connect), { minLength: 1, maxLength: 5 }),
});

/** The template of a random connect: variables named in order, adjacent ones split. */
function connectTemplate(decl: ConnectDecl): {
  path: string;
  requirements: Record<string, RegExp>;
  variables: string[];
} {
  const requirements: Record<string, RegExp> = {};
  const variables: string[] = [];
  const path = decl.segments.map((parts) => {
    let text = "";
    let previousVariable = false;
    for (const piece of parts) {
      if (piece.literal !== undefined) {
        text += piece.literal;
        previousVariable = false;
      } else {
        if (previousVariable) text += ".";
        const name = `v${variables.length}`;
        variables.push(name);
        text += `:${name}`;
        if (piece.requirement !== undefined) {
          requirements[name] = REQUIREMENTS[piece.requirement];
        }
        previousVariable = true;
      }
    }
    return "/" + text;
  }).join("");
  return { path, requirements, variables };
}

function declare(map: Mapper, decl: Decl, index: number): void {
  if (decl.kind === "connect") {
    const { path, requirements, variables } = connectTemplate(decl);
    const defaults: Record<string, string> = {};
    if (decl.optionalTail) { for (const name of variables) defaults[name] = "d"; }
    const options = {
      controller: "c",
      requirements,
      defaults,
      ...(decl.method === null ? {} : { conditions: { method: decl.method } }),
    };
    try {
      if (decl.named) map.named(`route${index}`, path, options);
      else map.connect(path, options);
    } catch (error) {
      // Random templates may break declaration rules; the table simply lacks them.
      if (!(error instanceof TypeError)) throw error;
    }
    return;
  }
  if (decl.kind === "resource" && map.variant === "C") return;
  const options = {
    collection: decl.collection,
    member: decl.member,
    new: decl.new,
    ...(decl.pathPrefix === null ? {} : { pathPrefix: decl.pathPrefix }),
    ...(decl.namePrefix === null ? {} : { namePrefix: decl.namePrefix }),
  };
  const block = (nested: Mapper) =>
    decl.children.forEach((child, at) => declare(nested, child, index * 10 + at));
  if (decl.kind === "resource") map.resource(decl.name, options, block);
  else map.resources(decl.name, options, block);
}

function build(table: Table): Router {
  return new Router({
    variant: table.variant,
    actionSeparator: table.separator,
    onDeprecation: () => {},
  }).draw((map) => table.decls.forEach((decl, index) => declare(map, decl, index)));
}

// ---------------------------------------------------------------------------------------
// Random paths, as `new URL()` leaves them

const VALUES = [
  "1",
  "42",
  "a",
  "xml",
  "json",
  "a.b",
  "a;b",
  "a,b",
  "new",
  "edit",
  "%2F",
  "%2E",
  "caf%C3%A9",
  "Zz",
  "x",
  "yy",
  "-",
  "~",
  "'",
  "(x)",
  "",
  "..",
  "a b",
];

interface PathRecipe {
  /** Which route the path is drawn from (modulo the table size). */
  route: number;
  /** Values for its variables, in order. */
  values: number[];
  /** 0: as is; 1: drop the last segment; 2: add a segment; 3: trailing slash; 4: change a literal. */
  mutation: number;
}

const recipes: fc.Arbitrary<PathRecipe> = fc.record({
  route: fc.nat(),
  values: fc.array(fc.nat({ max: VALUES.length - 1 }), { minLength: 4, maxLength: 4 }),
  mutation: fc.nat({ max: 4 }),
});

/** Free text: what a client might put in a URL before the parser cleans it up. */
const freeText = fc.string({
  unit: fc.constantFrom(
    ..."/././;,.-_~%2Fabcxyz019:@!$&'()*+= ?#\\é€\u00a0".split(""),
    "messages",
    "new",
    "edit",
    "..",
    "%2e",
    "%",
  ),
  maxLength: 24,
});

/** The pathname a server sees for a request target written as `text`. */
function pathname(text: string): string {
  return new URL(`http://x${text.startsWith("/") ? "" : "/"}${text}`).pathname;
}

function fromRecipe(routes: readonly Route[], recipe: PathRecipe): string {
  const route = routes[recipe.route % routes.length];
  let value = 0;
  const segments = route.segments.map((segment) =>
    segment.parts.map((piece) =>
      "literal" in piece ? piece.literal : VALUES[recipe.values[value++ % 4]]
    ).join("")
  );
  switch (recipe.mutation) {
    case 1:
      segments.pop();
      break;
    case 2:
      segments.push(VALUES[recipe.values[0]]);
      break;
    case 4:
      if (segments.length > 0) segments[0] = segments[0].toUpperCase();
      break;
  }
  return pathname("/" + segments.join("/") + (recipe.mutation === 3 ? "/" : ""));
}

const REQUEST_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

const requests = fc.array(
  fc.record({
    source: fc.oneof(
      { weight: 3, arbitrary: recipes },
      { weight: 1, arbitrary: freeText },
    ),
    method: fc.constantFrom(...REQUEST_METHODS),
  }),
  { minLength: 1, maxLength: 30 },
);

// ---------------------------------------------------------------------------------------
// Properties

function answer(result: MatchResult) {
  return {
    route: result.route,
    values: result.values === null ? null : [...result.values],
    allowed: [...result.allowed],
  };
}

function agree(routes: readonly Route[], matchers: Matcher[], path: string, method: string) {
  const [expected, ...others] = matchers.map((matcher) => answer(matcher.match(path, method)));
  for (const other of others) {
    const where = `${method} ${JSON.stringify(path)}`;
    assertStrictEquals(
      other.route,
      expected.route,
      `${where}: ${other.route?.path} vs ${expected.route?.path}`,
    );
    assertEquals(other.values, expected.values, `${where}: values`);
    assertEquals(other.allowed, expected.allowed, `${where}: allowed`);
  }
  void routes;
}

Deno.test("on random tables and paths the compiled matcher agrees with the URLPattern reference and the scan", () => {
  fc.assert(
    fc.property(tables, requests, (table, list) => {
      const { routes } = build(table);
      fc.pre(routes.length > 0);
      const matchers = [
        createReferenceMatcher(routes),
        createScanMatcher(routes),
        createCompiledMatcher(routes),
      ];
      for (const { source, method } of list) {
        const path = typeof source === "string" ? pathname(source) : fromRecipe(routes, source);
        agree(routes, matchers, path, method);
      }
    }),
    { numRuns: 60 },
  );
});

/**
 * What the router's own entry point answers: `matchRequest` gives a path without `%`
 * that routes as the route and its params (built from the matcher's copy of the route's
 * plan), and anything else as `match` does; either way it must agree with the scan on the
 * path without its query or fragment.
 */
function agreeOnRequest(request: RequestMatcher, scan: Matcher, path: string, method: string) {
  const got = request.matchRequest(path, method);
  if (got === undefined) return; // an odd path: the router's part
  // A query or fragment is left out: the answer is the pathname's.
  const pathname = request.queryAt < 0 ? path : path.slice(0, request.queryAt);
  assertEquals(pathname, path.split(/[?#]/)[0], `${method} ${JSON.stringify(path)}`);
  const expected = scan.match(pathname, method);
  const where = `${method} ${JSON.stringify(path)}`;
  if ("params" in got) {
    assertStrictEquals(got.route, expected.route, `${where}: ${got.route.path}`);
    assertEquals(got.params, paramsOf(got.route, expected.values!), `${where}: params`);
  } else {
    // A refusal of a path within `longest` may leave its values out (see `matchRequest`).
    const left = got.allowed.length > 0 && got.values?.length === 0;
    assertEquals(answer(got), answer(left ? { ...expected, values: [] } : expected), where);
  }
}

Deno.test("on many more random tables the compiled matcher agrees with the scan", () => {
  fc.assert(
    fc.property(tables, requests, (table, list) => {
      const { routes } = build(table);
      fc.pre(routes.length > 0);
      const scan = createScanMatcher(routes);
      const matchers = [scan, createCompiledMatcher(routes)];
      const request = createCompiledMatcher(routes);
      for (const { source, method } of list) {
        const path = typeof source === "string" ? pathname(source) : fromRecipe(routes, source);
        agree(routes, matchers, path, method);
        agreeOnRequest(request, scan, path, method);
        // Raw text too, as recognize() receives it from callers other than handle().
        if (typeof source === "string") {
          agree(routes, matchers, "/" + source, method);
          agreeOnRequest(request, scan, "/" + source, method);
        }
      }
    }),
    { numRuns: 400 },
  );
});

Deno.test("a helper gives the same path from positional values as from named ones", () => {
  const anyValue = fc.oneof(
    fc.constantFrom(...VALUES),
    fc.string({ maxLength: 6 }),
    fc.integer({ min: -5, max: 100000 }),
    fc.constantFrom(1.5, NaN, Infinity, -0),
  );
  // Two calls that fail alike agree too: some calls must give a path.
  let paths = 0;
  fc.assert(
    fc.property(tables, fc.array(anyValue, { minLength: 4, maxLength: 4 }), (table, values) => {
      const router = build(table);
      for (const [name, route] of router.namedRoutes) {
        const helper = router.helpers[`${name}_path`];
        const given = route.variables.map((_, i) => values[i]);
        const named = Object.fromEntries(
          route.variables.map((variable, i) => [variable, given[i]]),
        );
        const outcome = (call: () => unknown) => {
          try {
            return { path: call() };
          } catch (error) {
            return { error: (error as Error).message };
          }
        };
        const positional = outcome(() => helper(...given));
        assertEquals(
          positional,
          outcome(() => helper(named)),
          `${name}(${given.map((value) => JSON.stringify(value)).join(", ")})`,
        );
        if ("path" in positional) paths++;
      }
    }),
    { numRuns: 150 },
  );
  assertGreater(paths, 0);
});
