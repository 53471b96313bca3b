// Local stand-in for `jsr:@std/assert@^1`.
//
// JSR is not reachable from the build machines, so deno.json maps the import
// name `@std/assert` to this file. On a machine with JSR access the
// import-map entry in deno.json becomes
// `"@std/assert": "jsr:@std/assert@^1"` and nothing else changes: every test
// keeps importing from "@std/assert".
//
// The exported functions keep the signatures and semantics of @std/assert
// 1.x. `equal()` (and therefore `assertEquals`, `assertNotEquals`,
// `assertArrayIncludes` and `assertObjectMatch`) is a port of std's
// `assert/equal.ts`; it is deliberately NOT `node:assert`'s
// `deepStrictEqual`, which differs from std (e.g. it treats a null-prototype
// object and a plain object with the same entries as unequal). Failure
// messages follow std's wording, with an uncoloured line diff of
// `Deno.inspect` output in place of std's coloured word diff.

/** Options passed to `Deno.inspect` when rendering values in messages (as std's `format`). */
const INSPECT_OPTIONS = {
  depth: Infinity,
  sorted: true,
  trailingComma: true,
  compact: false,
  iterableLimit: Infinity,
  getters: true,
  strAbbreviateSize: Infinity,
} as const;

/** Renders a value for an assertion message, like std's internal `format`. */
function format(v: unknown): string {
  return Deno.inspect(v, INSPECT_OPTIONS);
}

/** One line of a line diff. */
interface DiffLine {
  kind: "common" | "removed" | "added";
  value: string;
}

/** Computes a line diff of `a` (actual) against `b` (expected) via LCS. */
function diffLines(a: string[], b: string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  if (n * m > 4_000_000) {
    return [
      ...a.map((value): DiffLine => ({ kind: "removed", value })),
      ...b.map((value): DiffLine => ({ kind: "added", value })),
    ];
  }
  // lcs[i][j] = length of the LCS of a[i..] and b[j..]
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const result: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      result.push({ kind: "common", value: a[i] });
      i++;
      j++;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
      result.push({ kind: "removed", value: a[i++] });
    } else {
      result.push({ kind: "added", value: b[j++] });
    }
  }
  while (i < n) result.push({ kind: "removed", value: a[i++] });
  while (j < m) result.push({ kind: "added", value: b[j++] });
  return result;
}

/** Builds std-style "[Diff] Actual / Expected" message lines for two rendered values. */
function buildDiffMessage(actualString: string, expectedString: string): string {
  const lines = diffLines(actualString.split("\n"), expectedString.split("\n"));
  const sign = { common: "    ", removed: "-   ", added: "+   " };
  return [
    "",
    "",
    "    [Diff] Actual / Expected",
    "",
    "",
    ...lines.map((line) => `${sign[line.kind]}${line.value}`),
    "",
  ].join("\n");
}

/**
 * Error thrown when an assertion fails.
 */
export class AssertionError extends Error {
  /**
   * Constructs a new instance.
   *
   * @param message The error message.
   * @param options Additional options (e.g. `cause`).
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "AssertionError";
  }
}

// ---------------------------------------------------------------------------
// equal(): port of std's assert/equal.ts
// ---------------------------------------------------------------------------

type KeyedCollection = Set<unknown> | Map<unknown, unknown>;

function isKeyedCollection(x: unknown): x is KeyedCollection {
  return x instanceof Set || x instanceof Map;
}

function prototypesEqual(a: object, b: object): boolean {
  const pa = Object.getPrototypeOf(a);
  const pb = Object.getPrototypeOf(b);
  return pa === pb ||
    pa === Object.prototype && pb === null ||
    pa === null && pb === Object.prototype;
}

function isBasicObjectOrArray(obj: object): boolean {
  const proto = Object.getPrototypeOf(obj);
  return proto === null || proto === Object.prototype || proto === Array.prototype;
}

function ownKeys(obj: object): (string | symbol)[] {
  return [...Object.getOwnPropertyNames(obj), ...Object.getOwnPropertySymbols(obj)];
}

function getKeysDeep(obj: object): Set<string | symbol> {
  const keys = new Set<string | symbol>();
  while (obj !== Object.prototype && obj !== Array.prototype && obj != null) {
    for (const key of ownKeys(obj)) {
      keys.add(key);
    }
    obj = Object.getPrototypeOf(obj);
  }
  return keys;
}

// deno-lint-ignore no-explicit-any
const Temporal = (globalThis as any).Temporal ?? Object.create(null);

/** Prototypes whose instances compare accurately via `String(instance)`. */
const stringComparablePrototypes = new Set<unknown>(
  [
    Intl.Locale,
    RegExp,
    Temporal.Duration,
    Temporal.Instant,
    Temporal.PlainDate,
    Temporal.PlainDateTime,
    Temporal.PlainTime,
    Temporal.PlainYearMonth,
    Temporal.PlainMonthDay,
    Temporal.ZonedDateTime,
    URL,
    URLSearchParams,
  ].filter((x) => x != null).map((x) => x.prototype),
);

function isPrimitive(x: unknown): boolean {
  return typeof x === "string" ||
    typeof x === "number" ||
    typeof x === "boolean" ||
    typeof x === "bigint" ||
    typeof x === "symbol" ||
    x == null;
}

type TypedArray = Pick<Uint8Array | BigUint64Array, "length" | number>;
const TypedArray = Object.getPrototypeOf(Uint8Array);

function compareTypedArrays(a: TypedArray, b: TypedArray): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < b.length; i++) {
    if (!sameValueZero(a[i], b[i])) return false;
  }
  return true;
}

