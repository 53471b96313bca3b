// Acceptance tests for generation: `router.helpers` and `router.urlFor`, written from API.md.
import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import { Controller, HttpError, Router, RoutingError } from "../mod.ts";
import type { Block, Mapper, UrlOptions } from "../mod.ts";
import { build } from "./_fixtures.ts";

function generationError(fn: () => unknown): RoutingError {
  const error = assertThrows(fn, RoutingError);
  assertInstanceOf(error, HttpError);
  assertEquals(error.name, "RoutingError");
  assertEquals(error.status, 500);
  assertEquals(error.method, "");
  return error;
}

const messagesAndAccount: Block<Mapper> = (map: Mapper) => {
  map.resources("messages", { collection: { rss: "get" } });
  map.resource("account");
};

const nested: Block<Mapper> = (map: Mapper) =>
  map.resources("threads", (threads: Mapper) => threads.resources("messages"));

class Message {
  constructor(public id: number) {}
}
class Slugged {
  constructor(public id: number, public title: string) {}
  toParam(): string {
    return `${this.id}-${this.title}`;
  }
}

// ---------------------------------------------------------------------------------------------
// The four helper forms

Deno.test("variant A: the four helper forms of the messages routes", () => {
  const h = build("A", messagesAndAccount, { baseUrl: "https://example.com" }).helpers;
  assertEquals(h.messages_path(), "/messages");
  assertEquals(h.messages_url(), "https://example.com/messages");
  assertEquals(h.hash_for_messages_path(), {
    controller: "messages",
    action: "index",
    use_route: "messages",
    only_path: true,
  });
  assertEquals(h.hash_for_messages_url(), {
    controller: "messages",
    action: "index",
    use_route: "messages",
    only_path: false,
  });
  assertEquals(h.message_path(1), "/messages/1");
  assertEquals(h.message_url(1), "https://example.com/messages/1");
  assertEquals(h.hash_for_message_path(1), {
    controller: "messages",
    action: "show",
    use_route: "message",
    only_path: true,
    id: 1,
  });
  assertEquals(h.hash_for_message_url(1), {
    controller: "messages",
    action: "show",
    use_route: "message",
    only_path: false,
    id: 1,
  });
  assertEquals(h.new_message_path(), "/messages/new");
  assertEquals(h.new_message_url(), "https://example.com/messages/new");
  assertEquals(h.edit_message_path(1), "/messages/1/edit");
  assertEquals(h.edit_message_url(1), "https://example.com/messages/1/edit");
  assertEquals(h.hash_for_edit_message_path(1), {
    controller: "messages",
    action: "edit",
    use_route: "edit_message",
    only_path: true,
    id: 1,
  });
  assertEquals(h.formatted_messages_path("xml"), "/messages.xml");
  assertEquals(h.formatted_message_path(1, "xml"), "/messages/1.xml");
  assertEquals(h.formatted_edit_message_path(1, "xml"), "/messages/1/edit.xml");
  assertEquals(h.formatted_new_message_path("json"), "/messages/new.json");
  assertEquals(h.hash_for_formatted_message_path(1, "xml"), {
    controller: "messages",
    action: "show",
    use_route: "formatted_message",
    only_path: true,
    id: 1,
    format: "xml",
  });
  assertEquals(h.rss_messages_path(), "/messages/rss");
  assertEquals(h.formatted_rss_messages_path("xml"), "/messages/rss.xml");
});

Deno.test("variant A: singleton helpers take no id", () => {
  const h = build("A", messagesAndAccount, { baseUrl: "https://example.com" }).helpers;
  assertEquals(h.account_path(), "/account");
  assertEquals(h.account_url(), "https://example.com/account");
  assertEquals(h.edit_account_path(), "/account/edit");
  assertEquals(h.new_account_path(), "/account/new");
  assertEquals(h.formatted_account_path("json"), "/account.json");
  assertEquals(h.hash_for_edit_account_url(), {
    controller: "account",
    action: "edit",
    use_route: "edit_account",
    only_path: false,
  });
});

Deno.test("variants B and C: ;action paths", () => {
  for (const variant of ["B", "C"] as const) {
    const h = build(
      variant,
      (map: Mapper) =>
        map.resources("messages", {
          collection: { rss: "get" },
          member: { mark: "post" },
          new: { preview: "post" },
        }),
    ).helpers;
    assertEquals(h.edit_message_path(1), "/messages/1;edit");
    assertEquals(h.formatted_edit_message_path(1, "xml"), "/messages/1.xml;edit");
    assertEquals(h.rss_messages_path(), "/messages;rss");
    assertEquals(h.formatted_rss_messages_path("xml"), "/messages.xml;rss");
    assertEquals(h.mark_message_path(1), "/messages/1;mark");
    assertEquals(h.preview_new_message_path(), "/messages/new;preview");
    assertEquals(h.formatted_preview_new_message_path("js"), "/messages/new.js;preview");
  }
  const b = build("B", (map: Mapper) => map.resource("account")).helpers;
  assertEquals(b.edit_account_path(), "/account;edit");
});

Deno.test("every named route has four plain-function helpers; unknown names have none", () => {
  for (const variant of ["A", "B", "C"] as const) {
    const router = build(variant, (map: Mapper) => {
      map.resources("messages", { member: { mark: "post" } });
      map.named("login", "/login", { controller: "sessions", action: "new" });
    });
    assert(router.namedRoutes.size > 0);
    for (const name of router.namedRoutes.keys()) {
      for (const form of [`${name}_path`, `${name}_url`, `hash_for_${name}_path`]) {
        assertEquals(typeof router.helpers[form], "function", `${variant} ${form}`);
      }
      assertEquals(typeof router.helpers[`hash_for_${name}_url`], "function");
    }
    assertEquals(router.helpers.nothing_path, undefined);
    assertEquals(router.helpers.login_path(), "/login");
  }
});

Deno.test("router.helpers follow the table: empty before draw, the latest draw after", () => {
  const router = new Router({ variant: "B" });
  assertEquals(Object.keys(router.helpers), []);
  assertEquals(Object.getPrototypeOf(router.helpers), null);
  router.draw((map) => map.resources("messages"));
  const first = router.helpers;
  assert(router.helpers === first, "one object per table");
  assertEquals(first.message_path(1), "/messages/1");
  // A declaration error keeps the previous table, and with it the same helpers.
  assertThrows(() => router.draw((map) => map.resources("bad name")), TypeError);
  assert(router.helpers === first);
  router.draw((map) => map.resources("posts"));
  assertEquals(router.helpers.post_path(2), "/posts/2");
  assertEquals(router.helpers.message_path, undefined);
  // Helpers taken before a redraw keep generating for their own table.
  assertEquals(first.message_path(3), "/messages/3");
});

// ---------------------------------------------------------------------------------------------
// Arguments

Deno.test("positional values fill the path variables in order", () => {
  const h = build("A", nested).helpers;
  assertEquals(h.thread_messages_path(5), "/threads/5/messages");
  assertEquals(h.thread_message_path(5, 2), "/threads/5/messages/2");
  assertEquals(h.edit_thread_message_path(5, 2), "/threads/5/messages/2/edit");
  assertEquals(h.formatted_edit_thread_message_path(5, 2, "xml"), "/threads/5/messages/2/edit.xml");
  assertEquals(h.thread_path(5), "/threads/5");
});

