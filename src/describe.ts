/**
 * How error messages show a value the caller gave: short, and never a throw of its own,
 * whatever the value (a `BigInt`, a cyclic object, a null-prototype object, a symbol).
 * @module
 */

/** The longest JSON shown before it is cut. */
const LONGEST = 80;

/**
 * A short text for a value in an error message: strings as JSON, objects as JSON when
 * they have one (cut after 80 characters), else their kind.
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
      return JSON.stringify(value);
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
    const json = JSON.stringify(value);
    if (json !== undefined) {
      return json.length > LONGEST ? `${json.slice(0, LONGEST - 3)}...` : json;
    }
  } catch {
    // Cyclic, a BigInt inside, or a toJSON that throws: the kind is all there is to say.
  }
  try {
    return Array.isArray(value) ? "an array" : "an object";
  } catch {
    return "a revoked Proxy";
  }
}
