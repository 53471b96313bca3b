/**
 * Resource records (SPEC.md 2.1, 2.4) and the one generator of their routes, which
 * reads a variant profile for every point where the variants differ.
 * @module
 */

import { defaultRule, type RouteMethod, type RouteSpec } from "./route.ts";
import type { RouteGroup, VariantProfile } from "./variants.ts";

/** Actions grouped by method, methods in the order they first appear. */
export type ActionGroups = ReadonlyMap<RouteMethod, readonly string[]>;

/** The internal values derived from one resource declaration. */
export interface ResourceRecord {
  /** `map.resource` (no index, no `:id`). */
  readonly singleton: boolean;
  /** P; for a singleton, the given name. */
  readonly plural: string;
  /** S; for a singleton, the given name. */
  readonly singular: string;
  /** C. */
  readonly controller: string;
  /** PP without a trailing `/`; `""` when absent. */
  readonly pathPrefix: string;
  /** NP as the user gave it; `""` when absent. */
  readonly namePrefix: string;
  /** The name prefix received from nesting (variant A); `""` when none. */
  readonly newNamePrefix: string;
  /** Custom collection actions. */
  readonly collection: ActionGroups;
  /** Member actions, `edit` included. */
  readonly member: ActionGroups;
  /** New actions, `new` included. */
  readonly new: ActionGroups;
}

/** What one declaration adds to the table. */
export interface ResourceOutput {
  /** The routes, in registration order. */
  readonly routes: RouteSpec[];
  /** Deprecated name to current name (variant A). */
  readonly deprecated: [string, string][];
  /** The path of one resource: `/messages/:id`, or a singleton's own. */
  readonly memberPath: string;
  /** What nested declarations inherit. */
  readonly nesting: Scope;
}

/** What a nested mapper inherits: the path prefix and (variant A) the name prefix. */
export interface Scope {
  /** The path its routes start with. */
  readonly pathPrefix: string;
  /** The name prefix of variant A's nesting (SPEC.md 4.5.3). */
  readonly newNamePrefix: string;
  /**
   * The routes of the resource whose block this is that extend its member path with a new
   * segment (variant A's member actions; for a singleton, whose member path is its path,
   * its `new` routes too, and in variant A its collection actions), by method and the rest
   * of their path: a nested route at the path prefix above (of the member path's shape)
   * and the same rest could never be reached.
   */
  readonly taken?: {
    readonly byRest: ReadonlyMap<string, RouteSpec>;
    /** The first segment of each rest, without its `/`. */
    readonly heads: ReadonlySet<string>;
  };
}

/** The actions whose `:id` has the default rule as its requirement (variants A and B). */
const ID_ACTIONS = new Set(["show", "edit", "update", "destroy"]);

/**
 * Groups a caller's action hash by method and adds the default action (`edit` or `new`)
 * at the front of the `GET` group (SPEC.md 2.3); a `GET` group the caller did not name
 * comes after the caller's groups.
 */
export function groupActions(
  actions: ReadonlyMap<string, RouteMethod>,
  defaultAction?: string,
): ActionGroups {
  const groups = new Map<RouteMethod, string[]>();
  for (const [action, method] of actions) {
    const group = groups.get(method) ?? [];
    if (!groups.has(method)) groups.set(method, group);
    group.push(action);
  }
  if (defaultAction !== undefined) {
    const get = groups.get("GET") ?? [];
    groups.set("GET", [defaultAction, ...get.filter((action) => action !== defaultAction)]);
  }
  return groups;
}

