/**
 * How error messages show a value the caller gave: short, and never a throw of its own,
 * whatever the value (a `BigInt`, a cyclic object, a null-prototype object, a symbol).
 * @module
 */

/** The longest JSON shown before it is cut. */
const LONGEST = 80;

/** The longest string shown whole. */
const LONGEST_TEXT = 200;

/**
 * The most values `JSON.stringify` visits before the value is shown by its kind: an object
 * that holds one object at several places (`o = { a: o, b: o }`, over and over) is as many
 * values as the paths through it, which doubles at each level.
 */
const MOST_VALUES = 10_000;

/** Thrown from the replacer when a value is over {@linkcode MOST_VALUES}. */
const TOO_MANY = Symbol("too many values");

/** Brackets the text of a value JSON has no text for; unquoted after `JSON.stringify`. */
const MARK = "\u0000\uffff";
const MARKED = /"\\u0000\uffff(.*?)\\u0000\uffff"/g;

// Controls, and the line separators and bidirectional marks that Unicode adds.
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/**
 * `text` with its control characters escaped (`\n`, `\u001b`): raw, a line break splits a
 * row of the route table or a message's line (U+2028 too, in an editor), an escape sequence
 * reaches the terminal, and a bidirectional override reorders the line as shown.
 */
export function printable(text: string): string {
  return text.replace(
    CONTROL,
    (char) => char === "\n" ? "\\n" : `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * A text for a message: whole up to 200 characters (a route's template, say); past them,
 * its start and its length. `show` writes the part shown (`JSON.stringify` quotes it).
 */
export function clipped(text: string, show: (part: string) => string = String): string {
  return text.length > LONGEST_TEXT
    ? `${show(text.slice(0, LONGEST_TEXT))}... (${text.length} characters)`
    : show(text);
}

/**
 * A short text for a value in an error message: strings as JSON (cut after 200
 * characters), a RegExp as its literal, objects as JSON when they have one (cut after 80
 * characters, and shown by their kind when that JSON would visit over 10,000 values),
 * else their kind.
 *
 * @example
 * ```ts
 * import { describe } from "./describe.ts";
 *
 * console.log(describe("a b"), describe(1n), describe(Object.create(null))); // "a b" 1n {}
 * ```
 */
export function describe(value: unknown): string {
  switch (typeof value) {
    case "string":
      return clipped(value, (part) => printable(JSON.stringify(part)));
    case "bigint":
      return `${value}n`;
    case "symbol":
      return value.toString();
    case "function":
      return "a function";
    case "object":
      break;
    default:
      return String(value);
  }
  if (value === null) return "null";
  try {
    // Boxed: as JSON they would look like the primitive the caller should have given.
    for (const type of [String, Number, Boolean]) {
      if (value instanceof type) return `a ${type.name} object`;
    }
    // As JSON these are all `{}`.
    if (value instanceof RegExp) return clipped(RegExp.prototype.toString.call(value));
    for (const type of [Map, Set]) {
      if (value instanceof type) return `a ${type.name}`;
    }
    let values = 0;
    const json = JSON.stringify(value, (_key, item) => {
      if (++values > MOST_VALUES) throw TOO_MANY;
      // What JSON writes as null (NaN), leaves out (undefined) or refuses (a bigint),
      // written as it is: `{"id":null}` in a message about NaN would say the wrong thing.
      return typeof item === "bigint" || item === undefined ||
          (typeof item === "number" && !Number.isFinite(item))
        ? `${MARK}${describe(item)}${MARK}`
        : item;
    })?.replace(MARKED, "$1");
    if (json !== undefined) {
      const shown = printable(json.length > LONGEST ? `${json.slice(0, LONGEST - 3)}...` : json);
      // An object whose JSON is a string or a number (a Date, one with toJSON) would look
      // like the primitive the caller should have given.
      return /^[{[]/.test(json) ? shown : `an object whose JSON is ${shown}`;
    }
  } catch {
    // Cyclic, too large, or a toJSON that throws: the kind is all there
    // is to say.
  }
  try {
    return Array.isArray(value) ? "an array" : "an object";
  } catch {
    return "a revoked Proxy";
  }
}

/**
 * What a caller's code threw, for a message: an error as `Name: message` (its name alone
 * when the message is empty), anything else as {@linkcode describe} shows it. Never throws,
 * even for an error whose properties do.
 */
export function thrownText(error: unknown): string {
  try {
    if (error instanceof Error) {
      return error.message === "" ? error.name : `${error.name}: ${error.message}`;
    }
  } catch {
    // An error that cannot be read either: shown as a value.
  }
  return describe(error);
}
