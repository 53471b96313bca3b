/**
 * Serves the blog: `deno task demo` (port 8000, or `PORT`). The data lives in a Deno KV
 * file in the system temp dir (`$TMPDIR`, else `/tmp`), `resource-router-blog.kv`, so
 * it survives restarts; delete the file to start over.
 * @module
 */

import { createBlog } from "./app.ts";

/** Where the demo keeps its data. */
export function kvPath(): string {
  const dir = Deno.env.get("TMPDIR") ?? "/tmp";
  return `${dir.replace(/\/+$/, "")}/resource-router-blog.kv`;
}

/** The port from `PORT`, default 8000. */
export function port(): number {
  const text = Deno.env.get("PORT");
  if (text === undefined || text === "") return 8000;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    throw new TypeError(`PORT must be a port number (0-65535), got ${JSON.stringify(text)}`);
  }
  return value;
}

if (import.meta.main) {
  const path = kvPath();
  const kv = await Deno.openKv(path);
  const router = createBlog(kv);
  const server = Deno.serve({
    port: port(),
    onListen({ hostname, port }) {
      const host = hostname === "0.0.0.0" || hostname === "::" ? "localhost" : hostname;
      console.log(`resource-router blog on http://${host}:${port}/  (data: ${path})\n`);
      console.log(router.toString());
    },
  }, router.fetch);
  Deno.addSignalListener("SIGINT", async () => {
    await server.shutdown();
    kv.close();
    Deno.exit(0);
  });
}
