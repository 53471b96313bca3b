/**
 * Requirement `RegExp`s of path variables: validated at declaration and rewritten into
 * one source that is safe to embed in a route's regular expression and in its
 * `URLPattern`.
 *
 * The rewrite does three things, so that the native matcher, the reference
 * `URLPattern` scan and generation all agree:
 * - every atom that could match `/` is narrowed so that it cannot (a variable never
 *   spans a `/`), without lookarounds: Deno's `URLPattern` rejects them;
 * - capturing groups become non-capturing (`URLPattern` rejects nested captures);
 * - the `i` flag is carried over by listing, with each literal and class, the characters
 *   the flag makes it match (or, in a negated class, not match), since a pattern has one
 *   set of flags for all its variables. Which those are is asked of the JavaScript engine
 *   itself (`caseVariants`), so the rewrite means what the user's `RegExp` means.
 *
 * Constructs that cannot be carried over (anchors, lookarounds, backreferences, an
 * explicit `/`, class escapes inside a set that could match `/`) are a `TypeError` that
 * names the variable and the requirement.
 * @module
 */

import { clipped, describe } from "./describe.ts";

/**
 * A requirement ready for use by the matchers and the generator.
 *
 * @example
 * ```ts
 * import { Router, type Requirement } from "@resource-router/router";
 *
 * const router = new Router().draw((map) =>
 *   map.connect("/files/:name", { controller: "files", requirements: { name: /[a-z.]+/i } })
 * );
 * const requirement: Requirement = router.routes[0].compiledRequirements.get("name")!;
 * console.log(requirement.test("Report.PDF"), requirement.admits("/")); // true false
 * ```
 */
export interface Requirement {
  /** The `RegExp` as the user gave it (a copy of its source and flags). */
  readonly original: RegExp;
  /**
   * The rewritten source: non-capturing, `/`-free, its `i` flag spelled out; valid with
   * `u` and `v`.
   */
  readonly source: string;
  /**
   * Whether a whole, still-encoded variable text meets it (`^(?:source)$` with the `u`
   * flag). A method, not that `RegExp`: tables share the requirement, and a `RegExp` can
   * be changed in place (`compile`), frozen or not.
   */
  test(text: string): boolean;
  /** Whether some text the requirement accepts contains `char` (a single character). */
  admits(char: string): boolean;
  /**
   * How many of its quantifiers are loops (`isLoop`): with two or more, a failing match
   * can take the square of the text's length. At least two where its parts multiply the
   * ways of one loop (`\d+(?:\d?){10}x`, 1,024 n ways on n digits).
   */
  readonly loops: number;
  /**
   * Whether it asserts a word boundary (`\b`, `\B`). At the variable's start that looks at
   * the character before it, so a route refuses such a requirement beside a letter, digit
   * or `_` of its own text (`/v:num`).
   */
  readonly boundaries: boolean;
  /**
   * The most UTF-16 code units a match can take (`Infinity` with a loop): a text longer
   * than that is no match, however long the router lets a variable be.
   */
  readonly maxLength: number;
  /** The fewest characters a match can take: a route refuses one over its limits. */
  readonly minLength: number;
}

const ALLOWED_FLAGS = new Set(["i", "u"]);

/**
 * The longest requirement source, in characters. Each character is at most one term of the
 * RegExps a route is matched with, and V8 fails to compile a RegExp of about 12,000 terms
 * in a row ("Stack overflow"); a route's requirements together get twice this (see
 * `compileRequirements` in `src/route.ts`). It also bounds the time the analysis takes.
 */
export const MAX_REQUIREMENT_LENGTH = 4096;
/** The deepest nesting of groups in a requirement (its analysis recurses into each). */
const MAX_GROUP_DEPTH = 64;

/** Options of {@linkcode checkWays}, and of {@linkcode compileRequirement} beside its own. */
export interface WaysOptions {
  /**
   * The longest text a variable can hold (the router's `maxParamLength`, or its
   * `maxPathLength` when that is smaller): a loop can share that many characters. Counted
   * as 1,024 when smaller or absent, so a requirement refused by default is refused under
   * any limits.
   */
  readonly longest?: number;
}

/** Options of {@linkcode compileRequirement}. */
export interface RequirementOptions extends WaysOptions {
  /** The variable it is the requirement of. */
  readonly name: string;
  /** The route template, for error messages. */
  readonly where: string;
}

/** Validates `value` as the requirement of a variable and rewrites it. */
export function compileRequirement(
  value: unknown,
  { name, where, ...options }: RequirementOptions,
): Requirement {
  const label = `requirement for :${name} in "${where}"`;
  if (!(value instanceof RegExp) || !isRealRegExp(value)) {
    throw new TypeError(`The ${label} must be a RegExp, got ${describe(value)}`);
  }
  // A copy from its own source and flags: what the checks below read is what runs, even
  // where the caller's object has getters of its own for `source` or `flags`.
  const regex = new RegExp(value);
  if (regex.source.length > MAX_REQUIREMENT_LENGTH) {
    throw new TypeError(
      `The ${label} (${clipped(String(regex))}) is ${regex.source.length} characters long; ` +
        `a requirement is at most ${MAX_REQUIREMENT_LENGTH}`,
    );
  }
  for (const flag of regex.flags) {
    if (!ALLOWED_FLAGS.has(flag)) {
      throw new TypeError(
        `The ${label} (${regex}) has the flag "${flag}"; only "i" and "u" are allowed`,
      );
    }
  }
  try {
    new RegExp(regex.source, "u");
  } catch {
    throw new TypeError(
      `The ${label} (${regex}) is not a valid Unicode pattern; write it so that it ` +
        `compiles with the "u" flag`,
    );
  }
  const loops = checkBacktracking(regex.source, `${label} (${regex})`);
  const atoms: string[] = [];
  const boundaries: string[] = [];
  const source = rewrite(regex.source, {
    flags: regex.flags,
    label: `${label} (${regex})`,
    atoms,
    boundaries,
  });
  const { maxLength, minLength, linear } = checkWays(source, `${label} (${regex})`, options);
  const whole = wholeText(source);
  if (whole.test("")) {
    throw new TypeError(
      `The ${label} (${regex}) matches the empty string; a variable matches one or more characters`,
    );
  }
  // Every character a match consumes is matched by one atom (a literal, a class, an
  // escape), so the atoms' union is the set of characters the requirement admits.
  const anyAtom = wholeText([...new Set(atoms)].join("|") || "[^\\s\\S]");
  // Frozen: tables share it (see the cache in route.ts), so none of them may change it.
  return Object.freeze<Requirement>({
    original: regex,
    source,
    test: (text) => whole.test(text),
    admits: (char) => anyAtom.test(char),
    loops: linear ? loops : Math.max(loops, 2),
    boundaries: boundaries.length > 0,
    maxLength,
    minLength,
  });
}