Deno.test("positional values fill the rightmost variables the object does not name", () => {
  const h = build("A", nested).helpers;
  assertEquals(h.edit_thread_message_path(5, { id: 2 }), "/threads/5/messages/2/edit");
  assertEquals(h.edit_thread_message_path(2, { thread_id: 5 }), "/threads/5/messages/2/edit");
  assertEquals(h.edit_thread_message_path({ thread_id: 5, id: 2 }), "/threads/5/messages/2/edit");
  assertEquals(
    h.formatted_edit_thread_message_path("xml", { thread_id: 5, id: 2 }),
    "/threads/5/messages/2/edit.xml",
  );
  assertEquals(
    h.formatted_edit_thread_message_path(2, "xml", { thread_id: 5 }),
    "/threads/5/messages/2/edit.xml",
  );
  assertEquals(h.hash_for_edit_thread_message_path(5, { id: 2 }), {
    controller: "messages",
    action: "edit",
    use_route: "edit_thread_message",
    only_path: true,
    thread_id: 5,
    id: 2,
  });
});

Deno.test("an object key whose value is undefined or null names nothing", () => {
  const h = build("A", nested).helpers;
  assertEquals(h.thread_message_path(5, 2, { id: undefined }), "/threads/5/messages/2");
  assertEquals(h.thread_message_path(5, 2, { id: null }), "/threads/5/messages/2");
  assertEquals(h.thread_message_path(5, 2, { page: undefined }), "/threads/5/messages/2");
  assertEquals(h.thread_messages_path(5, { page: null }), "/threads/5/messages");
});

Deno.test("keys that are not path variables become the query string", () => {
  const h = build("A", nested).helpers;
  const m = build("A", (map: Mapper) => map.resources("messages")).helpers;
  assertEquals(m.messages_path({ page: 2 }), "/messages?page=2");
  assertEquals(m.messages_path({ q: "a b" }), "/messages?q=a%20b");
  assertEquals(m.messages_path({ tag: ["x", "y z"] }), "/messages?tag=x&tag=y%20z");
  // A sparse array's holes add nothing, and take no time in its length.
  const sparse: string[] = Object.assign([], { extra: "not an element" });
  sparse[4_294_967_294] = "last";
  sparse[2] = "a";
  assertEquals(m.messages_path({ tag: sparse }), "/messages?tag=a&tag=last");
  assertEquals(m.messages_path({ tag: [, "b", undefined, "c"] }), "/messages?tag=b&tag=c");
  assertEquals(m.messages_path({ z: 1, a: 2, m: 3 }), "/messages?z=1&a=2&m=3");
  assertEquals(m.messages_path({ q: "c=d&e" }), "/messages?q=c%3Dd%26e");
  assertEquals(m.message_path(1, { page: 2, sort: "new" }), "/messages/1?page=2&sort=new");
  assertEquals(h.thread_message_path(5, 2, { page: 3 }), "/threads/5/messages/2?page=3");
  assertEquals(
    h.thread_message_path({ page: 3, thread_id: 5, id: 2 }),
    "/threads/5/messages/2?page=3",
  );
  assertEquals(m.hash_for_messages_path({ page: 2 }), {
    controller: "messages",
    action: "index",
    use_route: "messages",
    only_path: true,
    page: 2,
  });
});

Deno.test("falsy but present values are values; null positional is missing", () => {
  const h = build("A", (map: Mapper) => map.resources("messages")).helpers;
  assertEquals(h.message_path(0), "/messages/0");
  assertEquals(h.message_path({ id: 0 }), "/messages/0");
  assertEquals(h.messages_path({ page: 0, flag: false }), "/messages?page=0&flag=false");
  generationError(() => h.message_path(null));
});

Deno.test("a boolean is a query value but no path value; a bigint is both", () => {
  const h = build("A", (map: Mapper) => map.resources("messages")).helpers;
  for (const call of [() => h.message_path(true), () => h.message_path({ id: false })]) {
    const error = generationError(call);
    assertStringIncludes(error.message, ":id (a boolean)");
    assertEquals(error.path, "/messages/:id");
  }
  generationError(() => h.message_path(new Message(true as unknown as number)));
  assertEquals(h.message_path(10n), "/messages/10");
  assertEquals(h.messages_path({ flag: true, n: 2n }), "/messages?flag=true&n=2");
});

Deno.test("a value may be an object with id or toParam()", () => {
  const h = build("A", nested).helpers;
  const m = build("A", (map: Mapper) => map.resources("messages")).helpers;
  assertEquals(m.message_path(new Message(7)), "/messages/7");
  assertEquals(m.message_path(new Slugged(7, "hello")), "/messages/7-hello");
  assertEquals(m.message_path({ toParam: () => "x y" }), "/messages/x%20y");
  assertEquals(m.message_path({ id: new Message(7) }), "/messages/7");
  assertEquals(m.message_path({ id: 7 }), "/messages/7");
  // A number from toParam() is held to the rule for numbers.
  for (const bad of [NaN, Infinity]) {
    assertThrows(() => m.message_path({ toParam: () => bad }), RoutingError, String(bad));
  }
  assertEquals(m.message_path(new Message(7), { page: 2 }), "/messages/7?page=2");
  assertEquals(
    h.edit_thread_message_path(new Message(5), new Slugged(2, "b")),
    "/threads/5/messages/2-b/edit",
  );
  const value = new Message(7);
  // hash_for keeps the value as given.
  assertEquals(m.hash_for_message_path(value), {
    controller: "messages",
    action: "show",
    use_route: "message",
    only_path: true,
    id: value,
  });
});

// ---------------------------------------------------------------------------------------------
// Encoding

Deno.test("values are percent-encoded, . as %2E", () => {
  const h = build("A", (map: Mapper) => map.resources("messages")).helpers;
  assertEquals(h.message_path("a.b"), "/messages/a%2Eb");
  assertEquals(h.message_path("a/b;c,d?e"), "/messages/a%2Fb%3Bc%2Cd%3Fe");
  assertEquals(h.message_path("é"), "/messages/%C3%A9");
  assertEquals(h.message_path("a b"), "/messages/a%20b");
  assertEquals(h.message_path("100%"), "/messages/100%25");
  assertEquals(h.formatted_message_path("a.b", "x.y"), "/messages/a%2Eb.x%2Ey");
});

Deno.test("generated paths round-trip through recognize, in every variant", () => {
  const values = [
    "a.b",
    "a/b",
    "a;b",
    "a,b",
    "a?b",
    "a b",
    "a+b",
    "x#y",
    "100%",
    "..a",
    "a..",
    "ünïcødé ✓",
    "a.b/c;d,e?f",
  ];
  for (const variant of ["A", "B", "C"] as const) {
    const router = build(variant, (map: Mapper) => map.resources("messages"));
    for (const value of values) {
      const path = router.helpers.message_path(value) as string;
      assertEquals(router.recognize(path).params.id, value, `${variant} ${value} ${path}`);
      const edit = router.helpers.formatted_edit_message_path(value, "x.y") as string;
      const { params } = router.recognize(edit);
      assertEquals([params.action, params.id, params.format], ["edit", value, "x.y"], edit);
    }
  }
  const router = build("A", (map: Mapper) => map.resources("messages"));
  assertEquals(router.recognize(router.helpers.message_path("a.b") as string).params.id, "a.b");
});

Deno.test("a requirement that rejects %2E but accepts . gets the raw dots", () => {
  const router = build("A", (map: Mapper) => {
    map.named("file", "/files/:name", {
      controller: "files",
      action: "show",
      requirements: { name: /[a-z.]+/ },
    });
    map.named("tag", "/tags/:tag", {
      controller: "tags",
      action: "show",
      requirements: { tag: /[^\/]+/ },
    });
  });
  assertEquals(router.helpers.file_path("a.b"), "/files/a.b");
  assertEquals(router.recognize("/files/a.b").params.name, "a.b");
  assertEquals(router.helpers.tag_path("a.b"), "/tags/a%2Eb");
  const error = generationError(() => router.helpers.file_path("a b"));
  assertStringIncludes(error.message, "name");
});

