/**
 * The public option and result types of API.md, shared by every stage.
 * @module
 */

import type { Mapper } from "./mapper.ts";
import type { Route } from "./route.ts";
import type { Variant } from "./variants.ts";

/**
 * A method in a declaration, in any case (`"get"`, `"GET"`, `"Get"`): SPEC.md's five
 * plus `patch`. `any` means no method condition.
 *
 * @example
 * ```ts
 * import { Method } from "@resource-router/router";
 *
 * const member: Record<string, Method> = { publish: "put", mark: "post", preview: "any" };
 * ```
 */
export type Method =
  | `${"g" | "G"}${"e" | "E"}${"t" | "T"}`
  | `${"p" | "P"}${"o" | "O"}${"s" | "S"}${"t" | "T"}`
  | `${"p" | "P"}${"u" | "U"}${"t" | "T"}`
  | `${"p" | "P"}${"a" | "A"}${"t" | "T"}${"c" | "C"}${"h" | "H"}`
  | `${"d" | "D"}${"e" | "E"}${"l" | "L"}${"e" | "E"}${"t" | "T"}${"e" | "E"}`
  | `${"a" | "A"}${"n" | "N"}${"y" | "Y"}`;

/**
 * Custom actions: action name to method.
 *
 * @example
 * ```ts
 * import { ActionMethods } from "@resource-router/router";
 *
 * const collection: ActionMethods = { rss: "get", purge: "DELETE" };
 * ```
 */
export type ActionMethods = Record<string, Method>;

/**
 * Options shared by `map.resources` and `map.resource` (SPEC.md 2.2).
 *
 * @example
 * ```ts
 * import { Router, type ResourceOptions } from "@resource-router/router";
 *
 * const options: ResourceOptions = { member: { password: "put" }, path_prefix: "/my" };
 * new Router({ variant: "B" }).draw((map) => map.resource("account", options));
 * ```
 */
export interface ResourceOptions {
  /** Controller for all generated routes. Default: the resource name. */
  controller?: string;
  /** Prefix of all paths; may hold variables like `/threads/:thread_id`. */
  pathPrefix?: string;
  /** Snake-case spelling of `pathPrefix`. */
  path_prefix?: string;
  /** Prefix of the generated route names, usually ending in `_`. */
  namePrefix?: string;
  /** Snake-case spelling of `namePrefix`. */
  name_prefix?: string;
  /** Extra actions on the collection: `{ rss: "get" }`. */
  collection?: ActionMethods;
  /** Extra actions on one member: `{ mark: "post" }`. */
  member?: ActionMethods;
  /** Extra actions on the new-resource action: `{ preview: "post" }`. */
  new?: ActionMethods;
}

/**
 * Options of `map.resources`: those of {@linkcode ResourceOptions} plus `singular`.
 *
 * @example
 * ```ts
 * import { Router, type ResourcesOptions } from "@resource-router/router";
 *
 * const options: ResourcesOptions = {
 *   pathPrefix: "/threads/:thread_id",
 *   namePrefix: "thread_",
 *   collection: { search: "get" },
 * };
 * const router = new Router({ variant: "B" }).draw((map) => map.resources("messages", options));
 * console.log(router.helpers.thread_search_messages_path(5)); // "/threads/5/messages;search"
 * ```
 */
export interface ResourcesOptions extends ResourceOptions {
  /** The singular name; default: the singular of the plural (by `pluralize`). */
  singular?: string;
}

/**
 * Options of `map.connect` and `map.named`.
 *
 * @example
 * ```ts
 * import { Router, type RouteOptions } from "@resource-router/router";
 *
 * const options: RouteOptions = {
 *   controller: "archive",
 *   action: "show",
 *   conditions: { method: "get" },
 *   requirements: { year: /\d{4}/ },
 * };
 * const router = new Router().draw((map) => map.named("archive", "/archive/:year", options));
 * console.log(router.recognize("/archive/2024").params.year); // "2024"
 * ```
 */
export interface RouteOptions {
  /** The controller, unless the path supplies `:controller`. */
  controller?: string;
  /** The action, unless the path supplies `:action`; default `"index"`. */
  action?: string;
  /** `{ method }`: the method condition; default: none (`any`). */
  conditions?: { method?: Method };
  /** Per-variable `RegExp`s, implicitly anchored; flags `i` and `u` only. */
  requirements?: Record<string, RegExp>;
  /** Defaults: a trailing run of variables with defaults is optional. */
  defaults?: Record<string, string>;
}

/**
 * A block: receives the nested mapper.
 *
 * @example
 * ```ts
 * import { type Block, type Mapper, Router } from "@resource-router/router";
 *
 * const nested: Block<Mapper> = (messages) => messages.resources("comments");
 * new Router().draw((map) => map.resources("messages", nested));
 * ```
 */
export type Block<M = Mapper> = (map: M) => void;

/**
 * Recognised params: a null-prototype object of decoded strings.
 *
 * @example
 * ```ts
 * import { type Params, Router } from "@resource-router/router";
 *
 * const router = new Router().draw((map) => map.resources("messages"));
 * const params: Params = router.recognize("/messages/a%2Fb").params;
 * console.log(params.id, Object.getPrototypeOf(params)); // "a/b" null
 * ```
 */
export type Params = Record<string, string>;

/**
 * The result of `router.recognize`.
 *
 * @example
 * ```ts
 * import { type RouteMatch, Router } from "@resource-router/router";
 *
 * const router = new Router().draw((map) => map.resources("messages"));
 * const { route, params }: RouteMatch = router.recognize("/messages/1.json");
 * console.log(route.name, params.format); // "formatted_message" "json"
 * ```
 */
