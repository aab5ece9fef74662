// @ts-check
/**
 * The servers of the benchmark, in their own process so that their work is not counted in the
 * client's time, memory or event loop (`main.mjs` starts it and reads one JSON line from its
 * stdout: the addresses and the key):
 *
 * - the canned server (`node:http`): answers pre-serialised bodies taken from the emulator's own
 *   answers (one operation, `GET /projects`, a page of 10 operations), and walks of 10 000 and
 *   100 000 operations at pages of up to 1000, by cursor; only the client's cost shows;
 * - the emulator (`@dbplatform/emulator`'s `Emulator` layer: the fake on `node:http`) with the
 *   realistic seed;
 * - the bare server: `node:http` answering one operation's body to every request, to compare
 *   the emulator's requests per second with;
 * - `POST /control/pending?count=N&every=K&lead=L` on the canned server: adds a project to the emulator
 *   with N × K operations created a millisecond apart up to now, every K-th one (from the oldest)
 *   pending (K = 1, the default: every one): the pending ones end newest first (after L ms, 300 by default) and
 *   the oldest last (3 ms per pending operation later), the others have ended. Answers the
 *   project's id and, for every operation of the project in the order its list answers (newest
 *   first), when it ends (`ends`, epoch ms, from the fake's state: its snapshot), so that the
 *   spread of the pending ones at any moment can be computed from the fake's own state.
 */
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { Emulator } from "@dbplatform/emulator"
import { FakePlatform, Seed } from "@dbplatform/testing"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Redacted from "effect/Redacted"

export const apiKey = "bench-key-0000000000000000000000000000000000000000000000000000"

const emulator = ManagedRuntime.make(
  Emulator.layer({ seed: Seed.realistic({ bootstrapKey: apiKey }), bootstrapKey: Redacted.make(apiKey) }).pipe(
    Layer.provide(NodeContext.layer)
  )
)
const { baseUrl, fake } = await emulator.runPromise(
  Effect.gen(function* () {
    const { baseUrl } = yield* Emulator.Emulator
    return { baseUrl, fake: yield* FakePlatform.FakePlatform }
  })
)

const headers = { authorization: `Bearer ${apiKey}`, accept: "application/json" }
/** @param {string} path */
const body = async (path) => {
  const response = await fetch(`${baseUrl}${path}`, { headers })
  if (!response.ok) throw new Error(`${response.status} on ${path}`)
  return response.text()
}

const projects = await body("/projects")
const projectId = JSON.parse(projects).projects[0].id
const page10 = await body(`/projects/${projectId}/operations?limit=10`)
const operationId = JSON.parse(page10).operations[0].id
const operation = await body(`/projects/${projectId}/operations/${operationId}`)

/**
 * A walk of `count` operations of project `walk-<count>`, newest first, at pages of `pageSize`,
 * pre-serialised: page bodies by cursor (`""` for the first page), each like the emulator's
 * operations with distinct ids and `created_at` a second apart.
 * @param {number} count
 * @param {number} pageSize
 */
const walk = (count, pageSize) => {
  const template = JSON.parse(page10).operations
  const project = `walk-${count}`
  const start = Date.parse("2026-01-01T00:00:00Z")
  /** @type {Map<string, string>} */
  const pages = new Map()
  let cursor = ""
  for (let first = 0; first <= count; first += pageSize) {
    const operations = []
    for (let i = first; i < Math.min(count, first + pageSize); i++) {
      const at = new Date(start - i * 1000).toISOString()
      operations.push({
        ...template[i % template.length],
        id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
        project_id: project,
        created_at: at,
        updated_at: at
      })
    }
    const next = operations.length === 0 ? cursor || new Date(start).toISOString() : operations.at(-1).created_at
    pages.set(cursor, JSON.stringify({ operations, pagination: { cursor: next } }))
    cursor = next
  }
  return { project, pages }
}
const walks = new Map([10_000, 100_000].map((count) => [`walk-${count}`, walk(count, 1000).pages]))

let pendingProjects = 0
const terminal = new Set(["finished", "skipped", "failed", "error", "cancelled"])
/**
 * Adds a project whose operations were created a millisecond apart up to now, as the fake's
 * state holds them (its snapshot, the operations appended, restored): every `every`-th one (from
 * the oldest) still pending, ending newest first (`lead` ms from now) and the oldest last (3 ms per
 * pending operation later), the others ended.
 * @param {number} count the pending operations
 * @param {number} every one operation in `every` is pending
 * @param {number} lead ms from now to the end of the newest pending one
 */
