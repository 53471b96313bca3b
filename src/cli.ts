/**
 * `deno task routes [file] [--variant A|B|C]`: prints the route table of a declaration
 * module, like `rails routes`. The module's default export is a `Router`, or a draw
 * function `(map) => void` drawn into a new router of the chosen variant.
 * @module
 */

import { Router } from "./router.ts";
import type { Variant } from "./variants.ts";

const USAGE =
  "usage: deno task routes [file] [--variant A|B|C]   (file defaults to examples/routes.ts)";

/** The parsed command line of the routes command. */
export interface RoutesArgs {
  /** The declaration module. */
  file: string;
  /** The variant for a draw function; `undefined` when not given. */
  variant?: Variant;
}

/** Parses the command line; throws an `Error` with the usage line on bad input. */
export function parseRoutesArgs(args: readonly string[]): RoutesArgs {
  let file: string | undefined;
  let variant: Variant | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const [flag, inline] = arg.startsWith("--") ? arg.split(/=(.*)/s, 2) : [arg];
    if (flag === "--variant") {
      const value = inline ?? args[++i];
      if (value !== "A" && value !== "B" && value !== "C") {
        throw new Error(`--variant takes A, B or C, got ${JSON.stringify(value)}\n${USAGE}`);
      }
      variant = value;
    } else if (flag === "--help" || flag === "-h") {
      throw new Error(USAGE);
    } else if (arg.startsWith("-")) {
      throw new Error(`unknown option ${arg}\n${USAGE}`);
    } else if (file === undefined) {
      file = arg;
    } else {
      throw new Error(
        `only one file, got ${JSON.stringify(file)} and ${JSON.stringify(arg)}\n${USAGE}`,
      );
    }
  }
  return { file: file ?? "examples/routes.ts", variant };
}

/** Loads a declaration module and returns its router. */
export async function loadRouter(args: RoutesArgs, cwd: string): Promise<Router> {
  const url = new URL(args.file, `file://${cwd.replace(/\/?$/, "/")}`);
  const module = await import(url.href);
  const exported = module.default;
  if (exported instanceof Router) {
    if (args.variant !== undefined && args.variant !== exported.variant) {
      throw new Error(
        `${args.file} exports a variant ${exported.variant} router; --variant applies to draw functions`,
      );
    }
    return exported;
  }
  if (typeof exported === "function") {
    return new Router({ variant: args.variant ?? "A" }).draw(exported);
  }
  throw new Error(
    `${args.file} must export default a Router or a draw function (map) => void`,
  );
}

if (import.meta.main) {
  try {
    const router = await loadRouter(parseRoutesArgs(Deno.args), Deno.cwd());
    console.log(router.toString().trimEnd());
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    Deno.exit(1);
  }
}
