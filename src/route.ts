/**
 * `Route`: one entry of the route table. Parses its path template once into segments
 * of literal text and variables, and derives from them what later stages need: the
 * regular expression the matchers use, the params plan, and (lazily) the equivalent
 * `URLPattern`.
 * @module
 */

import {
  checkWays,
  compileRequirement,
  escapeRegExp,
  LONGEST_DEFAULT,
  MAX_REQUIREMENT_LENGTH,
  type Requirement,
  unchangedSince,
  type WaysOptions,
  wholeText,
} from "./requirement.ts";
import { clipped, describe } from "./describe.ts";
import { urlPatternClass } from "./url_pattern.ts";

/**
 * A route's method condition; `ANY` means none.
 *
 * @example
 * ```ts
 * import { Router, type RouteMethod } from "@resource-router/router";
 *
 * const router = new Router().draw((map) => map.resources("messages", { new: { preview: "any" } }));
 * const methods: RouteMethod[] = router.routes.map((route) => route.method);
 * console.log(methods.includes("ANY")); // true: preview has no method condition
 * ```
 */
export type RouteMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "ANY";

/** The methods a route can be restricted to (`ANY` aside), in a fixed order. */
export const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** The method a route's condition is matched against: `HEAD` is recognised as `GET`. */
export function matchedMethod(method: string): string {
  return method === "HEAD" ? "GET" : method;
}

/** The plain data a route is built from. */
export interface RouteSpec {
  /** The route's name, or `null` when unnamed. */
  name: string | null;
  /** The method condition. */
  method: RouteMethod;
  /** The path template, e.g. `/messages/:id.:format;edit`. */
  path: string;
  /** The controller, or `null` when the path supplies `:controller`. */
  controller: string | null;
  /** The action, or `null` when the path supplies `:action`. */
  action: string | null;
  /** Requirements by variable name. */
  requirements: Readonly<Record<string, RegExp>>;
  /** Defaults by key: for optional path variables and for params the path lacks. */
  defaults: Readonly<Record<string, string>>;
  /** Whether a trailing run of variables with defaults may be left out (connect/named). */
  optionalTrailing: boolean;
}

/**
 * One part of a path segment.
 *
 * @example
 * ```ts
 * import { type Part, Router } from "@resource-router/router";
 *
 * const router = new Router().draw((map) => map.resources("messages"));
 * const parts: readonly Part[] = router.namedRoutes.get("formatted_message")!.segments[1].parts;
 * console.log(parts.map((part) => "literal" in part ? part.literal : `:${part.variable}`)); // [":id", ".", ":format"]
 * ```
 */
export type Part =
  | { readonly literal: string }
  | { readonly variable: string; readonly requirement: Requirement | null };

/**
 * A `/`-separated piece of a template.
 *
 * @example
 * ```ts
 * import { Router, type Segment } from "@resource-router/router";
 *
 * const router = new Router().draw((map) => map.resources("messages"));
 * const segments: readonly Segment[] = router.namedRoutes.get("formatted_message")!.segments;
 * console.log(segments.length, segments[1].parts.length); // 2 3: "messages", then :id "." :format
 * ```
 */
export interface Segment {
  /** The parts, literal text and variables, in order. */
  readonly parts: readonly Part[];
  /** The segment is a lone variable that may be left out (a trailing one with a default). */
  readonly optional: boolean;
}

/**
 * The route separators: the characters a variable under the default rule excludes. The
 * default rule's source and the compiled matcher's character tables are made from it.
 */
export const SEPARATORS = "/;.,?";
/** One character that is not a route separator. */
const DEFAULT_CHARACTER = `[^${SEPARATORS.replace("/", "\\/")}]`;
/** The default text of a variable: one or more characters that are not route separators. */
export const DEFAULT_VARIABLE_SOURCE = `${DEFAULT_CHARACTER}+`;

/**
 * Whether a variable with this requirement follows the default rule: no requirement, or
 * one that says no more (the `:id` requirement of variants A and B).
 */
export function followsDefaultRule(requirement: Requirement | null | undefined): boolean {
  return requirement == null || requirement.original.source === DEFAULT_VARIABLE_SOURCE;
}

/**
 * The punctuation a template's literal text may hold besides letters and digits: what a
 * URL keeps as it is in a path (the WHATWG URL parser percent-encodes space,
 * `" < > { }`, a backquote and more, and reads a backslash as `/`). Not `^`: since 2025
 * (whatwg/url#846) the parser encodes it too, and Bun, workerd, Node 25 and browsers do,
 * where Deno 2.9 and Node 20 do not; a route with one would route on some runtimes only.
 */
export const LITERAL_PUNCTUATION = "-._~!$&'()*+,;=@|[]";
/** By character code below 128: 2 for an identifier character, 1 for other literal text. */
const CHAR_CLASS = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  const char = String.fromCharCode(code);
  CHAR_CLASS[code] = /[A-Za-z0-9_]/.test(char) ? 2 : LITERAL_PUNCTUATION.includes(char) ? 1 : 0;
}
/**
 * Requirements compiled before, by `RegExp` object: tables share a few (the `:id` rule of
 * every show route is one object), and compiling one costs microseconds. The result does
 * not depend on the variable or the route, only on the `RegExp`'s source and flags (an
 * entry made before `RegExp.prototype.compile` changed them is not taken) and on how long
 * a variable can be (never taken as less than `LONGEST_DEFAULT`), which decides whether it
 * is allowed and whether it counts as backtracking (`loops`). So each entry keeps the
 * longest it was compiled for, and is taken only for the same (`Infinity`: for any, as the
 * default rule's). Each entry's requirement is frozen, as tables share it.
 */
