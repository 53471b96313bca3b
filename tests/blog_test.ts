// The blog example (examples/blog) through router.fetch over an in-memory Deno KV: the
// app is covered here even where no browser is installed (see blog_e2e_test.ts).

import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import type { Router } from "../mod.ts";
import { createBlog, MAX_JSON_BYTES } from "../examples/blog/app.ts";
import { BlogStore } from "../examples/blog/store.ts";
import { escapeHtml, html } from "../examples/blog/views.ts";

const ORIGIN = "http://blog.test";
const FORM = "application/x-www-form-urlencoded";

/** Runs `fn` with a blog over a fresh in-memory KV, closed afterwards. */
async function withBlog(fn: (blog: Router, kv: Deno.Kv) => Promise<void>): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  try {
    await fn(createBlog(kv), kv);
  } finally {
    kv.close();
  }
}

function get(blog: Router, path: string): Promise<Response> {
  return blog.fetch(new Request(ORIGIN + path));
}

function postForm(blog: Router, path: string, fields: Record<string, string>): Promise<Response> {
  return blog.fetch(
    new Request(ORIGIN + path, {
      method: "POST",
      body: new URLSearchParams(fields).toString(),
      headers: { "content-type": FORM },
    }),
  );
}

async function text(response: Response, status = 200): Promise<string> {
  const body = await response.text();
  assertEquals(response.status, status, body);
  return body;
}

async function json(response: Response, status = 200): Promise<unknown> {
  const body = await response.text();
  assertEquals(response.status, status, body);
  assertEquals(response.headers.get("content-type"), "application/json");
  return JSON.parse(body);
}

/** Asserts a 303 and returns its Location. */
async function seeOther(response: Response): Promise<string> {
  assertEquals(response.status, 303, await response.text());
  return response.headers.get("location")!;
}

Deno.test("blog: the index starts empty, as HTML at / and /messages and as JSON", async () => {
  await withBlog(async (blog) => {
    for (const path of ["/", "/messages"]) {
      const page = await text(await get(blog, path));
      assertStringIncludes(page, "No messages yet");
      assertStringIncludes(page, `<a href="/messages/new">`);
    }
    assertEquals(await json(await get(blog, "/messages.json")), []);
  });
});

Deno.test("blog: create through a form POST redirects (303) to the new message", async () => {
  await withBlog(async (blog) => {
    const location = await seeOther(
      await postForm(blog, "/messages", { title: "Hello <world>", body: "line 1\r\nline 2" }),
    );
    assertEquals(location, `${ORIGIN}/messages/1?notice=created`);
    const page = await text(await get(blog, "/messages/1?notice=created"));
    assertStringIncludes(page, "Message created.");
    assertStringIncludes(page, "<h2>Hello &lt;world&gt; ");
    assertStringIncludes(page, "line 1<br>line 2");
    assertStringIncludes(page, `action="/messages/1/publish"`);
    const index = await text(await get(blog, "/messages"));
    assertStringIncludes(index, `<a href="/messages/1">Hello &lt;world&gt;</a>`);
    const message = await json(await get(blog, "/messages/1.json")) as Record<string, unknown>;
    assertEquals(message.id, 1);
    assertEquals(message.title, "Hello <world>");
    assertEquals(message.body, "line 1\nline 2");
    assertEquals(message.published, false);
    assertEquals(message.comments, []);
  });
});

Deno.test("blog: an invalid form is answered 422 with the form and its errors", async () => {
  await withBlog(async (blog) => {
    const page = await text(await postForm(blog, "/messages", { title: "  ", body: "x" }), 422);
    assertStringIncludes(page, "Title can&#39;t be blank");
    assertStringIncludes(page, `<textarea id="message_body" name="body">x</textarea>`);
    assertEquals(await json(await get(blog, "/messages.json")), []);
    const long = "x".repeat(201);
    await text(await postForm(blog, "/messages", { title: long }), 422);
  });
});

