/**
 * Generation: named-route helpers on the large table (variant A), the common calls that
 * take the precompiled fast path, and for comparison calls that take the general one.
 * @module
 */

import { largeRouter } from "./tables.ts";

const router = largeRouter();
const helpers = router.helpers;
const group = "generate";
/** A model record, as `message_path(@message)` passes one in Rails. */
const message = new (class Message {
  constructor(readonly id: number) {}
})(1);

Deno.bench({
  name: "message_path(1)",
  group,
  baseline: true,
  fn: () => void helpers.message_path(1),
});
Deno.bench({ name: "messages_path()", group, fn: () => void helpers.messages_path() });
Deno.bench({
  name: 'edit_message_path("a1b2")',
  group,
  fn: () => void helpers.edit_message_path("a1b2"),
});
Deno.bench({
  name: 'formatted_message_path(1, "xml")',
  group,
  fn: () => void helpers.formatted_message_path(1, "xml"),
});
Deno.bench({
  name: "article_comment_vote_path(1, 2, 3) (nested two deep)",
  group,
  fn: () => void helpers.article_comment_vote_path(1, 2, 3),
});
Deno.bench({
  name: "message_path(message) (a record with id)",
  group,
  fn: () => void helpers.message_path(message),
});
Deno.bench({
  name: "message_path({ id: 1 }) (named values: general path)",
  group,
  fn: () => void helpers.message_path({ id: 1 }),
});
Deno.bench({
  name: 'message_path("a.b") (a value to encode: general path)',
  group,
  fn: () => void helpers.message_path("a.b"),
});
Deno.bench({
  name: 'urlFor({ controller: "messages", action: "show", id: 1 })',
  group,
  fn: () => void router.urlFor({ controller: "messages", action: "show", id: 1 }),
});
