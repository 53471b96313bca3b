// The built bundle on Node's own test runner: `deno task build && node --test tests/node/`;
// `.ci/run` also runs it under Bun (`bun test tests/node/`).
// Node 20 has no URLPattern, so this also proves the polyfill chunk loads where needed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { Controller, HttpError, Router, RoutingError } from "../../dist/mod.js";
import { listener, toRequest } from "../../examples/node/server.mjs";

class MessagesController extends Controller {
  index() {
    return "<h1>Messages</h1>";
  }
  show(ctx) {
    return { id: ctx.params.id, edit: ctx.helpers.edit_message_path() };
  }
  update(ctx) {
    return { id: ctx.params.id, title: ctx.params.title, method: ctx.method };
  }
}

function makeRouter() {
  return new Router({
    variant: "A",
    baseUrl: "https://example.com/app",
    controllers: { messages: MessagesController },
  }).draw((map) => {
    map.resources("messages", { collection: { rss: "get" } }, (messages) => {
      messages.resources("comments");
    });
    map.resource("account");
    map.connect("/pages/:name", {
      controller: "pages",
      action: "show",
      defaults: { name: "home" },
    });
  });
}

test("the runtime has no URLPattern of its own, or the test proves nothing new", (t) => {
  const [major] = process.versions.node.split(".").map(Number);
  // Node 23 and later have their own: the bundle's polyfill is not what runs there.
  if (major >= 23) return t.skip("this Node has a URLPattern of its own");
  assert.equal(typeof globalThis.URLPattern, "undefined");
});