/**
 * Whether a value that inherits from `RegExp.prototype` is a regular expression, not an
 * object made from its prototype or a `Proxy` around one, whose `flags` and `source`
 * throw.
 */
function isRealRegExp(value: RegExp): boolean {
  // The `source` getter throws for anything without a RegExp's internal slots, and runs
  // no match (a pattern is only run once the checks below have passed it).
  try {
    SOURCE_OF.call(value);
    return value !== RegExp.prototype;
  } catch {
    return false;
  }
}

const SOURCE_OF = Object.getOwnPropertyDescriptor(RegExp.prototype, "source")!.get!;
const FLAGS_OF = Object.getOwnPropertyDescriptor(RegExp.prototype, "flags")!.get!;

/** A `RegExp` that tests a whole text against `source` (a pattern valid with `u`). */
export function wholeText(source: string): RegExp {
  return new RegExp(`^(?:${source})$`, "u");
}

/**
 * Whether `value` still has the source and flags of `original`, its copy made when it was
 * compiled: `RegExp.prototype.compile` changes both in place.
 */
export function unchangedSince(value: RegExp, original: RegExp): boolean {
  return SOURCE_OF.call(value) === original.source && FLAGS_OF.call(value) === original.flags;
}

/** A character class item: a code point range, or a class escape like `\d`. */
type ClassItem = { from: number; to: number } | { escape: string };

const SLASH = 0x2f;

/** How {@linkcode rewrite} reads a requirement. */
interface RewriteOptions {
  /** The user's flags (`i`, `u`). */
  readonly flags: string;
  /** The requirement, for error messages. */
  readonly label: string;
  /** Receives every atom that consumes a character, rewritten. */
  readonly atoms: string[];
  /** Receives each word-boundary assertion (`\b`, `\B`). */
  readonly boundaries: string[];
}

function rewrite(source: string, { flags, label, atoms, boundaries }: RewriteOptions): string {
  let out = "";
  let i = 0;
  const fail = (what: string): never => {
    throw new TypeError(`The ${label} uses ${what}, which is not supported in requirements`);
  };
  while (i < source.length) {
    const c = source[i];
    if (c === "\\") {
      const text = readEscape(source, i, label);
      i += text.length;
      const atom = rewriteEscape(text, { flags, label, fail });
      (text === "\\b" || text === "\\B" ? boundaries : atoms).push(atom);
      out += atom;
    } else if (c === "[") {
      const [items, negated, length] = readClass(source, i, label);
      const atom = foldAtom(source.slice(i, i + length), {
        emit: (adjust) => emitClass(items, { negated, label, adjust }),
        flags,
        label,
      });
      i += length;
      atoms.push(atom);
      out += atom;
    } else if (c === "(") {
      if (source.startsWith("(?:", i)) {
        out += "(?:";
        i += 3;
      } else if (source.startsWith("(?<", i) && !"=!".includes(source[i + 3])) {
        // A named group (the source compiled, so the name is valid; it may be any
        // identifier, `(?<été>` or an escaped `(?<\u{1d4d1}>`): a lookbehind is `(?<=`/`(?<!`.
        out += "(?:";
        i = source.indexOf(">", i) + 1;
      } else if (source[i + 1] === "?") {
        fail(`the group "${source.slice(i, i + 4)}" (lookarounds and modifiers)`);
      } else {
        out += "(?:";
        i += 1;
      }
    } else if (c === "^" || c === "$") {
      throw new TypeError(
        `The ${label} has the anchor "${c}"; requirements are anchored implicitly, remove it`,
      );
    } else if (c === ".") {
      atoms.push("[^\\/\\n\\r\\u2028\\u2029]");
      out += atoms.at(-1);
      i += 1;
    } else if (c === "/") {
      fail('a literal "/" (a variable never spans "/")');
    } else if (c === "{") {
      // Under the u flag (the source compiled with it above), a "{" opens a quantifier.
      const quantifier = source.slice(i).match(QUANTIFIER)![0];
      out += quantifier;
      i += quantifier.length;
    } else {
      const cp = source.codePointAt(i)!;
      const char = String.fromCodePoint(cp);
      i += char.length;
      if ("|)*+?".includes(char)) {
        out += char;
      } else {
        const atom = foldLiteral(cp, flags);
        atoms.push(atom);
        out += atom;
      }
    }
  }
  return out;
}

/** A quantifier at the start of a text: groups 1 to 3 are `{min,max}`'s min, comma and max. */
const QUANTIFIER = /^(?:[*+?]|\{(\d+)(?:(,)(\d*))?\})/;

