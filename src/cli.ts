/**
 * `deno task routes [file] [options]`: prints the route table of a declaration module,
 * like `rails routes`. The module's default export is a `Router`, or a draw function
 * `(map) => void` drawn into a new router of the chosen variant.
 * @module
 */

import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { thrownText } from "./describe.ts";
import { DTS_MARK, helpersDts } from "./dts.ts";
import type { Route } from "./route.ts";
import { formatRoutes } from "./route_table.ts";
import { Router } from "./router.ts";
import type { Variant } from "./variants.ts";

const USAGE = `usage: deno task routes [file] [options]
  file                 a module whose default export is a Router or a draw function
                       (default: examples/routes.ts)
  --variant A|B|C      the variant to draw a draw function in (default A)
  --controller NAME    only the routes of controller NAME
  --grep TEXT          only the routes whose name, method, path or controller#action
                       contains TEXT (case-insensitive)
  --json               print the routes as JSON instead of a table
  --dts FILE           write a .d.ts with typed helper interfaces to FILE (- for stdout);
                       takes no filter and no --json; overwrites only a file it wrote
  -h, --help           print this help
  --                   what follows is the file, even if it starts with -`;

/** The parsed command line of the routes command. */
export interface RoutesArgs {
  /** The declaration module. */
  file: string;
  /** The variant for a draw function; `undefined` when not given. */
  variant?: Variant;
  /** Only the routes of this controller. */
  controller?: string;
  /** Only the routes whose row contains this text. */
  grep?: string;
  /** JSON output. */
  json?: boolean;
  /** Where to write the typed helpers (`-`: stdout). */
  dts?: string;
  /** Print the usage and nothing else. */
  help?: boolean;
}

/** Parses the command line; throws an `Error` with the usage text on bad input. */
export function parseRoutesArgs(args: readonly string[]): RoutesArgs {
  const parsed: RoutesArgs = { file: "" };
  let file: string | undefined;
  let flags = true;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const [flag, inline] = arg.startsWith("--") ? arg.split(/=(.*)/s, 2) : [arg];
    // The next argument is a value unless it is another flag: `--controller --json` would
    // otherwise filter for a controller named "--json", and `--dts -h` write a file "-h".
    const value = () => {
      const next = args[i + 1];
      const text = inline ?? (next?.startsWith("--") || next === "-h" ? undefined : args[++i]);
      if (text === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
      return text;
    };
    if (flags && arg === "--") {
      flags = false;
    } else if (!flags || !arg.startsWith("-")) {
      // The file (past "--", whatever it starts with). An empty one is refused, not taken
      // for none: `deno task routes "$FILE"` with `FILE` unset would list the example.
      if (file !== undefined) {
        throw new Error(
          `only one file, got ${JSON.stringify(file)} and ${JSON.stringify(arg)}\n${USAGE}`,
        );
      }
      if (arg === "") throw new Error(`the file name is empty\n${USAGE}`);
      file = arg;
    } else if ((flag === "--json" || flag === "--help") && inline !== undefined) {
      throw new Error(`${flag} takes no value, got ${JSON.stringify(arg)}\n${USAGE}`);
    } else if (flag === "--variant") {
      const variant = value();
      if (variant !== "A" && variant !== "B" && variant !== "C") {
        throw new Error(`--variant takes A, B or C, got ${JSON.stringify(variant)}\n${USAGE}`);
      }
      parsed.variant = variant;
    } else if (flag === "--controller") {
      parsed.controller = value();
    } else if (flag === "--grep") {
      parsed.grep = value();
    } else if (flag === "--dts") {
      parsed.dts = value();
    } else if (flag === "--json") {
      parsed.json = true;
    } else if (flag === "--help" || flag === "-h") {
      parsed.help = true;
    } else {
      throw new Error(`unknown option ${arg}\n${USAGE}`);
    }
  }
  parsed.file = file ?? "examples/routes.ts";
  const filters = ["controller", "grep", "json"] as const;
  if (parsed.dts !== undefined && filters.some((key) => parsed[key] !== undefined)) {
    throw new Error(
      `--dts writes every named route's helpers: it takes no --controller, --grep or --json\n${USAGE}`,
    );
  }
  return parsed;
}