const compiledRequirementCache = new WeakMap<
  RegExp,
  { readonly requirement: Requirement; readonly longest: number }
>();

/**
 * The default rule written out as a requirement: the `:id` rule of variants A and B. Its
 * compiled form is made here, not by `compileRequirement`, whose analysis costs a cold
 * start about 2 ms the first time it runs: a set of every character but the separators
 * needs none (it cannot match `/` or the empty string, loops once, and admits what its
 * set holds). A test compares it with what `compileRequirement` makes of it.
 */
const DEFAULT_ADMITS = new RegExp(`^${DEFAULT_CHARACTER}$`, "u");
const DEFAULT_WHOLE = wholeText(DEFAULT_VARIABLE_SOURCE);
const DEFAULT_COMPILED = {
  requirement: Object.freeze<Requirement>({
    original: new RegExp(DEFAULT_VARIABLE_SOURCE),
    source: DEFAULT_VARIABLE_SOURCE,
    test: (text) => DEFAULT_WHOLE.test(text),
    admits: (char) => DEFAULT_ADMITS.test(char),
    loops: 1,
    boundaries: false,
    maxLength: Infinity,
    minLength: 1,
  }),
  longest: Infinity,
};

/**
 * The default rule as a `RegExp` of its own, for the routes of one declaration: it is their
 * `requirements.id`, and a `RegExp` can be changed (`compile`), which must reach no other
 * table. Its compiled form is the one above.
 */
export function defaultRule(): RegExp {
  const rule = new RegExp(DEFAULT_VARIABLE_SOURCE);
  compiledRequirementCache.set(rule, DEFAULT_COMPILED);
  return rule;
}

/** A variable or key name as API.md defines it: a letter or `_`, then letters, digits, `_`. */
const NAME = "[A-Za-z_][A-Za-z0-9_]*";
const IDENTIFIER = new RegExp(`^${NAME}$`);
/** A `:variable` of a template, the name captured. */
const TEMPLATE_VARIABLE = new RegExp(`:(${NAME})`, "g");
/** Implicit defaults of connect/named routes: `:action` is "index", `:id` may be absent. */
const IMPLICIT_DEFAULTS: Readonly<Record<string, string | null>> = { action: "index", id: null };
// Shared by every route that has none (most routes): a route allocates only what it uses.
const EMPTY_RECORD: Readonly<Record<string, never>> = Object.freeze({});
/**
 * A map that can be read and not changed, over a `Map` of its own. Not a `Map`: through
 * `Map.prototype.set.call`, a `Map` takes entries whatever its own `set` does, and a
 * route's maps are read by every request and every helper call.
 */
class FrozenMap<K, V> implements ReadonlyMap<K, V> {
  readonly #map: Map<K, V>;
  constructor(map: Map<K, V>) {
    this.#map = map;
    Object.freeze(this);
  }
  get size(): number {
    return this.#map.size;
  }
  get(key: K): V | undefined {
    return this.#map.get(key);
  }
  has(key: K): boolean {
    return this.#map.has(key);
  }
  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.#map) callback.call(thisArg, value, key, this);
  }
  entries(): MapIterator<[K, V]> {
    return this.#map.entries();
  }
  keys(): MapIterator<K> {
    return this.#map.keys();
  }
  values(): MapIterator<V> {
    return this.#map.values();
  }
  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.#map.entries();
  }
}

// One empty map for every route that has none, in every table.
const NO_ENTRIES: ReadonlyMap<never, never> = new FrozenMap(new Map<never, never>());
const NO_REQUIREMENTS: ReadonlyMap<string, Requirement> = NO_ENTRIES;
const NO_OPTIONAL: ReadonlyMap<string, string | undefined> = NO_ENTRIES;
const NO_CONSTANTS: readonly (readonly [string, string])[] = Object.freeze([]);

/**
 * How a match becomes params, as one flat array so that recognition touches few
 * objects: where the variables' pairs start, where the constant pairs start, and its
 * length (at `PLAN_VARIABLES_AT`, `PLAN_CONSTANTS_AT`, `PLAN_LENGTH`; offsets from the
 * plan's start, so that a copy works anywhere), then, from `PLAN_PAIRS`: key/value pairs
 * to set before the variables (controller, action), one key/default pair per variable
 * (the default taken when the variable is left out; `undefined`: absent), and key/value
 * pairs set after them (constant defaults). Keys are internalized strings. At
 * `PLAN_START` is the object params start from (see `newParams`).
 */
type ParamsPlan = readonly (string | number | undefined)[];
const PLAN_VARIABLES_AT = 0;
const PLAN_CONSTANTS_AT = 1;
const PLAN_LENGTH = 2;
const PLAN_START = 3;
const PLAN_PAIRS = 4;

