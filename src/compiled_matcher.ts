/**
 * The compiled matcher, the router's default: the answers of the ordered scan (first
 * match in registration order, method guards, `ANY`, requirements, 405 information) in
 * time that does not grow with the size of the table.
 *
 * It rests on one property of templates: no part of a segment can match a `/`, so a
 * path matches a route exactly when it has as many segments as the route has (present)
 * and each path segment matches the route's segment in the same place; the captures of
 * a segment do not depend on the other segments. (One trailing `/` is optional in every
 * route and matches nothing else, so it is dropped first.)
 *
 * Per request, each step built lazily on first use and then reused:
 * 1. One pass over the path finds the segments and, in each, the first `.`, `;`, `,` or
 *    `?`; it hashes each segment's key and the path's shape (below), and notes any `?`,
 *    `#` or `%` (see `matchRequest`). An empty segment matches no route, nor do more
 *    segments than any route has.
 * 2. The segment count picks the routes that can have that many segments (optional
 *    trailing variables count both ways).
 * 3. A tree over segment keys narrows them down. The key of a segment is its text up to
 *    its first `.`, `;`, `,` or `?`; a route's segment has a key when its text is
 *    literal up to such a character (or entirely), and is a wildcard otherwise. A node's
 *    child for key hash H holds the routes whose segment there has a key with hash H or
 *    is a wildcard, in registration order; the `other` child holds the wildcards alone.
 *    (A key that none of the routes owning the node has there, a combination no route's
 *    own path makes, leads instead to one leaf holding all of the node's routes: see
 *    `#nodeOwners`.) Descent compares hashes only (the checks of step 4 compare the
 *    text), and stops when few routes are left, when no route owns the node, or when no
 *    route has a key at any remaining depth.
 * 4. The routes left that accept the method are tried in registration order. First by
 *    shape: the `/ . ; , ?` of a path, in order, are those of the template of any route
 *    without requirements or optional segments that matches it (a default-rule variable
 *    holds none), so one integer comparison drops `:id.:format` for `/messages/1;edit`.
 *    Then by a small program of per-segment checks: the literal text of literal segments
 *    (after a comparison of the key hash when the literal is its own key, which rules
 *    most out), a character scan for variables under the default rule (also inside
 *    segments like `:id.:format`, where each variable ends at the first separator), a
 *    linear split for segments whose default-rule variables may hold the literal after
 *    them (`:a-:b-:c`, see `#split`), the requirement's own anchored `RegExp` for a
 *    variable alone in its segment, and an anchored `RegExp` of the segment for anything
 *    else. A route whose optional segments follow different rules is tried with its
 *    whole-path `RegExp` instead.
 *
 * Each route's checks and params plan are one record in a flat array (see `Slot`), so
 * that the router's requests get their params from it too; a leaf keeps, per method,
 * the shapes of its routes and where their records are.
 *
 * On a miss, the same node's routes of other methods give the 405 answer. Answers for
 * the table's static paths are cached, since they depend on nothing but the method.
 *
 * One combined `RegExp` alternation per node (the other obvious design) finds the same
 * route, but in V8 an `exec` costs at least about 50 ns and grows with the number of
 * capture groups it must fill; on the Rails-like bench table the per-segment checks were
 * about twice as fast. No `eval` or `new Function`: edge runtimes forbid them.
 * @module
 */

import type { Matcher, MatchResult } from "./matcher.ts";
import { wholeText } from "./requirement.ts";
import type { RouteMatch } from "./types.ts";
import {
  followsDefaultRule,
  type MatchValues,
  paramsFrom,
  paramsPlanOf,
  pathRegexOf,
  type Route,
  type Segment,
  segmentLength,
  segmentSource,
  SEPARATORS,
} from "./route.ts";

/** The method class of every other method: only `ANY` routes accept it. */
const OTHER = 5;
/** Descent stops at nodes with at most this many routes: trying them is cheaper. */
const SMALL = 8;

// Kinds of segment checks.
/** The segment is this literal text. */
const LITERAL = 0;
/** One variable under the default rule: no `.`, `;`, `,` or `?`. */
const PLAIN = 1;
/** One variable with a requirement other than the default rule: its anchored `RegExp`. */
const REQUIRED = 2;
/** Literals and default-rule variables, each variable ending at a separator. */
const MIXED = 3;
/** Anything else: the segment's anchored `RegExp`, one group per variable. */
const PATTERN = 4;
/**
 * Literals and default-rule variables that may hold the literal after them (`:a-:b-:c`):
 * the split a backtracking `RegExp` would find, found without backtracking (see `#split`).
 */
const SPLIT = 5;
/**
 * The order of checks in a record: literal checks first (where routes under one prefix
 * differ most), then the cheap scans (`MIXED`, `PLAIN`), then a requirement's `RegExp`,
 * the linear split, and a segment's `RegExp`.
 */
const KINDS_IN_ORDER = [LITERAL, MIXED, PLAIN, REQUIRED, SPLIT, PATTERN];
/** The place of each kind (`0` to `5`) in `KINDS_IN_ORDER`. */
const CHECK_ORDER = KINDS_IN_ORDER.map((_, kind) => KINDS_IN_ORDER.indexOf(kind));

/** The state (see `#nodes`) of a node whose children are not built yet. */
const UNEXPANDED = -1;
/** The state of a leaf: its routes are tried. */
const LEAF = -2;
/** The slots of a node in `#nodes`: its state, and a run per method class (6); padded to 8. */
const NODE_SLOTS = 8;
const NOTHING_ALLOWED: readonly string[] = Object.freeze([]);
const MISS: MatchResult = Object.freeze({ route: null, values: null, allowed: NOTHING_ALLOWED });
/** The values of a refusal from `matchRequest` for a path within `longest` (see #refusal). */
const NO_VALUES: readonly (string | undefined)[] = Object.freeze([]);

/**
 * The class of an upper-case method: 0 to 4 in the order of `ROUTE_METHODS`, `OTHER` for
 * the rest.
 */
function methodClass(method: string): number {
  switch (method) {
    case "GET":
      return 0;
    case "POST":
      return 1;
    case "PUT":
      return 2;
    case "PATCH":
      return 3;
    case "DELETE":
      return 4;
    default:
      return OTHER;
  }
}

// What #scan does at a character below 64, as bits: stop (a key ends at a route separator,
// `/ ; . , ?`), end the path (`?` and `#`: a query or a fragment follows), and note a `%`
// (values need decoding).
/** A key ends here. */
const STOP = 1;
/** A query or fragment starts here (`?`, `#`): the path ends. */
const QUERY = 2;
/** Percent-encoding (`%`). */
const PERCENT = 4;
/** The bits of each character code below 64; 0 for most. */
const CHARS = new Uint8Array(64);
for (const separator of SEPARATORS) CHARS[separator.charCodeAt(0)] = STOP;
CHARS[63] |= QUERY; // ?
CHARS[35] = QUERY; // #
CHARS[37] = PERCENT; // %

/** What #scan returns for a path that does not start with `/`. */
const UNROOTED = -2;