Deno.test("the values . and .. are a RoutingError", () => {
  const router = build("A", (map: Mapper) => map.resources("messages"));
  const h = router.helpers;
  for (const value of [".", ".."]) {
    generationError(() => h.message_path(value));
    generationError(() => h.message_path({ id: value }));
    generationError(() => h.edit_message_path(value));
    generationError(() => router.urlFor({ controller: "messages", action: "show", id: value }));
  }
});

// ---------------------------------------------------------------------------------------------
// Argument errors

Deno.test("a missing value is a 500 RoutingError naming the route and the key", () => {
  const h = build("A", nested).helpers;
  // The single positional value fills the rightmost variable (id); thread_id is missing.
  const missing = generationError(() => h.thread_message_path(2));
  assertStringIncludes(missing.message, "thread_id");
  assert(
    missing.message.includes("thread_message") ||
      missing.message.includes("/threads/:thread_id/messages/:id"),
    missing.message,
  );
  assertEquals(missing.path, "/threads/:thread_id/messages/:id");
  const m = build("A", (map: Mapper) => map.resources("messages")).helpers;
  const error = generationError(() => m.message_path());
  assertStringIncludes(error.message, "id");
  assert(error.message.includes("message") || error.message.includes("/messages/:id"));
  assertEquals(error.path, "/messages/:id");
  generationError(() => m.message_path(""));
  generationError(() => m.message_path({ id: null }));
  generationError(() => m.message_path({ id: undefined }));
  generationError(() => m.formatted_message_path(1));
});

Deno.test("more positional values than unnamed variables is a RoutingError", () => {
  const router = build("A", nested);
  const h = router.helpers;
  generationError(() => h.threads_path(1));
  generationError(() => h.thread_path(1, 2));
  generationError(() => h.thread_message_path(1, 2, 3));
  generationError(() => h.thread_message_path(1, 2, { id: 3 }));
  generationError(() => h.hash_for_thread_path(1, 2));
  generationError(() => h.hash_for_thread_message_path(1, 2, 3));
  // Extra undefined values at the end are no values; an undefined one in place is missing.
  assertEquals(h.threads_path(undefined), "/threads");
  assertEquals(h.thread_path(1, undefined, undefined), "/threads/1");
  assertEquals(h.threads_path(undefined, { page: 2 }), "/threads?page=2");
  assertEquals(h.hash_for_thread_path(1, undefined), h.hash_for_thread_path(1));
  generationError(() => h.thread_path(undefined));
  generationError(() => h.thread_path(undefined, 1));
  // After the named-values object too, which stays that object: these threw, or dropped
  // page=2 reading the object as a record.
  assertEquals(h.threads_path({ page: 2 }, undefined), "/threads?page=2");
  assertEquals(h.thread_path(5, { page: 2 }, undefined), "/threads/5?page=2");
  assertEquals(h.thread_path({ id: 5, page: 2 }, undefined, undefined), "/threads/5?page=2");
  assertEquals(
    h.hash_for_thread_path(5, { page: 2 }, undefined),
    h.hash_for_thread_path(5, { page: 2 }),
  );
});

Deno.test("hash_for_* builds the hash without validating values", () => {
  const h = build("A", (map: Mapper) => map.resources("messages")).helpers;
  assertEquals(h.hash_for_message_path(), {
    controller: "messages",
    action: "show",
    use_route: "message",
    only_path: true,
  });
  assertEquals(h.hash_for_message_path(".."), {
    controller: "messages",
    action: "show",
    use_route: "message",
    only_path: true,
    id: "..",
  });
});

Deno.test("hash_for_* puts controller and action first where the path names them", () => {
  const router = build("A", (map: Mapper) => {
    map.named("generic", ":controller/:action/:id");
    map.named("listing", ":controller/list", { action: "list" });
  });
  const h = router.helpers;
  assertEquals(Object.keys(h.hash_for_generic_path("posts", "show", 3)), [
    "controller",
    "action",
    "use_route",
    "only_path",
    "id",
  ]);
  assertEquals(Object.keys(h.hash_for_listing_path("posts")), [
    "controller",
    "action",
    "use_route",
    "only_path",
  ]);
  assertEquals(router.urlFor(h.hash_for_listing_path("posts")), "/posts/list");
  // With no controller given, there is none to put first.
  assertEquals(Object.keys(h.hash_for_listing_path()), ["action", "use_route", "only_path"]);
});

Deno.test("a value that breaks a requirement is a RoutingError naming the route and key", () => {
  const router = build("A", (map: Mapper) => {
    map.named("archive", "/archive/:year", {
      controller: "archive",
      action: "year",
      requirements: { year: /\d{4}/ },
    });
  });
  assertEquals(router.helpers.archive_path(2024), "/archive/2024");
  const error = generationError(() => router.helpers.archive_path("24"));
  assertStringIncludes(error.message, "year");
  assert(error.message.includes("archive"), error.message);
  generationError(() => router.helpers.archive_path("20245"));
  generationError(() => router.urlFor({ controller: "archive", action: "year", year: "24" }));
  assertEquals(
    router.urlFor({ controller: "archive", action: "year", year: 1999 }),
    "/archive/1999",
  );
});

Deno.test("a value longer than maxParamLength once encoded is a RoutingError naming the limit", () => {
  const router = build(
    "A",
    (map: Mapper) => {
      map.resources("messages");
      // Two loops: testing a 40,000-character value took 3 s before the limit.
      map.named("two", "/two/:a", { controller: "t", requirements: { a: /[a-z0-9]+[a-z]+/ } });
    },
    { maxParamLength: 8, baseUrl: "https://example.com" },
  );
  const h = router.helpers;
  assertEquals(h.message_path("a".repeat(8)), "/messages/aaaaaaaa");
  for (const value of ["a".repeat(9), "é".repeat(2), { id: "a".repeat(9) }]) {
    assertStringIncludes(generationError(() => h.message_path(value)).message, "maxParamLength");
  }
  generationError(() => h.two_url("a".repeat(40_000) + "!"));
  // Refused for its length before its requirement is tried (whose loops would take time in
  // the square of its length), and without quoting it.
  for (const value of ["a".repeat(30_000), "1".repeat(100_000), 10n ** 20_000n]) {
    const { message } = generationError(() => h.two_path(value));
    assertStringIncludes(message, `is ${String(value).length} characters long, over the router's`);
    assertEquals(message.length < 300, true, message);
  }
  generationError(() => router.urlFor({ controller: "messages", action: "show", id: 123456789 }));
  // Query values are not path values: no limit.
  assertEquals(h.messages_path({ q: "a".repeat(20) }), `/messages?q=${"a".repeat(20)}`);
});

Deno.test("a path over maxPathLength or maxSegments is a RoutingError naming the limit", () => {
  const router = build("A", (map: Mapper) => {
    map.resources("messages");
    map.named("vote", "/polls/:poll/:choice", { controller: "votes" });
    map.named("deep", "/a/b/c/d/e", { controller: "deep" });
  }, { maxPathLength: 20, maxSegments: 4, baseUrl: "https://example.com/app" });
  const h = router.helpers;
  // The limits count the path as recognition sees it: without the mount path.
  assertEquals(h.vote_path("abcdef", "abcdef"), "/app/polls/abcdef/abcdef");
  assertEquals(router.recognize("/polls/abcdef/abcdef").params.choice, "abcdef");
  const over = [() => h.vote_path("abcdef", "abcdefg"), () => h.vote_url("ab cd", "abcdef")];
  for (const call of over) {
    assertStringIncludes(generationError(call).message, "21 characters long, over the router's");
  }
  // Generation refuses what recognition would answer with a 414.
  assertEquals(
    assertThrows(() => router.recognize("/polls/abcdef/abcdefg"), RoutingError).status,
    414,
  );
  assertStringIncludes(generationError(() => h.deep_path()).message, "5 segments, over");
  assertEquals(assertThrows(() => router.recognize("/a/b/c/d/e"), RoutingError).status, 414);
  generationError(() => router.urlFor({ use_route: "vote", poll: "abcdef", choice: "abcdefg" }));
  // Query values are not part of the path.
  assertEquals(h.messages_path({ q: "a".repeat(30) }), `/app/messages?q=${"a".repeat(30)}`);
});

