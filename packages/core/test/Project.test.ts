import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either, ParseResult, Schema } from "effect"
import { Project, ProjectId, ProjectsPage } from "../src/index.js"

/** The readable report of a payload that must not decode. */
const decodeFailure = <A, I>(schema: Schema.Schema<A, I>, input: unknown): string => {
  const result = Schema.decodeUnknownEither(schema)(input)
  if (Either.isRight(result)) {
    throw new Error(`expected decoding to fail, got ${String(result.right)}`)
  }
  return ParseResult.TreeFormatter.formatErrorSync(result.left)
}

/** Only the fields of spec §2.4. */
const specProject = {
  id: "spring-example-302709",
  name: "spring-example",
  platform_id: "aws",
  region_id: "aws-us-east-2",
  provisioner: "k8s-pod",
  pg_version: 15,
  locked: false,
  cpu_used_sec: 0,
  branch_logical_size_limit: 3072,
  proxy_host: "us-east-2.aws.neon.tech",
  created_at: "2022-11-15T20:13:35Z",
  updated_at: "2022-12-09T08:47:52.20417Z"
}

/** A project as a real server sends it: spec fields, the fields of `docs/contract.md` §10.4, and more. */
const realProject = {
  ...specProject,
  id: "quiet-forest-10",
  provisioner: "k8s-neonvm",
  pg_version: 17,
  locked: true,
  cpu_used_sec: 1234,
  branch_logical_size_limit_bytes: 3221225472,
  store_passwords: true,
  active_time: 5678,
  creation_source: "console",
  owner_id: "6f2b1c9e-3d4a-4e8b-9c7d-1a2b3c4d5e6f",
  org_id: "org-morning-bread-81040908",
  org_name: "Acme",
  history_retention_seconds: 86400,
  compute_last_active_at: "2024-03-01T12:00:00.123Z",
  maintenance_starts_at: "2024-03-10T00:00:00Z",
  synthetic_storage_size: 31940760,
  quota_reset_at: "2024-04-01T00:00:00Z",
  deleted_at: null,
  recoverable_until: null,
  settings: {
    quota: { active_time_seconds: 0 },
    allowed_ips: { ips: [], protected_branches_only: false },
    enable_logical_replication: false
  },
  default_endpoint_settings: {
    autoscaling_limit_min_cu: 0.25,
    autoscaling_limit_max_cu: 2,
    suspend_timeout_seconds: 0
  },
  owner: { email: "ada@example.com", name: "Ada", branches_limit: 10, subscription_type: "free_v3" },
  effective_project_permission: null,
  unknown_field: "kept out"
}