/** The characters that make `matchRequest` leave a path to the router. */
const UNSCANNED = /[?#%]/;

/**
 * Whether a character code is one the default variable rule excludes within a segment:
 * `SEPARATORS` but `/`, spelled out (a lookup in `CHARS` made the mix about 2 % slower).
 * The differential tests, whose reference matcher uses the rule's source, keep the two
 * in step.
 */
function isSeparator(code: number): boolean {
  return code === 46 || code === 59 || code === 44 || code === 63;
}

/**
 * Whether `text` could be the text of `segment` with its variables at some length: no
 * longer than its parts can be together, its literal text in place, and each variable's
 * text made of characters its rule admits (a surrogate counts as admitted: `admits` reads
 * whole characters). A condition a match needs, found in time linear in the text for each
 * part, as `#split` finds a split: from the right, which positions the parts from each
 * one on can match from.
 */
function couldMatch(segment: Segment, text: string): boolean {
  const length = text.length;
  let most = 0;
  for (const part of segment.parts) {
    most += "literal" in part ? part.literal.length : part.requirement?.maxLength ?? Infinity;
  }
  if (length > most) return false;
  let reach = new Uint8Array(length + 1);
  reach[length] = 1;
  for (let i = segment.parts.length - 1; i >= 0; i--) {
    const part = segment.parts[i];
    const row = new Uint8Array(length + 1);
    if ("literal" in part) {
      const size = part.literal.length;
      for (let p = 0; p + size <= length; p++) {
        if (reach[p + size] === 1 && text.startsWith(part.literal, p)) row[p] = 1;
      }
    } else {
      let any = 0;
      for (let p = length - 1; p >= 0; p--) {
        const code = text.charCodeAt(p);
        const admitted = part.requirement === null
          ? !isSeparator(code)
          : (code & 0xf800) === 0xd800 || part.requirement.admits(text[p]);
        if (admitted) row[p] = any |= reach[p + 1];
        else any = 0;
      }
    }
    reach = row;
  }
  return reach[0] === 1;
}

/**
 * A frozen copy of a result, safe to cache and hand out again and again. A copy, made
 * here: V8 tracks how many of the objects made at each place in the code survive, and
 * allocates them in the old generation from then on when most do. Cached answers live
 * forever; the results made for every other request die at once, and must not be made
 * where the cached ones were (that made `match` twice as slow after a run of
 * `matchRequest`, whose only results from there were cached ones).
 */
function cachedCopy({ route, values, allowed }: MatchResult): MatchResult {
  if (route === null && values === null) return MISS;
  return Object.freeze({
    route,
    values: values === null ? null : Object.freeze([...values]),
    allowed: allowed.length === 0 ? NOTHING_ALLOWED : Object.freeze([...allowed]),
  });
}

/** One check of a route's program, as `addChecks` lays it out in the route's record. */
interface Check {
  readonly kind: number;
  /** The route segment (and so the path segment) it looks at. */
  readonly segment: number;
  /** `LITERAL`: the text. */
  readonly literal: string;
  /** `LITERAL`: the text is its own key (no separator), so its hash can be compared first. */
  readonly keyed: boolean;
  /** `REQUIRED`: a copy of the requirement's whole-text `RegExp`; `PATTERN`: the segment's. */
  readonly regex: RegExp | null;
  /** `MIXED` and `SPLIT`: the parts, literal text or `null` for a variable. */
  readonly parts: readonly (string | null)[];
  /** Index (in the route's variables) of the segment's first variable. */
  readonly value: number;
}

/**
 * How to match one route and build its params, laid out flat: `RECORD_CHECKS` slots,
 * its checks, then its params plan (see `paramsPlanOf`).
 * - `RECORD_ROUTE`: the route.
 * - `RECORD_VALUES`: the number of values (the route's variables).
 * - `RECORD_SEGMENT_OF`: the segment of each variable when the route has optional
 *   segments and is matched by its checks (to leave absent ones `undefined`), else `null`
 *   (a `RECORD_REGEX` leaves absent groups `undefined` itself).
 * - `RECORD_REGEX`: the route's own `RegExp` when it decides instead of checks, else
 *   `null`.
 * - `RECORD_PLAN`: where (from the record's start) the params plan starts, after the
 *   checks.
 *
 * Each check is four slots: the kind (plus `KEYED` for a literal that is its own key),
 * the segment, the value index (for a keyed literal, the hash of its text), and the
 * literal (its place in the matcher's `TextPool`), the `RegExp` (`null` for `PLAIN`), or
 * for `MIXED` and `SPLIT` the number of parts, which follow it (a literal's place in the
 * pool, or `VARIABLE_PART`). Literal checks come first: they fail fastest.
 *
 * Every route's record is laid out once, in one array for the matcher; a leaf's run lists
 * the shape and the start of the record of each route it tries, so a request reads the
 * shapes in a row and goes to the records only of routes of its path's shape. For a
 * request, a route's data is memory that is rarely in the cache, and each object on the
 * way to it (an entry, an array of checks, an array of parts, the route and its plan, a
 * literal's string) is one more load that waits; in one array, a route's data sits
 * together, and the literal text of all of them sits together in the pool. (Runs that
 * held copies of the records saved about 1 % of the instructions and no measurable time,
 * and their memory grew with leaves times routes: 2.4 MB against 1.5 MB on the large
 * bench table, after every route's path with every method.)
 */
type Slot =
  | number
  | string
  | RegExp
  | Route
  | readonly number[]
  | null
  | undefined;
const RECORD_ROUTE = 0;
const RECORD_VALUES = 1;
const RECORD_SEGMENT_OF = 2;
const RECORD_REGEX = 3;
const RECORD_PLAN = 4;
const RECORD_CHECKS = 5;
/** The most bytes of `#split`'s scratch the matcher keeps between requests. */
const KEPT_REACH = 1 << 16;
/** A part of a `MIXED` or `SPLIT` check that is a variable. */
const VARIABLE_PART = -1;
/** Slots of a check, not counting the parts of a `MIXED` or `SPLIT` check. */
const CHECK_SLOTS = 4;
/** Added to `LITERAL` for a literal that is its own key (see `Check.keyed`). */
const KEYED = 8;

function check(
  kind: number,
  segment: number,
  value: number,
  fields: { literal?: string; regex?: RegExp; parts?: (string | null)[] } = {},
): Check {
  return {
    kind,
    segment,
    literal: fields.literal ?? "",
    keyed: fields.literal !== undefined && separatorAt(fields.literal) < 0,
    regex: fields.regex ?? null,
    parts: fields.parts ?? [],
    value,
  };
}

/**
 * Where the first character a key ends at (`SEPARATORS` but `/`) is in a literal, or -1.
 * A loop, not a `RegExp` search: it runs on the leading literal of every segment of every
 * route when the index is built, and again as records are laid out, and a `RegExp` call
 * costs hundreds of instructions more each, more still while V8 has not yet optimised the
 * caller, as at start-up.
 */
function separatorAt(literal: string): number {
  for (let i = 0; i < literal.length; i++) if (isSeparator(literal.charCodeAt(i))) return i;
  return -1;
}

/** Whether a variable part follows the default rule (no requirement, or the same one). */
function isDefaultRule(part: Segment["parts"][number]): boolean {
  return !("literal" in part) && followsDefaultRule(part.requirement);
}

/** The check of one segment. */
function segmentCheck(segment: Segment, index: number, value: number): Check {
  const { parts } = segment;
  const only = parts[0];
  if (parts.length === 1) {
    if ("literal" in only) return check(LITERAL, index, value, { literal: only.literal });
    if (isDefaultRule(only)) return check(PLAIN, index, value);
    // A RegExp of its own: the requirement's is shared by every table that uses it.
    const regex = wholeText(only.requirement!.source);
    return check(REQUIRED, index, value, { regex });
  }
  // A default-rule variable is deterministic when the segment ends after it or the next
  // literal starts with a character the variable cannot hold: it ends at the first one.
  const deterministic = parts.every((part, i) => {
    if ("literal" in part) return true;
    const next = parts[i + 1];
    return isDefaultRule(part) &&
      (next === undefined || ("literal" in next && isSeparator(next.literal.charCodeAt(0))));
  });
  const texts = parts.map((part) => "literal" in part ? part.literal : null);
  if (deterministic) return check(MIXED, index, value, { parts: texts });
  // The segment's RegExp would try every split of the text between such variables, the
  // cube of its length for three of them: thousands of characters took seconds.
  if (parts.every((part) => "literal" in part || isDefaultRule(part))) {
    return check(SPLIT, index, value, { parts: texts });
  }
  return check(PATTERN, index, value, { regex: new RegExp(`^${segmentSource(segment)}$`, "u") });
}

/**
 * Lays out the record (see `Slot`) of a route at the end of `records`, its literals in
 * `pool`; where it starts. (Written in place: a record made apart and then copied slot by
 * slot cost about a tenth of building the whole matcher.)
 */
function addRecord(records: Slot[], route: Route, pool: TextPool): number {
  const at = records.length;
  records.push(route, route.variables.length, null, null, 0);
  // When all optional segments share one rule, skipping one never helps, and the present
  // ones are simply the first. Otherwise the route's own RegExp decides, as in the scan.
  if (route.optionalRulesDiffer) records[at + RECORD_REGEX] = pathRegexOf(route);
  else addChecks(records, at, route, pool);
  records[at + RECORD_PLAN] = records.length - at;
  for (const slot of paramsPlanOf(route)) records.push(slot);
  return at;
}

/**
 * Adds the checks of a route (and the segments of its variables) to its record, which
 * starts at `records[at]` and ends the array, with their literal text in `pool`.
 */
function addChecks(records: Slot[], at: number, route: Route, pool: TextPool): void {
  const checks: Check[] = [];
  const segmentOf: number[] = [];
  route.segments.forEach((segment, index) => {
    checks.push(segmentCheck(segment, index, segmentOf.length));
    for (const part of segment.parts) if (!("literal" in part)) segmentOf.push(index);
  });
  // In `CHECK_ORDER`, and the deepest segment first within a kind.
  checks.sort((a, b) => CHECK_ORDER[a.kind] - CHECK_ORDER[b.kind] || b.segment - a.segment);
  if (route.optional.size > 0) records[at + RECORD_SEGMENT_OF] = segmentOf;
  for (const check of checks) {
    const withParts = check.kind === MIXED || check.kind === SPLIT;
    records.push(
      check.kind + (check.keyed ? KEYED : 0),
      check.segment,
      // A literal has no values: the slot holds the hash of a keyed one's text instead.
      check.keyed ? hashOf(check.literal) : check.value,
      check.kind === LITERAL
        ? pool.add(check.literal)
        : withParts
        ? check.parts.length
        : check.regex,
    );
    if (!withParts) continue;
    for (const part of check.parts) records.push(part === null ? VARIABLE_PART : pool.add(part));
  }
}

/**
 * The literal text of a matcher's routes, their UTF-16 code units one after another in
 * one typed array, each text after its length (two slots: low and high 16 bits). The
 * checks compare a path's characters with it rather than with the literals' strings:
 * those are objects all over the heap, rarely in the cache when a request needs one,
 * where the pool is a few kilobytes read together. (On the bench's large table, where
 * a request compares about two literals, `startsWith` on the strings cost about 12 ns a
 * request more.)
 */
class TextPool {
  codes = new Uint16Array(1024);
  #length = 0;
  readonly #places = new Map<string, number>();

  /** The place of `text` in `codes`, added on first use. */
  add(text: string): number {
    let place = this.#places.get(text);
    if (place !== undefined) return place;
    place = this.#length;
    const needed = place + 2 + text.length;
    if (needed > this.codes.length) {
      const grown = new Uint16Array(Math.max(needed, this.codes.length * 2));
      grown.set(this.codes);
      this.codes = grown;
    }
    this.codes[place] = text.length & 0xffff;
    this.codes[place + 1] = text.length >>> 16;
    for (let i = 0; i < text.length; i++) this.codes[place + 2 + i] = text.charCodeAt(i);
    this.#length = needed;
    this.#places.set(text, place);
    return place;
  }
}

/** The length of the text at `place` in a pool's codes. */
function pooledLength(codes: Uint16Array, place: number): number {
  return codes[place] | (codes[place + 1] << 16);
}

/**
 * Whether a scanned path (`chars`, see `CompiledMatcher.#chars`) holds the pool's text at
 * `place` from `start` on. Pooled texts hold no `/` and the path's codes end in one, so the
 * comparison stops at the path's end without a test of its own.
 */
function holdsAt(codes: Uint16Array, place: number, chars: Uint16Array, start: number): boolean {
  for (let at = place + 2, end = at + pooledLength(codes, place), i = start; at < end; at++, i++) {
    if (chars[i] !== codes[at]) return false;
  }
  return true;
}

/** What the matcher keeps of one route. */
interface Entry {
  readonly route: Route;
  /** The segment keys; `null` for a wildcard segment. */
  readonly keys: readonly (string | null)[];
  /** Segments that must be present (the rest are optional trailing variables). */
  readonly required: number;
  /** The method class it is restricted to, or -1 for `ANY`. */
  readonly methodClass: number;
  /** The hash of its shape (see `shapeOf`), or -1 when paths of several shapes match it. */
  readonly shape: number;
  /** Where its record (see `Slot`) starts in the matcher's records, or -1 until used. */
  at: number;
}

/** The key of a template segment, or `null` when it is a wildcard. */
function segmentKey(parts: Segment["parts"]): string | null {
  const first = parts[0];
  if (!("literal" in first)) return null;
  const cut = separatorAt(first.literal);
  if (cut >= 0) return first.literal.slice(0, cut);
  return parts.length === 1 ? first.literal : null;
}

/**
 * The hash of a route's shape: the `/`, `.`, `;`, `,` and `?` of its template, in order.
 * A variable under the default rule holds none of them and a literal holds its own, so
 * every path such a route matches has the same ones; the matcher compares the hashes
 * before trying a route. A route with a requirement (which may allow them) or optional
 * segments has no single shape: -1.
 */
function shapeOf(route: Route): number {
  if (route.optional.size > 0) return -1;
  let hash = 0;
  for (const segment of route.segments) {
    hash = (Math.imul(hash, 31) + 47) & HASH_MASK;
    for (const part of segment.parts) {
      if (!("literal" in part)) {
        if (!isDefaultRule(part)) return -1;
        continue;
      }
      for (let i = 0; i < part.literal.length; i++) {
        const code = part.literal.charCodeAt(i);
        if (isSeparator(code)) hash = (Math.imul(hash, 31) + code) & HASH_MASK;
      }
    }
  }
  return hash;
}

function entryOf(route: Route): Entry {
  return {
    route,
    keys: route.segments.map((segment) => segmentKey(segment.parts)),
    required: route.segments.length - route.optional.size,
    methodClass: route.method === "ANY" ? -1 : methodClass(route.method),
    shape: shapeOf(route),
    at: -1,
  };
}

/** A static path of the table and its answers, cached on first use. */
interface Static {
  readonly path: string;
  /** The answer for each method class. */
  readonly answers: (MatchResult | undefined)[];
  /** For each method class whose answer is a route: where that route's record starts. */
  readonly places: (number | undefined)[];
  /** The next static path with the same hash. */
  readonly next: Static | undefined;
}

/**
 * Where a node's child for a key hash sits in the children table (before probing), in
 * units of `CHILD_SLOTS`: the top `32 - shift` bits of a mix of the two.
 */
function childSlot(parent: number, hash: number, shift: number): number {
  return Math.imul(hash ^ Math.imul(parent + 1, 0x9e3779b1), 0x85ebca6b) >>> shift;
}

/** Slots per child in the children table: parent id + 1 (0: free), key hash, child id. */
const CHILD_SLOTS = 3;

/** Keeps hashes small integers. */
const HASH_MASK = 0x3fffffff;

/** The hash #scan computes over a segment key, here of a route's literal text. */
function hashOf(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) {
    hash = (Math.imul(hash, 31) + text.charCodeAt(i)) & HASH_MASK;
  }
  return hash;
}

