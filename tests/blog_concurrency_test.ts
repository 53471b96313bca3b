// The blog served on loopback under load: 2,000+ requests, 100 at a time, of creates,
// updates and deletes through `_method` forms. Afterwards the store must hold exactly
// what the successful responses said (nothing lost, nothing duplicated), and no
// response may show another request's values.

import { assert, assertEquals } from "@std/assert";
import { createBlog } from "../examples/blog/app.ts";

const WORKERS = 100;
const OPERATIONS_PER_WORKER = 21;
const FORM = "application/x-www-form-urlencoded";

interface Stored {
  id: number;
  title: string;
  body: string;
}

Deno.test("blog under load: 100 concurrent clients, 2,100 writes, the store agrees", async () => {
  const kv = await Deno.openKv(":memory:");
  const router = createBlog(kv);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, router.fetch);
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const expected = new Map<number, Stored>();
  const deleted = new Set<number>();
  let requests = 0;

  async function send(path: string, fields: Record<string, string>): Promise<Response> {
    requests += 1;
    return await fetch(origin + path, {
      method: "POST",
      body: new URLSearchParams(fields).toString(),
      headers: { "content-type": FORM },
      redirect: "manual",
    });
  }

  /** One client: creates, updates and deletes its own messages, checking each answer. */
  async function client(worker: number): Promise<void> {
    const mine: number[] = [];
    for (let step = 0; step < OPERATIONS_PER_WORKER; step++) {
      const token = `w${worker}-s${step}-${crypto.randomUUID()}`;
      const kind = mine.length === 0 ? 0 : step % 3;
      if (kind === 0) {
        const response = await send(`/messages?token=${token}`, {
          title: token,
          body: `body ${token}`,
        });
        await response.body?.cancel();
        assertEquals(response.status, 303);
        const location = new URL(response.headers.get("location")!);
        const id = Number(location.pathname.split("/").at(-1));
        assert(Number.isInteger(id) && id > 0, location.href);
        assert(!expected.has(id) && !deleted.has(id), `id ${id} handed out twice`);
        expected.set(id, { id, title: token, body: `body ${token}` });
        mine.push(id);
      } else if (kind === 1) {
        const id = mine[step % mine.length];
        const response = await send(`/messages/${id}?token=${token}`, {
          _method: "put",
          title: token,
          body: `edited ${token}`,
        });
        await response.body?.cancel();
        assertEquals(response.status, 303);
        // The redirect names this request's message, not another client's.
        assertEquals(new URL(response.headers.get("location")!).pathname, `/messages/${id}`);
        expected.set(id, { id, title: token, body: `edited ${token}` });
      } else {
        const id = mine.pop()!;
        const response = await send(`/messages/${id}`, { _method: "delete" });
        await response.body?.cancel();
        assertEquals(response.status, 303);
        expected.delete(id);
        deleted.add(id);
      }
    }
  }

  try {
    await Promise.all(Array.from({ length: WORKERS }, (_, worker) => client(worker)));
    assert(requests >= 2000, `only ${requests} requests`);

    const response = await fetch(`${origin}/messages.json`);
    const stored = (await response.json()) as Stored[];
    const byId = new Map(stored.map((message) => [message.id, message]));
    assertEquals(byId.size, stored.length, "a message is listed twice");
    assertEquals(
      [...byId.keys()].sort((a, b) => a - b),
      [...expected.keys()].sort((a, b) => a - b),
    );
    for (const [id, message] of expected) {
      const actual = byId.get(id)!;
      assertEquals({ id: actual.id, title: actual.title, body: actual.body }, message);
    }
    for (const id of deleted) {
      const gone = await fetch(`${origin}/messages/${id}.json`);
      await gone.body?.cancel();
      assertEquals(gone.status, 404);
    }
  } finally {
    await server.shutdown();
    kv.close();
  }
});