/**
 * Loads a declaration module and returns its router. What the module prints to stdout as
 * it loads and draws (`console.log`, `info`, `debug`, `dir`, `table`) goes to stderr, where
 * it cannot end up in the table, the JSON or the `.d.ts` that the command prints.
 */
export async function loadRouter(args: RoutesArgs, cwd: string): Promise<Router> {
  const { log, info, debug, dir, table } = console;
  const toStderr = (...data: unknown[]) => console.error(...data);
  Object.assign(console, {
    log: toStderr,
    info: toStderr,
    debug: toStderr,
    dir: toStderr,
    table: toStderr,
  });
  try {
    return await importRouter(args, cwd);
  } finally {
    Object.assign(console, { log, info, debug, dir, table });
  }
}

/** Imports the module and draws its router (for {@linkcode loadRouter}). */
async function importRouter(args: RoutesArgs, cwd: string): Promise<Router> {
  // A path as the file system spells it (`#` and `%` are no URL syntax there, nor is a
  // `:` in a name such as `v2:routes.ts`), or a URL of a scheme Deno imports.
  const url = /^(?:file|https?|data|jsr|npm):/i.test(args.file)
    ? new URL(args.file)
    : pathToFileURL(resolve(cwd, args.file));
  let module;
  try {
    module = await import(url.href);
  } catch (error) {
    throw moduleError(args.file, error);
  }
  const exported = module.default;
  if (isRouter(exported)) {
    if (args.variant !== undefined && args.variant !== exported.variant) {
      throw new Error(
        `${args.file} exports a variant ${exported.variant} router; --variant applies to draw functions`,
      );
    }
    return exported;
  }
  // A server's entry (`export default { fetch: router.fetch }`, as on Workers).
  if (typeof exported?.fetch === "function") {
    throw new Error(
      `${args.file} exports a server's entry ({ fetch }); give the routes command a module ` +
        `whose default export is the router itself, or a draw function (map) => void`,
    );
  }
  if (
    typeof exported !== "function" || /^class\b/.test(Function.prototype.toString.call(exported))
  ) {
    throw new Error(`${args.file} must export default a Router or a draw function (map) => void`);
  }
  let returned: unknown;
  let router;
  // What the export logs as it runs is held back until it is known to be a draw function: a
  // request handler, given the mapper as its request, logs its own 500, which the message
  // below explains.
  const held: unknown[][] = [];
  const logError = console.error;
  console.error = (...data: unknown[]) => void held.push(data);
  try {
    router = new Router({ variant: args.variant ?? "A" }).draw((map) => {
      returned = exported(map);
      return returned;
    });
  } catch (error) {
    // A request handler of its own (`(request) => router.fetch(request)`), given the mapper
    // as its request, answers with a promise, which the draw refuses as an async block
    // (and whose rejection `runBlock` has already caught).
    if (returned instanceof Promise) {
      // The handler logs once its promise settles, in a microtask: before any timer.
      await new Promise((resolve) => setTimeout(resolve, 0));
      // A router's bound request handler (`export default router.fetch`). Told by its name
      // only once it answered a promise: a draw function may be called `handle` too.
      if (exported.name === "fetch" || exported.name === "handle") {
        throw new Error(
          `${args.file} exports a request handler (${exported.name}); export default the ` +
            `router itself (it serves as { fetch } too), or a draw function (map) => void`,
        );
      }
      throw new Error(
        `${args.file} must export default a Router or a draw function (map) => void; its ` +
          `default export returned a promise (a request handler, or an async function)`,
      );
    }
    throw moduleError(args.file, error);
  } finally {
    console.error = logError;
    if (!(returned instanceof Promise)) { for (const data of held) console.error(...data); }
  }
  // A function that makes a router (`() => new Router().draw(...)`) is no draw function:
  // its table is not the one drawn here, which it left empty.
  if (isRouter(returned)) {
    throw new Error(
      `${args.file} exports a function that makes a router; export default the router itself, ` +
        `or a draw function (map) => void`,
    );
  }
  return router;
}

/**
 * An error thrown while the module loads or draws, as the file's own, with the frames of the
 * stack outside this module (the user's lines): the message alone does not say where.
 */
