// Prototype safety: keys named __proto__, constructor or prototype, in path variable
// names, path values, query strings, forms and helper arguments, stay plain own data and
// never reach Object.prototype.

import { assert, assertEquals, assertThrows } from "@std/assert";
import { type ActionContext, Router, RoutingError } from "../mod.ts";

function polluted(): boolean {
  const probe = {} as Record<string, unknown>;
  return probe.polluted !== undefined || probe.admin !== undefined ||
    Object.prototype.hasOwnProperty.call(Object.prototype, "polluted");
}

Deno.test("path variables named __proto__, constructor, prototype are own params", () => {
  const router = new Router().draw((map) => {
    map.connect("/a/:__proto__/:constructor/:prototype", { controller: "x", action: "y" });
  });
  const { params } = router.recognize("/a/polluted/admin/yes");
  assertEquals(Object.getPrototypeOf(params), null);
  assertEquals(Object.keys(params).sort(), [
    "__proto__",
    "action",
    "constructor",
    "controller",
    "prototype",
  ]);
  assertEquals(params["__proto__"], "polluted");
  assertEquals(params.constructor as unknown, "admin");
  assert(!polluted());
  assertEquals(
    router.urlFor({
      controller: "x",
      action: "y",
      ["__proto__"]: "p",
      constructor: "c",
      prototype: "q",
    }),
    "/a/p/c/q",
  );
});

Deno.test("query, form and helper keys named __proto__ cannot reach a prototype", async () => {
  let seen: ActionContext | undefined;
  const router = new Router({
    controllers: { posts: { update: (ctx: ActionContext) => (seen = ctx, null) } },
  }).draw((map) => map.resources("posts"));
  await router.handle(
    new Request("http://x/posts/1?__proto__[admin]=1&constructor[prototype][admin]=1", {
      method: "POST",
      body: "_method=put&__proto__=polluted&prototype=yes",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    }),
  );
  assertEquals(Object.getPrototypeOf(seen!.params), null);
  assertEquals(seen!.params["__proto__"], "polluted");
  assert(!polluted());
  const query = JSON.parse('{"__proto__": {"admin": true}, "page": 2}');
  // A JSON "__proto__" key is an own key; its object value is no query value.
  assertThrows(() => router.helpers.posts_path(query), RoutingError, "__proto__");
  assertEquals(router.helpers.posts_path(JSON.parse('{"__proto__": "x"}')), "/posts?__proto__=x");
  assert(!polluted());
});
