/**
 * The blog's HTML: plain HTML with a little CSS, no framework. Every interpolated value
 * is escaped by the {@linkcode html} tag, and every link and form action comes from the
 * request's named-route helpers (`h.message_path(id)`, `h.edit_account_path()`, ...).
 * Edit and delete forms POST with a hidden `_method` field, as browsers send only GET
 * and POST.
 * @module
 */

import type { Helpers } from "@resource-router/router";
import type { Account, Comment, Errors, Message } from "./store.ts";

/** HTML text that is already safe: the {@linkcode html} tag inserts it unescaped. */
export class Html {
  /** The markup. */
  readonly text: string;

  /** Wraps markup that is known to be safe. */
  constructor(text: string) {
    this.text = text;
  }

  /** The markup. */
  toString(): string {
    return this.text;
  }
}

/** Escapes text for HTML content and double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]);
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Template tag that escapes every interpolated value: `Html` goes in as is, arrays are
 * joined, `null`, `undefined` and `false` vanish, anything else is escaped text.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let text = strings[0];
  values.forEach((value, index) => {
    text += render(value) + strings[index + 1];
  });
  return new Html(text);
}

function render(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join("");
  if (value === null || value === undefined || value === false) return "";
  return escapeHtml(String(value));
}

/** The notices a redirect may ask for (`?notice=created`); unknown codes show nothing. */
export const NOTICES: Readonly<Record<string, string>> = {
  created: "Message created.",
  updated: "Message updated.",
  published: "Message published.",
  deleted: "Message deleted.",
  commented: "Comment added.",
  uncommented: "Comment deleted.",
  account: "Account updated.",
};

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 44rem; margin: 0 auto; padding: 1rem;
         color: #222; background: #fafafa; }
  header { display: flex; gap: 1rem; align-items: baseline; border-bottom: 2px solid #2b6cb0;
           margin-bottom: 1rem; }
  header h1 { margin: 0.2rem 0; font-size: 1.4rem; }
  header h1 a { color: #2b6cb0; text-decoration: none; }
  nav { display: flex; gap: 1rem; margin-left: auto; }
  a { color: #2b6cb0; }
  .notice { background: #e6fffa; border: 1px solid #81e6d9; padding: 0.4rem 0.8rem; }
  .errors { background: #fff5f5; border: 1px solid #feb2b2; padding: 0.4rem 0.8rem; color: #9b2c2c; }
  article, .comment { background: #fff; border: 1px solid #ddd; border-radius: 4px;
                      padding: 0.6rem 1rem; margin: 0.6rem 0; }
  article h2 { margin: 0; font-size: 1.15rem; }
  .meta { color: #666; font-size: 0.85rem; }
  .badge { font-size: 0.75rem; padding: 0.05rem 0.4rem; border-radius: 3px; vertical-align: middle; }
  .published { background: #c6f6d5; color: #22543d; }
  .draft { background: #edf2f7; color: #4a5568; }
  .actions { display: flex; gap: 0.5rem; align-items: center; margin: 0.5rem 0; }
  .actions form { margin: 0; }
  label { display: block; margin: 0.5rem 0 0.2rem; font-weight: 600; }
  input[type=text], input[type=email], textarea { width: 100%; box-sizing: border-box;
    font: inherit; padding: 0.3rem; }
  textarea { min-height: 6rem; }
  button { font: inherit; padding: 0.2rem 0.8rem; cursor: pointer; }
  button.danger { color: #9b2c2c; }
`;

/** The page frame: title, navigation, an optional notice. */
export function layout(h: Helpers, title: string, content: Html, notice?: string): string {
  // Own codes only: `?notice=constructor` would otherwise show what every object inherits.
  const message = notice !== undefined && Object.hasOwn(NOTICES, notice)
    ? NOTICES[notice]
    : undefined;
  return html`
    <!DOCTYPE html>
    <html lang="en">
      <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>${title} · resource-router blog</title>
        <style>${new Html(STYLE)}</style>
      </head>
      <body>
    <header>
      <h1><a href="${h.root_path()}">resource-router blog</a></h1>
      <nav>
        <a href="${h.messages_path()}">Messages</a>
        <a href="${h.new_message_path()}">New message</a>
        <a href="${h.account_path()}">Account</a>
      </nav>
    </header>
    ${message && html`<p class="notice" role="status">${message}</p>`}
    <main>
    ${content}
    </main>
      </body>
    </html>
  `.text.trimStart();
}

function errorList(errors: Errors): Html | undefined {
  const messages = Object.values(errors);
  if (messages.length === 0) return undefined;
  return html`
    <div class="errors" role="alert">
      <ul>${messages.map((message) => html`<li>${message}</li>`)}</ul>
    </div>
  `;
}

function badge(message: Message): Html {
  return message.published
    ? html`<span class="badge published">published</span>`
    : html`<span class="badge draft">draft</span>`;
}

function date(iso: string): string {
  return iso.slice(0, 16).replace("T", " ") + " UTC";
}

/** The message list. */
export function messagesIndex(h: Helpers, messages: Message[], notice?: string): string {
  const items = messages.length === 0
    ? html`<p>No messages yet. <a href="${h.new_message_path()}">Write the first one</a>.</p>`
    : messages.map((message) =>
      html`<article id="message-${message.id}">
  <h2><a href="${h.message_path(message.id)}">${message.title}</a> ${badge(message)}</h2>
  <p class="meta">${date(message.createdAt)}</p>
  <p class="text">${lines(excerpt(message.body))}</p>
</article>`
    );
  return layout(
    h,
    "Messages",
    html`<h2>Messages</h2>
${items}
<p class="meta">Also as <a href="${h.formatted_messages_path("json")}">JSON</a>.</p>`,
    notice,
  );
}

/** Text with its line breaks kept as `<br>` (markup whitespace around it is free). */
function lines(text: string): Html {
  return html`${text.split("\n").map((line, i) => i === 0 ? line : html`<br>${line}`)}`;
}

function excerpt(text: string): string {
  return text.length > 200 ? text.slice(0, 200) + "…" : text;
}

/** One message with its comments, the comment form and the member actions. */
export function messageShow(
  h: Helpers,
  message: Message,
  comments: Comment[],
  options: { notice?: string; comment?: { author: string; body: string }; errors?: Errors } = {},
): string {
  const draft = options.comment ?? { author: "", body: "" };
  return layout(
    h,
    message.title,
    html`<article id="message">
  <h2>${message.title} ${badge(message)}</h2>
  <p class="meta">Written ${date(message.createdAt)}${
      message.publishedAt && html`, published ${date(message.publishedAt)}`
    }</p>
  <div class="text">${lines(message.body)}</div>
</article>
<div class="actions">
  <a href="${h.edit_message_path(message.id)}">Edit</a>
  ${
      !message.published && html`
        <form method="post" action="${h.publish_message_path(message.id)}">
          <input type="hidden" name="_method" value="put">
          <button type="submit">Publish</button>
        </form>
      `
    }
  <form method="post" action="${h.message_path(message.id)}">
    <input type="hidden" name="_method" value="delete">
    <button type="submit" class="danger">Delete</button>
  </form>
  <a href="${h.formatted_message_path(message.id, "json")}">JSON</a>
</div>
<section id="comments">
<h3>Comments (${comments.length})</h3>
${
      comments.map((comment) =>
        html`<div class="comment" id="comment-${comment.id}">
  <p class="meta">${comment.author} · ${date(comment.createdAt)}</p>
  <div class="text">${lines(comment.body)}</div>
  <form method="post" action="${h.message_comment_path(message.id, comment.id)}">
    <input type="hidden" name="_method" value="delete">
    <button type="submit" class="danger">Delete comment</button>
  </form>
</div>`
      )
    }
<form method="post" action="${h.message_comments_path(message.id)}" id="new-comment">
  <h4>Add a comment</h4>
  ${errorList(options.errors ?? {})}
  <label for="comment_author">Name</label>
  <input type="text" id="comment_author" name="author" value="${draft.author}">
  <label for="comment_body">Comment</label>
  <textarea id="comment_body" name="body" required>${draft.body}</textarea>
  <p><button type="submit">Add comment</button></p>
</form>
</section>
<p><a href="${h.messages_path()}">Back to messages</a></p>`,
    options.notice,
  );
}

/** The comments of a message on their own page (the nested index route). */
export function commentsIndex(h: Helpers, message: Message, comments: Comment[]): string {
  return layout(
    h,
    `Comments on ${message.title}`,
    html`<h2>Comments on <a href="${h.message_path(message.id)}">${message.title}</a></h2>
${
      comments.length === 0
        ? html`<p>No comments yet.</p>`
        : comments.map((comment) =>
          html`<div class="comment" id="comment-${comment.id}">
  <p class="meta">${comment.author} · ${date(comment.createdAt)}</p>
  <div class="text">${lines(comment.body)}</div>
</div>`
        )
    }
<p class="meta">Also as <a href="${
      h.formatted_message_comments_path(message.id, "json")
    }">JSON</a>.</p>`,
  );
}

/**
 * The new-message form (no `message`) or the edit form, which POSTs to the message's
 * own path with `_method=put`.
 */
export function messageForm(
  h: Helpers,
  message: Message | null,
  input: { title: string; body: string },
  errors: Errors = {},
): string {
  const editing = message !== null;
  const action = editing ? h.message_path(message.id) : h.messages_path();
  return layout(
    h,
    editing ? `Edit ${message.title}` : "New message",
    html`<h2>${editing ? "Edit message" : "New message"}</h2>
<form method="post" action="${action}" id="message-form">
  ${editing && html`<input type="hidden" name="_method" value="put">`}
  ${errorList(errors)}
  <label for="message_title">Title</label>
  <input type="text" id="message_title" name="title" value="${input.title}" required>
  <label for="message_body">Text</label>
  <textarea id="message_body" name="body">${input.body}</textarea>
  <p><button type="submit">${editing ? "Update message" : "Create message"}</button></p>
</form>
<p><a href="${editing ? h.message_path(message.id) : h.messages_path()}">Cancel</a></p>`,
  );
}

/** The account page. */
export function accountShow(h: Helpers, account: Account, notice?: string): string {
  return layout(
    h,
    "Account",
    html`
      <h2>Account</h2>
      <dl id="account">
        <dt>Name</dt>
        <dd>${account.name}</dd>
        <dt>E-mail</dt>
        <dd>${account.email || "(none)"}</dd>
        <dt>Bio</dt>
        <dd class="text">${lines(account.bio || "(none)")}</dd>
      </dl>
      <p><a href="${h.edit_account_path()}">Edit account</a> ·
      <a href="${h.formatted_account_path("json")}">JSON</a></p>
    `,
    notice,
  );
}

/** The account form: POSTs to the singleton's path with `_method=put`. */
export function accountForm(h: Helpers, account: Account, errors: Errors = {}): string {
  return layout(
    h,
    "Edit account",
    html`<h2>Edit account</h2>
<form method="post" action="${h.account_path()}" id="account-form">
  <input type="hidden" name="_method" value="put">
  ${errorList(errors)}
  <label for="account_name">Name</label>
  <input type="text" id="account_name" name="name" value="${account.name}" required>
  <label for="account_email">E-mail</label>
  <input type="email" id="account_email" name="email" value="${account.email}">
  <label for="account_bio">Bio</label>
  <textarea id="account_bio" name="bio">${account.bio}</textarea>
  <p><button type="submit">Update account</button></p>
</form>
<p><a href="${h.account_path()}">Cancel</a></p>`,
  );
}

/** The 404 page. */
export function notFound(h: Helpers, what: string): string {
  return layout(
    h,
    "Not found",
    html`<h2>Not found</h2>
<p>${what} does not exist (any more).</p>
<p><a href="${h.messages_path()}">Back to messages</a></p>`,
  );
}
