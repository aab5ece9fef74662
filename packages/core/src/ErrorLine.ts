/**
 * Why a program failed, in one line: what a command-line program prints on stderr before it
 * exits 1 (`dbplatform-emulator failed: ...`, `dbplatform-demo failed: ...`). One printer for
 * every program of the project, so that each says the same thing the same way and none prints
 * a secret.
 *
 * - An error of the SDK ({@link isDbPlatformError}) is its tag and its message, which names the
 *   method, the path sent (ids filled in, no query), the status, the server's message and the
 *   request id (`Locked: POST /projects/spring-x-1/endpoints/ep-a-1/suspend: 423 Locked: ...`)
 *   and never holds a key.
 * - A `ConfigError` of `effect` (a missing or invalid environment variable) names each variable
 *   and what is wrong with it, but never the message of a value read with `Config.redacted`
 *   (which `effect` replaces with `<redacted>`): `configuration: Missing data at DBPLATFORM_API_KEY`.
 * - An error of `@effect/cli` (`ValidationError`: bad flags, recognised by its type id, as core
 *   does not depend on `@effect/cli`) is `invalid arguments (see above)`: `@effect/cli` has
 *   already printed what is wrong, with the help text.
 * - Any other error is its `_tag` (if it has one) and its `message` (or, without one, its
 *   `cause`'s message), or its text.
 *
 * With `verbose` (what a program's `--verbose` turns on), the line goes on with what the message
 * leaves out: the endpoint's route template (`/projects/{project_id}/endpoints/{endpoint_id}/suspend`)
 * and the server's error code of an error response, and each link of the error's `cause` chain (name, code, message; e.g. the network error under a
 * `TransportError`).
 *
 * Whitespace is folded to single spaces, other control and format characters are escaped, and a
 * line longer than {@link lineLimit} characters is cut.
 *
 * @since 0.2.0
 */
import * as Cause from "effect/Cause"
import * as ConfigError from "effect/ConfigError"
import * as Option from "effect/Option"
import * as Predicate from "effect/Predicate"
import * as Runtime from "effect/Runtime"
import { isDbPlatformError } from "./ApiError.js"
import { escapeChar, unprintable } from "./internal/printable.js"

/**
 * The longest line, in characters; a longer one is cut and ends with `...`.
 *
 * @since 0.2.0
 * @category constants
 */
export const lineLimit = 1000

/**
 * How much to say.
 *
 * @since 0.2.0
 * @category models
 */
export interface Options {
  /**
   * Also the route template and the server's error code (an error response), and each link of the
   * error's `cause` chain (at most {@link causeDepth}): what a program's `--verbose` prints.
   * Off by default.
   */
  readonly verbose?: boolean | undefined
}

/**
 * The most links of a `cause` chain `verbose` follows.
 *
 * @since 0.2.0
 * @category constants
 */
export const causeDepth = 5

/** The type id of `@effect/cli`'s `ValidationError` (bad flags). */
const validationErrorTypeId = Symbol.for("@effect/cli/ValidationError")

/**
 * Whether `u` is an error of `@effect/cli` (a `ValidationError`: an unknown flag, a bad value, a
 * missing argument), which `@effect/cli` has already printed with the help text; by its type
 * id, so that core need not depend on `@effect/cli`.
 *
 * @example
 * ```ts
 * import { ErrorLine } from "@dbplatform/core"
 *
 * console.log(ErrorLine.isValidationError(new Error("x"))) // false
 * ```
 *
 * @since 0.2.0
 * @category guards
 */
export const isValidationError = (u: unknown): boolean => Predicate.hasProperty(u, validationErrorTypeId)

/** What `effect` puts in place of the message of a value read with `Config.redacted`. */
const redacted = "<redacted>"

/** The problems of a `ConfigError`, each naming its variable, without a redacted message. */
const configProblems = (error: ConfigError.ConfigError): ReadonlyArray<string> => {
  switch (error._op) {
    case "And":
    case "Or":
      return [...configProblems(error.left), ...configProblems(error.right)]
    default: {
      const what = {
        MissingData: "Missing data",
        InvalidData: "Invalid data",
        SourceUnavailable: "Source unavailable",
        Unsupported: "Unsupported"
      }[error._op]
      const at = error.path.length === 0 ? "" : ` at ${error.path.join(".")}`
      const message = error.message === redacted || error.message === "" ? "" : `: ${error.message}`
      return [`${what}${at}${message}`]
    }
  }
}

/**
 * `text` on one line: whitespace runs folded to a space, other unprintable characters escaped,
 * cut at {@link lineLimit} characters (code points: a cut never splits one in two).
 */
const oneLine = (text: string): string => {
  const out: Array<string> = []
  let length = 0
  for (const char of text.replace(/\s+/gu, " ").trim()) {
    const shown = unprintable.test(char) ? escapeChar(char) : char
    out.push(shown)
    // One character, or its escape (ASCII only).
    length += shown === char ? 1 : shown.length
    if (length > lineLimit)
      return `${Array.from(out.join(""))
        .slice(0, lineLimit - 3)
        .join("")}...`
  }
  return out.join("")
}

/** `u` as text, even when it has no text of its own (`Object.create(null)`) or its `toString` throws. */
const show = (u: unknown): string => {
  try {
    return String(u)
  } catch {
    return Object.prototype.toString.call(u)
  }
}

/** A property of `u` that is a non-empty string, if any. */
const stringProperty = (u: unknown, key: string): string | undefined =>
  Predicate.hasProperty(u, key) && typeof u[key] === "string" && u[key] !== "" ? u[key] : undefined

