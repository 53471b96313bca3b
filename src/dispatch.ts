/**
 * The dispatcher: the only stage that touches `Request` and `Response`. Reads the form
 * body (once, within a byte limit), works out the effective method, finds the
 * controller action, calls it with an `ActionContext`, and turns its result into a
 * `Response`.
 * @module
 */

import { clipped, describe } from "./describe.ts";
import { HttpError, RoutingError, routingMiss } from "./errors.ts";
import { matchedMethod, type Route, ROUTE_METHODS } from "./route.ts";
import type { ActionContext, ControllerLike, Helpers, Params, RouteMatch } from "./types.ts";

/** What the dispatcher needs of the router. */
export interface DispatchTarget {
  /** The mount path of `baseUrl`, without a trailing `/`; `""` when none. */
  readonly mountPath: string;
  /** The form body limit in bytes. */
  readonly maxFormBytes: number;
  /** Controllers by name. */
  readonly controllers: ReadonlyMap<string, ControllerLike>;
  /**
   * What can be told before the form body is read: the 414 `RoutingError` of a path over
   * a limit; or, for a path long enough that only a match tells whether a variable is
   * over `maxParamLength`, the recognition itself (the same as `recognize` answers for
   * that method); or `undefined`.
   */
  screen(path: string, method: string): RouteMatch | RoutingError | undefined;
  /**
   * Recognises a path relative to the mount path that `screen` has passed (it checks
   * neither path limit, `maxPathLength` nor `maxSegments`, of its own; a variable over
   * `maxParamLength` is still its 414): the match, or the `RoutingError`.
   */
  recognize(path: string, method: string): RouteMatch | RoutingError;
  /** Helpers bound to a request: origin, mount path, current route and params. */
  bindHelpers(origin: string, route: Route, params: Params): Helpers;
}

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];
const OVERRIDES = new Set(["PUT", "PATCH", "DELETE"]);

/**
 * Handles a request: resolves with the action's response, rejects with `HttpError`s
 * (a `RoutingError` when nothing routes), with what the action throws, and with a
 * `TypeError` for a value that is not a `Request`.
 */
export function dispatch(target: DispatchTarget, request: Request): Promise<Response> {
  return respond(target, request).then(
    (outcome) => outcome instanceof Response ? outcome : Promise.reject(outcome),
    (error) => Promise.reject(error instanceof ActionRefusal ? error.error : error),
  );
}

/**
 * `fetch`: like {@linkcode dispatch}, but every error becomes a response: an
 * `HttpError` its status (405 with `Allow`), an `OPTIONS` request to a path that routes
 * only other methods (a 405) a 204 with `Allow`, anything else a 500 that does not leak
 * the stack. A `HEAD` request's error response has no body, like its other responses.
 */
export async function serve(target: DispatchTarget, request: Request): Promise<Response> {
  let failure: unknown;
  try {
    const outcome = await respond(target, request);
    if (outcome instanceof Response) return outcome;
    // An OPTIONS request whose path routes only other methods (a 405) is fetch's to answer
    // (an action's own 405 for one, thrown, is an answer like any other and keeps its
    // status).
    if (outcome.status === 405 && methodOf(request) === "OPTIONS") {
      return new Response(null, { status: 204, headers: { allow: allowHeader(outcome.allowed) } });
    }
    failure = outcome;
  } catch (error) {
    failure = error;
  }
  try {
    const method = methodOf(request);
    const response = errorResponse(failure);
    return method === "HEAD" ? await withoutBody(response, { measure: true }) : response;
  } catch (error) {
    // An error that cannot be read or answered as it is (a getter that throws, a revoked
    // Proxy, a line break in `allowed`): still an answer, never a rejection.
    logFailure(error);
    const response = plain(500, "Internal Server Error");
    try {
      if (methodOf(request) === "HEAD") return await withoutBody(response, { measure: true });
    } catch {
      // A request whose method cannot be read: the answer as it is.
    }
    return response;
  }
}

