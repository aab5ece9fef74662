/**
 * The setup of the workflow tests (`previewWorkflow`, `snapshotWorkflow`, `schemaWorkflow`,
 * `appBackendWorkflow`) that drive the shipped emulator over HTTP, as a CI job would: start it on
 * a seed, call its control API with the typed client (`ControlApi.client`), and call its platform
 * routes with plain `fetch`, every answer validated against the published schema of its operation
 * (`publishedReference.ts`, no body where it declares none); stop it cleanly after.
 * (`http-only.test.mjs` calls every control route with `fetch` alone, as another language would.)
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect } from "vitest"
import { loadPublishedReference } from "./publishedReference.js"
import { type Running, send, start } from "./spawned.js"

/** What a validated answer holds. */
export type Json = any

const reference = loadPublishedReference()

/** An emulator started on a seed, for one workflow. */
export interface Workflow {
  readonly running: Running
  /**
   * Runs a call of the control API's typed client (`Running.control`), e.g.
   * `control((c) => c.advance({ payload: { by: 1000 } }))`; a refusal rejects.
   */
  readonly control: Running["control"]
  /**
   * `method route` (a route template of the published document, each `{name}` filled from
   * `params`, else the workflow's own `params`, else its project) with `query` and `body`; expects
   * `status`, declared under its own status when a success and under the document's `default`
   * (its GeneralError) when an error, and the answer to validate against the document's schema
   * for it, or to have no body where the document declares none. Answers its body.
   */
  readonly call: (
    method: string,
    route: string,
    status: number,
    options?: { readonly params?: Record<string, string>; readonly query?: string; readonly body?: unknown }
  ) => Promise<Json>
}

/**
 * Starts the emulator on `seed` (written to a file of a temporary folder) with the API key `apiKey`
 * and the control token `token`, runs `workflow` on it, then stops it with SIGTERM (it must exit
 * with 0) and removes the folder. `params`: route parameters every `call` fills unless given its
 * own (e.g. the `branch_id` a workflow works on).
 */
export const withWorkflow = async (
  options: {
    readonly apiKey: string
    readonly token: string
    readonly project: string
    readonly seed: unknown
    readonly params?: Record<string, string>
  },
  workflow: (running: Workflow) => Promise<void>
): Promise<void> => {
  const { apiKey, token, project } = options
  const defaults = options.params ?? {}
  const dir = mkdtempSync(join(tmpdir(), "dbplatform-workflow-"))
  try {
    const seed = join(dir, "seed.json")
    writeFileSync(seed, JSON.stringify(options.seed))
    const running = await start(["--seed", seed, "--port", "0"], {
      DBPLATFORM_EMULATOR_KEY: apiKey,
      DBPLATFORM_EMULATOR_TOKEN: token
    })
    try {
      await workflow({
        running,
        control: running.control,
        call: async (method, route, status, options = {}) => {
          const path = route.replace(
            /\{(\w+)\}/g,
            (_, name: string) => options.params?.[name] ?? defaults[name] ?? project
          )
          const query = options.query ?? ""
          const answer = await send(method, `${running.baseUrl}${path}${query}`, apiKey, options.body)
          expect(answer.status, `${method} ${path}${query}: ${JSON.stringify(answer.body)}`).toBe(status)
          const published = reference.response(method, route, status)
          expect(published?.declaredAs, `${method} ${route} ${status} is in the document`).toBe(
            status < 300 ? String(status) : "default"
          )
          if (published!.validate === undefined) {
            expect(answer.body, `${method} ${route}: no body`).toBeUndefined()
            return answer.body
          }
          const valid = published!.validate(answer.body)
          expect(published!.validate.errors ?? [], `${method} ${route} ${status}`).toEqual([])
          expect(valid).toBe(true)
          return answer.body
        }
      })
    } finally {
      running.child.kill("SIGTERM")
      expect(await running.exited).toBe(0)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
