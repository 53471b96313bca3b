// Acceptance tests for declaration-time checks (TypeError) and a generate/recognize round trip.
import { assert, assertEquals, assertMatch, assertStringIncludes, assertThrows } from "@std/assert";
import { Controller, HttpError, Route, Router, RoutingError } from "../mod.ts";
import type { Block, Mapper, RouteOptions, RouterOptions, UrlOptions, Variant } from "../mod.ts";
import { build, VARIANTS } from "./_fixtures.ts";

/** Asserts that declaring `block` in `variant` throws a TypeError whose message names `names`. */
function declarationError(variant: Variant, block: Block<Mapper>, ...names: string[]): TypeError {
  const error = assertThrows(() => build(variant, block), TypeError);
  for (const name of names) assertStringIncludes(error.message, name);
  return error;
}

// ---------------------------------------------------------------------------------------------
// Names

Deno.test("resource names must be identifiers", () => {
  for (const variant of VARIANTS) {
    for (const name of ["bad-name", "1abc", "a b", "messages/x", "ünï", "a.b", "a;b", ":id"]) {
      declarationError(variant, (map: Mapper) => map.resources(name), name);
      declarationError(variant, (map: Mapper) => map.resources("messages", name), name);
    }
    declarationError(
      variant,
      (map: Mapper) => map.resources(""),
      'the name "" is not an identifier',
    );
  }
  for (const variant of ["A", "B"] as const) {
    for (const name of ["bad-name", "1abc", "a b"]) {
      declarationError(variant, (map: Mapper) => map.resource(name), name);
    }
  }
});

Deno.test("the singular option and map.named names must be identifiers", () => {
  for (const variant of VARIANTS) {
    declarationError(
      variant,
      (map: Mapper) => map.resources("sheep", { singular: "one sheep" }),
      "one sheep",
    );
    declarationError(
      variant,
      (map: Mapper) => map.named("log-in", "/login", { controller: "sessions", action: "new" }),
      "log-in",
    );
  }
});

Deno.test("a name's controls and bidirectional marks are escaped in the message", () => {
  // Raw, U+202E reversed the rest of the message as a terminal shows it.
  const error = declarationError(
    "A",
    (map: Mapper) => map.named("ok\u202ename\u2028", "/x", { controller: "x" }),
    'the route name "ok\\u202ename\\u2028" is not an identifier',
  );
  assertEquals(/[\u2028\u202e]/.test(error.message), false);
  // An object's JSON too.
  const object = declarationError(
    "A",
    (map: Mapper) => map.resources("messages", { singular: { x: "\u2066" } as never }),
    '{"x":"\\u2066"}',
  );
  assertEquals(object.message.includes("\u2066"), false);
});

Deno.test("valid identifiers are accepted", () => {
  for (const variant of VARIANTS) {
    const router = build(variant, (map: Mapper) => {
      map.resources("_private", "Messages2");
      map.resources("people", { singular: "person" });
      map.named("log_in", "/login", { controller: "sessions", action: "new" });
    });
    assert(router.namedRoutes.has("person"));
    assert(router.namedRoutes.has("log_in"));
  }
});

// ---------------------------------------------------------------------------------------------
// Options

Deno.test("a resource action whose route takes another's path is a TypeError naming both", () => {
  // Variant A puts a collection action at /messages/new, the path of the new action.
  assertThrows(
    () =>
      new Router({ variant: "A" }).draw((map) =>
        map.resources("messages", { collection: { new: "get" } })
      ),
    TypeError,
    "new_message (new) and new_messages (new) would both be GET /messages/new",
  );
  // Variant B puts it at /messages;new: no clash.
  const router = new Router({ variant: "B" })
    .draw((map) => map.resources("messages", { collection: { new: "get" } }));
  assertEquals(router.recognize("/messages;new").route.name, "new_messages");
  // A resource of many routes (over 64, where they are no longer compared pair by pair)
  // is checked the same way.
  const many = Object.fromEntries(
    Array.from({ length: 40 }, (_, i) => [`action${i}`, "get" as const]),
  );
  assertThrows(
    () =>
      new Router({ variant: "A" }).draw((map) =>
        map.resources("messages", { collection: { ...many, new: "get" } })
      ),
    TypeError,
    "new_message (new) and new_messages (new) would both be GET /messages/new",
  );
  const wide = new Router({ variant: "A" })
    .draw((map) => map.resources("messages", { collection: many, member: many }));
  assertEquals(wide.recognize("/messages/7/action39").route.name, "action39_message");
});

Deno.test("a nested resource's route that the enclosing resource's route takes is a TypeError naming both", () => {
  // Variant A puts member actions at /messages/:id/<action>: before, the nested index and
  // create went to messages#comments with the message's id as `id`.
  declarationError(
    "A",
    (map) =>
      map.resources("messages", { member: { comments: "any" } }, (m) => m.resources("comments")),
    "message_comments (GET /messages/:message_id/comments) could never be reached",
    "comments_message (ANY /messages/:id/comments)",
  );
  // A POST action takes the nested create only; the index is named in the message all the same.
  declarationError(
    "A",
    (map) =>
      map.resources("messages", { member: { comments: "post" } }, (m) => m.resources("comments")),
    "the create action (POST /messages/:message_id/comments) could never be reached",
  );
  // A singleton's action and the nested index had the same method and path outright.
  declarationError(
    "A",
    (map) =>
      map.resource("account", { member: { messages: "get" } }, (a) => a.resources("messages")),
    "account_messages (GET /account/messages) could never be reached",
    "messages_account (GET /account/messages)",
  );
  // Without a custom action: the edit action takes a nested singleton named edit.
  declarationError(
    "A",
    (map) => map.resources("messages", (m) => m.resource("edit")),
    "message_edit (GET /messages/:message_id/edit) could never be reached",
  );
  // Variants B and C put member actions after ";": no clash.
  for (const variant of ["B", "C"] as const) {
    const router = new Router({ variant }).draw((map) =>
      map.resources("messages", { member: { comments: "any" } }, (m) => m.resources("comments"))
    );
    assertEquals(router.recognize("/messages/5/comments").params.message_id, "5");
  }
  // A nested resource whose paths differ from its parent's actions is drawn as before.
  const router = new Router({ variant: "A" }).draw((map) =>
    map.resources("messages", { member: { publish: "put" } }, (m) => m.resources("comments"))
  );
  assertEquals(router.recognize("/messages/5/comments").params.message_id, "5");
});

Deno.test("a singleton action in both collection and member is registered once", () => {
  for (const variant of ["A", "B"] as const) {
    const router = new Router({ variant }).draw((map) =>
      map.resource("account", { collection: { close: "put" }, member: { close: "put" } })
    );
    const keys = router.routes.map((route) => `${route.method} ${route.path}`);
    assertEquals(keys.length, new Set(keys).size, variant);
    const closing = router.routes.filter((route) => route.action === "close");
    assertEquals(closing.length, variant === "A" ? 4 : 2, variant);
    assertEquals(
      router.recognize(router.helpers.close_account_path() as string, "PUT").route.action,
      "close",
    );
  }
});

Deno.test("an unknown option key is a TypeError naming it", () => {
  for (const variant of VARIANTS) {
    for (const key of ["pathprefix", "colection", "namePrefx", "requirements", "Controller"]) {
      const options = { [key]: "x" } as never;
      declarationError(variant, (map: Mapper) => map.resources("messages", options), key);
    }
  }
  for (const variant of ["A", "B"] as const) {
    const options = { pathprefix: "/x" } as never;
    const error = declarationError(
      variant,
      (map: Mapper) => map.resource("account", options),
      "pathprefix",
    );
    // The list of known options offers only what map.resource takes: no singular.
    assertStringIncludes(error.message, "known options: controller, pathPrefix");
  }
});

