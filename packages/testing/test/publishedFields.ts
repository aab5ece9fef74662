/**
 * The names an operation of the platform's published OpenAPI v2 document declares, and those an
 * entry of core's `Api.endpoints` declares, side by side, for tests only (the document is read
 * from `@neondatabase/api-client` in `node_modules`, as in `publishedReference.ts`: nothing of it
 * is copied into this repository).
 *
 * A field is named by its path from the top of the body, dot-separated, with an array's items
 * transparent (`endpoints.type`: the `type` of each of a branch creation's `endpoints`); a map
 * (`additionalProperties`, an index signature) ends the path, as does a JSON value of any shape.
 * The document's side follows `$ref`, merges `allOf`, and takes every member of a `oneOf` or
 * `anyOf` and its `discriminator`'s property; core's side walks the encoded side of each schema (the names on the wire: a class, a
 * `Redacted`, an `Option` are what they encode to), through unions, refinements, transformations
 * and suspended (recursive) schemas.
 */
import { Api, type Endpoint } from "@dbplatform/core"
import * as SchemaAST from "effect/SchemaAST"
import { load as parseYaml } from "js-yaml"
import { readFileSync } from "node:fs"
import { documentPath } from "./publishedReference.js"

type Json = { [key: string]: unknown }

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

/** What one operation declares: its query parameters, its body's fields, each success status's answer's fields. */
export interface Declared {
  readonly query: ReadonlySet<string>
  readonly body: ReadonlySet<string>
  /** By status (`"200"`, `"204"`...); a status without a JSON body has no field. */
  readonly responses: ReadonlyMap<string, ReadonlySet<string>>
}

/** The number of dot-separated names of a field's path: 1 at the top level. */
export const depth = (field: string): number => field.split(".").length

/** The published document, read once. */
export const loadDocument = (): Json => parseYaml(readFileSync(documentPath(), "utf8")) as Json