/**
 * A method name in upper case, its ASCII letters only: `toUpperCase` also folds letters
 * outside ASCII into ASCII ones (`"poſt"` into `"POST"`), and no such name is a method.
 * A name without lower-case letters (the usual `"POST"`) comes back as it is, without
 * the call into V8's runtime that `toUpperCase` makes, and so do the usual names in lower
 * case (`recognize(path, "put")`), which that call cost about 450 instructions a request.
 */
export function upperCaseMethod(method: string): string {
  // The usual names as they come (a `Request`'s method among them): a comparison each,
  // where the loop below reads every character (about 130 instructions for a `POST`).
  switch (method) {
    case "POST":
    case "PUT":
    case "PATCH":
    case "DELETE":
    case "HEAD":
      return method;
  }
  let lower = false;
  for (let i = 0; i < method.length; i++) {
    const code = method.charCodeAt(i);
    if (code > 127) return method.replace(/[a-z]+/g, (letters) => letters.toUpperCase());
    if (code >= 97 && code <= 122) lower = true;
  }
  if (!lower) return method;
  switch (method) {
    case "get":
      return "GET";
    case "post":
      return "POST";
    case "put":
      return "PUT";
    case "patch":
      return "PATCH";
    case "delete":
      return "DELETE";
    case "head":
      return "HEAD";
    default:
      return method.toUpperCase();
  }
}

/** The request's method, upper case; `""` for a value without one to read (not a `Request`). */
function methodOf(request: Request): string {
  try {
    const method: unknown = request.method;
    return typeof method === "string" ? upperCaseMethod(method) : "";
  } catch {
    return "";
  }
}

/**
 * Logs an error for the server's operator; a value that cannot even be shown is logged as
 * a line that says so.
 */
function logFailure(error: unknown): void {
  try {
    console.error(error);
  } catch {
    console.error("router.fetch: an action failed with a value that cannot be shown");
  }
}

/**
 * The action's response, or the `RoutingError` of a request that does not route (404,
 * 405, 414), returned rather than thrown, so that `fetch` answers it without throwing and
 * catching (about 7 % of a 404's time). Rejects with the other errors: a `TypeError` for a
 * value that is not a `Request` or an action result that cannot be sent, a bad form body
 * (`HttpError`), whatever the action throws, and an action's own 405 wrapped in an
 * `ActionRefusal` (which `dispatch` unwraps and `errorResponse` answers with `Allow`).
 */
