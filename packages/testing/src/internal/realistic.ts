/**
 * The realistic account of `Seed.realistic` (documented there): its projects, branches, compute
 * endpoints, roles, databases, operations and organizations, each from dice of its own so that a
 * seed number gives the same account as earlier versions gave.
 */
import * as Duration from "effect/Duration"
import { newKeyValue } from "../engine/authentication.js"
import { branchId, endpointId, seededDice, slug, uuid } from "../engine/ids.js"
import { defaultOrgId } from "../engine/kinds.js"
import type { SeedOperationFile } from "../engine/seed.js"
import type { SeedBranchFile } from "../resources/Branches/seed.js"
import type { SeedEndpointFile } from "../resources/ComputeEndpoints/seed.js"
import type { SeedDatabaseFile } from "../resources/Databases/seed.js"
import type { SeedOrganizationFile } from "../resources/Organizations/seed.js"
import type { SeedProjectFile } from "../resources/Projects/seed.js"
import { regions as catalog } from "../resources/Regions.js"
import type { SeedRoleFile } from "../resources/Roles/seed.js"
import { newPassword } from "../resources/Roles/steps.js"

type SeedProject = typeof SeedProjectFile.Type
type SeedBranch = typeof SeedBranchFile.Type
type SeedEndpoint = typeof SeedEndpointFile.Type
type SeedRole = typeof SeedRoleFile.Type
type SeedDatabase = typeof SeedDatabaseFile.Type
type SeedOperation = typeof SeedOperationFile.Type
type SeedOrganization = typeof SeedOrganizationFile.Type

/** The realistic account's regions: those `GET /regions` lists. */
const regions = catalog.map((region) => region.region_id)

/** Options of `Seed.realistic`. */
export interface RealisticOptions {
  /** Number of projects; 4 by default. */
  readonly projects?: number | undefined
  /** Past operations per project, over the last 30 days; 150 by default. */
  readonly operationsPerProject?: number | undefined
  /** Operations still pending at the start, in the first project; 3 by default. */
  readonly pending?: number | undefined
  /** How long the pending ones take to finish after the start; 8 s to 14 s by default. */
  readonly pendingFor?: readonly [Duration.DurationInput, Duration.DurationInput] | undefined
  /** PRNG seed; the same seed gives the same account. */
  readonly seed?: number | undefined
  readonly bootstrapKey?: string | undefined
  /**
   * The value of the organization's key `ci` (since 0.5.0, docs/contract.md §21), for all its
   * projects; random when absent (read it from the seed: `organizations[0].api_keys[0].key`).
   */
  readonly organizationKey?: string | undefined
  /**
   * The value of the organization's key scoped to the first project (since 0.5.0), named after
   * it; random when absent (`organizations[0].api_keys[1].key`).
   */
  readonly projectKey?: string | undefined
}

/** The roles of each branch of {@link realistic}: the one a project is created with, and one for an application. */
const realisticRoles = ["neondb_owner", "app"] as const