// ---------------------------------------------------------------------------------------------
// baseUrl

Deno.test("X_url without baseUrl throws an Error naming baseUrl", () => {
  const h = build("A", (map: Mapper) => map.resources("messages")).helpers;
  assertThrows(() => h.messages_url(), Error, "baseUrl");
  assertThrows(() => h.message_url(1), Error, "baseUrl");
  assertEquals(h.messages_path(), "/messages");
  // hash_for_*_url only builds a hash.
  assertEquals(h.hash_for_messages_url(), {
    controller: "messages",
    action: "index",
    use_route: "messages",
    only_path: false,
  });
});

Deno.test("baseUrl must be an absolute http(s) URL without query or fragment", () => {
  for (const baseUrl of ["/app", "example.com", "https://example.com/?a=1", "https://x.org/#f"]) {
    assertThrows(() => new Router({ baseUrl }), TypeError, "baseUrl", baseUrl);
  }
  // These parse, but have no origin to put before a path ("null", or not the URL's start).
  for (const baseUrl of ["file:///app", "foo:bar", "data:text/plain,x", "blob:https://x.org/1"]) {
    assertThrows(() => new Router({ baseUrl }), TypeError, "http: or https:", baseUrl);
  }
  // A mount path starting "//" would make every *_path a link to another host.
  for (const baseUrl of ["https://example.com//evil.com", "https://example.com/app//x/"]) {
    assertThrows(() => new Router({ baseUrl }), TypeError, '"//"', baseUrl);
  }
  const router = new Router({ baseUrl: "http://localhost:8000" });
  assertEquals(
    router.draw((map) => map.resources("messages")).helpers.messages_url(),
    "http://localhost:8000/messages",
  );
});

Deno.test("baseUrl with a mount path: _path gets the mount path, _url the whole URL", () => {
  for (const baseUrl of ["https://example.com/app", "https://example.com/app/"]) {
    const router = build("A", (map: Mapper) => map.resources("messages"), { baseUrl });
    const h = router.helpers;
    assertEquals(h.messages_path(), "/app/messages", baseUrl);
    assertEquals(h.message_path(1), "/app/messages/1");
    assertEquals(h.messages_url(), "https://example.com/app/messages");
    assertEquals(
      h.edit_message_url(1, { a: "b c" }),
      "https://example.com/app/messages/1/edit?a=b%20c",
    );
    // recognize takes the path relative to baseUrl.
    assertEquals(router.recognize("/messages/1").params.id, "1");
    assertEquals(
      router.urlFor({ controller: "messages", action: "show", id: 1, only_path: false }),
      "https://example.com/app/messages/1",
    );
    assertEquals(
      router.urlFor(h.hash_for_message_url(1) as UrlOptions),
      h.message_url(1),
    );
    assertEquals(
      router.urlFor(h.hash_for_message_path(1) as UrlOptions),
      h.message_path(1),
    );
  }
  const root = build("A", (map: Mapper) => map.resources("messages"), {
    baseUrl: "https://example.com",
  });
  assertEquals(root.helpers.messages_path(), "/messages");
  assertEquals(root.helpers.messages_url(), "https://example.com/messages");
});

// ---------------------------------------------------------------------------------------------
// Deprecated names (variant A)

function threadPrefixed(onDeprecation: (message: string) => void): Router {
  return build("A", (map: Mapper) =>
    map.resources("messages", {
      collection: { search: "get" },
      new: { preview: "any" },
      namePrefix: "thread_",
      pathPrefix: "/threads/:thread_id",
    }), { onDeprecation, baseUrl: "https://example.com" });
}

Deno.test("a deprecated helper returns what the current one does and reports each use", () => {
  const messages: string[] = [];
  const router = threadPrefixed((message) => messages.push(message));
  const h = router.helpers;
  const calls: [string, string, unknown[]][] = [
    ["thread_edit_message", "edit_thread_message", [5, 2]],
    ["thread_new_message", "new_thread_message", [5]],
    ["thread_search_messages", "search_thread_messages", [5, { q: "a b" }]],
    ["thread_preview_new_message", "preview_new_thread_message", [5]],
    ["formatted_thread_edit_message", "formatted_edit_thread_message", [5, 2, "xml"]],
  ];
  for (const [old, now, args] of calls) {
    for (
      const [before, after] of [["", "_path"], ["", "_url"], ["hash_for_", "_path"], [
        "hash_for_",
        "_url",
      ]]
    ) {
      const count = messages.length;
      const expected = h[`${before}${now}${after}`](...args);
      assertEquals(messages.length, count, `${before}${now}${after} is not deprecated`);
      assertEquals(h[`${before}${old}${after}`](...args), expected, `${before}${old}${after}`);
      assertEquals(messages.length, count + 1, `${before}${old}${after} reports once`);
      const message = messages[messages.length - 1];
      assertStringIncludes(message, old);
      assertStringIncludes(message, now);
    }
  }
  assertEquals(h.thread_edit_message_path(5, 2), "/threads/5/messages/2/edit");
  assertEquals(h.hash_for_thread_edit_message_path(5, 2), {
    controller: "messages",
    action: "edit",
    use_route: "edit_thread_message",
    only_path: true,
    thread_id: 5,
    id: 2,
  });
});

Deno.test("without onDeprecation, each deprecated name warns once per table drawn", () => {
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (message: string) => void warnings.push(message);
  try {
    const router = new Router({ variant: "A" });
    for (let draw = 0; draw < 2; draw++) {
      router.draw((map) =>
        map.resources("messages", { namePrefix: "thread_", pathPrefix: "/threads/:thread_id" })
      );
      router.helpers.thread_edit_message_path(5, 2);
      router.helpers.thread_edit_message_path(5, 3);
      router.helpers.thread_new_message_path(5);
    }
  } finally {
    console.warn = warn;
  }
  const names = warnings.map((message) => message.match(/thread_\w+/)?.[0]);
  assertEquals(names, [
    "thread_edit_message",
    "thread_new_message",
    "thread_edit_message",
    "thread_new_message",
  ]);
});

Deno.test("urlFor with a deprecated use_route generates as the current name and reports it", () => {
  const messages: string[] = [];
  const router = threadPrefixed((message) => messages.push(message));
  assertEquals(
    router.urlFor({ use_route: "thread_edit_message", thread_id: 5, id: 2 }),
    "/threads/5/messages/2/edit",
  );
  assertEquals(messages.length, 1);
  assertStringIncludes(messages[0], "thread_edit_message");
  assertStringIncludes(messages[0], "edit_thread_message");
  // The current name, and hashes of deprecated helpers (which carry it), report nothing more.
  router.urlFor({ use_route: "edit_thread_message", thread_id: 5, id: 2 });
  assertEquals(messages.length, 1);
});