export interface RouteMatch {
  /** The route that matched, first in registration order. */
  route: Route;
  /** controller, action, every path variable (decoded) and format when present. */
  params: Params;
}

/**
 * The named-route helpers: `X_path`, `X_url`, `hash_for_X_path`, `hash_for_X_url`.
 *
 * API.md types a helper's result `string | Record<string, unknown>` (a path or URL, or a
 * `hash_for_` hash). A name known only at run time cannot say which, so the result is typed
 * `any`, which TypeScript takes both ways for that union: API.md's own examples then compile
 * as written (`router.recognize(helpers.message_path("a.b"))`,
 * `router.urlFor(helpers.hash_for_message_path(3))`), where the union needed a cast. For a
 * type per helper, with its parameters, see `deno task routes --dts`.
 *
 * @example
 * ```ts
 * import { type Helpers, Router } from "@resource-router/router";
 *
 * const router = new Router().draw((map) => map.resources("messages"));
 * const helpers: Helpers = router.helpers;
 * console.log(helpers.message_path(1), helpers.messages_path({ page: 2 })); // "/messages/1" "/messages?page=2"
 * ```
 */
// deno-lint-ignore no-explicit-any -- see above: API.md's union, without its casts
export type Helpers = Record<string, (...args: unknown[]) => any>;

/**
 * The hash `urlFor` takes, Rails `url_for` style.
 *
 * @example
 * ```ts
 * import { Router, type UrlOptions } from "@resource-router/router";
 *
 * const router = new Router().draw((map) => map.resources("messages"));
 * const options: UrlOptions = { controller: "messages", action: "show", id: 3 };
 * console.log(router.urlFor(options)); // "/messages/3"
 * ```
 */
export type UrlOptions = {
  controller?: string;
  action?: string;
  use_route?: string;
  only_path?: boolean;
  [key: string]: unknown;
};

/**
 * A controller: a class (instantiated per request; so is a class bound to its dependencies
 * with `bind`) or an object used as is.
 *
 * @example
 * ```ts
 * import { type ControllerLike, Router } from "@resource-router/router";
 *
 * class Messages {
 *   index() {
 *     return "all messages";
 *   }
 * }
 * const asClass: ControllerLike = Messages; // instantiated per request
 * const asObject: ControllerLike = { show: () => "one message" }; // used as is
 * new Router({ controllers: { messages: asClass, drafts: asObject } });
 * ```
 */
export type ControllerLike = (new () => object) | object;

/**
 * Options of `new Router(options)`; all optional.
 *
 * @example
 * ```ts
 * import { Router, type RouterOptions } from "@resource-router/router";
 *
 * const options: RouterOptions = {
 *   variant: "A",
 *   actionSeparator: "/",
 *   baseUrl: "https://example.com/app",
 *   maxFormBytes: 64 * 1024,
 * };
 * const router = new Router(options).draw((map) => map.resources("messages"));
 * console.log(router.helpers.message_url(1)); // "https://example.com/app/messages/1"
 * ```
 */
export interface RouterOptions {
  /** Which variant of SPEC.md section 9 the mapper follows; default `"A"`. */
  variant?: Variant;
  /** SEP of variant A; default `Controller.resourceActionSeparator` (`"/"`). */
  actionSeparator?: string;
  /** `{base_url}`: origin plus optional mount path, e.g. `https://example.com/app`. */
  baseUrl?: string;
  /** Controllers by name (same as `register`). */
  controllers?: Record<string, ControllerLike>;
  /** Called on every use of a deprecated helper; default: `console.warn` once per name. */
  onDeprecation?: (message: string) => void;
  /** Longer pathnames are a 414 `RoutingError`; default 8192. */
  maxPathLength?: number;
  /** Pathnames with more `/`-separated segments are a 414; default 256. */
  maxSegments?: number;
  /**
   * A variable's raw text longer than this is a 414; default 1024. Over 1024 (with
   * `maxPathLength`), requirements are checked for backtracking on values that long:
   * two loops that can match the same characters (`\d+\d+x`) are then a `TypeError`.
   */
  maxParamLength?: number;
  /** A form body larger than this is a 413 `HttpError`; default 1 MiB. */
  maxFormBytes?: number;
}

/**
 * What a controller action receives. `H` types `helpers` (see `deno task routes --dts`,
 * whose `BoundRouteHelpers` fits here).
 *
 * @example
 * ```ts
 * import { type ActionContext, Router } from "@resource-router/router";
 *
 * class Messages {
 *   show(ctx: ActionContext) {
 *     return { id: ctx.params.id, edit: ctx.helpers.edit_message_path() };
 *   }
 * }
 * const router = new Router({ controllers: { messages: Messages } })
 *   .draw((map) => map.resources("messages"));
 * const response = await router.fetch(new Request("http://localhost/messages/7"));
 * console.log(await response.json()); // { id: "7", edit: "/messages/7/edit" }
 * ```
 */
export interface ActionContext<H extends object = Helpers> {
  /** The request as received. */
  request: Request;
  /** The effective method, upper case (`HEAD` stays `HEAD`). */
  method: string;
  /** Query string, then form fields, then path params (later wins); null prototype. */
  params: Params;
  /** The parsed form body, when there was one. */
  form: FormData | null;
  /** The route that matched. */
  route: Route;
  /** Helpers bound to the request: origin for `*_url`, path values recalled. */
  helpers: H;
}
