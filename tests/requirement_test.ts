import { assert, assertEquals, assertFalse, assertStringIncludes, assertThrows } from "@std/assert";
import { compileRequirement } from "../src/requirement.ts";
import { DEFAULT_VARIABLE_SOURCE } from "../src/route.ts";
import { Router, RoutingError } from "../mod.ts";

function accepts(re: RegExp, text: string): boolean {
  return compileRequirement(re, { name: "v", where: "/t/:v" }).test(text);
}

Deno.test("a requirement matches the whole variable text", () => {
  assert(accepts(/\d+/, "123"));
  assertFalse(accepts(/\d+/, "12a"));
  assertFalse(accepts(/\d+/, "a12"));
  assert(accepts(/ab|cd/, "cd"));
  assertFalse(accepts(/ab|cd/, "abcd"));
});

Deno.test("a requirement never matches a /, whatever its atoms", () => {
  for (const re of [/.+/, /[^a]+/, /\D+/, /\W+/, /\S+/, /[!-~]+/, /\P{L}+/u]) {
    assertFalse(accepts(re, "a/b"), String(re));
    assertFalse(accepts(re, "/"), String(re));
  }
  assert(accepts(/[!-~]+/, "a.b;c"));
  assert(accepts(/.+/, "a.b"));
});

Deno.test("the i flag is kept: letters match in either case", () => {
  assert(accepts(/abc/i, "AbC"));
  assert(accepts(/[a-c]+/i, "ABCabc"));
  assertFalse(accepts(/[a-c]+/i, "abd"));
  assert(accepts(/[^a-c]+/i, "xyz"));
  assertFalse(accepts(/[^a-c]+/i, "xAz"));
  assert(accepts(/x{2,3}/i, "XxX"));
});

Deno.test("the i flag means what it means in the RegExp: every character, with the user's flags", () => {
  const regexes = [
    /\p{Lu}+/iu,
    /\p{Ll}/iu,
    /[^\p{Lu}]/iu,
    /[\P{Lu}x]/iu,
    /[à-ö]/i,
    /[а-я]/i,
    /[a-z]/i,
    /[a-z]/iu,
    /[^a-z]/i,
    /[^a-z]/iu,
    /k|s|ß|σ|ΐ/i,
    /k|s|ß|σ|ΐ/iu,
    /\w/iu,
    /\W/iu,
    /[^\W]/iu,
    /[\Wa]/iu,
    /[\u{10400}-\u{10410}]/iu,
    /[ǅ-ǆ]/i,
  ];
  for (const re of regexes) {
    const requirement = compileRequirement(re, { name: "v", where: "/t/:v" });
    const truth = new RegExp(`^(?:${re.source})$`, re.flags);
    // Without the u flag a RegExp reads text by UTF-16 unit: the characters up to U+FFFF.
    const last = re.unicode ? 0x1ffff : 0xffff;
    const differ: string[] = [];
    for (let cp = 0; cp <= last; cp++) {
      if (cp === 0xd800) cp = 0xe000;
      const char = String.fromCodePoint(cp);
      if (cp !== 0x2f && truth.test(char) !== requirement.test(char)) {
        differ.push(`U+${cp.toString(16)}`);
      }
    }
    assertEquals(differ, [], String(re));
  }
  // Through the router, on ASCII paths as handle sees them.
  const router = new Router().draw((map) => {
    map.connect("/upper/:v", { controller: "c", requirements: { v: /\p{Lu}+/iu } });
    map.connect("/other/:v", { controller: "c", requirements: { v: /[^\p{Lu}]+/iu } });
  });
  assertEquals(router.recognize("/upper/abc").params.v, "abc");
  assertEquals(assertThrows(() => router.recognize("/other/abc"), RoutingError).status, 404);
  assertEquals(router.recognize("/other/1-2").params.v, "1-2");
});

Deno.test("escapes a requirement's flags would make mean something else are refused", () => {
  // Without u, \p{L} is the letter p and \u{41} 41 u's; with i and u, \b counts ſ and K
  // (Kelvin) as word characters, which no pattern without i can say.
  const withoutU = ["\\p{L}+", "x\\P{L}", "\\u{41}"].map((source) => new RegExp(source));
  for (const re of [...withoutU, /\bx/iu, /x\B/iu]) {
    assertThrows(
      () => compileRequirement(re, { name: "v", where: "/t/:v" }),
      TypeError,
      re.unicode ? "with the i and u flags" : "without the u flag",
    );
  }
  assert(accepts(/\bx/i, "x"));
  assert(accepts(/\p{L}+/u, "ab"));
});

Deno.test("a word boundary beside a letter of the route's own text is refused at declaration", () => {
  // `\b` at the variable's start looks at the text before it: with "v" there, /\b\d+/
  // could never match /v2 (a 404) though v_path(2) gave "/v2", and /\B\d+/ matched /v12
  // though v_path("12") broke the requirement.
  for (const re of [/\b\d+\b/, /\B\d+/, /\d\b/]) {
    assertThrows(
      () =>
        new Router().draw((map) =>
          map.named("v", "/v:num", { controller: "c", requirements: { num: re } })
        ),
      TypeError,
      `(${re}) asserts a word boundary, which would look at the "v" before the variable`,
    );
  }
  // Beside "/", "-" or ".", the text around the variable is no word character, as the
  // string's edge is not, so the boundary means what it says on the value alone.
  const router = new Router().draw((map) => {
    map.named("v", "/v-:num", { controller: "c", requirements: { num: /\b\d+\b/ } });
    map.named("w", "/w/:num", { controller: "c", requirements: { num: /\b\d+\b/ } });
    map.named("f", "/f/:id.:format", { controller: "c", requirements: { format: /\b[a-z]+/ } });
  });
  for (
    const [path, name, args] of [
      ["/v-2", "v", ["2"]],
      ["/w/2", "w", ["2"]],
      ["/f/1.xml", "f", ["1", "xml"]],
    ] as const
  ) {
    assertEquals(router.helpers[`${name}_path`](...args), path);
    assertEquals(router.recognize(path).route.name, name);
  }
  assertEquals(router.routes[0].compiledRequirements.get("num")!.boundaries, true);
});