/**
 * Refuses shapes that can backtrack catastrophically: a repeated group (`*`, `+`,
 * `{n,}`, `{n,m}` with m > 1) that holds an alternation, or a group and another
 * quantifier that is not a fixed count (`?` included), as in `(a|aa)*` or `((a+))+`.
 * Stricter than needed, never looser: a character class says the same thing safely
 * (`[a-z-]+` for `(?:[a-z]+-?)+`). Left to `checkWays`: a repeated group of atoms alone
 * that holds such a quantifier (`(a+)+`, `(-[a-z]+)*`), allowed only where a character
 * that starts it marks where each copy starts (`delimiter`), and a group copied a fixed
 * number of times (`(.*a){12}`, twelve loops in a row; `(?:\d{1,3}\.){3}`), taken as
 * its copies written out. Returns how many of its quantifiers are loops (`isLoop`), a
 * copied group's once a copy.
 */
function checkBacktracking(source: string, label: string): number {
  type Frame = { quantified: boolean; alternation: boolean; loops: boolean; groups?: boolean };
  const stack: Frame[] = [{ quantified: false, alternation: false, loops: false }];
  let closed: Frame | null = null;
  let loops = 0;
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    const top = stack[stack.length - 1];
    const [least, most, end] = quantifierAt(source, i);
    if (end > i) {
      const repeats = most > 1 && least !== most;
      if (repeats && (closed?.alternation || (closed?.quantified && closed.groups))) {
        throw repeatedGroupError(label);
      }
      // A group copied a fixed number of times holds its loops once a copy, as written
      // out (`checkWays` follows the copies themselves).
      if (least === most && closed?.loops) loops += least - 1;
      // Any quantifier that lets its atom match more than one length, `?` included:
      // `(?:aa?)+` shares a text as many ways as `(?:a|aa)+`.
      if (least !== most) top.quantified = true;
      if (isLoop(least, most)) {
        top.loops = true;
        loops++;
      }
      i = end;
      closed = null;
      continue;
    }
    closed = null;
    if (c === "\\" || c === "[") {
      i = atomEnd(source, i, label);
    } else if (c === "(") {
      stack.push({ quantified: false, alternation: false, loops: false });
      if (stack.length > MAX_GROUP_DEPTH + 1) {
        throw new TypeError(`The ${label} nests groups more than ${MAX_GROUP_DEPTH} deep`);
      }
      // Past the group's opening (`(?:`, `(?<name>`; the rewrite refuses lookarounds):
      // its "?" is no quantifier.
      const opening = source.slice(i).match(/^\((?:\?<(?![=!])[^>]*>|\?<?[:=!]?)?/)!;
      i += opening[0].length;
    } else if (c === ")" && stack.length > 1) {
      closed = stack.pop()!;
      const parent = stack[stack.length - 1];
      parent.quantified ||= closed.quantified;
      parent.alternation ||= closed.alternation;
      parent.loops ||= closed.loops;
      parent.groups = true;
      i += 1;
    } else {
      if (c === "|") top.alternation = true;
      i += 1;
    }
  }
  return loops;
}

function repeatedGroupError(label: string): TypeError {
  return new TypeError(
    `The ${label} repeats a group that holds another quantifier or an alternation, ` +
      `which can backtrack catastrophically; use a character class instead, or start the ` +
      `group with a character nothing else in it matches, as in (?:-[a-z0-9]+)*`,
  );
}

/**
 * Whether a quantifier repeats like a loop, for `checkBacktracking` and `checkWays`:
 * unbounded (`*`, `+`, `{n,}`), or bounded far above its minimum (`{1,9}`, not `{1,3}`).
 */
function isLoop(least: number, most: number): boolean {
  return most - least >= 8;
}

/** The characters an atom can match: exactly for ASCII, one flag for all the rest. */
interface CharSet {
  /** ASCII code points 0 to 127, one bit each, in four 32-bit words. */
  readonly ascii: readonly number[];
  /** Whether it may match a character outside ASCII (may say yes when it does not). */
  readonly other: boolean;
}

const NO_CHARS: CharSet = { ascii: [0, 0, 0, 0], other: false };

/** Where `checkWays` is in a source. */
interface Run {
  /** The ways the variable parts of the current run can share a text between them. */
  readonly ways: number;
  /** The most lengths one of those parts can take (given the others, it has one). */
  readonly largest: number;
  /** The characters those parts can match. */
  readonly chars: CharSet;
  /**
   * The ways the requirement can reach the run's start: alternatives that can match
   * the same text, and earlier runs that can end at one place in several ways. No later
   * character ends them: each tries everything after it again.
   */
  readonly branches: number;
  /**
   * The characters of the required atom the run just matched, if its last step was one:
   * each way that goes on ends where one of them is. A loop after it that cannot match
   * them takes a stretch of text that holds none, so the stretches it takes after two
   * such places do not overlap (`[^.]+-\d+` tries n ways on n characters, not n^2).
   */
  readonly fence?: CharSet;
}

const NO_RUN: Run = { ways: 1, largest: 1, chars: NO_CHARS, branches: 1 };

/**
 * The longest variable text a requirement is tested on by default (`maxParamLength`), and
 * the least that `checkWays` counts a loop as.
 */
export const LONGEST_DEFAULT = 1024;
/**
 * The most ways a requirement may try on a text it does not match: those of two loops on
 * `LONGEST_DEFAULT` characters (about 2 ms). Fixed, whatever the limits: where variables
 * can be longer, fewer shapes fit (two loops that can match the same characters took 72 ms
 * on 8,192 digits, 228 ms on 16,384).
 */
const MOST_WAYS = LONGEST_DEFAULT * LONGEST_DEFAULT;

function overlaps(a: CharSet, b: CharSet): boolean {
  return (a.other && b.other) || a.ascii.some((word, index) => (word & b.ascii[index]) !== 0);
}