Deno.test("variant A nesting without namePrefix deprecates the unprefixed names", () => {
  const seen: string[] = [];
  const router = build("A", nested, { onDeprecation: (m) => seen.push(m) });
  const pairs: [string, string][] = [
    ["messages", "thread_messages"],
    ["formatted_messages", "formatted_thread_messages"],
    ["message", "thread_message"],
    ["formatted_message", "formatted_thread_message"],
    ["new_message", "new_thread_message"],
    ["formatted_new_message", "formatted_new_thread_message"],
    ["edit_message", "edit_thread_message"],
    ["formatted_edit_message", "formatted_edit_thread_message"],
  ];
  assertEquals([...router.deprecatedNames.entries()].sort(), pairs.sort());
  assert(router.namedRoutes.has("thread"));
  assert(router.namedRoutes.has("threads"));
  assert(!router.namedRoutes.has("message"));
  assertEquals(router.helpers.message_path(5, 2), "/threads/5/messages/2");
  assertEquals(seen.length, 1);
  assertStringIncludes(seen[0], "message");
  assertStringIncludes(seen[0], "thread_message");
  assertEquals(router.helpers.thread_path(5), "/threads/5");
  assertEquals(seen.length, 1);
});

Deno.test("a deprecated name never shadows a real route of the same name", () => {
  const declarations: Block<Mapper>[] = [
    (map: Mapper) => {
      map.resources("messages");
      nested(map);
    },
    (map: Mapper) => {
      nested(map);
      map.resources("messages");
    },
  ];
  for (const block of declarations) {
    const seen: string[] = [];
    const router = build("A", block, { onDeprecation: (m) => seen.push(m) });
    assertEquals(router.helpers.messages_path(), "/messages");
    assertEquals(router.helpers.message_path(3), "/messages/3");
    assertEquals(router.helpers.edit_message_path(3), "/messages/3/edit");
    assertEquals(router.helpers.hash_for_message_path(3), {
      controller: "messages",
      action: "show",
      use_route: "message",
      only_path: true,
      id: 3,
    });
    assertEquals(seen, []);
    assertEquals(router.namedRoutes.get("message")?.path, "/messages/:id");
    assertEquals(router.helpers.thread_message_path(5, 3), "/threads/5/messages/3");
    assertEquals(router.deprecatedNames.get("message"), "thread_message");
  }
});

Deno.test("variants B and C register no deprecated names", () => {
  for (const variant of ["B", "C"] as const) {
    const router = build(variant, (map: Mapper) => {
      map.resources("messages", { namePrefix: "thread_", pathPrefix: "/threads/:thread_id" });
      nested(map);
    });
    assertEquals(router.deprecatedNames.size, 0);
    assertEquals(router.helpers.new_thread_message_path, undefined);
    assertEquals(router.helpers.thread_new_message_path(5), "/threads/5/messages/new");
  }
});

// ---------------------------------------------------------------------------------------------
// The action separator

Deno.test("actionSeparator and Controller.resourceActionSeparator set SEP in variant A", () => {
  assertEquals(Controller.resourceActionSeparator, "/");
  const dash = build("A", messagesAndAccount, { actionSeparator: "-" });
  assertEquals(dash.helpers.edit_message_path(1), "/messages/1-edit");
  assertEquals(dash.helpers.rss_messages_path(), "/messages-rss");
  assertEquals(dash.helpers.edit_account_path(), "/account-edit");
  assert(dash.routes.some((r) => r.path === "/messages;rss" && r.name === null));
  try {
    Controller.resourceActionSeparator = "!";
    const bang = build("A", messagesAndAccount);
    assertEquals(bang.helpers.edit_message_path(1), "/messages/1!edit");
    // The router option wins over the class-level setting.
    const slash = build("A", messagesAndAccount, { actionSeparator: "/" });
    assertEquals(slash.helpers.edit_message_path(1), "/messages/1/edit");
    // B ignores it.
    assertEquals(build("B", messagesAndAccount).helpers.edit_message_path(1), "/messages/1;edit");
  } finally {
    Controller.resourceActionSeparator = "/";
  }
});

Deno.test("SEP ';' in variant A does not register the duplicate unnamed ;a route", () => {
  const router = build("A", (map: Mapper) => map.resources("messages"), { actionSeparator: ";" });
  assertEquals(
    router.routes.filter((r) => r.action === "edit").map((r) => [r.method, r.path, r.name]),
    [
      ["GET", "/messages/:id;edit", "edit_message"],
      ["GET", "/messages/:id.:format;edit", null],
      ["GET", "/messages/:id;edit.:format", "formatted_edit_message"],
    ],
  );
  const keys = router.routes.map((r) => `${r.method} ${r.path}`);
  assertEquals(new Set(keys).size, keys.length);
  assertEquals(router.helpers.edit_message_path(1), "/messages/1;edit");
  assertEquals(router.helpers.formatted_edit_message_path(1, "xml"), "/messages/1;edit.xml");
});

// ---------------------------------------------------------------------------------------------
// urlFor

Deno.test("urlFor picks the route that leaves the fewest keys unused (API.md examples)", () => {
  const router = build("A", messagesAndAccount);
  const h = router.helpers;
  assertEquals(router.urlFor({ controller: "messages" }), "/messages");
  assertEquals(router.urlFor({ controller: "messages", action: "index" }), "/messages");
  assertEquals(
    router.urlFor({ controller: "messages", action: "index", format: "xml" }),
    "/messages.xml",
  );
  assertEquals(
    router.urlFor({ controller: "messages", action: "edit", id: 1, format: "xml" }),
    "/messages/1/edit.xml",
  );
  assertEquals(
    router.urlFor({ controller: "messages", action: "edit", id: 1 }),
    "/messages/1/edit",
  );
  assertEquals(router.urlFor({ controller: "messages", action: "show", id: 3 }), "/messages/3");
  assertEquals(router.urlFor({ controller: "messages", action: "new" }), "/messages/new");
  assertEquals(router.urlFor({ controller: "messages", action: "rss" }), "/messages/rss");
  assertEquals(router.urlFor({ controller: "account", action: "show" }), "/account");
  assertEquals(router.urlFor({ controller: "account", action: "edit" }), "/account/edit");
  assertEquals(router.urlFor(h.hash_for_message_path(3) as UrlOptions), "/messages/3");
  assertEquals(
    router.urlFor(h.hash_for_edit_message_path(new Message(4)) as UrlOptions),
    "/messages/4/edit",
  );
  assertEquals(
    router.urlFor(h.hash_for_messages_path({ page: 2 }) as UrlOptions),
    "/messages?page=2",
  );
  assertEquals(
    router.urlFor({ use_route: "edit_message", controller: "messages", action: "edit", id: 4 }),
    "/messages/4/edit",
  );
});

Deno.test("urlFor of a hash_for_ helper is the helper's path where :action has a default", () => {
  for (const requirements of [{}, { action: /l[a-z]+/ }] as Record<string, RegExp>[]) {
    const router = build("B", (map: Mapper) =>
      map.named("cat", "/cat/:controller/:action/:id", {
        defaults: { action: "list" },
        requirements,
      }));
    const h = router.helpers;
    // The hash carries the default, as the path does (urlFor takes no action for "index").
    assertEquals(h.hash_for_cat_path({ controller: "pages" }), {
      action: "list",
      use_route: "cat",
      only_path: true,
      controller: "pages",
    });
    for (
      const args of [
        [{ controller: "pages" }],
        ["pages", undefined, 5],
        ["pages", "lookup", 5],
        [{ controller: "pages", id: 5, page: 2 }],
      ]
    ) {
      const path = h.cat_path(...args) as string;
      assertEquals(router.urlFor(h.hash_for_cat_path(...args) as UrlOptions), path, path);
    }
  }
});