/** Strict equality (`0 === -0`) or `Object.is` (`NaN` equals `NaN`). */
function sameValueZero(a: unknown, b: unknown): boolean {
  return a === b || Object.is(a, b);
}

/**
 * Deep equality comparison used in assertions (same algorithm as std's
 * `equal`): plain and null-prototype objects compare equal, key order is
 * ignored, and Map/Set/Date/RegExp/URL/typed arrays are compared by content.
 *
 * @param a The actual value.
 * @param b The expected value.
 * @returns `true` if the values are deeply equal, `false` otherwise.
 */
export function equal(a: unknown, b: unknown): boolean {
  const seen = new Map<unknown, unknown>();
  return (function compare(a: unknown, b: unknown): boolean {
    if (sameValueZero(a, b)) return true;
    if (isPrimitive(a) || isPrimitive(b)) return false;

    if (a instanceof Date && b instanceof Date) {
      return Object.is(a.getTime(), b.getTime());
    }
    if (a && typeof a === "object" && b && typeof b === "object") {
      if (!prototypesEqual(a, b)) {
        return false;
      }
      if (a instanceof TypedArray) {
        return compareTypedArrays(a as TypedArray, b as TypedArray);
      }
      if (
        a instanceof ArrayBuffer ||
        (globalThis.SharedArrayBuffer && a instanceof SharedArrayBuffer)
      ) {
        return compareTypedArrays(
          new Uint8Array(a),
          new Uint8Array(b as ArrayBuffer | SharedArrayBuffer),
        );
      }
      if (a instanceof WeakMap) {
        throw new TypeError("Cannot compare WeakMap instances");
      }
      if (a instanceof WeakSet) {
        throw new TypeError("Cannot compare WeakSet instances");
      }
      if (a instanceof WeakRef) {
        return compare(a.deref(), (b as WeakRef<WeakKey>).deref());
      }
      if (seen.get(a) === b) {
        return true;
      }
      if (Object.keys(a).length !== Object.keys(b).length) {
        return false;
      }
      seen.set(a, b);
      if (isKeyedCollection(a) && isKeyedCollection(b)) {
        if (a.size !== b.size) {
          return false;
        }

        const aKeys = [...a.keys()];
        const primitiveKeysFastPath = aKeys.every(isPrimitive);
        if (primitiveKeysFastPath) {
          if (a instanceof Set) {
            return a.symmetricDifference(b).size === 0;
          }
          for (const key of aKeys) {
            if (!b.has(key) || !compare(a.get(key), (b as Map<unknown, unknown>).get(key))) {
              return false;
            }
          }
          return true;
        }

        let unmatchedEntries = a.size;
        for (const [aKey, aValue] of a.entries()) {
          for (const [bKey, bValue] of b.entries()) {
            // Map keys can be references, so they must be deeply equal too.
            if (!compare(aKey, bKey)) continue;
            if ((aKey === aValue && bKey === bValue) || compare(aValue, bValue)) {
              unmatchedEntries--;
              break;
            }
          }
        }
        return unmatchedEntries === 0;
      }

      let keys: Iterable<string | symbol>;
      if (isBasicObjectOrArray(a)) {
        // fast path
        keys = ownKeys({ ...a, ...b });
      } else if (stringComparablePrototypes.has(Object.getPrototypeOf(a))) {
        // medium path
        return String(a) === String(b);
      } else {
        // slow path
        keys = getKeysDeep(a).union(getKeysDeep(b));
      }

      for (const key of keys) {
        type Key = keyof typeof a;
        if (!compare(a[key as Key], b[key as Key])) {
          return false;
        }
        if (((key in a) && !(key in b)) || ((key in b) && !(key in a))) {
          return false;
        }
      }
      return true;
    }
    return false;
  })(a, b);
}