Deno.test("capturing and named groups are carried over as non-capturing ones", () => {
  const requirement = compileRequirement(/(a)(?<b>b)+/, { name: "v", where: "/t/:v" });
  assertFalse(requirement.source.includes("(?<"));
  assert(requirement.test("abb"));
  assertEquals(new RegExp(requirement.source, "u").exec("ab")!.length, 1);
});

Deno.test("a group name may start with any identifier character or an escape", () => {
  // Only `(?<=` and `(?<!` are lookbehinds; the rest of `(?<` opens a named group.
  // Escaped names as RegExp sources: TypeScript refuses them in literals.
  const escaped = [
    new RegExp(String.raw`(?<\u{1d4d1}>\d{4})`, "u"),
    new RegExp(String.raw`(?<\u0061b>\d{4})+`),
  ];
  for (const re of [/(?<été>\d{4})/, ...escaped]) {
    const requirement = compileRequirement(re, { name: "v", where: "/t/:v" });
    assertFalse(requirement.source.includes("(?<"), String(re));
    assert(requirement.test("2024"), String(re));
  }
  for (const re of [/(?<=a)\d/, /(?<!a)\d/]) {
    assertThrows(() => accepts(re, "1"), TypeError, "lookarounds");
  }
});

Deno.test("a requirement is checked and run from its own source, whatever getters it has", () => {
  // An own source getter that answers "a" at first and a catastrophic pattern later: the
  // checks and the matcher both see the RegExp's real source.
  const sly = /a/;
  let reads = 0;
  Object.defineProperty(sly, "source", { get: () => reads++ < 2 ? "a" : "(?:a+)+b" });
  const router = new Router().draw((map) =>
    map.connect("/x/:v", { controller: "x", requirements: { v: sly } })
  );
  assertEquals(router.recognize("/x/a").params.v, "a");
  const error = assertThrows(() => router.recognize("/x/" + "a".repeat(40) + "!"), RoutingError);
  assertEquals(error.status, 404);
  assertEquals(router.routes[0].requirements.v, sly);
});

Deno.test("a surrogate pair written as two escapes is one character", () => {
  for (const re of [/\uD83D\uDE00/, /\uD83D\uDE00/u, /[\uD83D\uDE00-\uD83D\uDE4F]+/u]) {
    assert(accepts(re, "😀"), String(re));
    assertFalse(accepts(re, "\uD83D"), String(re));
  }
  const router = new Router().draw((map) =>
    map.connect("/x/:v", { controller: "x", requirements: { v: /\uD83D\uDE00/ } })
  );
  // Its URLPattern builds (Deno's refuses a lone surrogate).
  assert(router.routes[0].pattern instanceof URLPattern);
  assertEquals(router.recognize("/x/😀").params.v, "😀");
});

Deno.test("a requirement the runtime's URLPattern refuses still routes; pattern says why", () => {
  const router = new Router().draw((map) =>
    map.connect("/x/:v", { controller: "x", requirements: { v: /a{2147483648}|b/ } })
  );
  assertEquals(router.recognize("/x/b").params.v, "b");
  assertThrows(() => router.routes[0].pattern, TypeError, 'The URLPattern of the route "/x/:v"');
});

Deno.test("unsupported requirements are TypeErrors naming the variable", () => {
  const cases: [RegExp, string][] = [
    [/^\d+/, "anchor"],
    [/\d+$/, "anchor"],
    [/\d+/g, '"g"'],
    [/\d+/y, '"y"'],
    [/\d+/s, '"s"'],
    [/(?=a)a/, "lookaround"],
    [/(a)\1/, "backreference"],
    [/a\/b/, '"/"'],
    [/\d*/, "empty string"],
    [/[\p{P}]+/u, "can match"],
  ];
  for (const [re, text] of cases) {
    const error = assertThrows(
      () => compileRequirement(re, { name: "id", where: "/t/:id" }),
      TypeError,
    );
    assert(error.message.includes(":id"), error.message);
    assert(error.message.includes(text), `${re}: ${error.message}`);
  }
  assertThrows(
    () => compileRequirement("\\d+", { name: "id", where: "/t/:id" }),
    TypeError,
    "must be a RegExp",
  );
});

Deno.test("the rewritten source is valid under the u and v flags and in URLPattern", () => {
  for (const re of [/[\w-]+/, /[a-z.]+/i, /\d{1,4}/, /[^\s]+/, /(?:xy)+z/]) {
    const { source } = compileRequirement(re, { name: "v", where: "/t/:v" });
    new RegExp(source, "u");
    new RegExp(source, "v");
    new URLPattern({ pathname: `/t/:v(${source})` });
  }
});

