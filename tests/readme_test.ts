/**
 * The README's quick start, run as it is written, with its comments taken at their word: a
 * line `expression; // value` (the value a string, object or array literal, before any
 * remark in parentheses) must give that value. So the README cannot drift from what the
 * router does. `deno task test` also type-checks and runs the README's code blocks
 * (`--doc README.md`); this test adds the values.
 * @module
 */

import { assert, assertEquals, assertInstanceOf, assertThrows } from "@std/assert";
import { Router, RoutingError } from "../mod.ts";

const README = new URL("../README.md", import.meta.url);
const MOD = new URL("../mod.ts", import.meta.url);

/** The first `ts` code block after the "Quick start" heading. */
function quickStart(markdown: string): string {
  const open = markdown.indexOf("```ts\n", markdown.indexOf("\n## Quick start\n"));
  assert(open >= 0, "the README has a Quick start with a ts code block");
  const start = open + "```ts\n".length;
  return markdown.slice(start, markdown.indexOf("\n```", start));
}

/**
 * The literal a comment starts with (a string, or an object or array literal up to its
 * matching bracket), or `undefined` where the comment is prose.
 */
function leadingLiteral(comment: string): string | undefined {
  if (comment.startsWith('"')) return comment.match(/^"(?:[^"\\]|\\.)*"/)?.[0];
  if (!comment.startsWith("{") && !comment.startsWith("[")) return undefined;
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < comment.length; i++) {
    const char = comment[i];
    if (quoted) {
      if (char === "\\") i++;
      else if (char === '"') quoted = false;
    } else if (char === '"') quoted = true;
    else if (char === "{" || char === "[") depth++;
    else if ((char === "}" || char === "]") && --depth === 0) return comment.slice(0, i + 1);
  }
  return undefined;
}

interface Claim {
  readonly line: string;
  readonly actual: unknown;
  readonly expected: unknown;
}

/**
 * The quick start as a module that records, for every line whose comment states a value,
 * what the line's expression gives beside that value.
 */
function instrumented(code: string): { source: string; claims: number } {
  let claims = 0;
  const lines = code.replace('from "./mod.ts"', `from ${JSON.stringify(MOD.href)}`).split("\n")
    .map((line) => {
      const parts = line.match(/^(\s*)([^/].*);\s*\/\/ (.*)$/);
      const literal = parts && leadingLiteral(parts[3]);
      if (!parts || literal === undefined) return line;
      claims++;
      return `${parts[1]}claims.push({ line: ${JSON.stringify(line.trim())}, ` +
        `actual: ${parts[2]}, expected: ${literal} });`;
    });
  return { source: ["export const claims = [];", ...lines].join("\n"), claims };
}

Deno.test("README: the quick start gives the values its comments state", async () => {
  const { source, claims } = instrumented(quickStart(await Deno.readTextFile(README)));
  assert(claims >= 7, `expected the quick start's value comments, found ${claims}`);
  const directory = await Deno.makeTempDir({ prefix: "resource-router-readme-" });
  const file = `${directory}/quick_start.ts`;
  const log = console.log;
  const logged: unknown[][] = [];
  console.log = (...values: unknown[]) => logged.push(values);
  try {
    await Deno.writeTextFile(file, source);
    const module = await import(new URL(`file://${file}`).href);
    const recorded: Claim[] = module.claims;
    assertEquals(recorded.length, claims);
    for (const { line, actual, expected } of recorded) {
      assertEquals(actual, expected, `README: ${line}`);
    }

    // The two claims written as prose: the 405's status and methods, and the form's 303.
    assertEquals(logged, [[405, ["GET", "POST"]]]);
    const router: Router = module.default;
    assertInstanceOf(router, Router);
    const error = assertThrows(() => router.recognize("/messages", "DELETE"), RoutingError);
    assertEquals([error.status, error.allowed], [405, ["GET", "POST"]]);
    const response = await router.fetch(
      new Request("https://example.com/messages/1", {
        method: "POST",
        body: new URLSearchParams({ _method: "put" }),
      }),
    );
    assertEquals(
      [response.status, response.headers.get("location")],
      [303, "https://example.com/messages/1"],
    );
  } finally {
    console.log = log;
    await Deno.remove(directory, { recursive: true });
  }
});

Deno.test("README: a comment's value is read up to its literal's end, prose is not a value", () => {
  assertEquals(leadingLiteral('"/a/1" (A prefixes nested names)'), '"/a/1"');
  assertEquals(leadingLiteral('"a \\" b" rest'), '"a \\" b"');
  assertEquals(leadingLiteral('{ id: "1}", tags: ["x"] } rest'), '{ id: "1}", tags: ["x"] }');
  assertEquals(leadingLiteral("a string is HTML"), undefined);
  assertEquals(leadingLiteral("{ unclosed"), undefined);
});