/** The fields of an OpenAPI 3.0 schema of `document`, at every depth. */
const documentFields = (document: Json, schema: unknown): Set<string> => {
  const fields = new Set<string>()
  const resolve = (node: Json): Json => {
    let out = node
    for (let hops = 0; typeof out.$ref === "string" && hops < 32; hops++) {
      let target: unknown = document
      for (const key of (out.$ref as string).replace(/^#\//, "").split("/")) target = (target as Json)[key]
      out = target as Json
    }
    return out
  }
  const walk = (node: unknown, prefix: string, seen: ReadonlySet<unknown>): void => {
    if (!isObject(node)) return
    const resolved = resolve(node)
    if (seen.has(resolved)) return
    const inside = new Set(seen).add(resolved)
    // A union's discriminator is a field on the wire, though no member declares it (the email
    // provider's `type`, docs/design.md §1.3).
    const discriminator = resolved.discriminator
    if (isObject(discriminator) && typeof discriminator.propertyName === "string") {
      fields.add(prefix === "" ? discriminator.propertyName : `${prefix}.${discriminator.propertyName}`)
    }
    for (const key of ["allOf", "oneOf", "anyOf"]) {
      const members = resolved[key]
      if (Array.isArray(members)) for (const member of members) walk(member, prefix, inside)
    }
    if (resolved.items !== undefined) walk(resolved.items, prefix, inside)
    if (isObject(resolved.properties)) {
      for (const [name, property] of Object.entries(resolved.properties)) {
        const path = prefix === "" ? name : `${prefix}.${name}`
        fields.add(path)
        walk(property, path, inside)
      }
    }
  }
  walk(schema, "", new Set())
  return fields
}

/** What the document declares for each of its operations, by `METHOD route`. */
export const documentDeclarations = (document: Json): ReadonlyMap<string, Declared> => {
  const out = new Map<string, Declared>()
  const resolve = (node: Json): Json => {
    if (typeof node.$ref !== "string") return node
    let target: unknown = document
    for (const key of node.$ref.replace(/^#\//, "").split("/")) target = (target as Json)[key]
    return target as Json
  }
  for (const [route, item] of Object.entries(document.paths as Record<string, Json>)) {
    const shared = Array.isArray(item.parameters) ? item.parameters : []
    for (const method of ["get", "post", "patch", "put", "delete"]) {
      const operation = item[method]
      if (!isObject(operation)) continue
      const parameters = [...shared, ...(Array.isArray(operation.parameters) ? operation.parameters : [])]
      const query = new Set<string>()
      for (const parameter of parameters) {
        const resolved = resolve(parameter as Json)
        if (resolved.in === "query") query.add(resolved.name as string)
      }
      const requestBody = isObject(operation.requestBody) ? resolve(operation.requestBody) : undefined
      // A body is JSON, or `multipart/form-data` (a function's deployment, docs/contract.md §29.4).
      const content = requestBody?.content as Json | undefined
      const bodySchema = ((content?.["application/json"] ?? content?.["multipart/form-data"]) as Json | undefined)
        ?.schema
      const responses = new Map<string, ReadonlySet<string>>()
      for (const [status, declared] of Object.entries((operation.responses ?? {}) as Json)) {
        if (status === "default") continue
        const response = resolve(declared as Json)
        const schema = ((response.content as Json | undefined)?.["application/json"] as Json | undefined)?.schema
        responses.set(status, schema === undefined ? new Set() : documentFields(document, schema))
      }
      out.set(`${method.toUpperCase()} ${route}`, {
        query,
        body: bodySchema === undefined ? new Set() : documentFields(document, bodySchema),
        responses
      })
    }
  }
  return out
}

/** The fields of a schema of core, on its encoded (wire) side, at every depth. */
export const schemaFields = (ast: SchemaAST.AST): Set<string> => {
  const fields = new Set<string>()
  const walk = (node: SchemaAST.AST, prefix: string, seen: ReadonlySet<SchemaAST.AST>): void => {
    if (seen.has(node)) return
    const inside = new Set(seen).add(node)
    switch (node._tag) {
      case "TypeLiteral":
        for (const property of node.propertySignatures) {
          if (typeof property.name !== "string") continue
          const path = prefix === "" ? property.name : `${prefix}.${property.name}`
          fields.add(path)
          walk(property.type, path, inside)
        }
        return
      case "Union":
        for (const member of node.types) walk(member, prefix, inside)
        return
      case "TupleType":
        for (const element of node.elements) walk(element.type, prefix, inside)
        for (const rest of node.rest) walk(rest.type, prefix, inside)
        return
      case "Refinement":
      case "Transformation":
        walk(node.from, prefix, inside)
        return
      case "Suspend":
        walk(node.f(), prefix, inside)
        return
      case "Declaration":
        for (const parameter of node.typeParameters) walk(parameter, prefix, inside)
        return
      default:
        return
    }
  }
  walk(SchemaAST.encodedAST(ast), "", new Set())
  return fields
}

/** What an entry of core's table declares, in the same terms as {@link documentDeclarations}. */
export const coreDeclarations = (endpoint: Endpoint.Endpoint): Declared => {
  const success = schemaFields(endpoint.success.ast)
  return {
    query: endpoint.query === undefined ? new Set() : schemaFields(endpoint.query.ast),
    body: endpoint.body === undefined ? new Set() : schemaFields(endpoint.body.ast),
    // Every success status answers with the entry's one answer schema (a 204: none; raw bytes, an
    // object's download, no JSON fields, as the document's `application/octet-stream` answer).
    responses: new Map(
      endpoint.statuses.map((status) => [
        String(status),
        status === 204 || endpoint.media === "bytes" ? new Set<string>() : success
      ])
    )
  }
}

/** Each entry of `Api.endpoints` with its declarations and the document's for the same operation. */
export const pairs = (document: Json) => {
  const published = documentDeclarations(document)
  return Api.endpoints.map((endpoint) => ({
    endpoint,
    core: coreDeclarations(endpoint),
    document: published.get(`${endpoint.method} ${endpoint.route}`)
  }))
}

/** How many of `expected`'s fields (up to `maxDepth`) `actual` has, and how many there are. */
export const covered = (
  expected: ReadonlySet<string>,
  actual: ReadonlySet<string>,
  maxDepth = Number.POSITIVE_INFINITY
): { readonly declared: number; readonly of: number } => {
  let declared = 0
  let of = 0
  for (const field of expected) {
    if (depth(field) > maxDepth) continue
    of++
    if (actual.has(field)) declared++
  }
  return { declared, of }
}