/** Params start as `Object.create(null)`. */
const START_EMPTY = 0;
/** Params start as a dictionary with `controller` and `action` and room for 3 more keys. */
const START_FOR_5 = 1;
/** Params start as a dictionary with `controller` and `action` and room for 9 more keys. */
const START_FOR_11 = 2;
/** Params start with exactly the keys `controller`, `action` and `id`. */
const START_ID = 3;
/** Params start with exactly the keys `controller`, `action` and `format`. */
const START_FORMAT = 4;
/** Params start with exactly the keys `controller`, `action`, `id` and `format`. */
const START_ID_FORMAT = 5;

/**
 * The start whose keys are exactly those of a plan's pairs, in order (see `newParams`):
 * `controller`, `action`, then `id`, `format` or both; else `undefined`.
 */
function exactStart(plan: ParamsPlan): number | undefined {
  const keys = (plan.length - PLAN_PAIRS) / 2;
  if (keys < 3 || keys > 4) return undefined;
  if (plan[PLAN_PAIRS] !== "controller" || plan[PLAN_PAIRS + 2] !== "action") return undefined;
  const third = plan[PLAN_PAIRS + 4];
  if (keys === 4) {
    return third === "id" && plan[PLAN_PAIRS + 6] === "format" ? START_ID_FORMAT : undefined;
  }
  return third === "id" ? START_ID : third === "format" ? START_FORMAT : undefined;
}

/** The plan of a route, built once; set by `Route`'s static block. */
let planOf: (route: Route) => ParamsPlan;
/** The `RegExp` of a route's path, built once; set by `Route`'s static block. */
let regexOf: (route: Route) => RegExp;

/**
 * A compiled route. `router.routes` holds them in registration order.
 *
 * @example Reading a route
 * ```ts
 * import { Router } from "@resource-router/router";
 *
 * const router = new Router({ variant: "B" });
 * router.draw((map) => map.resources("messages"));
 * const show = router.namedRoutes.get("message")!;
 * console.log(show.method, show.path, show.action); // GET /messages/:id show
 * ```
 */
export class Route {
  /** The name, e.g. `formatted_message`; `null` when unnamed. */
  readonly name: string | null;
  /** The method condition; `ANY` means none. */
  readonly method: RouteMethod;
  /** The path template, e.g. `/messages/:id.:format;edit`. */
  readonly path: string;
  /** The controller, or `null` when the path supplies `:controller`. */
  readonly controller: string | null;
  /** The action, or `null` when the path supplies `:action`. */
  readonly action: string | null;
  /** Requirements by variable name, as declared. */
  readonly requirements: Readonly<Record<string, RegExp>>;
  /** Defaults by key. */
  readonly defaults: Readonly<Record<string, string>>;
  /** The parsed template. */
  readonly segments: readonly Segment[];
  /** The path variables, in path order. */
  readonly variables: readonly string[];
  /** The variables that may be left out, with their defaults (`undefined`: absent). */
  readonly optional: ReadonlyMap<string, string | undefined>;
  /**
   * Whether its optional variables follow more than one rule (requirements, or one and
   * the default): a path may then skip one whose rule rejects the text and give the text
   * to a later one, and only the route's own `RegExp` tells which (the compiled matcher
   * uses it for such a route).
   */
  readonly optionalRulesDiffer: boolean;
  /**
   * Whether matching it can take more than linear time in the length of a segment: a
   * segment its `RegExp` could split at an ambiguous boundary (see `ambiguousBoundaries`)
   * or a requirement with two loops (`Requirement.loops`, which counts parts that multiply
   * one loop's ways as a second). The compiled matcher then never runs its `RegExp` on
   * a text longer than its variables can be, which bounds that time.
   */
  readonly backtracks: boolean;
  /**
   * Keys of `defaults` that are not path variables: they are always in the params, but
   * for a `controller` or `action` the route fixes (its own wins).
   */
  readonly constants: readonly (readonly [string, string])[];
  /** Compiled requirements by variable name. */
  readonly compiledRequirements: ReadonlyMap<string, Requirement>;

  #source: string | undefined;
  #regex: RegExp | undefined;
  #pattern: URLPattern | undefined;
  /** How a match becomes params (see `paramsOf`), worked out on first use. */
  #plan: ParamsPlan | undefined;

  static {
    planOf = (route) => route.#plan ??= paramsPlan(route);
    regexOf = (route) => route.#regex ??= new RegExp(`^${route.source}$`, "u");
  }