Deno.test("urlFor by name: an :action left out or empty takes the route's default", () => {
  const router = build("B", (map: Mapper) => {
    map.named("p", "/p/:action", { controller: "c", defaults: { action: "home" } });
    map.named("q", "/q/:action/x", { controller: "c", defaults: { action: "home" } });
  });
  const h = router.helpers;
  for (const name of ["p", "q"]) {
    const path = h[`${name}_path`]("") as string;
    assertEquals(path, name === "p" ? "/p" : "/q/home/x");
    assertEquals(router.urlFor(h[`hash_for_${name}_path`]("") as UrlOptions), path);
    assertEquals(router.urlFor({ use_route: name }), path);
    assertEquals(router.urlFor({ use_route: name, action: "" }), path);
  }
  // Picked by controller, a missing action is still "index" (Rails).
  assertEquals(router.urlFor({ controller: "c" }), "/p/index");
});

Deno.test("urlFor: format, create, a falsy id, and an empty action", () => {
  const router = build("A", (map: Mapper) => map.resources("messages"));
  assertEquals(
    router.urlFor({ controller: "messages", action: "show", id: 1, format: "xml" }),
    "/messages/1.xml",
  );
  assertEquals(router.urlFor({ controller: "messages", action: "create" }), "/messages");
  assertEquals(router.urlFor({ controller: "messages", action: "show", id: 0 }), "/messages/0");
  // No action means "index", and an empty string counts as a missing value.
  assertEquals(router.urlFor({ controller: "messages", action: "" }), "/messages");
});

Deno.test("urlFor in variant B", () => {
  const router = build("B", (map: Mapper) => map.resources("messages"));
  assertEquals(
    router.urlFor({ controller: "messages", action: "edit", id: 1, format: "xml" }),
    "/messages/1.xml;edit",
  );
  assertEquals(
    router.urlFor({ controller: "messages", action: "edit", id: 1 }),
    "/messages/1;edit",
  );
});

Deno.test("urlFor puts unused keys in the query string", () => {
  const router = build("A", (map: Mapper) => map.resources("messages"));
  assertEquals(
    router.urlFor({ controller: "messages", action: "show", id: 3, page: 2, q: "a b" }),
    "/messages/3?page=2&q=a%20b",
  );
  assertEquals(
    router.urlFor({ controller: "messages", action: "index", tag: ["x", "y"] }),
    "/messages?tag=x&tag=y",
  );
});

Deno.test("urlFor prefers the route that uses more of the given keys", () => {
  const router = build("A", (map: Mapper) => {
    map.resources("messages");
    map.connect("/messages/:id/:year", { controller: "messages", action: "show" });
  });
  assertEquals(
    router.urlFor({ controller: "messages", action: "show", id: 3, year: 2024 }),
    "/messages/3/2024",
  );
  assertEquals(router.urlFor({ controller: "messages", action: "show", id: 3 }), "/messages/3");
});

Deno.test("urlFor takes a route whose defaults name a key not in its path only for that value", () => {
  const router = build("A", (map: Mapper) => {
    map.connect("/feed", { controller: "articles", action: "index", defaults: { format: "rss" } });
    map.connect("/articles", { controller: "articles", action: "index" });
    map.connect("/articles.:format", { controller: "articles", action: "index" });
  });
  // As in Rails: the default is a condition of generation, so the round trip adds nothing.
  assertEquals(router.urlFor({ controller: "articles", action: "index" }), "/articles");
  assertEquals(router.urlFor({ controller: "articles", format: "rss" }), "/feed");
  assertEquals(router.urlFor({ controller: "articles", format: "atom" }), "/articles.atom");
  assertEquals(router.recognize("/feed").params.format, "rss");
  // A value compared with such a default as text: a record's, never JavaScript's own error.
  assertEquals(
    router.urlFor({ controller: "articles", format: { toParam: () => "rss" } }),
    "/feed",
  );
  const odd = Object.create(null);
  generationError(() => router.urlFor({ controller: "articles", format: odd }));
});

Deno.test("urlFor with use_route: another value of a default not in the path is a query value", () => {
  const router = build("B", (map: Mapper) => {
    map.named("feed", "/feed", {
      controller: "articles",
      action: "index",
      defaults: { format: "rss" },
    });
  });
  const { feed_path, hash_for_feed_path } = router.helpers;
  assertEquals(feed_path({ format: "atom" }), "/feed?format=atom");
  assertEquals(router.urlFor({ use_route: "feed", format: "atom" }), "/feed?format=atom");
  assertEquals(
    router.urlFor(hash_for_feed_path({ format: "atom" }) as UrlOptions),
    "/feed?format=atom",
  );
  // Its own value is the route's, where the helper writes every key it is given that is no path
  // variable as a query value (API.md): one of the exceptions to urlFor(hash_for_X) = X (README).
  assertEquals(router.urlFor({ use_route: "feed", format: "rss" }), "/feed");
  assertEquals(router.urlFor(hash_for_feed_path({ format: "rss" }) as UrlOptions), "/feed");
  assertEquals(feed_path({ format: "rss" }), "/feed?format=rss");
});

Deno.test("urlFor with use_route: another controller or action than the route's is a query value", () => {
  const router = build("A", (map: Mapper) => map.resources("messages"));
  const { message_path, hash_for_message_path } = router.helpers;
  // Not silently dropped: the route answers show, and the link says what else was asked.
  assertEquals(
    router.urlFor({ use_route: "message", id: 1, action: "edit" }),
    "/messages/1?action=edit",
  );
  // urlFor of a hash_for_ helper's hash gives the helper's path, in the same key order.
  for (const extra of [{ action: "edit" }, { controller: "other", page: 2 }]) {
    assertEquals(
      router.urlFor(hash_for_message_path(1, extra) as UrlOptions),
      message_path(1, extra),
    );
  }
  assertEquals(
    message_path(1, { controller: "other", page: 2 }),
    "/messages/1?controller=other&page=2",
  );
  // The route's own controller and action are the route's.
  assertEquals(
    router.urlFor({ use_route: "message", controller: "messages", action: "show", id: 1 }),
    "/messages/1",
  );
});

Deno.test("urlFor with use_route takes any value for a :controller or :action in the path", () => {
  const router = build("B", (map: Mapper) => map.named("default", ":controller/:action/:id"));
  const { default_path, hash_for_default_path } = router.helpers;
  assertEquals(default_path(5, "show", 1), "/5/show/1");
  assertEquals(router.urlFor(hash_for_default_path(5, "show", 1) as UrlOptions), "/5/show/1");
  const show = { toParam: () => "show" };
  assertEquals(router.urlFor(hash_for_default_path("m", show, 1) as UrlOptions), "/m/show/1");
  // A value no helper takes is the helper's error, naming the key.
  const error = generationError(() =>
    router.urlFor({ use_route: "default", controller: true as unknown as string, id: 1 })
  );
  assertStringIncludes(error.message, ":controller");
  // Without use_route, controller and action choose the route: they must be text.
  assertThrows(
    () => router.urlFor({ controller: 5 as unknown as string }),
    TypeError,
    "controller",
  );
});

