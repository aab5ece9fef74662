import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either, Option, Redacted, Schema } from "effect"
import * as util from "node:util"
import {
  Api,
  Branch,
  BranchCreated,
  BranchEnvelope,
  BranchesCount,
  BranchesPage,
  BranchOperations,
  ComputeEndpoint,
  ComputeEndpoints,
  ConnectionDetails,
  Database,
  DecodeIssue,
  Role
} from "../src/index.js"

const password = "AbC123dEf456"
const uri = `postgresql://neondb_owner:${password}@ep-cool-darkness-123456.us-east-2.aws.neon.tech/neondb?sslmode=require`

/** A branch as the platform sends it, with a field this SDK does not declare (`unknown_field`). */
const branchWire = (overrides: Record<string, unknown> = {}) => ({
  id: "br-wispy-meadow-118737",
  project_id: "spring-example-302709",
  parent_id: "br-aged-salad-637688",
  parent_lsn: "0/1DE2850",
  parent_timestamp: "2022-11-30T19:09:48Z",
  name: "preview/pr-42",
  current_state: "ready",
  state_changed_at: "2022-11-30T20:09:48Z",
  logical_size: 28,
  creation_source: "console",
  primary: false,
  default: false,
  protected: false,
  cpu_used_sec: 78,
  compute_time_seconds: 78,
  active_time_seconds: 312,
  written_data_bytes: 100800,
  data_transfer_bytes: 1000000,
  created_at: "2022-11-30T19:09:48Z",
  updated_at: "2022-12-01T19:53:05.20417Z",
  created_by: { name: "someone", image: "" },
  init_source: "parent-data",
  restricted_actions: [{ name: "restore", reason: "the branch is being reset" }],
  unknown_field: "kept out",
  ...overrides
})

const endpointWire = (overrides: Record<string, unknown> = {}) => ({
  host: "ep-cool-darkness-123456.us-east-2.aws.neon.tech",
  id: "ep-cool-darkness-123456",
  project_id: "spring-example-302709",
  branch_id: "br-wispy-meadow-118737",
  autoscaling_limit_min_cu: 0.25,
  autoscaling_limit_max_cu: 2,
  region_id: "aws-us-east-2",
  type: "read_write",
  current_state: "init",
  pending_state: "active",
  settings: { pg_settings: { work_mem: "64MB" }, pgbouncer_settings: { pool_size: "64" } },
  pooler_enabled: false,
  pooler_mode: "transaction",
  disabled: false,
  passwordless_access: true,
  creation_source: "console",
  created_at: "2022-11-30T19:09:48Z",
  updated_at: "2022-11-30T19:09:48Z",
  proxy_host: "us-east-2.aws.neon.tech",
  suspend_timeout_seconds: 0,
  provisioner: "k8s-neonvm",
  compute_release_version: "9391",
  ...overrides
})

const operationWire = (action: string) => ({
  id: "a07f8772-1877-4da9-a939-3a3ae62d1d8d",
  project_id: "spring-example-302709",
  branch_id: "br-wispy-meadow-118737",
  action,
  status: "running",
  failures_count: 0,
  created_at: "2022-11-30T19:09:48Z",
  updated_at: "2022-11-30T19:09:48Z",
  total_duration_ms: 0
})

const roleWire = {
  branch_id: "br-wispy-meadow-118737",
  name: "neondb_owner",
  password,
  protected: false,
  authentication_method: "password",
  created_at: "2022-11-30T19:09:48Z",
  updated_at: "2022-11-30T19:09:48Z"
}

const databaseWire = {
  id: 834686,
  branch_id: "br-wispy-meadow-118737",
  name: "neondb",
  owner_name: "neondb_owner",
  created_at: "2022-11-30T19:09:48Z",
  updated_at: "2022-11-30T19:09:48Z"
}

const connectionWire = {
  connection_uri: uri,
  connection_parameters: {
    database: "neondb",
    password,
    role: "neondb_owner",
    host: "ep-cool-darkness-123456.us-east-2.aws.neon.tech",
    pooler_host: "ep-cool-darkness-123456-pooler.us-east-2.aws.neon.tech"
  }
}

const createdWire = {
  branch: branchWire({ current_state: "init", pending_state: "ready" }),
  endpoints: [endpointWire()],
  operations: [operationWire("create_branch"), { ...operationWire("start_compute"), status: "scheduling" }],
  roles: [roleWire],
  databases: [databaseWire],
  connection_uris: [connectionWire],
  annotation: { value: {} }
}

