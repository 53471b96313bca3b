/**
 * Generation: paths from routes and values, the named-route helpers, and `urlFor`.
 * @module
 */

import { describe, thrownText } from "./describe.ts";
import { RoutingError } from "./errors.ts";
import { isPlainObject } from "./mapper.ts";
import type { Requirement } from "./requirement.ts";
import { followsDefaultRule, pathRegexOf, type Route } from "./route.ts";
import type { Helpers, UrlOptions } from "./types.ts";

/** What generation needs of the router. */
export interface GenerationTable {
  /** The routes, in registration order. */
  readonly routes: readonly Route[];
  /** Real named routes. */
  readonly namedRoutes: ReadonlyMap<string, Route>;
  /** Deprecated name to current name. */
  readonly deprecatedNames: ReadonlyMap<string, string>;
}

/** Where generated paths are mounted. */
export interface Mount {
  /** The mount path of `baseUrl`, without a trailing `/`; `""` when none. */
  readonly path: string;
  /** The origin for `*_url`, or `null` when there is none. */
  readonly origin: string | null;
  /**
   * The router's `maxParamLength`: a longer value makes a link the router answers with a
   * 414, and testing a requirement of two loops on it would take the square of its length.
   */
  readonly maxParamLength: number;
  /** The router's `maxPathLength` and `maxSegments`: a longer path is answered with a 414. */
  readonly maxPathLength: number;
  /** See `maxPathLength`. */
  readonly maxSegments: number;
}

/** How one call generates: where values left out come from, and the router's limits. */
interface Context extends Pick<Mount, "maxParamLength" | "maxPathLength" | "maxSegments"> {
  readonly recall?: HelperOptions["recall"];
}

/** Options of {@linkcode createHelpers}. */
export interface HelperOptions {
  /** Called with a message on each use of a deprecated helper. */
  onDeprecation(message: string): void;
  /** Supplies a value left out of a call (the recall of request-bound helpers). */
  recall?: (route: Route, variable: string) => string | undefined;
}

type Values = ReadonlyMap<string, unknown>;

function generationError(route: Route, message: string): RoutingError {
  const label = route.name === null ? `the route "${route.path}"` : `the route "${route.name}"`;
  return new RoutingError(`Cannot generate ${label}: ${message}`, {
    status: 500,
    method: "",
    path: route.path,
  });
}

/**
 * The text of a value: a string, a number (a `bigint` too: database ids often are), or an
 * object with `toParam()` or `id`. Returns `undefined` for `null`/`undefined` and
 * `{ invalid }` (what is wrong) for anything else. A boolean is no path value
 * (`message_path(true)` is a bug, not `/messages/true`); `queryString` takes it, as
 * `URLSearchParams` does.
 */
function textOf(value: unknown): string | undefined | { invalid: string } {
  if (value === undefined || value === null) return undefined;
  switch (typeof value) {
    case "string":
      return value;
    case "number":
      return Number.isFinite(value) ? String(value) : { invalid: String(value) };
    case "bigint":
      return String(value);
    case "object": {
      const toParam = propertyOf(value, "toParam");
      if (toParam === UNREADABLE) return UNREADABLE_VALUE;
      if (typeof toParam === "function") {
        let text: unknown;
        try {
          text = toParam.call(value);
        } catch (error) {
          return { invalid: `a toParam() that threw ${thrownText(error)}` };
        }
        // Through textOf, so that a number from toParam() is held to the same rule.
        return typeof text === "string" || typeof text === "number"
          ? textOf(text)
          : { invalid: "a toParam() that returned neither a string nor a number" };
      }
      const id = propertyOf(value, "id");
      if (id === UNREADABLE) return UNREADABLE_VALUE;
      if (id !== undefined && id !== null && typeof id !== "object") return textOf(id);
      return { invalid: "an object without toParam() or id" };
    }
    default:
      return { invalid: `a ${typeof value}` };
  }
}

/** What {@linkcode propertyOf} gives where reading throws. */
const UNREADABLE = Symbol("unreadable");
const UNREADABLE_VALUE = {
  invalid: "an object that cannot be read (a revoked Proxy, a getter that throws)",
};

/** A property of a caller's object, or `UNREADABLE` where reading it throws. */
function propertyOf(value: object, key: "toParam" | "id"): unknown {
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return UNREADABLE;
  }
}

/**
 * Why a default that the route's path must hold (one beside text in its segment, as
 * `/feed.:format`, or before a required segment) cannot be written there, or `undefined`.
 * Such a default, breaking its requirement say, serves no request and fails every helper
 * call that leaves its value out. A default of the optional trailing run is the value of a
 * path without that segment, so it need not meet the requirement.
 */