Deno.test("route.pattern applies requirements exactly like recognition", () => {
  const router = new Router().draw((map) => {
    map.connect("/files/:name.:ext", {
      controller: "files",
      action: "show",
      requirements: { name: /[a-z.]+/i, ext: /pdf|txt/ },
    });
  });
  const route = router.routes[0];
  for (
    const [path, expected] of [
      ["/files/Report.pdf", { name: "Report", ext: "pdf" }],
      ["/files/a.b.txt", { name: "a.b", ext: "txt" }],
      ["/files/a1.pdf", null],
      ["/files/a.doc", null],
      ["/files/a/b.pdf", null],
    ] as const
  ) {
    const groups = route.pattern.exec({ pathname: path })?.pathname.groups ?? null;
    assertEquals(groups, expected, `pattern ${path}`);
    let recognized = null;
    try {
      const { params } = router.recognize(path);
      recognized = { name: params.name, ext: params.ext };
    } catch (error) {
      // No match: a 404, nothing else.
      if (!(error instanceof RoutingError) || error.status !== 404) throw error;
    }
    assertEquals(recognized, expected, `recognize ${path}`);
  }
});

Deno.test("requirements that can backtrack catastrophically are TypeErrors", () => {
  for (
    const re of [
      /(a+)+/,
      /(?:a|aa)*/,
      /(?:(?:a|b)c)+/,
      /(\d*)*x/,
      /(?:[a-z]+-?){2,}/,
      // An optional part in a repeated group: (?:aa?)+ took 9.6 s on 44 "a"s.
      /(?:aa?)+/,
      /(?:a?){24,25}b/,
    ]
  ) {
    assertThrows(
      () => compileRequirement(re, { name: "id", where: "/t/:id" }),
      TypeError,
      "backtrack catastrophically",
    );
  }
  for (
    const re of [/\d+/, /(?:abc)+/, /(?:a|b)c+/, /\d{4}-\d{2}/, /(?:\d+)/, /[a-z]+?x/, /(?:ab){2}/]
  ) {
    compileRequirement(re, { name: "id", where: "/t/:id" });
  }
});

Deno.test("a repeated group that holds a quantifier is allowed where a character marks each copy's start", () => {
  // The group starts with a character nothing else in it matches, and each part of it that
  // takes several lengths stops where the next can start: each copy is found in one way.
  const declare = (path: string, requirements: Record<string, RegExp>) =>
    new Router().draw((map) => map.connect(path, { controller: "c", action: "a", requirements }));
  const slug = declare("/p/:slug", { slug: /[a-z0-9]+(?:-[a-z0-9]+)*/ });
  assertEquals(slug.recognize("/p/hello-big-world").params.slug, "hello-big-world");
  for (const path of ["/p/hello--world", "/p/hello-", "/p/-hello"]) {
    assertEquals(assertThrows(() => slug.recognize(path), RoutingError).status, 404, path);
  }
  const version = /\d+(?:\.\d+)*/;
  const gems = declare("/gems/:name-:version", { version });
  const gem = gems.recognize("/gems/rack-test-2.1.0").params;
  assertEquals([gem.name, gem.version], ["rack-test", "2.1.0"]);
  const release = declare("/releases/:version.:format", { version }).recognize(
    "/releases/2.1.0.json",
  );
  assertEquals([release.params.version, release.params.format], ["2.1.0", "json"]);
  // An optional one with a loop counts as no more than repeated: where the run before it
  // meets it is decided by its first character (the default rule of :name holds no ".").
  for (
    const [path, request] of [["/g/:name-:version", "/g/rails-7.1"], ["/g/:version.:f", "/g/7.1.x"]]
  ) {
    const router = declare(path, { version: /\d+(?:\.\d+)?/ });
    assertEquals(router.recognize(request).params.version, "7.1");
  }
  for (const re of [/\d+(,\d+)*/, /[a-z]+(_[a-z]+)*/, /(?:\.\d+[a-z]?)+/, /latest|\d+(\.\d+)*/]) {
    compileRequirement(re, { name: "v", where: "/t/:v" });
  }
  for (
    const re of [
      // Without the check: more than two minutes on a 1,000-character path.
      /(?:-a+a+)+/,
      /(?:-[a-z]+\w+)*/,
      /(?:-[a-z-]+)*/, // the "-" inside too
      /(?:-?[a-z]+)*/, // no character every copy starts with
      /(?:-(?:[a-z]+))*/,
      /(?:-[\Da]+)*/, // rewritten as a group
      /(?:-\b[a-z]+)*/,
    ]
  ) {
    assertThrows(
      () => compileRequirement(re, { name: "v", where: "/t/:v" }),
      TypeError,
      "backtrack catastrophically",
      String(re),
    );
  }
  // Each copy's a+ may end anywhere: bounded repeats of such a group count as loops.
  assertThrows(
    () => compileRequirement(/[a-z-]+(?:-a+){0,3}(?:-a+){0,3}x/, { name: "v", where: "/t/:v" }),
    TypeError,
    "repeats in a row",
  );
});

