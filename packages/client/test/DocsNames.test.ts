/**
 * The docs name only what exists (docs/design.md §1.5): every README of the repository and every
 * document of `docs/` may name a client method (`roles.create(`, `Branches.createReady`), a group
 * entry (`Api.Roles.create`, `` `Roles.create` ``) or an export of `Endpoint` only when the code
 * has it. A "Migrating" section, which names the old methods on purpose, is skipped.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { HttpClient, HttpClientResponse } from "@effect/platform"
import { Api, Endpoint } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as ApiKeys from "../src/ApiKeys.js"
import * as Branches from "../src/Branches.js"
import * as ComputeEndpoints from "../src/ComputeEndpoints.js"
import * as Connections from "../src/Connections.js"
import * as Databases from "../src/Databases.js"
import * as DbPlatform from "../src/DbPlatform.js"
import * as Operations from "../src/Operations.js"
import * as Projects from "../src/Projects.js"
import * as Roles from "../src/Roles.js"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..")

/** The documents users read: every README (not under node_modules or a build) and `docs/*.md`. */
const documents = (): ReadonlyArray<string> => {
  const found: Array<string> = []
  const walk = (dir: string, depth: number) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith(".") || ["node_modules", "dist", "build", "docs"].includes(entry.name)) continue
      const full = path.join(dir, entry.name)
      if (entry.isDirectory() && depth < 3) walk(full, depth + 1)
      else if (entry.name === "README.md") found.push(full)
    }
  }
  walk(root, 0)
  for (const entry of fs.readdirSync(path.join(root, "docs"))) {
    if (entry.endsWith(".md")) found.push(path.join(root, "docs", entry))
  }
  return found
}

/** The lines of `text` outside a section whose heading says "Migrat…" (old names on purpose). */
const currentLines = (text: string): ReadonlyArray<readonly [number, string]> => {
  const kept: Array<readonly [number, string]> = []
  let skipping: number | undefined
  text.split("\n").forEach((line, index) => {
    const heading = /^(#+)\s/.exec(line)
    if (heading !== null) {
      const level = heading[1]!.length
      if (skipping !== undefined && level <= skipping) skipping = undefined
      if (skipping === undefined && /migrat/i.test(line)) skipping = level
    }
    if (skipping === undefined) kept.push([index + 1, line])
  })
  return kept
}

/** A module's file name (`Endpoint.ts`, `Branches.test.ts`) is not a name of the code. */
const fileSuffixes: ReadonlySet<string> = new Set(["ts", "js", "mjs", "md", "test"])

/** A client that is never called: the services are built to read their method names only. */
const unused = HttpClient.make((request) => Effect.succeed(HttpClientResponse.fromWeb(request, new Response("{}"))))

const services = Effect.gen(function* () {
  return {
    apiKeys: yield* ApiKeys.ApiKeys,
    projects: yield* Projects.Projects,
    operations: yield* Operations.Operations,
    branches: yield* Branches.Branches,
    computeEndpoints: yield* ComputeEndpoints.ComputeEndpoints,
    connections: yield* Connections.Connections,
    databases: yield* Databases.Databases,
    roles: yield* Roles.Roles
  }
}).pipe(
  Effect.provide(
    DbPlatform.layer({ baseUrl: "http://docs.test/api/v2", apiKey: Redacted.make("k") }).pipe(
      Layer.provide(Layer.succeed(HttpClient.HttpClient, unused))
    )
  ),
  Effect.scoped
)

/** The modules of the client's services, by their name as a module (`Roles.layer`, `Roles.Roles`). */
const modules: Readonly<Record<string, object>> = {
  ApiKeys,
  Projects,
  Operations,
  Branches,
  ComputeEndpoints,
  Connections,
  Databases,
  Roles
}

describe("the docs", () => {
  it.effect("name only the client methods, group entries and Endpoint exports that exist", () =>
    Effect.gen(function* () {
      const methods = yield* services
      /** What `Service.name` may be: a method of the service, an export of its module, an entry of its group. */
      const known = (service: string, name: string): boolean => {
        const instance = (methods as Record<string, object>)[service[0]!.toLowerCase() + service.slice(1)]
        const group = (Api.groups as Record<string, object>)[service]
        return (
          (instance !== undefined && name in instance) ||
          (modules[service] !== undefined && name in modules[service]) ||
          (group !== undefined && name in group)
        )
      }
      const wrong: Array<string> = []
      for (const file of documents()) {
        const where = path.relative(root, file)
        for (const [line, text] of currentLines(fs.readFileSync(file, "utf8"))) {
          // `roles.create(`: a method of the service of that name.
          for (const [, service, method] of text.matchAll(
            /(?<![.\w])(apiKeys|projects|operations|branches|computeEndpoints|connections|databases|roles)\.(\w+)\(/g
          )) {
            // An array of that name (`operations.map(`) is not the service.
            if (method! in Array.prototype) continue
            if (!(method! in (methods as Record<string, object>)[service!]!))
              wrong.push(`${where}:${line}: ${service}.${method}(`)
          }
          // `Api.Roles.create`: an entry of a group (or an export of core's `Api`).
          for (const [, group, key] of text.matchAll(/\bApi\.(\w+)(?:\.(\w+))?/g)) {
            if (fileSuffixes.has(group!)) continue
            const found = (Api as Record<string, unknown>)[group!]
            if (
              found === undefined ||
              (key !== undefined && typeof found === "object" && !(key in (found as object)))
            ) {
              wrong.push(`${where}:${line}: Api.${group}${key === undefined ? "" : `.${key}`}`)
            }
          }
          // `Endpoint.encode`: an export of core's `Endpoint`.
          for (const [, name] of text.matchAll(/\bEndpoint\.([a-z]\w*)\b(?!\.)/g)) {
            if (fileSuffixes.has(name!)) continue
            if (!(name! in Endpoint)) wrong.push(`${where}:${line}: Endpoint.${name}`)
          }
          // `Roles.create`, `Branches.createReady`, `Operations.awaitAll`: a method, export or entry.
          for (const [, service, name] of text.matchAll(
            /\b(ApiKeys|Projects|Operations|Branches|ComputeEndpoints|Connections|Databases|Roles)\.([a-z]\w*)\b/g
          )) {
            if (fileSuffixes.has(name!)) continue
            if (!known(service!, name!)) wrong.push(`${where}:${line}: ${service}.${name}`)
          }
        }
      }
      expect(wrong).toEqual([])
    })
  )

  it("skip a migration section only", () => {
    const lines = currentLines("# A\nroles.x(\n## Migrating from 0.3\nold.y(\n### detail\nz\n## Next\nw(")
    expect(lines.map(([, text]) => text)).toEqual(["# A", "roles.x(", "## Next", "w("])
  })
})
