/**
 * `Controller`: the optional base class of controllers, holding the class-level SEP setting.
 * @module
 */

/**
 * An optional base class for controllers. Its static `resourceActionSeparator` is the
 * class-level SEP setting of SPEC.md section 4, read by variant A at each `draw` when
 * the router has no `actionSeparator` option.
 *
 * @example A controller class
 * ```ts
 * import { Controller } from "@resource-router/router";
 *
 * class MessagesController extends Controller {
 *   index() {
 *     return "all messages";
 *   }
 * }
 * console.log(Controller.resourceActionSeparator); // "/"
 * ```
 */
export class Controller {
  /** SEP of variant A: what separates a path from a custom action name. Default `"/"`. */
  static resourceActionSeparator = "/";
}