Deno.test("a group copied a fixed number of times is judged as its copies written out", () => {
  const verdict = (re: RegExp) => {
    try {
      return compileRequirement(re, { name: "id", where: "/t/:id" }).loops;
    } catch (error) {
      assertStringIncludes((error as Error).message, "repeats in a row", String(re));
      return "refused";
    }
  };
  // (.*a){12} is twelve loops in a row: 40 "a"s and a "!" ran for more than 10 s.
  const pairs: [RegExp, RegExp, number | "refused"][] = [
    [/(.*a){12}/, /.*a.*a.*a.*a.*a.*a.*a.*a.*a.*a.*a.*a/, "refused"],
    [/(?:\w*\w*){3}!/, /\w*\w*\w*\w*\w*\w*!/, "refused"],
    [/(.*a){3}/, /.*a.*a.*a/, "refused"],
    [/(?:a+){3}/, /a+a+a+/, "refused"],
    // Each copy ends at a character its loop cannot match. Before, these were refused as
    // "unbounded", where the same written out was not.
    [/(?:a{1,99}b){2}/, /a{1,99}ba{1,99}b/, 2],
    [/(?:[a-z]{1,20}-){2}[a-z]+/, /[a-z]{1,20}-[a-z]{1,20}-[a-z]+/, 3],
    [/(?:\d{1,9}\.){3}\d{1,9}/, /\d{1,9}\.\d{1,9}\.\d{1,9}\.\d{1,9}/, 4],
    [/(?:a+b){3}/, /a+ba+ba+b/, 3],
    [/(?:\d{1,3}\.){3}\d{1,3}/, /\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}/, 0],
    [/(?:ab){2}/, /abab/, 0],
  ];
  for (const [copied, written, expected] of pairs) {
    assertEquals([verdict(copied), verdict(written)], [expected, expected], String(copied));
  }
});

Deno.test("three loops in a row that can trade characters are TypeErrors", () => {
  // Polynomial, not exponential, but n^4 steps: \d+\d+\d+\d+x took 68 s on 1,024 digits.
  for (
    const re of [
      /\d+\d+\d+\d+x/,
      /\w+\d*\w+/,
      /(?:\d+)\d+\d+/,
      /\d{1,100}\d{1,100}\d{1,100}x/,
      /.+-.+-.+/,
      /\p{L}+\p{L}+\p{L}+/u,
      /(?:ab)+(?:ba)+a+x/,
      /(?:\d+|x)\d+\d*/,
      /\d+\b\d+\b\d+/,
      /[a-z]+[A-Z]+[a-z]+/i,
    ]
  ) {
    assertThrows(
      () => compileRequirement(re, { name: "v", where: "/t/:v" }),
      TypeError,
      "repeats in a row",
      `${re}`,
    );
  }
  // A required character the loops before it cannot match breaks the run.
  for (
    const re of [
      /\d+\d+x/,
      /[a-z]+-[a-z]+-[0-9]+/,
      /\d+x\d+x\d+/,
      /[a-z]+\d+[a-z]+/i,
      /[^.]+\.[^.]+\.[^.]+/,
      /\d+(?:\.\d+)?(?:e\d+)?/,
      /(?:a|b+)c+\w+/,
      /é+[a-z]+é+/u,
    ]
  ) {
    compileRequirement(re, { name: "v", where: "/t/:v" });
  }
  // Two loops are allowed: about n^2 steps, quick at maxParamLength.
  const router = new Router().draw((map) =>
    map.connect("/t/:v", { controller: "c", requirements: { v: /\d+\d+x/ } })
  );
  assertThrows(() => router.recognize(`/t/${"1".repeat(1024)}`), RoutingError);
});

Deno.test("the budget counts a loop at the longest value the router's limits allow", () => {
  // On 8,192 digits \d+\d+x took 72 ms, on 16,384 228 ms: the square of the length.
  const draw = (limits: { maxParamLength?: number; maxPathLength?: number }, re: RegExp) =>
    new Router(limits).draw((map) =>
      map.connect("/t/:v", { controller: "c", requirements: { v: re } })
    );
  // Allowed under the default limits (n = 1,024), refused where a value can be 8,192 long,
  // with a message that says why.
  draw({}, /\d+\d+x/);
  assertThrows(
    () => draw({ maxParamLength: 8192, maxPathLength: 9000 }, /\d+\d+x/),
    TypeError,
    "limits let a value be 8192 characters long",
  );
  // The smaller of the two limits bounds a value.
  draw({ maxParamLength: 8192, maxPathLength: 1024 }, /\d+\d+x/);
  // One loop, or loops a character separates, stay allowed at any length.
  draw({ maxParamLength: 65536, maxPathLength: 65536 }, /\d+x\d+/);
  draw({ maxParamLength: 65536, maxPathLength: 65536 }, /[a-z][a-z0-9-]*/);
  // Even where a value can be longer than the budget's million ways: one loop is one pass.
  const huge = { maxParamLength: 2_000_000, maxPathLength: 2_000_000 };
  draw(huge, /\d+/);
  new Router(huge).draw((map) => map.resources("messages"));
  assertThrows(() => draw(huge, /\d+\d+x/), TypeError, "2000000 characters long");
  // Longer values never widen the budget for anything but one loop: 2^24 ways of optional
  // parts stay refused where a value may be 2^24 characters long.
  const larger = { maxParamLength: 2 ** 24, maxPathLength: 2 ** 24 };
  draw(larger, /\d+/);
  draw(larger, /(?:a|b)\d+/);
  assertThrows(() => draw(larger, /(?:a?){24}b/), TypeError, "repeats in a row");
  // Lower limits refuse what the default ones refuse: a table that draws once draws again.
  assertThrows(() => draw({ maxParamLength: 64 }, /\d+\d+\d+x/), TypeError, "repeats in a row");
  // A RegExp allowed for short values is checked again for longer ones, not taken from
  // the cache of compiled requirements.
  const shared = /[a-z]+\w*/;
  draw({}, shared);
  assertThrows(() => draw({ maxParamLength: 4096 }, shared), TypeError, "4096 characters long");
  draw({}, shared);
  // Nor does one compiled for longer values pass as linear for shorter ones: 2^11 ways of
  // optional parts are one pass over 8,192 characters, and backtracking over 1,024.
  const ways = new RegExp("a?".repeat(11) + "b");
  const backtracks = (limits: { maxParamLength?: number }) =>
    new Router(limits).draw((map) =>
      map.connect("/t/:v", { controller: "c", requirements: { v: ways } })
    ).routes[0].backtracks;
  assert(backtracks({}));
  assertFalse(backtracks({ maxParamLength: 8192 }));
  assert(backtracks({}));
  // The RegExp of a segment with several variables counts its loops the same way: two
  // loops that can both take the "-" between them are n^2.
  const segment = (limits: { maxParamLength?: number; maxPathLength?: number }, b: RegExp) =>
    new Router(limits).draw((map) =>
      map.connect("/t/:a-:b", { controller: "c", requirements: { a: /[\d-]+/, b } })
    );
  segment({}, /[\d-]+/);
  // Where :b cannot take the "-", each way :a ends at a "-" gives :b digits that no other
  // way gives it: one pass over the text, at any length.
  segment({ maxParamLength: 65536, maxPathLength: 65536 }, /\d+/);
  const error = assertThrows(() => segment({ maxParamLength: 4096 }, /[\d-]+/), TypeError);
  assertStringIncludes(error.message, 'segment ":a-:b"');
  assertStringIncludes(error.message, "4096 characters long");
});

