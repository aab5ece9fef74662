/**
 * What is wrong with a value that did not decode, in one short line, for every package of the
 * SDK: the client's `InvalidRequest` and `MalformedResponse`, the fake's 400 answers, and the
 * errors of seed and state files.
 *
 * Formatting walks the parse issue, never the value: a body nested thousands deep costs no more
 * than a flat one, and a value is quoted only as a short excerpt of a scalar, or not at all.
 *
 * @since 0.2.0
 */
import * as Option from "effect/Option"
import type * as ParseResult from "effect/ParseResult"
import * as AST from "effect/SchemaAST"
import { escapeChar, unprintable } from "./internal/printable.js"

/**
 * How a message is formatted: `maxIssues` (3 by default) problems at most, the rest summed up as
 * "and more"; `values: "excerpt"` (the default) quotes a refused scalar as a short
 * {@link excerpt}, `"never"` quotes no value (for bodies that may hold a secret): it then says
 * only what each schema expects, leaving out the messages of schemas and transformations, which
 * may quote the value they refused.
 *
 * @since 0.2.0
 * @category models
 */
export interface Options {
  readonly maxIssues?: number | undefined
  readonly values?: "excerpt" | "never" | undefined
}

/**
 * The longest excerpt of a value a message quotes, in characters (escapes included).
 *
 * @since 0.2.0
 * @category constants
 */
export const excerptLimit = 40

/** The longest message, in characters: a safety net, messages are shorter. */
const messageLimit = 400

/**
 * At most {@link excerptLimit} characters of `text`, with control, format and line-separator
 * characters escaped (`\n`, `\u202e`) and `...` at the end when cut. Reads only the first
 * `2 * excerptLimit` characters of `text`, whatever its length.
 *
 * @example
 * ```ts
 * import { excerpt } from "@dbplatform/core/DecodeIssue"
 *
 * console.log(excerpt("line\nbreak")) // line\nbreak (escaped)
 * console.log(excerpt("x".repeat(100)).length) // 40
 * ```
 *
 * @since 0.2.0
 * @category formatting
 */
export const excerpt = (text: string): string => {
  let out = ""
  for (const char of text.slice(0, 2 * excerptLimit)) {
    const shown = char === "\n" ? "\\n" : char === "\t" ? "\\t" : unprintable.test(char) ? escapeChar(char) : char
    if (out.length + shown.length > excerptLimit - 3) return `${out}...`
    out += shown
  }
  return out
}

/** A message set on a schema with a `message` annotation, as `ParseResult`'s formatters pick it. */
const annotatedMessage = (issue: ParseResult.ParseIssue): string | undefined => {
  if (!("ast" in issue)) return undefined
  const annotation = AST.getMessageAnnotation(issue.ast)
  if (Option.isNone(annotation)) return undefined
  const given = annotation.value(issue)
  // A message computed by an Effect is not run: the default is used instead.
  const current =
    typeof given === "string"
      ? { message: given, override: false }
      : typeof given === "object" && given !== null && "message" in given && typeof given.message === "string"
        ? { message: given.message, override: given.override === true }
        : undefined
  if (current === undefined) return undefined
  const useInner =
    !current.override &&
    (issue._tag === "Composite" ||
      (issue._tag === "Refinement" && issue.kind === "From") ||
      (issue._tag === "Transformation" && issue.kind !== "Transformation"))
  if (!useInner) return current.message
  return issue._tag === "Refinement" || issue._tag === "Transformation" ? annotatedMessage(issue.issue) : undefined
}

/** What a schema expects, in a few words: its identifier or title, or the kind of value. */
const expectation = (ast: AST.AST): string => {
  const named = Option.orElse(AST.getIdentifierAnnotation(ast), () => AST.getTitleAnnotation(ast))
  if (Option.isSome(named)) return named.value
  switch (ast._tag) {
    case "TypeLiteral":
      return "an object"
    case "TupleType":
      return "an array"
    case "Refinement":
      return expectation(ast.from)
    case "Transformation":
      return expectation(ast.to)
    default:
      return excerpt(String(ast))
  }
}

/** What a refused value is, without walking into it: its type, and a short excerpt of a scalar. */
const valueSummary = (value: unknown): string => {
  if (value === null) return "null"
  if (Array.isArray(value)) return `an array of ${value.length} items`
  switch (typeof value) {
    case "string":
      return `"${excerpt(value)}"`
    case "number":
    case "boolean":
    case "bigint":
      return excerpt(String(value))
    case "undefined":
      return "nothing"
    case "object":
      return "an object"
    default:
      return typeof value
  }
}

/**
 * The problems of `issue`, one per path, e.g. `operations.0.status: expected a string, got 12;
 * limit: must be an integer from 1 to 1000`. A message comes from the schema (its
 * `message` annotation, or what it expects); the value found is quoted only as `options.values`
 * allows.
 *
 * @since 0.2.0
 * @category formatting
 */
export const format = (issue: ParseResult.ParseIssue, options: Options = {}): string => {
  const maxIssues = options.maxIssues ?? 3
  const quote = options.values !== "never"
  const lines = new Map<string, string>()
  const visit = (issue: ParseResult.ParseIssue, path: ReadonlyArray<PropertyKey>): void => {
    if (lines.size > maxIssues) return
    const add = (message: string) => {
      const at = path.map((key) => excerpt(String(key))).join(".")
      if (!lines.has(at)) lines.set(at, message)
    }
    switch (issue._tag) {
      case "Type":
        add(
          quote
            ? (annotatedMessage(issue) ??
                (issue.message === undefined ? undefined : excerpt(issue.message)) ??
                `expected ${expectation(issue.ast)}, got ${valueSummary(issue.actual)}`)
            : // Messages of schemas and transformations may quote the value (`Unable to decode "…"`).
              `expected ${expectation(issue.ast)}`
        )
        break
      case "Missing":
        add("is missing")
        break
      case "Unexpected":
        add(issue.message ?? "is not a field this endpoint takes")
        break
      case "Forbidden":
        add("cannot be decoded synchronously")
        break
      case "Pointer":
        visit(issue.issue, path.concat(issue.path))
        break
      case "Composite": {
        const message = quote ? annotatedMessage(issue) : undefined
        if (message !== undefined) {
          add(message)
          break
        }
        const issues = (
          Array.isArray(issue.issues) ? issue.issues : [issue.issues]
        ) as ReadonlyArray<ParseResult.ParseIssue>
        // An optional field's union also fails as "not undefined": say only what the value should be.
        const named = issues.filter((inner) => !(inner._tag === "Type" && AST.isUndefinedKeyword(inner.ast)))
        for (const inner of named.length > 0 ? named : issues) visit(inner, path)
        break
      }
      case "Refinement":
      case "Transformation": {
        const message = quote ? annotatedMessage(issue) : undefined
        if (message === undefined) visit(issue.issue, path)
        else add(message)
        break
      }
    }
  }
  visit(issue, [])
  const all = Array.from(lines, ([at, message]) => (at === "" ? message : `${at}: ${message}`))
  const message = all.length > maxIssues ? `${all.slice(0, maxIssues).join("; ")}; and more` : all.join("; ")
  return message.length > messageLimit ? `${message.slice(0, messageLimit - 3)}...` : message
}