async function respond(
  target: DispatchTarget,
  request: Request,
): Promise<Response | RoutingError> {
  // Parsed once, any value read as text (a Symbol's too); one that does not parse is refused.
  const url = parsedUrl(request?.url);
  // Each read once: a Request's getters check what they are called on every time.
  const given = request?.method;
  if (
    url === null || typeof given !== "string" || given === "" ||
    typeof request.headers?.get !== "function"
  ) {
    throw new TypeError(
      "The router serves a Request (an absolute url, a method, headers), got " +
        describe(request),
    );
  }
  const method = upperCaseMethod(given);
  // `!= null`: an object made to look like a Request may have no body at all.
  const hasBody = request.body != null;
  const path = stripMount(target.mountPath, url.pathname);
  if (path === null) {
    // No path limit applies outside the mount path: the message shows the path's start only.
    const message = `${clipped(url.pathname)} is outside the mount path ${target.mountPath}`;
    return notFound(method, url.pathname, message);
  }
  let screened = target.screen(path, method);
  // A value over maxParamLength is the 414 of the route that answers, and `_method` can
  // choose another: a POST with a body is refused before its body is read only when each
  // method it could become is refused too (as a path over the path limits is).
  if (
    isTooLong(screened) &&
    (method !== "POST" || !hasBody ||
      [...OVERRIDES].every((other) => isTooLong(target.screen(path, other))))
  ) {
    return screened;
  }

  // No await without a body: each costs a turn of the microtask queue.
  const form = hasBody ? await readForm(request, target.maxFormBytes) : null;
  let effective = method;
  if (method === "POST" && form !== null) {
    // The last text one, as in params (where later fields win and files are left out).
    const override = form.getAll("_method").findLast((value) => typeof value === "string");
    const overriding = typeof override === "string" ? upperCaseMethod(override) : "";
    if (OVERRIDES.has(overriding)) effective = overriding;
  }

  // A long path is matched once: the screen's answer stands unless a body was read, during
  // which `_method` may have changed the method, or a draw the table.
  if (hasBody) screened = target.screen(path, effective);
  const match = screened ?? target.recognize(path, effective);
  if (match instanceof RoutingError) return match;
  const { route, params: pathParams } = match;
  const params: Params = Object.create(null);
  // Not `searchParams` for a URL without a query: making its iterator costs more than
  // recognising the path.
  if (url.search !== "") {
    for (const [key, value] of url.searchParams) params[key] = value;
  }
  if (form !== null) {
    for (const [key, value] of form) if (typeof value === "string") params[key] = value;
  }
  for (const key of Object.keys(pathParams)) params[key] = pathParams[key];

  const controllerName = pathParams.controller;
  const action = pathParams.action;
  const registered = target.controllers.get(controllerName);
  if (registered === undefined) {
    return unwired(
      notFound(effective, path, `No controller is registered as ${JSON.stringify(controllerName)}`),
      route.controller !== null,
    );
  }
  const controller = instantiate(registered);
  const handler = findAction(controller, action);
  if (handler === undefined) {
    return unwired(
      notFound(
        effective,
        path,
        `The controller ${JSON.stringify(controllerName)} has no action ${JSON.stringify(action)}` +
          (isReserved(action)
            ? ' (names starting with "_", and constructor, are never actions)'
            : ""),
      ),
      route.controller !== null && route.action !== null,
    );
  }
  const ctx: ActionContext = {
    request,
    method: effective,
    params,
    form,
    route,
    helpers: target.bindHelpers(url.origin, route, pathParams),
  };
  let result: unknown;
  try {
    result = await handler.call(controller, ctx);
  } catch (error) {
    throw isActionRefusal(error)
      ? new ActionRefusal(error, target, { path, method: effective })
      : error;
  }
  const response = toResponse(result, `${controllerName}#${action}`);
  if (method !== "HEAD") return response;
  return await withoutBody(response, { measure: !(result instanceof Response) });
}