export function unwritableDefault(route: Route, maxParamLength: number): string | undefined {
  for (const { parts, optional } of route.segments) {
    if (optional) continue;
    for (const part of parts) {
      if (!("variable" in part) || !Object.hasOwn(route.defaults, part.variable)) continue;
      const name = part.variable;
      const text = variableText(route, { name, value: route.defaults[name], maxParamLength });
      if (typeof text !== "string") return text.reason;
    }
  }
  return undefined;
}

/** Percent-encodes a path value: `encodeURIComponent`, and `.` as `%2E`. */
function encodePathValue(text: string): string {
  return encodeURIComponent(text).replaceAll(".", "%2E");
}

/**
 * The encoded text of variable `name`, or a reason it cannot be generated. A value
 * breaking the requirement with `%2E` but meeting it with raw `.`s is written raw.
 */
function variableText(
  route: Route,
  { name, value, maxParamLength }: { name: string; value: unknown; maxParamLength: number },
): string | { reason: string } {
  const text = textOf(value);
  if (text === undefined || text === "") return { reason: `missing value for :${name}` };
  if (typeof text !== "string") return { reason: `invalid value for :${name} (${text.invalid})` };
  if (text === "." || text === "..") {
    return { reason: `the value "${text}" for :${name} is a dot segment, which URLs resolve away` };
  }
  // Encoding never shortens a text: one over the limit as it is need not be encoded, nor
  // tested against a requirement, whose loops could take time in its square.
  const overLimit = (length: number, how: string) => ({
    reason: `the value for :${name} is ${length} characters long${how}, ` +
      `over the router's maxParamLength (${maxParamLength}): the link would be answered with a 414`,
  });
  if (text.length > maxParamLength) return overLimit(text.length, "");
  let encoded = text;
  if (!isPlain(text)) {
    try {
      encoded = encodePathValue(text);
    } catch {
      return { reason: `the value for :${name} is not valid Unicode` };
    }
  }
  const guarded = guardedCharacters(route).get(name);
  const requirement = route.compiledRequirements.get(name);
  let chosen = guarded === undefined ? encoded : encodeCharacters(encoded, guarded);
  if (requirement !== undefined && !requirement.test(chosen)) {
    // A requirement that refuses the text fully encoded may take it without the guarded
    // characters encoded, or then with raw `.`s too (API.md).
    const fallback = [encoded, encoded.replaceAll("%2E", ".")].find((text) =>
      requirement.test(text)
    );
    if (fallback === undefined) {
      return {
        reason: `the value ${
          JSON.stringify(text)
        } for :${name} breaks its requirement ${requirement.original}`,
      };
    }
    chosen = fallback;
  }
  if (chosen.length > maxParamLength) return overLimit(chosen.length, " once encoded");
  return chosen;
}

/** Per route, what {@linkcode guardedCharacters} found. */
const guardsOf = new WeakMap<Route, ReadonlyMap<string, string>>();

/**
 * The characters to percent-encode in a variable's value besides those `encodePathValue`
 * does, by variable: in a segment of two or more variables (`:name-:version`), each one
 * after the first gets the punctuation of the text between them. The first variable takes
 * the longest text it can, so a later value holding that text (version `1.0-beta`) would
 * move the split; written `1%2E0%2Dbeta`, it recognises back as it was.
 */
function guardedCharacters(route: Route): ReadonlyMap<string, string> {
  const known = guardsOf.get(route);
  if (known !== undefined) return known;
  const guards = new Map<string, string>();
  for (const { parts } of route.segments) {
    const first = parts.findIndex((part) => "variable" in part);
    const last = parts.findLastIndex((part) => "variable" in part);
    let between = "";
    for (let i = first + 1; i < last; i++) {
      const part = parts[i];
      if ("literal" in part) between += part.literal;
    }
    // Text between two variables starts with a character that is not a letter, digit or
    // `_` (those would lengthen the name), and encoding that one breaks every copy of the
    // text: letters and digits, which percent-escapes are made of, stay as they are.
    const characters = [...new Set(between)].filter((c) => isPlain(c) && !/[a-z\d]/i.test(c))
      .join("");
    if (characters === "") continue;
    for (let i = first + 1; i <= last; i++) {
      const part = parts[i];
      if ("variable" in part) guards.set(part.variable, characters);
    }
  }
  guardsOf.set(route, guards);
  return guards;
}

/**
 * `text` with each of `characters` (ASCII punctuation, so never part of a `%XX` escape
 * already in `text`) percent-encoded.
 */
function encodeCharacters(text: string, characters: string): string {
  for (const character of characters) {
    const code = character.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0");
    text = text.replaceAll(character, `%${code}`);
  }
  return text;
}

