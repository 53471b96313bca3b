/**
 * The blog application: routes and controllers over a {@linkcode BlogStore}.
 *
 * Routes (variant A, the default): `resources("messages")` with a custom member action
 * `publish` (PUT) and nested `comments`, the singleton `resource("account")`, and `root`.
 * The default export is the draw function, so `deno task routes examples/blog/app.ts`
 * prints the table.
 *
 * Controllers are classes holding the store; the router gets one instance of each (an
 * object is used as is, a class would be instantiated per request without arguments).
 * Their private `#` helpers are not reachable as actions.
 *
 * HTML pages for plain paths, JSON for `.json` (`/messages.json`, `/messages/1.json`,
 * `/account.json`, ...), a 406 for any other format. Writes answer 303 redirects to
 * `*_url` helpers (absolute, from the request's origin), with a `notice` code in the
 * query string.
 * @module
 */

import { type ActionContext, Controller, type Mapper, Router } from "@resource-router/router";
import {
  type Account,
  BlogStore,
  type Errors,
  validateAccount,
  validateComment,
  validateMessage,
} from "./store.ts";
import {
  accountForm,
  accountShow,
  commentsIndex,
  messageForm,
  messageShow,
  messagesIndex,
  notFound,
} from "./views.ts";

/** Draws the blog's routes (the default export, for `deno task routes`). */
export default function blogRoutes(map: Mapper): void {
  map.named("root", "/", {
    controller: "messages",
    action: "index",
    conditions: { method: "get" },
  });
  map.resources("messages", { member: { publish: "put" } }, (messages) => {
    messages.resources("comments");
  });
  map.resource("account");
}

/** Options of {@linkcode createBlog}. */
export interface BlogOptions {
  /** The clock for timestamps; default `() => new Date()` (tests pin it). */
  now?: () => Date;
}

/**
 * The blog as a router over an open KV: `Deno.serve(createBlog(kv).fetch)` serves it.
 *
 * @example In a test
 * ```ts ignore
 * const kv = await Deno.openKv(":memory:");
 * const blog = createBlog(kv);
 * const response = await blog.fetch(new Request("http://localhost/messages.json"));
 * console.log(await response.json()); // []
 * kv.close();
 * ```
 */
export function createBlog(kv: Deno.Kv, options: BlogOptions = {}): Router {
  const store = new BlogStore(kv, options.now);
  return new Router({
    controllers: {
      messages: new MessagesController(store),
      comments: new CommentsController(store),
      account: new AccountController(store),
    },
  }).draw(blogRoutes);
}

/** The format a request asks for: `html` (no extension), `json`, or `null` for others. */
function formatOf(ctx: ActionContext): "html" | "json" | null {
  const format = ctx.params.format;
  if (format === undefined || format === "html") return "html";
  return format === "json" ? "json" : null;
}

