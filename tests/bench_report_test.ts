import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { formatTime, parseBenchOutput, renderMarkdown, renderSvg } from "../bench/report.ts";

const OUTPUT = [
  "large table: 3 routes",
  '@note {"table":"large table","routes":3,"requests":2,"refused":1}',
  '@note {"table":"large table","contender":"peer","leftOut":1,"leftOutReasons":{"a <reason>":1},"disagreements":2}',
  '@note {"memory":"ours","bytesPerRoute":100,"routes":3}',
  JSON.stringify(
    {
      version: 1,
      runtime: "Deno/2.9.6 x86_64-unknown-linux-gnu",
      cpu: "Test CPU",
      benches: [
        ["generate", "helper", true, 25],
        ["recognize: large table", "resource-router: router.recognize", true, 400],
        ["recognize: large table", "peer", false, 800],
      ].map(([group, name, baseline, avg]) => ({
        origin: "file:///bench/x_bench.ts",
        group,
        name,
        baseline,
        results: [{ ok: { n: 10, min: avg, max: avg, avg, p75: avg, p99: avg } }],
      })),
    },
    null,
    2,
  ),
].join("\n");

Deno.test("the report reads the JSON and the @note lines printed before it", () => {
  const report = parseBenchOutput(OUTPUT);
  assertEquals(report.cpu, "Test CPU");
  assertEquals(report.benches.length, 3);
  assertEquals(report.notes.map((note) => Object.keys(note)[0]), ["table", "table", "memory"]);
});

Deno.test("times read in the unit that fits them", () => {
  assertEquals(formatTime(7.25), "7.3 ns");
  assertEquals(formatTime(512), "512 ns");
  assertEquals(formatTime(1500), "1.50 µs");
  assertEquals(formatTime(2_170_000), "2.17 ms");
});

Deno.test("the markdown puts recognition first and carries the peers' notes", () => {
  const markdown = renderMarkdown(parseBenchOutput(OUTPUT), "a test machine");
  assert(markdown.indexOf("recognize: large table") < markdown.indexOf("**generate**"));
  assertStringIncludes(
    markdown,
    "| peer | 800 ns | 800 ns | 800 ns | 800 ns | 2.00× slower | 1 | 2 |",
  );
  assertStringIncludes(markdown, "- peer, large table: 1 (1 × a <reason>)");
  assertStringIncludes(markdown, "| ours | 100 |");
  assertStringIncludes(markdown, "Machine: a test machine.");
});

Deno.test("the chart has one bar per benchmark of the chosen groups, text escaped", () => {
  const svg = renderSvg(parseBenchOutput(OUTPUT), ["recognize: large table", "missing"]);
  assertEquals(svg.match(/<rect x="/g)?.length, 2);
  assertStringIncludes(svg, "resource-router: router.recognize");
  assert(!svg.includes("<reason>"));
  assert(svg.startsWith("<svg"));
});