/** `new URL(value)`, or `null` where it throws for the value's text. */
function parsedUrl(value: unknown): URL | null {
  const text = String(value);
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/**
 * The response `fetch` gives for an error: an `HttpError` its status (405 with `Allow`;
 * from 500 on, its message logged, not shown); anything else, and an `HttpError` whose
 * status no response can have, a 500 (logged, not shown).
 */
function errorResponse(error: unknown): Response {
  if (error instanceof ActionRefusal) {
    return plain(405, error.error.message, { allow: allowHeader(error.allowed, error.method) });
  }
  if (!(error instanceof HttpError) || !isResponseStatus(error.status)) {
    logFailure(error);
    return plain(500, "Internal Server Error");
  }
  if (error instanceof RoutingError && UNWIRED.has(error)) {
    if (UNWIRED.get(error)) {
      console.error(`router.fetch: ${error.method} ${error.path}: ${error.message}`);
    }
    // As a path that routes nowhere: HEAD is recognised as GET, and the length must be GET's.
    return plain(404, `No route matches ${matchedMethod(error.method)} ${error.path}`);
  }
  if (error instanceof RoutingError && error.status === 405) {
    return plain(405, error.message, { allow: allowHeader(error.allowed) });
  }
  // A server error's message is for the operator, not the client (it may name routes and
  // values, such as a helper's failed arguments): logged, and answered with the status's
  // name, as http-errors does for `expose` when the status is 500 or more.
  if (error.status >= 500) {
    logFailure(error);
    return plain(error.status, SERVER_ERRORS.get(error.status) ?? "Server Error");
  }
  return plain(error.status, error.message);
}

/** The names of the common server error statuses, for their responses' text. */
const SERVER_ERRORS = new Map([
  [500, "Internal Server Error"],
  [501, "Not Implemented"],
  [502, "Bad Gateway"],
  [503, "Service Unavailable"],
  [504, "Gateway Timeout"],
]);

/** Whether `new Response` accepts a status: an integer from 200 to 599. */
function isResponseStatus(status: unknown): status is number {
  return Number.isInteger(status) && (status as number) >= 200 && (status as number) <= 599;
}

/** Statuses whose responses have no body (RFC 9110). */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * The `Allow` header for a path's methods: adds `HEAD` where `GET` is, and `OPTIONS`
 * unless it is the method `refused`.
 */
function allowHeader(allowed: readonly string[], refused = ""): string {
  const methods = [...allowed];
  if (methods.includes("GET") && !methods.includes("HEAD")) {
    methods.splice(methods.indexOf("GET") + 1, 0, "HEAD");
  }
  if (!methods.includes("OPTIONS") && refused !== "OPTIONS") methods.push("OPTIONS");
  return methods.join(", ");
}

/** Whether an action threw a 405 of its own: an `HttpError`, without a `RoutingError`'s list. */
function isActionRefusal(error: unknown): error is HttpError {
  return error instanceof HttpError && !(error instanceof RoutingError) && error.status === 405;
}

/**
 * An action's own 405 (an {@linkcode HttpError} that is not a `RoutingError`), with what
 * `fetch` needs for its `Allow` header (RFC 9110 asks one of every 405): the methods for
 * which the request's path routes, the refused one aside. `handle` rejects with the
 * action's error itself. A `RoutingError` 405 brings its own `allowed` list. The methods
 * are those of the table current when the action threw: after a redraw during the action,
 * what the server accepts from then on, which is what `Allow` advertises (RFC 9110 10.2.1).
 */
class ActionRefusal {
  /** The methods the path routes, without the refused one (`HEAD` refuses `GET`). */
  readonly allowed: readonly string[];
  /** The refused method. */
  readonly method: string;

  constructor(
    readonly error: HttpError,
    target: DispatchTarget,
    { path, method }: { path: string; method: string },
  ) {
    const refused = matchedMethod(method);
    this.method = method;
    this.allowed = ROUTE_METHODS.filter((other) =>
      other !== refused && !(target.recognize(path, other) instanceof RoutingError)
    );
  }
}

/** A plain-text response with a message (none for a status that has no body). */
function plain(status: number, message: string, headers: Record<string, string> = {}): Response {
  if (NULL_BODY_STATUSES.has(status)) return new Response(null, { status, headers });
  return new Response(`${message}\n`, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", ...headers },
  });
}

/**
 * The 404s of a request that routes to a controller or action that is not there, by the
 * declared route or by a `:controller`/`:action` of the path, with whether the route
 * declared it: a gap in the server's code. `handle` rejects with them as they are; `fetch`
 * answers as for a path that routes nowhere, not naming the server's controllers and
 * unwritten actions to the client, and logs the declared gaps for the operator (the names
 * a path gives are the client's, so they are not logged).
 */
const UNWIRED = new WeakMap<RoutingError, boolean>();

function unwired(error: RoutingError, declared: boolean): RoutingError {
  UNWIRED.set(error, declared);
  return error;
}

function notFound(method: string, path: string, message: string): RoutingError {
  return routingMiss(message, { status: 404, method, path });
}

/** The route path of a request: its pathname without the mount path; `null` outside it. */
function stripMount(mount: string, pathname: string): string | null {
  if (mount === "") return pathname;
  if (pathname === mount) return "/";
  if (pathname.startsWith(mount + "/")) return pathname.slice(mount.length);
  if (!pathname.includes("%") && !mount.includes("%")) return null;
  // Percent-encoded text may be spelled another way (`%c3%a9` for the `%C3%A9` that
  // `new URL()` makes of "é", `%61` for "a"): the mount path's segments compared decoded.
  let end = 0;
  for (const segment of mount.split("/").slice(1)) {
    const start = end + 1;
    if (pathname[end] !== "/") return null;
    end = pathname.indexOf("/", start);
    if (end < 0) end = pathname.length;
    if (!sameSegment(pathname.slice(start, end), segment)) return null;
  }
  return end === pathname.length ? "/" : pathname.slice(end);
}

