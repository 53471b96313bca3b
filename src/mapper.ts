/**
 * `Mapper`: the `map` of `router.draw`. Checks and normalises declarations, builds
 * resource records and hands their routes to the route table; blocks get a nested
 * mapper carrying the parent's nesting prefixes.
 * @module
 */

import { describe } from "./describe.ts";
// @ts-types="npm:@types/pluralize@0.0.33"
import pluralize from "pluralize";
import { groupActions, type ResourceRecord, resourceRoutes, type Scope } from "./resources.ts";
import {
  isIdentifier,
  normalizeTemplate,
  type RouteMethod,
  type RouteSpec,
  templateVariables,
} from "./route.ts";
import type { Block, ResourceOptions, ResourcesOptions, RouteOptions } from "./types.ts";
import type { Variant, VariantProfile } from "./variants.ts";

/** Where a mapper's declarations go: the route table under construction. */
export interface RouteSink {
  /** The variant profile. */
  readonly profile: VariantProfile;
  /** The action separator: variant A's SEP, `;` in B and C (the router decides). */
  readonly separator: string;
  /**
   * Appends a route; `where` names the declaration that made it (`map.connect`), for the
   * errors of a route path that cannot be a route.
   */
  addRoute(spec: RouteSpec, where: string): void;
  /** Registers `old` as a deprecated name of `current`. */
  deprecate(old: string, current: string): void;
}

/**
 * Arguments of `map.resources`: names, then optionally options, then optionally a block.
 * As API.md writes them, the types take names spread from a `string[]`; at run time at least
 * one name is needed (none is a `TypeError`).
 *
 * @example
 * ```ts
 * import { Router, type ResourcesArgs } from "@resource-router/router";
 *
 * const args: ResourcesArgs = ["messages", "photos", { member: { rate: "put" } }];
 * new Router().draw((map) => map.resources(...args));
 * ```
 */
export type ResourcesArgs =
  | string[]
  | [...string[], ResourcesOptions | undefined]
  | [...string[], Block<Mapper>]
  | [...string[], ResourcesOptions | undefined, Block<Mapper> | undefined];

/**
 * Arguments of `map.resource`: names, then optionally options, then optionally a block.
 * As API.md writes them, the types take names spread from a `string[]`; at run time at least
 * one name is needed (none is a `TypeError`).
 *
 * @example
 * ```ts
 * import { Router, type ResourceArgs } from "@resource-router/router";
 *
 * const args: ResourceArgs = ["account", { member: { password: "put" } }];
 * new Router().draw((map) => map.resource(...args));
 * ```
 */
export type ResourceArgs =
  | string[]
  | [...string[], ResourceOptions | undefined]
  | [...string[], Block<Mapper>]
  | [...string[], ResourceOptions | undefined, Block<Mapper> | undefined];

const METHODS: Readonly<Record<string, RouteMethod>> = {
  get: "GET",
  post: "POST",
  put: "PUT",
  patch: "PATCH",
  delete: "DELETE",
  any: "ANY",
};

/** Option keys of resources, each spelling to its canonical name. */
const RESOURCE_KEYS: Readonly<Record<string, string>> = {
  controller: "controller",
  singular: "singular",
  pathPrefix: "pathPrefix",
  path_prefix: "pathPrefix",
  namePrefix: "namePrefix",
  name_prefix: "namePrefix",
  collection: "collection",
  member: "member",
  new: "new",
};
const ROUTE_KEYS = new Set(["controller", "action", "conditions", "requirements", "defaults"]);

/** Resource options after checking: one spelling each, actions as maps. */
interface Normalized {
  controller?: string;
  singular?: string;
  pathPrefix?: string;
  namePrefix?: string;
  collection: Map<string, RouteMethod>;
  member: Map<string, RouteMethod>;
  new: Map<string, RouteMethod>;
}

/**
 * The declaration interface of `router.draw((map) => ...)`.
 *
 * @example Declaring resources
 * ```ts
 * import { Router } from "@resource-router/router";
 *
 * const router = new Router({ variant: "B" });
 * router.draw((map) => {
 *   map.resources("messages", { member: { mark: "post" } }, (messages) => {
 *     messages.resources("comments");
 *   });
 *   map.named("login", "/login", { controller: "sessions", action: "new" });
 * });
 * console.log(router.helpers.mark_message_path(1)); // "/messages/1;mark"
 * ```
 */
