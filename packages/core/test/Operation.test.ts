import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Either, ParseResult, Schema } from "effect"
import {
  isFailed,
  isPending,
  isSucceeded,
  isTerminal,
  KnownOperationAction,
  KnownOperationStatus,
  Operation,
  OperationEnvelope,
  OperationStillPending,
  OperationsPage,
  OperationsStarted
} from "../src/index.js"

/** The readable report of a payload that must not decode. */
const decodeFailure = <A, I>(schema: Schema.Schema<A, I>, input: unknown): string => {
  const result = Schema.decodeUnknownEither(schema)(input)
  if (Either.isRight(result)) {
    throw new Error(`expected decoding to fail, got ${String(result.right)}`)
  }
  return ParseResult.TreeFormatter.formatErrorSync(result.left)
}

/** An operation as a real server sends it: extra fields included. */
const startCompute = {
  id: "a07f8772-1877-4da9-a939-3a3ae62d1d8d",
  project_id: "spring-example-302709",
  branch_id: "br-wispy-meadow-118737",
  endpoint_id: "ep-proud-mud-a5x8dq2u",
  action: "start_compute",
  status: "running",
  failures_count: 0,
  created_at: "2022-12-09T08:47:52.20417Z",
  updated_at: "2022-12-09T08:47:56Z",
  total_duration_ms: 4012,
  some_field_added_next_year: { nested: [1, 2, 3] }
}

/** `create_branch` has no `endpoint_id`. */
const createBranch = {
  id: "f8d6c1a2-0b3e-4c5d-8e9f-1a2b3c4d5e6f",
  project_id: "spring-example-302709",
  branch_id: "br-wispy-meadow-118737",
  action: "create_branch",
  status: "finished",
  failures_count: 0,
  created_at: "2022-11-15T20:13:35Z",
  updated_at: "2022-11-15T20:13:36Z",
  total_duration_ms: 1039
}

/** The shape §2.5 names, nothing more. */
const specOnly = {
  id: "0c6a3c6e-2c8b-4b6a-9f5e-7d2a1e4b3c9d",
  project_id: "spring-example-302709",
  branch_id: "br-wispy-meadow-118737",
  endpoint_id: "ep-proud-mud-a5x8dq2u",
  action: "suspend_compute",
  status: "scheduling",
  failures_count: 0,
  created_at: "2022-11-15T20:13:35Z",
  updated_at: "2022-11-15T20:13:35Z"
}