/**
 * The compiled matcher's interface for the router: `match`, and a way to match a path as
 * `Router.recognize` is given it, without the router's own passes over the text (query
 * split, `%` check) in the common case. Its scan reads every character anyway.
 */
export interface RequestMatcher extends Matcher {
  /**
   * `match` for a path that may still hold a query or fragment, which it leaves out
   * (see `queryAt`): `undefined` when the path does not start with `/` (the empty path
   * included), or when an empty segment or one too many ends the scan and the path holds a
   * `?`, `#` or `%` (a query or fragment the scan did not reach, or a `%` that may not
   * decode); the router then prepares the path and calls `match`. For a path without `%`
   * that a route matches, the answer is that route with its params (see `paramsFrom`),
   * built from the route's record, which the router can hand out as it is when the path is
   * within every limit. A refusal (a 405) of a path no longer than `longest` may come
   * without its values (an empty array; the common case: a path without `%` that is not a
   * route's static path): none of them can be over the limit, which is all the router
   * reads them for.
   */
  matchRequest(path: string, method: string): RouteMatch | MatchResult | undefined;
  /**
   * Whether the pathname (the text before `queryAt`) of the last `matchRequest` that
   * answered holds a `%`.
   */
  readonly encoded: boolean;
  /**
   * Where the query or fragment of the path of the last `matchRequest` that answered
   * starts (its first `?` or `#`), or -1: the pathname is the text before it.
   */
  readonly queryAt: number;
  /**
   * Whether the last `match` or `matchRequest` passed over a route because the text its
   * `RegExp` would test was longer than its variables can be (see `longest`), where the
   * path could match that route (see `couldMatch`).
   */
  readonly overLimit: boolean;
  /**
   * The nodes of the key tree built so far: requests build it as they need it, and
   * only along the table's own paths (see `#nodeOwners`). For tests of that bound.
   */
  readonly nodes: number;
}