/**
 * Fills the route's template from `values` (keyed by variable name). Optional trailing
 * variables that are absent or equal to their defaults are left out; any other variable
 * with a default takes it when it has no value. Returns the path or the reason it cannot
 * be built.
 */
function fillTemplate(
  route: Route,
  values: Pick<Values, "get">,
  { recall, maxParamLength, maxPathLength, maxSegments }: Context,
): string | { reason: string } {
  const valueOf = (name: string) => values.get(name) ?? recall?.(route, name);
  let last = route.segments.length - 1;
  while (last >= 0 && route.segments[last].optional) {
    const part = route.segments[last].parts[0] as { variable: string };
    const value = textOf(valueOf(part.variable));
    if (value !== undefined && value !== "" && value !== route.optional.get(part.variable)) break;
    last -= 1;
  }
  // Values cannot add segments (a "/" in one is encoded), but a table drawn under small
  // limits may hold routes over them.
  if (last + 1 > maxSegments) {
    return {
      reason: `the path has ${last + 1} segments, over the router's maxSegments ` +
        `(${maxSegments}): the link would be answered with a 414`,
    };
  }
  let path = "";
  // The texts written, in path order, and whether two of them share a segment.
  const written: string[] = [];
  let shared = false;
  for (let index = 0; index <= last; index++) {
    path += "/";
    let variables = 0;
    for (const part of route.segments[index].parts) {
      if ("literal" in part) {
        path += part.literal;
        continue;
      }
      if (++variables > 1) shared = true;
      let value = valueOf(part.variable);
      if (value === undefined || value === "") {
        // A default fills a missing value: an optional variable's, or the declared one of
        // a variable that shares its segment with text or comes before a required one
        // (`/feed.:format` with format "rss": `/feed.rss`), which the path must hold, or
        // the implicit "index" of `:action` (API.md), as `urlFor` takes it.
        value = route.optional.has(part.variable)
          ? route.optional.get(part.variable)
          : Object.hasOwn(route.defaults, part.variable)
          ? route.defaults[part.variable]
          : part.variable === "action"
          ? "index"
          : value;
      }
      const text = variableText(route, { name: part.variable, value, maxParamLength });
      if (typeof text !== "string") return text;
      written.push(text);
      path += text;
    }
  }
  if (shared) {
    const moved = movedValues(route, path, written);
    if (moved !== undefined) return moved;
  }
  if (path.length > maxPathLength) {
    return {
      reason: `the path is ${path.length} characters long, over the router's maxPathLength ` +
        `(${maxPathLength}): the link would be answered with a 414`,
    };
  }
  return path === "" ? "/" : path;
}

/**
 * Where two variables share a segment, the route's `RegExp` chooses the split: the first
 * variable takes the longest text it can, unless its requirement is lazy (`+?`) or an
 * earlier alternative takes less, and a later value written with raw separators (its
 * requirement refusing them encoded) can move the split. A path that would recognise back
 * with other values is refused; the `RegExp` answers as both matchers do.
 */
function movedValues(
  route: Route,
  path: string,
  written: readonly string[],
): { reason: string } | undefined {
  // Never null: the values written are a split the RegExp accepts.
  const match = pathRegexOf(route).exec(path) ?? [];
  const moved: string[] = [];
  for (let i = 0; i < written.length; i++) {
    if (match[i + 1] !== written[i]) {
      moved.push(`:${route.variables[i]} as ${JSON.stringify(match[i + 1] ?? null)}`);
    }
  }
  if (moved.length === 0) return undefined;
  return {
    reason: `the path ${path} would recognise back with ${moved.join(", ")}: a requirement ` +
      `of the variables that share a segment splits it elsewhere`,
  };
}

/**
 * The text of a query value: as {@linkcode textOf}, and a boolean as `URLSearchParams`
 * writes it.
 */
function queryTextOf(value: unknown): string | undefined | { invalid: string } {
  return typeof value === "boolean" ? String(value) : textOf(value);
}

/** An array index as `Object.keys` gives it (the indices come first, in order). */
const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

/** A query string (`?a=1&b=2`) from entries; arrays repeat their key; `%20` for spaces. */
function queryString(route: Route, entries: Iterable<[string, unknown]>): string {
  const pairs: string[] = [];
  const push = (key: string, value: unknown) => {
    const text = queryTextOf(value);
    if (text === undefined) return;
    if (typeof text !== "string") {
      throw generationError(route, `invalid query value for "${key}" (${text.invalid})`);
    }
    let encodedKey: string;
    try {
      encodedKey = encodeURIComponent(key);
    } catch {
      throw generationError(route, `the query key ${describe(key)} is not valid Unicode`);
    }
    try {
      pairs.push(`${encodedKey}=${encodeURIComponent(text)}`);
    } catch {
      throw generationError(route, `the query value for "${key}" is not valid Unicode`);
    }
  };
  for (const [key, value] of entries) {
    if (!isList(value)) {
      push(key, value);
      continue;
    }
    try {
      // By its own indices, not `for...of`: a sparse array (`a[4e9] = 1`) would take time
      // in its length, each hole an `undefined` that adds nothing.
      for (const index of Object.keys(value)) {
        if (ARRAY_INDEX.test(index)) push(key, value[index as unknown as number]);
      }
    } catch (error) {
      if (error instanceof RoutingError) throw error;
      // An array (a Proxy of one) whose elements or keys throw.
      throw generationError(
        route,
        `the query value for "${key}" cannot be read (${thrownText(error)})`,
      );
    }
  }
  return pairs.length === 0 ? "" : `?${pairs.join("&")}`;
}