// ---------------------------------------------------------------------------
// Assertions
// ---------------------------------------------------------------------------

/**
 * Asserts that `expr` is truthy; throws an {@linkcode AssertionError} with
 * `msg` otherwise.
 *
 * @param expr The expression to test.
 * @param msg The optional message to display if the assertion fails.
 */
export function assert(expr: unknown, msg = ""): asserts expr {
  if (!expr) {
    throw new AssertionError(msg);
  }
}

/** Assertion condition for {@linkcode assertFalse}. */
export type Falsy = false | 0 | 0n | "" | null | undefined;

/**
 * Asserts that `expr` is falsy; throws an {@linkcode AssertionError} with
 * `msg` otherwise.
 *
 * @param expr The expression to test.
 * @param msg The optional message to display if the assertion fails.
 */
export function assertFalse(expr: unknown, msg = ""): asserts expr is Falsy {
  if (expr) {
    throw new AssertionError(msg);
  }
}

/**
 * Asserts that `actual` and `expected` are deeply equal according to
 * {@linkcode equal}; throws with a diff otherwise.
 *
 * @typeParam T The type of the values to compare.
 * @param actual The actual value.
 * @param expected The expected value.
 * @param msg The optional message to display if the assertion fails.
 */
export function assertEquals<T>(actual: T, expected: T, msg?: string): void {
  if (equal(actual, expected)) {
    return;
  }
  const msgSuffix = msg ? `: ${msg}` : ".";
  const diffMsg = buildDiffMessage(format(actual), format(expected));
  throw new AssertionError(`Values are not equal${msgSuffix}\n${diffMsg}`);
}

/**
 * Asserts that `actual` and `expected` are NOT deeply equal according to
 * {@linkcode equal}.
 *
 * @typeParam T The type of the values to compare.
 * @param actual The actual value.
 * @param expected The expected value.
 * @param msg The optional message to display if the assertion fails.
 */
export function assertNotEquals<T>(actual: T, expected: T, msg?: string): void {
  if (!equal(actual, expected)) {
    return;
  }
  const msgSuffix = msg ? `: ${msg}` : ".";
  throw new AssertionError(
    `Expected actual: ${format(actual)} not to be: ${format(expected)}${msgSuffix}`,
  );
}

/**
 * Asserts that `actual` and `expected` are the same value per `Object.is`.
 *
 * @typeParam T The type of the expected value.
 * @param actual The actual value.
 * @param expected The expected value.
 * @param msg The optional message to display if the assertion fails.
 */
export function assertStrictEquals<T>(
  actual: unknown,
  expected: T,
  msg?: string,
): asserts actual is T {
  if (Object.is(actual, expected)) {
    return;
  }
  const msgSuffix = msg ? `: ${msg}` : ".";
  const actualString = format(actual);
  const expectedString = format(expected);
  let message: string;
  if (actualString === expectedString) {
    const withOffset = actualString.split("\n").map((l) => `    ${l}`).join("\n");
    message =
      `Values have the same structure but are not reference-equal${msgSuffix}\n\n${withOffset}\n`;
  } else {
    message = `Values are not strictly equal${msgSuffix}\n${
      buildDiffMessage(actualString, expectedString)
    }`;
  }
  throw new AssertionError(message);
}

/**
 * Asserts that `actual` and `expected` are NOT the same value per `Object.is`.
 *
 * @typeParam T The type of the values to compare.
 * @param actual The actual value.
 * @param expected The expected value.
 * @param msg The optional message to display if the assertion fails.
 */