test("the bundle's classes keep their names, as errors print them", () => {
  const classes = { Router, RoutingError, HttpError, Controller };
  for (const [name, value] of Object.entries(classes)) assert.equal(value.name, name);
  // Node printed "P [RoutingError]: ..." where the minifier had renamed the class.
  let printed = "";
  try {
    makeRouter().recognize("/nowhere");
  } catch (miss) {
    printed = inspect(miss);
  }
  assert.match(printed, /^\[?RoutingError: No route matches/);
});

test("declares routes and recognises paths", () => {
  const router = makeRouter();
  const { route, params } = router.recognize("/messages/1");
  assert.equal(route.name, "message");
  assert.deepEqual({ ...params }, { controller: "messages", action: "show", id: "1" });
  assert.equal(router.recognize("/messages/rss").params.action, "rss");
  assert.equal(router.recognize("/messages/1/comments/2", "DELETE").params.action, "destroy");
  // Params of 4 and 5 keys start from presized literals (src/route.ts): still null-prototype,
  // with their own keys only, in order.
  for (
    const [path, entries] of [
      ["/messages/1.json", [["id", "1"], ["format", "json"]]],
      ["/messages/1/comments/2.xml", [["message_id", "1"], ["id", "2"], ["format", "xml"]]],
    ]
  ) {
    const { params: sized } = router.recognize(path);
    assert.equal(Object.getPrototypeOf(sized), null);
    assert.deepEqual(Object.entries(sized).slice(2), entries);
  }
  assert.throws(
    () => router.recognize("/messages/new", "POST"),
    (error) => error instanceof RoutingError && error.status === 405,
  );
  assert.equal(router.recognize("/pages").params.name, "home");
  assert.throws(() => router.recognize("/nowhere"), RoutingError);
});

test("generates paths and URLs with the helpers and urlFor", () => {
  const router = makeRouter();
  const { helpers } = router;
  assert.equal(helpers.message_path(1), "/app/messages/1");
  assert.equal(helpers.edit_message_url(1), "https://example.com/app/messages/1/edit");
  assert.equal(helpers.formatted_message_path(1, "xml"), "/app/messages/1.xml");
  assert.equal(helpers.message_comment_path(1, 2), "/app/messages/1/comments/2");
  assert.equal(helpers.messages_path({ page: 2 }), "/app/messages?page=2");
  assert.equal(router.urlFor({ controller: "messages", action: "index" }), "/app/messages");
});

test("route.pattern is a working URLPattern (the polyfill on Node 20)", () => {
  const route = makeRouter().namedRoutes.get("message");
  const match = route.pattern.exec({ pathname: "/messages/42" });
  assert.equal(match.pathname.groups.id, "42");
  assert.equal(route.pattern.test({ pathname: "/messages/4/2" }), false);
});

test("serves requests through handle and fetch", async () => {
  const router = makeRouter();
  const index = await router.handle(new Request("https://example.com/app/messages"));
  assert.equal(index.headers.get("content-type"), "text/html; charset=utf-8");
  assert.equal(await index.text(), "<h1>Messages</h1>");

  const show = await router.handle(new Request("https://example.com/app/messages/7"));
  assert.deepEqual(await show.json(), { id: "7", edit: "/app/messages/7/edit" });

  const update = await router.handle(
    new Request("https://example.com/app/messages/7", {
      method: "POST",
      body: new URLSearchParams({ _method: "put", title: "hello" }),
    }),
  );
  assert.deepEqual(await update.json(), { id: "7", title: "hello", method: "PUT" });

  await assert.rejects(
    router.handle(new Request("https://example.com/app/nowhere")),
    (error) => error instanceof HttpError && error.status === 404,
  );
  const notAllowed = await router.fetch(
    new Request("https://example.com/app/messages/new", { method: "POST" }),
  );
  assert.equal(notAllowed.status, 405);
  assert.match(notAllowed.headers.get("allow"), /GET/);
});

test("the Node example reads a request target as a path, and a bad Host as a 400", async () => {
  const request = (url, host) => ({ url, method: "GET", headers: { host } });
  // new URL("//evil.example/messages", base) would take evil.example as the host.
  assert.equal(
    toRequest(request("//evil.example/messages", "good.example")).url,
    "http://good.example//evil.example/messages",
  );
  assert.equal(toRequest(request("http://proxy.example/a", "x")).url, "http://proxy.example/a");
  assert.throws(() => toRequest(request("/messages", "a b")), TypeError);
  let status;
  const res = { writeHead: (code) => (status = code), end: () => {} };
  await listener(() => assert.fail("fetch was called"))(request("/messages", "a b"), res);
  assert.equal(status, 400);
});

test("a __proto__ key stays a key where Object.prototype keeps its accessor", () => {
  const router = makeRouter().draw((map) => {
    map.resources("messages");
    map.named("proto", "/p/:__proto__", { controller: "pages", action: "show" });
  });
  const { helpers } = router;
  const query = JSON.parse('{"__proto__": "x", "page": 2}');
  const hash = helpers.hash_for_messages_path(query);
  assert.equal(Object.getPrototypeOf(hash), Object.prototype);
  assert.equal(Object.hasOwn(hash, "__proto__"), true);
  assert.equal(router.urlFor(hash), "/app/messages?__proto__=x&page=2");
  const polluting = helpers.hash_for_messages_path(JSON.parse('{"__proto__": {"admin": true}}'));
  assert.equal(polluting.admin, undefined);
  assert.equal(router.urlFor(helpers.hash_for_proto_path("v")), "/app/p/v");
  const { params } = router.recognize("/p/v");
  assert.equal(params["__proto__"], "v");
  assert.equal(Object.getPrototypeOf(params), null);
});

test("the bundle keeps the shape of misses through a full garbage collection", {
  // V8's shapes: Bun (JavaScriptCore), which runs the rest of this file too, has neither
  // them nor %DebugPrint.
  skip: process.versions.bun ? "V8 only" : false,
}, () => {
  // src/errors.ts hangs one miss off the misses' prototype so that V8 keeps their shape
  // (map), which it holds only weakly; a bundler must not drop that miss as unused. Node
  // prints the shape's address with %DebugPrint; --no-compact keeps a live shape in place.
  const bundle = new URL("../../dist/mod.js", import.meta.url).href;
  const script = `
    const { Router } = await import(${JSON.stringify(bundle)});
    const router = new Router().draw((map) => map.resources("messages"));
    const miss = () => { try { router.recognize("/nothing"); } catch (error) { return error; } };
    %DebugPrint(miss());
    gc(); gc();
    %DebugPrint(miss());
  `;
  const text = execFileSync(process.execPath, [
    "--expose-gc",
    "--allow-natives-syntax",
    "--no-compact",
    "--input-type=module",
    "--eval",
    script,
  ], { encoding: "utf8" });
  const shapes = [...text.matchAll(/^ - map: (0x[0-9a-f]+)/gm)].map((match) => match[1]);
  assert.equal(shapes.length, 2, text);
  assert.equal(shapes[0], shapes[1]);
});

/** A port that was free a moment ago. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

test("Bun serves a module whose default export is the router", {
  skip: process.versions.bun ? false : "Bun only",
}, async () => {
  // The README's `export default router`: Bun serves a default export that has `fetch`.
  const bundle = new URL("../../dist/mod.js", import.meta.url).href;
  const directory = mkdtempSync(join(tmpdir(), "resource-router-bun-"));
  const file = join(directory, "server.mjs");
  writeFileSync(
    file,
    `import { Router } from ${JSON.stringify(bundle)};
    class MessagesController {
      show(ctx) { return { id: ctx.params.id }; }
      update(ctx) { return { id: ctx.params.id, method: ctx.method }; }
    }
    export default new Router({ controllers: { messages: MessagesController } })
      .draw((map) => map.resources("messages"));`,
  );
  const port = await freePort();
  const child = spawn(process.execPath, [file], {
    env: { ...process.env, PORT: String(port) },
    stdio: "ignore",
  });
  try {
    const origin = `http://127.0.0.1:${port}`;
    let shown;
    for (let tries = 0; shown === undefined; tries++) {
      try {
        shown = await fetch(`${origin}/messages/7`);
      } catch (error) {
        if (tries === 100) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    assert.equal(shown.status, 200);
    assert.deepEqual(await shown.json(), { id: "7" });
    const updated = await fetch(`${origin}/messages/7`, {
      method: "POST",
      body: new URLSearchParams({ _method: "put" }),
    });
    assert.deepEqual(await updated.json(), { id: "7", method: "PUT" });
  } finally {
    child.kill();
    rmSync(directory, { recursive: true, force: true });
  }
});