/**
 * Whether two path segments are the same text once decoded; a malformed escape (`%zz`)
 * is equal only to itself, never to the valid escape of its text (`%25zz`).
 */
function sameSegment(one: string, other: string): boolean {
  if (one === other) return true;
  try {
    return decodeURIComponent(one) === decodeURIComponent(other);
  } catch {
    return false;
  }
}

/** Whether the screen's answer is a 414. */
function isTooLong(screened: RouteMatch | RoutingError | undefined): screened is RoutingError {
  return screened instanceof RoutingError && screened.status === 414;
}

/**
 * Reads a form body (urlencoded or multipart) of a request that has one, counting
 * bytes as they arrive so an oversize body is refused without being buffered whole.
 */
async function readForm(request: Request, limit: number): Promise<FormData | null> {
  if (request.body == null) return null;
  // The media type is case-insensitive, a multipart boundary is not.
  // A string, even from an object made to look like a Request ("null" without one).
  const type = String(request.headers.get("content-type"));
  const mediaType = type.split(";")[0].trim().toLowerCase();
  const kind = FORM_TYPES.find((form) => mediaType === form);
  if (kind === undefined) return null;
  // A coded body (gzip) is not decoded: read as a form it would be "not UTF-8" or garbage.
  const coding = String(request.headers.get("content-encoding") ?? "").trim().toLowerCase() ||
    "identity";
  if (coding !== "identity") {
    await request.body.cancel?.().catch(() => {});
    throw new HttpError(
      `The form body has Content-Encoding ${describe(coding)}, which the router does not decode`,
      { status: 415 },
    );
  }

  const tooLarge = () =>
    new HttpError(`The form body is larger than the limit of ${limit} bytes`, { status: 413 });
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) {
    await request.body.cancel?.().catch(() => {});
    throw tooLarge();
  }
  // One buffer, grown by doubling up to the limit: a body sent a byte per chunk kept a
  // chunk object of about 200 bytes per byte until the end.
  let bytes = new Uint8Array(0);
  let size = 0;
  try {
    // Inside the try: a body already read or locked cannot be read, a 400.
    const reader = request.body.getReader();
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      // A stream made in code may yield anything; only bytes count against the limit.
      if (!(value instanceof Uint8Array)) {
        await reader.cancel().catch(() => {});
        throw new TypeError("a body chunk is not bytes");
      }
      if (size + value.byteLength > limit) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      if (size + value.byteLength > bytes.length) {
        const grown = new Uint8Array(
          Math.min(limit, Math.max(2 * bytes.length, size + value.byteLength, 4096)),
        );
        grown.set(bytes.subarray(0, size));
        bytes = grown;
      }
      bytes.set(value, size);
      size += value.byteLength;
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError("The request body could not be read", { status: 400, cause: error });
  }
  bytes = bytes.subarray(0, size);
  const malformed = (cause: unknown, problem = String(cause)) =>
    new HttpError(`The ${kind} form body is malformed: ${problem}`, { status: 400, cause });
  if (kind === "multipart/form-data") {
    const boundary = mimeParameter(type, "boundary");
    const problem = multipartProblem(bytes, boundary);
    if (problem !== undefined) throw malformed(new SyntaxError(problem), problem);
    // The type as the check read it, not as the client spelled it: Deno's parser takes time
    // in the square of a run of spaces in a parameter (a 64 KB header, seconds).
    const quoted = boundary!.replaceAll("\\", "\\\\").replaceAll('"', '\\"');
    const canonical = `multipart/form-data; boundary="${quoted}"`;
    try {
      return await new Response(bytes, { headers: { "content-type": canonical } }).formData();
    } catch (error) {
      throw malformed(error);
    }
  }
  let text: string;
  try {
    // "UTF-8 decode without BOM" (WHATWG URL): a leading U+FEFF is part of the first name,
    // as `Request.formData()` reads it (a stripped one made "\uFEFF_method" a `_method`).
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch (error) {
    throw malformed(error, "it is not UTF-8");
  }
  const form = new FormData();
  for (const pair of text.split("&")) {
    if (pair === "") continue;
    const equals = pair.indexOf("=");
    const [key, value] = equals < 0 ? [pair, ""] : [pair.slice(0, equals), pair.slice(equals + 1)];
    try {
      form.append(decodeFormComponent(key), decodeFormComponent(value));
    } catch (error) {
      // Either a "%" without two hex digits, or escapes of bytes that are not UTF-8 (a form
      // sent as `charset=iso-8859-1`, say: forms are read as UTF-8 only).
      const fault = /%(?![0-9A-Fa-f]{2})/.test(pair)
        ? "has a % without two hex digits"
        : "percent-decodes to bytes that are not UTF-8";
      throw malformed(error, `${JSON.stringify(pair.slice(0, 40))} ${fault}`);
    }
  }
  return form;
}

