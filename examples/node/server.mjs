// The router on Node's own HTTP server, through the built bundle:
//
//   deno task build && node examples/node/server.mjs     (PORT=3000 by default)
//
// `node:http` speaks IncomingMessage/ServerResponse, the router speaks Request/Response;
// `toRequest` and `send` below bridge the two (Node 20 has both globally). A maintained
// adapter such as `@hono/node-server`'s `getRequestListener(router.fetch)` does the same
// with more edge cases covered (client aborts, back-pressure); this one keeps the example
// free of npm installs.
import { createServer } from "node:http";
import { Readable } from "node:stream";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { Router } from "../../dist/mod.js";

/**
 * A Web `Request` for a `node:http` request. Throws a `TypeError` for a target or `Host`
 * that makes no URL (`listener` answers it with a 400).
 */
export function toRequest(req) {
  const target = req.url ?? "/";
  const host = req.headers.host ?? "localhost";
  // A Host is a name and a port: one holding a path, query, fragment or credentials
  // (`Host: localhost/messages/2?`) would take the place of the request's own path.
  if (/[/?#@\\]/.test(host)) throw new TypeError(`Host is no host: ${host}`);
  // A path is joined to the origin as text: `new URL("//evil.example/x", base)` would read
  // "evil.example" as the host. A proxy's absolute target is a URL of its own.
  const url = target.startsWith("/") ? new URL(`http://${host}${target}`) : new URL(target);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined) headers.append(name, item);
    }
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? Readable.toWeb(req) : undefined,
    duplex: "half",
  });
}

/** Writes a Web `Response` to a `node:http` response. */
export async function send(res, response) {
  const headers = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  res.writeHead(response.status, headers);
  if (response.body !== null) {
    for await (const chunk of response.body) res.write(chunk);
  }
  res.end();
}

/** Serves `fetch` (a `(request) => Promise<Response>`) on a `node:http` server. */
export function listener(fetch) {
  return async (req, res) => {
    let request;
    try {
      request = toRequest(req);
    } catch {
      res.writeHead(400, { "content-type": "text/plain" });
      res.end("Bad Request");
      return;
    }
    try {
      await send(res, await fetch(request));
    } catch (error) {
      console.error(error);
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end("Internal Server Error");
    }
  };
}

const messages = new Map([["1", { id: "1", text: "Hello from Node" }]]);

/** The example's router: messages, with helpers in the answers. */
export const router = new Router({
  controllers: {
    messages: {
      index: (ctx) =>
        [...messages.values()].map((message) => ({
          ...message,
          url: ctx.helpers.message_url(message.id),
        })),
      show: (ctx) =>
        messages.get(ctx.params.id) ?? new Response("no such message", { status: 404 }),
      create(ctx) {
        const message = { id: String(messages.size + 1), text: ctx.params.text ?? "" };
        messages.set(message.id, message);
        return Response.json(message, {
          status: 201,
          headers: { location: ctx.helpers.message_url(message.id) },
        });
      },
    },
  },
}).draw((map) => map.resources("messages"));

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const server = createServer(listener(router.fetch));
  server.listen(Number(process.env.PORT ?? 3000), () => {
    console.log(`resource-router on Node: http://localhost:${server.address().port}/messages`);
  });
}
