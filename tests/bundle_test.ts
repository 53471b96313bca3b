import { assert, assertEquals, assertLess, assertRejects, assertStringIncludes } from "@std/assert";
import { gzipSync } from "node:zlib";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { build } from "../src/build.ts";

/**
 * The size budget of the core bundle, gzipped: `dist/mod.js` plus the chunks it
 * imports statically, i.e. everything a runtime with its own `URLPattern` loads. The
 * README states the same number.
 */
const CORE_BUDGET_BYTES = 33.5 * 1024;

Deno.test("bundle: esbuild builds dist/ for Node and Workers within the size budget", async (t) => {
  const outdir = await Deno.makeTempDir({ prefix: "resource-router-dist-" });
  try {
    const output = await build(outdir);
    const entry = await Deno.readTextFile(output.entry);
    const core = output.files.filter((file) => file !== output.polyfillChunk);

    await t.step("the polyfill is a chunk of its own, imported only dynamically", async () => {
      const chunk = basename(output.polyfillChunk);
      assertStringIncludes(entry, `import("./chunks/${chunk}")`);
      for (const file of core) {
        const text = await Deno.readTextFile(file);
        assert(!text.includes(`from"./chunks/${chunk}"`), `${file} imports the polyfill`);
        assert(!text.includes("tokenizer"), `${file} holds polyfill code`);
      }
    });

    await t.step("the core stays under the gzip budget", async () => {
      let gzipped = 0;
      for (const file of core) gzipped += gzipSync(await Deno.readFile(file)).length;
      const polyfill = gzipSync(await Deno.readFile(output.polyfillChunk)).length;
      console.log(
        `core ${gzipped} B gzipped (budget ${CORE_BUDGET_BYTES}); polyfill ${polyfill} B`,
      );
      assertLess(gzipped, CORE_BUDGET_BYTES);
    });

    await t.step("minified, with source maps, declarations and package.json", async () => {
      // Not a line count: esbuild prints "\r\n" in a string as a template literal with raw
      // line breaks, which is shorter.
      assert(!/\n[ \t]+\S/.test(entry), "mod.js is indented: not minified");
      assertStringIncludes(entry, "//# sourceMappingURL=mod.js.map");
      const map = JSON.parse(await Deno.readTextFile(`${output.entry}.map`));
      assert(map.sources.some((source: string) => source.endsWith("src/router.ts")));
      assertStringIncludes(await Deno.readTextFile(join(outdir, "mod.d.ts")), "./src/router.js");
      const pkg = JSON.parse(await Deno.readTextFile(join(outdir, "package.json")));
      const meta = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
      assertEquals([pkg.name, pkg.version, pkg.type], [meta.name, meta.version, "module"]);
      assertEquals(pkg.exports["."], { types: "./mod.d.ts", default: "./mod.js" });
      assertEquals(pkg.dependencies, undefined);
    });

    await t.step("the same bytes wherever it is built; maps name no builder's path", async () => {
      // Before, the maps held paths from the output folder into the builder's Deno cache
      // (`../../../root/.cache/deno/npm/...`), so the chunks' hashed names changed with it.
      const other = await Deno.makeTempDir({ prefix: "resource-router-dist-" });
      try {
        const again = await build(join(other, "a", "b"), { declarations: false });
        const names = (files: string[], dir: string) =>
          files.map((file) => file.slice(dir.length)).sort();
        assertEquals(names(again.files, again.outdir), names(output.files, outdir));
        for (const file of output.files) {
          for (const suffix of ["", ".map"]) {
            const twin = join(again.outdir, file.slice(outdir.length));
            assertEquals(await Deno.readFile(twin + suffix), await Deno.readFile(file + suffix));
          }
          const { sources } = JSON.parse(await Deno.readTextFile(`${file}.map`));
          for (const source of sources as string[]) {
            assert(/^(\.\.\/)+(src\/|mod\.ts$|node_modules\/)/.test(source), source);
          }
        }
      } finally {
        await Deno.remove(other, { recursive: true });
      }
    });

    await t.step("the bundle runs in Deno", async () => {
      const { Router, RoutingError } = await import(pathToFileURL(output.entry).href);
      const router = new Router({
        controllers: {
          messages: { show: (ctx: { params: { id: string } }) => `#${ctx.params.id}` },
        },
      }).draw((map: { resources(name: string): void }) => map.resources("messages"));
      assertEquals(router.recognize("/messages/4").params.id, "4");
      assertEquals(router.helpers.edit_message_path(4), "/messages/4/edit");
      assert(router.routes[0].pattern.test({ pathname: "/messages" }));
      assertEquals(await (await router.fetch(new Request("http://x/messages/4"))).text(), "#4");
      assertEquals((await router.fetch(new Request("http://x/nope"))).status, 404);
      assert(new RoutingError("x", { status: 404 }) instanceof Error);
    });

    await t.step("mod.d.ts types the bundle for a TypeScript user of the npm package", async () => {
      const diagnostics = async (body: string) => {
        const file = join(outdir, "fixture.mts");
        await Deno.writeTextFile(file, `import { Router, type Route } from "./mod.js";\n${body}\n`);
        const program = ts.createProgram([file], {
          strict: true,
          noEmit: true,
          target: ts.ScriptTarget.ES2022,
          module: ts.ModuleKind.NodeNext,
          moduleResolution: ts.ModuleResolutionKind.NodeNext,
          lib: ["lib.es2022.d.ts", "lib.dom.d.ts"], // Request, Response; no URLPattern
          types: [],
        });
        return ts.getPreEmitDiagnostics(program).map((diagnostic) =>
          ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")
        );
      };
      assertEquals(
        await diagnostics(
          `const router = new Router({ variant: "B" }).draw((map) => map.resources("posts"));\n` +
            `const route: Route = router.recognize("/posts/1").route;\n` +
            `const path: string = route.path;\nconsole.log(path, route.pattern);`,
        ),
        [],
      );
      const bad = await diagnostics(`new Router({ variant: "D" });`);
      assertStringIncludes(bad.join("\n"), `"D"`);
    });
  } finally {
    await Deno.remove(outdir, { recursive: true });
  }
});