export class Mapper {
  readonly #sink: RouteSink;
  readonly #scope: Scope;

  /** Mappers come from `router.draw`; this constructor is internal. */
  constructor(sink: RouteSink, scope: Scope = { pathPrefix: "", newNamePrefix: "" }) {
    this.#sink = sink;
    this.#scope = scope;
    // Bound, so that a block may take them off its mapper:
    // `router.draw(({ resources }) => resources("messages"))`.
    this.resources = this.resources.bind(this);
    this.resource = this.resource.bind(this);
    this.connect = this.connect.bind(this);
    this.named = this.named.bind(this);
  }

  /** The variant this mapper follows, for declarations that differ by variant. */
  get variant(): Variant {
    return this.#sink.profile.variant;
  }

  /**
   * Declares collection resources (SPEC.md 4.2): one or more plural names, optional
   * options, an optional block for nested declarations.
   */
  resources(...args: ResourcesArgs): void {
    this.#declare("resources", args);
  }

  /**
   * Declares singleton resources (SPEC.md 4.4; variants A and B): one or more names,
   * optional options (no `singular`), an optional block.
   */
  resource(...args: ResourceArgs): void {
    if (!this.#sink.profile.singletons) {
      throw new TypeError(
        `map.resource: singleton resources do not exist in variant ${this.#sink.profile.variant}; ` +
          `use map.resources`,
      );
    }
    this.#declare("resource", args);
  }

  /** Declares an unnamed route, e.g. `map.connect(":controller/:action/:id")`. */
  connect(path: string, options: RouteOptions = {}): void {
    checkArity(arguments.length, 2, "map.connect(path, options?)");
    this.#sink.addRoute(this.#routeSpec(null, path, options, "map.connect"), "map.connect");
  }

  /** Declares a named route, e.g. `map.named("login", "/login", { controller: "sessions" })`. */
  named(name: string, path: string, options: RouteOptions = {}): void {
    checkArity(arguments.length, 3, "map.named(name, path, options?)");
    if (!isIdentifier(name)) {
      throw new TypeError(`map.named: the route name ${describe(name)} is not an identifier`);
    }
    const where = `map.named("${name}")`;
    this.#sink.addRoute(this.#routeSpec(name, path, options, where), where);
  }

