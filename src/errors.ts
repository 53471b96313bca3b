/**
 * Errors of the router: {@linkcode HttpError} and its routing subclass {@linkcode RoutingError}.
 * @module
 */

import { describe } from "./describe.ts";

/**
 * Options of {@linkcode HttpError}.
 *
 * @example
 * ```ts
 * import { HttpError, type HttpErrorOptions } from "@resource-router/router";
 *
 * const options: HttpErrorOptions = { status: 400, cause: new SyntaxError("bad JSON") };
 * console.log(new HttpError("The body is not JSON", options).status); // 400
 * ```
 */
export interface HttpErrorOptions extends ErrorOptions {
  /** The HTTP status the error stands for, e.g. `413`. */
  status: number;
}

/**
 * An error that carries the HTTP status it should be answered with.
 *
 * `router.fetch` turns it into a response with that status; `router.handle` rejects
 * with it.
 *
 * @example Making a 413
 * ```ts
 * import { HttpError } from "@resource-router/router";
 *
 * const error = new HttpError("form body too large", { status: 413 });
 * console.log(error.status); // 413
 * ```
 */
export class HttpError extends Error {
  /** The HTTP status, e.g. `400` or `413`. */
  readonly status: number;

  /** Creates an error with a message and an HTTP status (500 when none is given). */
  constructor(message: string, options: HttpErrorOptions = { status: 500 }) {
    if (typeof options !== "object" || options === null) {
      throw new TypeError(
        `HttpError: options must be an object such as { status: 400 }, got ${describe(options)}`,
      );
    }
    const status = options.status ?? 500;
    // What a Response can carry: any other status (a "404" read from a config file) would
    // become fetch's 500, with nothing to say why.
    if (!Number.isInteger(status) || status < 200 || status > 599) {
      throw new TypeError(
        `${new.target.name}: status must be an integer from 200 to 599, got ${describe(status)}`,
      );
    }
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "HttpError";
    this.status = status;
  }
}

/**
 * Options of {@linkcode RoutingError}.
 *
 * @example
 * ```ts
 * import { RoutingError, type RoutingErrorOptions } from "@resource-router/router";
 *
 * const options: RoutingErrorOptions = { status: 404, method: "GET", path: "/nowhere" };
 * console.log(new RoutingError("No route matches GET /nowhere", options).status); // 404
 * ```
 */
export interface RoutingErrorOptions extends ErrorOptions {
  /** 404 (no route), 405 (path matched, method did not), 414 (over a limit), 500 (generation). */
  status: number;
  /** The request method, upper case; `""` for generation errors. */
  method: string;
  /** The request path, or the route template for generation errors. */
  path: string;
  /** The methods that would have matched the path (405 only). */
  allowed?: readonly string[];
}

/**
 * Thrown when a request cannot be routed (status 404, 405 or 414) or a helper or
 * `urlFor` cannot generate a path (status 500: a bad link is the program's fault).
 *
 * @example Telling 404 from 405
 * ```ts
 * import { Router, RoutingError } from "@resource-router/router";
 *
 * const router = new Router({ variant: "B" });
 * router.draw((map) => map.resources("messages"));
 * try {
 *   router.recognize("/messages", "PUT");
 * } catch (error) {
 *   if (error instanceof RoutingError) {
 *     console.log(error.status, error.allowed); // 405 ["GET", "POST"]
 *   }
 * }
 * ```
 */
export class RoutingError extends HttpError {
  /** The request method, upper case (`""` for generation errors). */
  readonly method: string;
  /** The request path, or the route template for generation errors. */
  readonly path: string;
  /** The methods of every route whose path matched, in registration order, once each. */
  readonly allowed: string[];

  /**
   * Creates a routing error; see {@linkcode RoutingErrorOptions} (by default a 404 with
   * an empty `method` and `path`).
   */
  constructor(
    message: string,
    options: RoutingErrorOptions = { status: 404, method: "", path: "" },
  ) {
    if (typeof options !== "object" || options === null) {
      throw new TypeError(
        `RoutingError: options must be an object such as { status: 404, method: "GET", ` +
          `path: "/" }, got ${describe(options)}`,
      );
    }
    super(message, { ...options, status: options.status ?? 404 });
    this.name = "RoutingError";
    this.method = options.method ?? "";
    this.path = options.path ?? "";
    const allowed = options.allowed ?? [];
    if (!Array.isArray(allowed)) {
      throw new TypeError(
        `RoutingError: allowed must be an array of methods, got ${describe(allowed)}`,
      );
    }
    this.allowed = [...allowed];
  }
}

/**
 * The prototype of every miss (see `routingMiss`): a `RoutingError` made once, when this
 * module loads. Not frozen: a miss sets its own `message`, `status` and the rest by
 * assignment, which a read-only inherited property would refuse. Without its `stack`
 * accessor: assigned through it, every miss's `stack` would land in one shared place.
 * V8 takes a thrown miss's place from this error's stack trace, so a miss nobody catches
 * is reported at the line that makes it, which says so.
 */
const MISS_PROTOTYPE = new RoutingError( // an uncaught miss points here: misses record no stack
  "No route matches",
  { status: 404, method: "", path: "" },
);
delete (MISS_PROTOTYPE as { stack?: string }).stack;

/**
 * A `RoutingError` for a request that does not route, built without running the `Error`
 * constructor: a miss is an answer, not a bug, and capturing a stack costs about 1.4 µs in
 * Deno, more than recognition itself. It is a `RoutingError` in every other respect; its
 * `stack` is its first line.
 *
 * Its prototype is one `RoutingError` made in advance (whose own prototype is
 * `RoutingError.prototype`, so `instanceof` and `constructor` are as usual). Where Deno
 * runs JavaScript from a callback (a `Deno.serve` handler, `Deno.bench`, a timer), V8
 * records a detailed stack trace when a value is thrown, unless the value is, or
 * inherits from, an error that has one already: throwing an object whose prototype is
 * `RoutingError.prototype` cost about 1.2 µs there, and this one about 0.45 µs.
 */
export function routingMiss(message: string, options: RoutingErrorOptions): RoutingError {
  const error = Object.create(MISS_PROTOTYPE);
  error.message = message;
  error.stack = `RoutingError: ${message}`;
  error.name = "RoutingError";
  error.status = options.status;
  error.method = options.method;
  error.path = options.path;
  error.allowed = options.allowed === undefined ? [] : options.allowed.slice();
  return error;
}

/**
 * One miss kept for as long as misses can be made, so that the shape (V8's map) every
 * miss has stays alive. V8 holds the shape of an object made by `Object.create`, and the
 * shapes its property stores lead to, only weakly: after a full garbage collection with
 * no miss alive, the next miss gets a shape of its own, and the optimized code that made
 * and threw the earlier misses no longer fits it. Misses seldom outlive their request, so
 * every full collection did that: with one before each round of the large table's mix,
 * as `deno task bench:loop` runs it, `router.recognize` took about 505 ns a request where
 * it takes 475 ns with this miss kept, the same as with no collection at all. It hangs
 * off the misses' prototype, under a symbol of this module, because a top-level variable
 * that no function reads lives only while the module's body runs (in the bundle too).
 */
Object.defineProperty(MISS_PROTOTYPE, Symbol("a miss kept for its shape"), {
  value: routingMiss("", { status: 404, method: "", path: "" }),
});
