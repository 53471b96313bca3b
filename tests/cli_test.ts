import {
  assert,
  assertEquals,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import { loadRouter, parseRoutesArgs, runRoutes } from "../src/cli.ts";
import { Router } from "../mod.ts";
import { pathToFileURL } from "node:url";
import draw from "../examples/routes.ts";

Deno.test("routes: arguments default to examples/routes.ts and take --variant", () => {
  assertEquals(parseRoutesArgs([]), { file: "examples/routes.ts" });
  assertEquals(parseRoutesArgs(["x.ts", "--variant", "C"]), { file: "x.ts", variant: "C" });
  assertEquals(parseRoutesArgs(["--variant=B"]), { file: "examples/routes.ts", variant: "B" });
  assertThrows(() => parseRoutesArgs(["--variant", "D"]), Error, "A, B or C");
  assertThrows(() => parseRoutesArgs(["--colour"]), Error, "unknown option --colour");
});

Deno.test("routes: a draw function is drawn in the chosen variant", async () => {
  const router = await loadRouter({ file: "examples/routes.ts", variant: "C" }, Deno.cwd());
  assertEquals(router.variant, "C");
  assertEquals(router.toString(), new Router({ variant: "C" }).draw(draw).toString());
});

Deno.test("routes: a module exporting something else is refused", async () => {
  const file = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    await Deno.writeTextFile(file, "export default 42;\n");
    await assertRejects(() => loadRouter({ file }, Deno.cwd()), Error, "default a Router");
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("routes: a class, or a function that makes a router, is refused by name", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cases: [string, string][] = [
      ["export default class Routes {}\n", "must export default a Router or a draw function"],
      [
        `import { Router } from "${import.meta.resolve("../mod.ts")}";\n` +
        `export default () => new Router().draw((map) => map.resources("messages"));\n`,
        "exports a function that makes a router",
      ],
    ];
    for (const [i, [text, message]] of cases.entries()) {
      const file = `${dir}/case${i}.ts`;
      await Deno.writeTextFile(file, text);
      await assertRejects(() => loadRouter({ file }, Deno.cwd()), Error, message);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("routes: a file path with # or % in it is a path, not URL syntax", async () => {
  const dir = await Deno.makeTempDir({ prefix: "we#ird%41" });
  try {
    const text = `export default (map) => map.resources("messages");\n`;
    await Deno.writeTextFile(`${dir}/routes.js`, text);
    const router = await loadRouter({ file: "routes.js" }, dir);
    assertEquals(router.namedRoutes.get("message")?.path, "/messages/:id");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("routes: a Router from another copy of the module is a Router", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // The npm bundle, or a copy by URL: a class `instanceof` does not know.
    await Deno.mkdir(`${dir}/src`);
    await Deno.copyFile("mod.ts", `${dir}/mod.ts`);
    for await (const entry of Deno.readDir("src")) {
      await Deno.copyFile(`src/${entry.name}`, `${dir}/src/${entry.name}`);
    }
    await Deno.writeTextFile(
      `${dir}/routes.ts`,
      `import { Router } from "./mod.ts";\n` +
        `export default new Router({ variant: "B" }).draw((map) => map.resources("messages"));\n`,
    );
    const router = await loadRouter({ file: "routes.ts" }, dir);
    assertEquals(router instanceof Router, false);
    assertEquals(router.variant, "B");
    assertEquals(router.namedRoutes.get("message")?.path, "/messages/:id");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("routes: the listing has aligned columns name, method, path, controller#action", () => {
  const router = new Router({ variant: "B" }).draw((map) => map.resources("messages"));
  const lines = router.toString().trimEnd().split("\n");
  assertEquals(lines.length, router.routes.length + 1);
  assertStringIncludes(lines[0], "Controller#Action");
  assertEquals(lines[1].trim().split(/\s+/), ["messages", "GET", "/messages", "messages#index"]);
  assertEquals(lines[3].trim().split(/\s+/), ["POST", "/messages", "messages#create"]);
  const pathColumn = lines[1].indexOf("/messages");
  assert(lines.slice(1).every((line) => line.indexOf("/") === pathColumn), "paths aligned");
});

Deno.test("routes: the listing of a table of 140,000 routes does not overflow the stack", () => {
  const names = Array.from({ length: 10_000 }, (_, index) => `r${index}s`);
  const router = new Router({ variant: "B" }).draw((map) => {
    for (const name of names) map.resources(name);
  });
  assertEquals(router.routes.length > 130_000, true);
  assertEquals(router.toString().split("\n").length, router.routes.length + 2);
});

Deno.test("routes: the command prints the table and fails clearly on bad input", async () => {
  const run = (...args: string[]) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "src/cli.ts", ...args],
      env: { NO_COLOR: "1" },
    }).output();
  const ok = await run("--variant", "B");
  assertEquals(ok.code, 0);
  assertStringIncludes(new TextDecoder().decode(ok.stdout), "messages#index");
  const bad = await run("--variant", "Z");
  assertEquals(bad.code, 2);
  assertStringIncludes(new TextDecoder().decode(bad.stderr), "--variant takes A, B or C");
  const missing = await run("nosuch.ts");
  assertEquals(missing.code, 1);
  assertStringIncludes(new TextDecoder().decode(missing.stderr), "nosuch.ts");
  // A module whose top-level await never settles: Deno's error points at its line, where
  // it pointed at the command's own await.
  const stuck = await Deno.makeTempFile({ suffix: ".js" });
  try {
    await Deno.writeTextFile(stuck, "await new Promise(() => {});\nexport default () => {};\n");
    const stalled = await run(stuck);
    assertEquals(stalled.code, 1);
    const text = new TextDecoder().decode(stalled.stderr);
    assertStringIncludes(text, "never resolved");
    assertStringIncludes(text, `${pathToFileURL(stuck).href}:1:1`);
    assertEquals(text.includes("cli.ts"), false, text);
  } finally {
    await Deno.remove(stuck);
  }
});

Deno.test("routes: --controller and --grep filter the rows; --json prints data", async () => {
  const cwd = Deno.cwd();
  const comments = await runRoutes(parseRoutesArgs(["--controller", "comments"]), cwd);
  const rows = comments.split("\n").slice(1);
  assert(rows.length > 0 && rows.every((row) => row.endsWith(` comments#${row.split("#")[1]}`)));
  const grep = await runRoutes(parseRoutesArgs(["--grep", "PUBLISH"]), cwd);
  const grepRows = grep.split("\n").slice(1);
  assert(grepRows.length > 0 && grepRows.every((row) => row.includes("publish")), grep);
  const json = JSON.parse(await runRoutes(parseRoutesArgs(["--json", "--grep", "/login"]), cwd));
  assertEquals(json, [{
    name: "login",
    method: "GET",
    path: "/login",
    controller: "sessions",
    action: "new",
    requirements: {},
    defaults: {},
  }]);
  const shown = JSON.parse(
    await runRoutes(
      parseRoutesArgs(["--json", "--controller", "messages", "--grep", "message"]),
      cwd,
    ),
  );
  assertEquals(shown.find((route: { name: string }) => route.name === "message").requirements, {
    id: "/[^\\/;.,?]+/",
  });
});

Deno.test("routes: flags take no flag as their value, --json no value, and -- ends the flags", async () => {
  const cwd = Deno.cwd();
  // Each was taken quietly before: a controller named "--json" (an empty table), and
  // --json=false as --json.
  for (
    const [args, text] of [
      [["--controller", "--json"], "--controller needs a value"],
      [["--json=false"], "--json takes no value"],
      // A file named "-h" was written, 290 KB of helpers.
      [["--dts", "-h"], "--dts needs a value"],
      [["--controller", "-h"], "--controller needs a value"],
      [["--help=no"], "--help takes no value"],
      [["--dts", "-", "--json"], "it takes no --controller, --grep or --json"],
      [["--", "a.ts", "b.ts"], 'only one file, got "a.ts" and "b.ts"'],
      // Before, `routes "$FILE"` with FILE unset listed examples/routes.ts.
      [[""], "the file name is empty"],
    ] as const
  ) {
    assertThrows(() => parseRoutesArgs(args), Error, text);
  }
  assertEquals(parseRoutesArgs(["--", "-odd.ts"]).file, "-odd.ts");
  assertEquals(parseRoutesArgs(["--grep", "-x"]).grep, "-x");
  assertStringIncludes(await runRoutes(parseRoutesArgs(["-h"]), cwd), "usage: deno task routes");
  assertEquals(
    await runRoutes(parseRoutesArgs(["--controller", "nosuch"]), cwd),
    "No routes match the --controller or --grep given.",
  );
});

Deno.test("routes: an empty table, a file name with a colon, a request handler of its own", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // Before, "No routes match the --controller or --grep given." with neither given.
    await Deno.writeTextFile(`${dir}/empty.js`, "export default (_map) => {};\n");
    assertEquals(await runRoutes({ file: "empty.js" }, dir), "empty.js declares no routes.");
    // Before, "Unsupported scheme "v2"".
    await Deno.writeTextFile(
      `${dir}/v2:routes.js`,
      `export default (map) => map.resources("messages");\n`,
    );
    const router = await loadRouter({ file: "v2:routes.js" }, dir);
    assertEquals(router.namedRoutes.get("message")?.path, "/messages/:id");
    // Before, blamed on an async block.
    await Deno.writeTextFile(
      `${dir}/handler.js`,
      `import { Router } from "${new URL("../mod.ts", import.meta.url).href}";\n` +
        `const router = new Router();\nexport default (request) => Promise.resolve(request);\n`,
    );
    await assertRejects(
      () => loadRouter({ file: `${dir}/handler.js` }, Deno.cwd()),
      Error,
      "its default export returned a promise (a request handler, or an async function)",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("routes: a module exporting the router's request handler is told to export the router", async () => {
  for (const handler of ["fetch", "handle"]) {
    // A file each: a module is imported once.
    const file = await Deno.makeTempFile({ suffix: ".ts" });
    const draw = await Deno.makeTempFile({ suffix: ".js" });
    try {
      await Deno.writeTextFile(
        file,
        `import { Router } from "${new URL("../mod.ts", import.meta.url).href}";\n` +
          `export default new Router().${handler};\n`,
      );
      await assertRejects(
        () => loadRouter({ file }, Deno.cwd()),
        Error,
        `exports a request handler (${handler}); export default the router itself`,
      );
      // A draw function of that name is one (it was refused by its name).
      await Deno.writeTextFile(
        draw,
        `export default function ${handler}(map) { map.resources("messages"); }\n`,
      );
      const router = await loadRouter({ file: draw }, Deno.cwd());
      assertEquals(router.namedRoutes.get("message")?.path, "/messages/:id");
    } finally {
      await Deno.remove(file);
      await Deno.remove(draw);
    }
  }
});

Deno.test("routes: a request handler's own 500 log is held back; a draw function's log is shown", async () => {
  const dir = await Deno.makeTempDir();
  const logError = console.error;
  const logged: unknown[][] = [];
  console.error = (...data: unknown[]) => void logged.push(data);
  try {
    const mod = new URL("../mod.ts", import.meta.url).href;
    // Given the mapper as its request, `fetch` answers a 500 and logs why, in a microtask.
    await Deno.writeTextFile(
      `${dir}/handler.js`,
      `import { Router } from "${mod}";\nconst router = new Router();\n` +
        `export default (request) => router.fetch(request);\n`,
    );
    await assertRejects(
      () => loadRouter({ file: `${dir}/handler.js` }, Deno.cwd()),
      Error,
      "its default export returned a promise",
    );
    assertEquals(logged, []);
    await Deno.writeTextFile(
      `${dir}/draw.js`,
      `export default (map) => { console.error("drawing"); map.resources("messages"); };\n`,
    );
    const router = await loadRouter({ file: `${dir}/draw.js` }, Deno.cwd());
    assertEquals(router.namedRoutes.get("message")?.path, "/messages/:id");
    assertEquals(logged, [["drawing"]]);
  } finally {
    console.error = logError;
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("routes: an error in the module says which file and which of its lines", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cases: [string, string, RegExp][] = [
      // A bug in the draw function, and a throw on import; before, only the message showed.
      [
        "function helper(map, options) { map.resources(options.member.name); }\n" +
        "export default (map) => helper(map, {});\n",
        "TypeError: Cannot read properties of undefined",
        /at helper \(file:.*draw0\.js:1:\d+\)\n\s+at .*draw0\.js:2:\d+/,
      ],
      [`throw new Error("");\n`, "Error", /draw1\.js:1:7/],
      // A declaration error the router throws: the user's line that declared it.
      [
        `export default (map) => {\n  map.resources("messages");\n  map.resources("no-such");\n};\n`,
        "TypeError: map.resources:",
        /draw2\.js:3:\d+/,
      ],
    ];
    for (const [i, [text, message, frames]] of cases.entries()) {
      const file = `${dir}/draw${i}.js`;
      await Deno.writeTextFile(file, text);
      const error = await assertRejects(() => loadRouter({ file }, Deno.cwd()), Error);
      assert(error.message.startsWith(`${file}: ${message}`), error.message);
      assert(frames.test(error.message), error.message);
      // The router's own frames are left out, and the engine's built-ins it calls.
      assert(!error.message.includes("/src/"), error.message);
      assert(!error.message.includes("<anonymous>"), error.message);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("routes: control characters in a controller or action are escaped in the table", () => {
  const router = new Router().draw((map) => {
    map.connect("/a", { controller: "two\nlines", action: "clear\u001b[2J\u0085" });
  });
  // Before, the line break split the row and the escape sequence reached the terminal.
  assertEquals(router.toString().split("\n")[1].trim().split(/\s+/), [
    "ANY",
    "/a",
    "two\\nlines#clear\\u001b[2J\\u0085",
  ]);
  // A line separator splits the row in an editor; a right-to-left override reorders it.
  const unicode = new Router().draw((map) => {
    map.connect("/b", { controller: "x\u2028y", action: "a\u202eb\u2066c\u200f" });
  });
  const text = unicode.toString();
  assertEquals(text.split(/\r?\n|\r|\u2028|\u2029/).length, text.split("\n").length);
  assertEquals(text.split("\n")[1].trim().split(/\s+/)[2], "x\\u2028y#a\\u202eb\\u2066c\\u200f");
});

Deno.test("routes: --dts writes beside cwd, over an earlier .d.ts only, never over a module", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const module = 'export default (map) => map.resources("messages");\n';
    await Deno.writeTextFile(`${dir}/app.js`, module);
    const args = (dts: string) => ({ file: "app.js", dts });
    // Relative to the cwd given, not the process's.
    assertEquals(await runRoutes(args("h.d.ts"), dir), "wrote h.d.ts: 8 named routes");
    const first = await Deno.readTextFile(`${dir}/h.d.ts`);
    assertStringIncludes(first, "export interface RouteHelpers");
    // A file it wrote is written again; any other is refused and left as it was.
    assertEquals(await runRoutes(args("h.d.ts"), dir), "wrote h.d.ts: 8 named routes");
    for (const [name, text] of [["app.js", module], ["notes.d.ts", "// mine\n"]]) {
      if (name !== "app.js") await Deno.writeTextFile(`${dir}/${name}`, text);
      await assertRejects(
        () => runRoutes(args(name), dir),
        Error,
        "the file exists and --dts did not write it",
      );
      assertEquals(await Deno.readTextFile(`${dir}/${name}`), text);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("routes: what the module prints goes to stderr, so --json stays JSON", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/noisy.js`,
      `console.log("loading");\n` +
        `export default (map) => { console.info("drawing"); map.resources("messages"); };\n`,
    );
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "src/cli.ts", `${dir}/noisy.js`, "--json"],
    }).output();
    assert(output.success, new TextDecoder().decode(output.stderr));
    const routes = JSON.parse(new TextDecoder().decode(output.stdout));
    assertEquals(routes.length, 16);
    assertEquals(new TextDecoder().decode(output.stderr), "loading\ndrawing\n");
    // In process, console.log is back as it was once the module is drawn.
    const log = console.log;
    await Deno.writeTextFile(`${dir}/quiet.js`, `export default (map) => map.resources("a");\n`);
    await loadRouter({ file: "quiet.js" }, dir);
    assertEquals(console.log, log);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("routes: a syntax error's place is shown once; a { fetch } entry is told what to export", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/broken.js`, "export default function ( {\n");
    const broken = await assertRejects(() => loadRouter({ file: "broken.js" }, dir), Error);
    assertEquals(broken.message.split(`broken.js:1:`).length - 1, 1, broken.message);
    await Deno.writeTextFile(
      `${dir}/entry.js`,
      `import { Router } from "${new URL("../mod.ts", import.meta.url).href}";\n` +
        `const router = new Router().draw((map) => map.resources("messages"));\n` +
        `export default { fetch: router.fetch };\n`,
    );
    await assertRejects(
      () => loadRouter({ file: "entry.js" }, dir),
      Error,
      "entry.js exports a server's entry ({ fetch }); give the routes command a module",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
