/** Wire fixtures of the client's unit tests: what a real server sends for each resource. */
import { BranchId, OperationId, ProjectId } from "@dbplatform/core"

export const baseUrl = "http://fake.test/api/v2"
export const secret = "secret-key"
export const projectId = ProjectId.make("spring-example-302709")
export const operationId = OperationId.make("f8a1f3f5-7c39-4b5e-9d2a-0e6a1b7c9d01")

export const projectItem = (id: string) => ({
  id,
  platform_id: "aws",
  region_id: "aws-us-east-2",
  name: id,
  provisioner: "k8s-neonvm",
  pg_version: 17,
  proxy_host: "us-east-2.aws.example.tech",
  branch_logical_size_limit: 3072,
  branch_logical_size_limit_bytes: 3221225472,
  store_passwords: true,
  active_time: 120,
  cpu_used_sec: 0,
  locked: false,
  creation_source: "console",
  created_at: "2022-11-15T20:13:35Z",
  updated_at: "2022-12-09T08:47:52.20417Z",
  owner_id: "1232111b-2ea1-4d5a-b5c4-6ea0bda8ed2a",
  settings: { allowed_ips: { ips: [] } }
})

export const projectsPage = {
  projects: [projectItem("spring-example-302709")],
  pagination: { cursor: "spring-example-302709" },
  applications: {},
  integrations: {}
}

export const operationItem = (n: number, createdAt = "2022-12-09T08:47:52.20417Z", status = "finished") => ({
  id: `f8a1f3f5-7c39-4b5e-9d2a-0e6a1b7c9d0${n}`,
  project_id: "spring-example-302709",
  branch_id: "br-wispy-meadow-118737",
  endpoint_id: "ep-proud-mud-a5x8dq2u",
  action: "start_compute",
  status,
  failures_count: 0,
  created_at: createdAt,
  updated_at: createdAt,
  total_duration_ms: 120
})

export const apiKeyCreated = {
  id: 165432,
  key: "dbp_live_0123456789abcdef",
  name: "ci",
  created_at: "2022-11-15T20:13:35Z",
  created_by: "1232111b-2ea1-4d5a-b5c4-6ea0bda8ed2a"
}

export const branchId = BranchId.make("br-wispy-meadow-118737")

export const branchItem = (id: string = branchId, overrides: Record<string, unknown> = {}) => ({
  id,
  project_id: "spring-example-302709",
  parent_id: "br-aged-salad-637688",
  name: `name-of-${id}`,
  current_state: "ready",
  state_changed_at: "2022-11-30T20:09:48Z",
  creation_source: "console",
  primary: false,
  default: false,
  protected: false,
  cpu_used_sec: 0,
  compute_time_seconds: 0,
  active_time_seconds: 0,
  written_data_bytes: 0,
  data_transfer_bytes: 0,
  created_at: "2022-11-30T19:09:48Z",
  updated_at: "2022-12-01T19:53:05Z",
  ...overrides
})

/** A branch's annotation as the platform answers it with the branch (`GET .../branches/{branch_id}`). */
export const annotationOf = (id: string = branchId) => ({ object: { type: "console/branch", id }, value: {} })

export const computeEndpointItem = (branch: string = branchId) => ({
  host: "ep-cool-darkness-123456.us-east-2.aws.example.tech",
  id: "ep-cool-darkness-123456",
  project_id: "spring-example-302709",
  branch_id: branch,
  autoscaling_limit_min_cu: 0.25,
  autoscaling_limit_max_cu: 1,
  region_id: "aws-us-east-2",
  type: "read_write",
  current_state: "init",
  pending_state: "active",
  settings: {},
  pooler_enabled: false,
  pooler_mode: "transaction",
  disabled: false,
  passwordless_access: true,
  creation_source: "console",
  created_at: "2022-11-30T19:09:48Z",
  updated_at: "2022-11-30T19:09:48Z",
  proxy_host: "us-east-2.aws.example.tech",
  suspend_timeout_seconds: 0,
  provisioner: "k8s-neonvm"
})

export const rolePassword = "AbC123dEf456"

export const branchCreated = {
  branch: branchItem(branchId, { current_state: "init", pending_state: "ready" }),
  endpoints: [computeEndpointItem()],
  operations: [
    { ...operationItem(1, "2022-11-30T19:09:48Z", "running"), action: "create_branch", endpoint_id: undefined },
    { ...operationItem(2, "2022-11-30T19:09:48Z", "scheduling"), action: "start_compute" }
  ],
  roles: [
    {
      branch_id: branchId,
      name: "app_owner",
      password: rolePassword,
      protected: false,
      created_at: "2022-11-30T19:09:48Z",
      updated_at: "2022-11-30T19:09:48Z"
    }
  ],
  databases: [
    {
      id: 834686,
      branch_id: branchId,
      name: "app",
      owner_name: "app_owner",
      created_at: "2022-11-30T19:09:48Z",
      updated_at: "2022-11-30T19:09:48Z"
    }
  ],
  connection_uris: [
    {
      connection_uri: `postgresql://app_owner:${rolePassword}@ep-cool-darkness-123456.us-east-2.aws.example.tech/app`,
      connection_parameters: {
        database: "app",
        password: rolePassword,
        role: "app_owner",
        host: "ep-cool-darkness-123456.us-east-2.aws.example.tech",
        pooler_host: "ep-cool-darkness-123456-pooler.us-east-2.aws.example.tech"
      }
    }
  ]
}