/** Generates `route`'s path (no mount) with a query string for the keys it does not use. */
function generate(route: Route, values: Values, context: Context): string {
  const path = fillTemplate(route, values, context);
  if (typeof path !== "string") throw generationError(route, path.reason);
  let extras: [string, unknown][] | undefined;
  for (const entry of values) {
    if (!route.variables.includes(entry[0])) (extras ??= []).push(entry);
  }
  return extras === undefined ? path : path + queryString(route, extras);
}

/** Whether a helper's last argument is the named-values object rather than a value. */
function isNamedValues(value: unknown): value is Record<string, unknown> {
  try {
    return isPlainObject(value) && typeof value.toParam !== "function";
  } catch {
    // A revoked Proxy: a value, which textOf then reports.
    return false;
  }
}

/** `Array.isArray`, false for a revoked Proxy (where it throws). */
function isList(value: unknown): value is readonly unknown[] {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}

/**
 * Assigns a helper's arguments to names: positional values fill the rightmost
 * variables the named-values object does not name; the object's other keys follow.
 */
function helperValues(route: Route, args: readonly unknown[]): Map<string, unknown> {
  // The named-values object followed by undefineds only (a wrapper passing an optional
  // argument along) is still the named-values object: `list_path({ page: 2 }, undefined)`.
  let end = args.length;
  while (end > 0 && args[end - 1] === undefined) end--;
  const last = isNamedValues(args[end - 1]) ? args[end - 1] as Record<string, unknown> : null;
  const named: [string, unknown][] = [];
  let positional = last === null ? args.length : end - 1;
  if (last !== null) {
    let key: string | undefined;
    try {
      // Own enumerable keys, as Object.entries gives them, without its array of arrays.
      for (key in last) {
        if (!Object.hasOwn(last, key)) continue;
        const value = last[key];
        if (value !== undefined && value !== null) named.push([key, value]);
      }
    } catch (error) {
      const what = key === undefined ? "its keys" : `its key "${key}"`;
      throw generationError(
        route,
        `the named-values object cannot be read (${what}: ${thrownText(error)})`,
      );
    }
  }
  const unnamed = named.length === 0
    ? route.variables
    : route.variables.filter((name) => !named.some(([key]) => key === name));
  // A trailing undefined is no value, as an undefined key of the object names nothing (a
  // caller passing an optional argument along): `messages_path(undefined)` is `/messages`.
  while (positional > unnamed.length && args[positional - 1] === undefined) positional--;
  if (positional > unnamed.length) {
    throw generationError(
      route,
      `${positional} positional values given, but only ${unnamed.length} variable(s) ` +
        `are left to fill (${unnamed.map((name) => ":" + name).join(", ") || "none"})`,
    );
  }
  const values = new Map<string, unknown>();
  for (let i = 0, target = unnamed.length - positional; i < positional; i++, target++) {
    values.set(unnamed[target], args[i]);
  }
  for (const [key, value] of named) values.set(key, value);
  return values;
}

/**
 * A route's template cut at its variables, for helper calls that need none of the
 * general machinery: `chunks[0] + value0 + chunks[1] + value1 + ...`.
 */
interface QuickPlan {
  readonly chunks: readonly string[];
  /** Per variable, its requirement, or `undefined` when plain text always meets it. */
  readonly requirements: readonly (Requirement | undefined)[];
  /** The router's limits (see `Mount`). */
  readonly maxParamLength: number;
  /** See `maxParamLength`. */
  readonly maxPathLength: number;
}

/**
 * The quick plan of a route within the router's limits, or `null` when it has optional segments,
 * guarded characters, or more segments than `maxSegments` (they need the slow path).
 */