/** A 406 for formats the blog does not speak. */
function notAcceptable(ctx: ActionContext): Response {
  return new Response(`The format ${JSON.stringify(ctx.params.format)} is not available\n`, {
    status: 406,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}

/** An id from the path: a positive integer in decimal, or `null`. */
function idOf(text: string | undefined): number | null {
  if (text === undefined || !/^[1-9][0-9]{0,14}$/.test(text)) return null;
  return Number(text);
}

/** A 303 to a `*_url` helper's result, so that a reload does not repeat the write. */
function seeOther(location: string | Record<string, unknown>): Response {
  if (typeof location !== "string") throw new TypeError("A redirect needs a URL string");
  return Response.redirect(location, 303);
}

function missing(ctx: ActionContext, what: string): Response {
  if (ctx.params.format === "json") {
    return Response.json({ error: `${what} not found` }, { status: 404 });
  }
  return new Response(notFound(ctx.helpers, what), {
    status: 404,
    headers: { "content-type": "text/html; charset=utf-8" },
  });
}

function unprocessable(body: string | Errors): Response {
  if (typeof body !== "string") return Response.json({ errors: body }, { status: 422 });
  return new Response(body, {
    status: 422,
    headers: { "content-type": "text/html; charset=utf-8" },
  });
}

/** The largest JSON body the API reads, in bytes, as the router's `maxFormBytes` for forms. */
export const MAX_JSON_BYTES = 64 * 1024;

/**
 * The body's text, or `undefined` once it is over `limit` bytes: read chunk by chunk, so
 * that a client cannot make the app hold a body of any size (a `Content-Length` may be
 * missing or wrong). Rejects for a body that cannot be read or is not UTF-8, as the router
 * does for a form (a lenient decoder would store U+FFFD in place of the bytes).
 */
async function boundedText(request: Request, limit: number): Promise<string | undefined> {
  if (Number(request.headers.get("content-length")) > limit) return undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body ?? []) {
    size += chunk.byteLength;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}

/**
 * The submitted fields: the form's (already in `ctx.params`), or a JSON object body
 * for API clients. Missing fields are `""`; a JSON body that is not an object of
 * strings is a 400, one over {@linkcode MAX_JSON_BYTES} a 413.
 */
async function fieldsOf<K extends string>(
  ctx: ActionContext,
  names: readonly K[],
): Promise<Record<K, string> | Response> {
  let source: Record<string, unknown> = ctx.params;
  const type = ctx.request.headers.get("content-type") ?? "";
  // `application/json`, parameters allowed; not `application/json-patch+json`.
  if (ctx.form === null && /^application\/json\s*(?:;|$)/i.test(type)) {
    let text;
    try {
      text = await boundedText(ctx.request, MAX_JSON_BYTES);
    } catch {
      return Response.json({ error: "The body could not be read as UTF-8 text" }, { status: 400 });
    }
    if (text === undefined) {
      return Response.json({ error: `The body is over ${MAX_JSON_BYTES} bytes` }, { status: 413 });
    }
    try {
      const body = JSON.parse(text);
      if (typeof body !== "object" || body === null || Array.isArray(body)) throw new TypeError();
      source = body;
    } catch {
      return Response.json({ error: "The body must be a JSON object" }, { status: 400 });
    }
  }
  const fields = {} as Record<K, string>;
  for (const name of names) {
    const value = source[name] ?? "";
    if (typeof value !== "string") {
      return Response.json({ error: `${name} must be a string` }, { status: 400 });
    }
    fields[name] = value.replaceAll("\r\n", "\n");
  }
  return fields;
}

/**
 * The blog's controllers: each holds the store. `store` is a getter, and getters are
 * never actions, so no URL can reach it.
 */
export class BlogController extends Controller {
  readonly #store: BlogStore;

  /** A controller over the blog's store. */
  constructor(store: BlogStore) {
    super();
    this.#store = store;
  }

  /** The store the actions read and write. */
  protected get store(): BlogStore {
    return this.#store;
  }
}

/** `messages`: index, show, new, create, edit, update, destroy and `publish`. */
export class MessagesController extends BlogController {
  /** GET /messages (and /): the list; `.json` gives the array. */
  async index(ctx: ActionContext): Promise<Response | string | object> {
    const format = formatOf(ctx);
    if (format === null) return notAcceptable(ctx);
    const messages = await this.store.listMessages();
    return format === "json" ? messages : messagesIndex(ctx.helpers, messages, ctx.params.notice);
  }

  /** GET /messages/:id: the message with its comments. */
  async show(ctx: ActionContext): Promise<Response | string | object> {
    const format = formatOf(ctx);
    if (format === null) return notAcceptable(ctx);
    const message = await this.#find(ctx);
    if (message === null) return missing(ctx, "The message");
    const comments = await this.store.listComments(message.id);
    if (format === "json") return { ...message, comments };
    return messageShow(ctx.helpers, message, comments, { notice: ctx.params.notice });
  }

  /** GET /messages/new: the empty form. */
  new(ctx: ActionContext): Response | string {
    if (formatOf(ctx) !== "html") return notAcceptable(ctx);
    return messageForm(ctx.helpers, null, { title: "", body: "" });
  }

  /** POST /messages: creates, then 303 to the new message (`.json`: 201 with the record). */
  async create(ctx: ActionContext): Promise<Response> {
    const format = formatOf(ctx);
    if (format === null) return notAcceptable(ctx);
    const input = await fieldsOf(ctx, ["title", "body"] as const);
    if (input instanceof Response) return input;
    const errors = validateMessage(input);
    if (Object.keys(errors).length > 0) {
      return unprocessable(
        format === "json" ? errors : messageForm(ctx.helpers, null, input, errors),
      );
    }
    const message = await this.store.createMessage(input);
    if (format === "json") {
      return Response.json(message, {
        status: 201,
        headers: { location: String(ctx.helpers.formatted_message_url(message.id, "json")) },
      });
    }
    return seeOther(ctx.helpers.message_url(message.id, { notice: "created" }));
  }

  /** GET /messages/:id/edit: the form, which POSTs `_method=put` to the message. */
  async edit(ctx: ActionContext): Promise<Response | string> {
    if (formatOf(ctx) !== "html") return notAcceptable(ctx);
    const message = await this.#find(ctx);
    if (message === null) return missing(ctx, "The message");
    return messageForm(ctx.helpers, message, message);
  }

  /** PUT /messages/:id: saves title and text, then 303 to the message. */
  async update(ctx: ActionContext): Promise<Response | object> {
    const format = formatOf(ctx);
    if (format === null) return notAcceptable(ctx);
    const message = await this.#find(ctx);
    if (message === null) return missing(ctx, "The message");
    const input = await fieldsOf(ctx, ["title", "body"] as const);
    if (input instanceof Response) return input;
    const errors = validateMessage(input);
    if (Object.keys(errors).length > 0) {
      return unprocessable(
        format === "json" ? errors : messageForm(ctx.helpers, message, input, errors),
      );
    }
    const updated = await this.store.updateMessage(message.id, input);
    if (updated === null) return missing(ctx, "The message");
    if (format === "json") return updated;
    return seeOther(ctx.helpers.message_url(updated.id, { notice: "updated" }));
  }

  /** PUT /messages/:id/publish: marks the message published, then 303 to it. */
  async publish(ctx: ActionContext): Promise<Response | object> {
    const format = formatOf(ctx);
    if (format === null) return notAcceptable(ctx);
    const id = idOf(ctx.params.id);
    const message = id === null ? null : await this.store.publishMessage(id);
    if (message === null) return missing(ctx, "The message");
    if (format === "json") return message;
    return seeOther(ctx.helpers.message_url(message.id, { notice: "published" }));
  }

  /** DELETE /messages/:id: deletes it and its comments, then 303 to the list. */
  async destroy(ctx: ActionContext): Promise<Response | null> {
    const format = formatOf(ctx);
    if (format === null) return notAcceptable(ctx);
    const id = idOf(ctx.params.id);
    if (id === null || !(await this.store.deleteMessage(id))) {
      return missing(ctx, "The message");
    }
    if (format === "json") return null;
    return seeOther(ctx.helpers.messages_url({ notice: "deleted" }));
  }

  async #find(ctx: ActionContext) {
    const id = idOf(ctx.params.id);
    return id === null ? null : await this.store.getMessage(id);
  }
}

/** `comments`, nested in messages: index, create and destroy. */
export class CommentsController extends BlogController {
  /** GET /messages/:message_id/comments: the comments of a message. */
  async index(ctx: ActionContext): Promise<Response | string | object> {
    const format = formatOf(ctx);
    if (format === null) return notAcceptable(ctx);
    const id = idOf(ctx.params.message_id);
    const message = id === null ? null : await this.store.getMessage(id);
    if (message === null) return missing(ctx, "The message");
    const comments = await this.store.listComments(message.id);
    return format === "json" ? comments : commentsIndex(ctx.helpers, message, comments);
  }

  /** POST /messages/:message_id/comments: adds one, then 303 to the message. */
  async create(ctx: ActionContext): Promise<Response | object> {
    const format = formatOf(ctx);
    if (format === null) return notAcceptable(ctx);
    const id = idOf(ctx.params.message_id);
    const message = id === null ? null : await this.store.getMessage(id);
    if (message === null) return missing(ctx, "The message");
    const input = await fieldsOf(ctx, ["author", "body"] as const);
    if (input instanceof Response) return input;
    const errors = validateComment(input);
    if (Object.keys(errors).length > 0) {
      if (format === "json") return unprocessable(errors);
      const comments = await this.store.listComments(message.id);
      return unprocessable(
        messageShow(ctx.helpers, message, comments, { comment: input, errors }),
      );
    }
    const comment = await this.store.addComment(message.id, input);
    if (comment === null) return missing(ctx, "The message");
    if (format === "json") return Response.json(comment, { status: 201 });
    return seeOther(ctx.helpers.message_url(message.id, { notice: "commented" }));
  }

  /** DELETE /messages/:message_id/comments/:id: deletes one, then 303 to the message. */
  async destroy(ctx: ActionContext): Promise<Response | null> {
    const format = formatOf(ctx);
    if (format === null) return notAcceptable(ctx);
    const messageId = idOf(ctx.params.message_id);
    const id = idOf(ctx.params.id);
    if (messageId === null || id === null || !(await this.store.deleteComment(messageId, id))) {
      return missing(ctx, "The comment");
    }
    if (format === "json") return null;
    return seeOther(ctx.helpers.message_url(messageId, { notice: "uncommented" }));
  }
}

/** The singleton `account`: show, edit and update. */
export class AccountController extends BlogController {
  /** GET /account. */
  async show(ctx: ActionContext): Promise<Response | string | object> {
    const format = formatOf(ctx);
    if (format === null) return notAcceptable(ctx);
    const account = await this.store.getAccount();
    return format === "json" ? account : accountShow(ctx.helpers, account, ctx.params.notice);
  }

  /** GET /account/edit: the form, which POSTs `_method=put` to /account. */
  async edit(ctx: ActionContext): Promise<Response | string> {
    if (formatOf(ctx) !== "html") return notAcceptable(ctx);
    return accountForm(ctx.helpers, await this.store.getAccount());
  }

  /** PUT /account: saves, then 303 to the account page. */
  async update(ctx: ActionContext): Promise<Response | object> {
    const format = formatOf(ctx);
    if (format === null) return notAcceptable(ctx);
    const input: Account | Response = await fieldsOf(ctx, ["name", "email", "bio"] as const);
    if (input instanceof Response) return input;
    const errors = validateAccount(input);
    if (Object.keys(errors).length > 0) {
      return unprocessable(format === "json" ? errors : accountForm(ctx.helpers, input, errors));
    }
    const account = await this.store.updateAccount(input);
    if (format === "json") return account;
    return seeOther(ctx.helpers.account_url({ notice: "account" }));
  }
}