Deno.test("an unknown key in connect/named options is a TypeError naming it", () => {
  const options = { controler: "x", action: "y" } as never;
  declarationError("A", (map: Mapper) => map.connect("/x", options), "controler");
  declarationError("A", (map: Mapper) => map.named("x", "/x", options), "controler");
});

Deno.test("snake_case and camelCase option spellings are both accepted", () => {
  for (const variant of VARIANTS) {
    const router = build(variant, (map: Mapper) => {
      map.resources("messages", { path_prefix: "/a/:a_id", name_prefix: "a_" });
      map.resources("comments", { pathPrefix: "/b/:b_id", namePrefix: "b_" });
    });
    assertEquals(router.namedRoutes.get("a_message")?.path, "/a/:a_id/messages/:id");
    assertEquals(router.namedRoutes.get("b_comment")?.path, "/b/:b_id/comments/:id");
  }
});

Deno.test("singular given to map.resource is a TypeError naming it", () => {
  for (const variant of ["A", "B"] as const) {
    const options = { singular: "acct" } as never;
    declarationError(variant, (map: Mapper) => map.resource("account", options), "singular");
  }
});

Deno.test("map.resource in variant C is a TypeError about singletons", () => {
  const error = declarationError("C", (map: Mapper) => map.resource("account"));
  assertMatch(error.message, /singleton/i);
  assertMatch(error.message, /\bC\b/);
});

// ---------------------------------------------------------------------------------------------
// Methods in action hashes

Deno.test("an invalid method in collection/member/new is a TypeError naming action and method", () => {
  const cases: [string, Record<string, unknown>][] = [
    ["rss", { collection: { rss: "head" } }],
    ["rss", { collection: { rss: "fetch" } }],
    ["mark", { member: { mark: "fetch" } }],
    ["mark", { member: { mark: "HEAD" } }],
    ["preview", { new: { preview: "head" } }],
    ["preview", { new: { preview: "options" } }],
    ["preview", { new: { preview: "connect" } }],
  ];
  for (const variant of VARIANTS) {
    for (const [action, options] of cases) {
      const method = Object.values(Object.values(options)[0] as Record<string, string>)[0];
      const error = declarationError(
        variant,
        (map: Mapper) => map.resources("messages", options as never),
        action,
      );
      assertStringIncludes(error.message.toLowerCase(), method.toLowerCase());
    }
  }
});

Deno.test("a declaration's method errors read as its other errors do: where, then what", () => {
  assertThrows(
    () =>
      new Router().draw((map) => map.resources("messages", { member: { mark: "fetch" as never } })),
    TypeError,
    'map.resources("messages"): the member action "mark" has an invalid method "fetch"; use get',
  );
  assertThrows(
    () => new Router().draw((map) => map.resources("messages", { pathPrefix: 7 as never })),
    TypeError,
    'map.resources("messages"): pathPrefix must be a string, got 7',
  );
});

Deno.test("both spellings of a prefix, given as objects, are refused at once", () => {
  // One object held at two places on each of 40 levels: compared by JSON, 2^40 values.
  const shared = (levels: number) => {
    let value: Record<string, unknown> = {};
    for (let i = 0; i < levels; i++) value = { a: value, b: value };
    return value;
  };
  assertThrows(
    () =>
      new Router().draw((map) =>
        map.resources("messages", { pathPrefix: shared(40), path_prefix: shared(40) } as never)
      ),
    TypeError,
    "the option pathPrefix is given twice with different values",
  );
});

Deno.test("valid methods are case-insensitive and include patch", () => {
  for (const variant of VARIANTS) {
    const router = build(variant, (map: Mapper) =>
      map.resources("messages", {
        collection: { a: "GET", b: "Post", c: "ANY", d: "patch" } as never,
        member: { e: "put", f: "DELETE" } as never,
      }));
    const methods = Object.fromEntries(
      router.routes.filter((r) => r.name !== null).map((r) => [r.name, r.method]),
    );
    assertEquals(methods.a_messages, "GET");
    assertEquals(methods.b_messages, "POST");
    assertEquals(methods.c_messages, "ANY");
    assertEquals(methods.d_messages, "PATCH");
    assertEquals(methods.e_message, "PUT");
    assertEquals(methods.f_message, "DELETE");
  }
});

Deno.test("a method that is not a string, or empty, is a TypeError naming the action", () => {
  for (const method of [1, "", null, true]) {
    declarationError(
      "B",
      (map: Mapper) => map.resources("messages", { collection: { rss: method } } as never),
      "rss",
    );
  }
});

Deno.test("an invalid method in connect conditions is a TypeError naming it", () => {
  for (const method of ["head", "fetch"]) {
    const error = declarationError("A", (map: Mapper) =>
      map.connect("/x", {
        controller: "x",
        action: "y",
        conditions: { method: method as never },
      }));
    assertStringIncludes(error.message.toLowerCase(), method);
  }
});

// ---------------------------------------------------------------------------------------------
// actionSeparator

const INVALID_SEPARATORS = [".", "?", "#", ":", "a", "Z", "1", "_", "", "/.", "-a", ";:"];

Deno.test("an invalid actionSeparator is a TypeError", () => {
  for (const separator of INVALID_SEPARATORS) {
    const error = assertThrows(
      () => {
        const router = new Router({ variant: "A", actionSeparator: separator });
        router.draw((map: Mapper) => map.resources("messages", { member: { mark: "post" } }));
      },
      TypeError,
      `${JSON.stringify(separator)} is not a valid action separator`,
    );
    if (separator.length === 1) assertStringIncludes(error.message, separator);
  }
});

Deno.test("an invalid Controller.resourceActionSeparator is a TypeError at draw", () => {
  const original = Controller.resourceActionSeparator;
  try {
    for (const separator of INVALID_SEPARATORS) {
      Controller.resourceActionSeparator = separator;
      assertThrows(
        () => {
          const router = new Router({ variant: "A" });
          router.draw((map: Mapper) => map.resources("messages"));
        },
        TypeError,
        `Controller.resourceActionSeparator ${JSON.stringify(separator)} is not a valid`,
      );
    }
  } finally {
    Controller.resourceActionSeparator = original;
  }
});

Deno.test("arguments out of order name the argument, its value and the expected order", () => {
  const call = (...args: unknown[]) => (map: Mapper) =>
    (map.resources as (...args: unknown[]) => void)(...args);
  const cases: [Block<Mapper>, string][] = [
    [call("messages", {}, 5), "then a block (a function); argument 3 is 5"],
    [call("messages", {}, () => {}, "photos"), `argument 4 is "photos"`],
    [call({}, "messages"), "needs at least one name (a string) first; argument 1 is {}"],
    [call(5), "argument 1 is 5"],
    [call(), "it got no arguments"],
    // null is no options object (as for connect); undefined is left out.
    [call("messages", null), "options must be a plain object, got null"],
    // An undefined block is left out only where a block may come: last, after the options.
    [call("messages", {}, undefined, () => {}), "argument 3 is undefined"],
    [call("messages", () => {}, undefined), "argument 3 is undefined"],
  ];
  for (const [block, message] of cases) {
    assertStringIncludes(assertThrows(() => build("A", block), TypeError).message, message);
  }
  assertEquals(build("A", call("messages", undefined, () => {})).routes.length > 0, true);
  // A caller passing its optional block along: undefined is left out there too.
  const passedAlong = (block?: Block<Mapper>) => (map: Mapper) =>
    map.resources("messages", {}, block);
  assertEquals(build("A", passedAlong()).toString(), build("A", call("messages")).toString());
  assertEquals(
    build("A", (map) => map.resource("account", undefined, undefined)).toString(),
    build("A", (map) => map.resource("account")).toString(),
  );
});

