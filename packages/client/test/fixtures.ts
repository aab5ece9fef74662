/** Wire fixtures of the client's unit tests: what a real server sends for each resource. */
import { OperationId, ProjectId } from "@dbplatform/core"

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