  /**
   * Builds a route from its spec; throws a `TypeError` naming what is wrong.
   * `options.longest`: how long the router lets a variable be, so that requirements that
   * could backtrack too long on such a value are refused (see `checkWays`).
   */
  constructor(spec: RouteSpec, options: WaysOptions = {}) {
    checkSpec(spec);
    this.name = spec.name;
    this.method = spec.method;
    this.controller = spec.controller;
    this.action = spec.action;
    this.path = normalizeTemplate(spec.path);
    this.requirements = frozenCopy(spec.requirements);
    this.defaults = frozenCopy(spec.defaults);

    const compiled = compileRequirements(spec.requirements, this.path, options);
    this.compiledRequirements = compiled;
    // A Set, in path order: looking names up in an array made thousands of them quadratic.
    const variables = new Set<string>();
    const raw = parseTemplate(this.path, compiled, variables);
    // urlFor reads these keys as its options, so `urlFor(hash_for_x_path(v))` would fail.
    for (const name of ["use_route", "only_path"]) {
      if (variables.has(name)) {
        throw new TypeError(
          `The route path "${this.path}" names the variable :${name}, a key that urlFor ` +
            `reads as its own option; give the variable another name`,
        );
      }
    }
    for (const name of compiled.keys()) {
      if (!variables.has(name)) {
        throw new TypeError(
          `A requirement names :${name}, which is not a variable of "${this.path}"`,
        );
      }
    }
    let optional = NO_OPTIONAL;
    let firstOptional = raw.length;
    if (spec.optionalTrailing) {
      const found = new Map<string, string | undefined>();
      while (firstOptional > 0) {
        const parts = raw[firstOptional - 1];
        if (parts.length !== 1 || !("variable" in parts[0])) break;
        const name = parts[0].variable;
        // Own keys only: a variable named like an Object.prototype member has no default.
        const fallback = Object.hasOwn(spec.defaults, name)
          ? spec.defaults[name]
          : Object.hasOwn(IMPLICIT_DEFAULTS, name)
          ? IMPLICIT_DEFAULTS[name]
          : undefined;
        if (fallback === undefined) break;
        found.set(name, fallback ?? undefined);
        firstOptional -= 1;
      }
      if (found.size > 0) optional = new FrozenMap(found);
    }
    const segments: Segment[] = [];
    for (let i = 0; i < raw.length; i++) {
      segments.push({ parts: raw[i], optional: i >= firstOptional });
    }
    const optionalParts = raw.slice(firstOptional);
    this.optionalRulesDiffer = optionalParts.length > 1 &&
      new Set(optionalParts.map((parts) => "variable" in parts[0] ? ruleSource(parts[0]) : ""))
          .size > 1;
    // Two boundaries are refused: the cube of a segment's length is too much even within
    // the limits. One is allowed, but makes the router bound the length of segments.
    let backtracks = false;
    for (const requirement of compiled.values()) backtracks ||= requirement.loops > 1;
    const wholePath = this.optionalRulesDiffer;
    for (const segment of segments) {
      const { parts } = segment;
      const ambiguous = ambiguousBoundaries(parts, { wholePath });
      if (ambiguous.length > 1) {
        throw new TypeError(
          `The route path "${this.path}" lets ${ambiguous.join(" and ")} take the literal ` +
            `text that separates them from the next variable, so a segment could be split in ` +
            `too many ways to match quickly; make their requirements exclude the separators`,
        );
      }
      if (ambiguous.length > 0) backtracks = true;
      // Where a RegExp matches more than one variable's text, the ways each requirement
      // can share its text multiply (two loops before a "-" can end at it in n ways, and
      // each tries the next variable's again): the same limit as for one requirement.
      if (!wholePath && parts.length > 1 && hasRequirement(parts)) {
        checkWays(
          segmentSource(segment, { capture: false }),
          `segment "${parts.map(partText).join("")}" of the route path "${this.path}"`,
          options,
        );
      }
    }
    // Each optional segment as a choice of its own (present or not): the RegExp may give a
    // path's segments to any of them, 2^k ways for k.
    if (wholePath) {
      checkWays(pathSource(segments, { capture: false }), `route path "${this.path}"`, options);
    }
    this.backtracks = backtracks;
    this.segments = segments;
    this.variables = [...variables];
    this.optional = optional;
    this.constants = this.defaults === EMPTY_RECORD ? NO_CONSTANTS : Object.freeze(
      Object.entries(spec.defaults).filter(([key]) => !variables.has(key)).map((pair) =>
        Object.freeze(pair) as readonly [string, string]
      ),
    );
    // Readonly in fact, not only in its type: the table is shared by every request. (What is
    // built on first use sits in private fields, which freezing leaves writable.) Not the
    // objects of each segment, which are read-only by type only: freezing them added a
    // quarter to the instructions of a draw.
    Object.freeze(this.segments);
    Object.freeze(this.variables);
    Object.freeze(this);
  }

  /** Whether the method condition admits `method` (upper case; `HEAD` already `GET`). */
  accepts(method: string): boolean {
    return this.method === "ANY" || this.method === method;
  }

  /**
   * The regular-expression source of the whole path, one capture group per variable,
   * an optional trailing `/`; shared by the matchers.
   */
  get source(): string {
    return this.#source ??= pathSource(this.segments, { capture: true });
  }

  /**
   * `^source$`, a copy of the one the matchers and generation run: a `RegExp` can be
   * changed (`compile`), and the route must not be.
   */
  get regex(): RegExp {
    return new RegExp(regexOf(this));
  }