Deno.test("values that cannot be read are a RoutingError naming the key (urlFor's own options a TypeError)", () => {
  const h = build("A", (map: Mapper) => map.resources("messages"));
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  // A record whose id getter throws (a plain object would be the named values).
  const getter = new (class Record {
    get id(): never {
      throw new Error("boom");
    }
  })();
  for (const value of [proxy, getter]) {
    assertStringIncludes(generationError(() => h.helpers.message_path(value)).message, ":id");
    assertStringIncludes(
      generationError(() => h.helpers.messages_path({ page: value })).message,
      '"page"',
    );
    assertStringIncludes(
      generationError(() => h.urlFor({ controller: "messages", action: "show", id: value }))
        .message,
      ":id",
    );
  }
  assertThrows(() => h.urlFor(proxy as UrlOptions), TypeError, "could not read its options");
  // Whatever the reading throws, even a value that cannot become a string.
  for (
    const thrown of [
      Object.create(null),
      {
        toString: (): never => {
          throw new EvalError("boom");
        },
      },
      Symbol("s"),
    ]
  ) {
    const options = new Proxy({}, {
      ownKeys: (): never => {
        throw thrown;
      },
    });
    assertThrows(() => h.urlFor(options as UrlOptions), TypeError, "could not read its options");
  }
  // A value shown in a message is shown short and soon, whatever its shape: one object at
  // every place of 40 levels is 2 ** 40 paths through it.
  let shared: Record<string, unknown> = {};
  for (let level = 0; level < 40; level++) shared = { a: shared, b: shared };
  for (
    const [options, kind] of [
      [{ controller: shared }, TypeError], // not a string
      [{ controller: "x".repeat(1e6) }, RoutingError], // no route generates it
    ] as const
  ) {
    const { message } = assertThrows(() => h.urlFor(options as UrlOptions), kind);
    assertEquals(message.length < 400, true, message);
  }
  // A query array whose elements or keys throw.
  const list = new Proxy([1, 2], {
    get: (target, key) =>
      key === "1"
        ? (() => {
          throw new Error("boom");
        })()
        : Reflect.get(target, key),
  });
  const endless = new Proxy([1], {
    ownKeys: (): never => {
      throw new Error("boom");
    },
  });
  for (const page of [list, endless]) {
    const error = generationError(() => h.helpers.messages_path({ page }));
    assertStringIncludes(error.message, '"page" cannot be read (Error: boom)');
  }
  const throwing = {
    get action(): never {
      throw new Error("boom");
    },
  };
  assertThrows(() => h.urlFor(throwing), TypeError, "boom");
});

Deno.test("a toParam() or a named-values object that throws is a RoutingError saying so", () => {
  const h = build("A", (map: Mapper) => map.resources("messages"));
  const unsaved = {
    toParam: (): never => {
      throw new Error("not saved yet");
    },
  };
  for (
    const call of [
      () => h.helpers.message_path(unsaved),
      () => h.helpers.messages_path({ page: unsaved }),
      () => h.urlFor({ controller: "messages", action: "show", id: unsaved }),
    ]
  ) {
    assertStringIncludes(
      generationError(call).message,
      "toParam() that threw Error: not saved yet",
    );
  }
  const named = {
    get id(): never {
      throw new Error("lazy id");
    },
  };
  const error = generationError(() => h.helpers.message_path(named));
  assertStringIncludes(error.message, `its key "id": Error: lazy id`);
  const keyless = new Proxy({}, {
    ownKeys(): never {
      throw new Error("no keys");
    },
  });
  assertStringIncludes(
    generationError(() => h.helpers.messages_path(keyless)).message,
    "its keys: Error: no keys",
  );
});

Deno.test("urlFor through the catch-all leaves out a trailing index", () => {
  const router = build("A", (map: Mapper) => map.connect(":controller/:action/:id"));
  assertEquals(router.urlFor({ controller: "pages", action: "index" }), "/pages");
  assertEquals(router.urlFor({ controller: "pages" }), "/pages");
  assertEquals(router.urlFor({ controller: "pages", action: "about" }), "/pages/about");
  assertEquals(router.urlFor({ controller: "pages", action: "show", id: 1 }), "/pages/show/1");
  assertEquals(router.urlFor({ controller: "pages", action: "index", id: 5 }), "/pages/index/5");
  assertEquals(
    router.urlFor({ controller: "pages", action: "show", id: 1, x: "y" }),
    "/pages/show/1?x=y",
  );
});

Deno.test("urlFor: resources before the catch-all; named before unnamed", () => {
  const router = build("A", (map: Mapper) => {
    map.resources("messages");
    map.connect(":controller/:action/:id");
  });
  assertEquals(router.urlFor({ controller: "messages", action: "show", id: 1 }), "/messages/1");
  assertEquals(router.urlFor({ controller: "messages", action: "index" }), "/messages");
  assertEquals(router.urlFor({ controller: "messages", action: "rss" }), "/messages/rss");
  assertEquals(router.urlFor({ controller: "other", action: "show", id: 1 }), "/other/show/1");
});

Deno.test("urlFor leaves out an optional trailing variable equal to its default", () => {
  const router = build("A", (map: Mapper) => {
    map.connect("/pages/:name", {
      controller: "pages",
      action: "show",
      defaults: { name: "home" },
    });
  });
  assertEquals(router.urlFor({ controller: "pages", action: "show" }), "/pages");
  assertEquals(router.urlFor({ controller: "pages", action: "show", name: "home" }), "/pages");
  assertEquals(
    router.urlFor({ controller: "pages", action: "show", name: "about" }),
    "/pages/about",
  );
});

Deno.test("a variable the path must hold takes its declared default when no value is given", () => {
  const router = build("A", (map: Mapper) => {
    map.named("feed", "/feed.:format", {
      controller: "feed",
      action: "index",
      defaults: { format: "rss" },
    });
    map.named("page_edit", "/pages/:name/edit", {
      controller: "pages",
      action: "edit",
      defaults: { name: "home" },
    });
  });
  const { feed_path, page_edit_path, hash_for_feed_path } = router.helpers;
  assertEquals(feed_path(), "/feed.rss");
  assertEquals(feed_path("atom"), "/feed.atom");
  assertEquals(feed_path({ format: "" }), "/feed.rss");
  assertEquals(router.urlFor({ controller: "feed", action: "index" }), "/feed.rss");
  assertEquals(router.urlFor(hash_for_feed_path() as UrlOptions), "/feed.rss");
  assertEquals(page_edit_path(), "/pages/home/edit");
  assertEquals(page_edit_path("about"), "/pages/about/edit");
  assertEquals(router.urlFor({ controller: "pages", action: "edit" }), "/pages/home/edit");
  // The path holds the value: what a helper makes recognises back with it.
  assertEquals(router.recognize(feed_path() as string).params.format, "rss");
  assertEquals(router.recognize(page_edit_path() as string).params.name, "home");
  // Only whole segments at the end are optional in recognition.
  assertEquals(assertThrows(() => router.recognize("/feed"), RoutingError).status, 404);
  // `:action`'s implicit default ("index", API.md) fills it so too, as urlFor does.
  const reports = build("A", (map: Mapper) => {
    map.named("report", "/reports/:action.:format", { controller: "reports" });
    map.named("chart", "/charts/:action/all", { controller: "charts" });
  });
  const { report_path, hash_for_report_path, chart_path } = reports.helpers;
  assertEquals(report_path({ format: "xml" }), "/reports/index.xml");
  assertEquals(
    reports.urlFor(hash_for_report_path({ format: "xml" }) as UrlOptions),
    report_path({ format: "xml" }),
  );
  assertEquals(chart_path(), "/charts/index/all");
  assertEquals(reports.recognize("/charts/index/all").params.action, "index");
});

Deno.test("a value after the first of a segment's variables has the text between them encoded", () => {
  const router = build("B", (map: Mapper) => {
    map.named("package", "/pkg/:name-:version", { controller: "packages", action: "show" });
    map.named("checked", "/c/:a-:b", {
      controller: "checked",
      action: "show",
      requirements: { b: /[a-z-]+/ },
    });
  });
  const { package_path, checked_path } = router.helpers;
  // The first variable takes the longest text it can: a raw "-" in the version would move
  // the split (name "my-pkg-1.0", version "beta").
  const path = package_path("my-pkg", "1.0-beta") as string;
  assertEquals(path, "/pkg/my-pkg-1%2E0%2Dbeta");
  const { params } = router.recognize(path);
  assertEquals([params.name, params.version], ["my-pkg", "1.0-beta"]);
  assertEquals(package_path("a", "1"), "/pkg/a-1");
  // Only the punctuation of the text between is encoded: escapes are letters and digits.
  const versioned = build(
    "B",
    (map: Mapper) =>
      map.named("pkg", "/pkgs/:name-v2-:rev", { controller: "packages", action: "show" }),
  );
  for (const rev of ["a-b", "a b", "€", "v2"]) {
    const written = versioned.helpers.pkg_path("x", rev) as string;
    assertEquals(versioned.recognize(written).params.rev, rev, written);
  }
  assertEquals(versioned.helpers.pkg_path("x", "a-v2-b"), "/pkgs/x-v2-a%2Dv2%2Db");
  // A requirement that refuses the encoded text gets the text as API.md writes it, where
  // the path still recognises back with the values given.
  assertEquals(checked_path("x-y", "z"), "/c/x-y-z");
  assertEquals(router.recognize("/c/x-y-z").params.a, "x-y");
});

