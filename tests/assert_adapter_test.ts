// Tests for tests/_assert.ts, the local stand-in for jsr:@std/assert@^1.
// They pin down the @std/assert semantics the rest of the suite relies on.

import {
  assert,
  assertAlmostEquals,
  assertArrayIncludes,
  assertEquals,
  assertExists,
  assertFalse,
  assertGreater,
  assertGreaterOrEqual,
  assertInstanceOf,
  AssertionError,
  assertIsError,
  assertLess,
  assertLessOrEqual,
  assertMatch,
  assertNotEquals,
  assertNotInstanceOf,
  assertNotMatch,
  assertNotStrictEquals,
  assertObjectMatch,
  assertRejects,
  assertStrictEquals,
  assertStringIncludes,
  assertThrows,
  equal,
  fail,
  unimplemented,
  unreachable,
} from "@std/assert";
// The import above names every export of @std/assert 1.x (with AnyConstructor,
// GetConstructorType, ArrayLikeArg and Falsy, types): a test written against std loads here.
import type { AnyConstructor, ArrayLikeArg, Falsy, GetConstructorType } from "@std/assert";

/** Runs `fn` and checks that it throws an AssertionError; returns its message. */
function failsWith(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof AssertionError) return error.message;
    throw new Error(`expected an AssertionError, got ${error}`);
  }
  throw new Error("expected an AssertionError, but nothing was thrown");
}

Deno.test("equal: null-prototype object equals plain object with same entries", () => {
  const bare = Object.assign(Object.create(null), { a: 1, b: { c: [1, 2] } });
  assert(equal(bare, { a: 1, b: { c: [1, 2] } }));
  assert(equal({ a: 1, b: { c: [1, 2] } }, bare));
  assertEquals(bare, { a: 1, b: { c: [1, 2] } });
  assertEquals({ params: bare }, { params: { a: 1, b: { c: [1, 2] } } });
});

Deno.test("equal: key order is ignored, values and key sets are not", () => {
  assertEquals({ a: 1, b: 2 }, { b: 2, a: 1 });
  assertFalse(equal({ a: 1 }, { a: 1, b: undefined }));
  assertFalse(equal({ a: 1, b: undefined }, { a: 1, c: undefined }));
  assertFalse(equal({ a: 1 }, { a: "1" }));
});

Deno.test("equal: arrays element-wise, primitives by SameValueZero", () => {
  assertEquals([1, [2, { x: 3 }]], [1, [2, { x: 3 }]]);
  assertFalse(equal([1, 2], [2, 1]));
  assertFalse(equal([1, 2], [1, 2, 3]));
  assert(equal(NaN, NaN));
  assert(equal(0, -0));
  assertFalse(equal(1, "1"));
  assertFalse(equal(null, undefined));
  assertFalse(equal([], {}));
});

Deno.test("equal: class instances need the same prototype", () => {
  class A {
    constructor(public x: number) {}
  }
  class B {
    constructor(public x: number) {}
  }
  assertEquals(new A(1), new A(1));
  assertFalse(equal(new A(1), new A(2)));
  assertFalse(equal(new A(1), new B(1)));
  assertFalse(equal(new A(1), { x: 1 }));
});

Deno.test("equal: Map and Set compare by content, not insertion order", () => {
  assertEquals(new Map([["a", 1], ["b", 2]]), new Map([["b", 2], ["a", 1]]));
  assertNotEquals(new Map([["a", 1]]), new Map([["a", 2]]));
  assertNotEquals(new Map([["a", 1]]), new Map([["b", 1]]));
  assertEquals(new Map([[{ k: 1 }, "v"]]), new Map([[{ k: 1 }, "v"]]));
  assertNotEquals(new Map([[{ k: 1 }, "v"]]), new Map([[{ k: 2 }, "v"]]));
  assertEquals(new Set([1, 2, 3]), new Set([3, 2, 1]));
  assertNotEquals(new Set([1, 2]), new Set([1, 2, 3]));
  assertEquals(new Set([{ a: 1 }]), new Set([{ a: 1 }]));
  assertFalse(equal(new Set([1]), new Map([[1, 1]])));
  assertEquals({ m: new Map([["x", new Set(["y"])]]) }, { m: new Map([["x", new Set(["y"])]]) });
});