/** Options of {@linkcode createCompiledMatcher}. */
export interface CompiledMatcherOptions {
  /**
   * The longest value a route takes (the router's `maxParamLength`): a text longer than
   * the variables of a route that backtracks (`Route.backtracks`) can then be is not
   * tested with that route's `RegExp` (a requirement of two loops takes the square of the
   * text's length), and `overLimit` says so where the path could match it. A refusal from
   * `matchRequest` of a path no longer than this comes without its values. `Infinity` by
   * default.
   */
  readonly longest?: number;
}

/**
 * Builds the compiled matcher for a table. Construction is cheap: the index, the tree
 * and the route programs are built as requests need them.
 *
 * @example Matching through the compiled matcher
 * ```ts
 * import { Router } from "@resource-router/router";
 * import { createCompiledMatcher } from "./compiled_matcher.ts";
 *
 * const router = new Router({ variant: "B" }).draw((map) => map.resources("messages"));
 * const matcher = createCompiledMatcher(router.routes);
 * const { route, values } = matcher.match("/messages/7.xml", "GET");
 * console.log(route?.name, values); // "formatted_message" ["7", "xml"]
 * console.log(matcher.match("/messages/7", "POST").allowed); // ["GET", "PUT", "DELETE"]
 * ```
 */
export function createCompiledMatcher(
  routes: readonly Route[],
  options: CompiledMatcherOptions = {},
): RequestMatcher {
  return new CompiledMatcher(routes, options.longest ?? Infinity);
}

class CompiledMatcher implements RequestMatcher {
  readonly #routes: readonly Route[];
  #entries: readonly Entry[] = [];
  // The segment-key tree, nodes by number. A node's routes, in registration order; its
  // state: UNEXPANDED, LEAF, or (once its children are built) the id of its child for
  // keys no route has there; and, for a leaf, per method class, its run (below). Its
  // other children are in one hash table for the whole tree, by parent and key hash: a
  // step down reads one place in memory, where a Map per node took several.
  /** Tree roots by segment count. */
  #roots: (number | undefined)[] = [];
  #nodeEntries: (readonly Entry[])[] = [];
  /**
   * The routes that own each node: those of its routes with a literal key at every depth
   * where the way down took a key's child, so that their own paths lead there. A node no
   * route owns is a combination of keys no route has (`/messages/photos/7` between
   * `/messages/:id/edit` and `/:locale/photos/:id`): it stays a leaf, and the keys under
   * a node that none of its owners has there share one leaf with the node's routes. So
   * requests build no node that the table's own paths do not (bar a root per path
   * length): crafted ones only lay out runs in the leaves those paths do not end in.
   * Before, each such combination expanded, and a 48-route table grew to 268 MB.
   */
  #nodeOwners: (readonly Entry[])[] = [];
  /**
   * `NODE_SLOTS` per node (from `id * NODE_SLOTS`): its state, then for a leaf, per
   * method class, 1 + where its run in `#runs` starts (0 until it is built). Together,
   * so that reading a leaf's state brings its runs' places into the cache with it.
   */
  #nodes = new Int32Array(NODE_SLOTS * 64);
  /** The records of the routes (see `Slot`), each laid out once, on first use. */
  #records: Slot[] = [];
  /**
   * The runs of the leaves: the number of routes that accept the method, then for each
   * its shape (see `shapeOf`) and the start of its record in `#records`.
   */
  #runs: number[] = [];
  /** The children table (see `CHILD_SLOTS`), open addressing with linear probing. */
  #children = new Int32Array(CHILD_SLOTS * 256);
  /** 32 minus the log2 of the children table's capacity. */
  #childShift = 24;
  #childCount = 0;
  /** The most segments any route has; -1 until the index is built. */
  #maxSegments = -1;
  /**
   * Cached answers for the table's static paths, by the hash of a scanned path (see
   * `#pathHash`), in a table of their own: open addressing with linear probing, 1 + the
   * hash in `#staticHashes` (0: free) and the entry at the same place in `#staticPaths`.
   * Keyed by a number, not by the path: a `Map` lookup by string internalizes the string,
   * which costs a fresh request path about 70 ns and leaves it a `ThinString` that every
   * later character read must follow. Most requests are not for a static path, and a free
   * slot, mostly the first one read, answers that.
   */
  #staticHashes = new Int32Array(0);
  #staticPaths: (Static | undefined)[] = [];
  /** 32 minus the log2 of the static table's capacity. */
  #staticShift = 32;
  /** The literal text of the records. */
  readonly #pool = new TextPool();
  /** Scratch for `#split`: which positions each part can match from. */
  #reach = new Uint8Array(0);
  // Per-request scratch, filled by #scan: where each segment starts and ends, its first
  // separator, the hash of its key, and the hash of the path's shape. Typed arrays, sized
  // by #index: about 2 % fewer instructions a request on the bench mix than arrays.
  #starts = new Int32Array(0);
  #ends = new Int32Array(0);
  #cuts = new Int32Array(0);
  #keyHashes = new Int32Array(0);
  /**
   * The path's character codes, then a `/`: the checks read them here, where a
   * `charCodeAt` on the path costs V8 a test of the string's representation each time.
   * It grows to twice the longest path scanned, which the router's `maxPathLength` bounds.
   */
  #chars = new Uint16Array(256);
  /** The hash of the path's shape (see `shapeOf`). */
  #shape = 0;
  /**
   * The length of the path without its query or fragment (`matchRequest`) and without the
   * trailing `/` that #scan dropped, if any.
   */
  #length = 0;
  /** A hash of the path's segment keys, for `#pathHash`. */
  #keysHash = 0;
  /**
   * `PERCENT` (and in `match`, `QUERY`) bits of the path's characters (at times `STOP`).
   * Only `PERCENT` is read; the others come along with the scan's unconditional `|=`.
   */
  #marks = 0;
  /** Where the path's query or fragment starts (its first `?` or `#`), or -1. */
  #queryAt = -1;
  // Values of the route being tried, by variable: a range of the path, sliced only once
  // the route matches, or (where a RegExp needed the text) the text, with `#from` -1.
  #from: number[] = [];
  #to: number[] = [];
  #texts: (string | undefined)[] = [];
  /**
   * The values above as `paramsFrom` reads them, with the path of the last `matchRequest`
   * answered from a route's record.
   */
  readonly #values: MatchValues = { path: "", from: this.#from, to: this.#to, texts: this.#texts };
  /** The values of a cached answer as `paramsFrom` reads them (`texts`: that answer's). */
  readonly #cachedValues: MatchValues = { path: "", from: null, to: [], texts: [] };

