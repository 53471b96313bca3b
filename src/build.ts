/**
 * `deno task build`: bundles `mod.ts` with esbuild into `dist/` for Node 20+, Workers
 * and Bun: `dist/mod.js` (ESM, minified, with a source map), the `urlpattern-polyfill`
 * in a chunk of its own that only runtimes without `URLPattern` load, `dist/mod.d.ts`
 * (with the declarations it re-exports) and `dist/package.json` for npm.
 *
 * esbuild does not read Deno's import map, so the npm packages that `mod.ts` imports are
 * linked, by the names the import map gives them, into a temporary `node_modules`; they come
 * from Deno's npm cache (`deno info`). esbuild bundles from a temporary folder that links
 * `mod.ts` and `src/` beside that `node_modules`, keeping the links' paths, so the source
 * maps name `../src/router.ts` and `../node_modules/pluralize/pluralize.js` wherever the
 * repository, the cache and the output folder are, and the chunks' hashes do not change
 * with them.
 * @module
 */

import * as esbuild from "esbuild";
import ts from "typescript";
import { dirname, join, relative, resolve, sep as SEPARATOR } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** What {@linkcode build} wrote. */
export interface BuildOutput {
  /** The output directory. */
  outdir: string;
  /** The entry bundle, `<outdir>/mod.js`. */
  entry: string;
  /** Every JavaScript file written (entry and chunks), as absolute paths. */
  files: string[];
  /** The chunk holding `urlpattern-polyfill`. */
  polyfillChunk: string;
}

async function runDenoJson(args: string[]): Promise<Record<string, unknown>> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (code !== 0) throw new Error(`deno ${args.join(" ")}: ${new TextDecoder().decode(stderr)}`);
  return JSON.parse(new TextDecoder().decode(stdout));
}

/** Links the npm packages `mod.ts` imports into `<dir>/node_modules`, by package name. */
async function linkNpmPackages(dir: string): Promise<string> {
  const info = await runDenoJson(["info", "--json", "mod.ts"]) as {
    modules: { kind: string; npmPackage?: string }[];
    npmPackages: Record<string, { name: string; localPath: string }>;
  };
  const nodeModules = join(dir, "node_modules");
  for (const module of info.modules) {
    if (module.kind !== "npm" || module.npmPackage === undefined) continue;
    const { name, localPath } = info.npmPackages[module.npmPackage];
    const link = join(nodeModules, name);
    await Deno.mkdir(dirname(link), { recursive: true });
    await Deno.symlink(localPath, link).catch((error) => {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    });
  }
  return nodeModules;
}

/** The npm `package.json` of the bundle: no dependencies, everything is bundled. */
function packageJson(meta: { name: string; version: string }): string {
  return JSON.stringify(
    {
      name: meta.name,
      version: meta.version,
      description: "A Rails-style resource router for Deno, Node, Workers and Bun, on " +
        "Web-standard Request/Response and URLPattern",
      license: "MIT",
      type: "module",
      main: "./mod.js",
      types: "./mod.d.ts",
      exports: { ".": { types: "./mod.d.ts", default: "./mod.js" } },
      files: ["mod.js", "mod.js.map", "mod.d.ts", "chunks/", "src/"],
      engines: { node: ">=20" },
      keywords: ["router", "rails", "resources", "urlpattern", "workers", "deno"],
    },
    null,
    2,
  ) + "\n";
}

/**
 * Appended to `mod.d.ts`: `Route.pattern` is a `URLPattern`, whose full type comes from
 * the user's runtime types (Deno, Workers, Bun, `@types/node`, `lib.dom`) or from
 * `urlpattern-polyfill`; an empty interface merges with any of them and keeps the name
 * defined without them.
 */
const URL_PATTERN_TYPE = `
declare global {
  /** The runtime's \`URLPattern\` (declared by its own types). */
  interface URLPattern {}
}
`;

/**
 * Writes `mod.d.ts` and the `src/*.d.ts` it imports into `outdir` with the TypeScript
 * compiler, relative `.ts` imports rewritten to `.js`; bare imports resolve in
 * `nodeModules`. Type checking is `deno check`'s job; this throws only when a
 * declaration cannot be emitted.
 */
