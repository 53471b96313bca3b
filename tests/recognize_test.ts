// Acceptance tests for `router.recognize`: expectations written by hand from SPEC.md and API.md.
import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertStrictEquals,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import { HttpError, Router, RoutingError } from "../mod.ts";
import type { Block, Mapper, RouteMatch, Variant } from "../mod.ts";
import { servingRecognizer } from "../src/router.ts";
import { build, VARIANTS } from "./_fixtures.ts";
import { RECOGNITION_CASES } from "./_recognition_cases.ts";

type Row = [method: string, path: string, name: string | null, action: string | null];

function recognized(router: Router, path: string, method?: string) {
  const { route, params } = router.recognize(path, method);
  return { name: route.name, params: { ...params } };
}

function rejected(router: Router, path: string, method?: string): RoutingError {
  const error = assertThrows(() => router.recognize(path, method), RoutingError);
  assertInstanceOf(error, HttpError);
  assertInstanceOf(error, Error);
  assertEquals(error.name, "RoutingError");
  return error;
}

function table(router: Router): Row[] {
  return router.routes.map((route) => [route.method, route.path, route.name, route.action]);
}

const messages: Block<Mapper> = (map: Mapper) => map.resources("messages");

// ---------------------------------------------------------------------------------------------
// The route table (API.md "Route order")

Deno.test("variant C: collection actions first, member actions before show", () => {
  const router = build(
    "C",
    (map: Mapper) => map.resources("messages", { collection: { rss: "get" } }),
  );
  assertEquals(table(router), [
    ["GET", "/messages;rss", "rss_messages", "rss"],
    ["GET", "/messages.:format;rss", "formatted_rss_messages", "rss"],
    ["GET", "/messages", "messages", "index"],
    ["GET", "/messages.:format", "formatted_messages", "index"],
    ["POST", "/messages", null, "create"],
    ["POST", "/messages.:format", null, "create"],
    ["GET", "/messages/new", "new_message", "new"],
    ["GET", "/messages/new.:format", "formatted_new_message", "new"],
    ["GET", "/messages/:id;edit", "edit_message", "edit"],
    ["GET", "/messages/:id.:format;edit", "formatted_edit_message", "edit"],
    ["GET", "/messages/:id", "message", "show"],
    ["GET", "/messages/:id.:format", "formatted_message", "show"],
    ["PUT", "/messages/:id", null, "update"],
    ["PUT", "/messages/:id.:format", null, "update"],
    ["DELETE", "/messages/:id", null, "destroy"],
    ["DELETE", "/messages/:id.:format", null, "destroy"],
  ]);
});

Deno.test("member actions are grouped by method in hash order, edit first in the get group", () => {
  const memberRows = (member: Record<string, "get" | "post">) =>
    table(build("B", (map: Mapper) => map.resources("messages", { member })))
      .filter(([, path]) => path.includes(";"))
      .map(([method, path, name]) => [method, path, name]);
  assertEquals(memberRows({ history: "get", mark: "post" }), [
    ["GET", "/messages/:id;edit", "edit_message"],
    ["GET", "/messages/:id.:format;edit", "formatted_edit_message"],
    ["GET", "/messages/:id;history", "history_message"],
    ["GET", "/messages/:id.:format;history", "formatted_history_message"],
    ["POST", "/messages/:id;mark", "mark_message"],
    ["POST", "/messages/:id.:format;mark", "formatted_mark_message"],
  ]);
  // A get group the caller did not name comes after the caller's groups.
  assertEquals(memberRows({ mark: "post" }), [
    ["POST", "/messages/:id;mark", "mark_message"],
    ["POST", "/messages/:id.:format;mark", "formatted_mark_message"],
    ["GET", "/messages/:id;edit", "edit_message"],
    ["GET", "/messages/:id.:format;edit", "formatted_edit_message"],
  ]);
  // Naming edit: "get" gives one edit, not two.
  assertEquals(memberRows({ edit: "get" }), [
    ["GET", "/messages/:id;edit", "edit_message"],
    ["GET", "/messages/:id.:format;edit", "formatted_edit_message"],
  ]);
});

Deno.test("variants A and B: show, edit, update and destroy carry the id requirement", () => {
  const anchored = (re: RegExp) => new RegExp(`^(?:${re.source})$`, re.flags);
  for (const variant of ["A", "B"] as const) {
    const router = build(
      variant,
      (map: Mapper) =>
        map.resources("messages", { member: { mark: "post" }, collection: { rss: "get" } }),
    );
    for (const route of router.routes) {
      const keys = Object.keys(route.requirements);
      if (["show", "edit", "update", "destroy"].includes(route.action ?? "")) {
        assertEquals(keys, ["id"], `${variant} ${route.method} ${route.path}`);
        const re = anchored(route.requirements.id);
        assert(re.test("12"));
        assert(re.test("a%2Eb"));
        for (const bad of ["1.2", "a/b", "a;b", "a,b", "a?b", ""]) assert(!re.test(bad), bad);
      } else {
        assertEquals(keys, [], `${variant} ${route.method} ${route.path}`);
      }
    }
  }
});

Deno.test("variant C routes and singleton routes carry no requirements", () => {
  const c = build("C", messages);
  for (const route of c.routes) assertEquals(Object.keys(route.requirements), [], route.path);
  for (const variant of ["A", "B"] as const) {
    const s = build(variant, (map: Mapper) => map.resource("account"));
    for (const route of s.routes) assertEquals(Object.keys(route.requirements), [], route.path);
  }
});

Deno.test("draw clears every route and declares anew", () => {
  const router = build("A", messages);
  router.draw((map: Mapper) => map.resources("comments"));
  assertEquals(recognized(router, "/comments/1").name, "comment");
  assertEquals(rejected(router, "/messages/1").status, 404);
  assertEquals(router.namedRoutes.has("message"), false);
});

// ---------------------------------------------------------------------------------------------
// Default routes of a collection resource

Deno.test("the default routes of map.resources are recognised in every variant", () => {
  for (const variant of VARIANTS) {
    const router = build(variant, messages);
    const m = { controller: "messages" };
    const cases: [string, string, string | null, Record<string, string>][] = [
      ["GET", "/messages", "messages", { ...m, action: "index" }],
      ["GET", "/messages.xml", "formatted_messages", { ...m, action: "index", format: "xml" }],
      ["POST", "/messages", null, { ...m, action: "create" }],
      ["POST", "/messages.json", null, { ...m, action: "create", format: "json" }],
      ["GET", "/messages/new", "new_message", { ...m, action: "new" }],
      [
        "GET",
        "/messages/new.xml",
        "formatted_new_message",
        { ...m, action: "new", format: "xml" },
      ],
      ["GET", "/messages/7", "message", { ...m, action: "show", id: "7" }],
      [
        "GET",
        "/messages/7.xml",
        "formatted_message",
        { ...m, action: "show", id: "7", format: "xml" },
      ],
      ["PUT", "/messages/7", null, { ...m, action: "update", id: "7" }],
      ["PUT", "/messages/7.xml", null, { ...m, action: "update", id: "7", format: "xml" }],
      ["DELETE", "/messages/7", null, { ...m, action: "destroy", id: "7" }],
      ["DELETE", "/messages/7.xml", null, { ...m, action: "destroy", id: "7", format: "xml" }],
      [
        "GET",
        "/messages/7;edit",
        variant === "A" ? null : "edit_message",
        { ...m, action: "edit", id: "7" },
      ],
      [
        "GET",
        "/messages/7.xml;edit",
        variant === "A" ? null : "formatted_edit_message",
        { ...m, action: "edit", id: "7", format: "xml" },
      ],
    ];
    if (variant === "A") {
      cases.push(
        ["GET", "/messages/7/edit", "edit_message", { ...m, action: "edit", id: "7" }],
        [
          "GET",
          "/messages/7/edit.xml",
          "formatted_edit_message",
          { ...m, action: "edit", id: "7", format: "xml" },
        ],
      );
    }
    for (const [method, path, name, params] of cases) {
      assertEquals(
        recognized(router, path, method),
        { name, params },
        `${variant} ${method} ${path}`,
      );
    }
  }
});