/** Generates the routes of a resource record in the order of the variant's profile. */
export function resourceRoutes(
  record: ResourceRecord,
  profile: VariantProfile,
  separator: string,
): ResourceOutput {
  const routes: RouteSpec[] = [];
  const deprecated: [string, string][] = [];
  const { singleton, plural, singular, controller } = record;
  const path = `${record.pathPrefix}/${plural}`;
  const newPath = `${path}/new`;
  const memberPath = singleton ? path : `${path}/:id`;

  // SPEC.md 4.3.4: NP empty but a nesting prefix exists: the nesting prefix becomes NP
  // and the unprefixed names are the old ones.
  const nested = profile.nestingNamePrefix && record.namePrefix === "" &&
    record.newNamePrefix !== "";
  const prefix = nested ? record.newNamePrefix : record.namePrefix;
  const oldPrefix = profile.deprecatedNames && (nested || prefix !== "") ? record.namePrefix : null;

  const nameFor = (words: string, base: string, namePrefix: string, afterAction: boolean) =>
    words === ""
      ? `${namePrefix}${base}`
      : afterAction
      ? `${words}_${namePrefix}${base}`
      : `${namePrefix}${words}_${base}`;

  let rule: RegExp | undefined;
  const add = (
    name: string | null,
    method: RouteMethod,
    routePath: string,
    action: string,
  ) => {
    const requirements: Record<string, RegExp> =
      profile.idRequirement && !singleton && ID_ACTIONS.has(action) &&
        // The paths with `:id` are the member path's: the rest of a path is the prefix
        // (where an `:id` would be named twice, refused) and names with no `:` in them.
        routePath.startsWith(memberPath)
        ? { id: rule ??= defaultRule() }
        : {};
    routes.push({
      name,
      method,
      path: routePath,
      controller,
      action,
      requirements,
      defaults: {},
      optionalTrailing: false,
    });
  };

  /** A named route and its formatted twin; `words` is the action part of the name. */
  const named = (
    words: string,
    base: string,
    method: RouteMethod,
    action: string,
    paths: [plain: string, formatted: string, ...unnamed: string[]],
  ) => {
    const name = nameFor(words, base, prefix, profile.prefixAfterAction);
    if (oldPrefix !== null) {
      const old = nameFor(words, base, oldPrefix, false);
      if (old !== name) {
        deprecated.push([old, name], [`formatted_${old}`, `formatted_${name}`]);
      }
    }
    const [plain, formatted, ...unnamed] = paths;
    add(name, method, plain, action);
    for (const extra of unnamed) add(null, method, extra, action);
    add(`formatted_${name}`, method, formatted, action);
  };

  /** The paths of custom action `a` on base path `p` (API.md "Route order"). */
  const actionPaths = (p: string, a: string): [string, string, ...string[]] => {
    const plain = `${p}${separator}${a}`;
    const paths: [string, string, ...string[]] = [
      plain,
      profile.formatAfterAction ? `${plain}.:format` : `${p}.:format;${a}`,
    ];
    if (profile.unnamedSemicolonRoutes) {
      paths.push(...[`${p};${a}`, `${p}.:format;${a}`].filter((extra) => extra !== plain));
    }
    return paths;
  };

  const unnamedPair = (method: RouteMethod, routePath: string, action: string) => {
    add(null, method, routePath, action);
    add(null, method, `${routePath}.:format`, action);
  };

  const eachAction = (
    groups: ActionGroups,
    emit: (action: string, method: RouteMethod) => void,
  ) => {
    for (const [method, actions] of groups) for (const action of actions) emit(action, method);
  };

  const indexBase = singular === plural ? `${plural}_index` : plural;
  const emitters: Record<RouteGroup, () => void> = {
    index: () => named("", indexBase, "GET", "index", [path, `${path}.:format`]),
    create: () => unnamedPair("POST", path, "create"),
    new: () =>
      eachAction(record.new, (action, method) => {
        if (action === "new") {
          named("new", singular, method, action, [newPath, `${newPath}.:format`]);
        } else {
          named(`${action}_new`, singular, method, action, actionPaths(newPath, action));
        }
      }),
    collection: () =>
      eachAction(record.collection, (action, method) => {
        named(action, plural, method, action, actionPaths(path, action));
      }),
    show: () => named("", singular, "GET", "show", [memberPath, `${memberPath}.:format`]),
    update: () => unnamedPair("PUT", memberPath, "update"),
    destroy: () => unnamedPair("DELETE", memberPath, "destroy"),
    member: () =>
      eachAction(record.member, (action, method) => {
        named(action, singular, method, action, actionPaths(memberPath, action));
      }),
  };
  for (const group of singleton ? profile.singletonOrder : profile.collectionOrder) {
    emitters[group]();
  }

  return {
    routes,
    deprecated,
    memberPath,
    nesting: {
      pathPrefix: singleton ? path : `${path}/:${singular}_id`,
      newNamePrefix: profile.nestingNamePrefix ? `${record.newNamePrefix}${singular}_` : "",
    },
  };
}
