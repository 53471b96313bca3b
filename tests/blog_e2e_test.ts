// End to end: the blog example (examples/blog) on Deno.serve over an in-memory KV,
// driven by headless Chromium through playwright-core. It creates, lists, edits
// (PUT through _method), publishes, comments on and deletes (DELETE through _method) a
// message, edits the account, and saves a screenshot of the index to docs/blog.png.
//
// Needs Debian's chromium at /usr/bin/chromium. Without it the test is skipped with a
// SKIP line, unless REQUIRE_BROWSER=1 (as .ci/run sets), where it fails instead.

import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { type Browser, chromium, type Page } from "playwright-core";
import { createBlog } from "../examples/blog/app.ts";

const CHROMIUM = "/usr/bin/chromium";
const SCREENSHOT = new URL("../docs/blog.png", import.meta.url);

function isExecutable(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    return info.isFile && ((info.mode ?? 0o755) & 0o111) !== 0;
  } catch {
    return false;
  }
}

const hasBrowser = isExecutable(CHROMIUM);
const browserRequired = Deno.env.get("REQUIRE_BROWSER") === "1";

if (!hasBrowser) {
  if (browserRequired) {
    Deno.test("blog e2e: Chromium must be installed (REQUIRE_BROWSER=1)", () => {
      throw new Error(
        `REQUIRE_BROWSER=1, but ${CHROMIUM} is not installed: apt-get install chromium ` +
          "(or unset REQUIRE_BROWSER to skip the browser test)",
      );
    });
  } else {
    console.log("SKIP blog e2e: /usr/bin/chromium not installed (apt-get install chromium)");
  }
}

/** A clock that starts at a fixed time and ticks a minute per call: stable screenshots. */
function fixedClock(): () => Date {
  let time = Date.UTC(2026, 0, 15, 9, 30);
  return () => new Date(time += 60_000);
}

/** Clicks and waits for the navigation it causes to reach `url`. */
async function clickTo(page: Page, selector: string, url: RegExp): Promise<void> {
  await Promise.all([page.waitForURL(url), page.click(selector)]);
}

async function mainText(page: Page): Promise<string> {
  return await page.locator("body").innerText();
}