Deno.test("variants B and C have no /:id/edit path", () => {
  for (const variant of ["B", "C"] as const) {
    assertEquals(rejected(build(variant, messages), "/messages/7/edit").status, 404);
  }
});

Deno.test("recognize returns the route object from the table and null-prototype params", () => {
  const router = build("A", messages);
  const match = router.recognize("/messages/7");
  assertStrictEquals(match.route, router.routes[6]);
  assertStrictEquals(Object.getPrototypeOf(match.params), null);
  assertStrictEquals(Object.getPrototypeOf(router.recognize("/messages").params), null);
  const catchAll = build("A", (map: Mapper) => map.connect(":controller/:action/:id"));
  assertStrictEquals(Object.getPrototypeOf(catchAll.recognize("/messages/show/1").params), null);
});

Deno.test("params of every size hold their keys in order: controller, action, variables, defaults", () => {
  // Params start from objects sized for their keys (src/route.ts, newParams); whatever
  // they start from, they hold the route's own keys and nothing else, in this order.
  for (let count = 0; count <= 9; count++) {
    const names = Array.from({ length: count }, (_, i) => `v${i}`);
    const values = names.map((_, i) => `x${i}`);
    for (const defaults of [{}, { page: "1" }] as Record<string, string>[]) {
      const router = new Router().draw((map) => {
        map.connect(["", `n${count}`, ...names.map((name) => `:${name}`)].join("/"), {
          controller: "c",
          action: "a",
          defaults,
        });
        // `:id` may be left out: params sized for one key more than they get.
        map.connect(["", `o${count}`, ...names.map((name) => `:${name}`), ":id"].join("/"), {
          controller: "c",
          action: "a",
          defaults,
        });
      });
      const expected = [
        ["controller", "c"],
        ["action", "a"],
        ...names.map((name, i) => [name, values[i]]),
        ...Object.entries(defaults),
      ];
      for (const prefix of [`n${count}`, `o${count}`]) {
        const { params } = router.recognize(["", prefix, ...values].join("/"));
        assertStrictEquals(Object.getPrototypeOf(params), null);
        assertEquals(Object.entries(params), expected, prefix);
        assertEquals(Reflect.ownKeys(params).length, expected.length, prefix);
        params.extra = "set";
        assertEquals(params.extra, "set");
      }
      const { params } = router.recognize(["", `o${count}`, ...values, "7"].join("/"));
      assertEquals(Object.keys(params), [
        ...expected.slice(0, count + 2).map(([key]) => key),
        "id",
        ...Object.keys(defaults),
      ]);
    }
  }
});

// ---------------------------------------------------------------------------------------------
// Methods

Deno.test("method defaults to GET, is case-insensitive, and HEAD is recognised as GET", () => {
  const router = build("A", messages);
  assertEquals(recognized(router, "/messages/7").params.action, "show");
  assertEquals(recognized(router, "/messages/7", "HEAD").params.action, "show");
  assertEquals(recognized(router, "/messages", "head").params.action, "index");
  assertEquals(recognized(router, "/messages/7", "get").params.action, "show");
  assertEquals(recognized(router, "/messages", "post").params.action, "create");
  assertEquals(recognized(router, "/messages", "Post").params.action, "create");
  assertEquals(recognized(router, "/messages/7", "pUt").params.action, "update");
  assertEquals(recognized(router, "/messages/7", "delete").params.action, "destroy");
  assertEquals(recognized(router, "/messages/7", "put").params.action, "update");
  const patch = assertThrows(() => router.recognize("/messages/7", "patch"), RoutingError);
  assertEquals([patch.status, patch.method], [405, "PATCH"]);
  // Only ASCII letters change case: "ſ" is no "S", and a method with it is no POST.
  for (const method of ["poſt", "Poſt", "ſ"]) {
    const error = assertThrows(() => router.recognize("/messages", method), RoutingError);
    assertEquals([error.status, error.method], [
      405,
      method.replace(/[a-z]/g, (c) => c.toUpperCase()),
    ]);
  }
});

Deno.test("a route without a method condition is ANY and accepts every method", () => {
  const router = build(
    "A",
    (map: Mapper) => map.connect("/ping", { controller: "health", action: "ping" }),
  );
  assertEquals(router.routes[0].method, "ANY");
  for (const method of ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
    assertEquals(recognized(router, "/ping", method), {
      name: null,
      params: { controller: "health", action: "ping" },
    });
  }
});

Deno.test("first match in registration order wins, not the most specific route", () => {
  const router = build("A", (map: Mapper) => {
    map.connect("/things/:id", { controller: "things", action: "show" });
    map.connect("/things/special", { controller: "special", action: "index" });
  });
  assertEquals(recognized(router, "/things/special").params, {
    controller: "things",
    action: "show",
    id: "special",
  });
});

// ---------------------------------------------------------------------------------------------
// 404 and 405

Deno.test("a path that no route matches is a 404 RoutingError with nothing allowed", () => {
  const router = build("A", messages);
  for (const path of ["/nothing", "/messages/1/2/3", "/MESSAGES", "/messages/1.2.3", "/"]) {
    const error = rejected(router, path);
    assertEquals(error.status, 404, path);
    assertEquals(error.allowed, [], path);
  }
});

Deno.test("each miss is an error of its own that reads like any RoutingError", () => {
  // Misses share a prototype made in advance (a RoutingError, so that V8 reuses its stack
  // trace when one is thrown): nothing of one miss may show through another.
  const router = build("A", messages);
  const first = rejected(router, "/nothing");
  const second = rejected(router, "/messages/new", "POST");
  assert(first !== second);
  assertInstanceOf(Object.getPrototypeOf(first), RoutingError);
  assertStrictEquals(Object.getPrototypeOf(first), Object.getPrototypeOf(second));
  assertStrictEquals(first.constructor, RoutingError);
  assertEquals(first.message, "No route matches GET /nothing");
  assertEquals(first.stack, "RoutingError: No route matches GET /nothing");
  assertEquals(String(second), `RoutingError: ${second.message}`);
  assertEquals(Object.keys(first), [
    "message",
    "stack",
    "name",
    "status",
    "method",
    "path",
    "allowed",
  ]);
  (first.allowed as string[]).push("PATCH");
  Object.assign(first, { status: 500, method: "X", path: "/x", message: "changed" });
  assertEquals([second.status, second.method, second.path], [405, "POST", "/messages/new"]);
  assertEquals(second.allowed, ["GET", "PUT", "DELETE"]);
  const third = rejected(router, "/nothing");
  assertEquals([third.status, third.allowed, third.message], [
    404,
    [],
    "No route matches GET /nothing",
  ]);
});