Deno.test("variants B and C neither read nor check a separator", () => {
  const original = Controller.resourceActionSeparator;
  try {
    Controller.resourceActionSeparator = ".";
    for (const variant of ["B", "C"] as const) {
      const router = new Router({ variant, actionSeparator: "?" });
      router.draw((map: Mapper) => map.resources("messages", { member: { mark: "post" } }));
      assertEquals(router.helpers.mark_message_path(1), "/messages/1;mark");
    }
  } finally {
    Controller.resourceActionSeparator = original;
  }
});

Deno.test("router options of the wrong kind are TypeErrors naming them", () => {
  for (
    const [options, name] of [
      [{ onDeprecation: "warn" }, "onDeprecation"],
      [{ controllers: "abc" }, "controllers"],
      [{ controllers: [] }, "controllers"],
      [{ controllers: 5 }, "controllers"],
      // A Map has no own keys to read: it would register nothing, silently.
      [{ controllers: new Map([["messages", {}]]) }, "controllers"],
    ] as const
  ) {
    assertThrows(() => new Router(options as unknown as RouterOptions), TypeError, name);
  }
});

Deno.test("odd values anywhere are TypeErrors that show them, not errors of their own", () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const messages = (map: Mapper) => map.resources("messages");
  const cases: [() => unknown, string][] = [
    [() => new Router({ variant: 1n as unknown as Variant }), "Unknown variant 1n"],
    [() => new Router({ baseUrl: 1n as unknown as string }), "baseUrl 1n"],
    [() => new Router({ maxPathLength: Symbol("x") as unknown as number }), "Symbol(x)"],
    [() => new Router({ maxSegments: Object.create(null) }), "maxSegments"],
    [() => new Router({ actionSeparator: "%" }), '"%" is not a valid action separator'],
    [() => build("A", messages).recognize("/messages", Object.create(null)), "method"],
    [() => build("A", messages).recognize("/messages", ""), "method"],
    [() => build("A", messages).recognize(5 as unknown as string), "path string, got 5"],
    // Boxed primitives, shown as JSON, would look like the value the caller should give.
    [() => new Router({ variant: new String("A") as unknown as Variant }), "a String object"],
    [() => new Router({ maxPathLength: new Number(9) as unknown as number }), "a Number object"],
    [
      () => build("A", messages).recognize("/messages", new String("GET") as unknown as string),
      "a String object",
    ],
    [() => build("A", messages).urlFor({ controller: Object.create(null) }), "controller"],
    [
      () =>
        build(
          "A",
          (map: Mapper) =>
            map.connect("/x", { controller: "c", conditions: { method: Object.create(null) } }),
        ),
      "map.connect: conditions.method is an invalid method {}",
    ],
    [
      () =>
        build(
          "A",
          (map: Mapper) => map.resources("x", { pathPrefix: "/x", path_prefix: 1n } as never),
        ),
      "1n",
    ],
    [
      () =>
        build(
          "A",
          (map: Mapper) => map.resources("x", { pathPrefix: cyclic, path_prefix: cyclic } as never),
        ),
      "pathPrefix",
    ],
    [
      () =>
        build(
          "A",
          (map: Mapper) =>
            map.connect("/x/:a", { controller: "c", requirements: { a: new Proxy(/a/, {}) } }),
        ),
      "must be a RegExp",
    ],
    // Each message names the value it refused.
    [
      () => new Router(5 as unknown as RouterOptions),
      "must be an object, got 5",
    ],
    [() => new Router().draw(3 as never), "got 3"],
    [() => new Router().register(7 as unknown as string, {}), "name, got 7"],
    [() => new Router().register("c", 5 as never), "class or an object, got 5"],
    [
      () => build("A", (map: Mapper) => map.resources("x", { controller: "" })),
      'map.resources("x"): controller must be a non-empty string, got ""',
    ],
    [
      () =>
        build("A", (map: Mapper) => map.connect("/x", { controller: "c", defaults: [] as never })),
      "defaults must be a plain object, got []",
    ],
    [
      () =>
        build(
          "A",
          (map: Mapper) => map.connect("/x", { controller: "c", defaults: { a: 1 } as never }),
        ),
      'the default for "a" must be a string, got 1',
    ],
    [
      () =>
        build(
          "A",
          (map: Mapper) => map.connect("/x", { controller: "c", conditions: "get" as never }),
        ),
      'got "get"',
    ],
    // A RegExp as JSON is "{}": it is shown as its literal.
    [
      () =>
        build(
          "A",
          (map: Mapper) => map.connect("/x/:a", { controller: "c", requirements: /a/ as never }),
        ),
      "plain object of RegExps, got /a/",
    ],
    [
      () =>
        build(
          "A",
          (map: Mapper) =>
            map.connect("/x/:a", { controller: "c", requirements: new Map() as never }),
        ),
      "got a Map",
    ],
  ];
  for (const [make, text] of cases) assertThrows(make, TypeError, text);
});

Deno.test("an async draw block is a TypeError, and a finished draw's mapper says so", async () => {
  const router = new Router().draw((map) => map.resources("messages"));
  let kept: Mapper | undefined;
  assertThrows(
    () =>
      router.draw(async (map: Mapper) => {
        kept = map;
        await Promise.resolve();
        map.resources("comments");
      }),
    TypeError,
    "returned a promise",
  );
  // The previous table stays, and the late declaration neither lands nor crashes.
  await new Promise((resolve) => setTimeout(resolve, 0));
  assertEquals(router.routes.some((route) => route.path.startsWith("/comments")), false);
  assertEquals(router.recognize("/messages").params.action, "index");
  assertThrows(() => kept!.resources("tags"), TypeError, "draw has finished");
});

Deno.test("an async nested block is a TypeError too, and its late declarations crash nothing", async () => {
  const router = new Router().draw((map) => map.resources("messages"));
  const error = assertThrows(
    () =>
      router.draw((map: Mapper) => {
        map.resources("threads", async (threads: Mapper) => {
          await Promise.resolve();
          threads.resources("posts");
        });
      }),
    TypeError,
    `The block of map.resources("threads") returned a promise`,
  );
  assertStringIncludes(error.message, "no async block");
  // Had the late declaration's rejection gone unhandled, this test would fail here.
  await new Promise((resolve) => setTimeout(resolve, 0));
  assertEquals(router.routes.some((route) => route.path.startsWith("/threads")), false);
  assertEquals(router.recognize("/messages").params.action, "index");
});

Deno.test("connect and named refuse arguments past their options, which were dropped", () => {
  const extra = { requirements: { id: /\d+/ } };
  const cases: [(map: Mapper) => void, string][] = [
    [
      (map) =>
        (map.named as (...args: unknown[]) => void)("p", "/p/:id", { controller: "c" }, extra),
      "map.named(name, path, options?) takes at most 3 arguments, got 4",
    ],
    [
      (map) => (map.connect as (...args: unknown[]) => void)("/p/:id", { controller: "c" }, extra),
      "map.connect(path, options?) takes at most 2 arguments, got 3",
    ],
    [
      (map) => (map.connect as (...args: unknown[]) => void)("/p", { controller: "c" }, () => {}),
      "takes at most 2 arguments",
    ],
  ];
  for (const [block, text] of cases) {
    assertThrows(() => new Router().draw(block), TypeError, text);
  }
  // An options argument left undefined still counts as left out.
  const router = new Router().draw((map) => {
    map.connect("/:controller/:action", undefined);
    map.named("home", "/:controller", undefined);
  });
  assertEquals(router.routes.length, 2);
});

