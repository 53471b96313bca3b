/**
 * `Router`: options, `draw`, the route table, and the facades over recognition and
 * generation.
 * @module
 */

import { clipped, describe } from "./describe.ts";
import { Controller } from "./controller.ts";
import {
  dispatch,
  type DispatchTarget,
  isConstructor,
  serve,
  upperCaseMethod,
} from "./dispatch.ts";
import { RoutingError, routingMiss } from "./errors.ts";
import {
  createHelperBinder,
  createHelpers,
  type HelperBinder,
  type Mount,
  unwritableDefault,
  urlFor,
} from "./generate.ts";
import { checkArity, isPlainObject, Mapper, type RouteSink, runBlock } from "./mapper.ts";
import { createCompiledMatcher, type RequestMatcher } from "./compiled_matcher.ts";
import type { MatchResult } from "./matcher.ts";
import {
  LITERAL_PUNCTUATION,
  matchedMethod,
  paramsOf,
  Route,
  type RouteSpec,
  segmentLength,
  templateVariables,
} from "./route.ts";
import { formatRoutes } from "./route_table.ts";
import type {
  ControllerLike,
  Helpers,
  Params,
  RouteMatch,
  RouterOptions,
  UrlOptions,
} from "./types.ts";
import { PROFILES, type Variant, type VariantProfile } from "./variants.ts";

/** The keys of `RouterOptions`: any other is a typo, and an error. */
const ROUTER_OPTIONS: readonly string[] = [
  "variant",
  "actionSeparator",
  "baseUrl",
  "controllers",
  "onDeprecation",
  "maxPathLength",
  "maxSegments",
  "maxParamLength",
  "maxFormBytes",
];

const LIMIT_DEFAULTS = {
  maxPathLength: 8192,
  maxSegments: 256,
  maxParamLength: 1024,
  maxFormBytes: 1048576,
} as const;

/**
 * What a separator of variant A may hold: `/` and the characters a template's literal
 * text may hold, less those API.md forbids (`. ? # :`, letters, digits, `_`).
 */
const SEPARATOR_CHARS = "/" + LITERAL_PUNCTUATION.replace(/[._]/g, "");

/** Checks a separator for variant A: `SEPARATOR_CHARS`, without an empty segment (`//`). */
function checkSeparator(separator: unknown, source: string): string {
  if (
    typeof separator !== "string" || separator === "" ||
    ![...separator].every((char) => SEPARATOR_CHARS.includes(char))
  ) {
    throw new TypeError(
      `${source} ${describe(separator)} is not a valid action separator: use a ` +
        `non-empty string of "${[...SEPARATOR_CHARS].join(" ")}" (e.g. "/" or ";")`,
    );
  }
  if (separator.includes("//")) {
    throw new TypeError(
      `${source} ${describe(separator)} is not a valid action separator: "//" would make ` +
        `an empty path segment, which no request path can match`,
    );
  }
  return separator;
}

function parseBaseUrl(baseUrl: string | undefined): Pick<Mount, "path" | "origin"> {
  if (baseUrl === undefined) return { path: "", origin: null };
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`baseUrl ${describe(baseUrl)} is not an absolute URL`);
  }
  if (url.search !== "" || url.hash !== "") {
    throw new TypeError(`baseUrl ${describe(baseUrl)} must not have a query or fragment`);
  }
  // Other schemes have no origin to put before a path (`file:`, `data:`: "null"), or one
  // that is not the URL's start (`blob:`).
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`baseUrl ${describe(baseUrl)} must be an http: or https: URL`);
  }
  const path = url.pathname.replace(/\/+$/, "");
  // "//host" at the start of a path is a link to that host.
  if (path.includes("//")) {
    throw new TypeError(`baseUrl ${describe(baseUrl)} has an empty path segment ("//")`);
  }
  return { path, origin: url.origin };
}

function limit(options: RouterOptions, key: keyof typeof LIMIT_DEFAULTS): number {
  const value = options[key] === undefined ? LIMIT_DEFAULTS[key] : options[key];
  if (!Number.isInteger(value) || value < 1) {
    throw new TypeError(
      `The router option ${key} must be a positive integer, got ${describe(value)}`,
    );
  }
  return value;
}

/** Set by `Router`'s static block: a router's dispatch target, for this module's functions. */
let dispatchTargetOf: (router: Router<object>) => DispatchTarget;