Deno.test("optional parts, bounded repeats and alternatives that multiply their ways are TypeErrors", () => {
  // Exponential: (?:a?){28}b took 2.5 s on 28 "a"s, twelve a{0,7} 114 s on 40.
  for (
    const re of [
      /(?:a?){28}b/,
      /(?:[a-z]{0,7}){10}!/,
      new RegExp("a{0,7}".repeat(12) + "b"),
      /(?:a|a){24}b/,
      new RegExp("(?:ab)?".repeat(24) + "c"),
      /\d+a*\d+a*\d+/,
      // An empty alternative is an optional part: (?:a|){30}b took 10 s.
      /(?:a|){30}b/,
      /(?:|a){24}b/,
      // The ways a run can end at a separator carry on past it: \d+\d+x\d+\d+ is n^3.
      /\d+\d+x\d+\d+/,
      /[a-z]+\w*-[a-z]+\w*/,
      /(?:\d?){16}x(?:\d?){16}/,
      /(?:\d?\d?x){30}/,
      // A fixed count after two loops is matched again for each of their ways.
      /\d*\d*\d{500}/,
    ]
  ) {
    assertThrows(
      () => compileRequirement(re, { name: "v", where: "/t/:v" }),
      TypeError,
      "repeats in a row, or alternatives",
      `${re}`,
    );
  }
  // Copies are followed until one changes nothing: deep nesting declares at once.
  compileRequirement(/(?:(?:(?:(?:ab?c){900}){900}){900}){900}/, { name: "v", where: "/t/:v" });
  // Few enough ways, or a character that ends each run: fine.
  for (
    const re of [
      /(?:a?){10}b/,
      /(?:ab|cd){30}/,
      /(?:jpg|jpeg|png|gif)/,
      /v?\d+(?:\.\d+)?/,
      /\d+(?:\.\d+)?\d+x/, // two loops, the group decided by its "."

      /\d+\.\d+\.\d+/,
      /[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}/i,
    ]
  ) {
    compileRequirement(re, { name: "v", where: "/t/:v" });
  }
});

Deno.test("a class with a negated escape becomes alternatives that share no character", () => {
  // [\D.] as (?:[.]|[^\d/]) repeated: both alternatives take ".", 2^30 ways on 30 dots.
  assertEquals(
    compileRequirement(/[\D.]+/, { name: "v", where: "/t/:v" }).source,
    "(?:[\\x2e]|[^\\d\\/\\x2e])+",
  );
  assertEquals(compileRequirement(/[\W]+/, { name: "v", where: "/t/:v" }).source, "[^\\w\\/]+");
  const mixed = compileRequirement(/[\Da-z]+/i, { name: "v", where: "/t/:v" });
  assert(mixed.test("aB-"));
  assertFalse(mixed.test("a1"));
  assertThrows(
    () => compileRequirement(/[\D\W]+/, { name: "v", where: "/t/:v" }),
    TypeError,
    "negated class escapes",
  );
});

Deno.test("admits tells which characters a requirement's matches may contain", () => {
  const dotted = compileRequirement(/[a-z.]+/, { name: "v", where: "/t/:v" });
  assert(dotted.admits("."));
  assert(dotted.admits("q"));
  assertFalse(dotted.admits("-"));
  const folded = compileRequirement(/ab|c\d/i, { name: "v", where: "/t/:v" });
  assert(folded.admits("B"));
  assert(folded.admits("7"));
  assertFalse(folded.admits("."));
});

