/** Shared declarations for the tests: one rich table per variant. */

import { Router } from "../mod.ts";
import type { Block, Mapper, RouterOptions, Variant } from "../mod.ts";

/** A nested, prefixed, custom-action declaration that works in every variant. */
export function drawForum(map: Mapper): void {
  map.named("root", "/", { controller: "home", action: "index" });
  map.resources("messages", {
    collection: { search: "get", purge: "delete" },
    member: { publish: "put", mark: "post", flag: "any", touch: "patch" },
    new: { preview: "post" },
  }, (messages) => {
    messages.resources("comments", { member: { approve: "put" } }, (comments) => {
      comments.resources("votes");
    });
  });
  map.resources("threads", (threads) => {
    threads.resources("posts", { collection: { recent: "get" } });
  });
  map.resources("users", { pathPrefix: "/admin/:org", namePrefix: "admin_" });
  map.resources("news");
  if (map.variant !== "C") {
    map.resource("account", { member: { password: "put" } }, (account) => {
      account.resources("notifications");
    });
    map.resources("projects", (projects) => projects.resource("settings"));
  }
  map.connect("/files/:name", {
    controller: "files",
    action: "show",
    requirements: { name: /[a-z0-9.]+/i },
  });
  map.connect("/pages/:name", { controller: "pages", action: "show", defaults: { name: "home" } });
  map.connect(":controller/:action/:id");
}

/** A router of `variant` drawn with {@linkcode drawForum}. */
export function forumRouter(variant: Variant, options: { baseUrl?: string } = {}): Router {
  return new Router({ variant, onDeprecation: () => {}, ...options }).draw(drawForum);
}

/** The variants, for loops. */
export const VARIANTS: readonly Variant[] = ["A", "B", "C"];

/** A router of `variant` with `options`, drawn with `block`. */
export function build(
  variant: Variant,
  block: Block<Mapper>,
  options: Partial<RouterOptions> = {},
): Router {
  return new Router({ ...options, variant }).draw(block);
}
