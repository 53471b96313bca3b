/**
 * The route table as aligned text, like `rails routes`.
 * @module
 */

import type { Route } from "./route.ts";

/**
 * Formats routes as aligned columns: name (right-aligned), method, path,
 * controller#action, under a header line.
 */
export function formatRoutes(routes: readonly Route[]): string {
  const rows = [
    ["Name", "Method", "Path", "Controller#Action"],
    ...routes.map((route) => [route.name ?? "", route.method, route.path, printable(route.target)]),
  ];
  // A fold, not Math.max(...lengths): spread into one call, a table of some 100,000 routes
  // overflows the stack.
  const widths = [0, 1, 2].map((column) =>
    rows.reduce((widest, row) => Math.max(widest, row[column].length), 0)
  );
  return rows.map(([name, method, path, target]) =>
    [name.padStart(widths[0]), method.padEnd(widths[1]), path.padEnd(widths[2]), target]
      .join("  ").trimEnd()
  ).join("\n") + "\n";
}

// Controls, and the line separators and bidirectional marks that Unicode adds.
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/**
 * A controller or action may be any string, so its control characters are escaped (`\n`,
 * `\u001b`): raw, a line break splits a row (U+2028 too, in an editor), an escape sequence
 * reaches the terminal, and a bidirectional override reorders the row as shown. Names and
 * paths are checked at declaration.
 */
function printable(text: string): string {
  return text.replace(
    CONTROL,
    (char) => char === "\n" ? "\\n" : `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