Deno.test("a segment its requirements could split in many ways is a TypeError", () => {
  const declare = (path: string, requirements: Record<string, RegExp>) =>
    new Router().draw((map) => map.connect(path, { controller: "c", requirements }));
  assertThrows(
    () => declare("/g/:a,:b,:c", { a: /[a-z,]+/, b: /[a-z,]+/, c: /[a-z,]+/ }),
    TypeError,
    ":a and :b",
  );
  // One ambiguous boundary is allowed (a file name with dots), as are separators the
  // requirements exclude and variables under the default rule.
  declare("/f/:name.:ext", { name: /[a-z.]+/, ext: /[a-z]+/ });
  declare("/d/:y-:m-:d", { y: /\d+/, m: /\d+/, d: /\d+/ });
  // Default-rule variables alone are split without a RegExp (see matcher_test.ts)...
  declare("/x/:a-:b-:c", {});
  // ...but beside a variable with a requirement, the segment's RegExp decides, and those
  // that may hold "-" count.
  assertThrows(() => declare("/x/:a-:b-:c", { c: /\d+/ }), TypeError, ":a and :b");
  // So they do in a route matched by its whole RegExp: optional segments with two rules.
  assertThrows(
    () =>
      new Router().draw((map) =>
        map.connect("/x/:a-:b-:c/:p/:q", {
          controller: "c",
          defaults: { p: "1", q: "2" },
          requirements: { p: /\d+/ },
        })
      ),
    TypeError,
    ":a and :b",
  );
  new Router().draw((map) =>
    map.connect("/x/:a-:b-:c/:p/:q", { controller: "c", defaults: { p: "1", q: "2" } })
  );
  // A second boundary is fenced off from the first where nothing between them can take
  // the first's separator: :version holds no "-", so the texts it can take after two "-"
  // do not overlap, and both boundaries together try about as many ways as one.
  for (const version of [/[\d.]+/, /\d+(?:\.\d+)*/, /\d+(?:\.\d+)?(?:\.\d+)?/]) {
    const router = declare("/g/:name-:version.:format", { version });
    assertEquals(
      router.recognize("/g/my-gem-7.1.2.json").params,
      { controller: "c", action: "index", name: "my-gem", version: "7.1.2", format: "json" },
    );
  }
  declare("/x/:a-:b.:c-:d", { b: /[\d.]+/, c: /[a-z-]+/ });
  // Not where the variable between can take it: the splits multiply.
  assertThrows(
    () => declare("/g/:name-:version.:format", { version: /[\d.-]+/ }),
    TypeError,
    ":name and :version",
  );
  // Nor where a literal between holds it (the text of :b may then cross a "-" of :a).
  assertThrows(
    () => declare("/x/:a-:b-:c-:d", { b: /\d+/ }),
    TypeError,
    ":a and :c",
  );
});

Deno.test("variables one RegExp matches together share the limit of ways", () => {
  const declare = (path: string, requirements: Record<string, RegExp>, defaults = {}) =>
    new Router().draw((map) => map.connect(path, { controller: "c", requirements, defaults }));
  // Two loops each, apart: allowed. In one segment, the first can end at "-" in n ways and
  // each tries the second's n^2 again (728 ms on 2,000 digits).
  declare("/x/:a/:b", { a: /\d+\d+/, b: /\d+\d+/ });
  assertThrows(
    () => declare("/x/:a-:b", { a: /\d+\d+/, b: /\d+\d+/ }),
    TypeError,
    'segment ":a-:b" of the route path "/x/:a-:b"',
  );
  declare("/x/:a-:b", { a: /\d+\d+/, b: /\d+/ });
  // The default rule of :name may hold the "-" and the digits after it, but the version's
  // \d+ cannot take the "-": where :name ends at one "-", the digits it can take stop
  // before the next, so the places :name can end at add up, not multiply (n ways, not n^2).
  const version = /\d+(?:\.\d+)?(?:\.\d+)?/;
  assertEquals(
    declare("/g/:name-:version", { version }).recognize("/g/a-b-7.1").params.name,
    "a-b",
  );
  declare("/g/:name-:version", { name: /[a-z-]+/, version });
  // Where the version's first loop can take the "-" too, they multiply again.
  assertThrows(
    () => declare("/g/:name-:version", { version: /[\d-]+(?:\.\d+)?(?:\.\d+)?/ }),
    TypeError,
    'segment ":name-:version"',
  );
  declare("/g/:name-:version", { version: /\d+(?:\.\d+)*/ });
  declare("/g/:name-:version", { version: /[\d.]+/ });
  // A route matched by its whole RegExp (optional segments with two rules): across "/".
  assertThrows(
    () => declare("/x/:a/:b", { a: /\d+\d+/, b: /[0-9]+[0-9]+/ }, { a: "1", b: "2" }),
    TypeError,
    'route path "/x/:a/:b"',
  );
  declare("/x/:a/:b", { a: /\d+/, b: /[0-9]+/ }, { a: "1", b: "2" });
  // Each optional segment is a choice the RegExp may make for any path segment: 2^k ways.
  const many = Array.from({ length: 26 }, (_, i) => `v${i}`);
  assertThrows(
    () =>
      declare(
        `/x/${many.map((name) => `:${name}`).join("/")}`,
        Object.fromEntries(many.filter((_, i) => i % 2 === 1).map((name) => [name, /[a-z]+/])),
        Object.fromEntries(many.map((name) => [name, "d"])),
      ),
    TypeError,
    "route path",
  );
});

