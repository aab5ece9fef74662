/**
 * The docs name only what exists (docs/design.md §1.5): every README of the repository and every
 * document of `docs/` may name a client method (`roles.create(`, `Branches.createReady`), a group
 * entry (`Api.Roles.create`, `` `Roles.create` ``) or an export of `Endpoint` only when the code
 * has it, for every service of `DbPlatform.layer`. A "Migrating" section, which names the old
 * methods on purpose, is skipped. And the client's README documents every service of the layer:
 * a section with an example each, all named in its introduction.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { HttpClient, HttpClientResponse } from "@effect/platform"
import { Api, Endpoint } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Client from "../src/index.js"

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

/**
 * The client's modules by name (`Roles`), each with the tag of its service by the same name
 * (`Roles.Roles`): every module of the package's index that has one.
 */
const modules: Readonly<Record<string, object>> = Object.fromEntries(
  Object.entries(Client).filter(([name, module]) => Context.isTag((module as Record<string, unknown>)[name]))
)

/**
 * The services `DbPlatform.layer` provides, by their module's name (`Roles`): each module whose
 * tag the layer's context holds, but the `DbPlatformClient` they all call (the layer's own
 * section documents it).
 */
const services = Effect.gen(function* () {
  const context = yield* Layer.build(
    Client.DbPlatform.layer({ baseUrl: "http://docs.test/api/v2", apiKey: Redacted.make("k") }).pipe(
      Layer.provide(Layer.succeed(HttpClient.HttpClient, unused))
    )
  )
  const found: Record<string, object> = {}
  for (const [name, module] of Object.entries(modules)) {
    const tag = (module as Record<string, Context.Tag<any, object>>)[name]!
    const service = Context.getOption(context, tag)
    if (name !== "DbPlatformClient" && Option.isSome(service)) found[name] = service.value
  }
  return found
}).pipe(Effect.scoped)

/** `Roles` → `roles`: how the docs name a service's instance (`roles.create(`). */
const instanceName = (service: string) => service[0]!.toLowerCase() + service.slice(1)

/** The lines of the client README's `## Services` section, split at its `###` headings. */
const serviceSections = (readme: string): ReadonlyArray<{ readonly heading: string; readonly body: string }> => {
  const services = readme.split(/^## /m).find((section) => section.startsWith("Services\n")) ?? ""
  return services
    .split(/^### /m)
    .slice(1)
    .map((section) => {
      const newline = section.indexOf("\n")
      return { heading: section.slice(0, newline), body: section.slice(newline + 1) }
    })
}

describe("the docs", () => {
  it.effect("name only the client methods, group entries and Endpoint exports that exist", () =>
    Effect.gen(function* () {
      const instances = yield* services
      const names = Object.keys(instances)
      // Every service of the layer: a new one is checked without touching this test.
      expect(names).toEqual(expect.arrayContaining(["ApiKeys", "Snapshots", "Consumption", "Jwks"]))
      const byInstance = new Map(names.map((name) => [instanceName(name), instances[name]!]))
      /** What `Service.name` may be: a method of the service, an export of its module, an entry of its group. */
      const known = (service: string, name: string): boolean => {
        const instance = instances[service]
        const group = (Api.groups as Record<string, object>)[service]
        return (
          (instance !== undefined && name in instance) ||
          (modules[service] !== undefined && name in modules[service]) ||
          (group !== undefined && name in group)
        )
      }
      const instanceCall = new RegExp(`(?<![.\\w])(${[...byInstance.keys()].join("|")})\\.(\\w+)\\(`, "g")
      const moduleName = new RegExp(`\\b(${names.join("|")})\\.([a-z]\\w*)\\b`, "g")
      const wrong: Array<string> = []
      for (const file of documents()) {
        const where = path.relative(root, file)
        for (const [line, text] of currentLines(fs.readFileSync(file, "utf8"))) {
          // `roles.create(`: a method of the service of that name.
          for (const [, service, method] of text.matchAll(instanceCall)) {
            // An array of that name (`operations.map(`) is not the service.
            if (method! in Array.prototype) continue
            if (!(method! in byInstance.get(service!)!)) wrong.push(`${where}:${line}: ${service}.${method}(`)
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
          for (const [, service, name] of text.matchAll(moduleName)) {
            if (fileSuffixes.has(name!)) continue
            if (!known(service!, name!)) wrong.push(`${where}:${line}: ${service}.${name}`)
          }
        }
      }
      expect(wrong).toEqual([])
    })
  )

  it.effect("give every service of DbPlatform.layer a section with an example, named in the introduction", () =>
    Effect.gen(function* () {
      const names = Object.keys(yield* services)
      const readme = fs.readFileSync(path.join(root, "packages/client/README.md"), "utf8")
      const sections = serviceSections(readme)
      const introduction = readme.slice(0, readme.indexOf("\n## "))
      const missing: Array<string> = []
      for (const name of names) {
        // A `### ` heading naming it in backticks (one may name two: `Users` and `Organizations`),
        // whose section has a TypeScript example that takes the service (`yield* Roles.Roles`).
        const section = sections.find(({ heading }) => heading.includes(`\`${name}\``))
        if (section === undefined) missing.push(`${name}: no "### \`${name}\`" section under "## Services"`)
        else if (
          !Array.from(section.body.matchAll(/```ts\n([\s\S]*?)```/g), ([, code]) => code!).some((code) =>
            new RegExp(`\\b${name}\\.${name}\\b`).test(code)
          )
        ) {
          missing.push(`${name}: its section has no \`\`\`ts example using ${name}.${name}`)
        }
        if (!introduction.includes(`\`${name}\``)) missing.push(`${name}: not named in the introduction`)
      }
      expect(missing).toEqual([])
      expect(names.length).toBe(26)
    })
  )

  it("skip a migration section only", () => {
    const lines = currentLines("# A\nroles.x(\n## Migrating from 0.3\nold.y(\n### detail\nz\n## Next\nw(")
    expect(lines.map(([, text]) => text)).toEqual(["# A", "roles.x(", "## Next", "w("])
  })
})
