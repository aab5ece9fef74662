/**
 * An anonymized preview in memory, through the client over the fake, on the `TestClock`
 * (docs/contract.md §18.4): an anonymized branch created from `main` (its operations awaited with
 * `{ wait }`), masking rules set, anonymization started and finished as the clock moves, its status
 * read at each step; a rule on a column the schema lacks ends in `error`, and a new run may follow;
 * what the platform refuses is refused; a saved state keeps a run in flight.
 */
import { Branches } from "@dbplatform/client"
import { BranchId, ProjectId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import { Snapshot } from "../src/Snapshot.js"
import { projectId } from "./helpers.js"

const main = BranchId.make("br-main-100001")
const project_id = ProjectId.make(projectId)

const provideFake = Effect.provide(
  DbPlatformTest.layer({
    seed: {
      projects: [{ id: projectId }],
      branches: [{ project_id: projectId, id: main, name: "main", default: true }],
      roles: [{ branch_id: main, name: "owner" }],
      databases: [{ branch_id: main, name: "app", owner_name: "owner" }]
    },
    client: { retrySchedule: Schedule.stop }
  })
)

const rule = (column_name: string, masking_function: string) => ({
  database_name: "app",
  schema_name: "public",
  table_name: "users",
  column_name,
  masking_function
})

/** `main` with `users (id, email, phone)`, then an anonymized branch of it with `rules`, its operations awaited. */
const anonymizedPreview = (rules: ReadonlyArray<ReturnType<typeof rule>>) =>
  Effect.gen(function* () {
    const fake = yield* FakePlatform.FakePlatform
    const branches = yield* Branches.Branches
    yield* fake.scenario.migrate(
      projectId,
      main,
      "app",
      "CREATE TABLE users (id bigint PRIMARY KEY, email text NOT NULL, phone text)"
    )
    const waiting = yield* Effect.fork(
      branches.createAnonymized(
        { project_id, branch_create: { branch: { name: "preview/anon" } }, masking_rules: rules },
        { wait: true }
      )
    )
    for (let poll = 0; poll < 6; poll++) yield* TestClock.adjust("5 seconds")
    const created = yield* Fiber.join(waiting)
    expect(created.branch.current_state).toBe("ready")
    expect(created.operations.map((operation) => [operation.action, operation.status])).toEqual([
      ["create_branch", "finished"]
    ])
    return { project_id, branch_id: created.branch.id }
  })

describe("anonymized branches over the fake (docs/contract.md §18.4)", () => {
  it.effect("rules set, anonymization started and finished on the TestClock, status read at each step", () =>
    Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const branch = yield* anonymizedPreview([rule("email", "anon.fake_email()")])
      expect((yield* branches.getAnonymizedStatus(branch)).state).toBe("initialized")
      const rules = yield* branches.updateMaskingRules({
        ...branch,
        masking_rules: [rule("email", "anon.fake_email()"), { ...rule("phone", "x"), masking_value: "000" }]
      })
      expect(rules.masking_rules.map((one) => one.column_name)).toEqual(["email", "phone"])
      expect((yield* branches.getMaskingRules(branch)).masking_rules).toEqual(rules.masking_rules)

      const started = yield* branches.startAnonymization(branch)
      expect(started.state).toBe("anonymizing")
      expect(started.last_run?.completed_at).toBeUndefined()
      yield* TestClock.adjust("1 second")
      const halfway = yield* branches.getAnonymizedStatus(branch)
      expect([halfway.state, halfway.status_message]).toEqual(["anonymizing", "masking column 2 of 2"])
      // Rules cannot change, nor a run start, while one runs.
      expect((yield* Effect.flip(branches.updateMaskingRules({ ...branch, masking_rules: [] })))._tag).toBe("Conflict")
      expect((yield* Effect.flip(branches.startAnonymization(branch)))._tag).toBe("Conflict")
      yield* TestClock.adjust("1 second")
      const done = yield* branches.getAnonymizedStatus(branch)
      expect(done.state).toBe("anonymized")
      expect(done.last_run?.masked_columns).toBe(2)
      expect(done.last_run?.completed_at).toBeDefined()
      expect(done.failed_at).toBeUndefined()
      // A re-run from anonymized.
      expect((yield* branches.startAnonymization(branch)).state).toBe("anonymizing")
    }).pipe(provideFake)
  )

  it.effect(
    "a rule on a column the schema lacks ends in error (failed_at, the column named); a new run may follow",
    () =>
      Effect.gen(function* () {
        const branches = yield* Branches.Branches
        const branch = yield* anonymizedPreview([rule("ssn", "anon.random_string(9)")])
        yield* branches.startAnonymization(branch)
        yield* TestClock.adjust("5 seconds")
        const failed = yield* branches.getAnonymizedStatus(branch)
        expect(failed.state).toBe("error")
        expect(failed.status_message).toContain("app.public.users.ssn")
        expect(failed.failed_at).toBeDefined()
        expect(failed.last_run?.completed_at).toEqual(failed.failed_at)
        yield* branches.updateMaskingRules({ ...branch, masking_rules: [rule("email", "anon.fake_email()")] })
        yield* branches.startAnonymization(branch)
        yield* TestClock.adjust("5 seconds")
        expect((yield* branches.getAnonymizedStatus(branch)).state).toBe("anonymized")
      }).pipe(provideFake)
  )

  it.effect("start_anonymization runs it once the branch is ready; a plain branch is refused (BadRequest)", () =>
    Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const created = yield* branches.createAnonymized({
        project_id,
        masking_rules: [rule("email", "anon.fake_email()")],
        start_anonymization: true
      })
      const branch = { project_id, branch_id: created.branch.id }
      expect((yield* branches.getAnonymizedStatus(branch)).state).toBe("created")
      yield* TestClock.adjust("1 minute")
      // No table on `main` in this run: the rule's column is missing, the run ends in error.
      expect((yield* branches.getAnonymizedStatus(branch)).state).toBe("error")
      const plain = { project_id, branch_id: main }
      expect((yield* Effect.flip(branches.getAnonymizedStatus(plain)))._tag).toBe("BadRequest")
      expect((yield* Effect.flip(branches.getMaskingRules(plain)))._tag).toBe("BadRequest")
      expect((yield* Effect.flip(branches.startAnonymization(plain)))._tag).toBe("BadRequest")
      const twice = yield* Effect.flip(
        branches.createAnonymized({ project_id, masking_rules: [rule("email", "a"), rule("email", "b")] })
      )
      expect(twice._tag).toBe("BadRequest")
    }).pipe(provideFake)
  )

  it.effect("a saved state keeps a run in flight: restored, it finishes on the clock", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      const branches = yield* Branches.Branches
      const branch = yield* anonymizedPreview([rule("email", "anon.fake_email()")])
      yield* branches.startAnonymization(branch)
      const saved = JSON.stringify(Schema.encodeSync(Snapshot)(yield* fake.snapshot))
      yield* fake.reset
      yield* fake.restore(Schema.decodeUnknownSync(Snapshot)(JSON.parse(saved)))
      expect((yield* branches.getAnonymizedStatus(branch)).state).toBe("anonymizing")
      yield* TestClock.adjust("1 second")
      expect((yield* branches.getAnonymizedStatus(branch)).state).toBe("anonymized")
    }).pipe(provideFake)
  )
})