Deno.test("a route backtracks where a RegExp could split a segment, or two loops meet", () => {
  const backtracks = (path: string, requirements: Record<string, RegExp> = {}) =>
    new Router().draw((map) => map.connect(path, { controller: "c", requirements }))
      .routes[0].backtracks;
  assert(backtracks("/f/:name.:ext", { name: /[a-z.]+/ }));
  assert(backtracks("/f/:range", { range: /\d+-\d+/ }));
  assert(backtracks("/f/:range", { range: /\d{1,9}-\d{1,9}/ }));
  // Bounded repeats of a few lengths are no loops: a failing match stays linear, and a
  // long segment is a 404, not the 414 that bounds the time of a route that backtracks.
  assertFalse(backtracks("/ip/:addr", { addr: /\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}/ }));
  assertFalse(backtracks("/f/:name.:ext", { name: /[a-z]+/ }));
  assertFalse(backtracks("/f/:name.:ext"));
  // Default-rule variables are split without a RegExp, in linear time.
  assertFalse(backtracks("/dl/:name-:version-:arch"));
  const resources = new Router().draw((map) => map.resources("messages")).routes;
  assertFalse(resources.some((route) => route.backtracks));
  // One loop by count, but its optional copies share n digits in 1,024 n ways: a RegExp run
  // on a whole 8,189-digit segment took 130 ms, where the limit makes it a 414 at once.
  const copies = new Router().draw((map) =>
    map.connect("/x/:v", { controller: "c", requirements: { v: /\d+(?:\d?){10}x/ } })
  );
  assert(copies.routes[0].backtracks);
  const long = `/x/${"1".repeat(8189)}`;
  assertEquals(assertThrows(() => copies.recognize(long), RoutingError).status, 414);
  assertFalse(backtracks("/x/:v", { v: /[a-z]{2}\d+/ }));
});

Deno.test("a route that backtracks is not run on a text too long for it: a 414 only where it could match", () => {
  const router = new Router({ maxParamLength: 50 }).draw((map) => {
    map.connect("/f/:name.:ext", { controller: "files", requirements: { name: /[a-z.]+/ } });
    map.connect("/f/:name", { controller: "files", action: "show", requirements: { name: /!+/ } });
  });
  assertEquals(
    router.recognize(`/f/${"a".repeat(50)}.${"b".repeat(50)}`).params.ext,
    "b".repeat(50),
  );
  // Its RegExp would try each "." for the split (the square of the length): it is not run,
  // and the route could match, so the text is over the limit.
  const long = `/f/${"a.".repeat(4000)}!`;
  assertEquals(assertThrows(() => router.recognize(long), RoutingError).status, 414);
  // A later route answers where it matches, and any other path is matched as usual: "/g"
  // is not the route's literal text, and ":name" holds no "!".
  assertEquals(router.recognize(`/f/${"!".repeat(50)}`).route.action, "show");
  for (const path of [`/g/${"z".repeat(120)}`, `/f/${"a".repeat(120)}!.x`, `/${"z".repeat(120)}`]) {
    assertEquals(assertThrows(() => router.recognize(path), RoutingError).status, 404, path);
  }
});

Deno.test("a requirement knows the most UTF-16 code units a match can take", () => {
  const maxLength = (regex: RegExp) =>
    compileRequirement(regex, { name: "v", where: "/:v" }).maxLength;
  assertEquals(maxLength(/[a-z]{1,3}-\d{2}/), 6);
  assertEquals(maxLength(/ab|cde|fg?/), 3);
  assertEquals(maxLength(/(?:ab){0,4}x(?:y{3}){2}/), 15);
  assertEquals(maxLength(/\bx\b/), 1);
  assertEquals(maxLength(/x(?:ab){0}/), 1);
  // Whole characters: one outside ASCII may take two code units.
  assertEquals(maxLength(/é|😀{2}/), 4);
  assertEquals(maxLength(/[^\/]/), 2);
  assertEquals(maxLength(/K/iu), 2, "K and the Kelvin sign");
  assertEquals(maxLength(/K/i), 1, "without u, K and k only");
  assertEquals(maxLength(/k/), 1);
  for (const regex of [/\d+/, /ba*/, /x(?:ab){2,}/, /.{3,}|z/]) {
    assertEquals(maxLength(regex), Infinity, String(regex));
  }
});

Deno.test("a requirement whose shortest match is longer than a variable can be is a TypeError", () => {
  const minLength = (regex: RegExp) =>
    compileRequirement(regex, { name: "v", where: "/:v" }).minLength;
  assertEquals(minLength(/[a-z]{2,3}-\d{2}/), 5);
  assertEquals(minLength(/abc|d(?:ef)?|gh/), 1);
  assertEquals(minLength(/\bx+\b(?:ab){3,}/), 7);
  assertEquals(minLength(/😀{2}/), 2, "a lower bound: a character is one code unit at least");
  const draw = (limits: { maxParamLength?: number }, id: RegExp) =>
    new Router(limits).draw((map) =>
      map.connect("/x/:id", { controller: "x", requirements: { id } })
    );
  // Every path it matched would be a 414: 1,025 digits is over the default maxParamLength.
  const error = assertThrows(
    () => draw({}, /\d{1025}/),
    TypeError,
    "matches no text shorter than 1025",
  );
  assertStringIncludes(error.message, ":id");
  assertThrows(() => draw({}, /(?:ab){513}|x{2000}/), TypeError, "shorter than 1026 characters");
  draw({}, /\d{1024}/);
  draw({}, /(?:ab){600}|x/);
  // Larger limits let it through; smaller ones refuse no more than the default ones, as a
  // table drawn under small limits to test them still draws. The answer depends on the
  // limits, not on which router compiled the RegExp first.
  const long = /\d{2000}/;
  draw({ maxParamLength: 4096 }, long);
  assertThrows(() => draw({}, long), TypeError, "(1024)");
  draw({ maxParamLength: 10 }, /\d{20}/);
});

