/**
 * Turns the output of `deno bench --json bench/` into `docs/bench.svg` (bar charts,
 * one panel per group, log scale) and `docs/bench.md` (the results tables, with the
 * runtime and machine), and prints the markdown.
 *
 * The bench files print `@note {json}` lines before the JSON (routes left out by peers,
 * disagreements, memory per route); they are read from the same output.
 *
 * Usage: `deno task bench:report` (or `deno run -A bench/report.ts bench.json [outdir]`).
 * @module
 */

/** One benchmark's result as `deno bench --json` reports it (times in ns). */
export interface BenchResult {
  /** The bench file's URL. */
  origin: string;
  /** The group name. */
  group: string | null;
  /** The bench name. */
  name: string;
  /** Whether it is the group's baseline. */
  baseline: boolean;
  /** One entry, `ok` with the statistics or a failure. */
  results: {
    ok?: { n: number; min: number; max: number; avg: number; p75: number; p99: number };
  }[];
}

/** The whole `deno bench --json` report, plus the notes printed before it. */
export interface BenchReport {
  /** e.g. `Deno/2.9.6 x86_64-unknown-linux-gnu`. */
  runtime: string;
  /** CPU model. */
  cpu: string;
  /** Every benchmark. */
  benches: BenchResult[];
  /** The `@note` objects, in order. */
  notes: Record<string, unknown>[];
}

/** Splits the raw output into the JSON report and the notes before it. */
export function parseBenchOutput(text: string): BenchReport {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line === "{");
  if (start < 0) throw new Error("No JSON report found: run deno bench with --json");
  const report = JSON.parse(lines.slice(start).join("\n"));
  const notes = lines.slice(0, start)
    .filter((line) => line.startsWith("@note "))
    .map((line) => JSON.parse(line.slice("@note ".length)));
  return { runtime: report.runtime, cpu: report.cpu, benches: report.benches, notes };
}

/** A duration in ns, in the unit that reads best. */
export function formatTime(ns: number): string {
  if (ns < 1e3) return `${ns.toFixed(ns < 10 ? 1 : 0)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toFixed(ns < 1e4 ? 2 : 1)} µs`;
  if (ns < 1e9) return `${(ns / 1e6).toFixed(ns < 1e7 ? 2 : 1)} ms`;
  return `${(ns / 1e9).toFixed(2)} s`;
}

