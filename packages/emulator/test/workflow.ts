/**
 * The setup of the workflow tests (`previewWorkflow`, `snapshotWorkflow`, `schemaWorkflow`) that
 * drive the shipped emulator with plain `fetch` alone, as a CI job in any language would: start
 * it on a seed, call its control API, and call its platform routes with every answer validated
 * against the published schema of its operation (`publishedReference.ts`); stop it cleanly after.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect } from "vitest"
import { loadPublishedReference } from "./publishedReference.js"
import { type Answer, type Running, send, start } from "./spawned.js"

/** What a validated answer holds. */
export type Json = any

const reference = loadPublishedReference()

/** An emulator started on a seed, for one workflow. */
export interface Workflow {
  readonly running: Running
  /** `method path` of the control API (`path` after `/_emulator`) with `body`; expects a 200, answers its body. */
  readonly control: (method: string, path: string, body?: unknown) => Promise<Json>
  /** `method path` of the control API with `body`, whatever its status. */
  readonly controlAnswer: (method: string, path: string, body?: unknown) => Promise<Answer>
  /**
   * `method route` (a route template of the published document, each `{name}` filled from
   * `params`, the workflow's project when not given) with `query` and `body`; expects `status`,
   * and the answer to validate against the document's schema for it. Answers its body.
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
 * with 0) and removes the folder.
 */
export const withWorkflow = async (
  options: { readonly apiKey: string; readonly token: string; readonly project: string; readonly seed: unknown },
  workflow: (running: Workflow) => Promise<void>
): Promise<void> => {
  const { apiKey, token, project } = options
  const dir = mkdtempSync(join(tmpdir(), "dbplatform-workflow-"))
  try {
    const seed = join(dir, "seed.json")
    writeFileSync(seed, JSON.stringify(options.seed))
    const running = await start(["--seed", seed, "--port", "0"], {
      DBPLATFORM_EMULATOR_KEY: apiKey,
      DBPLATFORM_EMULATOR_TOKEN: token
    })
    try {
      const controlAnswer = (method: string, path: string, body?: unknown) =>
        send(method, `${running.controlUrl}${path}`, token, body)
      await workflow({
        running,
        controlAnswer,
        control: async (method, path, body) => {
          const answer = await controlAnswer(method, path, body)
          expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200)
          return answer.body
        },
        call: async (method, route, status, options = {}) => {
          const path = route.replace(/\{(\w+)\}/g, (_, name: string) => options.params?.[name] ?? project)
          const query = options.query ?? ""
          const answer = await send(method, `${running.baseUrl}${path}${query}`, apiKey, options.body)
          expect(answer.status, `${method} ${path}${query}: ${JSON.stringify(answer.body)}`).toBe(status)
          const published = reference.response(method, route, status)
          expect(published?.validate, `${method} ${route} ${status} is in the document`).toBeDefined()
          const valid = published!.validate!(answer.body)
          expect(published!.validate!.errors ?? [], `${method} ${route} ${status}`).toEqual([])
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
