import { assert, assertEquals } from "@std/assert";
import { createCompiledMatcher } from "../src/compiled_matcher.ts";
import {
  createScanMatcher,
  type Matcher,
  type MatcherFactory,
  type MatchResult,
} from "../src/matcher.ts";
import { createReferenceMatcher } from "../src/reference_matcher.ts";
import { forumRouter, VARIANTS } from "./_fixtures.ts";
import { testRecognitionCases } from "./_recognition_cases.ts";
import { type RouteMatch, Router } from "../mod.ts";
import { paramsOf } from "../src/route.ts";

/** Every matcher implementation; each runs the shared recognition cases. */
const MATCHERS: readonly [string, MatcherFactory][] = [
  ["compiled matcher", createCompiledMatcher],
  ["regex scan", createScanMatcher],
  ["URLPattern reference", createReferenceMatcher],
];

for (const [label, factory] of MATCHERS) testRecognitionCases(label, factory);

/** Paths covering every kind of route of the forum table, plus near misses. */
const PATHS = [
  "/",
  "/messages",
  "/messages/",
  "/messages.xml",
  "/messages/new",
  "/messages/new.json",
  "/messages/new;preview",
  "/messages/new/preview",
  "/messages/new.xml;preview",
  "/messages/search",
  "/messages;search",
  "/messages.json;search",
  "/messages/search.json",
  "/messages/1",
  "/messages/1.xml",
  "/messages/a%2Fb",
  "/messages/a%2Eb.json",
  "/messages/1/edit",
  "/messages/1;edit",
  "/messages/1.xml;edit",
  "/messages/1/edit.xml",
  "/messages/1;publish",
  "/messages/1/publish",
  "/messages/1;flag",
  "/messages/1/flag",
  "/messages/1/comments",
  "/messages/1/comments/2",
  "/messages/1/comments/2;approve",
  "/messages/1/comments/2/votes/3.json",
  "/threads/7/posts/recent",
  "/threads/7/posts;recent",
  "/admin/acme/users/3",
  "/news",
  "/news/1",
  "/account",
  "/account.json",
  "/account;edit",
  "/account/edit",
  "/account/notifications/4",
  "/projects/1/settings",
  "/files/Report.PDF",
  "/files/a%20b",
  "/pages",
  "/pages/about",
  "/pages/about/",
  "/widgets",
  "/widgets/list",
  "/widgets/show/9",
  "/widgets/show/9/extra",
  "/messages//1",
  "/messages/1,2",
  "/messages/1;",
  "/a/b/c/d/e",
];
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** A match result in plain values, to compare. */
function shown({ route, values, allowed }: MatchResult) {
  return { route: route?.path ?? null, name: route?.name ?? null, values, allowed };
}

function answers(matcher: Matcher, path: string, method: string) {
  return shown(matcher.match(path, method));
}

for (const variant of VARIANTS) {
  for (const [label, factory] of MATCHERS.slice(0, 2)) {
    Deno.test(`variant ${variant}: the ${label} agrees with the URLPattern reference`, () => {
      const { routes } = forumRouter(variant);
      const fast = factory(routes);
      const reference = createReferenceMatcher(routes);
      for (const path of PATHS) {
        for (const method of METHODS) {
          assertEquals(
            answers(fast, path, method),
            answers(reference, path, method),
            `${method} ${path}`,
          );
        }
      }
    });
  }
}

Deno.test("matchers report the first path match's values and the allowed methods on 405", () => {
  const { routes } = new Router({ variant: "B" }).draw((map) => map.resources("messages"));
  for (const matcher of MATCHERS.map(([, factory]) => factory(routes))) {
    const result = matcher.match("/messages/5", "POST");
    assertEquals(result.route, null);
    assertEquals(result.values, ["5"]);
    assertEquals(result.allowed, ["GET", "PUT", "DELETE"]);
  }
});