function escapeXml(text: string): string {
  return text.replace(
    /[<>&"]/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[c]!,
  );
}

const GROUP_ORDER = ["recognize", "build", "generate"];

/** The benchmarks by group: recognition first, then construction, then generation. */
function groups(report: BenchReport): Map<string, BenchResult[]> {
  const out = new Map<string, BenchResult[]>();
  for (const bench of report.benches) {
    if (bench.results[0]?.ok === undefined) continue;
    const group = bench.group ?? "(no group)";
    out.set(group, [...out.get(group) ?? [], bench]);
  }
  const rank = (group: string) => {
    const at = GROUP_ORDER.findIndex((prefix) => group.startsWith(prefix));
    return at < 0 ? GROUP_ORDER.length : at;
  };
  return new Map([...out].sort(([a], [b]) => rank(a) - rank(b)));
}

const avg = (bench: BenchResult) => bench.results[0].ok!.avg;

/** Horizontal bar charts, one panel per chosen group, each on a log scale. */
export function renderSvg(report: BenchReport, chosen: readonly string[]): string {
  const byGroup = groups(report);
  const panels = chosen.filter((group) => byGroup.has(group));
  // Room for the longest label (12 px sans-serif: under 6.7 px a character), then bars.
  const longest = Math.max(
    0,
    ...panels.flatMap((group) => byGroup.get(group)!.map((bench) => bench.name.length)),
  );
  const labelWidth = Math.max(330, Math.ceil(24 + longest * 6.7));
  const barArea = 420;
  const width = labelWidth + barArea + 110;
  const rowHeight = 22;
  let y = 50;
  const parts: string[] = [];
  parts.push(
    `<text x="16" y="26" font-size="16" font-weight="bold">resource-router benchmarks</text>`,
    `<text x="${width - 16}" y="26" font-size="11" text-anchor="end" fill="#555">${
      escapeXml(`${report.runtime}, ${report.cpu}; time per iteration, log scale`)
    }</text>`,
    `<text x="16" y="42" font-size="11" fill="#555"><tspan fill="#2f7d32">■</tspan> this ` +
      `router  <tspan fill="#b0413e">■</tspan> URLPattern scan  ` +
      `<tspan fill="#5b7db1">■</tspan> peers (on the routes they can express)</text>`,
  );
  for (const group of panels) {
    const benches = byGroup.get(group)!;
    const times = benches.map(avg);
    const low = Math.pow(10, Math.floor(Math.log10(Math.min(...times))));
    const high = Math.pow(10, Math.ceil(Math.log10(Math.max(...times))));
    const scale = (ns: number) =>
      Math.max(2, (Math.log10(ns / low) / Math.log10(high / low || 10)) * barArea);
    y += 14;
    parts.push(
      `<text x="16" y="${y}" font-size="13" font-weight="bold">${escapeXml(group)}</text>`,
    );
    y += 8;
    // A group without peers (generation) is all this router's.
    const alone = !benches.some((bench) => bench.name.startsWith("resource-router"));
    for (const bench of benches) {
      const ours = alone || bench.name.startsWith("resource-router");
      const w = scale(avg(bench));
      parts.push(
        `<text x="${labelWidth - 8}" y="${y + 15}" font-size="12" text-anchor="end">${
          escapeXml(bench.name)
        }</text>`,
        `<rect x="${labelWidth}" y="${y + 4}" width="${w.toFixed(1)}" height="${
          rowHeight - 8
        }" fill="${
          ours ? "#2f7d32" : bench.name.startsWith("URLPattern") ? "#b0413e" : "#5b7db1"
        }"/>`,
        `<text x="${(labelWidth + w + 6).toFixed(1)}" y="${y + 15}" font-size="12">${
          formatTime(avg(bench))
        }</text>`,
      );
      y += rowHeight;
    }
    y += 6;
  }
  const height = y + 12;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
    `viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif">\n` +
    `<rect width="100%" height="100%" fill="white"/>\n${parts.join("\n")}\n</svg>\n`;
}

/** The markdown: machine, one table per group, notes on peers, memory per route. */
export function renderMarkdown(report: BenchReport, machine: string): string {
  const out: string[] = [];
  out.push(`Runtime: ${report.runtime}. Machine: ${machine}.`, "");
  const notesFor = (table: string) =>
    new Map(
      report.notes
        .filter((note) => note.table === table && typeof note.contender === "string")
        .map((note) => [note.contender as string, note]),
    );
  for (const [group, benches] of groups(report)) {
    const baseline = benches.find((bench) => bench.baseline) ?? benches[0];
    const table = group.replace(/^recognize: /, "");
    const notes = group.startsWith("recognize: ") ? notesFor(table) : new Map();
    const header = group.startsWith("recognize: ")
      ? "| contender | avg / request | min | p75 | p99 | vs recognize | routes left out | answers differing |"
      : "| benchmark | avg | min | p75 | p99 | vs baseline |";
    out.push(
      `**${group}**`,
      "",
      header,
      header.replace(/[^|]+/g, (cell) => cell.replace(/./g, "-")),
    );
    for (const bench of benches) {
      const { min, p75, p99 } = bench.results[0].ok!;
      const ratio = avg(bench) / avg(baseline);
      const relative = bench === baseline
        ? "1×"
        : ratio >= 1
        ? `${ratio.toFixed(ratio < 10 ? 2 : 0)}× slower`
        : `${(1 / ratio).toFixed(1 / ratio < 10 ? 2 : 0)}× faster`;
      const cells = [
        bench.name,
        formatTime(avg(bench)),
        formatTime(min),
        formatTime(p75),
        formatTime(p99),
        relative,
      ];
      if (group.startsWith("recognize: ")) {
        const note = notes.get(bench.name) ?? notes.get(bench.name.replace(/ \(.*\)$/, ""));
        const ours = bench.name.startsWith("resource-router");
        cells.push(
          ours ? "0" : note === undefined ? "" : String(note.leftOut),
          ours ? "0 (the answers)" : note === undefined ? "" : String(note.disagreements),
        );
      }
      out.push(`| ${cells.join(" | ")} |`);
    }
    out.push("");
  }
  const tables = report.notes.filter((note) => typeof note.requests === "number");
  if (tables.length > 0) {
    out.push(
      tables.map((note) =>
        `- ${note.table}: ${note.routes} routes, ${note.requests} requests in the mix, ` +
        `${note.refused} of them answered 404 or 405.`
      ).join("\n"),
      "",
    );
  }
  // A part of a table's mix (its hits, its misses) repeats the table's left-out routes.
  const seen = new Set<string>();
  const leftOut = report.notes.filter((note) => {
    if (note.leftOutReasons === undefined) return false;
    const key = `${note.contender} ${JSON.stringify(note.leftOutReasons)}`;
    if (Object.keys(note.leftOutReasons as object).length === 0 || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (leftOut.length > 0) {
    out.push("Routes the peers cannot express (left out of their tables):", "");
    for (const note of leftOut) {
      const reasons = Object.entries(note.leftOutReasons as Record<string, number>)
        .map(([reason, count]) => `${count} × ${reason}`).join("; ");
      out.push(`- ${note.contender}, ${note.table}: ${note.leftOut} (${reasons})`);
    }
    out.push("");
  }
  const memory = report.notes.filter((note) => typeof note.bytesPerRoute === "number");
  if (memory.length > 0) {
    out.push(
      `**memory per route** (large table, ${memory[0].routes} routes; heap kept alive, measured ` +
        `with the garbage collector run before and after)`,
      "",
      "| contender | bytes per route |",
      "| --- | --- |",
      ...memory.map((note) => `| ${note.memory} | ${note.bytesPerRoute} |`),
      "",
    );
  }
  return out.join("\n");
}

/** A description of this machine, for the report (run it where the benches ran). */
function describeMachine(cpu: string): string {
  const memory = Deno.systemMemoryInfo();
  return `${cpu}, ${navigator.hardwareConcurrency} logical CPUs, ` +
    `${Math.round(memory.total / 2 ** 30)} GiB RAM, ${Deno.build.os} ${Deno.build.arch}` +
    `, load average ${Deno.loadavg().map((value) => value.toFixed(2)).join(" ")} when reported`;
}

if (import.meta.main) {
  const [input = "docs/bench.json", outDir = "docs"] = Deno.args;
  const report = parseBenchOutput(await Deno.readTextFile(input));
  const svg = renderSvg(report, [
    "recognize: large table",
    "recognize: wide table",
    "recognize: 12-route table",
    "build: large table",
    "generate",
  ]);
  await Deno.mkdir(outDir, { recursive: true });
  await Deno.writeTextFile(`${outDir}/bench.svg`, svg);
  const markdown = renderMarkdown(report, describeMachine(report.cpu));
  await Deno.writeTextFile(`${outDir}/bench.md`, markdown);
  console.log(markdown);
}
