import { assert, assertEquals, assertInstanceOf } from "@std/assert";
import { Router } from "../mod.ts";

Deno.test("drawing and recognising build no URLPattern; route.pattern builds one, once", () => {
  const Native = globalThis.URLPattern;
  let built = 0;
  class CountingURLPattern extends Native {
    constructor(input?: URLPatternInput, options?: URLPatternOptions) {
      super(input, options);
      built += 1;
    }
  }
  globalThis.URLPattern = CountingURLPattern as typeof URLPattern;
  try {
    const router = new Router({ variant: "B" }).draw((map) => {
      for (let i = 0; i < 70; i++) map.resources(`things${i}`, { member: { mark: "post" } });
    });
    assert(router.routes.length > 1000);
    router.recognize("/things69/1;mark", "POST");
    router.helpers.mark_things69_path(1);
    assertEquals(built, 0);
    const pattern = router.routes[0].pattern;
    assertInstanceOf(pattern, Native);
    assert(router.routes[0].pattern === pattern);
    assertEquals(built, 1);
  } finally {
    globalThis.URLPattern = Native;
  }
});

Deno.test("route.pattern is equivalent to the route, trailing slash and optional variables included", () => {
  const router = new Router({ variant: "A" }).draw((map) => {
    map.resources("messages");
    map.connect(":controller/:action/:id");
  });
  const show = router.namedRoutes.get("formatted_message")!;
  assertEquals(show.pattern.exec({ pathname: "/messages/1.xml" })?.pathname.groups, {
    id: "1",
    format: "xml",
  });
  assert(show.pattern.test({ pathname: "/messages/1.xml/" }));
  assert(!show.pattern.test({ pathname: "/messages/1.2.xml" }));
  const catchAll = router.routes.at(-1)!;
  assert(catchAll.pattern.test({ pathname: "/messages" }));
  assert(catchAll.pattern.test({ pathname: "/messages/show/1" }));
  assert(!catchAll.pattern.test({ pathname: "/messages/show/1/2" }));
});

Deno.test("route.pattern keeps a segment's leading dots before a variable", () => {
  // URLPattern canonicalises fixed text as a path, where "/x/." and "/x/.." are dot segments.
  const router = new Router({ variant: "B" }).draw((map) => {
    map.named("dot", "/files/.:id", { controller: "files" });
    map.named("dots", "/files/..:id.:format", { controller: "files" });
  });
  const dot = router.namedRoutes.get("dot")!;
  assertEquals(router.helpers.dot_path("abc"), "/files/.abc");
  assertEquals(dot.pattern.exec({ pathname: "/files/.abc" })?.pathname.groups, { id: "abc" });
  assert(!dot.pattern.test({ pathname: "/files/abc" }));
  assert(!dot.pattern.test({ pathname: "/abc" }));
  const dots = router.namedRoutes.get("dots")!;
  assertEquals(dots.pattern.exec({ pathname: "/files/..abc.json" })?.pathname.groups, {
    id: "abc",
    format: "json",
  });
  assert(!dots.pattern.test({ pathname: "/abc.json" }));
  assertEquals(router.recognize("/files/..abc.json").params.id, "abc");
});