/**
 * What is wrong with the structure of a multipart/form-data body (RFC 7578), if anything.
 * The runtimes' `formData()` differ in what they let pass (Deno's reads a body without its
 * closing delimiter, or a part without headers, as an empty form, which would lose a
 * `_method` field); this holds every runtime to the same rule: delimited parts, each with
 * its header block and a `Content-Disposition: form-data` header with a name, and the
 * closing delimiter. `value`: the content type's boundary parameter.
 */
function multipartProblem(bytes: Uint8Array, value: string | undefined): string | undefined {
  if (value === undefined || value === "") return "the content type has no boundary";
  // RFC 2046 allows 1 to 70 characters. A longer one would let a body of near-misses make
  // the delimiter search below take time in its length times the body's.
  if (value.length > 70) return `the boundary is ${value.length} characters; the limit is 70`;
  // Deno's formData() refuses one with a generic message.
  if (/[^\t\x20-\x7e]/.test(value)) return "the boundary has a character that is not ASCII";
  const delimiter = "--" + value;
  // Each delimiter after the first starts a line. (Concatenated, not a template literal,
  // which esbuild would print with a raw line break.)
  const lineDelimiter = "\r\n" + delimiter;
  // One character per byte: the structure is ASCII, whatever the parts hold. (By hand:
  // not every runtime's TextDecoder knows "latin1".)
  let text = "";
  for (let i = 0; i < bytes.length; i += 4096) {
    text += String.fromCharCode(...bytes.subarray(i, i + 4096));
  }
  // The first delimiter starts the body or a line (after a preamble).
  let at = 0;
  if (!text.startsWith(delimiter)) {
    const first = text.indexOf(lineDelimiter);
    if (first < 0) return "no boundary delimiter";
    at = first + 2;
  }
  // The header's name and `form-data` in any case; the parameter `name` in lower case, as
  // the runtimes' `formData()` read it (Deno's and undici's skip a part with `NAME=`).
  const disposition = /\r\ncontent-disposition:[ \t]*form-data[ \t]*;([^\r]*)/i;
  const transferEncoding = /\r\ncontent-transfer-encoding:[ \t]*([^\r]*)/i;
  for (let part = 1;; part++) {
    at += delimiter.length;
    const closing = text.startsWith("--", at);
    if (closing) at += 2;
    // Transport padding, then a line break (or, after the closing delimiter, the end).
    while (text[at] === " " || text[at] === "\t") at++;
    if (closing) {
      // Deno's formData() reads any other text here as an empty form.
      return at === text.length || text.startsWith("\r\n", at)
        ? undefined
        : "text after the closing delimiter on its line";
    }
    if (!text.startsWith("\r\n", at)) return `part ${part}: no line break after the delimiter`;
    const headersEnd = text.indexOf("\r\n\r\n", at);
    const next = text.indexOf(lineDelimiter, at);
    if (next < 0) return "no closing delimiter";
    if (headersEnd < 0 || headersEnd > next) return `part ${part}: its headers do not end`;
    const headers = text.slice(at, headersEnd + 2);
    // Deno's formData() drops a part with a lone CR or LF in its name, or after it: its
    // `_method` would be lost. Node's refuses them.
    if (/\r(?!\n)|[^\r]\n/.test(headers)) {
      return `part ${part}: a line of its headers ends without CRLF`;
    }
    const parameters = disposition.exec(headers)?.[1];
    if (parameters === undefined || !/(?:^|;)[ \t]*name=/.test(parameters)) {
      return `part ${part}: no Content-Disposition: form-data header with a name`;
    }
    // RFC 7578 4.7 deprecates it; Node's formData() decodes base64, Deno's does not: one
    // `_method` would be two methods.
    const encoding = transferEncoding.exec(headers)?.[1];
    if (encoding !== undefined && !/^(?:7bit|8bit|binary)[ \t]*$/i.test(encoding)) {
      return `part ${part}: Content-Transfer-Encoding ${encoding}, which runtimes decode differently`;
    }
    at = next + 2;
  }
}

