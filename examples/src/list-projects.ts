/**
 * Lists every project, fetching 100 per request as the stream is pulled, then reads the first
 * page of a search. Run: `node examples/build/src/list-projects.js`.
 */
import { Projects } from "@dbplatform/client"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { run } from "./run.js"

export const program = Effect.gen(function* () {
  const projects = yield* Projects.Projects
  // Every project, newest first; the next page is fetched only when the stream needs it.
  const all = yield* projects.list({}, { pageSize: 100 }).pipe(Stream.runCollect)
  const lines = Chunk.toReadonlyArray(all).map(
    (project) => `${project.id}  ${project.name}  ${project.region_id}  pg ${project.pg_version}`
  )
  // One page, at most 10 projects, whose name or id contains "a".
  const page = yield* projects.listPage({ limit: 10, search: "a" })
  return [`${Chunk.size(all)} projects:`, ...lines, `search "a": ${page.projects.length} on the first page`].join("\n")
}).pipe(
  // Errors are tagged: handle the ones this program can do something about.
  Effect.catchTags({
    Unauthorized: (error) => Effect.succeed(`the API key was refused: ${error.message}`),
    RateLimited: (error) => Effect.succeed(`rate limited; retry after ${error.retryAfter ?? "a while"}`)
  })
)

run(program)
