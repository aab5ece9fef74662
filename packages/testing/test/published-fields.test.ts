/**
 * Core declares what the platform's published OpenAPI v2 document declares
 * (`docs/design.md` §1.4), for every entry of `Api.endpoints`: every query parameter, every
 * field of the request body and every field of each success answer, at every depth (following
 * `$ref` and `allOf`), and nothing the document does not; and every status the document
 * documents for the operation is one the entry declares (a success status, or the error class of
 * one of its `errors`), or one every endpoint may answer (401, 404, 429, 5xx:
 * `docs/design.md` §1.6).
 *
 * The document is read at test time from `@neondatabase/api-client` in `node_modules`
 * (`publishedFields.ts`); nothing of it is copied into this repository. The few differences kept
 * on purpose are {@link exceptions}, each with its reason; an exception that no longer matches a
 * difference fails too, so the list stays the truth.
 */
import { Api, fromResponse } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import { loadDocument, pairs } from "./publishedFields.js"

/** What a difference is: a name the document declares and core lacks, or the other way round. */
type Side = "missing" | "extra"

/** A difference kept on purpose: for `endpoints`, in `part`, each of `names` (and the fields under it). */
interface Exception {
  readonly endpoints: ReadonlyArray<string>
  readonly part: "query" | "body" | "response" | "status"
  readonly side: Side
  readonly names: ReadonlyArray<string>
  readonly reason: string
}

const listsOfProjects = ["Projects.list", "Projects.listShared"]
const projectAlone = ["Projects.create", "Projects.get", "Projects.update", "Projects.delete", "Projects.recover"]

/** The differences kept on purpose, each with its reason. */
const exceptions: ReadonlyArray<Exception> = [
  {
    endpoints: listsOfProjects,
    part: "response",
    side: "extra",
    names: ["projects.locked"],
    reason:
      "the contract lists `locked` on a listed project (docs/contract.md §2.4); the document does not: optional, and absent from the platform's answers (§10.4)"
  },
  {
    endpoints: projectAlone,
    part: "response",
    side: "extra",
    names: ["project.locked"],
    reason: "one `Project` for a listed project and one read alone (docs/contract.md §14.1): `locked` as on a list"
  },
  {
    endpoints: listsOfProjects,
    part: "response",
    side: "extra",
    names: [
      "projects.active_time_seconds",
      "projects.compute_time_seconds",
      "projects.written_data_bytes",
      "projects.data_transfer_bytes",
      "projects.data_storage_bytes_hour",
      "projects.consumption_period_start",
      "projects.consumption_period_end",
      "projects.maintenance_scheduled_for",
      "projects.owner"
    ],
    reason:
      "one `Project` for a listed project and one read alone (docs/contract.md §14.1): the document gives these to a project read alone only; optional, a list never has them"
  },
  {
    endpoints: projectAlone,
    part: "response",
    side: "extra",
    names: ["project.active_time", "project.deleted_at", "project.recoverable_until", "project.org_name"],
    reason:
      "one `Project` for a listed project and one read alone (docs/contract.md §14.1): the document gives these to a listed project only; optional, a project read alone does not have them"
  },
  {
    endpoints: ["Projects.listShared"],
    part: "response",
    side: "extra",
    names: ["applications", "integrations"],
    reason:
      "one `ProjectsPage` for both lists (docs/contract.md §10.6): the document gives these to `GET /projects` only; optional, the shared list never has them"
  },
  {
    endpoints: ["Projects.delete"],
    part: "response",
    side: "extra",
    names: ["operations"],
    reason:
      "the fake's `delete_tenant`, added to the delete's answer (docs/contract.md §14.3): optional, absent from the platform's answers"
  },
  {
    endpoints: ["Snapshots.update"],
    part: "body",
    side: "extra",
    names: ["snapshot.expires_at"],
    reason:
      "newer than the document of @neondatabase/api-client 2.7.3: the platform's CLI (neonctl 5.0.1, `snapshots update --expires-at`) sends it and its SDK's newer document (@neon/sdk 6.1.2) declares it, so the platform takes it"
  },
  {
    endpoints: ["Snapshots.restore"],
    part: "query",
    side: "missing",
    names: ["name"],
    reason:
      "deprecated by the document in favour of the body's `name`, which has the same name: one flat input cannot hold both (docs/design.md §1.3)"
  },
  {
    endpoints: ["Roles.revealPassword"],
    part: "status",
    side: "missing",
    names: ["412"],
    reason:
      "the platform did not keep the password: no error class of its own, the client's `UnexpectedStatus` with status 412 (docs/contract.md §15.2)"
  },
  {
    endpoints: ["Buckets.create"],
    part: "status",
    side: "missing",
    names: ["410"],
    reason:
      "the project was deleted: no error class of its own, the client's `UnexpectedStatus` with status 410; the fake answers a deleted project 404, as every route does (docs/contract.md §28.1)"
  }
]

/** Whether `name` (or a field above it) is an exception of `endpoint`'s `part` on `side`. */
const excepted = (endpoint: string, part: Exception["part"], side: Side, name: string): boolean =>
  exceptions.some(
    (exception) =>
      exception.part === part &&
      exception.side === side &&
      exception.endpoints.includes(endpoint) &&
      exception.names.some((listed) => name === listed || name.startsWith(`${listed}.`))
  )