/**
 * The first valid parameter `name` (lower case) of a MIME type, read as WHATWG's "parse a
 * MIME type" reads it, as the runtimes' `formData()` do: a quoted value may hold `;` and
 * backslash escapes, and a later parameter of the same name does not count. A plain search
 * for `boundary=` could find one inside another parameter's quotes.
 */
function mimeParameter(type: string, name: string): string | undefined {
  let at = type.indexOf(";");
  while (at >= 0 && at < type.length) {
    at++;
    while (type[at] === " " || type[at] === "\t" || type[at] === "\r" || type[at] === "\n") at++;
    let end = at;
    while (end < type.length && type[end] !== ";" && type[end] !== "=") end++;
    const key = type.slice(at, end).toLowerCase();
    if (type[end] !== "=") {
      at = end;
      continue;
    }
    let value = "";
    at = end + 1;
    if (type[at] === '"') {
      for (at++; at < type.length && type[at] !== '"'; at++) {
        if (type[at] === "\\" && at + 1 < type.length) at++;
        value += type[at];
      }
      at = type.indexOf(";", at);
    } else {
      end = type.indexOf(";", at);
      // Trimmed by hand: the RegExp /[ \t\r\n]+$/ takes time in the square of a run of
      // spaces that does not end the value (64 KB of them in a header took 13 s).
      let stop = end < 0 ? type.length : end;
      while (stop > at && " \t\r\n".includes(type[stop - 1])) stop--;
      value = type.slice(at, stop);
      at = end;
      if (value === "") continue;
    }
    // A value a quoted string could not hold makes the parameter invalid, and skipped.
    if (key === name && /^[\t\x20-\x7e\x80-\xff]*$/.test(value)) return value;
  }
  return undefined;
}

function decodeFormComponent(text: string): string {
  return decodeURIComponent(text.replaceAll("+", " "));
}

/**
 * The controller object for one request: a new instance of a constructor (a class, or a
 * class bound to its dependencies with `bind`, which has no `prototype` of its own); any
 * other function or object as it is.
 */
function instantiate(controller: ControllerLike): object {
  if (typeof controller !== "function") return controller;
  let constructs = CONSTRUCTORS.get(controller);
  if (constructs === undefined) {
    CONSTRUCTORS.set(controller, constructs = isConstructor(controller));
  }
  return constructs ? new (controller as new () => object)() : controller;
}

/**
 * Whether each controller function served so far is a constructor: a function is one or
 * is not for good, and finding out (`isConstructor`) makes an object, about 3 % of what
 * the router does for a request.
 */
const CONSTRUCTORS = new WeakMap<object, boolean>();

/** Whether `new` takes `fn`, found without calling it. */
export function isConstructor(fn: object): boolean {
  try {
    Reflect.construct(Object, [], fn as new () => object);
    return true;
  } catch {
    return false;
  }
}

