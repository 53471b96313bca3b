/**
 * The three variants of SPEC.md section 9 as data: one profile per variant, read by
 * the one route generator in `resources.ts`.
 * @module
 */

/**
 * The variant names of SPEC.md section 9.
 *
 * @example
 * ```ts
 * import { Router, type Variant } from "@resource-router/router";
 *
 * for (const variant of ["A", "B", "C"] as Variant[]) {
 *   const router = new Router({ variant }).draw((map) => map.resources("messages", { member: { mark: "post" } }));
 *   console.log(variant, router.helpers.mark_message_path(1)); // A: /messages/1/mark, B and C: /messages/1;mark
 * }
 * ```
 */
export type Variant = "A" | "B" | "C";

/** A group of routes of a resource, in the order a profile registers them. */
export type RouteGroup =
  | "index"
  | "create"
  | "new"
  | "collection"
  | "show"
  | "update"
  | "destroy"
  | "member";

/** How one variant differs from the others (SPEC.md section 9, API.md "Route order"). */
export interface VariantProfile {
  /** The variant's name. */
  readonly variant: Variant;
  /** `map.resource` exists. */
  readonly singletons: boolean;
  /** Named custom-action routes use the configurable separator (A) instead of `;`. */
  readonly configurableSeparator: boolean;
  /** A formatted custom action puts `.:format` after the action (A) or before `;a` (B, C). */
  readonly formatAfterAction: boolean;
  /** Unnamed `<p>;a` and `<p>.:format;a` routes beside the named ones (A). */
  readonly unnamedSemicolonRoutes: boolean;
  /** The name prefix goes after the action word (A: `a_<NP>P`) or before it (`<NP>a_P`). */
  readonly prefixAfterAction: boolean;
  /** Old-style names are registered as deprecated (A). */
  readonly deprecatedNames: boolean;
  /** Nesting passes the name prefix `<parent new_name_prefix><S>_` down (A). */
  readonly nestingNamePrefix: boolean;
  /** show, edit, update and destroy of collection resources carry the `:id` requirement. */
  readonly idRequirement: boolean;
  /** Registration order of the groups of a collection resource. */
  readonly collectionOrder: readonly RouteGroup[];
  /** Registration order of the groups of a singleton resource. */
  readonly singletonOrder: readonly RouteGroup[];
}

const ORDER_AB: readonly RouteGroup[] = [
  "index",
  "create",
  "new",
  "collection",
  "show",
  "update",
  "destroy",
  "member",
];
const ORDER_C: readonly RouteGroup[] = [
  "collection",
  "index",
  "create",
  "new",
  "member",
  "show",
  "update",
  "destroy",
];
const SINGLETON_ORDER: readonly RouteGroup[] = ORDER_AB.filter((group) => group !== "index");

const PROFILE_B: VariantProfile = {
  variant: "B",
  singletons: true,
  configurableSeparator: false,
  formatAfterAction: false,
  unnamedSemicolonRoutes: false,
  prefixAfterAction: false,
  deprecatedNames: false,
  nestingNamePrefix: false,
  idRequirement: true,
  collectionOrder: ORDER_AB,
  singletonOrder: SINGLETON_ORDER,
};

/** The profiles, by variant name: B is the base; A and C say how they differ from it. */
export const PROFILES: Readonly<Record<Variant, VariantProfile>> = {
  A: {
    ...PROFILE_B,
    variant: "A",
    configurableSeparator: true,
    formatAfterAction: true,
    unnamedSemicolonRoutes: true,
    prefixAfterAction: true,
    deprecatedNames: true,
    nestingNamePrefix: true,
  },
  B: PROFILE_B,
  C: {
    ...PROFILE_B,
    variant: "C",
    singletons: false,
    idRequirement: false,
    collectionOrder: ORDER_C,
  },
};