Deno.test("a generator draw block, which a call does not run, is a TypeError", () => {
  const router = new Router().draw((map) => map.resources("messages"));
  const blocks = [
    function* (map: Mapper) {
      map.resources("comments");
      yield;
    },
    async function* (map: Mapper) {
      map.resources("comments");
      yield;
    },
  ];
  for (const block of blocks) {
    // Before, the draw finished with no routes at all.
    assertThrows(() => router.draw(block as never), TypeError, "is a generator function");
    assertThrows(
      () => router.draw((map: Mapper) => map.resources("threads", block as never)),
      TypeError,
      `The block of map.resources("threads") is a generator function`,
    );
    assertEquals(router.recognize("/messages").params.action, "index");
    assertEquals(router.routes.some((route) => route.path.startsWith("/threads")), false);
  }
});

Deno.test("a route name whose helpers would take another route's is a TypeError", () => {
  for (const variant of VARIANTS) {
    const error = declarationError(
      variant,
      (map: Mapper) => {
        map.named("x", "/hx", { controller: "c", action: "a" });
        map.named("hash_for_x", "/hy", { controller: "c", action: "a" });
      },
      `"hash_for_x"`,
      "hash_for_x_path",
    );
    assertStringIncludes(error.message, `the route "x"`);
    // The other way round too, and with a resource's names.
    declarationError(variant, (map: Mapper) => {
      map.named("hash_for_messages", "/h", { controller: "c", action: "a" });
      map.resources("messages");
    }, "hash_for_messages_path");
    // A name that merely starts alike is fine.
    const router = build(variant, (map: Mapper) => {
      map.resources("messages");
      map.named("hash_for_everything", "/h", { controller: "c", action: "a" });
    });
    assertEquals(router.helpers.hash_for_everything_path(), "/h");
  }
});

Deno.test("an unknown router option is a TypeError naming it", () => {
  const error = assertThrows(
    () => new Router({ varient: "B" } as unknown as RouterOptions),
    TypeError,
    '"varient"',
  );
  assertStringIncludes(error.message, "variant");
});

Deno.test("valid separators are accepted", () => {
  for (const separator of ["/", ";", "-", "!", "~", "+"]) {
    const router = build("A", (map: Mapper) => map.resources("messages"), {
      actionSeparator: separator,
    });
    assertEquals(router.helpers.edit_message_path(1), `/messages/1${separator}edit`);
  }
});

// ---------------------------------------------------------------------------------------------
// Templates

Deno.test("a template naming the same variable twice is a TypeError naming it", () => {
  for (const variant of VARIANTS) {
    declarationError(
      variant,
      (map: Mapper) => map.connect("/a/:x/:x", { controller: "a", action: "b" }),
      ":x twice",
    );
    declarationError(
      variant,
      (map: Mapper) => map.named("dup", "/a/:thing/b/:thing", { controller: "a", action: "b" }),
      ":thing twice",
    );
    // A nested resource under pathPrefix /threads/:thread_id of a resource named threads.
    declarationError(
      variant,
      (map: Mapper) =>
        map.resources(
          "threads",
          { pathPrefix: "/threads/:thread_id" },
          (threads: Mapper) => threads.resources("posts"),
        ),
      ":thread_id twice",
    );
    // API.md's example, read either way: the prefix nested resources would get repeats
    // :thread_id, with or without a block that nests any.
    for (
      const draw of [
        (map: Mapper) => map.resources("threads", { pathPrefix: "/threads/:thread_id" }),
        (map: Mapper) =>
          map.resources("threads", (threads: Mapper) => threads.resources("threads")),
      ]
    ) {
      declarationError(variant, draw, "names :thread_id twice");
    }
    // The member path of messages repeats :id.
    declarationError(
      variant,
      (map: Mapper) => map.resources("messages", { pathPrefix: "/threads/:id" }),
      ":id twice",
    );
    // The formatted routes repeat :format.
    declarationError(
      variant,
      (map: Mapper) => map.resources("messages", { pathPrefix: "/x/:format" }),
      ":format twice",
    );
  }
});

Deno.test("a resource's path prefix cannot choose its controller or action", () => {
  for (const variant of ["A", "B", "C"] as const) {
    for (const variable of ["controller", "action"]) {
      const error = declarationError(
        variant,
        (map: Mapper) => map.resources("messages", { pathPrefix: `/admin/:${variable}` }),
        `has :${variable}`,
      );
      assertStringIncludes(error.message, `map.resources("messages")`);
      assertStringIncludes(error.message, `the controller "messages"`);
    }
    if (variant !== "C") {
      declarationError(
        variant,
        (map: Mapper) => map.resource("account", { pathPrefix: "/:controller" }),
        `map.resource("account")`,
      );
    }
    // Inside a block, the nested path prefix comes from the parent, which was refused first.
    declarationError(
      variant,
      (map: Mapper) =>
        map.resources(
          "threads",
          { pathPrefix: "/:action" },
          (threads: Mapper) => threads.resources("posts"),
        ),
      `map.resources("threads")`,
    );
    // A variable whose name only starts with one of them is an ordinary variable.
    const router = new Router({ variant }).draw((map) =>
      map.resources("messages", { pathPrefix: "/boards/:controller_id" })
    );
    assertEquals(router.recognize("/boards/7/messages").params, {
      controller: "messages",
      action: "index",
      controller_id: "7",
    });
  }
});

Deno.test("a malformed template is a TypeError saying what is wrong, first problem first", () => {
  const cases: [string, string][] = [
    ["/a//b", "has an empty segment"],
    ["/a/:", `":" not followed by a variable name`],
    ["/a/:9id", `":" not followed by a variable name`],
    ["/a/:-x", `":" not followed by a variable name`],
    ["/a/:x:y", "puts :x and :y side by side"],
    ["/a/b c", `the character " ", which URLs do not keep as it is`],
    ["/a/{b}", `the character "{"`],
    ["/caf\u00e9", `the character "\u00e9"`],
    // A character outside the BMP is named whole, not by half of its surrogate pair.
    ["/x\u{1F600}y", `the character "\u{1F600}"`],
    ["/a%20b", `the character "%"`],
    // The first problem in the text is the one reported.
    ["/a b/:x:y", `the character " "`],
    ["/:x:y/a b", "side by side"],
    ["/a//:x:y", "empty segment"],
    // One trailing "/" is dropped, two or more end in an empty segment: before, up to three
    // were dropped and a fourth made an error about "/a/".
    ["/a//", "has an empty segment"],
    ["/a////", "has an empty segment"],
    ["//", "has an empty segment"],
    // No request reaches a dot segment: URL parsers resolve it away.
    ["/x/..", `the segment "..", which URL parsers resolve away`],
    ["/./y", `the segment "."`],
    ["/x/../y", `the segment ".."`],
  ];
  for (const [path, message] of cases) {
    const error = assertThrows(
      () => new Router().draw((map) => map.connect(path, { controller: "a", action: "b" })),
      TypeError,
    );
    assertStringIncludes(error.message, message, path);
    assertStringIncludes(error.message, JSON.stringify(path), path);
  }
  // Every character a URL keeps as it is may be literal text, variables may follow any of
  // them, and a variable name runs over letters, digits and underscores.
  const router = new Router().draw((map) =>
    map.connect("/Az09-._~!$&'()*+,;=@|[]/x:_a1b;y", { controller: "a", action: "b" })
  );
  assertEquals(router.routes[0].variables, ["_a1b"]);
  // Dots with more beside them are ordinary literal text.
  const dots = new Router().draw((map) => {
    map.connect("/.../..a/.b/:x..", { controller: "a", action: "b" });
    map.resources("messages", { pathPrefix: "/v1.0" });
  });
  assertEquals(dots.recognize("/.../..a/.b/1..").params.x, "1");
  assertEquals(dots.recognize("/v1.0/messages").params.action, "index");
  // The URL parser keeps them as they are, and both matchers take them literally.
  const path = new URL("http://x/Az09-._~!$&'()*+,;=@|[]/x1;y").pathname;
  assertEquals(router.recognize(path).params._a1b, "1");
  assert(router.routes[0].pattern.test({ pathname: path }));
  assertEquals(
    router.routes[0].segments.map((segment) => segment.parts),
    [[{ literal: "Az09-._~!$&'()*+,;=@|[]" }], [
      { literal: "x" },
      { variable: "_a1b", requirement: null },
      { literal: ";y" },
    ]],
  );
});