Deno.test("equal: Date, RegExp, URL, typed arrays, Error", () => {
  assertEquals(new Date(0), new Date(0));
  assertNotEquals(new Date(0), new Date(1));
  assertEquals(new Date(NaN), new Date(NaN));
  assertEquals(/a+/gi, /a+/gi);
  assertNotEquals(/a+/g, /a+/i);
  assertEquals(new URL("https://x.test/a?b=1"), new URL("https://x.test/a?b=1"));
  assertNotEquals(new URL("https://x.test/a"), new URL("https://x.test/b"));
  assertEquals(new Uint8Array([1, 2]), new Uint8Array([1, 2]));
  assertNotEquals(new Uint8Array([1, 2]), new Uint8Array([1, 3]));
  assertFalse(equal(new Uint8Array([1, 2]), new Uint16Array([1, 2])));
  // As in std, Errors are compared on all own properties, `stack` included,
  // so only errors with identical stacks (same call site) can be equal.
  const [boom1, boom2, bang] = ["boom", "boom", "bang"].map((m) => new Error(m));
  assertEquals(boom1, boom2);
  assertNotEquals(boom1, bang);
  assertNotEquals(new Error("boom"), new Error("boom"));
  const typeError = new TypeError("boom");
  typeError.stack = boom1.stack;
  assertFalse(equal(typeError, boom1));
});

Deno.test("equal: circular structures terminate", () => {
  const a: Record<string, unknown> = { n: 1 };
  a.self = a;
  const b: Record<string, unknown> = { n: 1 };
  b.self = b;
  assertEquals(a, b);
});

Deno.test("assertEquals: unequal values throw AssertionError showing both values", () => {
  const message = failsWith(() => assertEquals({ a: 1 }, { a: 2 }));
  assertStringIncludes(message, "Values are not equal.");
  assertStringIncludes(message, "a: 1");
  assertStringIncludes(message, "a: 2");
  assertStringIncludes(
    failsWith(() => assertEquals(1, 2, "custom")),
    "Values are not equal: custom",
  );
  failsWith(() => assertEquals("a", "b"));
  failsWith(() => assertEquals([1], [1, 2]));
});

Deno.test("assertStrictEquals / assertNotStrictEquals use Object.is", () => {
  const o = {};
  assertStrictEquals(o, o);
  assertStringIncludes(
    failsWith(() => assertStrictEquals({}, {})),
    "Values have the same structure but are not reference-equal",
  );
  failsWith(() => assertStrictEquals(0, -0));
  assertNotStrictEquals({}, {});
  assertNotStrictEquals(0, -0);
  failsWith(() => assertNotStrictEquals(1, 1));
});

Deno.test("assertThrows: no class returns whatever was thrown", () => {
  const thrown = assertThrows(() => {
    throw "not an error";
  });
  assertStrictEquals(thrown, "not an error");
  assertStringIncludes(failsWith(() => assertThrows(() => {})), "Expected function to throw.");
  assertStringIncludes(
    failsWith(() => assertThrows(() => {}, "why")),
    "Expected function to throw: why",
  );
});

Deno.test("assertThrows: checks class and message, returns the typed error", () => {
  const error = assertThrows(
    () => {
      throw new RangeError("index 7 out of range");
    },
    RangeError,
    "out of range",
  );
  assertInstanceOf(error, RangeError);
  assertEquals(error.message, "index 7 out of range");

  // Subclasses satisfy the base class.
  assertThrows(() => {
    throw new RangeError("x");
  }, Error);

  assertStringIncludes(
    failsWith(() =>
      assertThrows(() => {
        throw new TypeError("x");
      }, RangeError)
    ),
    'Expected error to be instance of "RangeError", but was "TypeError"',
  );
  assertStringIncludes(
    failsWith(() =>
      assertThrows(
        () => {
          throw new RangeError("index 7 out of range");
        },
        RangeError,
        "in range",
      )
    ),
    'Expected error message to include "in range"',
  );
  assertStringIncludes(
    failsWith(() =>
      assertThrows(() => {
        throw "string";
      }, Error)
    ),
    "A non-Error object was thrown",
  );
  failsWith(() => assertThrows(() => {}, Error));
});

Deno.test("assertRejects: both overloads", async () => {
  const reason = await assertRejects(() => Promise.reject(42));
  assertStrictEquals(reason, 42);

  const error = await assertRejects(
    async () => {
      await Promise.resolve();
      throw new SyntaxError("bad token");
    },
    SyntaxError,
    "bad",
  );
  assertInstanceOf(error, SyntaxError);

  const noReject = await assertRejects(() => assertRejects(() => Promise.resolve()));
  assertInstanceOf(noReject, AssertionError);
  assertStringIncludes(noReject.message, "Expected function to reject.");

  await assertRejects(
    () => assertRejects(() => Promise.reject(new TypeError("x")), RangeError),
    AssertionError,
    'Expected error to be instance of "RangeError"',
  );
  await assertRejects(
    () => assertRejects(() => Promise.reject(new Error("abc")), Error, "xyz"),
    AssertionError,
    'Expected error message to include "xyz"',
  );
  await assertRejects(
    () =>
      assertRejects((): Promise<void> => {
        throw new Error("sync");
      }),
    AssertionError,
    "Function throws when expected to reject",
  );
});