Deno.test("a segment that only starts like a literal never matches it, however deep the tree", () => {
  // Enough routes of one length for the compiled matcher to descend by segment keys, and
  // requirements, so that the path's separators are not ruled out by its shape alone.
  const { routes } = new Router().draw((map) => {
    for (let i = 0; i < 12; i++) {
      map.connect(`/admin/r${i}/:id`, {
        controller: "reports",
        action: `show${i}`,
        requirements: { id: /\d+/ },
      });
    }
  });
  for (const matcher of MATCHERS.map(([, factory]) => factory(routes))) {
    assertEquals(matcher.match("/admin/r3/5", "GET").route?.action, "show3");
    for (const path of ["/admin;x/r3/5", "/admin.json/r3/5", "/admin/r3,x/5", "/admin/r3?/5"]) {
      assertEquals(answers(matcher, path, "GET").route, null, path);
    }
  }
});

Deno.test("segment keys with the same hash are told apart by their text", () => {
  // "Aa" and "BB" have the same hash in the compiled matcher (65 * 31 + 97 = 66 * 31 +
  // 66), which descends by key hashes alone: each must still reach its own routes, a
  // key of that hash that no route has must reach only the wildcards, and the 405
  // answer must not borrow methods from the other key.
  const { routes } = new Router().draw((map) => {
    for (let i = 0; i < 10; i++) {
      map.connect(`/Aa/:id/r${i}`, {
        controller: "a",
        action: `r${i}`,
        conditions: { method: "get" },
      });
    }
    map.connect("/BB/:id/r1", { controller: "b", action: "r1", conditions: { method: "post" } });
    map.connect("/:section/:id/r2", {
      controller: "any",
      action: "r2",
      conditions: { method: "put" },
    });
    map.connect("/x/:id/Aa", { controller: "x", action: "aa" });
  });
  for (const matcher of MATCHERS.map(([, factory]) => factory(routes))) {
    assertEquals(matcher.match("/Aa/1/r1", "GET").route?.action, "r1");
    assertEquals(matcher.match("/BB/1/r1", "POST").route?.controller, "b");
    assertEquals(answers(matcher, "/BB/1/r1", "GET").allowed, ["POST"]);
    assertEquals(answers(matcher, "/BB/1/r3", "GET").route, null);
    assertEquals(answers(matcher, "/BB/1/r3", "GET").allowed, []);
    assertEquals(answers(matcher, "/BB/1/r2", "GET").allowed, ["PUT"]);
    assertEquals(matcher.match("/x/1/Aa", "GET").route?.action, "aa");
    assertEquals(answers(matcher, "/x/1/BB", "GET").route, null);
  }
});

Deno.test("a path's literals are compared with its own characters, not a longer path's before", () => {
  // The compiled matcher copies each path's characters into a buffer that it keeps: a
  // shorter path after a longer one must not match text that only the longer one had.
  const { routes } = new Router().draw((map) => {
    map.connect("/a/:name.tar", { controller: "tar" });
    map.connect("/b/:name-gz", { controller: "gz" });
    map.connect("/c/:a-:b-z", { controller: "split" });
    map.connect("/d/abc", { controller: "literal" });
  });
  for (const matcher of MATCHERS.map(([, factory]) => factory(routes))) {
    const cases = [
      ["/a/x.tar", "/a/x.t", "/a/:name.tar"],
      ["/b/x-gz", "/b/x-g", "/b/:name-gz"],
      ["/c/x-y-z", "/c/x-y-", "/c/:a-:b-z"],
      ["/d/abc", "/d/ab", "/d/abc"],
    ];
    for (const [longer, shorter, template] of cases) {
      assertEquals(answers(matcher, longer, "GET").route, template, longer);
      assertEquals(answers(matcher, shorter, "GET").route, null, shorter);
    }
  }
});

Deno.test("variables that may hold the text between them split a segment as a RegExp would", () => {
  const { routes } = new Router().draw((map) => {
    map.connect("/dl/:name-:version-:arch-setup", { controller: "dl" });
    map.connect("/d/:year-:month-:day", { controller: "d" });
    map.connect("/e/:a-x-:b", { controller: "e" });
    map.connect("/f/pre:a-:b.:c", { controller: "f" });
    map.connect("/g/:a~:b", { controller: "g", conditions: { method: "post" } });
  });
  const reference = createReferenceMatcher(routes);
  const units = ["-", "a", "x", "-x-", ".", ";", "setup", "pre"];
  const tails: string[] = [];
  for (let i = 0; i < 4000; i++) {
    let tail = "";
    for (let n = i; n > 0; n = Math.floor(n / units.length)) tail += units[n % units.length];
    tails.push(tail);
  }
  for (const matcher of MATCHERS.map(([, factory]) => factory(routes))) {
    assertEquals(matcher.match("/dl/app-1-x64-setup", "GET").values, ["app", "1", "x64"]);
    assertEquals(matcher.match("/d/a-b-c-d", "GET").values, ["a-b", "c", "d"]);
    for (const head of ["dl", "d", "e", "f", "g"]) {
      for (const tail of tails) {
        const path = `/${head}/${tail}`;
        for (const method of ["GET", "POST"]) {
          assertEquals(answers(matcher, path, method), answers(reference, path, method), path);
        }
      }
    }
  }
});