  /**
   * A `URLPattern` whose pathname is equivalent to the path and its requirements,
   * built on first access (building one costs about half a millisecond).
   */
  get pattern(): URLPattern {
    if (this.#pattern !== undefined) return this.#pattern;
    const pathname = this.#patternPathname();
    try {
      return this.#pattern = new (urlPatternClass())({ pathname });
    } catch (error) {
      // The runtime's URLPattern compiles its groups with a regular-expression engine of
      // its own, narrower than JavaScript's (Deno's refuses a lone surrogate, or a count
      // such as {400000}): the route still recognises and generates as declared.
      throw new TypeError(
        `The URLPattern of the route "${this.path}" cannot be built: the runtime's ` +
          `URLPattern refuses "${pathname}" (${error instanceof Error ? error.message : error}); ` +
          `the route recognises and generates as declared without it`,
        { cause: error },
      );
    }
  }

  /** The pathname pattern string of {@linkcode Route.pattern}. */
  #patternPathname(): string {
    return this.segments.map((segment) => {
      const parts = segment.parts.map((part) =>
        "literal" in part
          ? part.literal.replace(/[\\:*(){}?+]/g, "\\$&")
          : `:${part.variable}(${part.requirement?.source ?? DEFAULT_VARIABLE_SOURCE})` +
            (segment.optional ? "?" : "")
      );
      // URLPattern canonicalises its fixed text as a path: `/x/.` before `:id` (of `/x/.:id`)
      // would be a dot segment, and removed. In a group with the variable, the dots are the
      // group's prefix, which it canonicalises alone, and keeps.
      if (/^\.\.?$/.test(parts[0]) && parts.length > 1) {
        parts.splice(0, 2, `{${parts[0]}${parts[1]}}`);
      }
      return "/" + parts.join("");
    }).join("") + "{/}?";
  }

  /** `controller#action`, with `:controller`/`:action` when the path supplies them. */
  get target(): string {
    return `${this.controller ?? ":controller"}#${this.action ?? ":action"}`;
  }
}

/**
 * The internalized copy of a string: V8 stores a property under an internalized key
 * without first looking the key up in its string table, which it does on every store
 * for the keys a template parse produced.
 */
function intern(key: string): string {
  let interned = INTERNED.get(key);
  if (interned === undefined) {
    if (INTERNED.size === MAX_INTERNED) INTERNED.clear();
    interned = Object.keys({ [key]: 0 })[0];
    INTERNED.set(interned, interned);
  }
  return interned;
}

/**
 * The keys `intern` made, by their text: most routes' keys are a few names (`id`,
 * `format`), and making one again (an object with a computed key, in V8's runtime) cost
 * more than the rest of a route's plan. Emptied when full, so that a process drawing
 * ever new names keeps no more than this.
 */
const INTERNED = new Map<string, string>();
const MAX_INTERNED = 1024;

function paramsPlan(route: Route): ParamsPlan {
  const plan: (string | number | undefined)[] = [0, 0, 0, START_EMPTY];
  if (route.controller !== null) plan.push("controller", route.controller);
  if (route.action !== null) plan.push("action", route.action);
  plan[PLAN_VARIABLES_AT] = plan.length;
  for (const name of route.variables) plan.push(intern(name), route.optional.get(name));
  plan[PLAN_CONSTANTS_AT] = plan.length;
  // A constant never names a variable (see `constants`); controller and action win.
  for (const [key, value] of route.constants) {
    const taken = (key === "controller" && route.controller !== null) ||
      (key === "action" && route.action !== null);
    if (!taken) plan.push(intern(key), value);
  }
  plan[PLAN_LENGTH] = plan.length;
  // A template with exactly the keys params will have, where none can be left out; else,
  // for the most keys params can have, one that holds the first two, set first.
  const exact = exactStart(plan);
  const keys = (plan.length - PLAN_PAIRS) / 2;
  if (exact !== undefined && [...route.optional.values()].every((value) => value !== undefined)) {
    plan[PLAN_START] = exact;
  } else if (route.controller !== null && route.action !== null && keys > 3) {
    plan[PLAN_START] = keys <= 5 ? START_FOR_5 : keys <= 11 ? START_FOR_11 : START_EMPTY;
  }
  return plan;
}

/**
 * Room in a params literal: a spread of `null` adds no key, but V8 sizes the literal's
 * dictionary for every property the literal names, spreads included (see `newParams`).
 */
const ROOM: object | null = null;

/**
 * A null-prototype object for params, sized for the keys to come. `Object.create(null)`
 * gives V8's dictionary room for 3 keys, and V8 grows it at the 4th and the 6th through
 * a call into its runtime (about 90 ns each). A null-prototype literal whose values are
 * constants is a copy of a dictionary made once, sized for every property the literal
 * names, spreads included: one with `controller` and `action` (which the plan sets first,
 * in that order) and two spreads of `null` (`ROOM`, which add no key) has room for 5
 * keys, one with four spreads for 11. (Placeholder keys deleted at once made the room
 * before, but each delete cost more than a spread, and V8 counts deleted entries against
 * the room left: about 4 % of a request that routes on the bench mix, counted in
 * instructions.) The commonest sets of keys (a resource member's and a `.:format`
 * twin's) start from a literal with exactly those keys, which the plan's stores then only
 * update: for `controller`, `action`, `id` and `format`, about a third of the work of the
 * sized start.
 */
function newParams(start: number): Record<string, string> {
  switch (start) {
    case START_EMPTY:
      return Object.create(null);
    case START_ID:
      return { __proto__: null, controller: "", action: "", id: "" } as never;
    case START_FORMAT:
      return { __proto__: null, controller: "", action: "", format: "" } as never;
    case START_ID_FORMAT:
      return { __proto__: null, controller: "", action: "", id: "", format: "" } as never;
  }
  return start === START_FOR_5
    ? { __proto__: null, controller: "", action: "", ...ROOM, ...ROOM } as never
    : { __proto__: null, controller: "", action: "", ...ROOM, ...ROOM, ...ROOM, ...ROOM } as never;
}

