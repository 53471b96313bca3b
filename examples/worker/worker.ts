/**
 * A Cloudflare-style module worker: `export default { fetch }`, nothing else. A small JSON
 * API over notes and their comments, kept in memory (per isolate: a real worker would
 * use KV or D1).
 *
 * Locally with Deno: `deno serve examples/worker/worker.ts` (http://localhost:8000), then
 * `curl localhost:8000/notes -d title=hello` and `curl localhost:8000/notes/1`.
 *
 * On Cloudflare: `deno task build`, then `npx wrangler dev` (or `deploy`) in
 * `examples/worker/`; its `wrangler.toml` points the `@resource-router/router` import at
 * `dist/mod.js`.
 * @module
 */

import { type ActionContext, Controller, Router, RoutingError } from "@resource-router/router";

/** A note. */
export interface Note {
  /** Its id, a decimal number. */
  id: string;
  /** Its title. */
  title: string;
  /** Its comments, in order. */
  comments: string[];
}

const notes = new Map<string, Note>();
let lastId = 0;

function findNote(id: string, ctx: ActionContext): Note {
  const note = notes.get(id);
  if (note === undefined) {
    throw new RoutingError(`No note ${id}`, {
      status: 404,
      method: ctx.method,
      path: ctx.route.path,
    });
  }
  return note;
}

/** `/notes`: list, create, show, update, destroy. */
export class NotesController extends Controller {
  /** `GET /notes` */
  index(ctx: ActionContext): unknown {
    return [...notes.values()].map((note) => ({ ...note, url: ctx.helpers.note_url(note.id) }));
  }
  /** `POST /notes` with a form field `title`. */
  create(ctx: ActionContext): Response {
    const note = { id: String(++lastId), title: ctx.params.title ?? "untitled", comments: [] };
    notes.set(note.id, note);
    return Response.json(note, {
      status: 201,
      headers: { location: ctx.helpers.note_url(note.id) },
    });
  }
  /** `GET /notes/:id` */
  show(ctx: ActionContext): unknown {
    const note = findNote(ctx.params.id, ctx);
    return { ...note, comments_url: ctx.helpers.note_comments_url(note.id) };
  }
  /** `PUT /notes/:id` (or a POST form with `_method=put`). */
  update(ctx: ActionContext): Note {
    const note = findNote(ctx.params.id, ctx);
    if (ctx.params.title !== undefined) note.title = ctx.params.title;
    return note;
  }
  /** `DELETE /notes/:id`: 204. */
  destroy(ctx: ActionContext): void {
    findNote(ctx.params.id, ctx);
    notes.delete(ctx.params.id);
  }
}

/** `/notes/:note_id/comments`: list and add. */
export const comments = {
  /** `GET /notes/:note_id/comments` */
  index(ctx: ActionContext): string[] {
    return findNote(ctx.params.note_id, ctx).comments;
  },
  /** `POST /notes/:note_id/comments` with a form field `body`. */
  create(ctx: ActionContext): Response {
    findNote(ctx.params.note_id, ctx).comments.push(ctx.params.body ?? "");
    return new Response(null, {
      status: 303,
      headers: { location: ctx.helpers.note_url(ctx.params.note_id) },
    });
  },
};

/** The worker's router. */
export const router: Router = new Router({
  controllers: {
    notes: NotesController,
    comments,
    home: { index: (ctx: ActionContext) => ({ notes: ctx.helpers.notes_url() }) },
  },
}).draw((map) => {
  map.named("root", "/", { controller: "home", action: "index", conditions: { method: "get" } });
  map.resources("notes", (notes) => notes.resources("comments"));
});

export default { fetch: router.fetch };