Deno.test("such a segment is matched without a RegExp, which would take the cube of its length", () => {
  const { routes } = new Router().draw((map) => {
    map.connect("/dl/:name-:version-:arch-setup", { controller: "dl" });
  });
  const matcher = createCompiledMatcher(routes);
  assertEquals(matcher.match("/dl/a-1-x-setup", "GET").values, ["a", "1", "x"]);
  const { exec, test } = RegExp.prototype;
  let runs = 0;
  RegExp.prototype.exec = function (this: RegExp, text: string) {
    runs++;
    return exec.call(this, text);
  };
  RegExp.prototype.test = function (this: RegExp, text: string) {
    runs++;
    return test.call(this, text);
  };
  try {
    // A RegExp took seconds on this: every split of the dashes between three variables.
    assertEquals(matcher.match(`/dl/${"-".repeat(3000)}x`, "GET").route, null);
    assertEquals(matcher.match(`/dl/${"-".repeat(3000)}-setup`, "GET").values?.[0]?.length, 2996);
  } finally {
    RegExp.prototype.exec = exec;
    RegExp.prototype.test = test;
  }
  assertEquals(runs, 0);
});

Deno.test("requests build no key-tree node beyond those the table's own paths build", () => {
  // Literal keys at different depths: each combination of them, one per depth, is a path
  // no route has, and each once built nodes of its own (268 MB for a 48-route table).
  const cross = new Router().draw((map) => {
    for (let depth = 0; depth < 4; depth++) {
      for (let i = 0; i < 4; i++) {
        const segments = [":a", ":b", ":c", ":d"];
        segments[depth] = `k${depth}x${i}`;
        map.connect("/" + segments.join("/"), { controller: "c", action: `a${depth}x${i}` });
      }
    }
  });
  const localized = new Router({ variant: "B" }).draw((map) => {
    for (const name of ["messages", "photos", "people"]) {
      map.resources(name);
      map.resources(name, { pathPrefix: "/:locale", namePrefix: `l_${name}_` });
    }
  });
  const methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
  for (const { routes } of [cross, localized]) {
    const matcher = createCompiledMatcher(routes);
    const reference = createReferenceMatcher(routes);
    const fill = (path: string) =>
      path.replace(/:\w+/g, (name) => name === ":format" ? "json" : "7");
    // The table's own paths, and one of each segment count up to theirs (for the tree's roots).
    const own = routes.map((route) => fill(route.path));
    const most = Math.max(...routes.map((route) => route.segments.length));
    for (let count = 1; count <= most; count++) own.push("/7".repeat(count));
    for (const path of own) {
      for (const method of methods) matcher.match(path, method);
    }
    const built = matcher.nodes;
    // Every path of every combination of the keys routes have at each depth, or none.
    const keys: Set<string>[] = [];
    for (const route of routes) {
      fill(route.path).split("/").slice(1).forEach((segment, depth) => {
        (keys[depth] ??= new Set(["7"])).add(segment.split(/[.;,]/)[0]);
      });
    }
    let paths = [""];
    for (const atDepth of keys) {
      paths = paths.flatMap((path) => [...atDepth].map((key) => `${path}/${key}`));
      for (const path of paths) {
        for (const method of methods) {
          assertEquals(answers(matcher, path, method), answers(reference, path, method), path);
        }
      }
    }
    assertEquals(matcher.nodes, built);
  }
});

const TEN = Array.from({ length: 10 }, (_, i) => `t${i}`).join("/");

