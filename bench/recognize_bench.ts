/**
 * Recognition and generation on the forum table of the tests (a first benchmark; the
 * performance issue adds the large Rails-like table and the peers).
 * @module
 */

import { forumRouter } from "../tests/_fixtures.ts";

const router = forumRouter("A");
const paths: [string, string][] = [
  ["/messages", "GET"],
  ["/messages/1", "GET"],
  ["/messages/1/comments/2/votes/3.json", "GET"],
  ["/messages/1/publish", "PUT"],
  ["/account/notifications/4", "DELETE"],
  ["/widgets/show/9", "GET"],
];

Deno.bench("recognize: a mix of six paths", { group: "recognize" }, () => {
  for (const [path, method] of paths) router.recognize(path, method);
});

Deno.bench("helpers: message_path(1)", { group: "generate" }, () => {
  router.helpers.message_path(1);
});

Deno.bench("draw: the forum table", { group: "draw" }, () => {
  forumRouter("A");
});