export function assertNotStrictEquals<T>(actual: T, expected: T, msg?: string): void {
  if (!Object.is(actual, expected)) {
    return;
  }
  const msgSuffix = msg ? `: ${msg}` : ".";
  throw new AssertionError(
    `Expected "actual" to not be strictly equal to: ${format(actual)}${msgSuffix}\n`,
  );
}

/**
 * Asserts that `actual` is neither `null` nor `undefined`.
 *
 * @typeParam T The type of the actual value.
 * @param actual The value to check.
 * @param msg The optional message to display if the assertion fails.
 */
export function assertExists<T>(actual: T, msg?: string): asserts actual is NonNullable<T> {
  if (actual === undefined || actual === null) {
    const msgSuffix = msg ? `: ${msg}` : ".";
    throw new AssertionError(
      `Expected actual: "${actual}" to not be null or undefined${msgSuffix}`,
    );
  }
}

/**
 * Asserts that `actual` is an instance of `expectedType`.
 *
 * @typeParam T The expected constructor type.
 * @param actual The value to check.
 * @param expectedType The expected class constructor.
 * @param msg The optional message to display if the assertion fails.
 */
export function assertInstanceOf<
  // deno-lint-ignore no-explicit-any
  T extends abstract new (...args: any[]) => any,
>(actual: unknown, expectedType: T, msg = ""): asserts actual is InstanceType<T> {
  if (actual instanceof expectedType) return;

  const msgSuffix = msg ? `: ${msg}` : ".";
  const expectedTypeStr = expectedType.name;

  let actualTypeStr = "";
  if (actual === null) {
    actualTypeStr = "null";
  } else if (actual === undefined) {
    actualTypeStr = "undefined";
  } else if (typeof actual === "object") {
    actualTypeStr = actual.constructor?.name ?? "Object";
  } else {
    actualTypeStr = typeof actual;
  }

  if (expectedTypeStr === actualTypeStr) {
    msg = `Expected object to be an instance of "${expectedTypeStr}"${msgSuffix}`;
  } else if (actualTypeStr === "function") {
    msg =
      `Expected object to be an instance of "${expectedTypeStr}" but was not an instanced object${msgSuffix}`;
  } else {
    msg =
      `Expected object to be an instance of "${expectedTypeStr}" but was "${actualTypeStr}"${msgSuffix}`;
  }
  throw new AssertionError(msg);
}

/** Any constructor, as std's `assertInstanceOf` takes. */
// deno-lint-ignore no-explicit-any
export type AnyConstructor = new (...args: any[]) => any;
/** The instance type of a constructor (std's name for `InstanceType`). */
export type GetConstructorType<T extends AnyConstructor> = InstanceType<T>;

/**
 * Asserts that `actual` is not an instance of `unexpectedType`.
 *
 * @typeParam A The type of the value.
 * @typeParam T The type it must not be an instance of.
 * @param actual The value to check.
 * @param unexpectedType The class it must not be an instance of.
 * @param msg The optional message to display if the assertion fails.
 */
export function assertNotInstanceOf<A, T>(
  actual: A,
  // deno-lint-ignore no-explicit-any
  unexpectedType: abstract new (...args: any[]) => T,
  msg?: string,
): asserts actual is Exclude<A, T> {
  const msgSuffix = msg ? `: ${msg}` : ".";
  assertFalse(
    actual instanceof unexpectedType,
    `Expected object to not be an instance of "${typeof unexpectedType}"${msgSuffix}`,
  );
}

/**
 * Asserts that the string `actual` matches the RegExp `expected`.
 *
 * @param actual The string to test.
 * @param expected The pattern it must match.
 * @param msg The optional message to display if the assertion fails.
 */
export function assertMatch(actual: string, expected: RegExp, msg?: string): void {
  if (expected.test(actual)) return;
  const msgSuffix = msg ? `: ${msg}` : ".";
  throw new AssertionError(`Expected actual: "${actual}" to match: "${expected}"${msgSuffix}`);
}

/**
 * Asserts that the string `actual` does NOT match the RegExp `expected`.
 *
 * @param actual The string to test.
 * @param expected The pattern it must not match.
 * @param msg The optional message to display if the assertion fails.
 */