/**
 * The values of a match, by variable, as {@linkcode paramsFrom} reads them: value `i` is
 * `path.slice(from[i], to[i])`, or `texts[i]` where `from` is `null` or `from[i]` is
 * negative (`undefined` for a variable left out). A matcher keeps one and fills it per
 * request, so that params need no array of sliced values first.
 */
export interface MatchValues {
  /** The path the ranges are in. */
  path: string;
  /** Where each value starts in `path`; `null` when every value is in `texts`. */
  from: readonly number[] | null;
  /** Where each value ends in `path`. */
  to: readonly number[];
  /** The values that are not ranges of `path`. */
  texts: readonly (string | undefined)[];
}

const NO_RANGES: readonly number[] = Object.freeze([]);

/** Options of {@linkcode paramsOf}. */
export interface ParamsOptions {
  /** Whether the path holds a `%`: the values are percent-decoded (a `URIError` if not). */
  readonly encoded?: boolean;
}

/**
 * The params of a match of `route` (API.md `Params`, a null-prototype object):
 * controller, action, the variables (percent-decoded when `encoded`; a left-out optional
 * one takes its default, or stays absent), constant defaults.
 */
export function paramsOf(
  route: Route,
  values: readonly (string | undefined)[],
  { encoded = false }: ParamsOptions = {},
): Record<string, string> {
  const texts = encoded
    ? values.map((raw) => raw?.includes("%") ? decodeURIComponent(raw) : raw)
    : values;
  return paramsFrom(planOf(route), 0, { path: "", from: null, to: NO_RANGES, texts });
}

/**
 * How a match of `route` becomes params, as a flat array for a matcher to copy into its
 * own data (see {@linkcode paramsFrom}).
 */
export function paramsPlanOf(route: Route): ParamsPlan {
  return planOf(route);
}

/** The `RegExp` of a route's path (`^source$`) that the matchers and generation run. */
export function pathRegexOf(route: Route): RegExp {
  return regexOf(route);
}

/**
 * {@linkcode paramsOf} for values that need no decoding, from a copy of the route's plan
 * (see {@linkcode paramsPlanOf}) at `data[at]`: a matcher that keeps the plan beside its
 * own data for the route builds params without reading the route's memory. (Three
 * positional parameters: it runs for every request, and an options object would be one
 * more allocation for each; the matcher reuses one `values` object for all of them.)
 */
export function paramsFrom(
  data: readonly unknown[],
  at: number,
  values: MatchValues,
): Record<string, string> {
  const variablesAt = at + (data[at + PLAN_VARIABLES_AT] as number);
  const constantsAt = at + (data[at + PLAN_CONSTANTS_AT] as number);
  const end = at + (data[at + PLAN_LENGTH] as number);
  const { path, from, to, texts } = values;
  const params = newParams(data[at + PLAN_START] as number);
  let i = at + PLAN_PAIRS;
  for (; i < variablesAt; i += 2) params[data[i] as string] = data[i + 1] as string;
  for (let value = 0; i < constantsAt; i += 2, value++) {
    const raw = from === null || from[value] < 0
      ? texts[value]
      : path.slice(from[value], to[value]);
    if (raw !== undefined) {
      params[data[i] as string] = raw;
    } else if (data[i + 1] !== undefined) {
      params[data[i] as string] = data[i + 1] as string;
    }
  }
  for (; i < end; i += 2) params[data[i] as string] = data[i + 1] as string;
  return params;
}

/**
 * The regular-expression source of one segment's text (no `/`), one capture group per
 * variable. Segments never match a `/`, so a path matches a route exactly when each of
 * its segments matches the route's segment in the same place.
 */
export function segmentSource(segment: Segment, { capture = true } = {}): string {
  const open = capture ? "(" : "(?:";
  return segment.parts.map((part) =>
    "literal" in part
      ? escapeRegExp(part.literal)
      : `${open}${part.requirement ? `(?:${part.requirement.source})` : DEFAULT_VARIABLE_SOURCE})`
  ).join("");
}

/** The length of a segment's text when each of its variables is `variable` characters long. */
export function segmentLength(segment: Segment, variable: number): number {
  let length = 0;
  for (const part of segment.parts) length += "literal" in part ? part.literal.length : variable;
  return length;
}

/**
 * The regular-expression source of a whole path: its segments, an optional trailing `/`.
 * Without `capture` (for `checkWays`), an optional segment is written as the choice it is,
 * `(?:\/...|)`, which `checkWays` counts as one.
 */
function pathSource(segments: readonly Segment[], { capture }: { capture: boolean }): string {
  return segments.map((segment) => {
    const body = "\\/" + segmentSource(segment, { capture });
    if (!segment.optional) return body;
    return capture ? `(?:${body})?` : `(?:${body}|)`;
  }).join("") + "\\/?";
}

/**
 * Whether a segment has a variable with a requirement of its own: the matchers then match
 * it with its `RegExp`.
 */
function hasRequirement(parts: readonly Part[]): boolean {
  return parts.some((part) => "variable" in part && !followsDefaultRule(part.requirement));
}