/** One link of a cause chain: `TypeError: fetch failed`, `Error [ECONNREFUSED]: connect ECONNREFUSED 127.0.0.1:1`. */
const link = (cause: unknown): string => {
  if (!Predicate.isObject(cause)) return show(cause)
  const name = stringProperty(cause, "_tag") ?? stringProperty(cause, "name") ?? "Error"
  const code = stringProperty(cause, "code")
  const message = stringProperty(cause, "message")
  return `${name}${code === undefined ? "" : ` [${code}]`}${message === undefined ? "" : `: ${message}`}`
}

/** What `verbose` adds: route template, error code, then each link of the `cause` chain. */
const details = (error: unknown): string => {
  const parts: Array<string> = []
  if (isDbPlatformError(error)) {
    const route = stringProperty(error, "route")
    const code = stringProperty(error, "code")
    if (route !== undefined) parts.push(`route: ${route}`)
    if (code !== undefined) parts.push(`error code: ${code}`)
  }
  let cause: unknown = Predicate.hasProperty(error, "cause") ? error.cause : undefined
  for (let depth = 0; cause !== undefined && cause !== null && depth < causeDepth; depth++) {
    parts.push(`caused by ${link(cause)}`)
    cause = Predicate.hasProperty(cause, "cause") ? cause.cause : undefined
  }
  return parts.map((part) => `; ${part}`).join("")
}

/** The text of any error, before it is put on one line. */
const text = (error: unknown): string => {
  if (isDbPlatformError(error)) return `${error._tag}: ${error.message}`
  if (isValidationError(error)) return "invalid arguments (see above)"
  if (ConfigError.isConfigError(error)) return `configuration: ${configProblems(error).join("; ")}`
  if (Predicate.isObject(error)) {
    const tag = Predicate.hasProperty(error, "_tag") ? show(error._tag) : undefined
    const message = Predicate.hasProperty(error, "message") ? show(error.message) : undefined
    if (message === undefined || message === "") {
      // No message of its own (`ServeError`): its cause's says why.
      const because = Predicate.hasProperty(error, "cause") ? stringProperty(error.cause, "message") : undefined
      return because === undefined ? (tag ?? show(error)) : `${tag ?? "Error"}: ${because}`
    }
    return tag === undefined || message.startsWith(tag) ? message : `${tag}: ${message}`
  }
  return show(error)
}

/**
 * One line saying what `error` is (see the module's description); with `verbose`, also the
 * route template, the server's error code and the `cause` chain.
 *
 * @example
 * ```ts
 * import { ErrorLine, NotFound } from "@dbplatform/core"
 *
 * const error = new NotFound({ method: "DELETE", route: "/api_keys/{key_id}", path: "/api_keys/7", status: 404 })
 * console.log(ErrorLine.fromError(error)) // NotFound: DELETE /api_keys/7: 404 Not Found
 * console.log(ErrorLine.fromError(new Error("line one\nline two"))) // line one line two
 * const wrapped = new Error("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) })
 * console.log(ErrorLine.fromError(wrapped, { verbose: true }))
 * // fetch failed; caused by Error [ECONNREFUSED]: connect ECONNREFUSED
 * ```
 *
 * @since 0.2.0
 * @category formatting
 */
export const fromError = (error: unknown, options: Options = {}): string => {
  // A promise rejected by `Effect.runPromise` holds the cause: its error says more than the rejection.
  if (Runtime.isFiberFailure(error)) return fromCause(error[Runtime.FiberFailureCauseId], options)
  try {
    return oneLine(options.verbose === true ? `${text(error)}${details(error)}` : text(error))
  } catch {
    // A property that throws when read: printing the failure must not fail in turn.
    return `an error that cannot be printed (${Object.prototype.toString.call(error)})`
  }
}

/**
 * One line saying why an effect failed: its first failure, or else its first defect (see
 * {@link fromError}; `options` as there), or `interrupted` when it was only interrupted.
 *
 * @example
 * ```ts
 * import { ErrorLine } from "@dbplatform/core"
 * import * as Cause from "effect/Cause"
 * import * as FiberId from "effect/FiberId"
 *
 * console.log(ErrorLine.fromCause(Cause.die(new Error("boom")))) // boom
 * console.log(ErrorLine.fromCause(Cause.interrupt(FiberId.none))) // interrupted
 * ```
 *
 * @since 0.2.0
 * @category formatting
 */
export const fromCause = (cause: Cause.Cause<unknown>, options: Options = {}): string =>
  Option.match(
    Option.orElse(Cause.failureOption(cause), () => Cause.dieOption(cause)),
    {
      onNone: () => "interrupted",
      onSome: (error) => fromError(error, options)
    }
  )

/**
 * The line a program named `program` prints on stderr before it exits 1:
 * `<program> failed: <reason>`, the reason as {@link fromCause} says it (`options` as there),
 * ending with a line feed. Both commands of the project (`dbplatform-emulator`,
 * `dbplatform-demo`) print their failures with it.
 *
 * @example
 * ```ts
 * import { ErrorLine, Unauthorized } from "@dbplatform/core"
 * import * as Cause from "effect/Cause"
 *
 * const error = new Unauthorized({
 *   method: "GET",
 *   route: "/projects",
 *   path: "/projects",
 *   status: 401,
 *   description: "API key is not valid",
 *   requestId: "3f2c9a"
 * })
 * process.stderr.write(ErrorLine.failure("my-tool", Cause.fail(error)))
 * // my-tool failed: Unauthorized: GET /projects: 401 Unauthorized: API key is not valid (request id 3f2c9a)
 * ```
 *
 * @since 0.2.0
 * @category formatting
 */
export const failure = (program: string, cause: Cause.Cause<unknown>, options: Options = {}): string =>
  `${program} failed: ${fromCause(cause, options)}\n`