export function assertNotMatch(actual: string, expected: RegExp, msg?: string): void {
  if (!expected.test(actual)) return;
  const msgSuffix = msg ? `: ${msg}` : ".";
  throw new AssertionError(
    `Expected actual: "${actual}" to not match: "${expected}"${msgSuffix}`,
  );
}

/**
 * Asserts that the string `actual` includes the substring `expected`.
 *
 * @param actual The string to search in.
 * @param expected The substring that must be present.
 * @param msg The optional message to display if the assertion fails.
 */
export function assertStringIncludes(actual: string, expected: string, msg?: string): void {
  if (actual.includes(expected)) return;
  const msgSuffix = msg ? `: ${msg}` : ".";
  throw new AssertionError(`Expected actual: "${actual}" to contain: "${expected}"${msgSuffix}`);
}

/** An array-like object (`Array`, `Uint8Array`, `NodeList`, etc.) that is not a string. */
export type ArrayLikeArg<T> = ArrayLike<T> & object;

/**
 * Asserts that `actual` contains every value of `expected`, comparing with
 * {@linkcode equal} (order and multiplicity are not checked).
 *
 * @typeParam T The element type.
 * @param actual The array-like to search within.
 * @param expected The values that must be present in `actual`.
 * @param msg The optional message to display if the assertion fails.
 */
export function assertArrayIncludes<T>(
  actual: ArrayLikeArg<T>,
  expected: ArrayLikeArg<T>,
  msg?: string,
): void {
  const missing: unknown[] = [];
  for (let i = 0; i < expected.length; i++) {
    let found = false;
    for (let j = 0; j < actual.length; j++) {
      if (equal(expected[i], actual[j])) {
        found = true;
        break;
      }
    }
    if (!found) {
      missing.push(expected[i]);
    }
  }
  if (missing.length === 0) {
    return;
  }
  const msgSuffix = msg ? `: ${msg}` : ".";
  throw new AssertionError(
    `Expected actual: "${format(actual)}" to include: "${format(expected)}"${msgSuffix}\nmissing: ${
      format(missing)
    }`,
  );
}

type Loose = Record<PropertyKey, unknown>;

function isObject(val: unknown): boolean {
  return typeof val === "object" && val !== null;
}

function defineProperty(target: object, key: PropertyKey, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    configurable: true,
    enumerable: true,
    writable: true,
  });
}

/** Port of std's object_match `filter`: projects `a` onto the keys present in `b`, deeply. */
function filter(a: Loose, b: Loose): Loose {
  const seen = new WeakMap<Loose | unknown[], Loose | unknown[]>();
  return filterObject(a, b);

  function filterMap(value: Map<unknown, unknown>, subset: Map<unknown, unknown>) {
    return new Map(
      [...value].filter(([k]) => subset.has(k)).map(([k, v]) => {
        const v2 = subset.get(k);
        if (isObject(v) && isObject(v2)) {
          return [k, filterObject(v as Loose, v2 as Loose)];
        }
        return [k, v];
      }),
    );
  }

  function filterValue(value: unknown, subset: unknown): unknown {
    // Keep RegExps as-is so pattern and flags are not lost.
    if (value instanceof RegExp) return value;
    if (Array.isArray(value) && Array.isArray(subset)) {
      return filterArray(value, subset);
    }
    if (isObject(value) && isObject(subset)) {
      if (value instanceof Map && subset instanceof Map) {
        return filterMap(value, subset);
      }
      if (value instanceof Set && subset instanceof Set) {
        return value.intersection(subset);
      }
      return filterObject(value as Loose, subset as Loose);
    }
    return value;
  }

  function filterObject(a: Loose, b: Loose): Loose {
    // Prevent infinite loops on circular references with the same filter.
    const memo = seen.get(a);
    if (memo && memo === b) return a;

    try {
      seen.set(a, b);
    } catch (err) {
      if (err instanceof TypeError) {
        throw new TypeError(
          `Cannot assertObjectMatch ${a === null ? null : `type ${typeof a}`}`,
        );
      }
    }

    // Keep keys and symbols present in both actual and expected.
    const filtered = {} as Loose;
    const keysA = Reflect.ownKeys(a);
    const keysB = Reflect.ownKeys(b);
    const common = keysA.filter((key) => keysB.includes(key));

    if (keysA.length && keysB.length && !common.length) {
      // Both non-empty but disjoint: return the entries of `a` for the diff.
      for (const key of keysA) defineProperty(filtered, key, a[key]);
      return filtered;
    }

    for (const key of common) {
      defineProperty(filtered, key, filterValue(a[key], b[key]));
    }
    return filtered;
  }

  function filterArray(a: unknown[], b: unknown[]): unknown[] {
    const memo = seen.get(a);
    if (memo && memo === b) return a;
    seen.set(a, b);

    const filtered: unknown[] = [];
    const count = Math.min(a.length, b.length);
    for (let i = 0; i < count; ++i) {
      filtered.push(filterValue(a[i], b[i]));
    }
    return filtered;
  }
}