Deno.test("routes are told apart by their separators, however many a path has", () => {
  // The compiled matcher compares a hash of a path's separators with a route's before
  // trying it; here 9 to 13 of them, the first ones telling some paths apart.
  const ends = [":a.:b", ":a.:b.:c", ":a;:b", ":a,:b;x", "n.:b", ":a.:b;edit"];
  const { routes } = new Router().draw((map) => {
    for (const depth of [8, 9, 10]) {
      const base = Array.from({ length: depth }, (_, i) => `s${i}`).join("/");
      ends.forEach((end, i) =>
        map.connect(`/${base}/${end}`, { controller: "c", action: `e${i}` })
      );
    }
    map.connect(`/:p.:q/${TEN}/:a`, { controller: "c", action: "deep" });
  });
  const tails = [
    ..."x.y x.y.z x;y x,y;x x,y;z x.y;x n.y n.y.z x.y;edit x.y;edit.z x x. .y x..y x;y.z".split(
      " ",
    ),
    "x.y;edit;edit",
    ".",
  ];
  const reference = createReferenceMatcher(routes);
  for (const matcher of MATCHERS.map(([, factory]) => factory(routes))) {
    assertEquals(matcher.match(`/x.y/${TEN}/z`, "GET").route?.action, "deep");
    for (const head of ["x;y", "x,y", "x.y.z", "x"]) {
      assertEquals(answers(matcher, `/${head}/${TEN}/z`, "GET").route, null, head);
    }
    for (const depth of [8, 9, 10]) {
      const base = Array.from({ length: depth }, (_, i) => `s${i}`).join("/");
      assertEquals(matcher.match(`/${base}/x.y.z`, "GET").values, ["x", "y", "z"]);
      assertEquals(matcher.match(`/${base}/x.y;edit`, "GET").route?.action, "e5");
      for (const tail of tails) {
        const path = `/${base}/${tail}`;
        assertEquals(answers(matcher, path, "GET"), answers(reference, path, "GET"), path);
      }
    }
  }
});

Deno.test("static paths that differ only after a separator keep their own cached answers", () => {
  // "/feed.rss", "/feed.atom" and "/feed;rss" share their segment keys; the compiled
  // matcher caches static answers by a hash of keys and shape and must tell them apart.
  const { routes } = new Router().draw((map) => {
    const get = { method: "get" } as const;
    map.connect("/feed.rss", { controller: "feeds", action: "rss", conditions: get });
    map.connect("/feed.atom", { controller: "feeds", action: "atom", conditions: get });
    map.connect("/feed;rss", { controller: "feeds", action: "matrix" });
    map.connect("/feed.rss", {
      controller: "feeds",
      action: "create",
      conditions: { method: "post" },
    });
  });
  for (const matcher of MATCHERS.map(([, factory]) => factory(routes))) {
    for (let round = 0; round < 2; round++) {
      assertEquals(matcher.match("/feed.rss", "GET").route?.action, "rss");
      assertEquals(matcher.match("/feed.atom", "GET").route?.action, "atom");
      assertEquals(matcher.match("/feed;rss", "GET").route?.action, "matrix");
      assertEquals(matcher.match("/feed.rss", "POST").route?.action, "create");
      assertEquals(answers(matcher, "/feed.atom", "POST").allowed, ["GET"]);
      assertEquals(answers(matcher, "/feed.xml", "GET").route, null);
    }
  }
});

/** Asserts that two answers of `matchRequest` are the same route and params, or result. */
function assertSameAnswer(
  got: RouteMatch | MatchResult | undefined,
  expected: RouteMatch | MatchResult | undefined,
  where: string,
) {
  if (expected === undefined || got === undefined) {
    assertEquals(got, expected, where);
  } else if ("params" in expected) {
    assert("params" in got, where);
    assertEquals([got.route, got.params], [expected.route, expected.params], where);
  } else {
    assert(!("params" in got), where);
    assertEquals(shown(got), shown(expected), where);
  }
}