/** The password and the URI must not show in any rendering of `value`. */
const expectNoSecret = (value: unknown) => {
  for (const text of [String(value), JSON.stringify(value), util.inspect(value, { depth: 10 })]) {
    expect(text).not.toContain(password)
    expect(text).not.toContain("neondb_owner:")
  }
}

describe("Branch", () => {
  it("decodes a branch as the platform sends it, ignoring fields it does not declare", () => {
    const branch = Schema.decodeUnknownSync(Branch)(branchWire())
    expect(branch.id).toBe("br-wispy-meadow-118737")
    expect(branch.parent_id).toBe("br-aged-salad-637688")
    expect(branch.current_state).toBe("ready")
    expect(DateTime.formatIso(branch.updated_at)).toBe("2022-12-01T19:53:05.204Z")
    expect(branch.written_data_bytes).toBe(100800)
    // Declared since 0.5.0, as the published document declares them.
    expect(branch.primary).toBe(false)
    expect(branch.created_by).toEqual({ name: "someone", image: "" })
    expect(branch.restricted_actions?.map((action) => action.name)).toEqual(["restore"])
    expect(branch.recovery).toBeUndefined()
    expect("unknown_field" in branch).toBe(false)
  })

  it("decodes a deleted branch's recovery, keeping a deletion method it does not know", () => {
    const recovery = { deleted_at: "2022-12-01T19:53:05Z", recoverable_until: "2022-12-08T19:53:05Z" }
    const deleted = Schema.decodeUnknownSync(Branch)(branchWire({ recovery: { ...recovery, deletion_method: "ttl" } }))
    expect(deleted.recovery?.deletion_method).toBe("ttl")
    expect(DateTime.formatIso(deleted.recovery!.recoverable_until)).toBe("2022-12-08T19:53:05.000Z")
    const later = branchWire({ recovery: { ...recovery, deletion_method: "archived" } })
    expect(Schema.decodeUnknownSync(Branch)(later).recovery?.deletion_method).toBe("archived")
  })

  it("keeps a state it does not know, and a root branch has no parent", () => {
    const { parent_id: _, ...root } = branchWire({
      current_state: "hibernating",
      pending_state: "ready",
      default: true
    })
    const branch = Schema.decodeUnknownSync(Branch)(root)
    expect(branch.current_state).toBe("hibernating")
    expect(branch.parent_id).toBeUndefined()
    expect(branch.default).toBe(true)
  })

  it("refuses a branch without one of the fields the platform always sends", () => {
    const { data_transfer_bytes: _, ...partial } = branchWire()
    const result = Schema.decodeUnknownEither(Branch)(partial)
    expect(Either.isLeft(result) && DecodeIssue.format(result.left.issue)).toBe("data_transfer_bytes: is missing")
  })

  it("decodes the envelopes", () => {
    const annotation = {
      object: { type: "console/branch", id: "br-wispy-meadow-118737" },
      value: { "ci/run": "1234" },
      created_at: "2022-11-30T19:09:48Z"
    }
    const envelope = Schema.decodeUnknownSync(BranchEnvelope)({ branch: branchWire(), annotation })
    expect(envelope.branch.name).toBe("preview/pr-42")
    expect(envelope.annotation.value).toEqual({ "ci/run": "1234" })
    const changed = Schema.decodeUnknownSync(BranchOperations)({ branch: branchWire(), operations: [] })
    expect(changed.operations).toEqual([])
    const page = Schema.decodeUnknownSync(BranchesPage)({
      branches: [branchWire()],
      annotations: { "br-wispy-meadow-118737": annotation },
      pagination: { next: "opaque-cursor", sort_by: "updated_at", sort_order: "desc" }
    })
    expect(page.pagination?.next).toBe("opaque-cursor")
    expect(page.annotations["br-wispy-meadow-118737"]?.object.id).toBe("br-wispy-meadow-118737")
    expect(Schema.decodeUnknownSync(BranchesPage)({ branches: [], annotations: {} }).pagination).toBeUndefined()
    expect(Schema.decodeUnknownSync(BranchesCount)({ count: 3, extra: true }).count).toBe(3)
  })

  it("decodes a 204's missing body as None for a delete, and a body as Some", () => {
    const decode = Schema.decodeUnknownSync(Api.Branches.delete.success)
    expect(decode(undefined)).toEqual(Option.none())
    const deleted = decode({
      branch: branchWire(),
      operations: [operationWire("suspend_compute"), operationWire("delete_timeline")]
    })
    expect(Option.map(deleted, (answer) => answer.operations.map((operation) => operation.action))).toEqual(
      Option.some(["suspend_compute", "delete_timeline"])
    )
    expect(Schema.encodeSync(Api.Branches.delete.success)(Option.none())).toBeUndefined()
  })
})

