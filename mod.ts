/**
 * A resource route mapper for Deno and edge runtimes, in the manner of Rails'
 * `map.resources`: declare `messages` and get the RESTful routes, named-route helpers
 * (`messages_path`, `message_url(id)`, `formatted_message_path(id, "xml")`,
 * `hash_for_*`), nesting and singleton resources, in three variants (A, B, C).
 *
 * @example Declare, recognise, generate
 * ```ts
 * import { Router } from "@resource-router/router";
 *
 * const router = new Router({ variant: "B" });
 * router.draw((map) => {
 *   map.resources("messages", { member: { mark: "post" } }, (messages) => {
 *     messages.resources("comments");
 *   });
 *   map.resource("account");
 * });
 *
 * const { route, params } = router.recognize("/messages/1;mark", "POST");
 * console.log(route.action, params.id); // "mark" "1"
 * console.log(router.helpers.comment_path(1, 2)); // "/messages/1/comments/2"
 * console.log(router.helpers.formatted_message_path(1, "xml")); // "/messages/1.xml"
 * ```
 *
 * @module
 */

import { Router } from "./src/router.ts";
import { Route } from "./src/route.ts";
import { HttpError, RoutingError } from "./src/errors.ts";
import { Controller } from "./src/controller.ts";

// The bundle's minifier renames classes: `Router.name` was "Rt" in dist/mod.js, and Node
// printed a RoutingError as "P [RoutingError]: ...". esbuild's keepNames would name every
// function, at 2 KB gzipped; the exported classes are named here instead.
for (
  const [name, value] of Object.entries({ Router, Route, HttpError, RoutingError, Controller })
) {
  Object.defineProperty(value, "name", { value: name });
}

export { Controller, HttpError, Route, Router, RoutingError };
export type { Mapper, ResourceArgs, ResourcesArgs } from "./src/mapper.ts";
export type { Part, RouteMethod, Segment } from "./src/route.ts";
export type { Requirement } from "./src/requirement.ts";
export type { HttpErrorOptions, RoutingErrorOptions } from "./src/errors.ts";
export type { Variant } from "./src/variants.ts";
export type {
  ActionContext,
  ActionMethods,
  Block,
  ControllerLike,
  Helpers,
  Method,
  Params,
  ResourceOptions,
  ResourcesOptions,
  RouteMatch,
  RouteOptions,
  RouterOptions,
  UrlOptions,
} from "./src/types.ts";
