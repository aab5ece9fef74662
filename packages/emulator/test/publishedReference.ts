/**
 * The platform's published OpenAPI v2 document as validators, for tests only: it is read from the
 * `@neondatabase/api-client` package in `node_modules` (a dev dependency; the document's own
 * licence is proprietary, so nothing of it is copied into this repository), and each response
 * schema is compiled with Ajv 8 (`ajv` + `ajv-formats`).
 *
 * OpenAPI 3.0 schemas are not JSON Schema; before compiling, each is rewritten:
 * - `nullable: true` becomes "or null";
 * - the siblings of a `$ref` are dropped (OpenAPI 3.0 ignores them);
 * - a boolean `exclusiveMinimum` / `exclusiveMaximum` becomes the numeric form;
 * - a `oneOf` with a `discriminator` whose `mapping` names its members becomes a `oneOf` of each
 *   member with its discriminator's value required (OpenAPI picks the member by that value; the
 *   email provider's `type`, whose members do not declare it, would otherwise match both);
 * - `example`, `examples`, `xml`, `discriminator`, `deprecated` and `x-*` are removed;
 * - `#/components/...` references point into the document registered under {@link documentId}.
 * Formats Ajv does not know (in the document of version 2.7.3: `int` and `uint64`) are accepted as
 * they are: {@link unknownFormats} lists those met.
 */
import { Ajv, type ValidateFunction } from "ajv"
import formats from "ajv-formats"
import { load as parseYaml } from "js-yaml"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

const documentId = "https://dbplatform.test/published-v2.json"

type Json = { [key: string]: unknown }

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

/** Where the published document is: beside the package's `package.json`. */
export const documentPath = (): string => {
  const require = createRequire(import.meta.url)
  const main = require.resolve("@neondatabase/api-client")
  // `main` is `dist/index.js`: the document sits at the package's root.
  return join(dirname(main), "..", "public-v2-for-users.gen.yaml")
}

const dropped = new Set(["example", "examples", "xml", "discriminator", "deprecated"])

/** One OpenAPI 3.0 schema (or any node of the document) rewritten as JSON Schema for Ajv. */
const convert = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(convert)
  if (!isObject(node)) return node
  if (typeof node.$ref === "string") {
    return { $ref: node.$ref.startsWith("#/") ? `${documentId}${node.$ref}` : node.$ref }
  }
  const discriminator = node.discriminator
  if (Array.isArray(node.oneOf) && isObject(discriminator) && isObject(discriminator.mapping)) {
    const property = discriminator.propertyName as string
    const { discriminator: _, oneOf: __, ...rest } = node
    return {
      ...(convert(rest) as Json),
      oneOf: Object.entries(discriminator.mapping).map(([value, ref]) => ({
        allOf: [convert({ $ref: ref }), { properties: { [property]: { const: value } }, required: [property] }]
      }))
    }
  }
  const out: Json = {}
  for (const [key, value] of Object.entries(node)) {
    if (dropped.has(key) || key.startsWith("x-")) continue
    if (key === "nullable") continue
    if ((key === "exclusiveMinimum" || key === "exclusiveMaximum") && typeof value === "boolean") continue
    out[key] = convert(value)
  }
  if (node.exclusiveMinimum === true && typeof node.minimum === "number") {
    out.exclusiveMinimum = node.minimum
    delete out.minimum
  }
  if (node.exclusiveMaximum === true && typeof node.maximum === "number") {
    out.exclusiveMaximum = node.maximum
    delete out.maximum
  }
  if (node.nullable === true) return { anyOf: [out, { type: "null" }] }
  return out
}

/** A response of one operation: the status it is declared under (or `default`) and its validator. */
export interface PublishedResponse {
  readonly declaredAs: string
  /** `undefined` for a response the document declares without a body (e.g. 204). */
  readonly validate: ValidateFunction | undefined
}

/** The published document, loaded once, with a validator per (method, route, status). */
export interface PublishedReference {
  /** The response `method route` answers with `status`: the status's own, else `default`; `undefined` when neither is declared. */
  readonly response: (method: string, route: string, status: number) => PublishedResponse | undefined
  /** Whether the document has an operation for `method route`. */
  readonly has: (method: string, route: string) => boolean
  /** Formats the document uses that Ajv does not know, accepted as they are. */
  readonly unknownFormats: ReadonlySet<string>
}

/** Loads the document from `node_modules` and prepares Ajv. */
export const loadPublishedReference = (): PublishedReference => {
  const document = parseYaml(readFileSync(documentPath(), "utf8")) as Json
  const components = convert(document.components) as Json
  const ajv = new Ajv({ strict: false, allErrors: true })
  // `ajv-formats` is CommonJS: under Node's ESM its plugin is the module's `default`.
  const addFormats = ((formats as unknown as { default?: typeof formats }).default ?? formats) as unknown as (
    ajv: Ajv
  ) => Ajv
  addFormats(ajv)
  const unknownFormats = new Set<string>()
  const known = new Set(Object.keys((ajv as unknown as { formats: Json }).formats))
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item)
    } else if (isObject(node)) {
      if (typeof node.format === "string" && !known.has(node.format)) unknownFormats.add(node.format)
      for (const value of Object.values(node)) visit(value)
    }
  }
  visit(document)
  for (const format of unknownFormats) ajv.addFormat(format, true)
  ajv.addSchema({ $id: documentId, components })
  const paths = document.paths as Record<string, Json>
  const responseComponents = (document.components as Json).responses as Record<string, Json>
  const compiled = new Map<string, PublishedResponse | undefined>()
  /** Each schema's validator by its text: many answers share one (the errors' `GeneralError`). */
  const validators = new Map<string, ValidateFunction>()
  const validatorOf = (schema: Json): ValidateFunction => {
    const text = JSON.stringify(schema)
    const known = validators.get(text)
    if (known !== undefined) return known
    const validate = ajv.compile(schema)
    validators.set(text, validate)
    return validate
  }

  const operation = (method: string, route: string): Json | undefined => {
    const item = paths[route]
    return isObject(item) ? (item[method.toLowerCase()] as Json | undefined) : undefined
  }

  const response = (method: string, route: string, status: number): PublishedResponse | undefined => {
    const key = `${method} ${route} ${status}`
    if (compiled.has(key)) return compiled.get(key)
    const responses = (operation(method, route)?.responses ?? {}) as Json
    const declaredAs = String(status) in responses ? String(status) : "default" in responses ? "default" : undefined
    let result: PublishedResponse | undefined
    if (declaredAs !== undefined) {
      let declared = responses[declaredAs] as Json
      if (typeof declared.$ref === "string") {
        declared = responseComponents[declared.$ref.replace("#/components/responses/", "")] as Json
      }
      const schema = ((declared.content as Json | undefined)?.["application/json"] as Json | undefined)?.schema
      result = { declaredAs, validate: schema === undefined ? undefined : validatorOf(convert(schema) as Json) }
    }
    compiled.set(key, result)
    return result
  }

  return { response, has: (method, route) => operation(method, route) !== undefined, unknownFormats }
}