function union(a: CharSet, b: CharSet): CharSet {
  return { ascii: a.ascii.map((word, index) => word | b.ascii[index]), other: a.other || b.other };
}

// Caches by text for the whole process, fed only by declarations. Together they hold at
// most about 1 M characters (about 2 to 4 MB), and forget all they hold past that: entry
// counts alone let long atoms (a class of 4,000 characters, rewritten as `\u{...}`) keep
// 132 MB.
const CHARS_OF = new Map<string, CharSet>();
/** Folded literals by flags and code point: the same letters recur across requirements. */
const foldedLiterals = new Map<string, string>();
/**
 * Folded classes and escapes by flags and text, as the user wrote them: each costs about a
 * millisecond to fold, and a requirement may repeat one (`[^\p{Lu}]{3}-[^\p{Lu}]`).
 */
const foldedAtoms = new Map<string, string>();
/** The characters the caches hold, each entry counted 32 more for its room. */
let cachedCharacters = 0;

/** Caches `value` (`size` characters) under `key` in `cache`; returns `value`. */
function remember<V>(cache: Map<string, V>, key: string, value: V, size: number): V {
  const characters = key.length + size + 32;
  cachedCharacters += characters;
  if (cachedCharacters > 1 << 20) {
    CHARS_OF.clear();
    foldedLiterals.clear();
    foldedAtoms.clear();
    cachedCharacters = characters;
  }
  cache.set(key, value);
  return value;
}