Deno.test({
  name: "blog e2e: a browser creates, edits, publishes, comments on and deletes a message",
  ignore: !hasBrowser,
  async fn(t) {
    const kv = await Deno.openKv(":memory:");
    const router = createBlog(kv, { now: fixedClock() });
    const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, router.fetch);
    const base = `http://127.0.0.1:${server.addr.port}`;
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        timeout: 60_000,
        args: [
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-background-networking",
          "--no-first-run",
          "--disable-quic",
          "--disable-component-update",
          "--disable-sync",
        ],
      });
      const context = await browser.newContext({ viewport: { width: 900, height: 540 } });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      /** What the server saw, as JSON, from the browser's own session. */
      const api = async (path: string) => {
        const response = await page.request.get(base + path);
        assertEquals(response.status(), 200, path);
        return await response.json();
      };

      await t.step("the empty index", async () => {
        const response = await page.goto(base + "/");
        assertEquals(response?.status(), 200);
        assertStringIncludes(await mainText(page), "No messages yet");
      });

      await t.step("create a message through the form", async () => {
        await clickTo(page, "text=New message", /\/messages\/new$/);
        await page.fill("#message_title", "Hello from Chromium");
        await page.fill("#message_body", "Routed by resource-router.\nSecond line.");
        await clickTo(page, "button:has-text('Create message')", /\/messages\/1\?notice=created$/);
        const text = await mainText(page);
        assertStringIncludes(text, "Message created.");
        assertStringIncludes(text, "Hello from Chromium");
        assertStringIncludes(text, "Second line.");
        assertStringIncludes(text, "draft");
      });

      await t.step("see it listed", async () => {
        await clickTo(page, "header >> text=Messages", /\/messages$/);
        const link = page.locator("article#message-1 h2 a");
        assertEquals(await link.innerText(), "Hello from Chromium");
        assertEquals(await link.getAttribute("href"), "/messages/1");
      });

      await t.step("edit it (PUT through _method)", async () => {
        await clickTo(page, "article#message-1 h2 a", /\/messages\/1$/);
        await clickTo(page, "text=Edit", /\/messages\/1\/edit$/);
        assertEquals(
          await page.locator("#message-form input[name=_method]").getAttribute("value"),
          "put",
        );
        await page.fill("#message_title", "Hello, edited");
        await clickTo(page, "button:has-text('Update message')", /\/messages\/1\?notice=updated$/);
        const text = await mainText(page);
        assertStringIncludes(text, "Message updated.");
        assertStringIncludes(text, "Hello, edited");
        assertEquals((await api("/messages/1.json")).title, "Hello, edited");
      });

      await t.step("publish it (PUT through _method to the member action)", async () => {
        await clickTo(page, "button:has-text('Publish')", /\/messages\/1\?notice=published$/);
        const text = await mainText(page);
        assertStringIncludes(text, "Message published.");
        assertEquals(await page.locator("#message .badge").innerText(), "published");
        assertEquals(await page.locator("button:has-text('Publish')").count(), 0);
        assertEquals((await api("/messages/1.json")).published, true);
      });

      await t.step("add a comment (nested resource)", async () => {
        await page.fill("#comment_author", "Grace");
        await page.fill("#comment_body", "Nice routes!");
        await clickTo(page, "button:has-text('Add comment')", /\/messages\/1\?notice=commented$/);
        const text = await mainText(page);
        assertStringIncludes(text, "Comment added.");
        assertStringIncludes(text, "Comments (1)");
        assertStringIncludes(await page.locator("#comment-1").innerText(), "Nice routes!");
        assertEquals((await api("/messages/1/comments.json")).length, 1);
      });

      await t.step("edit the account (singleton, PUT through _method)", async () => {
        await clickTo(page, "header >> text=Account", /\/account$/);
        await clickTo(page, "text=Edit account", /\/account\/edit$/);
        await page.fill("#account_name", "Ada Lovelace");
        await page.fill("#account_email", "ada@example.com");
        await page.fill("#account_bio", "Writes about routers.");
        await clickTo(page, "button:has-text('Update account')", /\/account\?notice=account$/);
        const text = await mainText(page);
        assertStringIncludes(text, "Account updated.");
        assertStringIncludes(text, "Ada Lovelace");
        assertEquals((await api("/account.json")).email, "ada@example.com");
      });

      await t.step("a second message, and a screenshot of the index", async () => {
        await clickTo(page, "text=New message", /\/messages\/new$/);
        await page.fill("#message_title", "A draft for later");
        await page.fill("#message_body", "Still thinking about this one.");
        await clickTo(page, "button:has-text('Create message')", /\/messages\/2\?notice=created$/);
        await clickTo(page, "header >> text=Messages", /\/messages$/);
        assertEquals(await page.locator("article").count(), 2);
        await Deno.mkdir(new URL(".", SCREENSHOT), { recursive: true });
        await Deno.writeFile(SCREENSHOT, await page.screenshot({ fullPage: true }));
        assert(Deno.statSync(SCREENSHOT).size > 1000, "the screenshot is empty");
      });

      await t.step("delete the first message (DELETE through _method)", async () => {
        await clickTo(page, "article#message-1 h2 a", /\/messages\/1$/);
        assertEquals(
          await page.locator("form:has(button.danger:has-text('Delete')) input[name=_method]")
            .first().getAttribute("value"),
          "delete",
        );
        await clickTo(
          page,
          "#message ~ .actions button:has-text('Delete')",
          /\/messages\?notice=deleted$/,
        );
        const text = await mainText(page);
        assertStringIncludes(text, "Message deleted.");
        assert(!text.includes("Hello, edited"), text);
        assertStringIncludes(text, "A draft for later");
        const gone = await page.goto(base + "/messages/1");
        assertEquals(gone?.status(), 404);
        assertStringIncludes(await mainText(page), "Not found");
      });

      await context.close();
    } finally {
      await browser?.close();
      await server.shutdown();
      kv.close();
    }
  },
});