Deno.test("assertObjectMatch: expected is a deep subset of actual", () => {
  assertObjectMatch({ a: 1, b: 2, c: { d: 3, e: 4 } }, { a: 1, c: { d: 3 } });
  assertObjectMatch({ list: [{ id: 1, x: true }, { id: 2 }] }, { list: [{ id: 1 }, { id: 2 }] });
  assertObjectMatch({ m: new Map([["k", { v: 1, w: 2 }]]) }, { m: new Map([["k", { v: 1 }]]) });
  assertObjectMatch({ re: /x/g }, { re: /x/g });
  const bare = Object.assign(Object.create(null), { a: 1, extra: true });
  assertObjectMatch(bare, { a: 1 });

  failsWith(() => assertObjectMatch({ a: 1 }, { a: 2 }));
  failsWith(() => assertObjectMatch({ a: 1 }, { a: 1, b: 2 }));
  failsWith(() => assertObjectMatch({ c: { d: 3 } }, { c: { d: 3, e: 4 } }));
  failsWith(() => assertObjectMatch({ re: /x/g }, { re: /x/i }));
});

Deno.test("assertArrayIncludes uses deep equality", () => {
  assertArrayIncludes([1, 2, 3], [3, 1]);
  assertArrayIncludes([{ a: 1 }, { b: 2 }], [{ b: 2 }]);
  assertArrayIncludes(new Uint8Array([1, 2, 3]), [2]);
  assertStringIncludes(failsWith(() => assertArrayIncludes([1, 2], [3])), "missing: [\n  3,\n]");
});

Deno.test("truthiness, existence, instance, match and string assertions", () => {
  assert(1);
  failsWith(() => assert(0, "zero"));
  assertFalse("");
  failsWith(() => assertFalse("x"));
  assertExists(0);
  assertExists("");
  failsWith(() => assertExists(null));
  failsWith(() => assertExists(undefined));
  assertInstanceOf(new Map(), Map);
  assertStringIncludes(
    failsWith(() => assertInstanceOf({}, Map)),
    'Expected object to be an instance of "Map" but was "Object"',
  );
  assertMatch("/users/42", /^\/users\/\d+$/);
  failsWith(() => assertMatch("/users/x", /^\/users\/\d+$/));
  assertNotMatch("/users/x", /\d/);
  failsWith(() => assertNotMatch("/users/1", /\d/));
  assertStringIncludes("hello world", "o w");
  failsWith(() => assertStringIncludes("hello", "world"));
});

Deno.test("numeric comparisons", () => {
  assertAlmostEquals(0.1 + 0.2, 0.3);
  assertAlmostEquals(1, 1.05, 0.1);
  failsWith(() => assertAlmostEquals(0.01, 0.02));
  assertGreater(2, 1);
  failsWith(() => assertGreater(1, 1));
  assertLess("a", "b");
  assertStringIncludes(failsWith(() => assertLess(2, 1)), "Expect 2 < 1");
  assertStringIncludes(failsWith(() => assertLess(2, 1, "mine")), "mine");
});

Deno.test("fail and unreachable always throw", () => {
  assertStringIncludes(failsWith(() => fail()), "Failed assertion.");
  assertStringIncludes(failsWith(() => fail("nope")), "Failed assertion: nope");
  assertStringIncludes(failsWith(() => unreachable()), "Unreachable.");
  const error = new AssertionError("m", { cause: "c" });
  assertEquals(error.name, "AssertionError");
  assertEquals(error.cause, "c");
  assertInstanceOf(error, Error);
});

Deno.test("the rest of std's API: or-equal comparisons, not-instance-of, is-error, unimplemented", () => {
  assertGreaterOrEqual(2, 2);
  assertLessOrEqual("a", "b");
  assertEquals(failsWith(() => assertGreaterOrEqual(1, 2)), "Expect 1 >= 2");
  assertEquals(failsWith(() => assertLessOrEqual(3, 2, "custom")), "custom");
  const value: string | Date = "text";
  assertNotInstanceOf(value, Date);
  const narrowed: string = value;
  assertEquals(narrowed, "text");
  assertEquals(
    failsWith(() => assertNotInstanceOf(new Date(0), Date)),
    'Expected object to not be an instance of "function".',
  );
  assertIsError(new TypeError("bad :id"), TypeError, "bad");
  assertIsError(new RangeError("x"));
  assertStringIncludes(failsWith(() => assertIsError("text")), "to be an Error object");
  assertStringIncludes(failsWith(() => assertIsError(new Error("a"), TypeError)), '"TypeError"');
  assertEquals(failsWith(() => unimplemented()), "Unimplemented.");
  assertEquals(failsWith(() => unimplemented("later")), "Unimplemented: later");
  const make: AnyConstructor = Date;
  const made: GetConstructorType<typeof Date> = new make(0);
  const like: ArrayLikeArg<number> = [1];
  const falsy: Falsy = 0;
  assertEquals([made.getTime(), like[0], falsy], [0, 1, 0]);
});