/** The characters of one atom of a rewritten source (a literal, an escape or a class). */
function charsOf(atom: string): CharSet {
  const known = CHARS_OF.get(atom);
  if (known !== undefined) return known;
  const test = wholeText(atom);
  const ascii = [0, 0, 0, 0];
  for (let code = 0; code < 128; code++) {
    if (test.test(String.fromCharCode(code))) ascii[code >> 5] |= 1 << (code & 31);
  }
  // The rewrite spells every character outside ASCII as \u{...} (or \x80 to \xff).
  const other = /\[\^|\\[pPWSDsu]|\\x[89a-fA-F]/.test(atom);
  const chars = { ascii, other };
  return remember(CHARS_OF, atom, chars, 0);
}

/**
 * Refuses a requirement that can match a text in so many ways that a backtracking engine,
 * on a text it does not match, tries them for seconds or minutes. Loops in a row that can
 * match the same characters share a text in about n^k ways for k loops (`\d+\d+\d+\d+x`
 * took 68 s on 1,024 digits); optional or bounded parts multiply in the same way
 * (`a?` twenty-eight times, `a{0,7}` twelve times: 2^28 and 8^12 ways), and a fixed
 * count among them is matched again for each way (`\d*\d*\d{500}`). A run is broken by a
 * required atom none of its parts can match (`\d+x\d+`, `\d+(?:\.\d+)?`), but the ways it
 * can end at one place (n for two loops) carry on: each tries everything after it again
 * (`\d+\d+x\d+\d+` is n^3). So do alternatives that can match the same text (that can
 * start with one character, or match nothing: `(?:a|a)`, `(?:a|)`); fixed copies multiply
 * them. A million ways are allowed: two loops where n is 1,024 (the default
 * `maxParamLength`), but not where `options.longest` makes n larger. Each way
 * through a group or an optional part is followed, fixed copies of a group one after
 * another, and where ways meet the larger counts and all their characters go on: stricter
 * than needed, never looser. Reads a source in the rewritten syntax (a requirement's, or
 * the `RegExp` that matches several variables of a route at once, which `label` names),
 * whose only constructs are literals, escapes, classes, `(?:` groups, `|` and quantifiers.
 * Returns the most UTF-16 code units a match can take (two for a character that may be
 * outside ASCII), `Infinity` with a loop; the fewest characters; and whether it shares a
 * text out in no more ways than one loop (`\d+(?:\d?){10}x` is one loop by `isLoop`, and
 * shares n digits in 1,024 n ways).
 */
export function checkWays(
  source: string,
  label: string,
  options: WaysOptions = {},
): { maxLength: number; minLength: number; linear: boolean } {
  const text = Math.max(LONGEST_DEFAULT, options.longest ?? LONGEST_DEFAULT);
  let i = 0;
  let peak = 0;
  // Each copy of a group repeated a fixed number of times is followed again, and so are the
  // copies of the groups inside it: nested, that is the product of their counts (a `{2}`
  // 22 deep took 5 s). Bounded: refusing takes about 15 ms.
  let steps = Math.max(10_000, 20 * source.length);
  /** What a piece or a sequence of them can match, besides the run after it. */
  type Shape = {
    chars: CharSet;
    first: CharSet;
    nullable: boolean;
    most: number;
    least: number;
    /** Whether it holds a quantifier that is not a fixed count. */
    varies: boolean;
  };
  /** The shape of no text: an empty sequence, or `\b`. */
  const EMPTY: Shape = {
    chars: NO_CHARS,
    first: NO_CHARS,
    nullable: true,
    most: 0,
    least: 0,
    varies: false,
  };
  /** Follows the alternatives up to the next ")" (or the end) from `run`. */
  const alternatives = (run: Run): Shape & { end: Run } => {
    const ends: Run[] = [];
    const shapes: Shape[] = [];
    let current = run;
    let shape = EMPTY;
    while (i < source.length && source[i] !== ")") {
      if (source[i] === "|") {
        ends.push(current);
        shapes.push(shape);
        current = run;
        shape = EMPTY;
        i += 1;
      } else {
        const next = piece(current);
        current = next.run;
        shape = {
          chars: union(shape.chars, next.chars),
          first: shape.nullable ? union(shape.first, next.first) : shape.first,
          nullable: shape.nullable && next.nullable,
          most: shape.most + next.most,
          least: shape.least + next.least,
          varies: shape.varies || next.varies,
        };
      }
    }
    ends.push(current);
    shapes.push(shape);
    let end = ends.reduce(merge);
    // Alternatives that can match the same text (both start with one character, or one
    // matches nothing) each go on to everything after them.
    const ambiguous = shapes.length > 1 &&
      (shapes.some(({ nullable }) => nullable) ||
        shapes.some((a, x) => shapes.some((b, y) => x < y && overlaps(a.first, b.first))));
    if (ambiguous) end = checked({ ...end, branches: end.branches * shapes.length });
    return {
      end,
      chars: shapes.map(({ chars }) => chars).reduce(union),
      first: shapes.map(({ first }) => first).reduce(union),
      nullable: shapes.some(({ nullable }) => nullable),
      most: Math.max(...shapes.map(({ most }) => most)),
      least: Math.min(...shapes.map(({ least }) => least)),
      varies: shapes.some(({ varies }) => varies),
    };
  };
  /** Follows one atom or group, with its quantifier: the run after it, and its shape. */
  const piece = (run: Run): Shape & { run: Run } => {
    if (--steps < 0) {
      throw new TypeError(
        `The ${label} nests groups repeated a fixed number of times too deeply to be checked ` +
          `in time; write it with fewer levels of nesting`,
      );
    }
    const start = i;
    let through: Run | undefined;
    let shape: Shape;
    let body = "";
    if (source.startsWith("(?:", i)) {
      i += 3;
      const group = alternatives(run);
      through = group.end;
      shape = group;
      body = source.slice(start + 3, i);
      i += 1; // ")"
    } else {
      i = atomEnd(source, i, label);
      // \b and \B match no character.
      if (/^\\[bB]$/.test(source.slice(start, i))) {
        return { run, ...EMPTY };
      }
      const chars = charsOf(source.slice(start, i));
      shape = {
        chars,
        first: chars,
        nullable: false,
        most: chars.other ? 2 : 1,
        least: 1,
        varies: false,
      };
    }
    const [min, max, end] = quantifierAt(source, i);
    i = end;
    const { chars, varies, most, least } = shape;
    // `&&`: no text repeated any number of times is no text (not `0 * Infinity`).
    shape = {
      ...shape,
      nullable: shape.nullable || min === 0,
      most: max && most && most * max,
      least: least * min,
      varies: varies || min !== max,
    };
    if (through !== undefined && min === max) {
      // A group copied a fixed number of times: each copy after the one followed above,
      // until a copy changes nothing (then no later one does) or the ways pass the limit.
      if (min === 0) return { run, ...shape };
      const after = i;
      for (let copy = 1; copy < min; copy++) {
        i = start + 3;
        const next: Run = alternatives(through).end;
        if (sameRun(next, through)) break;
        through = next;
      }
      i = after;
      return { run: through, ...shape };
    }
    // A group that holds a quantifier, repeated or optional with a loop (no more than
    // repeated), is one loop where its first character starts each copy: where the run
    // before it meets the group is decided by that character alone. Any other such
    // repeated group is refused; an optional one whose first character the run can match
    // is followed through below, as before.
    let lead = varies && through !== undefined && (max > 1 || most === Infinity)
      ? delimiter(body, label)
      : undefined;
    if (max < 2 && lead && run.ways > 1 && overlaps(lead, run.chars)) lead = undefined;
    if (lead === undefined && varies && max > 1) throw repeatedGroupError(label);
    // A bounded repeat of many more than its minimum trades like a loop.
    const choices = isLoop(min, max) || lead ? text : max - min + 1;
    const stepped = step(run, { chars, lead: lead ?? chars, choices, count: min, optional: !min });
    // Any other optional group may also be followed through (a repeated one holds no
    // alternation or group: checkBacktracking); a group taken once is followed through.
    if (through !== undefined && max <= 1 && !lead) {
      return { run: min === 0 ? merge(through, stepped) : through, ...shape };
    }
    return { run: stepped, ...shape };
  };
  /** One atom (or quantified group), matched `count` times or more, after `run`. */
  const step = (
    run: Run,
    atom: { chars: CharSet; lead: CharSet; choices: number; count: number; optional: boolean },
  ): Run => {
    const overlapping = run.ways > 1 && overlaps(atom.lead, run.chars);
    if (atom.choices > 1) {
      if (overlapping && run.fence && !atom.optional && !overlaps(run.fence, atom.chars)) {
        // Right after a fence it cannot match: its stretches after the places the run
        // can end at do not overlap, so its choices add up to the text's length over all
        // of those places. The ways that go on are then those the run can end at one
        // place in, times its choices; each way ending elsewhere fails at the fence.
        return checked({
          ways: (run.ways / run.largest) * atom.choices,
          largest: atom.choices,
          chars: union(run.chars, atom.chars),
          branches: run.branches,
        });
      }
      if (overlapping) {
        return checked({
          ways: run.ways * atom.choices,
          largest: Math.max(run.largest, atom.choices),
          chars: union(run.chars, atom.chars),
          branches: run.branches,
        });
      }
      const own = { ways: atom.choices, largest: atom.choices, chars: atom.chars };
      // An optional part the run cannot match may match nothing, and the run goes on;
      // a required one ends it, with the ways it can end at one place.
      return atom.optional ? merge(run, { ...own, branches: run.branches }) : checked({
        ...own,
        branches: run.branches * (run.ways / run.largest),
      });
    }
    // A fixed count the run can match is matched again for each of its ways.
    if (overlapping) {
      const fence = atom.optional ? run.fence : atom.chars;
      return checked({ ...run, ways: run.ways * Math.max(atom.count, 1), fence });
    }
    if (atom.optional || run.ways === 1) return run;
    return { ...NO_RUN, branches: run.branches * (run.ways / run.largest) };
  };
  const checked = (run: Run): Run => {
    // One loop over the text is one pass, whatever the limits: never refused. Anything
    // else gets the fixed budget (it grew with the limits once, and let `(?:a?){24}b`
    // through where values could be 2^24 characters long).
    const oneLoop = run.branches === 1 && run.ways === run.largest;
    peak = Math.max(peak, run.ways * run.branches);
    if (run.ways * run.branches > MOST_WAYS && !oneLoop) {
      throw new TypeError(
        `The ${label} has repeats in a row, or alternatives, that can match the same ` +
          `characters: on a text it does not match, a backtracking engine would try more ` +
          `than ${MOST_WAYS} ways to share it out, which can take minutes; put a character ` +
          `between them that the ones before it cannot match, or merge them into one` +
          (text > LONGEST_DEFAULT
            ? ` (the router's limits let a value be ${text} characters long)`
            : ""),
      );
    }
    return run;
  };
  const { most, least } = alternatives(NO_RUN);
  return { maxLength: most, minLength: least, linear: peak <= text };
}

/**
 * The characters that start each copy of a repeated group that holds a quantifier, in the
 * rewritten syntax: its first atom, matched once, where no other atom of the group can
 * match them, and no atom that can take several lengths can match what any atom after
 * it can (`(?:-[a-z0-9]+)*`, `(?:\.\d+[a-z]?)*`). Each copy then starts at one of those
 * characters, and is matched in one way once its end is known: the group shares a text
 * out in as many ways as one loop (`(?:-a+a+)*` takes 2^n/4 on `-aaa` repeated). Undefined
 * for any other group.
 */
function delimiter(body: string, label: string): CharSet | undefined {
  const atoms: { chars: CharSet; min: number; varies: boolean }[] = [];
  for (let i = 0; i < body.length;) {
    const start = i;
    i = atomEnd(body, i, label);
    const atom = body.slice(start, i);
    // A group (the rewrite of a class such as `[\Da]`) or a boundary: not told apart.
    if (/^(?:[(|]|\\[bB])$/.test(atom)) return undefined;
    const [min, max, end] = quantifierAt(body, i);
    i = end;
    atoms.push({ chars: charsOf(atom), min, varies: min !== max });
  }
  const [lead, ...rest] = atoms;
  const oneWay = lead.min > 0 && !lead.varies &&
    rest.every((atom, index) =>
      !overlaps(lead.chars, atom.chars) &&
      !(atom.varies && rest.slice(index + 1).some((later) => overlaps(atom.chars, later.chars)))
    );
  return oneWay ? lead.chars : undefined;
}

function sameRun(a: Run, b: Run): boolean {
  return a.ways === b.ways && a.largest === b.largest && a.branches === b.branches &&
    a.chars.other === b.chars.other &&
    a.chars.ascii.every((word, index) => word === b.chars.ascii[index]);
}

/** Where the atom at `i` of a rewritten source ends: an escape, a class or one character. */
function atomEnd(source: string, i: number, label: string): number {
  if (source[i] === "\\") return i + readEscape(source, i, label).length;
  if (source[i] === "[") return i + readClass(source, i, label)[2];
  return i + String.fromCodePoint(source.codePointAt(i)!).length;
}

/**
 * The least and most repeats of the quantifier at `i` (1 and 1 for none), and where it
 * ends. A lazy one (`+?`) tries the same ways in another order: its `?` is passed over.
 */
function quantifierAt(source: string, i: number): [number, number, number] {
  const quantifier = source.slice(i).match(QUANTIFIER);
  const end = i + (quantifier?.[0].length ?? 0);
  const lazy = quantifier !== null && source[end] === "?";
  return [...rangeOf(quantifier), end + (lazy ? 1 : 0)];
}

/** The least and most repeats of a quantifier (`QUANTIFIER`'s match), 1 and 1 for none. */
function rangeOf(quantifier: RegExpMatchArray | null): [number, number] {
  if (quantifier === null) return [1, 1];
  const [text, min, comma, max] = quantifier;
  if (text[0] === "*") return [0, Infinity];
  if (text[0] === "+") return [1, Infinity];
  if (text[0] === "?") return [0, 1];
  if (comma === undefined) return [Number(min), Number(min)];
  return [Number(min), max === "" ? Infinity : Number(max)];
}

/** Where two ways through a requirement meet: the larger counts, with all their characters. */
function merge(a: Run, b: Run): Run {
  return {
    ways: Math.max(a.ways, b.ways),
    largest: Math.max(a.largest, b.largest),
    chars: union(a.chars, b.chars),
    branches: Math.max(a.branches, b.branches),
  };
}

/** The escape at `i` (which holds `\`), as written. */
function readEscape(source: string, i: number, label: string): string {
  const next = source[i + 1];
  if (next === undefined) throw new TypeError(`The ${label} ends with a lone "\\"`);
  let match: RegExpMatchArray | null = null;
  if (next === "p" || next === "P") match = source.slice(i).match(/^\\[pP]\{[^}]*\}/);
  else if (next === "u") {
    // A surrogate pair written as two escapes is one character (U+1F600 for
    // \uD83D\uDE00), with or without the `u` flag.
    match = source.slice(i).match(
      /^\\u(\{[0-9A-Fa-f]+\}|[dD][89abAB][0-9A-Fa-f]{2}\\u[dD][c-fC-F][0-9A-Fa-f]{2}|[0-9A-Fa-f]{4})/,
    );
  } else if (next === "x") match = source.slice(i).match(/^\\x[0-9A-Fa-f]{2}/);
  else if (next === "c") match = source.slice(i).match(/^\\c[A-Za-z]/);
  else if (next === "k") match = source.slice(i).match(/^\\k<[^>]*>/);
  else if (/[1-9]/.test(next)) match = source.slice(i).match(/^\\[1-9][0-9]*/);
  const text = match ? match[0] : source.slice(
    i,
    i + 1 + String.fromCodePoint(
      source.codePointAt(i + 1)!,
    ).length,
  );
  return text;
}

/**
 * The code point an escape stands for, or `undefined` for a class escape. Assertions
 * (`\b`, `\B`) never come here: `rewriteEscape` and `readClass` take them first.
 */
function escapeCodePoint(text: string): number | undefined {
  const body = text.slice(1);
  switch (body[0]) {
    case "u":
      if (body.length === 11) {
        // A surrogate pair (see readEscape): `uD83D\uDE00`.
        const high = parseInt(body.slice(1, 5), 16);
        const low = parseInt(body.slice(7), 16);
        return (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
      }
      return parseInt(body.startsWith("u{") ? body.slice(2, -1) : body.slice(1), 16);
    case "x":
      return parseInt(body.slice(1), 16);
    case "c":
      return body.toUpperCase().charCodeAt(1) % 32;
    case "n":
      return 0x0a;
    case "r":
      return 0x0d;
    case "t":
      return 0x09;
    case "v":
      return 0x0b;
    case "f":
      return 0x0c;
    case "0":
      return 0;
    case "d":
    case "D":
    case "w":
    case "W":
    case "s":
    case "S":
    case "p":
    case "P":
      return undefined;
    default:
      return body.codePointAt(0);
  }
}

function rewriteEscape(
  text: string,
  { flags, label, fail }: { flags: string; label: string; fail: (what: string) => never },
): string {
  const kind = text[1];
  if (/[1-9]/.test(kind) || kind === "k") fail(`the backreference "${text}"`);
  // Without the u flag, \p{L} is the letter p and \u{41} 41 u's: not what they are read as.
  if (!flags.includes("u") && (kind === "p" || kind === "P" || text.startsWith("\\u{"))) {
    fail(`"${text}" without the u flag (which gives it its meaning)`);
  }
  if (kind === "b" || kind === "B") {
    // With i and u, \w and so \b count ſ and K (Kelvin) as word characters: no case-sensitive
    // text says that.
    if (flags.includes("i") && flags.includes("u")) fail(`"${text}" with the i and u flags`);
    return text;
  }
  if ("dwsDWSpP".includes(kind)) {
    return foldAtom(text, {
      emit: (adjust) => emitClass([{ escape: text }], { negated: false, label, adjust }),
      flags,
      label,
    });
  }
  const cp = escapeCodePoint(text)!;
  if (cp === SLASH) fail('a literal "/" (a variable never spans "/")');
  return foldLiteral(cp, flags);
}

/** Reads a class `[...]` at `i`; returns its items, whether negated, and its length. */
function readClass(
  source: string,
  start: number,
  label: string,
): [ClassItem[], boolean, number] {
  let i = start + 1;
  const negated = source[i] === "^";
  if (negated) i += 1;
  const items: ClassItem[] = [];
  const readAtom = (): ClassItem => {
    if (source[i] === "\\") {
      const text = readEscape(source, i, label);
      i += text.length;
      if (text === "\\b") return { from: 8, to: 8 };
      const cp = escapeCodePoint(text);
      return cp === undefined ? { escape: text } : { from: cp, to: cp };
    }
    const cp = source.codePointAt(i)!;
    i += String.fromCodePoint(cp).length;
    return { from: cp, to: cp };
  };
  while (i < source.length && source[i] !== "]") {
    const atom = readAtom();
    if (source[i] === "-" && source[i + 1] !== "]" && i + 1 < source.length && "from" in atom) {
      i += 1;
      const end = readAtom();
      if (!("from" in end)) {
        throw new TypeError(`The ${label} has a range ending in a class escape`);
      }
      items.push({ from: atom.from, to: end.from });
    } else {
      items.push(atom);
    }
  }
  if (source[i] !== "]") throw new TypeError(`The ${label} has an unclosed "["`);
  return [items, negated, i + 1 - start];
}

/**
 * Emits a class valid under both the `u` and the `v` flag that never matches `/`; with
 * `adjust`, one that also matches `adjust.extra` and not `adjust.removed` (see `foldAtom`).
 */
function emitClass(
  items: ClassItem[],
  { negated, label, adjust }: { negated: boolean; label: string; adjust: CaseAdjust },
): string {
  const ranges: { from: number; to: number }[] = [];
  const escapes: string[] = [];
  for (const item of items) {
    if ("escape" in item) escapes.push(item.escape);
    else ranges.push(item);
  }
  const extra = emitCodePoints(adjust.extra);
  const removed = emitCodePoints(adjust.removed);
  if (negated) {
    // A negated class excludes "/" by adding it to the excluded set.
    const excluded = `[^${ranges.map(emitRange).join("")}${escapes.join("")}\\/${removed}]`;
    return extra === "" ? excluded : `(?:${excluded}|[${extra}])`;
  }
  const simple: string[] = [];
  for (const { from, to } of ranges) {
    if (from <= SLASH && SLASH <= to) {
      if (from < SLASH) simple.push(emitRange({ from, to: SLASH - 1 }));
      if (to > SLASH) simple.push(emitRange({ from: SLASH + 1, to }));
    } else {
      simple.push(emitRange({ from, to }));
    }
  }
  if (extra !== "") simple.push(extra);
  // The complement of a negated escape (\D, \W, \S, \P{...}), which can match "/".
  const complements: string[] = [];
  for (const escape of escapes) {
    const canMatchSlash = new RegExp(`^${escape}$`, "u").test("/");
    if (!canMatchSlash) simple.push(escape);
    else if (/^\\[DWS]$/.test(escape)) complements.push(`\\${escape[1].toLowerCase()}`);
    else if (escape.startsWith("\\P")) complements.push(`\\p${escape.slice(2)}`);
    else {
      throw new TypeError(
        `The ${label} uses "${escape}", which can match "/"; a variable never spans "/", ` +
          `so exclude it`,
      );
    }
  }
  if (complements.length > 1) {
    throw new TypeError(
      `The ${label} puts ${complements.length} negated class escapes (\\D, \\W, \\S, \\P{...}) ` +
        `in one class; write it with one of them`,
    );
  }
  if (complements.length === 0) return simple.length === 0 ? "[^\\s\\S]" : `[${simple.join("")}]`;
  // Without "/" and without the class's other items, so that the two alternatives never
  // match one character (`[\D.]+` as an ambiguous alternation repeated is exponential).
  const rest = `[^${complements[0]}\\/${simple.join("")}${removed}]`;
  return simple.length === 0 ? rest : `(?:[${simple.join("")}]|${rest})`;
}

function emitRange({ from, to }: { from: number; to: number }): string {
  return from === to ? literal(from) : `${literal(from)}-${literal(to)}`;
}

/** A code point as an escape that means the same in and out of classes, u and v alike. */
function literal(cp: number): string {
  if (/[A-Za-z0-9]/.test(String.fromCodePoint(cp))) return String.fromCodePoint(cp);
  return cp <= 0xff ? `\\x${cp.toString(16).padStart(2, "0")}` : `\\u{${cp.toString(16)}}`;
}

/** Characters a case-sensitive rewrite of an atom must also match, or no longer match. */
interface CaseAdjust {
  readonly extra: readonly number[];
  readonly removed: readonly number[];
}

const NO_ADJUST: CaseAdjust = { extra: [], removed: [] };

/** Ascending code points as class items, runs of consecutive ones as ranges. */
function emitCodePoints(codePoints: readonly number[]): string {
  let out = "";
  for (let i = 0; i < codePoints.length;) {
    let end = i;
    while (end + 1 < codePoints.length && codePoints[end + 1] === codePoints[end] + 1) end++;
    out += emitRange({ from: codePoints[i], to: codePoints[end] });
    i = end + 1;
  }
  return out;
}

/** Text as a pattern matching it, with or without the u flag. */
export function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

/** The code points the `i` flag can concern, ascending: all, and those up to U+FFFF. */
let casedCodePoints: { all: number[]; bmp: number[] } | undefined;

/**
 * The characters the `i` flag can concern under `flags`: those that change when case-mapped
 * or case-folded (a character with a case counterpart does: the Kelvin sign folds to `k`).
 * None is above U+1FFFF; without the u flag, none above U+FFFF (a RegExp then reads UTF-16
 * units). Made on first use, in about 10 ms: only requirements with the `i` flag need it.
 */
function caseVariants(flags: string): readonly number[] {
  if (casedCodePoints === undefined) {
    const changes = /^[\p{CWCM}\p{CWCF}]$/u;
    const all: number[] = [];
    for (let cp = 0; cp <= 0x1ffff; cp++) {
      if (cp === 0xd800) cp = 0xe000;
      if (changes.test(String.fromCodePoint(cp))) all.push(cp);
    }
    casedCodePoints = { all, bmp: all.filter((cp) => cp <= 0xffff) };
  }
  return flags.includes("u") ? casedCodePoints.all : casedCodePoints.bmp;
}

/**
 * A literal, with the user's `i` flag carried over: it matches the characters the engine
 * takes as its other cases too.
 */
function foldLiteral(cp: number, flags: string): string {
  if (!flags.includes("i")) return literal(cp);
  const key = `${flags}${cp}`;
  let folded = foldedLiterals.get(key);
  if (folded === undefined) {
    const wanted = new RegExp(`^${escapeRegExp(String.fromCodePoint(cp))}$`, flags);
    const extra = caseVariants(flags).filter((other) =>
      other !== cp && wanted.test(String.fromCodePoint(other))
    );
    folded = extra.length === 0 ? literal(cp) : `[${literal(cp)}${emitCodePoints(extra)}]`;
    remember(foldedLiterals, key, folded, folded.length);
  }
  return folded;
}

/**
 * An escape or a class (`text`, as the user wrote it) rewritten by `emit`, with the user's
 * `i` flag carried over: `emit` writes it case-sensitively, given the characters to add or
 * remove. Which those are is asked of the engine: every character with a case counterpart
 * is tested against the atom under the user's flags and against the case-sensitive rewrite
 * (no other character can differ).
 */
function foldAtom(
  text: string,
  { emit, flags, label }: { emit: (adjust: CaseAdjust) => string; flags: string; label: string },
): string {
  const plain = emit(NO_ADJUST);
  if (!flags.includes("i")) return plain;
  const key = `${flags} ${text}`;
  const known = foldedAtoms.get(key);
  if (known !== undefined) return known;
  const wanted = new RegExp(`^(?:${text})$`, flags);
  const candidates = caseVariants(flags);
  const differences = (source: string) => {
    const written = wholeText(source);
    const extra: number[] = [];
    const removed: number[] = [];
    for (const cp of candidates) {
      const char = String.fromCodePoint(cp);
      const want = wanted.test(char);
      if (want !== written.test(char)) (want ? extra : removed).push(cp);
    }
    return { extra, removed };
  };
  const adjust = differences(plain);
  let folded = plain;
  if (adjust.extra.length > 0 || adjust.removed.length > 0) {
    folded = emit(adjust);
    const left = differences(folded);
    if (left.extra.length > 0 || left.removed.length > 0) {
      throw new TypeError(
        `The ${label} uses "${text}" with the i flag in a way a requirement cannot carry ` +
          `over; spell out the cases it should match`,
      );
    }
  }
  return remember(foldedAtoms, key, folded, folded.length);
}
