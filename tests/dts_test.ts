import { assert, assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import { helpersDts } from "../src/dts.ts";
import { Router, RoutingError } from "../mod.ts";
import type { Mapper } from "../mod.ts";
import draw from "../examples/routes.ts";

const root = new URL("../", import.meta.url);
const config = new URL("deno.json", root).pathname;

/** Type-checks `source` next to the generated helpers; returns deno check's result. */
async function check(dir: string, source: string) {
  const file = `${dir}/fixture_${crypto.randomUUID()}.ts`;
  await Deno.writeTextFile(file, source);
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["check", "--config", config, file],
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { ok: output.success, text: new TextDecoder().decode(output.stderr) };
}

function fixture(body: string): string {
  return `import { type ActionContext, Router } from "${new URL("mod.ts", root).href}";
import draw from "${new URL("examples/routes.ts", root).href}";
import type { BoundRouteHelpers, RouteHelpers } from "./helpers.d.ts";
const router = new Router<RouteHelpers>().draw(draw);
export function action(ctx: ActionContext<BoundRouteHelpers>): string {
  return String(ctx.params.id);
}
${body}
`;
}

Deno.test("the .d.ts names each helper's positional parameters after its variables", () => {
  const router = new Router({ variant: "A" }).draw(draw);
  const dts = helpersDts(router);
  assertStringIncludes(
    dts,
    `edit_message_comment_path(message_id: RouteValue, id: RouteValue, query?: RouteQuery<"message_id" | "id">): string;`,
  );
  assertStringIncludes(
    dts,
    `formatted_message_path(id: RouteValue, format: RouteText, query?: RouteQuery<"id" | "format">): string;`,
  );
  assertStringIncludes(dts, "hash_for_messages_path(query?: RouteQuery): Record<string, unknown>;");
  assertStringIncludes(dts, "/** @deprecated use edit_admin_user */");
  // A variable named like an Object.prototype member has no default for that.
  const odd = new Router().draw((map) => map.named("odd", "/x/:constructor", { controller: "x" }));
  assertStringIncludes(
    helpersDts(odd),
    "odd_path(named: { readonly constructor: RouteValue; readonly [key: string]: unknown }): string;",
  );
});

Deno.test("variables named like reserved words stay distinct parameters in the .d.ts", () => {
  const router = new Router().draw((map) =>
    map.named("odd", "/x/:class/:class_/:class__", { controller: "x" })
  );
  assertStringIncludes(
    helpersDts(router),
    `odd_path(class_: RouteValue, class__: RouteValue, class___: RouteValue, query?: RouteQuery<"class" | "class_" | "class__">)`,
  );
});

Deno.test("a path or controller holding */ or a line break stays inside its doc comment", () => {
  const router = new Router().draw((map) => {
    map.named("files", "/v*/api/files", { controller: "files*/x" });
    map.named("odd", "/odd", { controller: "a\nb", action: "c\u2028d" });
  });
  const dts = helpersDts(router, { source: "/tmp/*/routes\n.ts" });
  // Before, "*/" ended the comment early, and the rest was a syntax error.
  assertStringIncludes(dts, "/** ANY /v*\\/api/files (files*\\/x#index) */");
  assertStringIncludes(dts, "/** ANY /odd (a b#c d) */");
  assertStringIncludes(dts, "from /tmp/*/routes .ts. Do not edit.");
  for (const line of dts.split("\n").filter((line) => line.startsWith("  /** "))) {
    assertEquals(line.indexOf("*/"), line.length - 2, line);
  }
});

Deno.test({
  name: "typed helpers: correct use compiles, a wrong name or a missing value does not",
  // Each case runs `deno check`, a few seconds in all.
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const router = new Router({ variant: "A" }).draw(draw);
      await Deno.writeTextFile(`${dir}/helpers.d.ts`, helpersDts(router));
      const good = await check(
        dir,
        fixture(`
const path: string = router.helpers.message_path(1);
router.helpers.message_path({ id: 1, page: 2 });
router.helpers.message_path(1, { id: null, page: 2 }); // null names nothing
router.helpers.edit_message_comment_path(1, 2);
router.helpers.edit_message_comment_path(5, { id: 2 });
router.helpers.edit_message_comment_path(2, { message_id: 5 });
router.helpers.messages_path();
router.helpers.messages_path({ page: 2 });
router.helpers.formatted_message_path(1, "xml");
router.helpers.message_url({ toParam: () => "slug" });
router.helpers.message_path(10n); // a bigint id, as the runtime takes it
const hash: Record<string, unknown> = router.helpers.hash_for_message_path(3);
router.helpers.thread_messages_path(1);
router.helpers.admin_edit_user_path(1); // a deprecated name still type-checks
export function bound(ctx: ActionContext<BoundRouteHelpers>) {
  ctx.helpers.edit_message_path();
  ctx.helpers.message_comment_path(3);
  ctx.helpers.edit_message_comment_path({ message_id: 1 });
  ctx.helpers.formatted_message_path("json");
  // Positional values first, the object naming the last variables, as unbound.
  ctx.helpers.formatted_message_path(ctx.params.id, { format: "json" });
  return [path, hash];
}
`),
      );
      assert(good.ok, good.text);
      const misuses = [
        "router.helpers.mesage_path(1);",
        "router.helpers.message_path();",
        "router.helpers.messages_path(1);",
        "router.helpers.message_path({ page: 2 });",
        "router.helpers.edit_message_comment_path(1, 2, 3, 4);",
        // Named again, a variable given by position leaves that position nothing to fill.
        "router.helpers.message_path(1, { id: 2 });",
        "router.helpers.edit_message_comment_path(1, 2, { message_id: 3 });",
        "router.helpers.edit_message_comment_path(1, { id: 2, message_id: 3 });",
        "const n: number = router.helpers.message_path(1);",
        "export const f = (ctx: ActionContext<BoundRouteHelpers>) => ctx.helpers.formatted_message_path();",
        // A record with an id is the named values there, without the format: no format.
        "export const h = (ctx: ActionContext<BoundRouteHelpers>) => ctx.helpers.formatted_message_path({ id: 1 });",
        "export const g = (ctx: ActionContext<BoundRouteHelpers>) => ctx.helpers.no_such_path();",
      ];
      for (const misuse of misuses) {
        const bad = await check(dir, fixture(misuse));
        assertEquals(bad.ok, false, `expected a compile error for: ${misuse}`);
        assertStringIncludes(bad.text, "TS");
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "typed helpers: a variable with a default, or an optional one, may be left out",
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const drawDefaults = (map: Mapper) => {
      map.named("page", "/pages/:name", {
        controller: "pages",
        action: "show",
        defaults: { name: "home" },
      });
      map.named("feed", "/feed.:format", { controller: "feeds", defaults: { format: "rss" } });
      map.named("cat", ":controller/:action/:id");
      // `:action` must be in this path, and takes its implicit "index" (API.md).
      map.named("report", "/reports/:action.:format", { controller: "reports" });
      // `:id` is optional, without a value: the path ends before it, so no action without it.
      map.named("act", "/act/:id/:action", { controller: "acts" });
    };
    try {
      const router = new Router().draw(drawDefaults);
      const { page_path, feed_path, cat_path, report_path, act_path } = router.helpers;
      // What the types below allow, the helpers do.
      assertEquals([
        page_path(),
        feed_path(),
        cat_path({ controller: "pages" }),
        report_path({ format: "xml" }),
        act_path(),
        act_path({ id: 1 }),
        act_path("edit", { id: 1 }),
      ], ["/pages", "/feed.rss", "/pages", "/reports/index.xml", "/act", "/act/1", "/act/1/edit"]);
      await Deno.writeTextFile(`${dir}/helpers.d.ts`, helpersDts(router));
      const source = (body: string) =>
        `import { Router } from "${new URL("mod.ts", root).href}";
import type { RouteHelpers } from "./helpers.d.ts";
const helpers = new Router<RouteHelpers>().helpers;
${body}
`;
      const good = await check(
        dir,
        source(`helpers.page_path();
helpers.feed_path();
helpers.feed_path({ page: 2 });
helpers.cat_path({ controller: "pages" });
helpers.cat_path(4, { controller: "pages" });
helpers.report_path({ format: "xml" });
helpers.report_path("list", "xml");
helpers.act_path();
helpers.act_path({ page: 2 });
helpers.act_path({ id: 1 });
helpers.act_path("edit", { id: 1 });
helpers.act_path({ id: 1, action: "edit" });`),
      );
      assert(good.ok, good.text);
      // The controller has no default; one positional value is the id, not the controller.
      assertThrows(() => cat_path(), RoutingError, ":controller");
      assertThrows(() => cat_path("pages", {}), RoutingError, ":controller");
      // Before, the types let an action go without the id.
      assertThrows(() => act_path("edit"), RoutingError, "missing value for :id");
      assertThrows(() => act_path({ action: "edit" }), RoutingError, "missing value for :id");
      for (
        const misuse of [
          "helpers.cat_path();",
          'helpers.cat_path("pages", {});',
          'helpers.act_path("edit");',
          'helpers.act_path({ action: "edit" });',
        ]
      ) {
        const bad = await check(dir, source(misuse));
        assertEquals(bad.ok, false, `expected a compile error for: ${misuse}`);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("deno task routes --dts writes the file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "src/cli.ts", "--variant", "B", "--dts", `${dir}/h.d.ts`],
      cwd: root.pathname,
    }).output();
    assert(output.success, new TextDecoder().decode(output.stderr));
    assertStringIncludes(await Deno.readTextFile(`${dir}/h.d.ts`), "export interface RouteHelpers");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