Deno.test("a path whose shared segment would split elsewhere is a RoutingError naming the split", () => {
  const router = build("A", (map: Mapper) => {
    // A lazy requirement, and alternatives, take the shortest text or the first that fits.
    map.named("lazy", "/l/:name-:version", { controller: "c", requirements: { name: /[a-z-]+?/ } });
    map.named("first", "/f/:name-:version", { controller: "c", requirements: { name: /x|x-y/ } });
    // The version's requirement refuses "%2D", so its "-" is written raw.
    map.named("raw", "/r/:name-:version", {
      controller: "c",
      requirements: { version: /[a-z-]+/ },
    });
    map.named("dots", "/d/:a.:b", {
      controller: "d",
      requirements: { a: /[a-z.]+/, b: /[a-z.]+/ },
    });
  });
  const { lazy_path, first_path, raw_path, dots_path } = router.helpers;
  for (
    const [write, read] of [
      [() => lazy_path("my-pkg", "1"), ':name as "my", :version as "pkg-1"'],
      [() => first_path("x-y", "z"), ':name as "x", :version as "y-z"'],
      [() => raw_path("my", "b-c"), ':name as "my-b", :version as "c"'],
      [() => dots_path("p", "x.y"), ':a as "p.x", :b as "y"'],
    ] as const
  ) {
    const { message } = generationError(write);
    assertStringIncludes(message, `would recognise back with ${read}`);
  }
  // Where the split is the one written, the path is given, and recognises back.
  for (
    const [path, values] of [
      [lazy_path("my", "1"), ["my", "1"]],
      [first_path("x", "y-z"), ["x", "y-z"]],
      [raw_path("my-b", "c"), ["my-b", "c"]],
      [dots_path("p.x", "y"), ["p.x", "y"]],
    ] as const
  ) {
    const { route, params } = router.recognize(path as string);
    assertEquals(route.variables.map((name) => params[name]), [...values]);
  }
  // urlFor refuses it too.
  assertStringIncludes(
    generationError(() => router.urlFor({ controller: "d", action: "index", a: "p", b: "x.y" }))
      .message,
    'would recognise back with :a as "p.x"',
  );
});

Deno.test("text that is not valid Unicode is a RoutingError naming where it is", () => {
  const { message_path, messages_path } = build("A", (map: Mapper) => map.resources("messages"))
    .helpers;
  assertStringIncludes(generationError(() => message_path("a\uD800")).message, ":id");
  assertStringIncludes(
    generationError(() => messages_path({ page: "\uD800" })).message,
    'the query value for "page"',
  );
  assertStringIncludes(
    generationError(() => messages_path({ ["p\uD800"]: 1 })).message,
    'the query key "p\\ud800"',
  );
});

Deno.test("urlFor only_path: false gives an absolute URL from baseUrl", () => {
  const router = build("A", (map: Mapper) => map.resources("messages"), {
    baseUrl: "https://example.com",
  });
  assertEquals(
    router.urlFor({ controller: "messages", action: "show", id: 3, only_path: false }),
    "https://example.com/messages/3",
  );
  assertEquals(
    router.urlFor(router.helpers.hash_for_message_url(3) as UrlOptions),
    "https://example.com/messages/3",
  );
  assertEquals(
    router.urlFor({ controller: "messages", action: "show", id: 3, only_path: true }),
    "/messages/3",
  );
  // Left out it is a path; anything but a boolean is refused, not read as one.
  assertEquals(router.urlFor({ controller: "messages", only_path: undefined }), "/messages");
  for (const value of ["false", 0, "true"]) {
    assertThrows(
      () => router.urlFor({ controller: "messages", only_path: value as unknown as boolean }),
      TypeError,
      `only_path must be a boolean, got ${JSON.stringify(value)}`,
    );
  }
});

Deno.test("urlFor refuses options that are not a plain object, whose keys it would not see", () => {
  const router = build("A", (map: Mapper) => {
    map.resources("messages");
    map.named("page", "/pages/:name", { controller: "pages", action: "show" });
  });
  const entries = { controller: "pages", action: "show", name: "about" };
  // A plain object (or a null-prototype one) of the same entries generates the page.
  assertEquals(router.urlFor(entries), "/pages/about");
  assertEquals(router.urlFor(Object.assign(Object.create(null), entries)), "/pages/about");
  // Each of these gave "/messages" (or "/messages?0=pages") before.
  for (
    const options of [
      new Map(Object.entries(entries)),
      new URLSearchParams(entries),
      Object.create(entries),
      ["pages"],
      new (class Options {
        get controller() {
          return "pages";
        }
      })(),
    ]
  ) {
    assertThrows(
      () => router.urlFor(options as unknown as UrlOptions),
      TypeError,
      "urlFor needs a plain object of options",
    );
  }
});

Deno.test("urlFor without a matching route is a RoutingError", () => {
  const router = build("A", (map: Mapper) => map.resources("messages"));
  generationError(() => router.urlFor({ controller: "nothing" }));
  generationError(() => router.urlFor({ controller: "messages", action: "show" }));
  generationError(() => router.urlFor({ controller: "messages", action: "show", id: "" }));
  generationError(() => router.urlFor({ controller: "messages", action: "fly", id: 1 }));
  generationError(() => router.urlFor({ use_route: "nothing" }));
});

Deno.test("urlFor names the route and the key when the routes for the action lack a value", () => {
  const router = build("A", (map: Mapper) => {
    map.resources("messages");
    map.named("digits", "/d/:n", { controller: "d", action: "show", requirements: { n: /\d+/ } });
  });
  const missing = generationError(() => router.urlFor({ controller: "messages", action: "show" }));
  assertStringIncludes(missing.message, `"message"`);
  assertStringIncludes(missing.message, ":id");
  assertEquals(missing.path, "/messages/:id");
  const broken = generationError(() => router.urlFor({ controller: "d", action: "show", n: "x" }));
  assertStringIncludes(broken.message, `"digits"`);
  assertStringIncludes(broken.message, ":n");
  assertEquals(broken.path, "/d/:n");
  // No route for the action at all: nothing to name.
  assertEquals(generationError(() => router.urlFor({ controller: "nothing" })).path, "");
});

Deno.test("urlFor without a controller: the routes of every controller compete", () => {
  // API.md: `{ action: "edit", id: 1, format: "xml" }` in variant A gives /messages/1/edit.xml.
  const router = build("A", (map: Mapper) => {
    map.resources("messages");
    map.resources("photos");
    map.connect(":controller/:action/:id");
  });
  assertEquals(router.urlFor({ action: "edit", id: 1, format: "xml" }), "/messages/1/edit.xml");
  // Ties go to registration order, as they do with a controller.
  assertEquals(router.urlFor({ action: "show", id: 2 }), "/messages/2");
  // The catch-all needs a controller: without one, no route generates.
  generationError(() => router.urlFor({ action: "list" }));
});