Deno.test("a route path that cannot be a route is reported with the declaration that made it", () => {
  const cases: [Block<Mapper>, string][] = [
    [(map) => map.connect("/a b", { controller: "a" }), 'map.connect: the route path "/a b"'],
    [(map) => map.named("x", "/:a/:a", { controller: "a" }), 'map.named("x"): the route path'],
    // A resource's path prefix, here in a nested block, makes the paths of its routes.
    [
      (map) => map.resources("threads", (t) => t.resources("messages", { pathPrefix: "/x y" })),
      'map.resources("messages"): the route path "/x y/messages" has the character " "',
    ],
  ];
  for (const [block, message] of cases) {
    const error = assertThrows(() => new Router().draw(block), TypeError);
    assert(error.message.startsWith(message), error.message);
    assertMatch((error.cause as Error).message, /^The route path/);
  }
});

Deno.test("a requirement RegExp with anchors or flags other than i/u is a TypeError", () => {
  const bad = [/^\d{4}$/, /^\d{4}/, /\d{4}$/, /\d{4}/g, /\d{4}/m, /\d{4}/s, /\d{4}/y, /\d{4}/d];
  for (const requirement of bad) {
    const error = assertThrows(
      () =>
        build("A", (map: Mapper) =>
          map.connect("/archive/:year", {
            controller: "archive",
            action: "year",
            requirements: { year: requirement },
          })),
      TypeError,
      undefined,
      String(requirement),
    );
    // The reason: the anchor or the flag, each by name.
    const reason = requirement.flags === ""
      ? `has the anchor "${String(requirement).startsWith("/^") ? "^" : "$"}"`
      : `has the flag "${requirement.flags}"`;
    assertStringIncludes(error.message, reason);
  }
  for (const requirement of [/\d{4}/, /\d{4}/i, /\d{4}/u, /\d{4}/iu]) {
    const router = build("A", (map: Mapper) =>
      map.connect("/archive/:year", {
        controller: "archive",
        action: "year",
        requirements: { year: requirement },
      }));
    assertEquals(router.recognize("/archive/2024").params.year, "2024");
  }
});

// ---------------------------------------------------------------------------------------------
// Round trip: every named route generates a path that recognises back to it

function roundTripDeclaration(variant: Variant): Block<Mapper> {
  return (map: Mapper) => {
    map.resources("threads", {
      pathPrefix: "/boards/:board_id",
      collection: { search: "get", bulk: "post" },
      member: { mark: "post", touch: "any", adjust: "patch" },
      new: { preview: "any", draft: "get" },
    }, (threads: Mapper) => {
      threads.resources("messages", {
        collection: { rss: "get", purge: "delete" },
        member: { flag: "put" },
        new: { sketch: "post" },
      }, (messages: Mapper) => {
        messages.resources("replies", { namePrefix: "msg_", member: { quote: "get" } });
      });
      if (variant !== "C") threads.resource("settings", { member: { reset: "delete" } });
      threads.named("thread_stats", "/stats/:period", { controller: "stats", action: "show" });
    });
    if (variant !== "C") {
      map.resource(
        "account",
        { collection: { download: "get" } },
        (account: Mapper) => account.resources("photos", { new: { upload: "post" } }),
      );
    }
    map.resources("people", { singular: "person", controller: "humans" });
    map.named("login", "/login", { controller: "sessions", action: "new" });
  };
}