/** A part as the template writes it. */
function partText(part: Part): string {
  return "literal" in part ? part.literal : `:${part.variable}`;
}

/** A variable's rule, to compare rules: `""` for the default rule, else the source. */
function ruleSource({ requirement }: { requirement: Requirement | null }): string {
  return followsDefaultRule(requirement) ? "" : requirement!.source;
}

/**
 * The variables of a segment, matched by a `RegExp`, after which the text could be split
 * in several ways that multiply: each sits before literal text whose first character it
 * admits, with another variable after that text (`:name.:ext` with a name that may hold
 * dots). A failing match tries every place for each such boundary: the square of the
 * segment's length for one, the cube for two. Unless a later boundary is fenced off from
 * the one before: where no part between them (its variable included) can take that one's
 * first character (`:name-:version.:format` with a version of digits and dots), the texts
 * the later variable can take after two places of the earlier boundary do not overlap,
 * and the two boundaries together have about as many ways as one. Empty where the
 * compiled matcher matches the segment without a `RegExp`: it finds the split of a
 * segment whose variables all follow the default rule (`:a-:b-:c`) in linear time, so
 * those count only in a route it matches with its whole-path `RegExp` (`wholePath`).
 */
function ambiguousBoundaries(
  parts: readonly Part[],
  { wholePath }: { wholePath: boolean },
): string[] {
  const ambiguous: string[] = [];
  if (!wholePath && !hasRequirement(parts)) return ambiguous;
  // The first character of the literal after the last ambiguous variable, while no part
  // from the one after that literal on can take it.
  let fence: string | undefined;
  let from = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (fence !== undefined && i >= from && takes(part, fence)) fence = undefined;
    if (i + 2 >= parts.length) break;
    const text = parts[i + 1];
    if (!("variable" in part) || !("literal" in text) || !("variable" in parts[i + 2])) continue;
    const first = text.literal[0];
    if (!takes(part, first)) continue;
    if (fence === undefined) ambiguous.push(`:${part.variable}`);
    fence = first;
    from = i + 2;
  }
  return ambiguous;
}

/** Whether a part's text can hold `char`: a literal's does, or a variable's may. */
function takes(part: Part, char: string): boolean {
  if ("literal" in part) return part.literal.includes(char);
  return part.requirement === null ? !SEPARATORS.includes(char) : part.requirement.admits(char);
}

/**
 * Adds a missing leading `/` and drops a trailing one. Not one of two: `/a//` ends in an
 * empty segment, which the parser refuses (dropped once per call, and a path can pass
 * through three calls, `/a///` became `/a` and `/a////` an error about `/a/`).
 */
export function normalizeTemplate(path: string): string {
  let out = path.startsWith("/") ? path : "/" + path;
  if (out.length > 1 && out.endsWith("/") && !out.endsWith("//")) out = out.slice(0, -1);
  return out;
}

/**
 * Parses a normalized template into its segments' parts, adding the variables' names
 * to `variables` in path order. One pass over the characters; the first problem in
 * the text is the one reported.
 */
function parseTemplate(
  path: string,
  requirements: ReadonlyMap<string, Requirement>,
  variables: Set<string>,
): Part[][] {
  const segments: Part[][] = [];
  if (path === "/") return segments;
  const length = path.length;
  let parts: Part[] = [];
  let start = 1; // where the current run of literal text began
  for (let i = 1;;) {
    const code = i < length ? path.charCodeAt(i) : 47;
    if (code === 47 || code === 58) {
      if (i > start) parts.push({ literal: path.slice(start, i) });
    }
    if (code === 47) {
      if (parts.length === 0) throw new TypeError(`The route path "${path}" has an empty segment`);
      const only = parts.length === 1 && "literal" in parts[0] ? parts[0].literal : "";
      if (only === "." || only === "..") {
        throw new TypeError(
          `The route path "${path}" has the segment "${only}", which URL parsers resolve away: ` +
            `no request could reach the route`,
        );
      }
      segments.push(parts);
      if (i >= length) return segments;
      parts = [];
      start = ++i;
    } else if (code === 58) {
      let end = i + 1;
      if (end < length && CHAR_CLASS[path.charCodeAt(end)] === 2 && !isDigit(path, end)) {
        while (++end < length && CHAR_CLASS[path.charCodeAt(end)] === 2);
      }
      if (end === i + 1) {
        throw new TypeError(
          `The route path "${path}" has a ":" not followed by a variable name (a letter or "_" first)`,
        );
      }
      const name = path.slice(i + 1, end);
      if (variables.has(name)) {
        throw new TypeError(`The route path "${path}" names the variable :${name} twice`);
      }
      const previous = parts[parts.length - 1];
      if (previous !== undefined && "variable" in previous) {
        throw new TypeError(
          `The route path "${path}" puts :${previous.variable} and :${name} side by side; ` +
            `separate variables with literal text`,
        );
      }
      // A name runs up to the first character that is not a word character, so only the
      // text before a variable can hold one for a `\b` to look at.
      const requirement = requirements.get(name) ?? null;
      if (
        requirement?.boundaries && previous !== undefined && /\w$/.test(previous.literal)
      ) {
        throw new TypeError(
          `The requirement for :${name} in "${path}" (${requirement.original}) asserts a word ` +
            `boundary, which would look at the "${previous.literal.at(-1)}" before the ` +
            `variable, not at the start of its value: drop the \\b or \\B, or put a character ` +
            `other than a letter, digit or "_" before :${name}`,
        );
      }
      variables.add(name);
      parts.push({ variable: name, requirement });
      start = i = end;
    } else if (code < 128 && CHAR_CLASS[code] !== 0) {
      i++;
    } else {
      const bad = String.fromCodePoint(path.codePointAt(i)!);
      throw new TypeError(
        `The route path "${path}" has the character ${
          JSON.stringify(bad)
        }, which URLs do not keep as it is; use only letters, digits and ` +
          [...LITERAL_PUNCTUATION].join(" "),
      );
    }
  }
}