describe("Operation decoding", () => {
  it("decodes an operation as a real server sends it, ignoring unknown fields", () => {
    const op = Schema.decodeUnknownSync(Operation)(startCompute)
    expect(op).toBeInstanceOf(Operation)
    expect(op.id).toBe("a07f8772-1877-4da9-a939-3a3ae62d1d8d")
    expect(op.project_id).toBe("spring-example-302709")
    expect(op.branch_id).toBe("br-wispy-meadow-118737")
    expect(op.endpoint_id).toBe("ep-proud-mud-a5x8dq2u")
    expect(op.action).toBe("start_compute")
    expect(op.status).toBe("running")
    expect(op.failures_count).toBe(0)
    expect(op.total_duration_ms).toBe(4012)
    expect(op).not.toHaveProperty("some_field_added_next_year")
  })

  it("decodes an operation with only the fields of spec §2.5", () => {
    const op = Schema.decodeUnknownSync(Operation)(specOnly)
    expect(op.action).toBe("suspend_compute")
    expect(op.status).toBe("scheduling")
    expect(op.total_duration_ms).toBeUndefined()
    expect(op.error).toBeUndefined()
    expect(op.retry_at).toBeUndefined()
  })

  it("decodes create_branch without endpoint_id", () => {
    const op = Schema.decodeUnknownSync(Operation)(createBranch)
    expect(op.action).toBe("create_branch")
    expect(op.endpoint_id).toBeUndefined()
  })

  it("decodes a failed operation with error and retry_at", () => {
    const op = Schema.decodeUnknownSync(Operation)({
      ...startCompute,
      status: "failed",
      failures_count: 3,
      error: "compute node did not start",
      retry_at: "2022-12-09T08:50:00.5Z"
    })
    expect(op.status).toBe("failed")
    expect(op.failures_count).toBe(3)
    expect(op.error).toBe("compute node did not start")
    expect(op.retry_at).toBeDefined()
    expect(DateTime.toEpochMillis(op.retry_at!)).toBe(Date.UTC(2022, 11, 9, 8, 50, 0, 500))
    expect(isTerminal(op)).toBe(true)
  })

  it("decodes timestamps with and without fractional seconds to DateTime.Utc", () => {
    const op = Schema.decodeUnknownSync(Operation)(startCompute)
    expect(DateTime.isDateTime(op.created_at)).toBe(true)
    expect(DateTime.isUtc(op.created_at)).toBe(true)
    expect(DateTime.isUtc(op.updated_at)).toBe(true)
    // 2022-12-09T08:47:52.20417Z, at millisecond precision
    expect(DateTime.toEpochMillis(op.created_at)).toBe(1670575672204)
    // 2022-12-09T08:47:56Z
    expect(DateTime.toEpochMillis(op.updated_at)).toBe(1670575676000)
  })

  it("keeps an unknown action and an unknown status as their strings", () => {
    const op = Schema.decodeUnknownSync(Operation)({
      ...startCompute,
      action: "rebalance_shards_v2",
      status: "waiting_for_quorum"
    })
    expect(op.action).toBe("rebalance_shards_v2")
    expect(op.status).toBe("waiting_for_quorum")
  })

  it.each(KnownOperationAction.literals)("decodes the known action %s", (action) => {
    expect(Schema.decodeUnknownSync(Operation)({ ...startCompute, action }).action).toBe(action)
  })

  it.each(KnownOperationStatus.literals)("decodes the known status %s", (status) => {
    expect(Schema.decodeUnknownSync(Operation)({ ...startCompute, status }).status).toBe(status)
  })

  it("encodes back to the wire shape and decodes to the same instants", () => {
    const op = Schema.decodeUnknownSync(Operation)(startCompute)
    const wire = Schema.encodeSync(Operation)(op)
    expect(wire.created_at).toBe("2022-12-09T08:47:52.204Z")
    expect(wire.updated_at).toBe("2022-12-09T08:47:56.000Z")
    expect(wire.id).toBe(startCompute.id)
    const again = Schema.decodeUnknownSync(Operation)(wire)
    expect(DateTime.toEpochMillis(again.created_at)).toBe(DateTime.toEpochMillis(op.created_at))
    expect(again.action).toBe(op.action)
  })
})

describe("Operation rejects malformed payloads, naming the field", () => {
  it("rejects an operation without status", () => {
    const { status: _status, ...withoutStatus } = startCompute
    const message = decodeFailure(Operation, withoutStatus)
    expect(message).toContain('["status"]')
    expect(message).toContain("is missing")
  })

  it("rejects failures_count sent as a string", () => {
    const message = decodeFailure(Operation, { ...startCompute, failures_count: "1" })
    expect(message).toContain('["failures_count"]')
    expect(message).toContain('actual "1"')
  })

  it("rejects a fractional failures_count", () => {
    const message = decodeFailure(Operation, { ...startCompute, failures_count: 1.5 })
    expect(message).toContain('["failures_count"]')
  })

  it("rejects an operation id that is not a UUID", () => {
    const message = decodeFailure(Operation, { ...startCompute, id: "op-12345" })
    expect(message).toContain('["id"]')
    expect(message).toContain("OperationId")
    expect(message).toContain('"op-12345"')
  })

  it.each(["Spring-Example-302709", "spring/example", "", "a".repeat(61)])(
    "rejects the project id %j",
    (project_id) => {
      const message = decodeFailure(Operation, { ...startCompute, project_id })
      expect(message).toContain('["project_id"]')
      expect(message).toContain("a project id is 1 to 60 of a-z, 0-9 and -")
    }
  )

  it.each(["yesterday", "2022-13-45T99:00:00Z", ""])("rejects the timestamp %j", (created_at) => {
    const message = decodeFailure(Operation, { ...startCompute, created_at })
    expect(message).toContain('["created_at"]')
    expect(message).toContain("Timestamp")
    expect(message).toContain(JSON.stringify(created_at))
  })

  it("rejects a timestamp that is not a string", () => {
    const message = decodeFailure(Operation, { ...startCompute, updated_at: 1670575672204 })
    expect(message).toContain('["updated_at"]')
  })

  it("rejects an action or status that is not a string", () => {
    expect(decodeFailure(Operation, { ...startCompute, action: 7 })).toContain('["action"]')
    expect(decodeFailure(Operation, { ...startCompute, status: null })).toContain('["status"]')
  })

  it.effect("fails the decoding effect with a ParseError whose message names the field", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        Schema.decodeUnknown(OperationEnvelope)({ operation: { ...startCompute, failures_count: "2" } })
      )
      expect(error._tag).toBe("ParseError")
      expect(error.message).toContain('["operation"]')
      expect(error.message).toContain('["failures_count"]')
    })
  )
})