const startPending = (count, every, lead) =>
  emulator
    .runPromise(
      Effect.gen(function* () {
        pendingProjects += 1
        const project = yield* fake.scenario.addProject({ id: `pending-${pendingProjects}` })
        const snapshot = yield* fake.snapshot
        const now = yield* Clock.currentTimeMillis
        const total = count * every
        const operations = Array.from({ length: total }, (_, i) => {
          const created = now - total + i
          const pending = i % every === 0
          const end = pending ? now + lead + (count - i / every) * 3 : created + 1
          return {
            id: randomUUID(),
            project_id: project.id,
            branch_id: `br-bench-${pendingProjects}-${i}`,
            endpoint_id: `ep-bench-${pendingProjects}-${i}`,
            action: "start_compute",
            created_at: created,
            steps: /** @type {const} */ ([
              { at: created, status: "scheduling" },
              { at: created + 1, status: pending ? "running" : "finished" },
              ...(pending ? [{ at: end, status: "finished" }] : [])
            ]),
            failures_count: 0
          }
        })
        yield* fake.restore({ ...snapshot, operations: [...snapshot.operations, ...operations] })
        // When each ends, read back from the fake's state.
        /** @type {Map<string, number>} */
        const ends = new Map()
        for (const operation of (yield* fake.snapshot).operations) {
          if (operation.project_id !== project.id) continue
          const end = operation.steps.find((step) => terminal.has(step.status))
          ends.set(operation.id, end === undefined ? Number.POSITIVE_INFINITY : end.at)
        }
        return { projectId: project.id, ends }
      })
    )
    .then(async ({ projectId, ends }) => {
      // The order of the project's list, as a client reads it.
      /** @type {Array<number>} */
      const ordered = []
      /** @type {string | undefined} */
      let cursor
      for (;;) {
        const page = JSON.parse(
          await body(
            `/projects/${projectId}/operations?limit=1000${cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`}`
          )
        )
        for (const operation of page.operations) ordered.push(ends.get(operation.id) ?? Number.NaN)
        if (page.operations.length < 1000) break
        cursor = page.pagination.cursor
      }
      if (ordered.length !== ends.size || ordered.some(Number.isNaN))
        throw new Error(`the list of ${projectId} differs`)
      return { projectId, ends: ordered }
    })

/**
 * @param {import("node:http").ServerResponse} response
 * @param {string | Buffer} text
 */
const answer = (response, text, status = 200) => {
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  response.end(text)
}

const canned = createServer((request, response) => {
  const url = new URL(request.url ?? "/", "http://canned")
  const path = url.pathname
  if (request.method === "POST" && path === "/control/pending") {
    startPending(
      Number(url.searchParams.get("count") ?? 1000),
      Number(url.searchParams.get("every") ?? 1),
      Number(url.searchParams.get("lead") ?? 300)
    ).then(
      (started) => answer(response, JSON.stringify(started)),
      (error) => answer(response, JSON.stringify({ message: String(error) }), 500)
    )
    return
  }
  if (path === "/api/v2/projects") return answer(response, projects)
  const match = /^\/api\/v2\/projects\/([^/]+)\/operations(?:\/([^/]+))?$/.exec(path)
  if (match !== null && match[2] !== undefined) return answer(response, operation)
  if (match !== null) {
    const pages = walks.get(match[1] ?? "")
    if (pages === undefined) return answer(response, page10)
    const page = pages.get(url.searchParams.get("cursor") ?? "")
    if (page !== undefined) return answer(response, page)
  }
  answer(response, JSON.stringify({ code: "", message: "not found" }), 404)
})

const operationBuffer = Buffer.from(operation)
const bare = createServer((_request, response) => answer(response, operationBuffer))

/** @param {import("node:http").Server} server */
const listen = (server) =>
  new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      resolve(typeof address === "object" && address !== null ? `http://127.0.0.1:${address.port}` : "")
    })
  )

const cannedUrl = await listen(canned)
const bareUrl = await listen(bare)
process.stdout.write(
  `${JSON.stringify({
    canned: `${cannedUrl}/api/v2`,
    control: cannedUrl,
    emulator: baseUrl,
    bare: bareUrl,
    apiKey,
    projectId,
    operationId
  })}\n`
)
process.on("SIGTERM", () => {
  canned.close()
  bare.close()
  emulator.dispose().then(() => process.exit(0))
})
