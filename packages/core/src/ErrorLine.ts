/**
 * Why a program failed, in one line: what a command-line program prints on stderr before it
 * exits 1 (`dbplatform-emulator failed: ...`, `dbplatform-demo failed: ...`). One printer for
 * every program of the project, so that each says the same thing the same way and none prints
 * a secret.
 *
 * - An error of the SDK ({@link isDbPlatformError}) is its tag and its message, which names the
 *   method, route and status and never holds a key (`NotFound: GET /projects/...: 404 ...`).
 * - A `ConfigError` of `effect` (a missing or invalid environment variable) names each variable
 *   and what is wrong with it, but never the message of a value read with `Config.redacted`
 *   (which `effect` replaces with `<redacted>`): `configuration: Missing data at DBPLATFORM_API_KEY`.
 * - Any other error is its `_tag` (if it has one) and its `message`, or its text.
 *
 * Whitespace is folded to single spaces, other control and format characters are escaped, and a
 * line longer than {@link lineLimit} characters is cut.
 *
 * Errors of `@effect/cli` (`ValidationError`: bad flags) are not recognised here, as core does
 * not depend on `@effect/cli`: `@effect/cli` has already printed them with the help text, so a
 * program checks `ValidationError.isValidationError` itself before calling {@link fromCause}.
 *
 * @since 0.2.0
 */
import * as Cause from "effect/Cause"
import * as ConfigError from "effect/ConfigError"
import * as Option from "effect/Option"
import * as Predicate from "effect/Predicate"
import { isDbPlatformError } from "./ApiError.js"
import { escapeChar, unprintable } from "./internal/printable.js"

/**
 * The longest line, in characters; a longer one is cut and ends with `...`.
 *
 * @since 0.2.0
 * @category constants
 */
export const lineLimit = 1000

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

/** `text` on one line: whitespace runs folded to a space, other unprintable characters escaped, cut at {@link lineLimit}. */
const oneLine = (text: string): string => {
  let out = ""
  for (const char of text.replace(/\s+/gu, " ").trim()) {
    out += unprintable.test(char) ? escapeChar(char) : char
    if (out.length > lineLimit) return `${out.slice(0, lineLimit - 3)}...`
  }
  return out
}

/** The text of any error, before it is put on one line. */
const text = (error: unknown): string => {
  if (isDbPlatformError(error)) return `${error._tag}: ${error.message}`
  if (ConfigError.isConfigError(error)) return `configuration: ${configProblems(error).join("; ")}`
  if (Predicate.isObject(error)) {
    const tag = Predicate.hasProperty(error, "_tag") ? String(error._tag) : undefined
    const message = Predicate.hasProperty(error, "message") ? String(error.message) : undefined
    if (message === undefined || message === "") return tag ?? String(error)
    return tag === undefined || message.startsWith(tag) ? message : `${tag}: ${message}`
  }
  return String(error)
}

/**
 * One line saying what `error` is (see the module's description).
 *
 * @example
 * ```ts
 * import { ErrorLine, NotFound } from "@dbplatform/core"
 *
 * const error = new NotFound({ method: "DELETE", route: "/api_keys/{key_id}", path: "/api_keys/7", status: 404 })
 * console.log(ErrorLine.fromError(error)) // NotFound: DELETE /api_keys/{key_id}: 404 Not Found
 * console.log(ErrorLine.fromError(new Error("line one\nline two"))) // line one line two
 * ```
 *
 * @since 0.2.0
 * @category formatting
 */
export const fromError = (error: unknown): string => oneLine(text(error))

/**
 * One line saying why an effect failed: its first failure, or else its first defect (see
 * {@link fromError}), or `interrupted` when it was only interrupted.
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
export const fromCause = (cause: Cause.Cause<unknown>): string =>
  Option.match(
    Option.orElse(Cause.failureOption(cause), () => Cause.dieOption(cause)),
    {
      onNone: () => "interrupted",
      onSome: fromError
    }
  )
