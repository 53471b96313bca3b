/**
 * A realistic declaration: a small forum with threads, messages, comments, an account,
 * an admin area and the catch-all route. `deno task routes` prints its table;
 * `deno task routes --variant C` draws it in variant C (no singletons there).
 * @module
 */

import type { Mapper } from "../mod.ts";

/** Draws the forum's routes. */
export default function draw(map: Mapper): void {
  map.named("root", "/", { controller: "home", action: "index" });
  map.named("login", "/login", {
    controller: "sessions",
    action: "new",
    conditions: { method: "get" },
  });
  map.resources("messages", {
    collection: { search: "get", rss: "get" },
    member: { publish: "put", mark: "post" },
    new: { preview: "post" },
  }, (messages) => {
    messages.resources("comments", { member: { approve: "put" } });
  });
  map.resources("threads", (threads) => {
    threads.resources("messages", { controller: "thread_messages" });
  });
  map.resources("users", { pathPrefix: "/admin", namePrefix: "admin_", controller: "admin/users" });
  if (map.variant !== "C") {
    map.resource("account", { member: { password: "put" } }, (account) => {
      account.resources("notifications");
    });
  }
  map.connect("/pages/:name", { controller: "pages", action: "show", defaults: { name: "home" } });
  map.connect(":controller/:action/:id");
}