  #declare(kind: "resources" | "resource", args: unknown[]): void {
    const singleton = kind === "resource";
    // Names (strings), then options (a plain object; `undefined`, as its optional type
    // allows, is left out), then a block (likewise): anything else names its argument.
    let next = 0;
    while (typeof args[next] === "string") next++;
    const names = args.slice(0, next) as string[];
    if (names.length === 0) {
      throw new TypeError(
        `map.${kind} needs at least one name (a string) first; ` +
          (args.length === 0 ? "it got no arguments" : `argument 1 is ${describe(args[0])}`),
      );
    }
    let options: unknown = {};
    let block: Block<Mapper> | undefined;
    if (next < args.length && typeof args[next] !== "function") {
      options = args[next] === undefined ? {} : args[next];
      next++;
      // After options, an `undefined` block is left out too (a caller passing one along).
      if (next === args.length - 1 && args[next] === undefined) next++;
    }
    if (typeof args[next] === "function") block = args[next++] as Block<Mapper>;
    if (next < args.length) {
      throw new TypeError(
        `map.${kind} takes names (strings), then options (a plain object), then a block ` +
          `(a function); argument ${next + 1} is ${describe(args[next])}`,
      );
    }
    for (const name of names) {
      if (!isIdentifier(name)) {
        throw new TypeError(`map.${kind}: the name ${describe(name)} is not an identifier`);
      }
    }
    // Each name gets its own copy, made now: normalising builds fresh objects from the
    // caller's, which a block run for an earlier name must not change for a later one.
    const copies = names.map((name) =>
      normalizeResourceOptions(options, `map.${kind}("${name}")`, singleton)
    );
    for (const [index, name] of names.entries()) {
      const where = `map.${kind}("${name}")`;
      const record = this.#record(name, copies[index], singleton);
      const output = resourceRoutes(record, this.#sink.profile, this.#sink.separator);
      const routes = distinctRoutes(output.routes, where);
      checkNotShadowed(routes, { scope: this.#scope, record, where });
      for (const spec of routes) this.#sink.addRoute(spec, where);
      for (const [old, current] of output.deprecated) this.#sink.deprecate(old, current);
      checkNestingPrefix(output.nesting.pathPrefix, where);
      if (block) {
        const taken = routesAfter(output.memberPath, routes);
        runBlock(block, new Mapper(this.#sink, { ...output.nesting, taken }), where);
      }
    }
  }

  #record(name: string, options: Normalized, singleton: boolean): ResourceRecord {
    const singular = singleton ? name : options.singular ?? pluralize.singular(name);
    // Route names and the nested `:<singular>_id` are built from it: an identifier too.
    if (!isIdentifier(singular)) {
      throw new TypeError(
        `map.resources("${name}"): its singular comes out as ${describe(singular)}, ` +
          `which is not an identifier; give one with the singular option`,
      );
    }
    const controller = options.controller ?? name;
    const pathPrefix = options.pathPrefix ?? this.#scope.pathPrefix;
    // Every route of a resource goes to its controller and its own action (SPEC.md 4.2):
    // a path variable that would choose another one has no place in its path.
    const chooser = templateVariables(pathPrefix)
      .find(({ name }) => name === "controller" || name === "action")?.name;
    if (chooser !== undefined) {
      throw new TypeError(
        `map.${singleton ? "resource" : "resources"}("${name}"): the path prefix ` +
          `"${pathPrefix}" has :${chooser}, but every route of the resource goes to the ` +
          `controller "${controller}" and its own action`,
      );
    }
    return {
      singleton,
      plural: name,
      singular,
      controller,
      pathPrefix,
      namePrefix: options.namePrefix ?? "",
      newNamePrefix: this.#scope.newNamePrefix,
      collection: groupActions(options.collection),
      member: groupActions(options.member, "edit"),
      new: groupActions(options.new, "new"),
    };
  }

  #routeSpec(
    name: string | null,
    path: string,
    options: RouteOptions,
    where: string,
  ): RouteSpec {
    if (!isPlainObject(options)) {
      throw new TypeError(`${where}: options must be a plain object, got ${describe(options)}`);
    }
    for (const key of Object.keys(options)) {
      if (!ROUTE_KEYS.has(key)) {
        throw new TypeError(
          `${where}: unknown option "${key}"; known options: ${[...ROUTE_KEYS].join(", ")}`,
        );
      }
    }
    if (typeof path !== "string") {
      throw new TypeError(`${where}: the path must be a string, got ${describe(path)}`);
    }
    const template = normalizeTemplate(this.#scope.pathPrefix + normalizeTemplate(path));
    const variables = new Set(templateVariables(template).map(({ name }) => name));
    // Null prototype: a default named like an Object.prototype member is an own key.
    const defaults: Record<string, string> = Object.create(null);
    // Each option is read once: a getter may give another value on each read.
    const given = options.defaults;
    if (given !== undefined) {
      if (!isPlainObject(given)) {
        throw new TypeError(`${where}: defaults must be a plain object, got ${describe(given)}`);
      }
      for (const [key, value] of Object.entries(given)) {
        if (typeof value !== "string") {
          throw new TypeError(
            `${where}: the default for "${key}" must be a string, got ${describe(value)}`,
          );
        }
        defaults[key] = value;
      }
    }
    const controller = fixedTarget("controller", { options, defaults, variables, where });
    const action = fixedTarget("action", { options, defaults, variables, where });
    if (!variables.has("controller") && controller === undefined) {
      throw new TypeError(`${where}: give a controller, or a :controller variable in the path`);
    }
    // A controller or action given beside a path variable of that name is its default; it
    // wins over `defaults` (as Rails merges the options over them, and as it wins where the
    // path has no such variable).
    if (variables.has("controller") && controller !== undefined) defaults.controller = controller;
    if (variables.has("action") && action !== undefined) defaults.action = action;
    // `null` is no "absent" here either (README): a TypeError below, as for `defaults`.
    const conditionsGiven = options.conditions;
    const conditions = conditionsGiven === undefined ? {} : conditionsGiven;
    if (!isPlainObject(conditions)) {
      throw new TypeError(
        `${where}: conditions must be a plain object like { method: "get" }, got ${
          describe(conditions)
        }`,
      );
    }
    for (const key of Object.keys(conditions)) {
      if (key !== "method") {
        throw new TypeError(`${where}: unknown condition "${key}"; the only condition is method`);
      }
    }
    const requirementsGiven = options.requirements;
    const requirements = requirementsGiven === undefined ? {} : requirementsGiven;
    if (!isPlainObject(requirements)) {
      throw new TypeError(
        `${where}: requirements must be a plain object of RegExps, got ${describe(requirements)}`,
      );
    }
    const method = conditions.method;
    return {
      name,
      method: method === undefined ? "ANY" : parseMethod(method, `${where}: conditions.method is`),
      path: template,
      controller: variables.has("controller") ? null : controller!,
      action: variables.has("action") ? null : action ?? "index",
      requirements: { ...requirements } as Record<string, RegExp>,
      defaults,
      optionalTrailing: true,
    };
  }
}

/**
 * The `controller` or `action` of a connect/named route: the option, or else, in a path
 * without that variable, a default of that name.
 */
function fixedTarget(
  key: "controller" | "action",
  { options, defaults, variables, where }: {
    options: RouteOptions;
    defaults: Record<string, string>;
    variables: ReadonlySet<string>;
    where: string;
  },
): string | undefined {
  const given = optionalString(options[key], key, where);
  // Checked beside a path variable too: a default action "" recognised as no action at all.
  const fallback = Object.hasOwn(defaults, key)
    ? optionalString(defaults[key], `defaults.${key}`, where)
    : undefined;
  return given !== undefined || variables.has(key) ? given : fallback;
}

/**
 * Refuses arguments past the last one a declaration or router method reads: `connect` and
 * `named` take no block, and a second options object (requirements, say, or Rails'
 * `url_for(hash, options)`) would be dropped, silently.
 */
export function checkArity(given: number, most: number, usage: string): void {
  if (given > most) {
    throw new TypeError(
      `${usage} takes at most ${most} argument${most === 1 ? "" : "s"}, got ${given}`,
    );
  }
}

/**
 * API.md: a template naming a variable twice is a `TypeError` at declaration. That holds
 * for the prefix a resource's nested resources get (`threads` under `/threads/:thread_id`
 * gives `/threads/:thread_id/threads/:thread_id`) whether or not a block uses it.
 */
function checkNestingPrefix(prefix: string, where: string): void {
  const names = templateVariables(prefix).map(({ name }) => name);
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice !== undefined) {
    throw new TypeError(
      `${where}: the path its nested resources get, "${prefix}", names :${twice} twice ` +
        `(give it a singular or a pathPrefix without :${twice})`,
    );
  }
}

/**
 * A resource's routes without repeats (API.md: no two routes of a table share method,
 * path and requirements). An action listed twice where both give the same routes (a
 * singleton's `collection` and `member` share its path) is registered once. An action
 * whose route takes another's path under another name (a `collection` action `new` in
 * variant A, at `/messages/new`) could never be reached: a `TypeError`.
 */
function distinctRoutes(routes: readonly RouteSpec[], where: string): RouteSpec[] {
  // A resource makes a few dozen routes: compared pair by pair, they need no string key
  // of their own, which V8 would hash in its runtime for each (a key per route built and
  // looked up in a Map cost about 5 % of a draw). A Map above that, for any number.
  const seen = routes.length > PAIRWISE_MOST ? new Map<string, RouteSpec>() : null;
  const kept: RouteSpec[] = [];
  for (const spec of routes) {
    let first: RouteSpec | undefined;
    if (seen === null) {
      first = kept.find((other) =>
        other.method === spec.method && other.path === spec.path &&
        requirementKeys(other) === requirementKeys(spec)
      );
    } else {
      const key = `${spec.method} ${spec.path} ${requirementKeys(spec)}`;
      first = seen.get(key);
      if (first === undefined) seen.set(key, spec);
    }
    if (first === undefined) {
      kept.push(spec);
    } else if (first.name !== spec.name || first.action !== spec.action) {
      const label = (route: RouteSpec) =>
        route.name === null ? `the ${route.action} action` : `${route.name} (${route.action})`;
      throw new TypeError(
        `${where}: ${label(first)} and ${label(spec)} would both be ${spec.method} ` +
          `${spec.path}; the second could never be reached (give the action another name)`,
      );
    }
  }
  return kept;
}

/** The most routes `distinctRoutes` compares pair by pair. */
const PAIRWISE_MOST = 64;

/** The names of a route's requirements, as text to compare. */
function requirementKeys(spec: RouteSpec): string {
  return Object.keys(spec.requirements).join();
}

/** The actions whose routes are at a resource's own paths, which extend no other. */
const OWN_PATH_ACTIONS = new Set(["index", "create", "show", "update", "destroy"]);

/**
 * The routes whose path extends `memberPath`, by method and the rest of their path, and
 * by the first segment of that rest. The paths are strings built piece by piece, which the
 * first read of a character flattens: reading every route's path here, and every nested
 * route's in `checkNotShadowed`, cost the draw of the bench's large table about a tenth more
 * instructions; skipping the actions above, and nested resources named like no path here,
 * leaves about 4 %.
 */
function routesAfter(memberPath: string, routes: readonly RouteSpec[]): Scope["taken"] {
  const byRest = new Map<string, RouteSpec>();
  const heads = new Set<string>();
  for (const route of routes) {
    if (OWN_PATH_ACTIONS.has(route.action!)) continue;
    const rest = restAfter(memberPath, route.path);
    if (rest === undefined) continue;
    const key = `${route.method} ${rest}`;
    if (!byRest.has(key)) byRest.set(key, route);
    heads.add(rest.split(/[.;,/]/, 2)[1]);
  }
  return { byRest, heads };
}

/** The rest of `path` where it goes on from `prefix` with a new segment. */
function restAfter(prefix: string, path: string): string | undefined {
  return path.charCodeAt(prefix.length) === 47 && path.startsWith(prefix)
    ? path.slice(prefix.length)
    : undefined;
}

/**
 * Refuses a nested resource's route that a route of the resource around it takes every
 * request of, as that one comes first in the table (see `Scope.taken`): in variant A, a
 * `member` action `comments` at `/messages/:id/comments` would leave the nested `comments`
 * index at `/messages/:message_id/comments` unreachable, and a singleton's `member` action
 * `messages` would repeat the nested `GET /account/messages` outright.
 */
function checkNotShadowed(
  routes: readonly RouteSpec[],
  { scope, record, where }: { scope: Scope; record: ResourceRecord; where: string },
): void {
  const { taken, pathPrefix } = scope;
  // A nested resource's paths go on from the prefix with its own name, unless its own
  // pathPrefix puts them elsewhere.
  if (taken === undefined || record.pathPrefix !== pathPrefix || !taken.heads.has(record.plural)) {
    return;
  }
  for (const spec of routes) {
    const rest = restAfter(pathPrefix, spec.path);
    if (rest === undefined) continue;
    const first = taken.byRest.get(`${spec.method} ${rest}`) ?? taken.byRest.get(`ANY ${rest}`);
    if (first === undefined) continue;
    const label = (route: RouteSpec) =>
      `${route.name ?? `the ${route.action} action`} (${route.method} ${route.path})`;
    throw new TypeError(
      `${where}: ${label(spec)} could never be reached: ${label(first)} of the resource ` +
        `around it takes every request for it first (give the action or the nested resource ` +
        `another name)`,
    );
  }
}

function optionalString(value: unknown, key: string, where: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") {
    throw new TypeError(`${where}: ${key} must be a non-empty string, got ${describe(value)}`);
  }
  return value;
}

/** Checks a resource options hash and returns a fresh, normalised copy. */
function normalizeResourceOptions(options: unknown, where: string, singleton: boolean): Normalized {
  if (!isPlainObject(options)) {
    throw new TypeError(`${where}: options must be a plain object, got ${describe(options)}`);
  }
  const canonical: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    const name = RESOURCE_KEYS[key];
    if (!Object.hasOwn(RESOURCE_KEYS, key)) {
      throw new TypeError(
        `${where}: unknown option "${key}"; known options: ${
          Object.keys(RESOURCE_KEYS).filter((known) => !singleton || known !== "singular")
            .join(", ")
        }`,
      );
    }
    if (value === undefined) continue;
    if (name === "singular" && singleton) {
      throw new TypeError(
        `${where}: "singular" is not an option of map.resource; a singleton's name is its singular`,
      );
    }
    // Only the prefixes have two spellings, and they are strings: two different objects
    // are two values (compared by JSON, an object holding one object at many places took
    // time that doubled with each level).
    if (name in canonical && canonical[name] !== value) {
      throw new TypeError(
        `${where}: the option ${name} is given twice with different values ` +
          `(${describe(canonical[name])} and ${describe(value)})`,
      );
    }
    canonical[name] = value;
  }
  const text = (key: string, what: string, check?: (value: string) => boolean) => {
    const value = canonical[key];
    if (value === undefined) return undefined;
    if (typeof value !== "string" || (check && !check(value))) {
      throw new TypeError(`${where}: ${key} must be ${what}, got ${describe(value)}`);
    }
    return value;
  };
  const pathPrefix = text("pathPrefix", "a string");
  return {
    controller: optionalString(canonical.controller, "controller", where),
    singular: text("singular", "an identifier", isIdentifier),
    pathPrefix: pathPrefix === undefined
      ? undefined
      : normalizeTemplate(pathPrefix).replace(/^\/$/, ""),
    // It starts route names: empty, or the start of an identifier.
    namePrefix: text(
      "namePrefix",
      "empty or letters, digits and _, not starting with a digit",
      (value) => value === "" || isIdentifier(value),
    ),
    collection: actionMethods(canonical.collection, "collection", where),
    member: actionMethods(canonical.member, "member", where),
    new: actionMethods(canonical.new, "new", where),
  };
}