/**
 * Asserts that `expected` is a deep subset of `actual`: every key of
 * `expected` (recursively, including array elements by index) must be present
 * in `actual` with an {@linkcode equal} value; extra keys in `actual` are
 * ignored.
 *
 * @param actual The object to match against.
 * @param expected The subset that must be present.
 * @param msg The optional message to display if the assertion fails.
 */
export function assertObjectMatch(
  // deno-lint-ignore no-explicit-any
  actual: Record<PropertyKey, any>,
  expected: Record<PropertyKey, unknown>,
  msg?: string,
): void {
  return assertEquals(filter(actual, expected), filter(expected, expected), msg);
}

// deno-lint-ignore no-explicit-any
type ErrorConstructorLike<E extends Error> = abstract new (...args: any[]) => E;

/**
 * Asserts that `error` is an `Error`, optionally an instance of `ErrorClass` whose message
 * includes `msgMatches` (a string) or matches it (a RegExp). Used by assertThrows and
 * assertRejects too.
 *
 * @typeParam E The expected error type.
 * @param error The value to check.
 * @param ErrorClass The optional class the error must be an instance of.
 * @param msgMatches The optional string or RegExp its message must include or match.
 * @param msg The optional message to display if the assertion fails.
 */
export function assertIsError<E extends Error = Error>(
  error: unknown,
  ErrorClass?: ErrorConstructorLike<E>,
  msgMatches?: string | RegExp,
  msg?: string,
): asserts error is E {
  const msgSuffix = msg ? `: ${msg}` : ".";
  if (!(error instanceof Error)) {
    throw new AssertionError(`Expected "error" to be an Error object${msgSuffix}`);
  }
  if (ErrorClass && !(error instanceof ErrorClass)) {
    throw new AssertionError(
      `Expected error to be instance of "${ErrorClass.name}", but was "${error?.constructor?.name}"${msgSuffix}`,
    );
  }
  let msgCheck;
  if (typeof msgMatches === "string") {
    msgCheck = stripAnsiCode(error.message).includes(stripAnsiCode(msgMatches));
  }
  if (msgMatches instanceof RegExp) {
    msgCheck = msgMatches.test(stripAnsiCode(error.message));
  }
  if (msgMatches && !msgCheck) {
    throw new AssertionError(
      `Expected error message to include ${
        msgMatches instanceof RegExp ? msgMatches.toString() : JSON.stringify(msgMatches)
      }, but got ${JSON.stringify(error?.message)}${msgSuffix}`,
    );
  }
}

const ANSI_PATTERN = new RegExp(
  [
    "[\\u001B\\u009B][[\\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\\d\\/#&.:=?%@~_]+)*|[a-zA-Z\\d]+(?:;[-a-zA-Z\\d\\/#&.:=?%@~_]*)*)?\\u0007)",
    "(?:(?:\\d{1,4}(?:;\\d{0,4})*)?[\\dA-PR-TXZcf-nq-uy=><~]))",
  ].join("|"),
  "g",
);

function stripAnsiCode(string: string): string {
  return string.replace(ANSI_PATTERN, "");
}

/**
 * Calls `fn`, expecting it to throw; returns the thrown value.
 *
 * @param fn The function to execute.
 * @param msg The optional message to display if the assertion fails.
 * @returns The thrown value.
 */
export function assertThrows(fn: () => unknown, msg?: string): unknown;
/**
 * Calls `fn`, expecting it to throw an instance of `ErrorClass` whose message
 * includes `msgIncludes` (when given); returns the thrown error.
 *
 * @typeParam E The error class to assert.
 * @param fn The function to execute.
 * @param ErrorClass The expected error class.
 * @param msgIncludes A string the error message must include.
 * @param msg The optional message to display if the assertion fails.
 * @returns The thrown error.
 */