function quickPlanOf(
  route: Route,
  { maxParamLength, maxPathLength, maxSegments }: Context,
): QuickPlan | null {
  if (route.optional.size > 0 || guardedCharacters(route).size > 0) return null;
  if (route.segments.length > maxSegments) return null;
  const chunks = [""];
  const requirements: (Requirement | undefined)[] = [];
  for (const segment of route.segments) {
    chunks[chunks.length - 1] += "/";
    for (const part of segment.parts) {
      if ("literal" in part) {
        chunks[chunks.length - 1] += part.literal;
      } else {
        const { requirement } = part;
        requirements.push(followsDefaultRule(requirement) ? undefined : requirement!);
        chunks.push("");
      }
    }
  }
  if (chunks[0] === "") chunks[0] = "/";
  return { chunks, requirements, maxParamLength, maxPathLength };
}

/**
 * Whether `encodePathValue` leaves a text as it is: non-empty, and only characters that
 * `encodeURIComponent` keeps, `.` excepted (the dot segments are among the texts with a
 * `.`, so they take the general path too).
 */
function isPlain(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (
      !((code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) ||
        code === 45 || code === 95 || code === 126 || code === 33 || code === 42 ||
        code === 39 || code === 40 || code === 41)
    ) {
      return false;
    }
  }
  return true;
}

/**
 * The fast path of a helper call: every variable given positionally as a plain string,
 * a finite number or a record (an object with `toParam()` or `id`, as `message_path(message)`
 * passes one) whose text is plain and meets its requirement, and nothing else. Returns
 * `undefined` for anything else, which the general path then handles (and reports, when
 * wrong; a record's `toParam()` is then called again); for the calls it takes, the result
 * is the general path's.
 */
function quickPath(plan: QuickPlan | null, args: readonly unknown[]): string | undefined {
  if (plan === null || args.length !== plan.requirements.length) return undefined;
  const { chunks, requirements, maxParamLength } = plan;
  let path = chunks[0];
  for (let i = 0; i < args.length; i++) {
    const value = args[i];
    let text: string | undefined | { invalid: string };
    if (typeof value === "string") text = value;
    else if (typeof value === "number" && Number.isFinite(value)) text = String(value);
    else if (typeof value !== "object" || value === null) return undefined;
    // The last argument may be the named-values object, not a record.
    else if (i === args.length - 1 && isNamedValues(value)) return undefined;
    else text = textOf(value);
    if (typeof text !== "string" || text.length > maxParamLength || !isPlain(text)) {
      return undefined;
    }
    const requirement = requirements[i];
    if (requirement !== undefined && !requirement.test(text)) return undefined;
    path += text + chunks[i + 1];
  }
  return path.length > plan.maxPathLength ? undefined : path;
}

function originOf(route: Route, mount: Mount): string {
  if (mount.origin === null) {
    throw new Error(
      `Cannot build a URL for ${route.name ?? route.path}: set the router's baseUrl option ` +
        `(e.g. "https://example.com"), or use the *_path helper`,
    );
  }
  return mount.origin;
}

/**
 * The hash of `hash_for_X_*`: controller, action, use_route (`name`), only_path, then the
 * values; for request-bound helpers (given `recall`), then the path values the call leaves
 * out that `X_path` would recall, so that `urlFor` of the hash gives the same path.
 */