function moduleError(file: string, error: unknown): Error {
  const text = thrownText(error);
  let stack = "";
  try {
    if (error instanceof Error && typeof error.stack === "string") stack = error.stack;
  } catch {
    // A stack that cannot be read: the message alone.
  }
  // Deno colours some of its messages (a module not found) whatever the output is.
  // deno-lint-ignore no-control-regex
  const plain = text.replace(/\u001b\[[\d;]*m/g, "");
  const ours = [new URL("./", import.meta.url).href, new URL("../mod.ts", import.meta.url).href];
  // The user's frames: not Deno's (`ext:`), the router's or the engine's built-ins
  // (`Array.map (<anonymous>)`), and none the message holds already (a syntax error's).
  const frames = stack.split("\n").filter((line) =>
    /^\s+at /.test(line) && !line.includes("ext:") && !line.endsWith("(<anonymous>)") &&
    !ours.some((prefix) => line.includes(prefix)) && !plain.includes(line)
  );
  return new Error([`${file}: ${plain}`, ...frames].join("\n"), { cause: error });
}

/**
 * Whether `value` is a router, from this copy of the module or another (the npm bundle, a
 * copy by URL), whose class `instanceof` would not know.
 */
function isRouter(value: unknown): value is Router {
  if (value instanceof Router) return true;
  const router = value as Partial<Router> | null;
  return typeof value === "object" && router !== null && Array.isArray(router.routes) &&
    typeof router.recognize === "function" && typeof router.draw === "function";
}

/** The routes the filters keep, in registration order. */
function selectRoutes(routes: readonly Route[], args: RoutesArgs): Route[] {
  const grep = args.grep?.toLowerCase();
  return routes.filter((route) =>
    (args.controller === undefined || route.controller === args.controller) &&
    (grep === undefined ||
      [route.name ?? "", route.method, route.path, route.target].some((field) =>
        field.toLowerCase().includes(grep)
      ))
  );
}

/** The routes as plain JSON data (requirements as `RegExp` strings). */
function routesJson(routes: readonly Route[]): string {
  return JSON.stringify(
    routes.map((route) => ({
      name: route.name,
      method: route.method,
      path: route.path,
      controller: route.controller,
      action: route.action,
      requirements: Object.fromEntries(
        Object.entries(route.requirements).map(([key, value]) => [key, String(value)]),
      ),
      defaults: route.defaults,
    })),
    null,
    2,
  );
}

/**
 * Writes the typed helpers to `path`, over nothing but an earlier such file: a slip such as
 * `--dts app.ts` would otherwise replace the declarations it was made from.
 */
async function writeDts(path: string, text: string): Promise<void> {
  let existing: string | undefined;
  try {
    existing = await Deno.readTextFile(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (existing !== undefined && !existing.startsWith(DTS_MARK)) {
    throw new Error(
      `--dts ${path}: the file exists and --dts did not write it (it starts with no ` +
        `"${DTS_MARK}" line); remove it or name another file`,
    );
  }
  await Deno.writeTextFile(path, text);
}

/** Runs the command; returns what it prints. */
export async function runRoutes(args: RoutesArgs, cwd: string): Promise<string> {
  if (args.help) return USAGE;
  const router = await loadRouter(args, cwd);
  if (args.dts !== undefined) {
    const text = helpersDts(router, { source: `${args.file} (variant ${router.variant})` });
    if (args.dts === "-") return text;
    await writeDts(resolve(cwd, args.dts), text);
    return `wrote ${args.dts}: ${router.namedRoutes.size} named routes`;
  }
  const routes = selectRoutes(router.routes, args);
  if (args.json) return routesJson(routes);
  // As `rails routes` says it, rather than a header over nothing.
  if (routes.length === 0) {
    return args.controller === undefined && args.grep === undefined
      ? `${args.file} declares no routes.`
      : "No routes match the --controller or --grep given.";
  }
  return formatRoutes(routes).trimEnd();
}

/**
 * The command. Exit status 2 for a usage error, as `deno task build` and most commands; 1
 * when the module fails to load or draw, or the file cannot be written.
 */
async function main(argv: readonly string[]): Promise<void> {
  let args: RoutesArgs | undefined;
  try {
    args = parseRoutesArgs(argv);
    console.log(await runRoutes(args, Deno.cwd()));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    Deno.exit(args === undefined ? 2 : 1);
  }
}

// Not awaited at top level: for a module whose own top-level await never settles, Deno's
// "Top-level await promise never resolved" then points at that module's line, not this one.
if (import.meta.main) main(Deno.args);