export function assertThrows<E extends Error = Error>(
  fn: () => unknown,
  ErrorClass: ErrorConstructorLike<E>,
  msgIncludes?: string,
  msg?: string,
): E;
export function assertThrows<E extends Error = Error>(
  fn: () => unknown,
  errorClassOrMsg?: ErrorConstructorLike<E> | string,
  msgIncludesOrMsg?: string,
  msg?: string,
): E | Error | unknown {
  let ErrorClass: ErrorConstructorLike<E> | undefined;
  let msgIncludes: string | undefined;
  let err;

  if (typeof errorClassOrMsg !== "string") {
    if (
      errorClassOrMsg === undefined ||
      errorClassOrMsg?.prototype instanceof Error ||
      errorClassOrMsg?.prototype === Error.prototype
    ) {
      ErrorClass = errorClassOrMsg;
      msgIncludes = msgIncludesOrMsg;
    } else {
      msg = msgIncludesOrMsg;
    }
  } else {
    msg = errorClassOrMsg;
  }
  let doesThrow = false;
  const msgSuffix = msg ? `: ${msg}` : ".";
  try {
    fn();
  } catch (error) {
    if (ErrorClass) {
      if (error instanceof Error === false) {
        throw new AssertionError(`A non-Error object was thrown${msgSuffix}`);
      }
      assertIsError(error, ErrorClass, msgIncludes, msg);
    }
    err = error;
    doesThrow = true;
  }
  if (!doesThrow) {
    throw new AssertionError(`Expected function to throw${msgSuffix}`);
  }
  return err;
}

/**
 * Calls `fn`, expecting the returned promise to reject; resolves to the
 * rejection reason.
 *
 * @param fn The function to execute.
 * @param msg The optional message to display if the assertion fails.
 * @returns A promise resolving to the rejection reason.
 */
export function assertRejects(fn: () => PromiseLike<unknown>, msg?: string): Promise<unknown>;
/**
 * Calls `fn`, expecting the returned promise to reject with an instance of
 * `ErrorClass` whose message includes `msgIncludes` (when given); resolves to
 * the rejection error.
 *
 * @typeParam E The error class to assert.
 * @param fn The function to execute.
 * @param ErrorClass The expected error class.
 * @param msgIncludes A string the error message must include.
 * @param msg The optional message to display if the assertion fails.
 * @returns A promise resolving to the rejection error.
 */
export function assertRejects<E extends Error = Error>(
  fn: () => PromiseLike<unknown>,
  ErrorClass: ErrorConstructorLike<E>,
  msgIncludes?: string,
  msg?: string,
): Promise<E>;
export async function assertRejects<E extends Error = Error>(
  fn: () => PromiseLike<unknown>,
  errorClassOrMsg?: ErrorConstructorLike<E> | string,
  msgIncludesOrMsg?: string,
  msg?: string,
): Promise<E | Error | unknown> {
  let ErrorClass: ErrorConstructorLike<E> | undefined;
  let msgIncludes: string | undefined;
  let err;

  if (typeof errorClassOrMsg !== "string") {
    if (
      errorClassOrMsg === undefined ||
      errorClassOrMsg.prototype instanceof Error ||
      errorClassOrMsg.prototype === Error.prototype
    ) {
      ErrorClass = errorClassOrMsg;
      msgIncludes = msgIncludesOrMsg;
    }
  } else {
    msg = errorClassOrMsg;
  }
  let doesThrow = false;
  let isPromiseReturned = false;
  const msgSuffix = msg ? `: ${msg}` : ".";
  try {
    const possiblePromise = fn();
    if (
      possiblePromise &&
      typeof possiblePromise === "object" &&
      typeof possiblePromise.then === "function"
    ) {
      isPromiseReturned = true;
      await possiblePromise;
    } else {
      throw new Error();
    }
  } catch (error) {
    if (!isPromiseReturned) {
      throw new AssertionError(`Function throws when expected to reject${msgSuffix}`);
    }
    if (ErrorClass) {
      if (!(error instanceof Error)) {
        throw new AssertionError(`A non-Error object was rejected${msgSuffix}`);
      }
      assertIsError(error, ErrorClass, msgIncludes, msg);
    }
    err = error;
    doesThrow = true;
  }
  if (!doesThrow) {
    throw new AssertionError(`Expected function to reject${msgSuffix}`);
  }
  return err;
}