function writeDeclarations(outdir: string, nodeModules: string): void {
  const options: ts.CompilerOptions = {
    declaration: true,
    emitDeclarationOnly: true,
    rootDir: ROOT,
    outDir: outdir,
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    lib: ["lib.esnext.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    types: [],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const importer = join(nodeModules, "..", "importer.ts");
  host.resolveModuleNameLiterals = (literals, containingFile) =>
    literals.map(({ text }) =>
      ts.resolveModuleName(
        text,
        text.startsWith(".") ? containingFile : importer,
        options,
        host,
      )
    );
  const writeFile = (file: string, text: string) => {
    text = text.replace(/((?:from |import\()"\.\.?\/[^"]*)\.ts"/g, '$1.js"');
    if (file === join(outdir, "mod.d.ts")) text += URL_PATTERN_TYPE;
    Deno.mkdirSync(dirname(file), { recursive: true });
    Deno.writeTextFileSync(file, text);
  };
  const program = ts.createProgram([join(ROOT, "mod.ts")], options, host);
  const diagnostics = [
    ...program.getDeclarationDiagnostics(),
    ...program.emit(undefined, writeFile).diagnostics,
  ];
  if (diagnostics.length > 0) {
    throw new Error(ts.formatDiagnostics(diagnostics, {
      getCanonicalFileName: (name) => name,
      getCurrentDirectory: () => ROOT,
      getNewLine: () => "\n",
    }));
  }
}

/**
 * Refuses an output directory whose removal would lose anything but an earlier build: the
 * repository or a folder holding it, or a folder with files in it and no `package.json` of
 * this package beside a `mod.js`.
 */
async function checkReplaceable(outdir: string, name: string): Promise<void> {
  const refuse = (why: string) => {
    throw new Error(`The build empties its output directory first, and ${outdir} ${why}`);
  };
  // The file system's root ends in its separator already.
  const within = outdir.endsWith(SEPARATOR) ? outdir : outdir + SEPARATOR;
  if (outdir === ROOT || ROOT.startsWith(within)) refuse("holds the repository");
  let empty = true;
  try {
    for await (const _ of Deno.readDir(outdir)) {
      empty = false;
      break;
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  if (empty) return;
  const earlier = await Deno.readTextFile(join(outdir, "package.json"))
    .then((text) => JSON.parse(text).name === name)
    .catch(() => false);
  const bundle = await Deno.stat(join(outdir, "mod.js")).then(() => true, () => false);
  if (!earlier || !bundle) refuse("holds files that are not an earlier build; give a new folder");
}

/**
 * Bundles `mod.ts` into `outdir` (emptied first: new, empty or an earlier build) and writes
 * `package.json` there; with `declarations`, also `mod.d.ts` (see
 * {@linkcode writeDeclarations}).
 */
export async function build(
  outdir: string = join(ROOT, "dist"),
  { declarations = true }: { declarations?: boolean } = {},
): Promise<BuildOutput> {
  outdir = resolve(outdir);
  const meta = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  await checkReplaceable(outdir, meta.name);
  const temp = await Deno.makeTempDir({ prefix: "resource-router-build-" });
  try {
    await Deno.remove(outdir, { recursive: true }).catch(() => {});
    for (const name of ["mod.ts", "src"]) await Deno.symlink(join(ROOT, name), join(temp, name));
    const nodeModules = await linkNpmPackages(temp);
    const out = join(temp, "out");
    const result = await esbuild.build({
      absWorkingDir: temp,
      entryPoints: { mod: "mod.ts" },
      outdir: out,
      preserveSymlinks: true,
      write: false,
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "neutral",
      mainFields: ["module", "main"],
      target: "es2022",
      minify: true,
      sourcemap: true,
      chunkNames: "chunks/[name]-[hash]",
      metafile: true,
      logLevel: "warning",
    });
    for (const file of result.outputFiles) {
      const target = join(outdir, relative(out, file.path));
      await Deno.mkdir(dirname(target), { recursive: true });
      await Deno.writeFile(target, file.contents);
    }
    const outputs = Object.entries(result.metafile.outputs)
      .filter(([file]) => file.endsWith(".js"))
      .map(([file, output]) => ({
        file: join(outdir, relative(out, resolve(temp, file))),
        inputs: Object.keys(output.inputs),
      }));
    const files = outputs.map((output) => output.file);
    const polyfillChunk = outputs.find((output) =>
      output.inputs.some((input) => input.includes("urlpattern-polyfill"))
    )?.file;
    if (polyfillChunk === undefined || polyfillChunk === join(outdir, "mod.js")) {
      throw new Error("urlpattern-polyfill did not go into a chunk of its own");
    }
    await Deno.writeTextFile(join(outdir, "package.json"), packageJson(meta));
    for (const file of ["README.md", "LICENSE"]) {
      await Deno.copyFile(join(ROOT, file), join(outdir, file));
    }
    if (declarations) writeDeclarations(outdir, nodeModules);
    return { outdir, entry: join(outdir, "mod.js"), files, polyfillChunk };
  } finally {
    await esbuild.stop();
    await Deno.remove(temp, { recursive: true });
  }
}

/** `deno task build`'s usage line. */
const USAGE = "Usage: deno task build [DIR]   (writes the bundle to DIR, dist/ by default)";

if (import.meta.main) {
  const args = Deno.args;
  if (args.length === 1 && (args[0] === "--help" || args[0] === "-h")) {
    console.log(USAGE);
    Deno.exit(0);
  }
  // A mistyped flag would otherwise be the output folder: `--outdir x` built into ./--outdir.
  const flag = args.find((arg) => arg.startsWith("-"));
  if (flag !== undefined || args.length > 1) {
    const problem = flag === "--help" || flag === "-h"
      ? `${flag} takes no folder`
      : flag !== undefined
      ? `Unknown option ${flag}`
      : "Give one folder at most";
    console.error(`${problem}\n${USAGE}`);
    Deno.exit(2);
  }
  try {
    const output = await build(args[0]);
    for (const file of output.files) {
      const bytes = await Deno.readFile(file);
      // Relative to where the command runs, or whole where that would climb out of it.
      const shown = relative(Deno.cwd(), file);
      console.log(`${shown.startsWith("..") ? file : shown}  ${bytes.length} bytes`);
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    Deno.exit(1);
  }
}
