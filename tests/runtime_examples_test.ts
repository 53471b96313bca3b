import { assert, assertEquals, assertMatch } from "@std/assert";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import worker, { router } from "../examples/worker/worker.ts";
import * as esbuild from "esbuild";
import { build } from "../src/build.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Starts a server process, waits (at most 20 s) for the first `http://host:port` it
 * prints on stdout or stderr, runs `body` with its origin, then stops it.
 */
async function withServer(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string> },
  body: (origin: string) => Promise<void>,
): Promise<void> {
  const child = new Deno.Command(command, { ...options, args, stdout: "piped", stderr: "piped" })
    .spawn();
  const output: string[] = [];
  let found: (port: string) => void;
  const listening = new Promise<string>((resolve) => found = resolve);
  const watch = async (stream: ReadableStream<Uint8Array>) => {
    for await (const text of stream.pipeThrough(new TextDecoderStream())) {
      output.push(text);
      const port = output.join("").match(/http:\/\/[^\s/]+:(\d+)/)?.[1];
      if (port !== undefined) found(port);
    }
  };
  const streams = Promise.all([watch(child.stdout), watch(child.stderr)]);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const port = await Promise.race([
      listening,
      child.status.then((status) => {
        throw new Error(`${command} exited (${status.code}): ${output.join("")}`);
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no port in: ${output.join("")}`)), 20_000);
      }),
    ]);
    await body(`http://localhost:${port}`);
  } finally {
    clearTimeout(timer);
    try {
      child.kill();
    } catch { /* already gone */ }
    await child.status;
    await streams;
  }
}

async function hasNode(): Promise<boolean> {
  try {
    return (await new Deno.Command("node", { args: ["--version"], stdout: "null" }).output())
      .success;
  } catch {
    return false;
  }
}

Deno.test("worker example: export default { fetch } serves the notes API", async () => {
  const created = await worker.fetch(
    new Request("http://worker.test/notes", {
      method: "POST",
      body: new URLSearchParams({ title: "hi" }),
    }),
  );
  assertEquals(created.status, 201);
  const note = await created.json();
  assertEquals(created.headers.get("location"), `http://worker.test/notes/${note.id}`);
  const shown = await worker.fetch(new Request(`http://worker.test/notes/${note.id}`));
  assertEquals((await shown.json()).title, "hi");
  assertEquals((await worker.fetch(new Request("http://worker.test/notes/999"))).status, 404);
  assertEquals(router.helpers.note_comments_path(1), "/notes/1/comments");
});

Deno.test("worker example: `deno serve examples/worker/worker.ts` answers", async () => {
  await withServer(
    Deno.execPath(),
    ["serve", "--no-check", "--port", "0", "examples/worker/worker.ts"],
    { cwd: ROOT },
    async (origin) => {
      const response = await fetch(`${origin}/`);
      assertEquals(await response.json(), { notes: `${origin}/notes` });
    },
  );
});

Deno.test({
  name: "node example: `node examples/node/server.mjs` serves the built bundle",
  ignore: !(await hasNode()),
  async fn() {
    // The example imports ../../dist/mod.js: lay out a copy next to a fresh build.
    const root = await Deno.makeTempDir({ prefix: "resource-router-node-" });
    try {
      await build(join(root, "dist"), { declarations: false });
      await Deno.mkdir(join(root, "examples", "node"), { recursive: true });
      await Deno.copyFile(
        join(ROOT, "examples", "node", "server.mjs"),
        join(root, "examples", "node", "server.mjs"),
      );
      await withServer(
        "node",
        ["examples/node/server.mjs"],
        { cwd: root, env: { PORT: "0" } },
        async (origin) => {
          const list = await fetch(`${origin}/messages`);
          assertEquals(list.status, 200);
          const [first] = await list.json();
          assertEquals(first.url, `${origin}/messages/1`);
          const created = await fetch(`${origin}/messages`, {
            method: "POST",
            body: new URLSearchParams({ text: "from a test" }),
          });
          assertEquals(created.status, 201);
          assertMatch(created.headers.get("location") ?? "", /\/messages\/2$/);
          assertEquals((await created.json()).text, "from a test");
          const refused = await fetch(`${origin}/messages`, { method: "PUT" });
          await refused.body?.cancel();
          assertEquals(refused.status, 405);
          assert(refused.headers.get("allow")?.includes("POST"));
          // A path that starts with "//" is a path, not a host: this created a message
          // and answered with a Location on evil.example.
          const doubled = await fetch(`${origin}//evil.example/messages`, {
            method: "POST",
            body: new URLSearchParams({ text: "elsewhere" }),
          });
          await doubled.body?.cancel();
          assertEquals(doubled.status, 404);
          assertEquals(doubled.headers.get("location"), null);
          // A Host with a path in it is refused: this answered /nope with message 1.
          const conn = await Deno.connect({ port: Number(new URL(origin).port) });
          try {
            await conn.write(
              new TextEncoder().encode(
                "GET /nope HTTP/1.1\r\nHost: localhost/messages/1?\r\nConnection: close\r\n\r\n",
              ),
            );
            const reply = await new Response(conn.readable).text();
            assert(reply.startsWith("HTTP/1.1 400 "), reply);
          } finally {
            try {
              conn.close();
            } catch {
              // Closed already by reading to the end.
            }
          }
        },
      );
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

/** The workerd that `npx` runs: Cloudflare's Workers runtime, from npm. */
const WORKERD = "workerd@1.20261117.1";

/** A TCP port that was free a moment ago. */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

Deno.test({
  name: "worker example: Cloudflare's workerd serves it from the built bundle",
  ignore: !(await hasNode()),
  async fn() {
    // As wrangler would: worker.ts bundled with the import of the package aliased to
    // dist/mod.js, then run by workerd, which refuses eval and new Function at request time.
    const root = await Deno.makeTempDir({ prefix: "resource-router-workerd-" });
    const port = freePort();
    try {
      const { entry } = await build(join(root, "dist"), { declarations: false });
      try {
        await esbuild.build({
          entryPoints: [join(ROOT, "examples", "worker", "worker.ts")],
          outfile: join(root, "worker.js"),
          bundle: true,
          format: "esm",
          platform: "neutral",
          alias: { "@resource-router/router": entry },
          logLevel: "warning",
        });
      } finally {
        await esbuild.stop();
      }
      await Deno.writeTextFile(
        join(root, "config.capnp"),
        `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "2025-09-01",
);
`,
      );
      const child = new Deno.Command("npx", {
        args: ["-y", WORKERD, "serve", "config.capnp"],
        cwd: root,
        // Its errors (a config it refuses, a worker that throws) show in the test's output.
        stdout: "null",
        stderr: "inherit",
        // A process group of its own: npx runs workerd as a child of its own, which
        // outlived a kill of npx alone and kept serving after the tests.
        detached: true,
      }).spawn();
      const origin = `http://127.0.0.1:${port}`;
      try {
        // workerd prints nothing once it listens: ask until it answers (npx may download it).
        let home: Response | undefined;
        for (let tries = 0; home === undefined; tries++) {
          try {
            home = await fetch(`${origin}/`);
          } catch (error) {
            if (tries === 600) throw error;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
        assertEquals(await home.json(), { notes: `${origin}/notes` });
        const created = await fetch(`${origin}/notes`, {
          method: "POST",
          body: new URLSearchParams({ title: "from workerd" }),
        });
        assertEquals(created.status, 201);
        const note = await created.json();
        assertEquals(created.headers.get("location"), `${origin}/notes/${note.id}`);
        const updated = await fetch(`${origin}/notes/${note.id}`, {
          method: "POST",
          body: new URLSearchParams({ _method: "put", title: "renamed" }),
        });
        assertEquals((await updated.json()).title, "renamed");
        const refused = await fetch(`${origin}/notes/${note.id}`, { method: "PATCH" });
        await refused.body?.cancel();
        assertEquals(refused.status, 405);
        assertMatch(refused.headers.get("allow") ?? "", /\bPUT\b/);
        const missing = await fetch(`${origin}/notes/999`);
        await missing.body?.cancel();
        assertEquals(missing.status, 404);
      } finally {
        if (Deno.build.os === "windows") child.kill();
        else Deno.kill(-child.pid, "SIGTERM");
        await child.status;
      }
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