function variablesOf(template: string): string[] {
  return [...template.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
}

Deno.test("round trip: every named route's helper path is recognised as that route", () => {
  for (const variant of VARIANTS) {
    const router = build(variant, roundTripDeclaration(variant));
    assert(router.namedRoutes.size > 40, `${variant}: ${router.namedRoutes.size} named routes`);
    for (const [name, route] of router.namedRoutes) {
      const values: Record<string, string> = {};
      for (const [i, variable] of variablesOf(route.path).entries()) {
        values[variable] = variable === "format" ? "json" : `v${i}.x/y ü`;
      }
      const path = router.helpers[`${name}_path`](values) as string;
      assert(typeof path === "string" && path.startsWith("/"), `${variant} ${name}: ${path}`);
      const method = route.method === "ANY" ? "GET" : route.method;
      const match = router.recognize(path, method);
      const label = `${variant} ${name} ${method} ${path}`;
      assertEquals(
        { name: match.route.name, template: match.route.path, method: match.route.method },
        { name, template: route.path, method: route.method },
        label,
      );
      assertEquals(
        { ...match.params },
        { controller: route.controller, action: route.action, ...values },
        label,
      );
      // The same path by positional arguments, and through urlFor of the hash.
      const positional = Object.values(values);
      assertEquals(router.helpers[`${name}_path`](...positional), path, label);
      const hash = router.helpers[`hash_for_${name}_path`](values) as UrlOptions;
      assertEquals(router.urlFor(hash), path, label);
    }
  }
});

Deno.test("round trip: the expected names exist per variant", () => {
  const a = build("A", roundTripDeclaration("A")).namedRoutes;
  for (
    const name of [
      "threads",
      "thread",
      "search_threads",
      "mark_thread",
      "preview_new_thread",
      "thread_messages",
      "purge_thread_messages",
      "flag_thread_message",
      "sketch_new_thread_message",
      "quote_msg_reply",
      "msg_replies",
      "thread_settings",
      "edit_thread_settings",
      "reset_thread_settings",
      "download_account",
      "account_photos",
      "upload_new_account_photo",
      "people",
      "person",
      "thread_stats",
      "login",
    ]
  ) assert(a.has(name), `A: ${name}`);
  assertEquals(a.get("person")?.controller, "humans");
  assertEquals(a.get("thread_messages")?.controller, "messages");
  assertEquals(a.get("thread_stats")?.path, "/boards/:board_id/threads/:thread_id/stats/:period");
  assertEquals(
    a.get("msg_reply")?.path,
    "/boards/:board_id/threads/:thread_id/messages/:message_id/replies/:id",
  );
  const b = build("B", roundTripDeclaration("B")).namedRoutes;
  for (
    const name of [
      "search_threads",
      "messages",
      "purge_messages",
      "flag_message",
      "sketch_new_message",
      "msg_quote_reply",
      "msg_replies",
      "settings",
      "edit_settings",
      "reset_settings",
      "download_account",
      "photos",
      "upload_new_photo",
    ]
  ) assert(b.has(name), `B: ${name}`);
  assertEquals(b.get("edit_settings")?.path, "/boards/:board_id/threads/:thread_id/settings;edit");
  assertEquals(b.get("download_account")?.path, "/account;download");
});

Deno.test("a singular that is no identifier is a TypeError; so is a namePrefix that is none", () => {
  // pluralize takes "s" to "": the routes would be named "", "new_", "edit_".
  assertThrows(
    () => build("B", (map: Mapper) => map.resources("s")),
    TypeError,
    `its singular comes out as ""`,
  );
  assertEquals(
    build("B", (map: Mapper) => map.resources("s", { singular: "item" })).routes[6].name,
    "item",
  );
  for (const namePrefix of ["1_", "thread-", "v1.", "a b_"]) {
    assertThrows(
      () => build("A", (map: Mapper) => map.resources("a", { namePrefix })),
      TypeError,
      "namePrefix must be empty or letters, digits and _",
    );
  }
  // An option given as undefined is left out, singular on map.resource included.
  const account = build(
    "A",
    (map: Mapper) => map.resource("account", { singular: undefined } as never),
  );
  assert(account.namedRoutes.has("account"));
});

Deno.test("router options are read once, own or inherited, by construction and draw alike", () => {
  const seen: string[] = [];
  class Options {
    get actionSeparator() {
      return "-";
    }
    onDeprecation(message: string) {
      seen.push(message);
    }
  }
  const inherited = Object.create({ variant: "A", actionSeparator: "-" });
  for (const options of [new Options(), inherited]) {
    const router = new Router(options).draw((map) =>
      map.resources("messages", { member: { mark: "post" } }, (m) => m.resources("comments"))
    );
    assertEquals(router.helpers.mark_message_path(1), "/messages/1-mark");
  }
  new Router(new Options()).draw((map) => map.resources("comments", { pathPrefix: "/m/:m_id" }))
    .helpers.comment_path(1, 2);
  assertEquals(seen.length, 0);
  const router = new Router(new Options()).draw((map) =>
    map.resources("messages", (m) => m.resources("comments"))
  );
  router.helpers.comments_path(1);
  assertEquals(seen.length, 1);
  // null is a value, not "absent": each option says it is the wrong kind.
  for (const key of ["variant", "maxSegments", "controllers", "baseUrl", "onDeprecation"]) {
    const error = assertThrows(() => new Router({ [key]: null } as RouterOptions), TypeError);
    assertStringIncludes(error.message, key === "variant" ? "variant null" : key);
  }
  // So for the options of a route: each one null is a TypeError naming it.
  for (const key of ["conditions", "requirements", "defaults", "controller", "action"]) {
    const error = assertThrows(
      () =>
        new Router().draw((map) =>
          map.connect("/x", { controller: "c", action: "a", [key]: null } as RouteOptions)
        ),
      TypeError,
      `map.connect: ${key} must be`,
    );
    assertStringIncludes(error.message, "got null");
  }
});

Deno.test("an actionSeparator: every character a URL keeps, but no empty segment", () => {
  for (const separator of ["|", "[", "]", "-|-"]) {
    const router = new Router({ actionSeparator: separator }).draw((map) =>
      map.resources("messages", { member: { mark: "post" } })
    );
    const path = router.helpers.mark_message_path(1) as string;
    assertEquals(path, `/messages/1${separator}mark`);
    assertEquals(new URL(`http://x${path}`).pathname, path);
    assertEquals(router.recognize(path, "POST").params.action, "mark");
  }
  for (const separator of ["//", "/-//"]) {
    const error = assertThrows(() => new Router({ actionSeparator: separator }), TypeError);
    assertStringIncludes(error.message, "The actionSeparator option");
    assertStringIncludes(error.message, "empty path segment");
  }
  // Newer URL parsers (Bun, workerd, Node 25, browsers) encode "^" as %5E, older ones keep
  // it: a route with one would answer on some runtimes only.
  assertThrows(() => new Router({ actionSeparator: "^" }), TypeError, "The actionSeparator option");
  assertThrows(
    () => new Router().draw((map) => map.connect("/a^b", { controller: "c" })),
    TypeError,
    'has the character "^"',
  );
});

Deno.test("a default that the path must hold but cannot write is a TypeError at declaration", () => {
  const draw = (path: string, defaults: Record<string, string>, requirements = {}) =>
    new Router({ maxParamLength: 8 }).draw((map) =>
      map.named("r", path, { controller: "c", defaults, requirements })
    );
  // Before, each drew, and every helper call that left the value out was a 500.
  for (
    const [path, defaults, requirements, fault] of [
      ["/feed.:format", { format: "RSS" }, { format: /[a-z]+/ }, `"RSS" for :format breaks`],
      ["/p/:a/x", { a: "all" }, { a: /\d+/ }, `"all" for :a breaks its requirement /\\d+/`],
      ["/p/:a/x", { a: ".." }, {}, "dot segment"],
      ["/p/:a/x", { a: "abcdefghi" }, {}, "over the router's maxParamLength (8)"],
    ] as const
  ) {
    assertThrows(
      () => draw(path, defaults, requirements),
      TypeError,
      `map.named("r"): the route path "${path}" must hold a default that cannot be written ` +
        `there: the value`,
    );
    assertThrows(() => draw(path, defaults, requirements), TypeError, fault);
  }
  // A default it can write, or one of the optional trailing run (the value of a path
  // without that segment, which need not meet the requirement), still draws.
  assertEquals(
    draw("/feed.:format", { format: "rss" }, { format: /[a-z]+/ }).helpers.r_path(),
    "/feed.rss",
  );
  const pages = draw("/pages/:name", { name: "Home" }, { name: /[a-z]+/ });
  assertEquals(pages.recognize("/pages").params.name, "Home");
  assertEquals(pages.helpers.r_path(), "/pages");
});

Deno.test("an empty default controller or action is a TypeError, beside its path variable too", () => {
  for (const key of ["controller", "action"]) {
    for (const path of [`/x/:${key}`, "/x"]) {
      // Before, `/:action` with defaults.action "" recognised "/" as the action "".
      assertThrows(
        () =>
          new Router().draw((map) =>
            map.named("r", path, { controller: "c", defaults: { [key]: "" } })
          ),
        TypeError,
        `map.named("r"): defaults.${key} must be a non-empty string, got ""`,
      );
    }
  }
});

Deno.test("a variable named like an option of urlFor is a TypeError", () => {
  for (const name of ["use_route", "only_path"]) {
    // Before, the route drew, and urlFor of its hash_for_ helper failed.
    assertThrows(
      () => new Router().draw((map) => map.named("r", `/x/:${name}`, { controller: "c" })),
      TypeError,
      `names the variable :${name}, a key that urlFor reads as its own option`,
    );
  }
});

Deno.test("a route no path within the limits can match is refused: deep nesting ends early", () => {
  const nest = (map: Mapper, depth: number): void => {
    if (depth > 0) map.resources(`n${depth}`, (inner) => nest(inner, depth - 1));
  };
  // 200 levels make paths of 400 segments; the first over 256 is refused.
  const error = assertThrows(() => new Router().draw((map) => nest(map, 200)), TypeError);
  assertStringIncludes(error.message, "maxSegments (256)");
  assertStringIncludes(error.message, "no path within");
  // Up to the limits, and with the limits raised, it draws.
  new Router().draw((map) => nest(map, 100));
  new Router({ maxSegments: 300 }).draw((map) => nest(map, 140));
  // Small limits, as a test of them would set, refuse nothing.
  assertEquals(
    new Router({ maxSegments: 2, maxPathLength: 5 }).draw((map) => nest(map, 3))
      .routes.length > 0,
    true,
  );
  const long = "/" + "a".repeat(9000);
  const tooLong = assertThrows(
    () => new Router().draw((map) => map.connect(long, { controller: "c" })),
    TypeError,
    "9001 characters at least",
  );
  // The message quotes the path's start, as every message that shows a long text does.
  assertStringIncludes(tooLong.message, `"/${"a".repeat(199)}... (9001 characters)"`);
});

Deno.test("routes are frozen: their readonly fields are read-only in fact", () => {
  const router = new Router().draw((map) => map.resources("messages"));
  const route = router.routes[0];
  assert(Object.isFrozen(route) && Object.isFrozen(route.segments));
  assertThrows(() => {
    (route as { path: string }).path = "/hacked";
  }, TypeError);
  assertEquals(router.recognize("/messages").route.path, "/messages");
  // A route's own maps too: deleting the requirement let urlFor make /archive/abcd.
  const archive = new Router().draw((map) =>
    map.connect("/archive/:year/:action", {
      controller: "archive",
      requirements: { year: /\d{4}/ },
    })
  ).routes[0];
  for (const map of [archive.compiledRequirements, archive.optional]) {
    assert(map.size > 0);
    assertThrows(() => (map as Map<string, unknown>).delete("year"), TypeError);
    assertThrows(() => Map.prototype.clear.call(map), TypeError);
  }
  assertEquals([...archive.optional], [["action", "index"]]);
  assertEquals([...archive.compiledRequirements.keys()], ["year"]);
  // What a route builds on first use still works.
  assert(route.pattern.test({ pathname: "/messages" }));
  // Its constant defaults too, and its RegExp is a copy: changing either changed routing.
  const feed = new Router().draw((map) =>
    map.connect("/feed", { controller: "posts", defaults: { format: "rss" } })
  );
  const constants = feed.routes[0].constants as [string, string][];
  assertThrows(() => constants.push(["admin", "1"]), TypeError);
  assertThrows(() => (constants[0] as string[])[1] = "atom", TypeError);
  const pattern = new Router().draw((map) => map.named("n", "/n/:a-:b", { controller: "n" }));
  pattern.routes[0].regex.compile("^nothing$");
  assertEquals(pattern.helpers.n_path("x", "y"), "/n/x-y");
  assertEquals(pattern.recognize("/n/x-y").params.b, "y");
  assertEquals(feed.recognize("/feed").params.format, "rss");
});

Deno.test("a router's namedRoutes and deprecatedNames refuse changes", () => {
  const router = new Router().draw((map) => map.resources("messages"));
  const named = router.namedRoutes as Map<string, unknown>;
  assertThrows(() => named.set("x", {}), TypeError, "router.namedRoutes is read-only");
  assertThrows(() => named.delete("message"), TypeError, "router.namedRoutes is read-only");
  assertThrows(() => named.clear(), TypeError, "router.namedRoutes is read-only");
  const deprecated = router.deprecatedNames as Map<string, string>;
  assertThrows(() => deprecated.set("x", "y"), TypeError, "router.deprecatedNames is read-only");
  assert(Object.isFrozen(named) && Object.isFrozen(deprecated));
  // Had the delete gone through, the helper and urlFor would have lost the route.
  assertEquals(router.helpers.message_path(1), "/messages/1");
  assertEquals(router.urlFor({ use_route: "message", id: 1, only_path: true }), "/messages/1");
  assertEquals(router.namedRoutes.get("message")?.action, "show");
  // Reading works as on any Map.
  assertEquals([...router.namedRoutes.keys()].includes("messages"), true);
});

Deno.test("what routes of different routers share, no router can change", () => {
  const a = new Router({ variant: "B" }).draw((map) => map.resources("messages"));
  const index = a.routes.find((route) => route.action === "index")!;
  const show = a.routes.find((route) => route.action === "show")!;
  // The empty maps of routes without optional variables or requirements.
  assertThrows(() => (index.optional as Map<string, string>).set("id", ""), TypeError);
  assertThrows(() => (index.compiledRequirements as Map<string, unknown>).clear(), TypeError);
  // Map's own methods too, which a Map takes whatever its own `set` does.
  assertThrows(() => Map.prototype.set.call(index.optional, "id", undefined), TypeError);
  assertEquals(index.compiledRequirements.size, 0);
  assertEquals([index.optional.size, [...index.optional], index.optional.get("id")], [
    0,
    [],
    undefined,
  ]);
  // A compiled requirement, the one object for a RegExp that every table draws.
  assert(Object.isFrozen(show.compiledRequirements.get("id")));
  // Had the set above gone through, a PUT to /messages would reach update without an id.
  const b = new Router({ variant: "B" }).draw((map) => map.resources("messages"));
  const refused = assertThrows(() => b.recognize("/messages", "PUT"), RoutingError);
  assertEquals(refused.status, 405);
  // Its RegExps: it hands out none that recognition or generation runs. Changed in place
  // (Annex B's compile, which freezing does not stop), its whole-text RegExp made another
  // table take /posts/9 and refuse /posts/1.
  const year = /\d{4}/;
  const [c, d] = [0, 1].map(() =>
    new Router().draw((map) => {
      map.connect("/archive/:year", { controller: "archive", requirements: { year } });
      map.resources("posts");
    })
  );
  for (const requirement of c.routes.flatMap((route) => [...route.compiledRequirements.values()])) {
    assertEquals("whole" in requirement, false);
    requirement.original.compile("^9$", "u");
  }
  assertEquals(d.recognize("/posts/1").params.id, "1");
  assertThrows(() => d.recognize("/archive/abcd"), RoutingError);
  assertThrows(() => d.urlFor({ controller: "archive", year: "abcd" }), RoutingError);
  assertEquals(d.urlFor({ controller: "archive", year: "2024" }), "/archive/2024");
});

Deno.test("the default :id rule a route shows is its table's own: changing it reaches no other", () => {
  const a = new Router().draw((map) => map.resources("messages"));
  const rule = a.routes.find((route) => route.name === "message")!.requirements.id;
  // Annex B's compile changes a RegExp in place; the rule was once one object for every table.
  rule.compile("\\d+", "g");
  // Another router, drawn later, keeps the default rule,
  const b = new Router().draw((map) => map.resources("posts"));
  assertEquals(b.recognize("/posts/my-slug").params.id, "my-slug");
  assertEquals(b.helpers.post_path("my-slug"), "/posts/my-slug");
  assertEquals(
    String(b.routes.find((route) => route.name === "post")!.requirements.id),
    "/[^\\/;.,?]+/",
  );
  // and the table drawn with it is left as it was drawn (as for a requirement of one's own).
  assertEquals(a.recognize("/messages/my-slug").params.id, "my-slug");
});

Deno.test("connect reads each option once: a getter's later values change nothing", () => {
  /** An option whose getter gives `first`, then `later` on every read after. */
  const changing = (first: unknown, later: unknown) => {
    let reads = 0;
    return { enumerable: true, get: () => reads++ === 0 ? first : later };
  };
  const options = Object.defineProperties({ controller: "c" }, {
    defaults: changing({ a: "1" }, null),
    conditions: changing({ method: "get" }, "post"),
    requirements: changing({ a: /\d/ }, null),
  });
  // Before, the later reads gave V8's "Cannot convert undefined or null to object".
  const route = new Router().draw((map) => map.connect("/x/:a", options as never)).routes[0];
  assertEquals([route.method, route.defaults, String(route.requirements.a)], [
    "GET",
    { a: "1" },
    "/\\d/",
  ]);
});

Deno.test("a draw inside the router's own draw is refused; the table before stays", () => {
  const router = new Router().draw((map) => map.connect("/before", { controller: "c" }));
  // Before, the inner table was accepted and then dropped when the outer block returned.
  assertThrows(
    () =>
      router.draw((map) => {
        map.connect("/outer", { controller: "c" });
        router.draw((inner) => inner.connect("/inner", { controller: "c" }));
      }),
    TypeError,
    "router.draw was called inside its own block",
  );
  assertEquals(router.routes.map((route) => route.path), ["/before"]);
  // Another router may be drawn there, and this one again once the block has returned.
  const other = new Router();
  router.draw((map) => {
    other.draw((inner) => inner.connect("/inner", { controller: "c" }));
    map.connect("/outer", { controller: "c" });
  });
  assertEquals([other.routes[0].path, router.routes[0].path], ["/inner", "/outer"]);
});

Deno.test("a RegExp changed by compile() after a draw is compiled again for the next", () => {
  const rule = /\d+/;
  const draw = () =>
    new Router().draw((map) =>
      map.connect("/n/:v", { controller: "n", requirements: { v: rule } })
    );
  // Annex B's compile (deprecated, and still in every engine) changes a RegExp in place.
  assertThrows(() => draw().recognize("/n/abc"), RoutingError);
  // The next table follows the new pattern.
  rule.compile("[a-z]+");
  assertEquals(draw().recognize("/n/abc").params.v, "abc");
  // And checks it again: a flag requirements do not take is refused.
  rule.compile("\\d+", "g");
  assertThrows(draw, TypeError, 'has the flag "g"');
});

Deno.test("a module namespace object serves as the controllers option", async () => {
  const controllers = await import(
    "data:text/javascript,export const messages = { index: () => 'all messages' };"
  );
  const router = new Router({ controllers }).draw((map) => map.resources("messages"));
  const response = await router.handle(new Request("http://localhost/messages"));
  assertEquals(await response.text(), "all messages");
});

Deno.test("a Route made from a spec of the wrong shape is a TypeError naming the field", () => {
  const spec = {
    name: null,
    method: "GET",
    path: "/x",
    controller: "c",
    action: "a",
    requirements: {},
    defaults: {},
    optionalTrailing: false,
  };
  const cases: [unknown, string][] = [
    [undefined, "A route spec must be an object, got undefined"],
    [{ ...spec, method: "BOGUS" }, "method must be one of GET, POST, PUT, PATCH, DELETE or ANY"],
    [{ ...spec, method: undefined }, "method must be one of"],
    [{ ...spec, path: 5 }, "path must be a string, got 5"],
    [{ ...spec, action: 1 }, "action must be a string or null"],
    [{ ...spec, defaults: null }, "defaults must be an object, got null"],
  ];
  for (const [value, message] of cases) {
    assertThrows(
      () => new Route(value as ConstructorParameters<typeof Route>[0]),
      TypeError,
      message,
    );
  }
  assertEquals(new Route(spec as ConstructorParameters<typeof Route>[0]).path, "/x");
});

Deno.test("HttpError and RoutingError refuse options that are no object, by name", () => {
  assertThrows(
    () => new HttpError("m", null as never),
    TypeError,
    "HttpError: options must be an object",
  );
  assertThrows(
    () => new RoutingError("m", null as never),
    TypeError,
    "RoutingError: options must be an object",
  );
});

Deno.test("a block may take its mapper's methods off it", () => {
  const router = new Router().draw(({ resources, connect }) => {
    resources("messages", {}, ({ resources }) => resources("comments"));
    connect(":controller/:action/:id");
  });
  assertEquals(router.helpers.message_comment_path(1, 2), "/messages/1/comments/2");
  assertEquals(router.recognize("/photos/show/3").params.controller, "photos");
});

Deno.test("a router method taken off its router is a TypeError that says so", () => {
  const router = new Router().draw((map) => map.resources("messages"));
  const { recognize, urlFor, draw, register } = router;
  const calls: [string, () => unknown][] = [
    ["recognize", () => recognize("/messages")],
    ["recognize", () => ["/messages"].map(router.recognize as (path: string) => unknown)],
    ["urlFor", () => urlFor({ controller: "messages" })],
    ["draw", () => draw(() => {})],
    ["register", () => register("messages", {})],
  ];
  // Put on another object, they get the same (they got V8's "Cannot read private member").
  const api = { recognize, urlFor, draw, register, toString: router.toString };
  calls.push(
    // V8's own message named the class, which the bundle's minifier leaves unnamed.
    ["recognize", () => api.recognize("/messages")],
    ["urlFor", () => api.urlFor({ controller: "messages" })],
    ["draw", () => api.draw(() => {})],
    ["register", () => api.register("messages", {})],
    ["toString", () => api.toString()],
    ["toString", () => Reflect.apply(router.toString, undefined, [])],
  );
  for (const [method, call] of calls) {
    assertThrows(call, TypeError, `router.${method} was called without its router`);
  }
});

Deno.test("a router method given more arguments than it reads is a TypeError", () => {
  const router = new Router().draw((map) => map.resources("messages"));
  assertThrows(
    // Rails' url_for(hash, options): the second hash would be dropped, silently.
    () => Reflect.apply(router.urlFor, router, [{ controller: "messages" }, { only_path: false }]),
    TypeError,
    "router.urlFor(options) takes at most 1 argument, got 2",
  );
  assertThrows(
    () => Reflect.apply(router.draw, router, [() => {}, { variant: "C" }]),
    TypeError,
    "router.draw(block) takes at most 1 argument, got 2",
  );
  assertThrows(
    () => Reflect.apply(router.register, router, ["messages", {}, {}]),
    TypeError,
    "takes at most 2 arguments, got 3",
  );
});

Deno.test("a message shows a value by its kind where its JSON would look like another value", () => {
  // Before: 'must be a string, got "1970-01-01T00:00:00.000Z"', a string.
  assertThrows(
    () =>
      new Router().draw((map) =>
        map.connect("/posts/:date", {
          controller: "posts",
          defaults: { date: new Date(0) as never },
        })
      ),
    TypeError,
    'got an object whose JSON is "1970-01-01T00:00:00.000Z"',
  );
  // Before: '(urlFor {"controller":"messages","action":"show","id":null})'.
  const router = new Router().draw((map) => map.resources("messages"));
  assertThrows(
    () => router.urlFor({ controller: "messages", action: "show", id: NaN }),
    RoutingError,
    '(urlFor {"controller":"messages","action":"show","id":NaN})',
  );
});

Deno.test("router options in a Map, or any container, are a TypeError, not every default", () => {
  for (const options of [new Map([["variant", "C"]]), [["variant", "C"]]]) {
    assertThrows(
      () => new Router(options as unknown as RouterOptions),
      TypeError,
      "Router options must be an object, got ",
    );
  }
});

Deno.test("an HttpError's status is one a Response can carry", () => {
  for (const status of ["404", NaN, 999, 100, 404.5]) {
    assertThrows(
      () => new HttpError("x", { status: status as number }),
      TypeError,
      "HttpError: status must be an integer from 200 to 599",
    );
  }
  assertThrows(
    () => new RoutingError("x", { status: "404" as unknown as number, method: "", path: "" }),
    TypeError,
    "RoutingError: status must be",
  );
  assertEquals(new HttpError("x").status, 500);
  assertEquals(new RoutingError("x").status, 404);
});