/**
 * Recognition as `handle` and `fetch` run it once the limits and the form body are
 * checked: a 404, a 405 or (for a variable over `maxParamLength`) a 414 comes back as the
 * `RoutingError` instead of being thrown. It takes a pathname as `new URL()` gives it
 * (relative to the mount path) and an upper-case method. Not exported by mod.ts: `bench/`
 * times it beside `recognize`, whose throw costs V8 more than the match itself
 * (docs/performance.md).
 */
export function servingRecognizer(
  router: Router<object>,
): (path: string, method: string) => RouteMatch | RoutingError {
  return dispatchTargetOf(router).recognize;
}

/**
 * A resource router: declare routes with {@linkcode Router.draw}, recognise paths,
 * generate them with {@linkcode Router.helpers} and {@linkcode Router.urlFor}.
 *
 * The type parameter `H` types `router.helpers`: the default allows any helper name;
 * `deno task routes --dts` writes a `RouteHelpers` interface for a table, so that
 * `new Router<RouteHelpers>()` makes a wrong helper name or a missing value a compile
 * error.
 *
 * @example Declaring, recognising and generating
 * ```ts
 * import { Router } from "@resource-router/router";
 *
 * const router = new Router({ variant: "A" });
 * router.draw((map) => {
 *   map.resources("messages", { collection: { rss: "get" } });
 * });
 * const { route, params } = router.recognize("/messages/1");
 * console.log(route.name, params.id); // "message" "1"
 * console.log(router.helpers.edit_message_path(1)); // "/messages/1/edit"
 * ```
 */
export class Router<H extends object = Helpers> {
  static {
    dispatchTargetOf = (router) => router.#dispatchTarget();
  }

  /** The variant profile the mapper follows. */
  readonly #profile: VariantProfile;
  readonly #options: RouterOptions;
  readonly #mount: Mount;
  readonly #controllers = new Map<string, ControllerLike>();
  readonly #warned = new Set<string>();
  // Set by #install, from the constructor on.
  #routes!: readonly Route[];
  #namedRoutes!: ReadonlyMap<string, Route>;
  #deprecatedNames!: ReadonlyMap<string, string>;
  /** Built on first use of `helpers`: serving binds helpers per request (`#binder`). */
  #helpers: Helpers | undefined;
  #matcher: RequestMatcher | undefined;
  /** A draw's block is running: a draw inside it would be dropped when the block returns. */
  #drawing = false;