/** API.md: `constructor` and names starting with `_` are never actions. */
function isReserved(name: string): boolean {
  return name === "constructor" || name.startsWith("_");
}

/**
 * The action `name` of a controller: a function found on the object or its prototype
 * chain below `Object.prototype` (and `Function.prototype`); never `constructor`, a
 * `_`-prefixed name, a getter, or anything that is not a function.
 */
function findAction(
  controller: object,
  name: string | undefined,
): ((ctx: ActionContext) => unknown) | undefined {
  if (typeof name !== "string" || name === "" || isReserved(name)) return undefined;
  for (
    let object: object | null = controller, depth = 0;
    object !== null && object !== Object.prototype && object !== Function.prototype;
    object = Object.getPrototypeOf(object)
  ) {
    // Only a Proxy's chain can go round for ever (its getPrototypeOf may return itself):
    // a hang of the whole process, where a chain of ordinary objects is a few long.
    if (++depth > 1000) throw new TypeError("The controller's prototype chain does not end");
    const descriptor = Object.getOwnPropertyDescriptor(object, name);
    if (descriptor === undefined) continue;
    return typeof descriptor.value === "function" ? descriptor.value : undefined;
  }
  return undefined;
}

/** A controller's result as a response: Response, HTML string, 204, or JSON. */
function toResponse(result: unknown, target: string): Response {
  if (result instanceof Response) {
    // A locked body (a reader taken, nothing read yet) cannot be sent either: the response
    // would reach a `handle` caller with a body that no one can read.
    if (result.bodyUsed || result.body?.locked) {
      throw new TypeError(
        `The action ${target} returned a used Response (its body was read or is locked)`,
      );
    }
    return result;
  }
  if (typeof result === "string") {
    return new Response(result, {
      headers: htmlHeaders ??= new Headers({ "content-type": "text/html; charset=utf-8" }),
    });
  }
  if (result === null || result === undefined) return new Response(null, { status: 204 });
  // A body that `Response` takes as bytes or a form: as JSON it would go out as "{}" (a
  // typed array as its indices), its data lost without a word.
  if (
    ArrayBuffer.isView(result) || result instanceof ArrayBuffer || result instanceof Blob ||
    result instanceof ReadableStream || result instanceof FormData ||
    result instanceof URLSearchParams
  ) {
    throw new TypeError(
      `The action ${target} returned a ${Object.prototype.toString.call(result).slice(8, -1)}: ` +
        `return a Response with it as the body`,
    );
  }
  try {
    return Response.json(result);
  } catch (error) {
    throw new TypeError(
      `The action ${target} returned ${describe(result)}, which cannot be sent as JSON`,
      { cause: error },
    );
  }
}

/**
 * The headers of an action's text, copied into each response: from a `Headers`, Deno's
 * `Response` copies them for about 1,000 instructions fewer than it reads them from a
 * plain object (about 5,000, an eighth of what the router does for such a request).
 * Made on first use, so that loading the module needs no `Headers`.
 */
let htmlHeaders: Headers | undefined;

/**
 * The response to a `HEAD` request: `response`'s status and headers without its body.
 * With `measure` (a body the router made: text, JSON, an error message), the body is
 * read for its length, sent as `Content-Length` as the `GET` response's would be (for an
 * empty body, `Deno.serve` would send 0). An action's own `Response` keeps the headers
 * it has: its body may be a stream that never ends.
 */
async function withoutBody(
  response: Response,
  { measure }: { measure: boolean },
): Promise<Response> {
  // `Response.error()` (status 0, no body) goes out as `GET`'s does: no other can be made.
  if (response.type === "error") return response;
  const headers = new Headers(response.headers);
  if (measure && response.body !== null) {
    headers.set("content-length", String((await response.arrayBuffer()).byteLength));
  } else {
    response.body?.cancel().catch(() => {});
  }
  return new Response(null, { status: response.status, statusText: response.statusText, headers });
}