describe("OperationsPage", () => {
  it("decodes a page with pagination, keeping the cursor verbatim", () => {
    const page = Schema.decodeUnknownSync(OperationsPage)({
      operations: [startCompute, createBranch],
      pagination: { cursor: "2022-12-09T08:47:52.20417Z" }
    })
    expect(page.operations).toHaveLength(2)
    expect(page.operations.map((op) => op.action)).toEqual(["start_compute", "create_branch"])
    // passed back as-is (URL-encoded) as the next `cursor`: the 5 fractional digits must survive
    expect(page.pagination?.cursor).toBe("2022-12-09T08:47:52.20417Z")
  })

  it("decodes a page without pagination", () => {
    const page = Schema.decodeUnknownSync(OperationsPage)({ operations: [createBranch] })
    expect(page.operations).toHaveLength(1)
    expect(page.pagination).toBeUndefined()
  })

  it("decodes an empty last page that still carries a cursor", () => {
    const page = Schema.decodeUnknownSync(OperationsPage)({
      operations: [],
      pagination: { cursor: "2022-11-15T20:13:35.123456Z" }
    })
    expect(page.operations).toEqual([])
    expect(page.pagination?.cursor).toBe("2022-11-15T20:13:35.123456Z")
  })

  it("ignores unknown fields on the page and in the pagination object", () => {
    const page = Schema.decodeUnknownSync(OperationsPage)({
      operations: [startCompute],
      pagination: { cursor: "2022-12-09T08:47:52.20417Z", next: "x" },
      total: 12
    })
    expect(page.operations[0]?.id).toBe(startCompute.id)
    expect(page.pagination?.cursor).toBe("2022-12-09T08:47:52.20417Z")
  })

  it("does not fail a page on an unknown action or status", () => {
    const page = Schema.decodeUnknownSync(OperationsPage)({
      operations: [startCompute, { ...createBranch, action: "brand_new_action", status: "brand_new_status" }]
    })
    expect(page.operations[1]?.action).toBe("brand_new_action")
    expect(page.operations[1]?.status).toBe("brand_new_status")
  })

  it("names the index and the field of a malformed operation in a page", () => {
    const message = decodeFailure(OperationsPage, {
      operations: [startCompute, { ...createBranch, id: "not-a-uuid" }]
    })
    expect(message).toContain('["operations"]')
    expect(message).toContain("[1]")
    expect(message).toContain('["id"]')
  })

  it("rejects an empty cursor", () => {
    const message = decodeFailure(OperationsPage, { operations: [], pagination: { cursor: "" } })
    expect(message).toContain('["pagination"]')
    expect(message).toContain('["cursor"]')
  })

  it("rejects a page without operations", () => {
    const message = decodeFailure(OperationsPage, { pagination: { cursor: "2022-12-09T08:47:52.20417Z" } })
    expect(message).toContain('["operations"]')
    expect(message).toContain("is missing")
  })
})