Deno.test("a miss made after a full garbage collection has the shape of the misses before", async () => {
  // V8 holds the shape (map) of misses only weakly; src/errors.ts keeps one miss alive so
  // that a full collection does not give the next misses a new shape, which would throw
  // away the optimized code that makes them. %DebugPrint shows the shape's address, and
  // --no-compact keeps a live shape where it is.
  const dir = await Deno.makeTempDir();
  try {
    const script = `${dir}/miss_shape.js`;
    await Deno.writeTextFile(
      script,
      `import { Router } from ${JSON.stringify(new URL("../mod.ts", import.meta.url).href)};
const router = new Router().draw((map) => map.resources("messages"));
const miss = () => { try { router.recognize("/nothing"); } catch (error) { return error; } };
%DebugPrint(miss());
gc(); gc();
%DebugPrint(miss());
`,
    );
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--config",
        new URL("../deno.json", import.meta.url).pathname,
        "--v8-flags=--expose-gc,--allow-natives-syntax,--no-compact",
        script,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(output.stdout);
    assert(output.success, new TextDecoder().decode(output.stderr));
    const shapes = [...text.matchAll(/^0x[0-9a-f]+ <Object map = (0x[0-9a-f]+)>/gm)]
      .map((match) => match[1]);
    assertEquals(shapes.length, 2, text);
    assertEquals(shapes[0], shapes[1]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a miss nobody catches is reported where misses are made, at a line that says so", async () => {
  // A thrown miss takes its place from the shared prototype's stack trace (V8 records none
  // for it), so Deno reports an uncaught one at src/errors.ts: that line must explain it.
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      "--config",
      new URL("../deno.json", import.meta.url).pathname,
      `import { Router } from ${JSON.stringify(new URL("../mod.ts", import.meta.url).href)};
new Router().draw((map) => map.resources("messages")).recognize("/nothing");`,
    ],
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const text = new TextDecoder().decode(output.stderr);
  assert(!output.success);
  assertStringIncludes(text, "RoutingError: No route matches GET /nothing");
  assertStringIncludes(text, "an uncaught miss points here: misses record no stack");
  assertStringIncludes(text, "src/errors.ts");
});

Deno.test("literal text matches the raw pathname exactly (an encoded letter is not that letter)", () => {
  const router = build("A", messages);
  assertEquals(rejected(router, "/m%65ssages").status, 404);
});

Deno.test("POST to /messages/new is a 405 listing the methods of the routes that match", () => {
  for (const variant of VARIANTS) {
    const error = rejected(build(variant, messages), "/messages/new", "POST");
    assertEquals(error.status, 405, variant);
    // new (GET), show (GET, since "new" is a valid :id), update (PUT), destroy (DELETE)
    assertEquals(error.allowed, ["GET", "PUT", "DELETE"], variant);
    assertEquals(error.method, "POST");
    assertEquals(error.path, "/messages/new");
  }
});

Deno.test("PUT and DELETE on the collection path are 405", () => {
  for (const variant of VARIANTS) {
    const router = build(variant, messages);
    for (const method of ["PUT", "DELETE", "PATCH"]) {
      const error = rejected(router, "/messages", method);
      assertEquals(error.status, 405, `${variant} ${method}`);
      assertEquals(error.allowed, ["GET", "POST"], `${variant} ${method}`);
    }
    const member = rejected(router, "/messages/7", "POST");
    assertEquals(member.status, 405);
    assertEquals(member.allowed, ["GET", "PUT", "DELETE"]);
  }
});

Deno.test("allowed lists each method once, in registration order", () => {
  const router = build("A", (map: Mapper) => {
    map.connect("/x", { controller: "x", action: "replace", conditions: { method: "put" } });
    map.connect("/x", { controller: "x", action: "create", conditions: { method: "post" } });
    map.connect("/x", { controller: "x", action: "show", conditions: { method: "get" } });
    map.connect("/:name", { controller: "y", action: "replace", conditions: { method: "put" } });
  });
  const error = rejected(router, "/x", "DELETE");
  assertEquals(error.status, 405);
  assertEquals(error.allowed, ["PUT", "POST", "GET"]);
  assertEquals(recognized(router, "/x", "HEAD").params.action, "show");
});

Deno.test("an ANY route whose path matches means no 405", () => {
  const router = build("A", (map: Mapper) => {
    map.connect("/y", { controller: "y", action: "show", conditions: { method: "get" } });
    map.connect("/:anything", { controller: "z", action: "any" });
  });
  assertEquals(recognized(router, "/y", "POST").params, {
    controller: "z",
    action: "any",
    anything: "y",
  });
});

// ---------------------------------------------------------------------------------------------
// Path normalisation and decoding

Deno.test("a trailing slash is ignored", () => {
  const router = build("A", messages);
  assertEquals(recognized(router, "/messages/").name, "messages");
  assertEquals(recognized(router, "/messages/7/").params, {
    controller: "messages",
    action: "show",
    id: "7",
  });
  assertEquals(recognized(router, "/messages/7/edit/").name, "edit_message");
});

Deno.test("a query string or a fragment is ignored", () => {
  const router = build("A", messages);
  assertEquals(recognized(router, "/messages?page=2"), {
    name: "messages",
    params: { controller: "messages", action: "index" },
  });
  assertEquals(recognized(router, "/messages/7?x=1&id=9"), {
    name: "message",
    params: { controller: "messages", action: "show", id: "7" },
  });
  assertEquals(recognized(router, "/messages/?a=b").name, "messages");
  // What follows a "?" or "#" is never read as path: not its slashes, not its escapes.
  assertEquals(recognized(router, "/messages/7#edit"), {
    name: "message",
    params: { controller: "messages", action: "show", id: "7" },
  });
  assertEquals(recognized(router, "/messages/7?next=/messages//8/edit").name, "message");
  assertEquals(recognized(router, "/messages/7?q=%zz").params.id, "7");
  assertEquals(recognized(router, "/messages/a%2Fb?q=%2F").params.id, "a/b");
  assertEquals(recognized(router, "/messages/7/edit#x?y").name, "edit_message");
  assertEquals(recognized(router, "messages/7?x").name, "message");
  assertEquals(rejected(router, "/messages/%zz?q=1").status, 404);
  assertEquals(rejected(router, "/messages//7?q=1").status, 404);
  // An error's path is the pathname, without the query: for a 404, and for a 405 whose
  // pathname has an escape that decodes and whose query one that does not.
  const missing = rejected(router, "/nowhere/?x=%zz#top");
  assertEquals([missing.status, missing.path], [404, "/nowhere/"]);
  assertEquals(missing.message, "No route matches GET /nowhere/");
  const refused = rejected(router, "/messages/a%2Fb?q=%zz", "POST");
  assertEquals([refused.status, refused.path], [405, "/messages/a%2Fb"]);
  assertEquals(refused.allowed, ["GET", "PUT", "DELETE"]);
});

Deno.test("variables are percent-decoded one by one; an encoded separator never splits", () => {
  const router = build("A", messages);
  const show = (id: string) => ({ controller: "messages", action: "show", id });
  assertEquals(recognized(router, "/messages/a%2Fb"), { name: "message", params: show("a/b") });
  assertEquals(recognized(router, "/messages/a%2fb").params.id, "a/b");
  assertEquals(recognized(router, "/messages/a%3Bb").params.id, "a;b");
  assertEquals(recognized(router, "/messages/a%2Cb").params.id, "a,b");
  assertEquals(recognized(router, "/messages/a%3Fb").params.id, "a?b");
  assertEquals(recognized(router, "/messages/a%20b").params.id, "a b");
  assertEquals(recognized(router, "/messages/a+b").params.id, "a+b");
  assertEquals(recognized(router, "/messages/caf%C3%A9").params.id, "café");
  assertEquals(recognized(router, "/messages/a%2Fedit"), {
    name: "message",
    params: show("a/edit"),
  });
  assertEquals(recognized(router, "/messages/a%2Fb/edit"), {
    name: "edit_message",
    params: { controller: "messages", action: "edit", id: "a/b" },
  });
  assertEquals(recognized(router, "/messages/a%2Eb.xml"), {
    name: "formatted_message",
    params: { controller: "messages", action: "show", id: "a.b", format: "xml" },
  });
  assertEquals(recognized(router, "/messages/100%25").params.id, "100%");
});

Deno.test("a malformed percent-encoding is a 404 RoutingError, never a crash", () => {
  const router = build("A", messages);
  for (const path of ["/messages/%E0%A4%A", "/messages/%zz", "/messages/%", "/messages/%C3"]) {
    assertEquals(rejected(router, path).status, 404, path);
  }
  // Wherever the bad escape sits: the format, a later value, behind a query string, or in
  // a path only another method's route matches (a 404 then, not a 405).
  const nested = build(
    "A",
    (map: Mapper) => map.resources("threads", (t) => t.resources("messages")),
  );
  for (
    const [path, method] of [
      ["/threads/1/messages/2.%zz", "GET"],
      ["/threads/1/messages/%C3", "GET"],
      ["/threads/%C3/messages/2", "GET"],
      ["/threads/1/messages/%zz?page=2", "GET"],
      ["/threads/1/messages/%zz", "POST"],
    ]
  ) {
    const error = rejected(nested, path, method);
    assertEquals(error.status, 404, path);
    assertEquals(error.message.includes("malformed percent-encoding"), true, error.message);
  }
  assertEquals(recognized(nested, "/threads/%C3%A9/messages/%C3%A9?x=%zz").params, {
    controller: "messages",
    action: "show",
    thread_id: "é",
    id: "é",
  });
});

// ---------------------------------------------------------------------------------------------
// Limits

Deno.test("a route with optional variables under their own rules makes no 414 of a longer literal", () => {
  // Such a route is matched with its whole-path RegExp: a segment longer than its literal
  // text ("favicon.ico" against "posts") is just another text, not a value over the limit.
  const router = new Router({ variant: "B" }).draw((map) => {
    map.connect("posts/:action/:id", { controller: "posts", requirements: { id: /\d+/ } });
    map.resources("messages");
  });
  assertEquals(rejected(router, "/favicon.ico").status, 404);
  const refused = rejected(router, "/messages", "PUT");
  assertEquals([refused.status, refused.allowed], [405, ["GET", "POST"]]);
  assertEquals(recognized(router, "/posts/show/12").params.id, "12");
  // A value over the limit still is one.
  assertEquals(rejected(router, "/posts/" + "a".repeat(1025)).status, 414);
});

Deno.test("maxPathLength: a longer pathname is a 414", () => {
  const router = build("A", messages, { maxPathLength: 12 });
  assertEquals(recognized(router, "/messages/12").params.id, "12"); // exactly 12 characters
  assertEquals(rejected(router, "/messages/123").status, 414);
  // Limits are checked before recognition: a long unknown path is 414, not 404.
  assertEquals(rejected(router, "/zzzzzzzzzzzzzzzz").status, 414);
  assertEquals(rejected(router, "/messages/123", "PATCH").status, 414);
  const defaults = build("A", messages);
  assertEquals(rejected(defaults, "/messages/" + "1".repeat(9000)).status, 414);
  // The pathname as recognize gets it: the "/" it adds itself, and a query, do not count.
  assertEquals(recognized(router, "messages/123").params.id, "123");
  assertEquals(rejected(router, "messages/1234").status, 414);
  assertEquals(rejected(router, "zzzzzzzzzzzz").status, 404);
  assertEquals(recognized(router, "/messages/12?page=12345").params.id, "12");
});

Deno.test("maxSegments: a pathname with more segments is a 414", () => {
  const router = build("A", messages, { maxSegments: 4 });
  assertEquals(recognized(router, "/messages/1/edit").name, "edit_message");
  assertEquals(rejected(router, "/a/b/c/d/e/f/g").status, 414);
  assertEquals(rejected(router, "/messages/1/edit/a/b/c").status, 414);
  assertEquals(rejected(router, "a/b/c/d").status, 404);
  assertEquals(rejected(router, "a/b/c/d/e").status, 414);
  const defaults = build("A", messages);
  assertEquals(rejected(defaults, "/a".repeat(300)).status, 414);
  assertEquals(rejected(defaults, "/a".repeat(200)).status, 404);
});

Deno.test("maxSegments: one trailing / makes no segment", () => {
  const router = build("A", (map: Mapper) => map.connect(":controller/:action/:id"), {
    maxSegments: 3,
  });
  assertEquals(recognized(router, "/a/b/c/").params.id, "c");
  assertEquals(rejected(router, "/a/b/c/d").status, 414);
});

Deno.test("maxParamLength: a variable's raw text over the limit is a 414", () => {
  const router = build("A", messages, { maxParamLength: 5 });
  assertEquals(recognized(router, "/messages/12345").params.id, "12345");
  assertEquals(rejected(router, "/messages/123456").status, 414);
  // The raw, still-encoded text counts: "%41%42" is 6 characters although it decodes to "AB".
  assertEquals(rejected(router, "/messages/%41%42").status, 414);
  assertEquals(recognized(router, "/messages/%41B").params.id, "AB");
  assertEquals(rejected(router, "/messages/123456/edit").status, 414);
  assertEquals(rejected(router, "/messages/1.xxxxxx").status, 414);
  // Only in a route whose path otherwise matches, however long the segment.
  assertEquals(rejected(router, "/nothing/123456789").status, 404);
  assertEquals(rejected(router, "/" + "q".repeat(30)).status, 404);
  assertEquals(rejected(router, "/messages/1/" + "q".repeat(30)).status, 404);
  assertEquals(rejected(router, "/messages/" + "1".repeat(30)).status, 414);
  // The limits come before the 404 of a path that does not decode, for every method.
  for (const method of ["GET", "POST", "PATCH"]) {
    assertEquals(rejected(router, "/messages/%ZZ123", method).status, 414, method);
  }
  // A text longer than a route's variables can be is not tested with its RegExp, even
  // where another route lets segments be that long (a two-loop requirement on 8,000
  // characters took 44 ms): the route would only match with a value over the limit, and
  // it could where each character is one the requirement admits.
  const wide = new Router().draw((map) => {
    map.connect("/x/:a", { controller: "x", requirements: { a: /\d+\d+/ } });
    map.connect("/y/:a-:b-:c-:d-:e-:f-:g-:h", { controller: "y" });
  });
  assertEquals(rejected(wide, "/x/" + "1".repeat(8000)).status, 414);
  assertEquals(rejected(wide, "/x/" + "1".repeat(8000) + "x").status, 404);
  assertEquals(rejected(wide, "/x/" + "1".repeat(1000) + "x").status, 404);
  const long = Array.from({ length: 8 }, () => "y".repeat(1000)).join("-");
  assertEquals(recognized(wide, `/y/${long}`).params.h.length, 1000);
  const defaults = build("A", messages);
  assertEquals(recognized(defaults, "/messages/" + "1".repeat(1024)).params.id.length, 1024);
  assertEquals(rejected(defaults, "/messages/" + "1".repeat(1025)).status, 414);
  // A pathname of exactly maxPathLength is within the limits: no route, so a 404.
  assertEquals(rejected(defaults, "/" + "a".repeat(8191)).status, 404);
});

Deno.test("maxParamLength: a route that matches with a value over the limit is a 414, every time", () => {
  // Its requirement is linear: tested on the long text, it tells that the route matches
  // first, so a later route does not answer in its place (the first call answered 414,
  // then the cached answer of the static path said 405, and a POST found the later route).
  const router = new Router({ maxParamLength: 6 }).draw((map) => {
    map.connect("/files/:name", { controller: "files", requirements: { name: /[a-z]+/ } });
    map.connect("/files/manifest", { controller: "static", conditions: { method: "post" } });
  });
  for (const method of ["GET", "GET", "POST", "BREW"]) {
    assertEquals(rejected(router, "/files/manifest", method).status, 414, method);
  }
  assertEquals(rejected(router, "/files/MANIFEST", "POST").status, 404);
  const catchAll = new Router({ variant: "C", maxParamLength: 6 }).draw((map) => {
    map.connect("/:controller/:action/:id", { requirements: { id: /\d+/ } });
    map.resources("account");
  });
  for (const path of ["/account", "/account/x", "/account", "/accounts/x"]) {
    assertEquals(rejected(catchAll, path).status, 414, path);
  }
  // A route that backtracks is not tested with its RegExp on a text too long for it (the
  // limit bounds its work): a later route answers, and where none does, a 414, every time,
  // where the text could match it (each character one its requirement admits).
  const backtracking = new Router({ maxParamLength: 6 }).draw((map) => {
    map.connect("/files/:name", { controller: "files", requirements: { name: /[a-z]+\w*x/ } });
    map.connect("/files/manifest", { controller: "static", conditions: { method: "post" } });
    map.connect("/files/mani-fest", { controller: "static", conditions: { method: "post" } });
  });
  assertEquals(rejected(backtracking, "/files/manifest").status, 414);
  assertEquals(rejected(backtracking, "/files/manifest").status, 414);
  assertEquals(recognized(backtracking, "/files/manifest", "POST").params.controller, "static");
  // A "-" no text of :name holds: the route is no match, and the path's answer is its own.
  for (const _ of [1, 2]) {
    assertEquals(rejected(backtracking, "/files/mani-fest").allowed, ["POST"]);
    assertEquals(rejected(backtracking, "/files/mani-fes").status, 404);
  }
});

Deno.test("maxParamLength: a route that backtracks gives no 414 where its literal text is not in place", () => {
  // `:a` may hold the "." that separates it from `:b`, so the route backtracks, and its
  // RegExp is not run on a segment longer than 5 characters (2, the ".", 2).
  const router = new Router({ maxParamLength: 2 }).draw((map) => {
    map.connect("/:a.:b", { controller: "c", requirements: { a: /[a-z.]+/ } });
    map.connect("/:p-:q-:r", { controller: "c" });
    map.connect("/zzzzzz", { controller: "c", action: "z", conditions: { method: "post" } });
  });
  for (const _ of [1, 2]) {
    const refused = rejected(router, "/zzzzzz");
    assertEquals([refused.status, refused.allowed], [405, ["POST"]]);
    assertEquals(rejected(router, "/yyyyyy").status, 404);
  }
  // With the "." in place the route could match, and its :a would be over the limit.
  assertEquals(rejected(router, "/zzz.zz").status, 414);
  assertEquals(recognized(router, "/zz.zz").params.a, "zz");
});

Deno.test("maxParamLength: a route that backtracks gives no 414 for a text longer than its requirements can match", () => {
  // `:a` may hold the "-" after it, so the route backtracks, but neither variable can be
  // longer than 3 characters: no text of over 7 is a match, however long a variable may be.
  const post = `/x/${"a".repeat(20)}-1`;
  for (const maxParamLength of [2, 8, 1024]) {
    const router = new Router({ maxParamLength }).draw((map) => {
      map.connect("/x/:a-:b", {
        controller: "x",
        requirements: { a: /[a-z-]{1,3}/, b: /\d{1,3}/ },
      });
      map.connect(post, { controller: "x", action: "post", conditions: { method: "post" } });
    });
    for (const _ of [1, 2]) {
      const refused = rejected(router, post);
      assertEquals([refused.status, refused.allowed], [405, ["POST"]], `${maxParamLength}`);
      for (const length of [8, 2 * maxParamLength + 5]) {
        assertEquals(rejected(router, `/x/${"a".repeat(length)}-1`).status, 404, `${length}`);
      }
    }
    // Within the requirements' lengths, the route matches, or its value is over the limit.
    if (maxParamLength >= 3) assertEquals(recognized(router, "/x/a-b-12").params.a, "a-b");
    else assertEquals(rejected(router, "/x/a-b-12").status, 414);
  }
});

// ---------------------------------------------------------------------------------------------
// Custom actions

const COLLECTION = {
  rss: "get",
  bulk: "post",
  replace: "put",
  purge: "delete",
  search: "any",
  tweak: "patch",
} as const;
const MEMBER = {
  history: "get",
  mark: "post",
  approve: "put",
  unlink: "delete",
  touch: "any",
  adjust: "patch",
} as const;
const NEW = {
  draft: "get",
  preview: "post",
  fill: "put",
  clear: "delete",
  sketch: "any",
  nudge: "patch",
} as const;

type Kind = "collection" | "member" | "new";
interface Case {
  path: string;
  name: string | null;
  params: Record<string, string>;
}

function customCases(variant: Variant, kind: Kind, action: string): Case[] {
  const base = { collection: "/messages", member: "/messages/7", new: "/messages/new" }[kind];
  const name = {
    collection: `${action}_messages`,
    member: `${action}_message`,
    new: `${action}_new_message`,
  }[kind];
  const params: Record<string, string> = kind === "member"
    ? { controller: "messages", action, id: "7" }
    : { controller: "messages", action };
  const formatted = { ...params, format: "xml" };
  if (variant === "A") {
    return [
      { path: `${base}/${action}`, name, params },
      { path: `${base};${action}`, name: null, params },
      { path: `${base}.xml;${action}`, name: null, params: formatted },
      { path: `${base}/${action}.xml`, name: `formatted_${name}`, params: formatted },
    ];
  }
  return [
    { path: `${base};${action}`, name, params },
    { path: `${base}.xml;${action}`, name: `formatted_${name}`, params: formatted },
  ];
}

function customRouter(variant: Variant): Router {
  return build(
    variant,
    (map: Mapper) =>
      map.resources("messages", { collection: COLLECTION, member: MEMBER, new: NEW }),
  );
}

Deno.test("custom collection, member and new actions with every method, in every variant", () => {
  for (const variant of VARIANTS) {
    const router = customRouter(variant);
    const groups: [Kind, Record<string, string>][] = [
      ["collection", COLLECTION],
      ["member", MEMBER],
      ["new", NEW],
    ];
    for (const [kind, actions] of groups) {
      for (const [action, method] of Object.entries(actions)) {
        const methods = method === "any"
          ? ["GET", "POST", "PUT", "DELETE", "PATCH"]
          : [method.toUpperCase()];
        for (const c of customCases(variant, kind, action)) {
          for (const requestMethod of methods) {
            const { route, params } = router.recognize(c.path, requestMethod);
            assertEquals(
              { name: route.name, method: route.method, params: { ...params } },
              { name: c.name, method: method.toUpperCase(), params: c.params },
              `${variant} ${requestMethod} ${c.path}`,
            );
          }
        }
      }
    }
  }
});

Deno.test("empty variable text matches nothing", () => {
  const router = build("A", messages);
  for (const path of ["/messages/7.", "/messages/.xml", "/messages.", "/messages/7/edit."]) {
    assertEquals(rejected(router, path).status, 404, path);
  }
});

Deno.test("custom actions reject other methods with a 405", () => {
  for (const variant of VARIANTS) {
    const router = customRouter(variant);
    const paths = variant === "A"
      ? ["/messages/7/mark", "/messages/7;mark", "/messages/7.xml;mark", "/messages/new/preview"]
      : ["/messages/7;mark", "/messages/7.xml;mark", "/messages/new;preview", "/messages;bulk"];
    for (const path of paths) {
      const error = rejected(router, path, "GET");
      assertEquals(error.status, 405, `${variant} ${path}`);
      assertEquals(error.allowed, ["POST"], `${variant} ${path}`);
    }
    assertEquals(rejected(router, paths[0], "HEAD").allowed, ["POST"]);
    const adjust = variant === "A" ? "/messages/7/adjust" : "/messages/7;adjust";
    assertEquals(rejected(router, adjust, "PUT").allowed, ["PATCH"]);
  }
});

Deno.test("variant A: a GET to a POST-only collection path falls through to show", () => {
  assertEquals(recognized(customRouter("A"), "/messages/bulk"), {
    name: "message",
    params: { controller: "messages", action: "show", id: "bulk" },
  });
});

Deno.test("variants B and C: /messages/rss is show, the collection action is /messages;rss", () => {
  for (const variant of ["B", "C"] as const) {
    const router = build(
      variant,
      (map: Mapper) => map.resources("messages", { collection: { rss: "get" } }),
    );
    assertEquals(recognized(router, "/messages/rss"), {
      name: "message",
      params: { controller: "messages", action: "show", id: "rss" },
    });
    assertEquals(recognized(router, "/messages;rss").name, "rss_messages");
  }
});

Deno.test("method names in action hashes are case-insensitive", () => {
  const router = build(
    "B",
    (map: Mapper) => map.resources("messages", { member: { mark: "POST" as "post" } }),
  );
  assertEquals(recognized(router, "/messages/1;mark", "POST").params.action, "mark");
});

Deno.test("new: { new: 'any' } keeps the get entry too; the ANY one comes first", () => {
  for (const variant of VARIANTS) {
    const router = build(
      variant,
      (map: Mapper) => map.resources("messages", { new: { new: "any" } }),
    );
    assertEquals(
      table(router).filter(([, , , action]) => action === "new"),
      [
        ["ANY", "/messages/new", "new_message", "new"],
        ["ANY", "/messages/new.:format", "formatted_new_message", "new"],
        ["GET", "/messages/new", "new_message", "new"],
        ["GET", "/messages/new.:format", "formatted_new_message", "new"],
      ],
      variant,
    );
    const post = router.recognize("/messages/new", "POST");
    assertEquals(post.route.method, "ANY");
    assertEquals({ ...post.params }, { controller: "messages", action: "new" });
    assertEquals(recognized(router, "/messages/new.xml", "DELETE").params, {
      controller: "messages",
      action: "new",
      format: "xml",
    });
    // A name declared twice keeps the later route.
    assertEquals(router.namedRoutes.get("new_message")?.method, "GET");
  }
});

Deno.test("name prefixes go after the action word in A and before it in B and C", () => {
  for (const variant of VARIANTS) {
    const router = build(variant, (map: Mapper) =>
      map.resources("messages", {
        namePrefix: "admin_",
        collection: { rss: "get" },
        member: { mark: "post" },
        new: { preview: "post" },
      }));
    const base = variant === "A"
      ? [
        "admin_messages",
        "new_admin_message",
        "preview_new_admin_message",
        "rss_admin_messages",
        "admin_message",
        "edit_admin_message",
        "mark_admin_message",
      ]
      : [
        "admin_messages",
        "admin_new_message",
        "admin_preview_new_message",
        "admin_rss_messages",
        "admin_message",
        "admin_edit_message",
        "admin_mark_message",
      ];
    const expected = [...base, ...base.map((name) => `formatted_${name}`)].sort();
    assertEquals([...router.namedRoutes.keys()].sort(), expected, variant);
  }
});

Deno.test("every name of one call gets its own copy of the options", () => {
  const options = { collection: { rss: "get" }, member: { mark: "post" } } as const;
  const before = JSON.stringify(options);
  const router = build("A", (map: Mapper) => map.resources("messages", "comments", options));
  assertEquals(JSON.stringify(options), before);
  assertEquals(recognized(router, "/messages/rss").params, {
    controller: "messages",
    action: "rss",
  });
  assertEquals(recognized(router, "/comments/rss").params, {
    controller: "comments",
    action: "rss",
  });
  assertEquals(recognized(router, "/comments/3/mark", "POST").name, "mark_comment");
  assertEquals(recognized(router, "/messages/3/edit").name, "edit_message");
});

Deno.test("the copies are made at the call: a block cannot change a later name's options", () => {
  const options: { collection: Record<string, "get"> } = { collection: { rss: "get" } };
  const router = build("A", (map: Mapper) =>
    map.resources("posts", "tags", options, () => {
      options.collection.atom = "get";
    }));
  assertEquals(recognized(router, "/tags/rss").params.action, "rss");
  // No atom action: "atom" is an id.
  assertEquals(recognized(router, "/tags/atom").params.action, "show");
  assertEquals([...router.namedRoutes.keys()].filter((name) => name.startsWith("atom")), []);
});

// ---------------------------------------------------------------------------------------------
// Nesting and prefixes

Deno.test("nesting three deep, in every variant", () => {
  for (const variant of VARIANTS) {
    const router = build(
      variant,
      (map: Mapper) =>
        map.resources(
          "articles",
          { controller: "posts" },
          (articles: Mapper) =>
            articles.resources("comments", (comments: Mapper) => comments.resources("votes")),
        ),
    );
    const a = variant === "A";
    const votes = { controller: "votes", article_id: "1", comment_id: "2" };
    const cases: [string, string, string | null, Record<string, string>][] = [
      ["GET", "/articles/1", "article", { controller: "posts", action: "show", id: "1" }],
      ["GET", "/articles/1/comments", a ? "article_comments" : "comments", {
        controller: "comments",
        action: "index",
        article_id: "1",
      }],
      ["GET", "/articles/1/comments/2", a ? "article_comment" : "comment", {
        controller: "comments",
        action: "show",
        article_id: "1",
        id: "2",
      }],
      ["GET", "/articles/1/comments/2/votes", a ? "article_comment_votes" : "votes", {
        ...votes,
        action: "index",
      }],
      ["POST", "/articles/1/comments/2/votes", null, { ...votes, action: "create" }],
      ["GET", "/articles/1/comments/2/votes/3", a ? "article_comment_vote" : "vote", {
        ...votes,
        action: "show",
        id: "3",
      }],
      [
        "GET",
        "/articles/1/comments/2/votes/3.json",
        a ? "formatted_article_comment_vote" : "formatted_vote",
        { ...votes, action: "show", id: "3", format: "json" },
      ],
      ["GET", "/articles/1/comments/2/votes/new", a ? "new_article_comment_vote" : "new_vote", {
        ...votes,
        action: "new",
      }],
      [
        "GET",
        a ? "/articles/1/comments/2/votes/3/edit" : "/articles/1/comments/2/votes/3;edit",
        a ? "edit_article_comment_vote" : "edit_vote",
        { ...votes, action: "edit", id: "3" },
      ],
      ["DELETE", "/articles/1/comments/2/votes/3", null, { ...votes, action: "destroy", id: "3" }],
    ];
    for (const [method, path, name, params] of cases) {
      assertEquals(recognized(router, path, method), { name, params }, `${variant} ${path}`);
    }
    assertEquals(rejected(router, "/comments/2/votes/3").status, 404);
  }
});

Deno.test("a singleton nested in a collection resource", () => {
  for (const variant of ["A", "B"] as const) {
    const a = variant === "A";
    const router = build(
      variant,
      (map: Mapper) => map.resources("users", (users: Mapper) => users.resource("profile")),
    );
    const p = { controller: "profile", user_id: "1" };
    assertEquals(recognized(router, "/users/1/profile"), {
      name: a ? "user_profile" : "profile",
      params: { ...p, action: "show" },
    });
    assertEquals(recognized(router, "/users/1/profile", "PUT"), {
      name: null,
      params: { ...p, action: "update" },
    });
    assertEquals(recognized(router, "/users/1/profile/new"), {
      name: a ? "new_user_profile" : "new_profile",
      params: { ...p, action: "new" },
    });
    assertEquals(
      recognized(router, a ? "/users/1/profile/edit" : "/users/1/profile;edit"),
      { name: a ? "edit_user_profile" : "edit_profile", params: { ...p, action: "edit" } },
    );
    assertEquals(recognized(router, "/users/1/profile.json").params.format, "json");
  }
});

Deno.test("a collection resource nested in a singleton mounts directly under it", () => {
  for (const variant of ["A", "B"] as const) {
    const a = variant === "A";
    const router = build(
      variant,
      (map: Mapper) => map.resource("account", (account: Mapper) => account.resources("messages")),
    );
    assertEquals(recognized(router, "/account"), {
      name: "account",
      params: { controller: "account", action: "show" },
    });
    assertEquals(recognized(router, "/account/messages"), {
      name: a ? "account_messages" : "messages",
      params: { controller: "messages", action: "index" },
    });
    assertEquals(recognized(router, "/account/messages/1"), {
      name: a ? "account_message" : "message",
      params: { controller: "messages", action: "show", id: "1" },
    });
    assertEquals(
      recognized(router, a ? "/account/messages/1/edit" : "/account/messages/1;edit").name,
      a ? "edit_account_message" : "edit_message",
    );
  }
});

Deno.test("a singleton has no index route and answers other methods with 405", () => {
  for (const variant of ["A", "B"] as const) {
    const router = build(variant, (map: Mapper) => map.resource("account"));
    assertEquals(recognized(router, "/account", "POST").params, {
      controller: "account",
      action: "create",
    });
    assertEquals(recognized(router, "/account", "DELETE").params.action, "destroy");
    const error = rejected(router, "/account", "PATCH");
    assertEquals(error.status, 405);
    assertEquals(error.allowed, ["POST", "GET", "PUT", "DELETE"]);
    assertEquals(rejected(router, "/account/1").status, 404);
  }
});

Deno.test("a path prefix with variables, with or without its leading slash", () => {
  for (const variant of VARIANTS) {
    for (
      const options of [
        { pathPrefix: "/threads/:thread_id" },
        { pathPrefix: "threads/:thread_id" },
        { path_prefix: "/threads/:thread_id" },
      ]
    ) {
      const router = build(variant, (map: Mapper) => map.resources("messages", options));
      assertEquals(recognized(router, "/threads/5/messages/2"), {
        name: "message",
        params: { controller: "messages", action: "show", thread_id: "5", id: "2" },
      }, `${variant} ${JSON.stringify(options)}`);
      assertEquals(recognized(router, "/threads/a%2Fb/messages").params, {
        controller: "messages",
        action: "index",
        thread_id: "a/b",
      });
      assertEquals(router.namedRoutes.get("message")?.path, "/threads/:thread_id/messages/:id");
      assertEquals(rejected(router, "/messages/2").status, 404);
    }
  }
});

Deno.test("a child's own pathPrefix replaces the inherited one", () => {
  const router = build(
    "B",
    (map: Mapper) =>
      map.resources(
        "threads",
        (threads: Mapper) => threads.resources("messages", { pathPrefix: "/boards/:board_id" }),
      ),
  );
  assertEquals(recognized(router, "/boards/3/messages/4").params, {
    controller: "messages",
    action: "show",
    board_id: "3",
    id: "4",
  });
  assertEquals(rejected(router, "/threads/1/messages/4").status, 404);
});

Deno.test("connect inside a block gets the path prefix", () => {
  const router = build(
    "A",
    (map: Mapper) =>
      map.resources(
        "threads",
        (threads: Mapper) => threads.connect("/stats", { controller: "stats", action: "show" }),
      ),
  );
  assertEquals(recognized(router, "/threads/5/stats").params, {
    controller: "stats",
    action: "show",
    thread_id: "5",
  });
});

// ---------------------------------------------------------------------------------------------
// connect: requirements, the catch-all, defaults

Deno.test("a requirement must match the whole variable text", () => {
  const router = build("A", (map: Mapper) => {
    map.connect("/archive/:year", {
      controller: "archive",
      action: "year",
      requirements: { year: /\d{4}/ },
    });
    map.connect("/kinds/:kind", {
      controller: "kinds",
      action: "show",
      requirements: { kind: /a|bc/ },
    });
    map.connect("/codes/:code", {
      controller: "codes",
      action: "show",
      requirements: { code: /[a-z]+/i },
    });
  });
  assertEquals(recognized(router, "/archive/2024").params, {
    controller: "archive",
    action: "year",
    year: "2024",
  });
  for (const path of ["/archive/24", "/archive/20245", "/archive/x2024", "/archive/2024x"]) {
    assertEquals(rejected(router, path).status, 404, path);
  }
  assertEquals(recognized(router, "/kinds/a").params.kind, "a");
  assertEquals(recognized(router, "/kinds/bc").params.kind, "bc");
  assertEquals(rejected(router, "/kinds/abc").status, 404);
  assertEquals(recognized(router, "/codes/AbC").params.code, "AbC");
});

Deno.test("a requirement is tested on the still-encoded text", () => {
  const router = build("A", (map: Mapper) => {
    map.connect("/tags/:tag", {
      controller: "tags",
      action: "show",
      requirements: { tag: /[a-z]+/ },
    });
    map.connect("/files/:name", {
      controller: "files",
      action: "show",
      requirements: { name: /[a-z.]+/ },
    });
    map.connect("/pct/:code", {
      controller: "pct",
      action: "show",
      requirements: { code: /%[0-9A-F]{2}/ },
    });
  });
  assertEquals(recognized(router, "/tags/abc").params.tag, "abc");
  // "%61bc" decodes to "abc", but the requirement sees "%61bc".
  assertEquals(rejected(router, "/tags/%61bc").status, 404);
  // The requirement replaces the default separator rule: "." is allowed here...
  assertEquals(recognized(router, "/files/a.b").params.name, "a.b");
  // ...but "%2E" is not in [a-z.].
  assertEquals(rejected(router, "/files/a%2Eb").status, 404);
  assertEquals(recognized(router, "/pct/%2F").params.code, "/");
});

Deno.test("a requirement never lets a variable span a /", () => {
  const router = build("A", (map: Mapper) => {
    map.connect("/any/:rest", { controller: "any", action: "show", requirements: { rest: /.+/ } });
  });
  assertEquals(recognized(router, "/any/a;b,c.d").params.rest, "a;b,c.d");
  assertEquals(recognized(router, "/any/x%2Fy").params.rest, "x/y");
  assertEquals(rejected(router, "/any/a/b").status, 404);
});

Deno.test("the catch-all :controller/:action/:id", () => {
  const router = build("A", (map: Mapper) => map.connect(":controller/:action/:id"));
  const route = router.routes[0];
  assertEquals([route.method, route.controller, route.action], ["ANY", null, null]);
  assertEquals(recognized(router, "/messages"), {
    name: null,
    params: { controller: "messages", action: "index" },
  });
  assertEquals(recognized(router, "/messages/").params, {
    controller: "messages",
    action: "index",
  });
  const rss = router.recognize("/messages/rss").params;
  assertEquals({ ...rss }, { controller: "messages", action: "rss" });
  assert(!("id" in rss));
  assertEquals(recognized(router, "/messages/show/1").params, {
    controller: "messages",
    action: "show",
    id: "1",
  });
  assertEquals(recognized(router, "/messages/show/a%2Fb", "DELETE").params.id, "a/b");
  assertEquals(rejected(router, "/messages/show/1/2").status, 404);
  assertEquals(rejected(router, "/").status, 404);
});

Deno.test("the catch-all after resources allows what the resource routes reject", () => {
  const router = build("A", (map: Mapper) => {
    map.resources("messages");
    map.connect(":controller/:action/:id");
  });
  assertEquals(recognized(router, "/messages/new", "POST"), {
    name: null,
    params: { controller: "messages", action: "new" },
  });
  assertEquals(recognized(router, "/messages/rss").params, {
    controller: "messages",
    action: "show",
    id: "rss",
  });
  assertEquals(recognized(router, "/messages/rss", "POST").params, {
    controller: "messages",
    action: "rss",
  });
  assertEquals(recognized(router, "/messages/show/1").params, {
    controller: "messages",
    action: "show",
    id: "1",
  });
});

Deno.test("a variable with a default is optional and takes the default", () => {
  const router = build("A", (map: Mapper) => {
    map.connect("/pages/:name", {
      controller: "pages",
      action: "show",
      defaults: { name: "home" },
    });
  });
  assertEquals(recognized(router, "/pages"), {
    name: null,
    params: { controller: "pages", action: "show", name: "home" },
  });
  assertEquals(recognized(router, "/pages/about").params, {
    controller: "pages",
    action: "show",
    name: "about",
  });
  assertEquals(recognized(router, "/pages/").params.name, "home");
});

Deno.test("a variable named like an Object.prototype member has no default", () => {
  for (const name of ["constructor", "toString", "valueOf", "hasOwnProperty"]) {
    const router = build("A", (map: Mapper) => map.connect(`/x/:${name}`, { controller: "c" }));
    assertEquals(rejected(router, "/x").status, 404, name);
    assertEquals(recognized(router, "/x/a").params[name], "a");
  }
  const router = build(
    "A",
    (map: Mapper) =>
      map.connect("/x/:constructor", { controller: "c", defaults: { constructor: "k" } }),
  );
  const key: string = "constructor";
  assertEquals(recognized(router, "/x").params[key], "k");
});

Deno.test("defaults that are not path variables are constant params; controller and action win", () => {
  const router = build("A", (map: Mapper) => {
    map.connect("/feeds/:id", {
      controller: "feeds",
      action: "show",
      // A key may equal another param's value; a "controller" default loses to the route's.
      defaults: { feeds: "all", show: "yes", format: "rss", controller: "other" },
    });
  });
  assertEquals(recognized(router, "/feeds/7").params, {
    controller: "feeds",
    action: "show",
    id: "7",
    feeds: "all",
    show: "yes",
    format: "rss",
  });
});

Deno.test("a controller or action default in a path without that variable is the route's", () => {
  const router = build("A", (map: Mapper) => {
    map.connect("/about", { controller: "pages", defaults: { action: "show" } });
    map.connect("/team", { defaults: { controller: "people", action: "list" } });
  });
  assertEquals(recognized(router, "/about").params, { controller: "pages", action: "show" });
  assertEquals(recognized(router, "/team").params, { controller: "people", action: "list" });
  assertEquals(router.routes.map((route) => route.target), ["pages#show", "people#list"]);
  const error = assertThrows(
    () => build("A", (map: Mapper) => map.connect("/x", { defaults: { controller: "" } })),
    TypeError,
  );
  assertStringIncludes(error.message, "defaults.controller");
});

Deno.test("a controller or action option beside a default of its own wins, with or without the variable", () => {
  const router = build("A", (map: Mapper) => {
    map.connect("/a/:controller/:action", {
      controller: "pages",
      action: "y",
      defaults: { controller: "people", action: "x" },
    });
    map.connect("/b", { controller: "pages", action: "y", defaults: { action: "x" } });
  });
  // Before, the defaults won where the path has the variable: action "x" at /a.
  assertEquals(recognized(router, "/a").params, { controller: "pages", action: "y" });
  assertEquals(recognized(router, "/b").params, { controller: "pages", action: "y" });
  assertEquals(router.routes[0].defaults, { controller: "pages", action: "y" });
});

Deno.test("map.named registers a named route; conditions restrict its method", () => {
  const router = build("A", (map: Mapper) => {
    map.named("login", "/login", {
      controller: "sessions",
      action: "create",
      conditions: { method: "post" },
    });
    map.named("logout", "/logout", { controller: "sessions", action: "destroy" });
  });
  assertEquals(recognized(router, "/login", "POST"), {
    name: "login",
    params: { controller: "sessions", action: "create" },
  });
  assertEquals(router.namedRoutes.get("login")?.method, "POST");
  assertEquals(rejected(router, "/login").allowed, ["POST"]);
  assertEquals(recognized(router, "/logout", "GET").name, "logout");
});

// ---------------------------------------------------------------------------------------------
// Recognition as `handle` runs it (src/router.ts `servingRecognizer`, timed by bench/)

Deno.test("handle's recognition answers as recognize does, returning a miss instead of throwing", () => {
  const paths = ["/%41bc", "/messages/%zz", "/messages/1%2E2", `/messages/${"9".repeat(2000)}`];
  for (const { name, variant, draw, expect } of RECOGNITION_CASES) {
    const router = new Router({ variant: variant ?? "B", onDeprecation: () => {} });
    router.draw((map) => {
      draw(map);
      map.resources("messages");
    });
    const serving = servingRecognizer(router);
    const requests = [
      // It takes pathnames as `new URL()` gives them: with their leading "/".
      ...expect.filter(({ path }) => path.startsWith("/")),
      ...paths.flatMap((path) => ["GET", "PUT"].map((method) => ({ method, path }))),
    ];
    for (const { method, path } of requests) {
      const where = `${name}: ${method} ${path.slice(0, 40)}`;
      const answer = serving(path, method);
      const expected: unknown = (() => {
        try {
          return router.recognize(path, method);
        } catch (error) {
          return error;
        }
      })();
      if (expected instanceof Error) {
        assertInstanceOf(expected, RoutingError, where);
        assertInstanceOf(answer, RoutingError, where);
        assertEquals(
          [answer.status, answer.message, answer.allowed],
          [expected.status, expected.message, expected.allowed],
          where,
        );
      } else {
        const { route, params } = expected as RouteMatch;
        assert(!(answer instanceof Error), `${where}: a match`);
        assertStrictEquals(answer.route, route, where);
        assertEquals(answer.params, params, where);
      }
    }
  }
});