/**
 * Asserts that `actual` and `expected` are numbers within `tolerance` of each
 * other (default: 1e-7 relative to `expected`, or 1e-7 if it is not finite).
 *
 * @param actual The actual number.
 * @param expected The expected number.
 * @param tolerance The maximum allowed absolute difference.
 * @param msg The optional message to display if the assertion fails.
 */
export function assertAlmostEquals(
  actual: number,
  expected: number,
  tolerance?: number,
  msg?: string,
): void {
  if (Object.is(actual, expected)) {
    return;
  }
  const delta = Math.abs(expected - actual);
  if (tolerance === undefined) {
    tolerance = isFinite(expected) ? Math.abs(expected * 1e-7) : 1e-7;
  }
  if (delta <= tolerance) {
    return;
  }
  const msgSuffix = msg ? `: ${msg}` : ".";
  const f = (n: number) => Number.isInteger(n) ? n : n.toExponential();
  throw new AssertionError(
    `Expected actual: "${f(actual)}" to be close to "${f(expected)}": delta "${
      f(delta)
    }" is greater than "${f(tolerance)}"${msgSuffix}`,
  );
}

/**
 * Asserts that `actual > expected`.
 *
 * @typeParam T The type of the values to compare.
 * @param actual The actual value.
 * @param expected The value it must exceed.
 * @param msg The optional message to display if the assertion fails (replaces the default).
 */
export function assertGreater<T>(actual: T, expected: T, msg?: string): void {
  if (actual > expected) return;
  throw new AssertionError(msg ?? `Expect ${format(actual)} > ${format(expected)}`);
}

/**
 * Asserts that `actual >= expected`.
 *
 * @typeParam T The type of the values to compare.
 * @param actual The actual value.
 * @param expected The value it must equal or exceed.
 * @param msg The optional message to display if the assertion fails (replaces the default).
 */
export function assertGreaterOrEqual<T>(actual: T, expected: T, msg?: string): void {
  if (actual >= expected) return;
  throw new AssertionError(msg ?? `Expect ${format(actual)} >= ${format(expected)}`);
}

/**
 * Asserts that `actual < expected`.
 *
 * @typeParam T The type of the values to compare.
 * @param actual The actual value.
 * @param expected The value it must be below.
 * @param msg The optional message to display if the assertion fails (replaces the default).
 */
export function assertLess<T>(actual: T, expected: T, msg?: string): void {
  if (actual < expected) return;
  throw new AssertionError(msg ?? `Expect ${format(actual)} < ${format(expected)}`);
}

/**
 * Asserts that `actual <= expected`.
 *
 * @typeParam T The type of the values to compare.
 * @param actual The actual value.
 * @param expected The value it must equal or be below.
 * @param msg The optional message to display if the assertion fails (replaces the default).
 */
export function assertLessOrEqual<T>(actual: T, expected: T, msg?: string): void {
  if (actual <= expected) return;
  throw new AssertionError(msg ?? `Expect ${format(actual)} <= ${format(expected)}`);
}

/**
 * Unconditionally throws an {@linkcode AssertionError} ("Failed assertion").
 *
 * @param msg Optional message to include in the error.
 */
export function fail(msg?: string): never {
  const msgSuffix = msg ? `: ${msg}` : ".";
  throw new AssertionError(`Failed assertion${msgSuffix}`);
}

/**
 * Marks code that must never run; always throws an {@linkcode AssertionError}.
 *
 * @param msg Optional message to include in the error.
 */
export function unreachable(msg?: string): never {
  const msgSuffix = msg ? `: ${msg}` : ".";
  throw new AssertionError(`Unreachable${msgSuffix}`);
}

/**
 * Marks code that is not written yet; always throws an {@linkcode AssertionError}.
 *
 * @param msg Optional message to include in the error.
 */
export function unimplemented(msg?: string): never {
  const msgSuffix = msg ? `: ${msg}` : ".";
  throw new AssertionError(`Unimplemented${msgSuffix}`);
}