describe("OperationEnvelope and OperationsStarted", () => {
  it("decodes the single-operation envelope", () => {
    const envelope = Schema.decodeUnknownSync(OperationEnvelope)({ operation: startCompute, extra: true })
    expect(envelope.operation).toBeInstanceOf(Operation)
    expect(envelope.operation.id).toBe(startCompute.id)
    expect(envelope.operation.status).toBe("running")
  })

  it("rejects an envelope without operation", () => {
    const message = decodeFailure(OperationEnvelope, { operations: [startCompute] })
    expect(message).toContain('["operation"]')
    expect(message).toContain("is missing")
  })

  it("decodes the operations a mutating request started, next to the resource it returns", () => {
    const started = Schema.decodeUnknownSync(OperationsStarted)({
      branch: { id: "br-wispy-meadow-118737", name: "dev" },
      endpoints: [{ id: "ep-proud-mud-a5x8dq2u" }],
      operations: [
        { ...createBranch, status: "running" },
        { ...startCompute, status: "scheduling" }
      ]
    })
    expect(started.operations.map((op) => [op.action, op.status])).toEqual([
      ["create_branch", "running"],
      ["start_compute", "scheduling"]
    ])
  })
})

describe("status predicates", () => {
  const table: ReadonlyArray<{
    readonly status: string
    readonly pending: boolean
    readonly succeeded: boolean
    readonly failed: boolean
    readonly terminal: boolean
  }> = [
    { status: "scheduling", pending: true, succeeded: false, failed: false, terminal: false },
    { status: "running", pending: true, succeeded: false, failed: false, terminal: false },
    { status: "cancelling", pending: true, succeeded: false, failed: false, terminal: false },
    { status: "finished", pending: false, succeeded: true, failed: false, terminal: true },
    { status: "skipped", pending: false, succeeded: true, failed: false, terminal: true },
    { status: "failed", pending: false, succeeded: false, failed: true, terminal: true },
    { status: "error", pending: false, succeeded: false, failed: true, terminal: true },
    { status: "cancelled", pending: false, succeeded: false, failed: true, terminal: true }
  ]

  it("covers every known status", () => {
    expect(table.map((row) => row.status).sort()).toEqual([...KnownOperationStatus.literals].sort())
  })

  it.each(table)("$status: pending=$pending succeeded=$succeeded failed=$failed terminal=$terminal", (row) => {
    const op = Schema.decodeUnknownSync(Operation)({ ...startCompute, status: row.status })
    expect(isPending(op)).toBe(row.pending)
    expect(isSucceeded(op)).toBe(row.succeeded)
    expect(isFailed(op)).toBe(row.failed)
    expect(isTerminal(op)).toBe(row.terminal)
  })

  it("treats an unknown status as neither pending nor terminal", () => {
    const op = Schema.decodeUnknownSync(Operation)({ ...startCompute, status: "paused_by_admin" })
    expect(isPending(op)).toBe(false)
    expect(isSucceeded(op)).toBe(false)
    expect(isFailed(op)).toBe(false)
    expect(isTerminal(op)).toBe(false)
  })

  it("is case-sensitive: FINISHED is not a known status", () => {
    expect(isTerminal({ status: "FINISHED" })).toBe(false)
    expect(isPending({ status: "RUNNING" })).toBe(false)
  })
})

describe("OperationStillPending", () => {
  it.effect("names the operation, its action and its last status, and is caught by tag", () =>
    Effect.gen(function* () {
      const operation = Schema.decodeUnknownSync(Operation)(startCompute)
      const error = new OperationStillPending({ operation })
      expect(error).toBeInstanceOf(Error)
      expect(error.message).toBe("operation a07f8772-1877-4da9-a939-3a3ae62d1d8d (start_compute) is still running")
      const caught = yield* Effect.fail(error).pipe(
        Effect.catchTag("OperationStillPending", (e) => Effect.succeed(e.operation.status))
      )
      expect(caught).toBe("running")
    })
  )
})
