/**
 * Type-level tests: `deno test` type-checks this file, so each form below that API.md
 * allows must compile, and each `@ts-expect-error` must meet an error. The run-time asserts
 * show that the forms that compile also work.
 */
import { assertEquals, assertThrows } from "@std/assert";
import { type ActionMethods, type Block, type Helpers, type Method, Router } from "../mod.ts";

Deno.test("types: methods in any case, as API.md's Method is case-insensitive", () => {
  const member: ActionMethods = { mark: "Post", publish: "pUT", preview: "ANY" };
  const method: Method = "Delete";
  const router = new Router({ variant: "B" });
  router.draw((map) => {
    map.resources("messages", { member });
    map.connect("/purge", { controller: "admin", action: "purge", conditions: { method } });
  });
  assertEquals(router.recognize("/messages/1;mark", "POST").params.action, "mark");
  assertEquals(router.recognize("/purge", "DELETE").params.action, "purge");
  // @ts-expect-error HEAD is routed through GET: it is no method of a declaration.
  const head: Method = "head";
  assertThrows(
    () =>
      router.draw((map) => map.connect("/h", { controller: "c", conditions: { method: head } })),
    TypeError,
    'invalid method "head"',
  );
});

Deno.test("types: names spread from a string[], with or without options and block", () => {
  const names: string[] = ["messages", "photos"];
  const nested: Block = (map) => map.resources("comments");
  const router = new Router({ variant: "B" });
  router.draw((map) => {
    map.resources(...names);
    map.resources(...names, { controller: "media" });
    map.resources(...names, nested);
    map.resource(...["account"], { member: { password: "Put" } }, nested);
  });
  // Variant B gives nested routes no name prefix: the later declaration has the name.
  assertEquals(router.namedRoutes.get("comments")?.path, "/account/comments");
  // No name at all compiles (API.md's `[...string[], ResourcesOptions?, Block?]`) and is a
  // TypeError at run time.
  const none: string[] = [];
  assertThrows(() => router.draw((map) => map.resources(...none)), TypeError, "at least one name");
});

Deno.test("types: a block's mapper type defaults to Mapper", () => {
  const block: Block = (map) => map.named("login", "/login", { controller: "sessions" });
  const router = new Router();
  router.draw(block);
  assertEquals(router.helpers.login_path(), "/login");
});

Deno.test("types: API.md's helper examples compile as written, and the result fits its union", () => {
  const router = new Router().draw((map) => map.resources("messages"));
  const helpers: Helpers = router.helpers;
  // API.md, "Generation from a hash" and "Helpers": no cast between the helper and its use.
  assertEquals(router.urlFor(router.helpers.hash_for_message_path(3)), "/messages/3");
  assertEquals(router.recognize(helpers.message_path("a.b")).params.id, "a.b");
  const path: string = helpers.message_path(1);
  assertEquals(path, "/messages/1");
  // Each way round it is API.md's type, `string | Record<string, unknown>`.
  const documented: Record<string, (...args: unknown[]) => string | Record<string, unknown>> =
    helpers;
  const back: Helpers = documented;
  assertEquals(back.hash_for_message_path(2), {
    controller: "messages",
    action: "show",
    id: 2,
    use_route: "message",
    only_path: true,
  });
});