function hashFor(
  route: Route,
  values: Values,
  { name, onlyPath, recall }: { name: string; onlyPath: boolean } & Pick<Context, "recall">,
) {
  const hash: Record<string, unknown> = {};
  // The route's own controller and action; where its path names one, that variable's
  // default (a given or recalled value replaces it below), as the helper's path takes it:
  // without, `urlFor` would take a missing action for "index".
  for (const key of ["controller", "action"] as const) {
    const value = route[key] ?? (Object.hasOwn(route.defaults, key) ? route.defaults[key] : null);
    if (value !== null) hash[key] = value;
  }
  hash.use_route = name;
  hash.only_path = onlyPath;
  const put = (key: string, value: unknown) => {
    // Where Object.prototype keeps its __proto__ accessor (Node, Bun, Workers; Deno drops
    // it), assigning that key would replace the hash's prototype: it is defined instead.
    if (key === "__proto__") {
      Object.defineProperty(hash, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      hash[key] = value;
    }
  };
  for (const [key, value] of values) {
    // A value of null or undefined names nothing: it keeps a default put above.
    if (value != null || !Object.hasOwn(hash, key)) put(key, value);
  }
  if (recall !== undefined) {
    for (const variable of route.variables) {
      if (values.get(variable) != null) continue;
      const value = recall(route, variable);
      if (value !== undefined) put(variable, value);
    }
  }
  if (route.controller !== null && route.action !== null) return hash;
  // A path that names `:controller` or `:action` has it among the values, after use_route and
  // only_path: the two go back in front, where API.md writes them (defined, not assigned, for
  // the `__proto__` key above).
  const ordered: Record<string, unknown> = {};
  for (const key of ["controller", "action"]) if (Object.hasOwn(hash, key)) ordered[key] = 0;
  return Object.defineProperties(ordered, Object.getOwnPropertyDescriptors(hash));
}

/** One name's helpers: the name, the name they generate as, the route, a notice. */
export interface HelperEntry {
  /** The route name the helpers are named after (`message`, `formatted_message`). */
  readonly name: string;
  /** The name they generate as: `name` itself, or the current name of a deprecated one. */
  readonly current: string;
  /** The route they generate. */
  readonly route: Route;
  /** The deprecation message, for deprecated names. */
  readonly notice?: string;
}

/** What `onDeprecation` hears when a deprecated name is used. */
function deprecationNotice(old: string, current: string): string {
  return `The route name "${old}" is deprecated; use "${current}" (e.g. ${current}_path) instead`;
}

/**
 * Every helper name of a table: deprecated names a real route does not shadow, then real
 * ones. The helpers and the `.d.ts` of `deno task routes --dts` both take their names here.
 */
export function helperEntries(
  table: Pick<GenerationTable, "namedRoutes" | "deprecatedNames">,
): HelperEntry[] {
  const entries: HelperEntry[] = [];
  for (const [old, current] of table.deprecatedNames) {
    const route = table.namedRoutes.get(current);
    if (route === undefined || table.namedRoutes.has(old)) continue;
    entries.push({ name: old, current, route, notice: deprecationNotice(old, current) });
  }
  for (const [name, route] of table.namedRoutes) entries.push({ name, current: name, route });
  return entries;
}

/**
 * Puts the four helpers of `entry` on `target` as own properties: by assignment, or,
 * with `define`, by `Object.defineProperty` (needed where the prototype has getters of
 * the same names).
 */
function defineHelpers(
  target: Helpers,
  entry: HelperEntry,
  { mount, ...options }: HelperOptions & { mount: Mount; define?: boolean },
): void {
  const { name, current, route, notice } = entry;
  const wrap = <T>(body: (...args: unknown[]) => T) =>
    notice === undefined ? body : (...args: unknown[]) => {
      options.onDeprecation(notice);
      return body(...args);
    };
  let plan: QuickPlan | null | undefined;
  const { maxParamLength, maxPathLength, maxSegments } = mount;
  const context: Context = { recall: options.recall, maxParamLength, maxPathLength, maxSegments };
  const path = (args: unknown[]) =>
    mount.path +
    (quickPath(plan === undefined ? (plan = quickPlanOf(route, context)) : plan, args) ??
      generate(route, helperValues(route, args), context));
  const put = (key: string, value: Helpers[string]) => {
    if (options.define) {
      Object.defineProperty(target, key, { value, enumerable: true, configurable: true });
    } else {
      target[key] = value;
    }
  };
  put(`${name}_path`, wrap((...args) => path(args)));
  put(`${name}_url`, wrap((...args) => originOf(route, mount) + path(args)));
  const { recall } = options;
  put(
    `hash_for_${name}_path`,
    wrap((...args) =>
      hashFor(route, helperValues(route, args), { name: current, onlyPath: true, recall })
    ),
  );
  put(
    `hash_for_${name}_url`,
    wrap((...args) =>
      hashFor(route, helperValues(route, args), { name: current, onlyPath: false, recall })
    ),
  );
}

/**
 * Builds the helpers of a table: the four forms for every named route and every
 * deprecated name (whose helpers report to `onDeprecation`, then do the same).
 */
export function createHelpers(
  table: GenerationTable,
  mount: Mount,
  options: HelperOptions,
): Helpers {
  const helpers: Helpers = Object.create(null);
  for (const entry of helperEntries(table)) defineHelpers(helpers, entry, { ...options, mount });
  return helpers;
}

/** Builds request-bound helpers; see {@linkcode createHelperBinder}. */
export type HelperBinder = (mount: Mount, options: HelperOptions) => Helpers;

/**
 * Helpers bound per request at constant cost: each bound object only records its mount
 * and options; the helpers of a name are built on its first use, by getters on one
 * prototype shared by all requests (plain accessors, no Proxy), and then become own
 * properties. Destructuring (`const { message_path } = ctx.helpers`) works the same.
 */
export function createHelperBinder(table: GenerationTable): HelperBinder {
  // The bound objects are instances of a class whose prototype chain ends in the
  // getters' object, with the binding in a private field: making one costs about 10 ns,
  // where `Object.create` and a hidden property cost 200 ns a request.
  class Getters {
    [helper: string]: Helpers[string];
  }
  class Bound extends Getters {
    readonly #binding: [Mount, HelperOptions];
    constructor(mount: Mount, options: HelperOptions) {
      super();
      this.#binding = [mount, options];
    }
    static bindingOf(helpers: Bound): [Mount, HelperOptions] {
      return helpers.#binding;
    }
  }
  // Only helper names on the way from a bound object to `null`.
  Object.setPrototypeOf(Getters.prototype, null);
  for (const prototype of [Getters.prototype, Bound.prototype]) {
    delete (prototype as { constructor?: unknown }).constructor;
  }
  for (const entry of helperEntries(table)) {
    for (const key of [`${entry.name}_path`, `${entry.name}_url`]) {
      for (const helper of [key, `hash_for_${key}`]) {
        Object.defineProperty(Getters.prototype, helper, {
          enumerable: true,
          configurable: true,
          get(this: Bound) {
            const [mount, options] = Bound.bindingOf(this);
            defineHelpers(this, entry, { ...options, mount, define: true });
            return this[helper];
          },
        });
      }
    }
  }
  return (mount, options) => new Bound(mount, options);
}

const RESERVED = new Set(["controller", "action", "use_route", "only_path"]);

/** Routes by `controller#action`, with those whose path supplies either merged in. */
const candidateIndex = new WeakMap<
  readonly Route[],
  (controller: string, action: string) => readonly Route[]
>();

/**
 * The routes that can serve `controller#action`, in registration order: an index built
 * on first use per table, so `urlFor` looks at a handful of routes, not all of them.
 */
function candidates(routes: readonly Route[], controller: string, action: string) {
  let lookup = candidateIndex.get(routes);
  if (lookup === undefined) {
    const fixed = new Map<string, Route[]>();
    const open: Route[] = []; // routes whose path supplies the controller or the action
    for (const route of routes) {
      if (route.controller === null || route.action === null) {
        open.push(route);
      } else {
        const key = JSON.stringify([route.controller, route.action]);
        const list = fixed.get(key);
        if (list === undefined) fixed.set(key, [route]);
        else list.push(route);
      }
    }
    const merged = new Map<string, readonly Route[]>();
    const order = new Map(routes.map((route, index) => [route, index]));
    lookup = (wantedController, wantedAction) => {
      const key = JSON.stringify([wantedController, wantedAction]);
      let list = merged.get(key);
      if (list === undefined) {
        list = [
          ...(fixed.get(key) ?? []),
          ...open.filter((route) =>
            (route.controller === null || route.controller === wantedController) &&
            (route.action === null || route.action === wantedAction)
          ),
        ].sort((a, b) => order.get(a)! - order.get(b)!);
        // Kept for the pairs the table names only: a caller's own strings (taken from a
        // request, say) would otherwise stay in memory.
        if (fixed.has(key)) merged.set(key, list);
      }
      return list;
    };
    candidateIndex.set(routes, lookup);
  }
  return lookup(controller, action);
}

/**
 * Generation from a hash (API.md "Generation from a hash"), for a table mounted at
 * `mount`. A deprecated name in `use_route` generates as its current name and reports to
 * `onDeprecation`, as its helpers do.
 */
export function urlFor(
  table: GenerationTable,
  options: UrlOptions,
  { mount, onDeprecation }: { mount: Mount } & Pick<HelperOptions, "onDeprecation">,
): string {
  if (typeof options !== "object" || options === null) {
    throw new TypeError(`urlFor needs an options object, got ${describe(options)}`);
  }
  // Its own keys, each read once. Only own keys are read, so a Map, an array or a class
  // instance with getters would silently give the first index route: refused, as a
  // helper's named-values object must be plain too.
  let read: Map<string, unknown>;
  let plain: boolean;
  try {
    plain = isPlainObject(options);
    read = new Map(Object.entries(options));
  } catch (error) {
    throw new TypeError(`urlFor could not read its options: ${thrownText(error)}`, {
      cause: error,
    });
  }
  if (!plain) {
    throw new TypeError(
      `urlFor needs a plain object of options (as hash_for_ helpers return), got ${
        describe(options)
      }`,
    );
  }
  const present = (value: unknown) => value !== undefined && value !== null && value !== "";
  const byName = present(read.get("use_route"));
  // With `use_route`, a controller or action is a value like any other (for a route whose
  // path has `:controller`, as a `hash_for_` helper passes it on); without, it picks routes.
  for (const key of byName ? ["use_route"] : ["controller", "action"]) {
    if (present(read.get(key)) && typeof read.get(key) !== "string") {
      throw new TypeError(`urlFor: ${key} must be a string, got ${describe(read.get(key))}`);
    }
  }
  // "false" from a form or a config file would otherwise be a relative path, silently.
  if (read.get("only_path") != null && typeof read.get("only_path") !== "boolean") {
    throw new TypeError(
      `urlFor: only_path must be a boolean, got ${describe(read.get("only_path"))}`,
    );
  }
  const given = new Map<string, unknown>();
  for (const [key, value] of read) {
    if (!RESERVED.has(key) && present(value)) given.set(key, value);
  }
  const controller = present(read.get("controller")) ? read.get("controller") as string : undefined;
  const givenAction = present(read.get("action")) ? read.get("action") as string : undefined;
  // Routes are picked by controller and action, a missing action being "index" (Rails);
  // by name, a path's `:action` left out or empty takes the route's default, as the helper
  // does (`hash_for_p_path("")` of `/p/:action` gives what `p_path("")` gives).
  const action = givenAction ?? "index";
  // Whether the options give a key this value, compared as the query string writes it.
  const givesValue = (key: string, value: string) => queryTextOf(given.get(key)) === value;
  // The mount holds the limits a generation needs; urlFor recalls nothing.
  const context: Context = mount;
  // The values a route generates from: the given ones, and the controller and action where
  // its path names them. A view, not a copy: the candidates are many, the keys may be too.
  const valuesFor = (route: Route): Pick<Values, "get"> => ({
    get: (key) =>
      key === "controller" && route.controller === null
        ? controller
        : key === "action" && route.action === null
        ? (byName ? givenAction : action)
        : given.get(key),
  });

  let chosen: Route | undefined;
  if (byName) {
    const name = read.get("use_route") as string;
    chosen = table.namedRoutes.get(name);
    const current = table.deprecatedNames.get(name);
    if (chosen === undefined && current !== undefined) {
      chosen = table.namedRoutes.get(current);
      if (chosen !== undefined) onDeprecation(deprecationNotice(name, current));
    }
    if (chosen === undefined) {
      throw new RoutingError(`urlFor: there is no route named "${name}"`, {
        status: 500,
        method: "",
        path: "",
      });
    }
  } else {
    // Without a controller (API.md's `{ action: "edit", id: 1, format: "xml" }`), the
    // routes of every controller that fix one compete by the same rule; a route whose
    // path supplies the controller cannot generate without it.
    const pool = controller === undefined
      ? table.routes.filter((route) =>
        route.controller !== null && (route.action === null || route.action === action)
      )
      : candidates(table.routes, controller, action);
    let best: { route: Route; unused: number; unnamed: number } | undefined;
    let failure: { route: Route; reason: string } | undefined;
    for (const route of pool) {
      // As in Rails, a default of a key that is not in the path (`connect("/feed",
      // { defaults: { format: "rss" } })`) is a condition: the route generates only a hash
      // that gives that value.
      if (route.constants.some(([key, value]) => !RESERVED.has(key) && !givesValue(key, value))) {
        continue;
      }
      const filled = fillTemplate(route, valuesFor(route), context);
      if (typeof filled !== "string") {
        failure ??= { route, reason: filled.reason };
        continue;
      }
      // The given keys neither a variable nor a constant of the route takes (the two are
      // apart: a default of a variable is no constant).
      let used = 0;
      for (const variable of route.variables) if (given.has(variable)) used++;
      for (const [key] of route.constants) if (given.has(key)) used++;
      const unused = given.size - used;
      const unnamed = route.name === null ? 1 : 0;
      if (
        best === undefined || unused < best.unused ||
        (unused === best.unused && unnamed < best.unnamed)
      ) {
        best = { route, unused, unnamed };
      }
    }
    if (best === undefined) {
      const wanted = describe({ ...Object.fromEntries(read), controller, action });
      // The first route that serves the action but lacks a value says which.
      if (failure !== undefined) {
        throw generationError(failure.route, `${failure.reason} (urlFor ${wanted})`);
      }
      throw new RoutingError(`urlFor: no route generates ${wanted}`, {
        status: 500,
        method: "",
        path: "",
      });
    }
    chosen = best.route;
  }
  const route = chosen;
  const values = new Map<string, unknown>();
  for (const [key, value] of read) {
    if (given.has(key)) {
      values.set(key, value);
    } else if (byName && (key === "controller" || key === "action") && present(value)) {
      // With use_route, another controller or action than the route's own is a query
      // value, as the route's helper makes it (`message_path(1, { action: "edit" })`).
      const fixed = route[key];
      if (fixed !== null && queryTextOf(value) !== fixed) values.set(key, value);
    }
  }
  const own = valuesFor(route);
  for (const key of ["controller", "action"]) {
    if (own.get(key) !== undefined) values.set(key, own.get(key));
  }
  // A constant given with its own value is the route's; another value of it (possible
  // with `use_route`) is a query value, as the route's helper makes it.
  for (const [key, value] of route.constants) {
    if (RESERVED.has(key) || givesValue(key, value)) values.delete(key);
  }
  const path = mount.path + generate(route, values, context);
  return read.get("only_path") === false ? originOf(route, mount) + path : path;
}