function isDigit(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return code >= 48 && code <= 57;
}

/**
 * Refuses a spec of the wrong shape: the mapper makes well-formed ones, but `Route` is
 * exported, and its constructor builds nothing it cannot represent.
 */
function checkSpec(spec: RouteSpec): void {
  if (typeof spec !== "object" || spec === null) {
    throw new TypeError(`A route spec must be an object, got ${describe(spec)}`);
  }
  // Spelled out, field by field: loops over arrays of keys, and a closure for the error,
  // made this check cost about 2 % of a draw.
  const { name, method, path, controller, action, requirements, defaults } = spec;
  if (name !== null && typeof name !== "string") wrongSpec("name must be a string or null", name);
  if (method !== "ANY" && !(ROUTE_METHODS as readonly string[]).includes(method)) {
    wrongSpec(`method must be one of ${ROUTE_METHODS.join(", ")} or ANY`, method);
  }
  if (typeof path !== "string") wrongSpec("path must be a string", path);
  if (controller !== null && typeof controller !== "string") {
    wrongSpec("controller must be a string or null", controller);
  }
  if (action !== null && typeof action !== "string") {
    wrongSpec("action must be a string or null", action);
  }
  if (typeof requirements !== "object" || requirements === null) {
    wrongSpec("requirements must be an object", requirements);
  }
  if (typeof defaults !== "object" || defaults === null) {
    wrongSpec("defaults must be an object", defaults);
  }
}

/** Throws the `TypeError` of a route spec whose field is not `what` it must be. */
function wrongSpec(what: string, value: unknown): never {
  throw new TypeError(`A route spec's ${what}, got ${describe(value)}`);
}

/** A frozen copy of a record; one shared frozen empty object for every empty one. */
function frozenCopy<T>(record: Readonly<Record<string, T>>): Readonly<Record<string, T>> {
  for (const _ in record) return Object.freeze({ ...record });
  return EMPTY_RECORD;
}

/** The requirements compiled, by variable name (see `compiledRequirementCache`). */
function compileRequirements(
  requirements: Readonly<Record<string, RegExp>>,
  path: string,
  options: WaysOptions,
): ReadonlyMap<string, Requirement> {
  // The longest a variable can be, as the path limits count it: never less than the default.
  const longest = Math.max(options.longest ?? 0, LONGEST_DEFAULT);
  let compiled: Map<string, Requirement> | undefined;
  // The RegExp of a segment, or of the whole path, holds every requirement in it.
  let length = 0;
  for (const name in requirements) {
    if (!Object.hasOwn(requirements, name)) continue;
    const value = requirements[name];
    let known = value instanceof RegExp ? compiledRequirementCache.get(value) : undefined;
    if (
      known === undefined || (known.longest !== longest && known.longest !== Infinity) ||
      !unchangedSince(value, known.requirement.original)
    ) {
      known = {
        requirement: compileRequirement(value, { ...options, name, where: path }),
        longest,
      };
      compiledRequirementCache.set(value, known);
    }
    const { minLength } = known.requirement;
    if (minLength > longest) {
      throw new TypeError(
        `The requirement for :${name} in "${clipped(path)}" (${value}) matches no text ` +
          `shorter than ${minLength} characters, longer than the router lets a variable be ` +
          `(${longest}): every path it matched would get a 414`,
      );
    }
    (compiled ??= new Map()).set(name, known.requirement);
    length += known.requirement.original.source.length;
    if (length > 2 * MAX_REQUIREMENT_LENGTH) {
      throw new TypeError(
        `The requirements of "${clipped(path)}" are more than ${2 * MAX_REQUIREMENT_LENGTH} ` +
          `characters long together; a RegExp of the route's path could not hold them`,
      );
    }
  }
  return compiled === undefined ? NO_REQUIREMENTS : new FrozenMap(compiled);
}

/**
 * The `:variable`s of a template in order, each with where its name ends, read as the
 * parser reads them (a name runs to the first character that is not a letter, digit or
 * `_`); for checks made on a template before it becomes a `Route`.
 */
export function templateVariables(template: string): { name: string; end: number }[] {
  return Array.from(
    template.matchAll(TEMPLATE_VARIABLE),
    (match) => ({ name: match[1], end: match.index + match[0].length }),
  );
}

/** Whether `name` is an identifier as API.md defines it. */
export function isIdentifier(name: unknown): name is string {
  return typeof name === "string" && IDENTIFIER.test(name);
}