Deno.test("blog: update through _method=put, publish through _method=put", async () => {
  await withBlog(async (blog) => {
    await seeOther(await postForm(blog, "/messages", { title: "Draft", body: "" }));
    const form = await text(await get(blog, "/messages/1/edit"));
    assertStringIncludes(form, `action="/messages/1"`);
    assertStringIncludes(form, `<input type="hidden" name="_method" value="put">`);
    assertStringIncludes(form, `value="Draft"`);

    const updated = await seeOther(
      await postForm(blog, "/messages/1", { _method: "put", title: "Final", body: "Done." }),
    );
    assertEquals(updated, `${ORIGIN}/messages/1?notice=updated`);
    let message = await json(await get(blog, "/messages/1.json")) as Record<string, unknown>;
    assertEquals([message.title, message.body, message.published], ["Final", "Done.", false]);

    const published = await seeOther(
      await postForm(blog, "/messages/1/publish", { _method: "put" }),
    );
    assertEquals(published, `${ORIGIN}/messages/1?notice=published`);
    message = await json(await get(blog, "/messages/1.json")) as Record<string, unknown>;
    assertEquals(message.published, true);
    assertMatch(String(message.publishedAt), /^\d{4}-\d\d-\d\dT/);
    const page = await text(await get(blog, "/messages/1"));
    assertStringIncludes(page, `<span class="badge published">published</span>`);
    assert(!page.includes(`action="/messages/1/publish"`), "a published message has no Publish");

    // A plain POST to the member path is not an update: 405.
    const plain = await blog.fetch(
      new Request(`${ORIGIN}/messages/1`, {
        method: "POST",
        body: "title=x",
        headers: { "content-type": FORM },
      }),
    );
    assertEquals(plain.status, 405);
    await plain.body?.cancel();
    // Invalid input on update: 422, nothing saved.
    await text(await postForm(blog, "/messages/1", { _method: "put", title: "" }), 422);
    message = await json(await get(blog, "/messages/1.json")) as Record<string, unknown>;
    assertEquals(message.title, "Final");
  });
});

Deno.test("blog: delete through _method=delete removes the message and its comments", async () => {
  await withBlog(async (blog, kv) => {
    await seeOther(await postForm(blog, "/messages", { title: "Doomed" }));
    await seeOther(await postForm(blog, "/messages/1/comments", { author: "A", body: "hi" }));
    const location = await seeOther(await postForm(blog, "/messages/1", { _method: "delete" }));
    assertEquals(location, `${ORIGIN}/messages?notice=deleted`);
    const index = await text(await get(blog, "/messages?notice=deleted"));
    assertStringIncludes(index, "Message deleted.");
    assertStringIncludes(index, "No messages yet");
    await text(await get(blog, "/messages/1"), 404);
    assertEquals(await Array.fromAsync(kv.list({ prefix: ["comments"] })), []);
    // Deleting again is a 404.
    await text(await postForm(blog, "/messages/1", { _method: "delete" }), 404);
  });
});

Deno.test("blog: comments are added, listed and deleted under their message", async () => {
  await withBlog(async (blog) => {
    await seeOther(await postForm(blog, "/messages", { title: "Talk" }));
    const location = await seeOther(
      await postForm(blog, "/messages/1/comments", { author: "", body: "First!" }),
    );
    assertEquals(location, `${ORIGIN}/messages/1?notice=commented`);
    await seeOther(await postForm(blog, "/messages/1/comments", { author: "Bo", body: "Second" }));
    const page = await text(await get(blog, "/messages/1"));
    assertStringIncludes(page, "Comments (2)");
    assertStringIncludes(page, "Anonymous");
    assertStringIncludes(page, `action="/messages/1/comments/2"`);
    const comments = await json(await get(blog, "/messages/1/comments.json")) as {
      id: number;
      author: string;
      body: string;
    }[];
    assertEquals(comments.map((c) => [c.id, c.author, c.body]), [
      [1, "Anonymous", "First!"],
      [2, "Bo", "Second"],
    ]);
    assertStringIncludes(await text(await get(blog, "/messages/1/comments")), "Second");
    // A blank comment: 422 with the message page and the error.
    const invalid = await text(
      await postForm(blog, "/messages/1/comments", { author: "C", body: " " }),
      422,
    );
    assertStringIncludes(invalid, "Comment can&#39;t be blank");
    assertStringIncludes(invalid, `value="C"`);
    await seeOther(await postForm(blog, "/messages/1/comments/1", { _method: "delete" }));
    const left = await json(await get(blog, "/messages/1/comments.json")) as unknown[];
    assertEquals(left.length, 1);
    // Comments of a missing message, or a missing comment: 404.
    await text(await postForm(blog, "/messages/9/comments", { body: "x" }), 404);
    await text(await postForm(blog, "/messages/1/comments/1", { _method: "delete" }), 404);
    await text(await get(blog, "/messages/9/comments"), 404);
  });
});