  readonly #longest: number;
  #over = false;

  constructor(routes: readonly Route[], longest: number) {
    this.#routes = routes;
    this.#longest = longest;
  }

  get overLimit(): boolean {
    return this.#over;
  }

  get nodes(): number {
    return this.#nodeEntries.length;
  }

  /**
   * Passes over a route for a text longer than its variables can be: no match, and a
   * value over the limit noted where the path could match it (see `couldMatch`). Only a
   * route that backtracks (`Route.backtracks`) is passed over so, as its `RegExp` could
   * take time in the square of that text. Any other route's is linear and tells exactly
   * whether the route matches: where it does, its value over `maxParamLength` is the 414,
   * and a later route does not answer in its place.
   */
  #passOver(route: Route, path: string, count: number): false {
    for (let segment = 0; segment < count; segment++) {
      // An optional segment of a whole-path RegExp may take a later one's text: not tested.
      const { optional } = route.segments[segment];
      const text = path.slice(this.#starts[segment], this.#ends[segment]);
      if (!optional && !couldMatch(route.segments[segment], text)) return false;
    }
    this.#over = true;
    return false;
  }

  /** The longest text segment `segment` of `route` takes, its variables at `#longest`. */
  #segmentBound(route: Route, segment: number): number {
    return segmentLength(route.segments[segment], this.#longest);
  }

  match(path: string, method: string): MatchResult {
    this.#begin();
    const count = this.#scan(path, false);
    return count < 0 ? MISS : this.#answer(this.#trimmed(path), count, methodClass(method));
  }

  matchRequest(path: string, method: string): RouteMatch | MatchResult | undefined {
    this.#begin();
    const count = this.#scan(path, true);
    // No route takes an empty segment or more segments than its longest: a miss, unless
    // the text the scan did not reach holds a query or fragment to cut, or a `%` that may
    // not decode, which the router sees to (as it does a path without a leading `/`, the
    // empty one included). Leaving every early end to the router would match each such
    // path twice.
    if (count < 0 || path.length === 0) {
      return count === -1 && !UNSCANNED.test(path) ? MISS : undefined;
    }
    const trimmed = this.#trimmed(path);
    const mc = methodClass(method);
    if ((this.#marks & PERCENT) !== 0) return this.#answer(trimmed, count, mc);
    const records = this.#records;
    const known = this.#static(trimmed);
    if (known !== undefined) {
      // The cached answer's params, from its values, straight from the route's record too.
      const answer = this.#cached(known, trimmed, count, mc);
      const place = known.places[mc];
      if (place === undefined) return answer;
      const values = this.#cachedValues;
      values.texts = answer.values!;
      return {
        route: answer.route!,
        params: paramsFrom(records, place + (records[place + RECORD_PLAN] as number), values),
      };
    }
    // The router's common case: the params straight from the route's record, without
    // reading the route or a result object on the way.
    const at = this.#find(trimmed, count, mc);
    if (at < 0) {
      const valued = trimmed.length > this.#longest;
      return this.#refusal(this.#nodeEntries[-1 - at], mc, trimmed, count, valued);
    }
    if (records[at + RECORD_SEGMENT_OF] !== null) this.#markAbsent(records, at, count);
    const values = this.#values;
    values.path = trimmed;
    return {
      route: records[at + RECORD_ROUTE] as Route,
      params: paramsFrom(records, at + (records[at + RECORD_PLAN] as number), values),
    };
  }

  get encoded(): boolean {
    return (this.#marks & PERCENT) !== 0;
  }

  get queryAt(): number {
    return this.#queryAt;
  }

  /** Starts a match: builds the index on first use and clears `overLimit`. */
  #begin(): void {
    if (this.#maxSegments < 0) this.#index();
    this.#over = false;
  }

  /**
   * The path #scan just read as matched: without its query or fragment (`matchRequest`)
   * and the one trailing `/` it dropped (every route ends in an optional `/`, so no route
   * matches a text ending in `/` without it).
   */
  #trimmed(path: string): string {
    return this.#length === path.length ? path : path.slice(0, this.#length);
  }

  /** The `MatchResult` for a path that #scan just read, from the cache for a static path. */
  #answer(path: string, count: number, mc: number): MatchResult {
    const known = this.#static(path);
    return known === undefined
      ? this.#result(this.#find(path, count, mc), path, count, mc)
      : this.#cached(known, path, count, mc);
  }

  /** The cached answer of static path `known` (which #scan just read) for a method class. */
  #cached(known: Static, path: string, count: number, mc: number): MatchResult {
    const cached = known.answers[mc];
    if (cached !== undefined) return cached;
    const at = this.#find(path, count, mc);
    const result = this.#result(at, path, count, mc);
    // An answer that passed over a route for a text too long for it is the router's 414
    // (or a later route's): the limits decide it, and `overLimit` must say so each time.
    if (this.#over) return result;
    if (at >= 0) known.places[mc] = at;
    return known.answers[mc] = cachedCopy(result);
  }

  /** The `MatchResult` for what `#find` answered (`at`) for a path #scan just read. */
  #result(at: number, path: string, count: number, mc: number): MatchResult {
    if (at < 0) return this.#refusal(this.#nodeEntries[-1 - at], mc, path, count, true);
    return {
      route: this.#records[at + RECORD_ROUTE] as Route,
      values: this.#valuesOf(this.#records, at, path, count),
      allowed: NOTHING_ALLOWED,
    };
  }