/** The account of `Seed.realistic` for `options`. */
export const realistic = (options: RealisticOptions) => {
  const dice = seededDice(options.seed ?? 302709)
  // Branches and endpoints beyond each project's default ones come from dice of their own, so
  // that the projects and operations are those of earlier versions for the same seed.
  const more = seededDice((options.seed ?? 302709) ^ 0x5bd1e995)
  const day = Duration.toMillis("1 day")
  const second = Duration.toMillis("1 second")

  const projects: Array<SeedProject> = Array.from({ length: options.projects ?? 4 }, (_, i) => ({
    id: slug(dice),
    name: ["billing", "analytics", "staging", "web-app", "ingest", "search"][i % 6]!,
    region_id: regions[i % regions.length]!,
    pg_version: 15 + (i % 3),
    age: Duration.millis((60 + i * 7) * day)
  }))

  const operations: Array<SeedOperation> = []
  const branches: Array<SeedBranch> = []
  const endpoints: Array<SeedEndpoint> = []
  // Roles and databases, with passwords from dice of their own (the ids above stay as they were).
  const secrets = seededDice((options.seed ?? 302709) ^ 0x2545f491)
  const roles: Array<SeedRole> = []
  const databases: Array<SeedDatabase> = []
  /** The default branch's roles and databases, and the same (copies, as a branch starts) on each child. */
  const withData = (branchIds: ReadonlyArray<string>) => {
    const passwords = realisticRoles.map(() => newPassword(secrets))
    for (const branch_id of branchIds) {
      realisticRoles.forEach((name, i) => roles.push({ branch_id, name, password: passwords[i]! }))
      databases.push(
        { branch_id, name: "neondb", owner_name: "neondb_owner" },
        { branch_id, name: "app", owner_name: "app" }
      )
    }
  }
  for (const project of projects) {
    // The default branch and its read_write endpoint; some children of it, some with an endpoint.
    const branch = branchId(dice)
    const endpoint = endpointId(dice)
    branches.push({ project_id: project.id, id: branch, name: "main", default: true })
    endpoints.push({ branch_id: branch, id: endpoint })
    const children = Array.from({ length: more.below(3) }, (_, i) => ({
      project_id: project.id,
      id: branchId(more),
      name: ["dev", "preview", "staging-copy"][i]!,
      age: Duration.millis((10 + more.below(40)) * day)
    }))
    branches.push(...children)
    withData([branch, ...children.map((child) => child.id)])
    for (const child of children) {
      if (more.fraction() < 0.5) endpoints.push({ branch_id: child.id, id: endpointId(more) })
    }
    const count = options.operationsPerProject ?? 150
    // The project's first operation: its timeline, created with it.
    operations.push({
      project_id: project.id,
      id: uuid(dice),
      action: "create_timeline",
      branch_id: branch,
      age: project.age,
      runsFor: "3 seconds"
    })
    for (let i = 0; i < count; i++) {
      // Spread over 30 days, newest last; distinct creation times.
      const age = Duration.millis(Math.floor(((count - i) / count) * 30 * day) + dice.below(second))
      const roll = dice.fraction()
      const base = { project_id: project.id, id: uuid(dice), branch_id: branch, age }
      if (roll < 0.38) {
        operations.push({ ...base, action: "check_availability", endpoint_id: endpoint, runsFor: "4 seconds" })
      } else if (roll < 0.58) {
        operations.push({ ...base, action: "suspend_compute", endpoint_id: endpoint, runsFor: "2 seconds" })
      } else if (roll < 0.78) {
        operations.push({ ...base, action: "start_compute", endpoint_id: endpoint, runsFor: "3 seconds" })
      } else if (roll < 0.85) {
        operations.push({ ...base, action: "apply_config", endpoint_id: endpoint, runsFor: "1 second" })
      } else if (roll < 0.9) {
        const created = children.length === 0 ? branch : children[more.below(children.length)]!.id
        operations.push({ ...base, branch_id: created, action: "create_branch", runsFor: "2 seconds" })
      } else if (roll < 0.92) {
        operations.push({ ...base, action: "apply_storage_config", runsFor: "1 second" })
      } else if (roll < 0.935) {
        operations.push({ ...base, action: "timeline_archive", runsFor: "1 second" })
      } else if (roll < 0.95) {
        operations.push({ ...base, action: "start_compute", endpoint_id: endpoint, status: "cancelled" })
      } else if (roll < 0.96) {
        operations.push({
          ...base,
          action: "apply_config",
          endpoint_id: endpoint,
          status: "error",
          failures_count: 1,
          error: "role synchronisation failed"
        })
      } else if (roll < 0.98) {
        operations.push({
          ...base,
          action: "start_compute",
          endpoint_id: endpoint,
          status: "failed",
          failures_count: 1 + dice.below(3),
          error: "compute start timed out"
        })
      } else {
        operations.push({ ...base, action: "check_availability", endpoint_id: endpoint, status: "skipped" })
      }
    }
  }

  const first = projects[0]
  if (first !== undefined) {
    const [from, to] = (options.pendingFor ?? ["8 seconds", "14 seconds"]).map(Duration.toMillis) as [number, number]
    const branch = branchId(dice)
    const pending = options.pending ?? 3
    const runsFor = (i: number) => from + Math.floor(((to - from) * i) / Math.max(1, pending - 1))
    // The branch being created, with its endpoint being started: init until its operation ends.
    const endpoint = endpointId(dice)
    if (pending > 0) {
      const main = branches.find((branch) => branch.project_id === first.id && branch.default === true)!
      for (const role of roles.filter((role) => role.branch_id === main.id)) roles.push({ ...role, branch_id: branch })
      for (const database of databases.filter((database) => database.branch_id === main.id)) {
        databases.push({ ...database, branch_id: branch })
      }
      branches.push({
        project_id: first.id,
        id: branch,
        name: "preview-pending",
        age: Duration.millis(pending),
        readyIn: Duration.millis(Math.max(0, runsFor(0) - pending))
      })
    }
    if (pending > 1) {
      endpoints.push({
        branch_id: branch,
        id: endpoint,
        age: Duration.millis(pending - 1),
        activeIn: Duration.millis(Math.max(0, runsFor(1) - (pending - 1)))
      })
    }
    for (let i = 0; i < pending; i++) {
      const action = i === 0 ? "create_branch" : i === 1 ? "start_compute" : "apply_config"
      operations.push({
        project_id: first.id,
        id: uuid(dice),
        action,
        branch_id: branch,
        ...(action === "create_branch" ? {} : { endpoint_id: endpoint }),
        age: Duration.millis(pending - i),
        runsFor: Duration.millis(runsFor(i))
      })
    }
  }

  // Since 0.5.0: the projects above are the default organization's, which has members beside the
  // account's user; and another team's organization, which the account's user is not a member
  // of, has a project of its own. From dice of their own: everything above is as it was.
  const partner = seededDice((options.seed ?? 302709) ^ 0x7f4a7c15)
  const partnerOrg = `org-partner-${partner.below(900_000) + 100_000}`
  const partnerProject: SeedProject = {
    id: slug(partner),
    name: "partner-data",
    org_id: partnerOrg,
    region_id: regions[1 % regions.length]!,
    pg_version: 17,
    age: Duration.millis(45 * day)
  }
  const partnerBranch = branchId(partner)
  branches.push({ project_id: partnerProject.id, id: partnerBranch, name: "main", default: true })
  endpoints.push({ branch_id: partnerBranch, id: endpointId(partner) })
  const partnerPasswords = realisticRoles.map(() => newPassword(partner))
  realisticRoles.forEach((name, i) => roles.push({ branch_id: partnerBranch, name, password: partnerPasswords[i]! }))
  databases.push(
    { branch_id: partnerBranch, name: "neondb", owner_name: "neondb_owner" },
    { branch_id: partnerBranch, name: "app", owner_name: "app" }
  )
  operations.push({
    project_id: partnerProject.id,
    id: uuid(partner),
    action: "create_timeline",
    branch_id: partnerBranch,
    age: partnerProject.age,
    runsFor: "3 seconds"
  })
  // Since 0.5.0: the account's user's own organization, where a project can be moved to or from
  // Acme Data (docs/contract.md §22.4). From dice of its own: everything above is as it was.
  const personalOrg = `org-personal-${seededDice((options.seed ?? 302709) ^ 0x1b873593).below(900_000) + 100_000}`
  const organizations: Array<SeedOrganization> = [
    {
      id: defaultOrgId,
      name: "Acme Data",
      handle: "acme-data",
      plan: "scale_v3",
      age: "120 days",
      members: [
        { email: "you@example.com", role: "admin", age: "120 days" },
        { email: "ana@acme.example", role: "admin", age: "90 days" },
        { email: "bo@acme.example", role: "member", age: "60 days" },
        { email: "cy@acme.example", role: "editor", age: "30 days" },
        { email: "di@acme.example", role: "viewer", age: "7 days" }
      ],
      api_keys: [
        { name: "ci", key: options.organizationKey ?? newKeyValue() },
        ...projects.slice(0, 1).map((project) => ({
          name: project.name ?? project.id,
          key: options.projectKey ?? newKeyValue(),
          project_id: project.id
        }))
      ]
    },
    {
      id: personalOrg,
      name: "Personal",
      handle: personalOrg,
      plan: "free_v3",
      age: "150 days",
      members: [{ email: "you@example.com", role: "admin", age: "150 days" }]
    },
    {
      id: partnerOrg,
      name: "Partner Labs",
      plan: "launch_v3",
      age: "200 days",
      members: [
        { email: "pat@partner.example", role: "admin", age: "200 days" },
        { email: "quinn@partner.example", role: "member", age: "100 days" }
      ]
    }
  ]

  return {
    bootstrapKey: options.bootstrapKey,
    projects: [...projects, partnerProject],
    branches,
    endpoints,
    roles,
    databases,
    operations,
    organizations
  }
}