Deno.test("blog: the account singleton shows, edits and updates through _method=put", async () => {
  await withBlog(async (blog) => {
    assertEquals(await json(await get(blog, "/account.json")), {
      name: "Blog owner",
      email: "",
      bio: "",
    });
    const form = await text(await get(blog, "/account/edit"));
    assertStringIncludes(form, `action="/account"`);
    assertStringIncludes(form, `name="_method" value="put"`);
    const location = await seeOther(
      await postForm(blog, "/account", {
        _method: "put",
        name: "Ada",
        email: "ada@example.com",
        bio: "Writes <code>",
      }),
    );
    assertEquals(location, `${ORIGIN}/account?notice=account`);
    const page = await text(await get(blog, "/account?notice=account"));
    assertStringIncludes(page, "Account updated.");
    assertStringIncludes(page, "<dd>Ada</dd>");
    assertStringIncludes(page, "Writes &lt;code&gt;");
    await text(await postForm(blog, "/account", { _method: "put", name: "" }), 422);
    assertEquals((await json(await get(blog, "/account.json")) as { name: string }).name, "Ada");
  });
});

Deno.test("blog: a missing or malformed message id is a 404, in HTML and JSON", async () => {
  await withBlog(async (blog) => {
    const page = await text(await get(blog, "/messages/42"), 404);
    assertStringIncludes(page, "Not found");
    assertEquals(await json(await get(blog, "/messages/42.json"), 404), {
      error: "The message not found",
    });
    for (const path of ["/messages/abc", "/messages/0", "/messages/01", "/messages/42/edit"]) {
      await text(await get(blog, path), 404);
    }
    await text(await postForm(blog, "/messages/42", { _method: "put", title: "x" }), 404);
    await text(await postForm(blog, "/messages/42/publish", { _method: "put" }), 404);
    // Routes the app does not serve: no route, or no such action.
    await text(await get(blog, "/nothing"), 404);
    await text(await get(blog, "/messages/1/comments/1"), 404);
  });
});

Deno.test("blog: the JSON API takes JSON bodies; other formats are a 406", async () => {
  await withBlog(async (blog) => {
    const created = await blog.fetch(
      new Request(`${ORIGIN}/messages.json`, {
        method: "POST",
        body: JSON.stringify({ title: "Via API", body: "json" }),
        headers: { "content-type": "application/json" },
      }),
    );
    assertEquals(created.headers.get("location"), `${ORIGIN}/messages/1.json`);
    assertEquals((await json(created, 201) as { title: string }).title, "Via API");
    const updated = await blog.fetch(
      new Request(`${ORIGIN}/messages/1.json`, {
        method: "PUT",
        body: JSON.stringify({ title: "Renamed" }),
        headers: { "content-type": "application/json" },
      }),
    );
    assertEquals((await json(updated) as { title: string }).title, "Renamed");
    const invalid = await blog.fetch(
      new Request(`${ORIGIN}/messages.json`, {
        method: "POST",
        body: JSON.stringify({ title: 5 }),
        headers: { "content-type": "application/json" },
      }),
    );
    assertEquals(invalid.status, 400);
    await invalid.body?.cancel();
    const errors = await blog.fetch(
      new Request(`${ORIGIN}/messages.json`, {
        method: "POST",
        body: "{}",
        headers: { "content-type": "application/json" },
      }),
    );
    assertEquals(await json(errors, 422), { errors: { title: "Title can't be blank" } });
    // A body over the limit is a 413, whether its Content-Length says so or not (a stream
    // has none).
    const big = JSON.stringify({ title: "t", body: "x".repeat(MAX_JSON_BYTES) });
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    for (const body of [big, stream]) {
      const tooLarge = await blog.fetch(
        new Request(`${ORIGIN}/messages.json`, {
          method: "POST",
          body,
          headers: { "content-type": "application/json" },
        }),
      );
      assertEquals(await json(tooLarge, 413), {
        error: `The body is over ${MAX_JSON_BYTES} bytes`,
      });
    }
    // Bytes that are not UTF-8 are refused as in a form, not stored as U+FFFD.
    const latin1 = await blog.fetch(
      new Request(`${ORIGIN}/messages.json`, {
        method: "POST",
        body: new Uint8Array([...new TextEncoder().encode('{"title":"'), 0xff, 0x22, 0x7d]),
        headers: { "content-type": "application/json; charset=utf-8" },
      }),
    );
    assertEquals(await json(latin1, 400), { error: "The body could not be read as UTF-8 text" });
    // Another JSON media type is not this API's: its fields are missing, a 422.
    const patch = await blog.fetch(
      new Request(`${ORIGIN}/messages.json`, {
        method: "POST",
        body: JSON.stringify({ title: "Patch" }),
        headers: { "content-type": "application/json-patch+json" },
      }),
    );
    assertEquals(await json(patch, 422), { errors: { title: "Title can't be blank" } });
    assertEquals((await json(await get(blog, "/messages.json")) as unknown[]).length, 1);
    await text(await get(blog, "/messages.xml"), 406);
    await text(await get(blog, "/messages/1.xml"), 406);
    const deleted = await blog.fetch(
      new Request(`${ORIGIN}/messages/1.json`, { method: "DELETE" }),
    );
    assertEquals(deleted.status, 204);
  });
});