  /** Limits of the router, from its options. */
  readonly #limits: {
    readonly maxPathLength: number;
    readonly maxSegments: number;
    readonly maxParamLength: number;
    readonly maxFormBytes: number;
  };
  // Set by the constructor, and a number from the start (the initializer), so that V8 keeps
  // this field, which recognition reads on every request, a small integer.
  /** Paths up to this long are within every path limit, and so are the values in them. */
  readonly #withinLimits: number = 0;

  /** Creates a router; every option is optional (see {@linkcode RouterOptions}). */
  constructor(options: RouterOptions = {}) {
    // A Map (an array, a URLSearchParams) has no option keys to read: every option would
    // be its default, silently.
    if (typeof options !== "object" || options === null || Symbol.iterator in options) {
      throw new TypeError(`Router options must be an object, got ${describe(options)}`);
    }
    for (const key of Object.keys(options)) {
      if (!ROUTER_OPTIONS.includes(key)) {
        throw new TypeError(
          `Unknown router option "${key}"; known options: ${ROUTER_OPTIONS.join(", ")}`,
        );
      }
    }
    // Each option read once, own or inherited (a class with getters works), and kept:
    // construction and every later draw see the same values.
    const given: Record<string, unknown> = {};
    for (const key of ROUTER_OPTIONS) {
      const value = (options as Record<string, unknown>)[key];
      if (value !== undefined) given[key] = value;
    }
    options = given as RouterOptions;
    const variant = options.variant === undefined ? "A" : options.variant;
    if (typeof variant !== "string" || !Object.hasOwn(PROFILES, variant)) {
      throw new TypeError(`Unknown variant ${describe(variant)}; use "A", "B" or "C"`);
    }
    this.#profile = PROFILES[variant];
    this.#options = options;
    if (this.#profile.configurableSeparator && options.actionSeparator !== undefined) {
      checkSeparator(options.actionSeparator, "The actionSeparator option");
    }
    const base = parseBaseUrl(options.baseUrl);
    this.#limits = {
      maxPathLength: limit(options, "maxPathLength"),
      maxSegments: limit(options, "maxSegments"),
      maxParamLength: limit(options, "maxParamLength"),
      maxFormBytes: limit(options, "maxFormBytes"),
    };
    const { maxParamLength, maxPathLength, maxSegments } = this.#limits;
    this.#withinLimits = Math.min(maxPathLength, maxSegments, maxParamLength);
    this.#mount = { ...base, maxParamLength, maxPathLength, maxSegments };
    if (options.onDeprecation !== undefined && typeof options.onDeprecation !== "function") {
      throw new TypeError(
        `The onDeprecation option must be a function, got ${describe(options.onDeprecation)}`,
      );
    }
    const controllers: unknown = options.controllers === undefined ? {} : options.controllers;
    // A Map (or a class instance) would have no own keys to read: refused, not ignored.
    if (!isPlainObject(controllers)) {
      throw new TypeError(
        `The controllers option must be an object of controllers by name, got ${
          describe(controllers)
        }`,
      );
    }
    for (const [name, controller] of Object.entries(controllers)) {
      this.register(name, controller as ControllerLike);
    }
    // A router before its first draw has an empty table: every path a 404 (within limits).
    this.#install([], new Map(), new Map());
  }

  /** The variant the router follows. */
  get variant(): Variant {
    return this.#profile.variant;
  }

  /** The compiled route table, in registration order (first match wins). */
  get routes(): readonly Route[] {
    return this.#routes;
  }

  /** Route name (no `_path` suffix) to route; a name declared twice keeps the later route. */
  get namedRoutes(): ReadonlyMap<string, Route> {
    return this.#namedRoutes;
  }

  /** Variant A: deprecated name to current name. */
  get deprecatedNames(): ReadonlyMap<string, string> {
    return this.#deprecatedNames;
  }

  /** `X_path`, `X_url`, `hash_for_X_path`, `hash_for_X_url` for every named and deprecated X. */
  get helpers(): H {
    this.#helpers ??= createHelpers(this, this.#mount, {
      onDeprecation: (message) => this.#deprecation(message),
    });
    return this.#helpers as unknown as H;
  }

  /**
   * Clears every route and declares anew. On a declaration error the previous table
   * stays in place.
   */
  draw(block: (map: Mapper) => void): this {
    if (!(#routes in Object(this))) throw detachedCall("draw");
    checkArity(arguments.length, 1, "router.draw(block)");
    if (typeof block !== "function") {
      throw new TypeError(
        `router.draw needs a function: router.draw((map) => { ... }), got ${describe(block)}`,
      );
    }
    if (this.#drawing) throw new TypeError("router.draw was called inside its own block");
    // Only variant A has a separator to set; B and C always use ";".
    const separator = !this.#profile.configurableSeparator ? ";" : checkSeparator(
      this.#options.actionSeparator ?? Controller.resourceActionSeparator,
      this.#options.actionSeparator === undefined
        ? "Controller.resourceActionSeparator"
        : "The actionSeparator option",
    );
    // No variable is longer than either limit: requirements that could backtrack too long
    // on a value that long are refused (see `checkWays`).
    const longest = Math.min(this.#limits.maxParamLength, this.#limits.maxPathLength);
    const routes: Route[] = [];
    const named = new Map<string, Route>();
    const deprecated = new Map<string, string>();
    let drawing = true;
    const stillDrawing = () => {
      if (!drawing) {
        throw new TypeError(
          "This mapper's draw has finished: declare routes inside the block of router.draw, " +
            "before it returns",
        );
      }
    };
    const sink: RouteSink = {
      profile: this.#profile,
      separator,
      addRoute: (spec: RouteSpec, where: string) => {
        stillDrawing();
        let route: Route;
        try {
          route = new Route(spec, { longest });
          this.#checkReachable(route);
          const unwritable = unwritableDefault(route, this.#limits.maxParamLength);
          if (unwritable !== undefined) {
            throw new TypeError(
              `The route path "${route.path}" must hold a default that cannot be written ` +
                `there: ${unwritable}`,
            );
          }
        } catch (error) {
          // "The route path "/x y" has ..." names the path; say which declaration made it.
          if (!(error instanceof TypeError)) throw error;
          const message = error.message.charAt(0).toLowerCase() + error.message.slice(1);
          throw new TypeError(`${where}: ${message}`, { cause: error });
        }
        routes.push(route);
        if (route.name !== null) named.set(route.name, route);
      },
      deprecate: (old: string, current: string) => {
        stillDrawing();
        deprecated.set(old, current);
      },
    };
    this.#drawing = true;
    try {
      runBlock(block, new Mapper(sink), "router.draw");
    } finally {
      drawing = this.#drawing = false;
    }
    checkHelperNames([...named.keys(), ...deprecated.keys()]);
    this.#install(routes, named, deprecated);
    return this;
  }

  /**
   * Refuses a route that no path within the path limits can match, when it is also over
   * the default limits: more segments than `maxSegments`, or more characters in its
   * shortest path than `maxPathLength`. Deep nesting gets there, and would otherwise build
   * routes of ever longer paths, each costing more than the last (resources nested 3,000
   * deep ran out of memory). A table declared under small limits, to test them, still
   * draws.
   */
  #checkReachable(route: Route): void {
    const maxSegments = Math.max(this.#limits.maxSegments, LIMIT_DEFAULTS.maxSegments);
    const maxPathLength = Math.max(this.#limits.maxPathLength, LIMIT_DEFAULTS.maxPathLength);
    let segments = 0;
    let shortest = 0;
    for (const segment of route.segments) {
      if (segment.optional) break;
      segments++;
      shortest += 1 + segmentLength(segment, 1);
    }
    if (segments > maxSegments || shortest > maxPathLength) {
      throw new TypeError(
        `The route path "${clipped(route.path)}" ` +
          `has ${segments} segments and ${shortest} characters at least: no path within ` +
          `maxSegments (${this.#limits.maxSegments}) and maxPathLength ` +
          `(${this.#limits.maxPathLength}) can match it`,
      );
    }
  }

  /** Makes a table current and drops what was built from the one it replaces. */
  #install(
    routes: Route[],
    named: Map<string, Route>,
    deprecated: Map<string, string>,
  ): void {
    this.#routes = Object.freeze(routes);
    this.#namedRoutes = readOnlyMap(named, "router.namedRoutes");
    this.#deprecatedNames = readOnlyMap(deprecated, "router.deprecatedNames");
    this.#matcher = undefined;
    this.#binder = undefined;
    this.#helpers = undefined;
    // The default handler warns once per deprecated name and table: cleared here, or a
    // router redrawn with ever-new names would keep every message it has printed.
    this.#warned.clear();
  }

  #deprecation(message: string): void {
    if (this.#options.onDeprecation) {
      this.#options.onDeprecation(message);
    } else if (!this.#warned.has(message)) {
      this.#warned.add(message);
      console.warn(message);
    }
  }

  /**
   * Recognises a path (relative to `{base_url}`; a query string is ignored) for a
   * method (default `GET`, case-insensitive, `HEAD` as `GET`). Throws a
   * `RoutingError`: 404 (no route, or a path that does not decode), 405
   * (`allowed` lists the methods that would match), 414 (over a limit). A path that is
   * not a string, or a method that is not a non-empty string, is a `TypeError`.
   */
  recognize(path: string, method = "GET"): RouteMatch {
    // Kept small so that V8 can inline it into the caller: a miss then throws from the
    // caller's frame, and V8's work for a throw grows with the frames it leaves.
    let found;
    try {
      found = this.#recognize(path, method);
    } catch (error) {
      // Called without its router: V8's "Receiver must be an instance of class ..." names
      // no class in the bundle, whose minifier renamed it. (The try costs nothing until a throw.)
      throw #routes in Object(this) ? error : detachedCall("recognize");
    }
    if (found instanceof Error) throw found;
    return found;
  }

  /** `recognize` without the throw: the match, or the error for the caller to throw. */
  #recognize(path: string, method: string): RouteMatch | Error {
    if (typeof path !== "string") {
      return new TypeError(`recognize needs a path string, got ${describe(path)}`);
    }
    if (typeof method !== "string" || method === "") {
      return new TypeError(`recognize needs a method name, got ${describe(method)}`);
    }
    const verb = method === "GET" ? method : upperCaseMethod(method);
    // The common case in one pass over the text: a path within every limit is matched as
    // given, up to its query or fragment, and the matcher's scan notes any `%`. Without
    // one, a path that routes comes back as the match itself: nothing is left to check.
    const quick = this.#matchRequest(path, verb);
    if (quick !== undefined) return quick;
    const pathname = withoutQuery(path);
    // A path whose query or fragment made it too long for that pass (or that the scan left
    // before reaching them), once cut: the same quick pass.
    if (pathname !== path) {
      const cut = this.#matchRequest(pathname, verb);
      if (cut !== undefined) return cut;
    }
    // The limits count the pathname as given; recognition wants its leading "/".
    return this.#limitError(pathname, verb) ??
      this.#find(pathname.charCodeAt(0) === 47 ? pathname : `/${pathname}`, verb);
  }

  /**
   * The compiled matcher's quick pass: the answer for a path within every limit, or
   * `undefined` for a path it leaves to the caller (one that may be over a limit, or does
   * not start with `/`; see `RequestMatcher.matchRequest`). A query or fragment is left
   * out, from the error's path too.
   */
  #matchRequest(path: string, verb: string): RouteMatch | RoutingError | undefined {
    if (path.length > this.#withinLimits) return undefined;
    const matcher = this.#compiledMatcher();
    const result = matcher.matchRequest(path, matchedMethod(verb));
    if (result === undefined || "params" in result) return result;
    const { queryAt } = matcher;
    return this.#answer(result, queryAt < 0 ? path : path.slice(0, queryAt), verb, matcher.encoded);
  }

  /** The 414 `RoutingError` of a pathname over the path limits, if it is. */
  #limitError(pathname: string, verb: string): RoutingError | undefined {
    // A path has no more segments than characters.
    if (pathname.length <= this.#withinLimits) return undefined;
    const { maxPathLength, maxSegments } = this.#limits;
    if (pathname.length > maxPathLength) {
      return routingMiss(
        `The path is ${pathname.length} characters long; the limit is ${maxPathLength}`,
        { status: 414, method: verb, path: pathname },
      );
    }
    // One trailing "/" is ignored, as in recognition: it makes no segment.
    const path = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
    // Each "/" starts a segment, and the text before the first does where recognize got none.
    let segments = path.charCodeAt(0) === 47 ? 0 : 1;
    for (let at = path.indexOf("/"); at >= 0; at = path.indexOf("/", at + 1)) segments++;
    if (segments > maxSegments) {
      return routingMiss(`The path has ${segments} segments; the limit is ${maxSegments}`, {
        status: 414,
        method: verb,
        path: pathname,
      });
    }
    return undefined;
  }

  /**
   * For `handle` and `fetch`, which answer a 414 before reading a form body (API.md), except
   * for a POST with a body whose `_method` could choose a route without the 414 (see
   * `respond` in dispatch.ts): a 414 of the path limits; else, where the pathname is long
   * enough to hold a variable over `maxParamLength` (a 414 only a match can tell), the
   * whole recognition; else nothing.
   */
  #screen(pathname: string, verb: string): RouteMatch | RoutingError | undefined {
    return this.#limitError(pathname, verb) ??
      (pathname.length > this.#limits.maxParamLength ? this.#find(pathname, verb) : undefined);
  }

  /**
   * Recognition proper, on a pathname within the limits: the match, or the error for the
   * caller to throw.
   */
  #find(pathname: string, verb: string): RouteMatch | RoutingError {
    const result = this.#compiledMatcher().match(pathname, matchedMethod(verb));
    return this.#answer(result, pathname, verb, pathname.includes("%"));
  }

  /** The compiled matcher of the current table, built on first use. */
  #compiledMatcher(): RequestMatcher {
    return this.#matcher ??= createCompiledMatcher(this.#routes, {
      longest: this.#limits.maxParamLength,
    });
  }

  /**
   * The answer for a pathname within the path limits, from the matcher's result: the
   * match, or the error for the caller to throw. `encoded`: the pathname holds a `%`.
   */
  #answer(
    result: MatchResult,
    pathname: string,
    verb: string,
    encoded: boolean,
  ): RouteMatch | RoutingError {
    const { route, values } = result;
    const { maxParamLength } = this.#limits;
    // A value is part of the path: only a path over the limit can hold one over it. A route
    // whose RegExp the matcher did not run on a text longer than its variables can be, and
    // that the path could match, is over the limit too (finding out would take the time).
    const overLimit = (values !== null && pathname.length > maxParamLength &&
      values.some((value) => value !== undefined && value.length > maxParamLength)) ||
      (route === null && this.#compiledMatcher().overLimit);
    if (overLimit) {
      return routingMiss(
        `A path variable is longer than the limit of ${maxParamLength} characters`,
        { status: 414, method: verb, path: pathname },
      );
    }
    // A path that does not decode is a 404, after the limits as every recognition error.
    // A route's own text holds no `%` (declaring one refuses it), so where a route matched,
    // every `%` is in a value, and decoding the values (below) finds a malformed one
    // without decoding the whole path first.
    if (route === null) {
      if (encoded && !decodes(pathname)) return malformedPath(pathname, verb);
      // A HEAD request is recognised as GET, and its message says so: the response `fetch`
      // makes of it then has GET's length, which its Content-Length must be (RFC 9110).
      const matched = matchedMethod(verb);
      if (result.allowed.length > 0) {
        return routingMiss(
          `${matched} is not allowed on ${pathname}; allowed: ${commaList(result.allowed)}`,
          { status: 405, method: verb, path: pathname, allowed: result.allowed },
        );
      }
      return routingMiss(`No route matches ${matched} ${pathname}`, {
        status: 404,
        method: verb,
        path: pathname,
      });
    }
    try {
      return { route, params: paramsOf(route, values!, { encoded }) };
    } catch (error) {
      if (error instanceof URIError) return malformedPath(pathname, verb);
      throw error;
    }
  }

  /**
   * Serves a request: the effective method (`_method` of a POST form), recognition,
   * the controller action, its result as a `Response`. Rejects with a
   * `RoutingError` when nothing routes and an {@linkcode HttpError} for a bad
   * form body (413, 415, 400). Bound, so `export default { fetch: router.handle }` works,
   * but a server answers a rejection with a 500: serve {@linkcode Router.fetch} (or the
   * router itself) to answer 404, 405, 413, 414, 415 and 400 as such, and keep `handle` for
   * callers that catch its errors (middleware, tests).
   *
   * @example Serving on Deno
   * ```ts
   * import { Router } from "@resource-router/router";
   *
   * const router = new Router({
   *   controllers: { messages: { index: () => "<h1>Messages</h1>" } },
   * }).draw((map) => map.resources("messages"));
   * const response = await router.handle(new Request("http://localhost/messages"));
   * console.log(await response.text()); // "<h1>Messages</h1>"
   * ```
   */
  readonly handle: (request: Request) => Promise<Response> = (request) =>
    dispatch(this.#dispatchTarget(), request);

  /**
   * Like {@linkcode Router.handle}, but errors become responses: an `HttpError` its
   * status (405 with `Allow`), an `OPTIONS` request to a path that routes only other
   * methods (a 405) a 204 with `Allow`, anything else a 500 that does not leak the stack.
   * Bound, so `export default router` serves on Deno, Workers and Bun.
   *
   * @example A 405 with Allow
   * ```ts
   * import { Router } from "@resource-router/router";
   *
   * const router = new Router().draw((map) => map.resources("messages"));
   * const response = await router.fetch(new Request("http://localhost/messages", { method: "PUT" }));
   * console.log(response.status, response.headers.get("allow")); // 405 "GET, HEAD, POST, OPTIONS"
   * ```
   */
  readonly fetch: (request: Request) => Promise<Response> = (request) =>
    serve(this.#dispatchTarget(), request);

  #target: DispatchTarget | undefined;
  /** Request-bound helpers of the current table, built on the first request. */
  #binder: HelperBinder | undefined;

  #dispatchTarget(): DispatchTarget {
    return this.#target ??= {
      mountPath: this.#mount.path,
      maxFormBytes: this.#limits.maxFormBytes,
      controllers: this.#controllers,
      screen: (path, method) => this.#screen(path, method),
      recognize: (path, method) => this.#matchRequest(path, method) ?? this.#find(path, method),
      bindHelpers: (origin, route, params) =>
        (this.#binder ??= createHelperBinder(this))({
          ...this.#mount,
          // A scheme without an origin (`file:`: "null") leaves `*_url` to baseUrl's.
          origin: origin === "null" ? this.#mount.origin : origin,
        }, {
          onDeprecation: (message) => this.#deprecation(message),
          recall: (target, variable) => recall(target, variable, { current: route, params }),
        }),
    };
  }

  /** Generation from a hash, Rails `url_for` style (API.md "Generation from a hash"). */
  urlFor(options: UrlOptions): string {
    if (!(#routes in Object(this))) throw detachedCall("urlFor");
    checkArity(arguments.length, 1, "router.urlFor(options)");
    return urlFor(this, options, {
      mount: this.#mount,
      onDeprecation: (message) => this.#deprecation(message),
    });
  }

  /** Adds a controller under `name`: a class (instantiated per request) or an object. */
  register(name: string, controller: ControllerLike): this {
    if (!(#routes in Object(this))) throw detachedCall("register");
    checkArity(arguments.length, 2, "router.register(name, controller)");
    if (typeof name !== "string" || name === "") {
      throw new TypeError(`register needs a non-empty controller name, got ${describe(name)}`);
    }
    if (
      (typeof controller !== "object" && typeof controller !== "function") || controller === null
    ) {
      throw new TypeError(
        `The controller "${name}" must be a class or an object, got ${describe(controller)}`,
      );
    }
    // A function with a prototype is meant to be constructed for each request (a bound
    // class, which has none, is too; see `instantiate`): it must be able to be.
    if (
      typeof controller === "function" && controller.prototype !== undefined &&
      !isConstructor(controller)
    ) {
      throw new TypeError(
        `The controller "${name}" is a function that cannot be constructed (a generator?); ` +
          `give a class or an object`,
      );
    }
    this.#controllers.set(name, controller);
    return this;
  }

  /** The route table as aligned text: name, method, path, controller#action. */
  toString(): string {
    if (!(#routes in Object(this))) throw detachedCall("toString");
    return formatRoutes(this.#routes);
  }
}

/**
 * The `TypeError` of a router method called without its router, as a function taken off
 * it (`handle` and `fetch` are bound; the others are methods).
 */
function detachedCall(method: string): TypeError {
  return new TypeError(
    `router.${method} was called without its router; call it as router.${method}(...)`,
  );
}

/**
 * Refuses a table where one name's helpers would take another's: `hash_for_x_path` is
 * both the hash helper of `x` and the path helper of a route named `hash_for_x`.
 */
function checkHelperNames(names: readonly string[]): void {
  const all = new Set(names);
  for (const name of all) {
    if (!name.startsWith("hash_for_")) continue;
    const other = name.slice("hash_for_".length);
    if (all.has(other)) {
      throw new TypeError(
        `The route name "${name}" gives helpers named like the hash helpers of the route ` +
          `"${other}" (${name}_path is hash_for_${other}_path); rename one of them`,
      );
    }
  }
}

/**
 * Makes `map` refuse changes, as a frozen object refuses them (a `Map` cannot be frozen):
 * its `set`, `delete` and `clear` throw a `TypeError` that says `what` is read-only.
 */
function readOnlyMap<K, V>(map: Map<K, V>, what: string): ReadonlyMap<K, V> {
  const refuse = () => {
    throw new TypeError(`${what} is read-only`);
  };
  for (const name of ["set", "delete", "clear"]) {
    Object.defineProperty(map, name, { value: refuse });
  }
  return Object.freeze(map);
}

/** The path without its query string or fragment. */
function withoutQuery(path: string): string {
  let end = path.indexOf("?");
  const hash = path.indexOf("#");
  if (hash >= 0 && (end < 0 || hash < end)) end = hash;
  return end < 0 ? path : path.slice(0, end);
}

/**
 * The recall rule of API.md: a left-out `:variable` of `target` comes from the current
 * request when both templates are the same text up to and including it; never `format`.
 */
function recall(
  target: Route,
  variable: string,
  { current, params }: { current: Route; params: Params },
): string | undefined {
  if (variable === "format" || !(variable in params)) return undefined;
  const end = variableEnd(target.path, variable);
  return end !== undefined && variableEnd(current.path, variable) === end &&
      current.path.startsWith(target.path.slice(0, end))
    ? params[variable]
    : undefined;
}

function variableEnd(template: string, variable: string): number | undefined {
  return templateVariables(template).find(({ name }) => name === variable)?.end;
}

/** Whether `decodeURIComponent` takes `text`. */
function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** The 404 of a path with malformed percent-encoding. */
function malformedPath(pathname: string, verb: string): RoutingError {
  return routingMiss(`The path ${JSON.stringify(pathname)} has malformed percent-encoding`, {
    status: 404,
    method: verb,
    path: pathname,
  });
}

/**
 * `items.join(", ")` for a list of one item or more, without `join`, which costs about
 * 100 ns on the fresh array of a 405 in V8, three times this loop.
 */
function commaList(items: readonly string[]): string {
  let text = items[0];
  for (let i = 1; i < items.length; i++) text += ", " + items[i];
  return text;
}