Deno.test("the default rule's requirement, made without the analysis, is what the analysis makes", () => {
  // Variants A and B give every show route's :id the default rule; src/route.ts writes its
  // compiled form out, which skips compileRequirement's analysis at a cold start.
  const router = new Router().draw((map) => map.resources("messages"));
  const show = router.routes.find((route) => route.action === "show")!;
  const made = show.compiledRequirements.get("id")!;
  assertEquals(show.requirements.id, new RegExp(DEFAULT_VARIABLE_SOURCE));
  // Written out, not analysed: the analysis escapes each separator (`\x2f` and so on).
  assertEquals(made.source, DEFAULT_VARIABLE_SOURCE);
  const analysed = compileRequirement(new RegExp(DEFAULT_VARIABLE_SOURCE), {
    name: "id",
    where: show.path,
    longest: 1 << 20,
  });
  assertEquals(made.original.source, analysed.original.source);
  assertEquals(made.original.flags, analysed.original.flags);
  assertEquals(made.loops, analysed.loops);
  assertEquals(made.maxLength, analysed.maxLength);
  const texts = ["1", "abc", "a-b_c~d", "%2F", "é", "😀", "", "a/b", "a.b", "a;b", "a,b", "a?b"];
  for (const text of texts) {
    assertEquals(made.test(text), analysed.test(text), text);
    for (const flags of ["u", "v"]) {
      const rewritten = (source: string) => new RegExp(`^(?:${source})$`, flags).test(text);
      assertEquals(rewritten(made.source), rewritten(analysed.source), `${text} (${flags})`);
    }
  }
  for (let code = 0; code < 0x3000; code++) {
    const char = String.fromCharCode(code);
    assertEquals(made.admits(char), analysed.admits(char), `U+${code.toString(16)}`);
  }
  for (const char of ["😀", "ab", ""]) assertEquals(made.admits(char), analysed.admits(char), char);
});

// Each character of a requirement is at most one term of the RegExps a route is matched
// with, and V8 fails to compile one of about 12,000 terms ("Stack overflow"): a route drawn
// must never fail that way on its first request.
Deno.test("a requirement's length, and its routes' together, are bounded at declaration", () => {
  const dots = (n: number) => new RegExp(".".repeat(n));
  const draw = (path: string, requirements: Record<string, RegExp>) =>
    new Router({ maxParamLength: 4096, maxPathLength: 9000 }).draw((map) =>
      map.connect(path, { controller: "c", action: "a", requirements })
    );
  const error = assertThrows(() => draw("/x/:a", { a: dots(8000) }), TypeError);
  assertStringIncludes(error.message, "is 8000 characters long; a requirement is at most 4096");
  assert(error.message.length < 500, "the message shows the RegExp's start only");
  assertThrows(
    () => draw("/x/:a-:b-:c", { a: dots(4096), b: dots(4096), c: /\d/ }),
    TypeError,
    'requirements of "/x/:a-:b-:c" are more than 8192 characters long together',
  );
  // At the bounds, the segment's RegExp and the whole path's compile and match.
  const router = draw("/x/:a-:b", { a: dots(4096), b: dots(4096) });
  const path = `/x/${"1".repeat(4096)}-${"2".repeat(4096)}`;
  assertEquals(router.recognize(path).params.b, "2".repeat(4096));
  assert(router.routes[0].regex.test(path));
});

Deno.test("a requirement nesting groups more than 64 deep is a TypeError", () => {
  const nested = (depth: number) => new RegExp("(?:".repeat(depth) + "a" + ")".repeat(depth));
  assert(accepts(nested(64), "a"));
  assertThrows(() => accepts(nested(65), "a"), TypeError, "nests groups more than 64 deep");
  // Plain groups too: the analysis recurses into each.
  const plain = new RegExp("(".repeat(65) + "a" + ")".repeat(65));
  assertThrows(() => accepts(plain, "a"), TypeError, "64 deep");
});

Deno.test("a requirement nesting fixed-count groups too deeply is refused, not checked for seconds", () => {
  // Each copy of a `{2}` group was followed again with the copies inside it: 22 deep, 5 s.
  const AT = { name: "v", where: "/t/:v" };
  const deep = new RegExp("a" + "(?:".repeat(22) + "\\b" + "){2}".repeat(22));
  assertThrows(
    () => compileRequirement(deep, AT),
    TypeError,
    "nests groups repeated a fixed number of times too deeply",
  );
  // A few levels, as real requirements nest them, are checked as before.
  const address = /(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)/;
  assert(compileRequirement(address, AT).test("192.168.0.1"));
  assert(compileRequirement(new RegExp("a" + "(?:".repeat(8) + "b" + "){2}".repeat(8)), AT));
});