/** Statuses every endpoint may answer with, whatever it declares (`docs/design.md` §1.6). */
const everyEndpoint = new Set(["Unauthorized", "NotFound", "RateLimited", "ServerError", "ServiceUnavailable"])

const document = loadDocument()
const all = pairs(document)

/** Each difference between core and the document, as `Entry part side name`. */
const differences = (): ReadonlyArray<{ endpoint: string; part: Exception["part"]; side: Side; name: string }> => {
  const found: Array<{ endpoint: string; part: Exception["part"]; side: Side; name: string }> = []
  for (const { core, document: published, endpoint } of all) {
    if (published === undefined) continue
    const add = (part: Exception["part"], side: Side, names: Iterable<string>) => {
      for (const name of names) found.push({ endpoint: endpoint.name, part, side, name })
    }
    const lacking = (expected: Iterable<string>, actual: ReadonlySet<string>) =>
      [...expected].filter((name) => !actual.has(name))
    add("query", "missing", lacking(published.query, core.query))
    add("query", "extra", lacking(core.query, published.query))
    add("body", "missing", lacking(published.body, core.body))
    add("body", "extra", lacking(core.body, published.body))
    const coreAnswer = new Set([...core.responses.values()].flatMap((fields) => [...fields]))
    const publishedAnswers = new Set<string>()
    for (const [status, fields] of published.responses) {
      if (!status.startsWith("2")) continue
      for (const field of fields) publishedAnswers.add(field)
      add("response", "missing", lacking(fields, coreAnswer))
    }
    add("response", "extra", lacking(coreAnswer, publishedAnswers))
    for (const status of published.responses.keys()) {
      const code = Number(status)
      const declared =
        code < 300
          ? endpoint.statuses.some((own) => own === code)
          : (() => {
              const tag = fromResponse({ method: endpoint.method, route: endpoint.route, path: "", status: code })._tag
              return everyEndpoint.has(tag) || endpoint.errors.some((own) => own === tag)
            })()
      if (!declared) add("status", "missing", [status])
    }
    for (const status of endpoint.statuses) {
      if (!published.responses.has(String(status))) add("status", "extra", [String(status)])
    }
  }
  return found
}

describe("core's declarations against the published document", () => {
  it("finds an operation of the document for every entry of Api.endpoints", () => {
    const absent = all.filter(({ document }) => document === undefined).map(({ endpoint }) => endpoint.name)
    expect(absent).toEqual([])
    expect(all.length).toBe(Api.endpoints.length)
  })

  it("has an entry of Api.endpoints for every live operation of the document (none is left out)", () => {
    const ours = new Set(Api.endpoints.map((endpoint) => `${endpoint.method} ${endpoint.route}`))
    const live: Array<string> = []
    for (const [route, item] of Object.entries(document.paths as Record<string, Record<string, unknown>>)) {
      for (const method of ["get", "post", "patch", "put", "delete"]) {
        const operation = item[method] as { readonly deprecated?: boolean } | undefined
        if (operation !== undefined && operation.deprecated !== true) live.push(`${method.toUpperCase()} ${route}`)
      }
    }
    // What is left out, with its reason, would be listed here; nothing is (docs/contract.md §1).
    expect(live.filter((operation) => !ours.has(operation))).toEqual([])
    expect(live.length).toBe(148)
  })

  it("declares every query parameter, body field, answer field and status the document does, and no other", () => {
    const unexplained = differences()
      .filter(({ endpoint, name, part, side }) => !excepted(endpoint, part, side, name))
      .map(({ endpoint, name, part, side }) => `${endpoint} ${part} ${side}: ${name}`)
    expect(unexplained).toEqual([])
  })

  it("needs each of its exceptions", () => {
    const found = differences()
    const unused = exceptions.flatMap((exception) =>
      exception.endpoints.flatMap((endpoint) =>
        exception.names
          .filter(
            (name) =>
              !found.some(
                (difference) =>
                  difference.endpoint === endpoint &&
                  difference.part === exception.part &&
                  difference.side === exception.side &&
                  difference.name === name
              )
          )
          .map((name) => `${endpoint} ${exception.part} ${exception.side}: ${name}`)
      )
    )
    expect(unused).toEqual([])
  })

  it("sees a field core lacks, at any depth (the check itself)", () => {
    const [branchCreate] = all.filter(({ endpoint }) => endpoint.name === "Branches.create")
    expect(branchCreate?.document?.body.has("endpoints.settings.preload_libraries.enabled_libraries")).toBe(true)
    expect(branchCreate?.core.body.has("endpoints.settings.preload_libraries.enabled_libraries")).toBe(true)
    const [me] = all.filter(({ endpoint }) => endpoint.name === "Users.me")
    expect(me?.document?.responses.get("200")?.has("billing_account.plan_details.version.major")).toBe(true)
    expect(me?.core.responses.get("200")?.has("billing_account.plan_details.version.major")).toBe(true)
  })
})