  /** The cache entry of a static path that #scan just read, if it is one. */
  #static(path: string): Static | undefined {
    const key = this.#pathHash() + 1;
    const hashes = this.#staticHashes;
    for (
      let slot = this.#staticSlot(key);
      hashes[slot] !== 0;
      slot = (slot + 1) & (hashes.length - 1)
    ) {
      if (hashes[slot] !== key) continue;
      let known = this.#staticPaths[slot];
      while (known !== undefined && known.path !== path) known = known.next;
      return known;
    }
    return undefined;
  }

  /** Where 1 + a path hash sits in the static table (before probing): its top bits, mixed. */
  #staticSlot(key: number): number {
    return Math.imul(key, 0x9e3779b1) >>> this.#staticShift;
  }

  /**
   * A hash of the path #scan just read: its shape and segment keys. Paths that differ
   * only in the text between the separators after a segment's first one share it;
   * `Static.path` tells them apart.
   */
  #pathHash(): number {
    return (Math.imul(this.#keysHash, 31) + this.#shape) & HASH_MASK;
  }

  #index(): void {
    const entries = this.#routes.map(entryOf);
    const max = entries.reduce((most, entry) => Math.max(most, entry.keys.length), 0);
    this.#entries = entries;
    this.#starts = new Int32Array(max);
    this.#ends = new Int32Array(max);
    this.#cuts = new Int32Array(max);
    this.#keyHashes = new Int32Array(max);
    // Room for every route's values up front: checks fill them out of order, and writes
    // past the end of an array would leave holes that slow every later read.
    for (const { route } of entries) {
      while (this.#from.length < route.variables.length) {
        this.#from.push(0);
        this.#to.push(0);
        this.#texts.push(undefined);
      }
    }
    this.#maxSegments = max;
    // At most a quarter full, so that a path that is not static mostly reads one free slot.
    const statics = entries.filter(({ route }) => route.variables.length === 0);
    const capacity = Math.max(16, 2 ** Math.ceil(Math.log2(4 * statics.length)));
    this.#staticHashes = new Int32Array(capacity);
    this.#staticPaths = new Array(capacity).fill(undefined);
    this.#staticShift = 32 - Math.log2(capacity);
    for (const { route } of statics) {
      const path = route.path === "/" ? "" : route.path;
      const count = this.#scan(path, false);
      if (count < 0 || this.#static(path) !== undefined) continue;
      // #static's probe, written out again: one shared helper returning the slot, which
      // #static then read, cost a request about 60 instructions more (`GET /users`).
      const key = this.#pathHash() + 1;
      const hashes = this.#staticHashes;
      let slot = this.#staticSlot(key);
      while (hashes[slot] !== 0 && hashes[slot] !== key) slot = (slot + 1) & (capacity - 1);
      hashes[slot] = key;
      this.#staticPaths[slot] = { path, answers: [], places: [], next: this.#staticPaths[slot] };
    }
  }

  /**
   * Finds the first route that matches a path #scan just read and accepts the method:
   * the start of its record in `#records`, with its values in `#from`, `#to` and `#texts`;
   * or, when none does, `-1 - id` of the leaf it looked in (for `#refusal`).
   */
  #find(path: string, count: number, mc: number): number {
    let id = this.#roots[count] ??= this.#root(count);
    // Down by key hashes alone: a child holds the routes of every key with its hash (and
    // the wildcards), and #matches compares the literal text of each route it tries.
    for (let depth = 0;; depth++) {
      let state = this.#nodes[id * NODE_SLOTS];
      if (state === UNEXPANDED) state = this.#expand(id, depth, count);
      if (state === LEAF) break;
      const hash = this.#keyHashes[depth];
      const table = this.#children;
      let slot = childSlot(id, hash, this.#childShift) * CHILD_SLOTS;
      for (let owner = table[slot]; owner !== 0; owner = table[slot]) {
        if (owner === id + 1 && table[slot + 1] === hash) {
          state = table[slot + 2];
          break;
        }
        slot += CHILD_SLOTS;
        if (slot === table.length) slot = 0;
      }
      id = state;
    }

    const runs = this.#runs;
    const at = (this.#nodes[id * NODE_SLOTS + 1 + mc] || this.#run(id, mc) + 1) - 1;
    const records = this.#records;
    const shape = this.#shape;
    for (let i = at + 1, end = i + 2 * runs[at]; i < end; i += 2) {
      const candidate = runs[i];
      if (
        (candidate === shape || candidate === -1) &&
        this.#matches(records, runs[i + 1], path, count)
      ) {
        return runs[i + 1];
      }
    }
    return -1 - id;
  }

  /**
   * Finds the segments of a path and hashes their keys; returns their number, `UNROOTED`
   * for a path without a leading `/`, or -1 when no route can match (an empty segment,
   * more segments than any route). With `untilQuery`, the path ends at its first `?` or
   * `#` (`#queryAt`); without (`match`, which takes a pathname), they are characters of
   * it, as in the reference matcher. One trailing `/` is dropped: `#length` is the length
   * of the path without it (and the query). Unless it returns less than 0, `#marks` says
   * which of `%` and (without `untilQuery`) `?` and `#` it saw.
   */
  #scan(path: string, untilQuery: boolean): number {
    let length = path.length;
    this.#queryAt = -1;
    this.#shape = 0;
    this.#keysHash = 0;
    this.#marks = 0;
    this.#length = 0;
    if (length === 0) return 0;
    if (path.charCodeAt(0) !== 47) return UNROOTED;
    if (length === 1) return 0;
    const starts = this.#starts;
    const ends = this.#ends;
    const cuts = this.#cuts;
    const keyHashes = this.#keyHashes;
    let chars = this.#chars;
    if (chars.length <= length) chars = this.#chars = new Uint16Array(2 * length);
    const max = this.#maxSegments;
    let count = 0;
    let shape = 47;
    // The shape before the last segment's `/`, for a `/` that turns out to end the path.
    let before = 0;
    let keys = 0;
    let marks = 0;
    let i = 1;
    // Segment by segment: its key up to the first separator, then the rest for the shape.
    // Two tight loops, each with one rarely taken exit, cost about a third less than one
    // loop that tests every character for each role.
    scan: for (;;) {
      const start = i;
      let hash = 0;
      let code = 0;
      for (; i < length; i++) {
        code = path.charCodeAt(i);
        chars[i] = code;
        if (code < 64 && CHARS[code] !== 0) {
          if ((CHARS[code] & QUERY) !== 0 && untilQuery) {
            this.#queryAt = length = i;
            if (i > start) break;
            // Right after a `/`: that `/` ends the path, as a last one does.
            length = start - 1;
            shape = before;
            break scan;
          }
          if ((CHARS[code] & STOP) !== 0) break;
          marks |= CHARS[code];
        }
        hash = (Math.imul(hash, 31) + code) & HASH_MASK;
      }
      const cut = i;
      if (i < length && code !== 47) {
        for (; i < length; i++) {
          code = path.charCodeAt(i);
          chars[i] = code;
          if (code === 47) break;
          if (code < 64 && CHARS[code] !== 0) {
            if ((CHARS[code] & QUERY) !== 0 && untilQuery) {
              this.#queryAt = length = i;
              break;
            }
            if ((CHARS[code] & STOP) !== 0) shape = (Math.imul(shape, 31) + code) & HASH_MASK;
            marks |= CHARS[code];
          }
        }
      }
      if (i === start || count === max) return -1;
      starts[count] = start;
      ends[count] = i;
      cuts[count] = cut;
      keyHashes[count] = hash;
      keys = (Math.imul(keys, 31) + hash) & HASH_MASK;
      count++;
      if (i === length) break;
      // A "/" at the end is dropped; after it, an empty segment (not in the loop's test).
      if (i + 1 === length) {
        length = i;
        break;
      }
      before = shape;
      shape = (Math.imul(shape, 31) + 47) & HASH_MASK;
      i++;
    }
    chars[length] = 47;
    this.#length = length;
    this.#shape = shape;
    this.#keysHash = keys;
    this.#marks = marks;
    return count;
  }

  /**
   * Runs the path checks of the route record at `slots[at]` (see `Slot`) on the scanned
   * path: whether it matches, with its values then in `#from`, `#to` and `#texts`.
   */
  #matches(slots: readonly Slot[], at: number, path: string, count: number): boolean {
    const starts = this.#starts;
    const ends = this.#ends;
    const from = this.#from;
    const to = this.#to;
    const texts = this.#texts;
    const regex = slots[at + RECORD_REGEX] as RegExp | null;
    if (regex !== null) {
      const route = slots[at + RECORD_ROUTE] as Route;
      // Only a route that backtracks is kept from a text too long for it (`#passOver`).
      for (let segment = 0; route.backtracks && segment < count; segment++) {
        if (ends[segment] - starts[segment] > this.#segmentBound(route, segment)) {
          return this.#passOver(route, path, count);
        }
      }
      const match = regex.exec(path);
      if (match === null) return false;
      for (let group = 1; group < match.length; group++) {
        from[group - 1] = -1;
        texts[group - 1] = match[group];
      }
      return true;
    }
    const last = at + (slots[at + RECORD_PLAN] as number);
    for (let i = at + RECORD_CHECKS; i < last; i += CHECK_SLOTS) {
      const segment = slots[i + 1] as number;
      // An absent optional segment: a lone variable, so never a MIXED or SPLIT check,
      // whose parts this `continue` would not skip.
      if (segment >= count) continue;
      const start = starts[segment];
      const end = ends[segment];
      const kind = slots[i] as number;
      const value = slots[i + 2] as number;
      switch (kind) {
        case LITERAL + KEYED:
          // The hash of its text (in the value slot) rules most other texts out cheaply.
          if (this.#keyHashes[segment] !== value) return false;
          // falls through
        case LITERAL: {
          const codes = this.#pool.codes;
          const literal = slots[i + 3] as number;
          if (end - start !== pooledLength(codes, literal)) return false;
          if (!holdsAt(codes, literal, this.#chars, start)) return false;
          break;
        }
        case PLAIN:
          if (this.#cuts[segment] !== end) return false;
          from[value] = start;
          to[value] = end;
          break;
        case REQUIRED: {
          const route = slots[at + RECORD_ROUTE] as Route;
          if (route.backtracks && end - start > this.#longest) {
            return this.#passOver(route, path, count);
          }
          const text = path.slice(start, end);
          if (!(slots[i + 3] as RegExp).test(text)) return false;
          from[value] = -1;
          texts[value] = text;
          break;
        }
        case MIXED:
          if (!this.#mixed(slots, i, segment)) return false;
          i += slots[i + 3] as number;
          break;
        case SPLIT:
          if (!this.#split(slots, i, segment)) return false;
          i += slots[i + 3] as number;
          break;
        default: {
          const route = slots[at + RECORD_ROUTE] as Route;
          if (route.backtracks && end - start > this.#segmentBound(route, segment)) {
            return this.#passOver(route, path, count);
          }
          const match = (slots[i + 3] as RegExp).exec(path.slice(start, end));
          if (match === null) return false;
          for (let group = 1; group < match.length; group++) {
            from[value + group - 1] = -1;
            texts[value + group - 1] = match[group];
          }
        }
      }
    }
    return true;
  }

  /** The values of the route record at `slots[at]`, which #matches just matched. */
  #valuesOf(
    slots: readonly Slot[],
    at: number,
    path: string,
    count: number,
  ): (string | undefined)[] {
    if (slots[at + RECORD_SEGMENT_OF] !== null) this.#markAbsent(slots, at, count);
    const from = this.#from;
    const to = this.#to;
    const n = slots[at + RECORD_VALUES] as number;
    const out = new Array<string | undefined>(n);
    for (let i = 0; i < n; i++) out[i] = from[i] < 0 ? this.#texts[i] : path.slice(from[i], to[i]);
    return out;
  }

  /**
   * Marks the values of the optional segments a path of `count` segments leaves out as
   * absent (`#matches` skips their checks, so `#from` still holds an earlier request's).
   */
  #markAbsent(slots: readonly Slot[], at: number, count: number): void {
    const segmentOf = slots[at + RECORD_SEGMENT_OF] as readonly number[];
    for (let i = 0; i < segmentOf.length; i++) {
      if (segmentOf[i] >= count) {
        this.#from[i] = -1;
        this.#texts[i] = undefined;
      }
    }
  }

  /**
   * Matches the scanned path's `segment` against the `MIXED` check at `slots[at]`: its
   * literals in place, each variable up to the next separator.
   */
  #mixed(slots: readonly Slot[], at: number, segment: number): boolean {
    const chars = this.#chars;
    const start = this.#starts[segment];
    const end = this.#ends[segment];
    const cut = this.#cuts[segment];
    const from = this.#from;
    const to = this.#to;
    let value = slots[at + 2] as number;
    let position = start;
    const codes = this.#pool.codes;
    const last = at + CHECK_SLOTS + (slots[at + 3] as number);
    for (let i = at + CHECK_SLOTS; i < last; i++) {
      const literal = slots[i] as number;
      if (literal !== VARIABLE_PART) {
        // A literal holds no "/", so it cannot run past the segment's end.
        if (!holdsAt(codes, literal, chars, position)) return false;
        position += pooledLength(codes, literal);
      } else {
        // #scan found the segment's first separator already.
        let stop = position === start ? cut : position;
        while (stop < end && !isSeparator(chars[stop])) stop++;
        if (stop === position) return false;
        from[value] = position;
        to[value++] = stop;
        position = stop;
      }
    }
    return position === end;
  }

  /**
   * Matches the scanned path's `segment` against the `SPLIT` check at `slots[at]`: the
   * split a backtracking `RegExp` finds, each variable as long as the rest still lets
   * match, in time linear in the segment's length for each part. First, from the right,
   * which positions each remaining part sequence can match from (`#reach`, a row per
   * part); then, from the left, each variable takes the longest span that reaches.
   */
  #split(slots: readonly Slot[], at: number, segment: number): boolean {
    const chars = this.#chars;
    const start = this.#starts[segment];
    const length = this.#ends[segment] - start;
    const parts = slots[at + 3] as number;
    const first = at + CHECK_SLOTS;
    const codes = this.#pool.codes;
    const width = length + 1;
    let reach = this.#reach;
    if (reach.length < (parts + 1) * width) {
      reach = new Uint8Array((parts + 1) * width);
      // Kept for later requests only while small: the rows for one long segment of a
      // route with thousands of parts took 125 MB, until the next draw.
      if (reach.length <= KEPT_REACH) this.#reach = reach;
    }
    reach.fill(0, 0, (parts + 1) * width);
    reach[parts * width + length] = 1;
    for (let part = parts - 1; part >= 0; part--) {
      const slot = slots[first + part] as number;
      const row = part * width;
      const next = row + width;
      if (slot >= 0) {
        const size = pooledLength(codes, slot);
        for (let p = 0; p + size <= length; p++) {
          if (reach[next + p + size] === 1 && holdsAt(codes, slot, chars, start + p)) {
            reach[row + p] = 1;
          }
        }
      } else {
        // From p, a variable ends anywhere before the next separator (at least one on).
        let any = 0;
        for (let p = length - 1; p >= 0; p--) {
          if (isSeparator(chars[start + p])) any = 0;
          else reach[row + p] = any |= reach[next + p + 1];
        }
      }
    }
    if (reach[0] === 0) return false;
    let value = slots[at + 2] as number;
    let p = 0;
    for (let part = 0; part < parts; part++) {
      const slot = slots[first + part] as number;
      if (slot >= 0) {
        p += pooledLength(codes, slot);
        continue;
      }
      let stop = p + 1;
      while (stop < length && !isSeparator(chars[start + stop])) stop++;
      const next = (part + 1) * width;
      while (reach[next + stop] === 0) stop--;
      this.#from[value] = start + p;
      this.#to[value++] = start + stop;
      p = stop;
    }
    return true;
  }

  /**
   * The 405 information of a path no route of the method matches, or `MISS`. Its values
   * are those of the first route that matches, or with `valued` false `NO_VALUES` (see
   * `matchRequest`): finding them took about a sixth of the router's work for a 405.
   */
  #refusal(
    entries: readonly Entry[],
    mc: number,
    path: string,
    count: number,
    valued: boolean,
  ): MatchResult {
    let first: readonly (string | undefined)[] | null = null;
    let matched = "";
    const allowed: string[] = [];
    // The method classes in `allowed` (but OTHER), one bit each.
    let seen = 0;
    for (const entry of entries) {
      // Routes that accept the method were tried and failed; ANY ones accept them all.
      const { methodClass } = entry;
      if (methodClass === -1 || methodClass === mc || (seen & (1 << methodClass)) !== 0) continue;
      const method = entry.route.method;
      if (methodClass === OTHER && allowed.includes(method)) continue;
      if (entry.shape !== this.#shape && entry.shape !== -1) continue;
      // The routes of a resource member share one path (show, update, destroy): a route
      // with the source of the first that matched matches too, without its checks.
      if (first === null || entry.route.source !== matched) {
        const at = this.#recordAt(entry);
        if (!this.#matches(this.#records, at, path, count)) continue;
        if (first === null) {
          first = valued ? this.#valuesOf(this.#records, at, path, count) : NO_VALUES;
          matched = entry.route.source;
        }
      }
      if (methodClass !== OTHER) seen |= 1 << methodClass;
      allowed.push(method);
    }
    return first === null ? MISS : { route: null, values: first, allowed };
  }

  /** Where the record of a route (see `Slot`) starts in `#records`, laid out on first use. */
  #recordAt(entry: Entry): number {
    if (entry.at < 0) entry.at = addRecord(this.#records, entry.route, this.#pool);
    return entry.at;
  }

  /** Lays out the run of leaf `id` for method class `mc` (see `#nodes`); its start. */
  #run(id: number, mc: number): number {
    const at = this.#runs.length;
    let count = 0;
    this.#runs.push(0);
    for (const entry of this.#nodeEntries[id]) {
      if (entry.methodClass !== -1 && entry.methodClass !== mc) continue;
      this.#runs.push(entry.shape, this.#recordAt(entry));
      count++;
    }
    this.#runs[at] = count;
    this.#nodes[id * NODE_SLOTS + 1 + mc] = at + 1;
    return at;
  }

  /** The root for paths of `count` segments: its id. Every route it holds owns it. */
  #root(count: number): number {
    const entries = this.#entries.filter((entry) =>
      entry.required <= count && count <= entry.keys.length
    );
    return this.#node(entries, entries);
  }

  /** A new, unexpanded node with these routes and owners (see `#nodeOwners`); its id. */
  #node(entries: readonly Entry[], owners: readonly Entry[]): number {
    const id = this.#nodeEntries.push(entries) - 1;
    this.#nodeOwners.push(owners);
    if (id * NODE_SLOTS === this.#nodes.length) {
      const grown = new Int32Array(this.#nodes.length * 2);
      grown.set(this.#nodes);
      this.#nodes = grown;
    }
    this.#nodes[id * NODE_SLOTS] = UNEXPANDED;
    return id;
  }

  /** Builds the children of node `id`, `depth` segments down; its new state. */
  #expand(id: number, depth: number, count: number): number {
    const entries = this.#nodeEntries[id];
    if (entries.length <= SMALL || depth >= count || this.#nodeOwners[id].length === 0) {
      return this.#nodes[id * NODE_SLOTS] = LEAF;
    }
    const byHash = new Map<number, Entry[]>();
    const wildcards: Entry[] = [];
    // Each child's routes: those with its key hash and the wildcards, in registration order.
    for (const entry of entries) {
      const key = entry.keys[depth];
      if (key === null) {
        wildcards.push(entry);
        for (const list of byHash.values()) list.push(entry);
      } else {
        const hash = hashOf(key);
        const list = byHash.get(hash);
        if (list === undefined) byHash.set(hash, [...wildcards, entry]);
        else list.push(entry);
      }
    }
    // With no key here, pass through to the wildcards, unless no deeper key remains.
    if (
      byHash.size === 0 &&
      !entries.some((entry) =>
        entry.keys.some((key, at) => at > depth && at < count && key !== null)
      )
    ) {
      return this.#nodes[id * NODE_SLOTS] = LEAF;
    }
    // A child's owners: the node's owners among its routes with a key here (for the child
    // for other keys: without one).
    const owners = new Set(this.#nodeOwners[id]);
    const owned = (list: readonly Entry[], keyed: boolean) =>
      list.filter((entry) => owners.has(entry) && (entry.keys[depth] !== null) === keyed);
    const other = this.#node(wildcards, owned(wildcards, false));
    // Keys that none of the node's owners has here: one leaf with the node's routes.
    let shared = -1;
    for (const [hash, list] of byHash) {
      const owning = owned(list, true);
      let child: number;
      if (owning.length > 0) child = this.#node(list, owning);
      else child = shared < 0 ? shared = this.#node(entries, []) : shared;
      this.#addChild(id, hash, child);
    }
    return this.#nodes[id * NODE_SLOTS] = other;
  }

  /** Enters a child in the children table, growing it to stay at most half full. */
  #addChild(parent: number, hash: number, child: number): void {
    if (++this.#childCount * 2 > this.#children.length / CHILD_SLOTS) {
      const old = this.#children;
      this.#children = new Int32Array(old.length * 2);
      this.#childShift--;
      for (let slot = 0; slot < old.length; slot += CHILD_SLOTS) {
        if (old[slot] !== 0) this.#place(old[slot] - 1, old[slot + 1], old[slot + 2]);
      }
    }
    this.#place(parent, hash, child);
  }

  /** Writes a child into the first free slot from its place in the children table. */
  #place(parent: number, hash: number, child: number): void {
    const table = this.#children;
    let slot = childSlot(parent, hash, this.#childShift) * CHILD_SLOTS;
    while (table[slot] !== 0) {
      slot += CHILD_SLOTS;
      if (slot === table.length) slot = 0;
    }
    table[slot] = parent + 1;
    table[slot + 1] = hash;
    table[slot + 2] = child;
  }
}
