/**
 * The route table as aligned text, like `rails routes`.
 * @module
 */

import { printable } from "./describe.ts";
import type { Route } from "./route.ts";

/**
 * Formats routes as aligned columns: name (right-aligned), method, path,
 * controller#action, under a header line.
 */
export function formatRoutes(routes: readonly Route[]): string {
  // A controller or action may be any string, so its controls are escaped; names and
  // paths are checked at declaration.
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