function actionMethods(value: unknown, key: string, where: string): Map<string, RouteMethod> {
  const out = new Map<string, RouteMethod>();
  if (value === undefined) return out;
  if (!isPlainObject(value)) {
    throw new TypeError(
      `${where}: ${key} must map action names to methods, got ${describe(value)}`,
    );
  }
  for (const [action, method] of Object.entries(value)) {
    if (!isIdentifier(action)) {
      throw new TypeError(`${where}: the ${key} action ${describe(action)} is not an identifier`);
    }
    out.set(action, parseMethod(method, `${where}: the ${key} action "${action}" has`));
  }
  return out;
}

/**
 * Parses a declared method; `head` and unknown names are a `TypeError`, whose message
 * starts with `subject` (`map.connect: conditions.method is`).
 */
function parseMethod(method: unknown, subject: string): RouteMethod {
  const name = typeof method === "string" ? method.toLowerCase() : undefined;
  if (name === undefined || !Object.hasOwn(METHODS, name)) {
    throw new TypeError(
      `${subject} an invalid method ${describe(method)}; use get, post, put, patch, delete or any` +
        (name === "head" ? " (HEAD is routed through GET)" : ""),
    );
  }
  return METHODS[name];
}

/**
 * Whether `value` is an object literal's kind of object: prototype `Object.prototype` or
 * `null` (a module namespace object is one).
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Runs a declaration block with its mapper. One that returns a promise (an `async` block)
 * is a `TypeError`: its declarations after the first `await` would come after the draw;
 * they fail, and that failure is caught here rather than left to crash the process as an
 * unhandled rejection. A generator function's block is one too: calling it runs none of
 * its body, so it would draw nothing, silently.
 */
export function runBlock(block: Block<Mapper>, map: Mapper, where: string): void {
  const result: unknown = block(map);
  if (result instanceof Promise) {
    result.catch(() => {});
    throw new TypeError(
      `The block of ${where} returned a promise: declarations must not wait (no async block)`,
    );
  }
  const kind = Object.prototype.toString.call(result);
  if (kind === "[object Generator]" || kind === "[object AsyncGenerator]") {
    throw new TypeError(
      `The block of ${where} is a generator function, whose body a call does not run: ` +
        `declare in a plain function`,
    );
  }
}