Deno.test("blog: a notice shows for its own codes only, not for what objects inherit", async () => {
  await withBlog(async (blog) => {
    assertStringIncludes(
      await text(await get(blog, "/messages?notice=created")),
      "Message created.",
    );
    for (const code of ["constructor", "toString", "__proto__", "nope"]) {
      const page = await text(await get(blog, `/messages?notice=${code}`));
      assert(!page.includes('class="notice"'), code);
    }
  });
});

Deno.test("blog: every link and form on the pages is recognised (a link by a route with an action)", async () => {
  await withBlog(async (blog) => {
    await seeOther(await postForm(blog, "/messages", { title: "Linked" }));
    await seeOther(await postForm(blog, "/messages/1/comments", { body: "c" }));
    const pages = ["/", "/messages", "/messages/new", "/messages/1", "/messages/1/edit"];
    pages.push("/messages/1/comments", "/account", "/account/edit");
    let checked = 0;
    for (const path of pages) {
      const page = await text(await get(blog, path));
      for (const [, href] of page.matchAll(/<a href="([^"]*)"/g)) {
        const { route } = blog.recognize(href);
        assert(route.action !== null, href);
        checked++;
      }
      const forms = page.matchAll(/<form method="post" action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g);
      for (const [, action, body] of forms) {
        const override = body.match(/name="_method" value="([a-z]+)"/)?.[1] ?? "post";
        blog.recognize(action, override);
        checked++;
      }
    }
    assert(checked > 30, `only ${checked} links and forms`);
  });
});

Deno.test("blog store: concurrent creates get distinct ids and lose no write", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const store = new BlogStore(kv);
    const created = await Promise.all(
      Array.from({ length: 25 }, (_, i) => store.createMessage({ title: `m${i}`, body: "" })),
    );
    assertEquals(
      created.map((m) => m.id).sort((a, b) => a - b),
      [...Array(25)].map((_, i) => i + 1),
    );
    const listed = await store.listMessages();
    assertEquals(listed.length, 25);
    assertEquals(listed[0].id, 25);
    const comments = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => store.addComment(1, { author: "", body: `c${i}` })),
      ...Array.from({ length: 10 }, (_, i) => store.addComment(2, { author: "", body: `d${i}` })),
    ]);
    assertEquals(new Set(comments.map((c) => c!.id)).size, 20);
    assertEquals((await store.listComments(1)).length, 10);
    // Concurrent update and publish of one message keep both changes.
    await Promise.all([
      store.updateMessage(3, { title: "changed", body: "b" }),
      store.publishMessage(3),
    ]);
    const message = await store.getMessage(3);
    assertEquals([message!.title, message!.published], ["changed", true]);
    assertEquals(await store.addComment(99, { author: "", body: "x" }), null);
  } finally {
    kv.close();
  }
});

Deno.test("blog views: html escapes every value except Html", () => {
  assertEquals(
    escapeHtml(`<a href="x">'&'</a>`),
    "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;",
  );
  const name = `"><script>alert(1)</script>`;
  assertEquals(
    html`<p title="${name}">${[html`<b>${name}</b>`, null, false, undefined, 3]}</p>`.text,
    `<p title="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"><b>&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</b>3</p>`,
  );
});