describe("Project decoding", () => {
  it("decodes a project with only the fields of spec §2.4", () => {
    const project = Schema.decodeUnknownSync(Project)(specProject)
    expect(project).toBeInstanceOf(Project)
    expect(project.id).toBe("spring-example-302709")
    expect(project.name).toBe("spring-example")
    expect(project.platform_id).toBe("aws")
    expect(project.region_id).toBe("aws-us-east-2")
    expect(project.provisioner).toBe("k8s-pod")
    expect(project.pg_version).toBe(15)
    expect(project.locked).toBe(false)
    expect(project.cpu_used_sec).toBe(0)
    expect(project.branch_logical_size_limit).toBe(3072)
    expect(project.proxy_host).toBe("us-east-2.aws.neon.tech")
    expect(DateTime.toEpochMillis(project.created_at)).toBe(1668543215000)
    expect(DateTime.toEpochMillis(project.updated_at)).toBe(1670575672204)
    expect(project.branch_logical_size_limit_bytes).toBeUndefined()
    expect(project.owner_id).toBeUndefined()
    expect(project.compute_last_active_at).toBeUndefined()
  })

  it("decodes a project with all the fields a real server sends, ignoring the unknown ones", () => {
    const project = Schema.decodeUnknownSync(Project)(realProject)
    expect(project.id).toBe("quiet-forest-10")
    expect(project.provisioner).toBe("k8s-neonvm")
    expect(project.pg_version).toBe(17)
    expect(project.locked).toBe(true)
    expect(project.cpu_used_sec).toBe(1234)
    expect(project.branch_logical_size_limit_bytes).toBe(3221225472)
    expect(project.store_passwords).toBe(true)
    expect(project.active_time).toBe(5678)
    expect(project.creation_source).toBe("console")
    expect(project.owner_id).toBe("6f2b1c9e-3d4a-4e8b-9c7d-1a2b3c4d5e6f")
    expect(project.org_id).toBe("org-morning-bread-81040908")
    expect(project.history_retention_seconds).toBe(86400)
    expect(DateTime.isUtc(project.compute_last_active_at!)).toBe(true)
    expect(DateTime.toEpochMillis(project.compute_last_active_at!)).toBe(Date.UTC(2024, 2, 1, 12, 0, 0, 123))
    // Decoded since 0.5.0 (docs/contract.md §22.2).
    expect(project.settings?.allowed_ips).toEqual({ ips: [], protected_branches_only: false })
    expect(project.settings?.enable_logical_replication).toBe(false)
    // Declared since 0.5.0, as the published document declares them.
    expect(project.owner?.subscription_type).toBe("free_v3")
    expect(project.org_name).toBe("Acme")
    expect(project.synthetic_storage_size).toBe(31940760)
    expect(DateTime.formatIso(project.maintenance_starts_at!)).toBe("2024-03-10T00:00:00.000Z")
    // `null` read as absent.
    expect(project).not.toHaveProperty("deleted_at")
    expect(project).not.toHaveProperty("effective_project_permission")
    expect(project).not.toHaveProperty("unknown_field")
  })

  it("accepts a provisioner it has never seen", () => {
    expect(Schema.decodeUnknownSync(Project)({ ...specProject, provisioner: "serverless-platform" }).provisioner).toBe(
      "serverless-platform"
    )
  })

  it.each(["Spring-Example", "spring/example", "spring example", "", "a".repeat(61)])(
    "rejects the project id %j, naming the field",
    (id) => {
      const message = decodeFailure(Project, { ...specProject, id })
      expect(message).toContain('["id"]')
      expect(message).toContain("a project id is 1 to 60 of a-z, 0-9 and -")
    }
  )

  it("rejects pg_version sent as a string or a fraction", () => {
    expect(decodeFailure(Project, { ...specProject, pg_version: "16" })).toContain('["pg_version"]')
    expect(decodeFailure(Project, { ...specProject, pg_version: 16.5 })).toContain('["pg_version"]')
  })

  it("rejects a bad created_at", () => {
    const message = decodeFailure(Project, { ...specProject, created_at: "2022-11-15 late afternoon" })
    expect(message).toContain('["created_at"]')
  })

  it("rejects a project without name", () => {
    const { name: _name, ...withoutName } = specProject
    const message = decodeFailure(Project, withoutName)
    expect(message).toContain('["name"]')
    expect(message).toContain("is missing")
  })
})

describe("ProjectId", () => {
  it.each(["spring-example-302709", "a", "0", "-", "a".repeat(60)])("accepts %j", (id) => {
    expect(Schema.decodeUnknownSync(ProjectId)(id)).toBe(id)
  })

  it.each(["A", "a_b", "a.b", "a/b", " a", "é", "a".repeat(61), ""])("rejects %j", (id) => {
    expect(Either.isLeft(Schema.decodeUnknownEither(ProjectId)(id))).toBe(true)
  })
})

describe("ProjectsPage (GET /projects)", () => {
  it("decodes a real page with pagination, unavailable ids, applications and integrations", () => {
    const page = Schema.decodeUnknownSync(ProjectsPage)({
      projects: [realProject, specProject],
      pagination: { cursor: "spring-example-302709" },
      unavailable_project_ids: ["gone-project-1"],
      applications: { "quiet-forest-10": ["vercel"] },
      integrations: { "quiet-forest-10": ["github"] }
    })
    expect(page.projects.map((project) => project.id)).toEqual(["quiet-forest-10", "spring-example-302709"])
    expect(page.pagination?.cursor).toBe("spring-example-302709")
    expect(page.unavailable_project_ids).toEqual(["gone-project-1"])
    expect(page.applications).toEqual({ "quiet-forest-10": ["vercel"] })
    expect(page.integrations).toEqual({ "quiet-forest-10": ["github"] })
  })

  it("decodes the spec §4 shape: projects only", () => {
    const page = Schema.decodeUnknownSync(ProjectsPage)({ projects: [specProject] })
    expect(page.projects).toHaveLength(1)
    expect(page.pagination).toBeUndefined()
    expect(page.unavailable_project_ids).toBeUndefined()
  })

  it("decodes an empty page", () => {
    const page = Schema.decodeUnknownSync(ProjectsPage)({
      projects: [],
      applications: {},
      integrations: {}
    })
    expect(page.projects).toEqual([])
  })

  it("names the index and field of a malformed project", () => {
    const message = decodeFailure(ProjectsPage, { projects: [specProject, { ...specProject, id: "Bad/Id" }] })
    expect(message).toContain('["projects"]')
    expect(message).toContain("[1]")
    expect(message).toContain('["id"]')
  })

  it("rejects a bare array instead of { projects }", () => {
    const message = decodeFailure(ProjectsPage, [specProject])
    expect(message).toContain("ProjectsPage")
  })
})