Deno.test("bundle: the build refuses to empty a folder that holds more than an earlier build", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(dir, "important.txt"), "keep me");
    await assertRejects(() => build(dir), Error, "holds files that are not an earlier build");
    assertEquals(await Deno.readTextFile(join(dir, "important.txt")), "keep me");
    const root = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
    for (const folder of [root, join(root, ".."), new URL("/", import.meta.url).pathname]) {
      await assertRejects(() => build(folder), Error, "holds the repository");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bundle: deno task build takes one folder; a flag is refused, not built into", async () => {
  const root = new URL("..", import.meta.url).pathname;
  const cwd = await Deno.makeTempDir();
  const run = (...args: string[]) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--config", join(root, "deno.json"), join(root, "src/build.ts"), ...args],
      cwd,
      stdout: "piped",
      stderr: "piped",
    }).output();
  try {
    // Each of these wrote a whole build into a folder named after the flag.
    for (
      const [args, text] of [
        [["--outdir", "x"], "Unknown option --outdir"],
        [["-o"], "Unknown option -o"],
        [["a", "b"], "Give one folder at most"],
        [["--help", "x"], "--help takes no folder"],
      ] as const
    ) {
      const { code, stderr } = await run(...args);
      assertEquals(code, 2, args.join(" "));
      assertStringIncludes(new TextDecoder().decode(stderr), text);
      assertStringIncludes(new TextDecoder().decode(stderr), "Usage: deno task build [DIR]");
    }
    const help = await run("--help");
    assertEquals(help.code, 0);
    assertStringIncludes(new TextDecoder().decode(help.stdout), "Usage: deno task build [DIR]");
    assertEquals(await Array.fromAsync(Deno.readDir(cwd)), []);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});