Deno.test("matchRequest answers as match, leaves out a query or fragment, and leaves an odd path to the router", () => {
  const matcher = createCompiledMatcher(forumRouter("A").routes);
  let direct = 0;
  for (const path of PATHS) {
    for (const method of METHODS) {
      if (path.includes("//") && /[?#%]/.test(path)) {
        // An empty segment ends the scan early, before a later "?" could be seen.
        assertEquals(matcher.matchRequest(path, method), undefined, path);
        continue;
      }
      const request = matcher.matchRequest(path, method)!;
      const expected = matcher.match(path, method);
      if ("params" in request) {
        // A path without "%" that routes: the route and its params, ready to hand out.
        direct++;
        assertEquals(path.includes("%"), false, path);
        assertEquals(request.route, expected.route, `${method} ${path}`);
        assertEquals(request.params, paramsOf(expected.route!, expected.values!));
      } else {
        // A refusal may leave its values out: none can be over the limit (`longest`).
        const left = expected.allowed.length > 0 && request.values?.length === 0;
        const values = left ? [] : expected.values;
        assertEquals(shown(request), shown({ ...expected, values }), `${method} ${path}`);
        assertEquals(matcher.encoded, path.includes("%"), path);
      }
    }
    // With a query or fragment: the pathname's answer, and `queryAt` says where it ends.
    for (const suffix of ["?page=2", "#top", "?a/b//c", "?q=%zz", "#a?b", "?"]) {
      const where = path + suffix;
      const cut = matcher.matchRequest(where, "GET");
      if (path.includes("//")) {
        // An empty segment ends the scan early, before the "?" or "#" could be seen.
        assertEquals(cut, undefined, where);
        continue;
      }
      assertEquals(matcher.queryAt, path.length, where);
      assertSameAnswer(cut, matcher.matchRequest(path, "GET"), where);
      assertEquals(matcher.queryAt, -1, path);
    }
  }
  // A "/" right before the query is a trailing one, the root's included.
  for (const [where, path] of [["/messages/?x", "/messages"], ["/?x", "/"], ["/#", "/"]]) {
    assertSameAnswer(matcher.matchRequest(where, "GET"), matcher.matchRequest(path, "GET"), where);
  }
  for (const path of ["", "messages/1", "%2Fmessages"]) {
    assertEquals(matcher.matchRequest(path, "GET"), undefined, path);
  }
  // An empty segment, or more segments than any route has, is a miss found by the scan
  // alone, unless a query, a fragment or a `%` may follow where it stopped.
  const deepest = "/a".repeat(
    forumRouter("A").routes.reduce(
      (most, route) => Math.max(most, route.segments.length),
      0,
    ) + 1,
  );
  for (const path of ["/messages//1", "/messages/1//", deepest, `${deepest}/b`]) {
    assertEquals(
      shown(matcher.matchRequest(path, "GET") as MatchResult),
      shown(matcher.match(path, "GET")),
      path,
    );
    assertEquals(matcher.match(path, "GET").route, null, path);
    for (const tail of ["?x/y", "#x", "/%zz"]) {
      assertEquals(matcher.matchRequest(path + tail, "GET"), undefined, path + tail);
    }
  }
  assertEquals(direct > 0, true);
});

Deno.test("matchRequest hands out a static path's params too, from its cached answer", () => {
  // The table's static texts are cached; a route with variables or defaults may answer one.
  const { routes } = new Router().draw((map) => {
    map.connect(":locale/photos", { controller: "photos", requirements: { locale: /[a-z]{2}/ } });
    map.connect("en/photos", { controller: "other" });
    map.connect("pages/:name", { controller: "pages", action: "show", defaults: { name: "home" } });
    map.connect("pages", { controller: "pages", action: "list" });
    map.resources("messages");
  });
  const matcher = createCompiledMatcher(routes);
  const cases: [string, string, Record<string, string>][] = [
    ["GET", "/en/photos", { controller: "photos", action: "index", locale: "en" }],
    ["GET", "/pages", { controller: "pages", action: "show", name: "home" }],
    ["GET", "/messages/", { controller: "messages", action: "index" }],
    ["POST", "/messages", { controller: "messages", action: "create" }],
  ];
  for (let round = 0; round < 2; round++) {
    for (const [method, path, params] of cases) {
      const request = matcher.matchRequest(path, method) as RouteMatch;
      assertEquals(request.params, params, `${method} ${path}`);
      assertEquals(Object.getPrototypeOf(request.params), null);
      const expected = matcher.match(path, method);
      assertEquals(request.route, expected.route);
    }
    // A refusal stays the matcher's answer, for the router to turn into a 405.
    assertEquals((matcher.matchRequest("/messages", "PUT") as MatchResult).allowed, [
      "GET",
      "POST",
    ]);
  }
});