describe("ComputeEndpoint", () => {
  it("decodes a compute endpoint, keeping the settings it declares only", () => {
    const wire = endpointWire({
      settings: { pg_settings: { work_mem: "64MB" }, pgbouncer_settings: { pool_size: "64" }, unknown: {} },
      compute_release_version: "9012"
    })
    const endpoint = Schema.decodeUnknownSync(ComputeEndpoint)(wire)
    expect(endpoint.autoscaling_limit_max_cu).toBe(2)
    expect(endpoint.current_state).toBe("init")
    expect(endpoint.settings.pg_settings).toEqual({ work_mem: "64MB" })
    expect(endpoint.compute_release_version).toBe("9012")
    expect(Schema.encodeSync(ComputeEndpoint)(endpoint).settings).toEqual({
      pg_settings: { work_mem: "64MB" },
      pgbouncer_settings: { pool_size: "64" }
    })
  })

  it("keeps a type and a state it does not know", () => {
    const { endpoints } = Schema.decodeUnknownSync(ComputeEndpoints)({
      endpoints: [endpointWire({ type: "read_replica", current_state: "hibernating", settings: {} })]
    })
    expect(endpoints[0]?.type).toBe("read_replica")
    expect(endpoints[0]?.current_state).toBe("hibernating")
  })
})

describe("Role, Database, ConnectionDetails", () => {
  it("decodes a role's password to Redacted, and encodes it back", () => {
    const role = Schema.decodeUnknownSync(Role)(roleWire)
    expect(Option.map(Option.fromNullable(role.password), Redacted.value)).toEqual(Option.some(password))
    expectNoSecret(role)
    expect(Schema.encodeSync(Role)(role).password).toBe(password)
    const { password: _, ...withoutPassword } = roleWire
    expect(Schema.decodeUnknownSync(Role)(withoutPassword).password).toBeUndefined()
  })

  it("decodes a database", () => {
    expect(Schema.decodeUnknownSync(Database)(databaseWire).owner_name).toBe("neondb_owner")
  })

  it("decodes the URI and the password to Redacted, shown nowhere, and encodes them back", () => {
    const details = Schema.decodeUnknownSync(ConnectionDetails)(connectionWire)
    expect(Redacted.value(details.connection_uri)).toBe(uri)
    expect(Redacted.value(details.connection_parameters.password)).toBe(password)
    expectNoSecret(details)
    expect(Schema.encodeSync(ConnectionDetails)(details)).toEqual(connectionWire)
  })

  it("never shows the secrets in the message of a failed decode", () => {
    const broken = { ...connectionWire, connection_parameters: { ...connectionWire.connection_parameters, host: 5 } }
    const result = Schema.decodeUnknownEither(ConnectionDetails, { errors: "all" })(broken)
    if (Either.isRight(result)) throw new Error("expected decoding to fail")
    expect(result.left.message).toContain("host")
    expectNoSecret(result.left)
    expect(DecodeIssue.format(result.left.issue, { values: "never" })).not.toContain(password)
    const created = Schema.decodeUnknownEither(BranchCreated)({ ...createdWire, connection_uris: [broken] })
    if (Either.isRight(created)) throw new Error("expected decoding to fail")
    expectNoSecret(created.left)
  })
})

describe("BranchCreated", () => {
  it("decodes a 201 answer: branch, compute endpoints, operations, roles, databases, connection URIs", () => {
    const created = Schema.decodeUnknownSync(BranchCreated)(createdWire)
    expect(created.branch.pending_state).toBe("ready")
    expect(created.endpoints.map((endpoint) => endpoint.id)).toEqual(["ep-cool-darkness-123456"])
    expect(created.operations.map((operation) => operation.action)).toEqual(["create_branch", "start_compute"])
    expect(created.roles[0]?.name).toBe("neondb_owner")
    expect(created.databases[0]?.name).toBe("neondb")
    expect(created.connection_uris?.length).toBe(1)
    expectNoSecret(created)
  })

  it("takes an answer without connection URIs", () => {
    const { connection_uris: _, ...rest } = createdWire
    expect(Schema.decodeUnknownSync(BranchCreated)(rest).connection_uris).toBeUndefined()
  })
})
