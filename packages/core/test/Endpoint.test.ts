import { describe, expect, it } from "@effect/vitest"
import { Either, ParseResult, Redacted, Schema, SchemaAST } from "effect"
import { Api, BranchId, DecodeIssue, Endpoint, ProjectId } from "../src/index.js"

/** The `{param}` names of a route template, in order. */
const routeParams = (route: string): ReadonlyArray<string> => Array.from(route.matchAll(/\{(\w+)\}/g), (m) => m[1]!)

/** The field names of a params schema's encoded side (what the route carries). */
const schemaFields = (schema: Schema.Schema<any, any> | undefined): ReadonlyArray<string> => {
  if (schema === undefined) return []
  const ast = SchemaAST.encodedAST(schema.ast)
  if (!SchemaAST.isTypeLiteral(ast)) throw new Error(`params of ${String(schema)} is not a struct`)
  return ast.propertySignatures.map((signature) => String(signature.name))
}

/** The message of a value that must not decode with `schema`, as the SDK formats it. */
const decodeFailure = (schema: Schema.Schema<any, any>, input: unknown): string => {
  const result = Schema.decodeUnknownEither(schema)(input)
  if (Either.isRight(result)) throw new Error(`expected decoding to fail, got ${JSON.stringify(result.right)}`)
  return DecodeIssue.format(result.left.issue)
}

/** The message of a value that must not encode with `schema`, as the SDK formats it. */
const encodeFailure = (schema: Schema.Schema<any, any>, input: unknown): string => {
  const result = Schema.encodeUnknownEither(schema)(input)
  if (Either.isRight(result)) throw new Error(`expected encoding to fail, got ${JSON.stringify(result.right)}`)
  return DecodeIssue.format(result.left.issue)
}

/**
 * The message of an input `Endpoint.encode` must refuse, as the client's `InvalidRequest` says
 * it (`DecodeIssue.format`).
 */
const encodeInputFailure = <E extends Endpoint.Endpoint>(endpoint: E, input: Endpoint.Input<E>): string => {
  const result = Endpoint.encode(endpoint, input)
  if (Either.isRight(result)) throw new Error(`expected encoding to fail, got ${JSON.stringify(result.right)}`)
  return DecodeIssue.format(result.left.issue)
}

/** A branch as the platform sends it. */
const branchWire = (id: string) => ({
  id,
  project_id: "spring-example-302709",
  parent_id: "br-aged-salad-637688",
  name: "preview/pr-42",
  current_state: "ready",
  state_changed_at: "2022-11-30T20:09:48Z",
  creation_source: "console",
  default: false,
  protected: false,
  cpu_used_sec: 78,
  active_time_seconds: 312,
  compute_time_seconds: 78,
  written_data_bytes: 100800,
  data_transfer_bytes: 1000000,
  created_at: "2022-11-30T19:09:48Z",
  updated_at: "2022-12-01T19:53:05.20417Z"
})

/** An operation of `project_id` as the platform sends it. */
const operationWire = (id: string, project_id = "spring-example-302709") => ({
  id,
  project_id,
  branch_id: "br-wispy-meadow-118737",
  action: "create_branch",
  status: "finished",
  failures_count: 0,
  created_at: "2022-11-30T19:09:48Z",
  updated_at: "2022-11-30T19:09:48Z",
  total_duration_ms: 0
})

/** A project as the platform sends it. */
const projectWire = (id: string) => ({
  id,
  name: id,
  platform_id: "aws",
  region_id: "aws-us-east-2",
  provisioner: "k8s-neonvm",
  pg_version: 17,
  cpu_used_sec: 0,
  branch_logical_size_limit: 512,
  proxy_host: "aws-us-east-2.example.test",
  created_at: "2024-03-01T12:00:00Z",
  updated_at: "2024-03-01T12:00:00Z"
})

describe("Api.endpoints", () => {
  it("holds every endpoint of every group, group by group in the order of Api.groups (§4, §10.6, §11.4, §12, §13.1, §15, §17-§27)", () => {
    expect(Object.keys(Api.groups)).toEqual([
      "ApiKeys",
      "Projects",
      "Operations",
      "Branches",
      "ComputeEndpoints",
      "Connections",
      "Databases",
      "Roles",
      "Regions",
      "Consumption",
      "Users",
      "Organizations",
      "ProjectPermissions",
      "VpcEndpoints",
      "ProjectTransfers",
      "OrganizationApiKeys",
      "BranchSchema",
      "Snapshots",
      "DataApi",
      "BranchAuth",
      "Jwks",
      "Credentials",
      "Functions",
      "Buckets",
      "Storage",
      "AiGateway"
    ])
    expect(Api.endpoints.map((endpoint) => `${endpoint.method} ${endpoint.route}`)).toEqual([
      "POST /api_keys",
      "GET /api_keys",
      "DELETE /api_keys/{key_id}",
      "GET /projects",
      "GET /projects/shared",
      "POST /projects",
      "GET /projects/{project_id}",
      "PATCH /projects/{project_id}",
      "DELETE /projects/{project_id}",
      "POST /projects/{project_id}/recover",
      "GET /projects/{project_id}/available_preload_libraries",
      "GET /projects/{project_id}/advisors",
      "GET /projects/{project_id}/operations",
      "GET /projects/{project_id}/operations/{operation_id}",
      "GET /projects/{project_id}/branches",
      "GET /projects/{project_id}/branches/count",
      "POST /projects/{project_id}/branches",
      "GET /projects/{project_id}/branches/{branch_id}",
      "PATCH /projects/{project_id}/branches/{branch_id}",
      "DELETE /projects/{project_id}/branches/{branch_id}",
      "POST /projects/{project_id}/branches/{branch_id}/restore",
      "POST /projects/{project_id}/branches/{branch_id}/set_as_default",
      "GET /projects/{project_id}/branches/{branch_id}/endpoints",
      "POST /projects/{project_id}/branches/{branch_id}/recover",
      "POST /projects/{project_id}/branch_anonymized",
      "GET /projects/{project_id}/branches/{branch_id}/masking_rules",
      "PATCH /projects/{project_id}/branches/{branch_id}/masking_rules",
      "GET /projects/{project_id}/branches/{branch_id}/anonymized_status",
      "POST /projects/{project_id}/branches/{branch_id}/anonymize",
      "GET /projects/{project_id}/endpoints",
      "POST /projects/{project_id}/endpoints",
      "GET /projects/{project_id}/endpoints/{endpoint_id}",
      "PATCH /projects/{project_id}/endpoints/{endpoint_id}",
      "DELETE /projects/{project_id}/endpoints/{endpoint_id}",
      "POST /projects/{project_id}/endpoints/{endpoint_id}/start",
      "POST /projects/{project_id}/endpoints/{endpoint_id}/suspend",
      "POST /projects/{project_id}/endpoints/{endpoint_id}/restart",
      "GET /projects/{project_id}/connection_uri",
      "GET /projects/{project_id}/branches/{branch_id}/databases",
      "POST /projects/{project_id}/branches/{branch_id}/databases",
      "GET /projects/{project_id}/branches/{branch_id}/databases/{database_name}",
      "PATCH /projects/{project_id}/branches/{branch_id}/databases/{database_name}",
      "DELETE /projects/{project_id}/branches/{branch_id}/databases/{database_name}",
      "GET /projects/{project_id}/branches/{branch_id}/roles",
      "POST /projects/{project_id}/branches/{branch_id}/roles",
      "GET /projects/{project_id}/branches/{branch_id}/roles/{role_name}",
      "DELETE /projects/{project_id}/branches/{branch_id}/roles/{role_name}",
      "GET /projects/{project_id}/branches/{branch_id}/roles/{role_name}/reveal_password",
      "POST /projects/{project_id}/branches/{branch_id}/roles/{role_name}/reset_password",
      "GET /regions",
      "GET /consumption_history/v2/projects",
      "GET /consumption_history/v2/branches",
      "GET /consumption_history/projects",
      "GET /users/me",
      "GET /users/me/organizations",
      "GET /auth",
      "GET /organizations/{org_id}",
      "GET /organizations/{org_id}/members",
      "GET /organizations/{org_id}/members/{member_id}",
      "PATCH /organizations/{org_id}/members/{member_id}",
      "DELETE /organizations/{org_id}/members/{member_id}",
      "GET /organizations/{org_id}/invitations",
      "POST /organizations/{org_id}/invitations",
      "GET /organizations/{org_id}/billing/spending_limit",
      "PUT /organizations/{org_id}/billing/spending_limit",
      "DELETE /organizations/{org_id}/billing/spending_limit",
      "GET /projects/{project_id}/permissions",
      "POST /projects/{project_id}/permissions",
      "DELETE /projects/{project_id}/permissions/{permission_id}",
      "GET /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints",
      "GET /organizations/{org_id}/vpc/vpc_endpoints",
      "GET /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}",
      "POST /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}",
      "DELETE /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}",
      "GET /projects/{project_id}/vpc_endpoints",
      "POST /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}",
      "DELETE /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}",
      "POST /organizations/{source_org_id}/projects/transfer",
      "POST /projects/{project_id}/transfer_requests",
      "PUT /projects/{project_id}/transfer_requests/{request_id}",
      "GET /organizations/{org_id}/api_keys",
      "POST /organizations/{org_id}/api_keys",
      "DELETE /organizations/{org_id}/api_keys/{key_id}",
      "GET /projects/{project_id}/branches/{branch_id}/schema",
      "GET /projects/{project_id}/branches/{branch_id}/compare_schema",
      "POST /projects/{project_id}/branches/{branch_id}/snapshot",
      "GET /projects/{project_id}/snapshots",
      "PATCH /projects/{project_id}/snapshots/{snapshot_id}",
      "DELETE /projects/{project_id}/snapshots/{snapshot_id}",
      "POST /projects/{project_id}/snapshots/{snapshot_id}/restore",
      "POST /projects/{project_id}/branches/{branch_id}/finalize_restore",
      "GET /projects/{project_id}/branches/{branch_id}/backup_schedule",
      "PUT /projects/{project_id}/branches/{branch_id}/backup_schedule",
      "GET /projects/{project_id}/branches/{branch_id}/data-api/{database_name}",
      "POST /projects/{project_id}/branches/{branch_id}/data-api/{database_name}",
      "PATCH /projects/{project_id}/branches/{branch_id}/data-api/{database_name}",
      "DELETE /projects/{project_id}/branches/{branch_id}/data-api/{database_name}",
      "GET /projects/{project_id}/branches/{branch_id}/auth",
      "POST /projects/{project_id}/branches/{branch_id}/auth",
      "DELETE /projects/{project_id}/branches/{branch_id}/auth",
      "GET /projects/{project_id}/branches/{branch_id}/auth/domains",
      "POST /projects/{project_id}/branches/{branch_id}/auth/domains",
      "DELETE /projects/{project_id}/branches/{branch_id}/auth/domains",
      "GET /projects/{project_id}/branches/{branch_id}/auth/oauth_providers",
      "POST /projects/{project_id}/branches/{branch_id}/auth/oauth_providers",
      "PATCH /projects/{project_id}/branches/{branch_id}/auth/oauth_providers/{oauth_provider_id}",
      "DELETE /projects/{project_id}/branches/{branch_id}/auth/oauth_providers/{oauth_provider_id}",
      "POST /projects/auth/keys",
      "POST /projects/auth/transfer_ownership",
      "POST /projects/{project_id}/branches/{branch_id}/auth/users",
      "DELETE /projects/{project_id}/branches/{branch_id}/auth/users/{auth_user_id}",
      "PUT /projects/{project_id}/branches/{branch_id}/auth/users/{auth_user_id}/role",
      "POST /projects/{project_id}/branches/{branch_id}/auth/send_test_email",
      "GET /projects/{project_id}/branches/{branch_id}/auth/email_and_password",
      "PATCH /projects/{project_id}/branches/{branch_id}/auth/email_and_password",
      "GET /projects/{project_id}/branches/{branch_id}/auth/email_provider",
      "PATCH /projects/{project_id}/branches/{branch_id}/auth/email_provider",
      "GET /projects/{project_id}/branches/{branch_id}/auth/allow_localhost",
      "PATCH /projects/{project_id}/branches/{branch_id}/auth/allow_localhost",
      "GET /projects/{project_id}/branches/{branch_id}/auth/plugins",
      "PATCH /projects/{project_id}/branches/{branch_id}/auth/plugins/organization",
      "PATCH /projects/{project_id}/branches/{branch_id}/auth/config",
      "PATCH /projects/{project_id}/branches/{branch_id}/auth/plugins/magic-link",
      "GET /projects/{project_id}/branches/{branch_id}/auth/plugins/phone-number",
      "PATCH /projects/{project_id}/branches/{branch_id}/auth/plugins/phone-number",
      "GET /projects/{project_id}/branches/{branch_id}/auth/webhooks",
      "PUT /projects/{project_id}/branches/{branch_id}/auth/webhooks",
      "GET /projects/{project_id}/jwks",
      "POST /projects/{project_id}/jwks",
      "DELETE /projects/{project_id}/jwks/{jwks_id}",
      "GET /projects/{project_id}/branches/{branch_id}/credentials",
      "POST /projects/{project_id}/branches/{branch_id}/credentials",
      "DELETE /projects/{project_id}/branches/{branch_id}/credentials/{token_id}",
      "GET /projects/{project_id}/branches/{branch_id}/functions",
      "GET /projects/{project_id}/branches/{branch_id}/functions/{slug}",
      "PATCH /projects/{project_id}/branches/{branch_id}/functions/{slug}",
      "DELETE /projects/{project_id}/branches/{branch_id}/functions/{slug}",
      "POST /projects/{project_id}/branches/{branch_id}/functions/{slug}/deployments",
      "GET /projects/{project_id}/branches/{branch_id}/buckets",
      "POST /projects/{project_id}/branches/{branch_id}/buckets",
      "DELETE /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}",
      "GET /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects",
      "DELETE /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects/{object_key}",
      "GET /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects/{object_key}/download",
      "DELETE /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects-by-prefix",
      "POST /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects/{object_key}/presign",
      "GET /projects/{project_id}/branches/{branch_id}/storage",
      "GET /projects/{project_id}/branches/{branch_id}/ai_gateway"
    ])
  })

  it("has unique names, each its group's name and its key there", () => {
    const names = Api.endpoints.map((endpoint) => endpoint.name)
    expect(new Set(names).size).toBe(names.length)
    expect(names).toEqual([
      "ApiKeys.create",
      "ApiKeys.list",
      "ApiKeys.revoke",
      "Projects.list",
      "Projects.listShared",
      "Projects.create",
      "Projects.get",
      "Projects.update",
      "Projects.delete",
      "Projects.recover",
      "Projects.listAvailablePreloadLibraries",
      "Projects.listAdvisorIssues",
      "Operations.list",
      "Operations.get",
      "Branches.list",
      "Branches.count",
      "Branches.create",
      "Branches.get",
      "Branches.update",
      "Branches.delete",
      "Branches.restore",
      "Branches.setAsDefault",
      "Branches.listEndpoints",
      "Branches.recover",
      "Branches.createAnonymized",
      "Branches.getMaskingRules",
      "Branches.updateMaskingRules",
      "Branches.getAnonymizedStatus",
      "Branches.startAnonymization",
      "ComputeEndpoints.list",
      "ComputeEndpoints.create",
      "ComputeEndpoints.get",
      "ComputeEndpoints.update",
      "ComputeEndpoints.delete",
      "ComputeEndpoints.start",
      "ComputeEndpoints.suspend",
      "ComputeEndpoints.restart",
      "Connections.uri",
      "Databases.list",
      "Databases.create",
      "Databases.get",
      "Databases.update",
      "Databases.delete",
      "Roles.list",
      "Roles.create",
      "Roles.get",
      "Roles.delete",
      "Roles.revealPassword",
      "Roles.resetPassword",
      "Regions.list",
      "Consumption.listProjects",
      "Consumption.listBranches",
      "Consumption.listProjectsLegacy",
      "Users.me",
      "Users.listOrganizations",
      "Users.auth",
      "Organizations.get",
      "Organizations.listMembers",
      "Organizations.getMember",
      "Organizations.updateMember",
      "Organizations.removeMember",
      "Organizations.listInvitations",
      "Organizations.createInvitations",
      "Organizations.getSpendingLimit",
      "Organizations.setSpendingLimit",
      "Organizations.deleteSpendingLimit",
      "ProjectPermissions.list",
      "ProjectPermissions.grant",
      "ProjectPermissions.revoke",
      "VpcEndpoints.list",
      "VpcEndpoints.listAll",
      "VpcEndpoints.get",
      "VpcEndpoints.assign",
      "VpcEndpoints.delete",
      "VpcEndpoints.listRestrictions",
      "VpcEndpoints.setRestriction",
      "VpcEndpoints.deleteRestriction",
      "ProjectTransfers.transfer",
      "ProjectTransfers.createRequest",
      "ProjectTransfers.acceptRequest",
      "OrganizationApiKeys.list",
      "OrganizationApiKeys.create",
      "OrganizationApiKeys.revoke",
      "BranchSchema.get",
      "BranchSchema.compare",
      "Snapshots.create",
      "Snapshots.list",
      "Snapshots.update",
      "Snapshots.delete",
      "Snapshots.restore",
      "Snapshots.finalizeRestore",
      "Snapshots.getBackupSchedule",
      "Snapshots.setBackupSchedule",
      "DataApi.get",
      "DataApi.create",
      "DataApi.update",
      "DataApi.delete",
      "BranchAuth.get",
      "BranchAuth.create",
      "BranchAuth.disable",
      "BranchAuth.listDomains",
      "BranchAuth.addDomain",
      "BranchAuth.deleteDomains",
      "BranchAuth.listOAuthProviders",
      "BranchAuth.addOAuthProvider",
      "BranchAuth.updateOAuthProvider",
      "BranchAuth.deleteOAuthProvider",
      "BranchAuth.createAuthProviderSdkKeys",
      "BranchAuth.transferAuthProviderProject",
      "BranchAuth.createUser",
      "BranchAuth.deleteUser",
      "BranchAuth.updateUserRole",
      "BranchAuth.sendTestEmail",
      "BranchAuth.getEmailAndPassword",
      "BranchAuth.updateEmailAndPassword",
      "BranchAuth.getEmailProvider",
      "BranchAuth.updateEmailProvider",
      "BranchAuth.getAllowLocalhost",
      "BranchAuth.updateAllowLocalhost",
      "BranchAuth.getPlugins",
      "BranchAuth.updateOrganizationPlugin",
      "BranchAuth.updateConfig",
      "BranchAuth.updateMagicLinkPlugin",
      "BranchAuth.getPhoneNumberPlugin",
      "BranchAuth.updatePhoneNumberPlugin",
      "BranchAuth.getWebhooks",
      "BranchAuth.updateWebhooks",
      "Jwks.list",
      "Jwks.add",
      "Jwks.delete",
      "Credentials.list",
      "Credentials.create",
      "Credentials.revoke",
      "Functions.list",
      "Functions.get",
      "Functions.update",
      "Functions.delete",
      "Functions.createDeployment",
      "Buckets.list",
      "Buckets.create",
      "Buckets.delete",
      "Buckets.listObjects",
      "Buckets.deleteObject",
      "Buckets.getObject",
      "Buckets.deleteObjectsByPrefix",
      "Buckets.presignObject",
      "Storage.get",
      "AiGateway.get"
    ])
    for (const [group, entries] of Object.entries(Api.groups)) {
      for (const [key, endpoint] of Object.entries<Endpoint.Endpoint>(entries)) {
        expect(endpoint.name).toBe(`${group}.${key}`)
      }
    }
  })

  it("has unique method and route pairs", () => {
    const keys = Api.endpoints.map((endpoint) => `${endpoint.method} ${endpoint.route}`)
    expect(new Set(keys).size).toBe(keys.length)
  })

  it.each(Api.endpoints.map((endpoint) => [endpoint.name, endpoint] as const))(
    "%s: every {param} of the route is a field of its params schema, and every field is in the route",
    (_name, endpoint) => {
      const inRoute = routeParams(endpoint.route)
      expect(new Set(inRoute).size).toBe(inRoute.length)
      expect([...schemaFields(endpoint.params)].sort()).toEqual([...inRoute].sort())
    }
  )

  it.each(Api.endpoints.map((endpoint) => [endpoint.name, endpoint] as const))(
    "%s: routes start with / and have no query",
    (_name, endpoint) => {
      expect(endpoint.route.startsWith("/")).toBe(true)
      expect(endpoint.route).not.toContain("?")
    }
  )

  it.each(Api.endpoints.map((endpoint) => [endpoint.name, endpoint] as const))(
    "%s: each input key is in exactly one part, the part whose schema declares it",
    (_name, endpoint) => {
      const declared = (["params", "query", "body"] as const).flatMap((part) => {
        const schema = endpoint[part]
        if (schema === undefined) return []
        // A union body (the email provider's): every member's fields, each once (docs/design.md §1.3).
        const members = schema.ast._tag === "Union" ? schema.ast.types : [schema.ast]
        const names = new Set(members.flatMap((ast) => SchemaAST.getPropertySignatures(ast).map(({ name }) => name)))
        return [...names].map((name) => `${String(name)} ${part}`)
      })
      expect(Array.from(endpoint.parts, ([key, part]) => `${key} ${part}`).sort()).toEqual(declared.sort())
    }
  )

  it("declares page limits on the list endpoints that take a limit", () => {
    expect(Api.Projects.list.pageLimits).toEqual({ max: 400, default: 10 })
    expect(Api.Projects.listShared.pageLimits).toEqual({ max: 400, default: 10 })
    expect(Api.Operations.list.pageLimits).toEqual({ max: 1000, default: undefined })
    expect(Api.Branches.list.pageLimits).toEqual({ max: 10_000, default: undefined })
    expect(Api.Organizations.listMembers.pageLimits).toEqual({ max: 500, default: undefined })
    expect(Api.ApiKeys.list.pageLimits).toBeUndefined()
    expect(Api.Operations.get.pageLimits).toBeUndefined()
    expect(Api.projectsPageLimits).toBe(Api.Projects.list.pageLimits)
    expect(Api.operationsPageLimits).toBe(Api.Operations.list.pageLimits)
    expect(Api.branchesPageLimits).toBe(Api.Branches.list.pageLimits)
    expect(Api.Consumption.listProjects.pageLimits).toEqual({ max: 100, default: 10 })
    expect(Api.Consumption.listBranches.pageLimits).toEqual({ max: 1000, default: 100 })
    expect(Api.Consumption.listProjectsLegacy.pageLimits).toEqual({ max: 100, default: 10 })
  })

  it("declares each endpoint's own error statuses", () => {
    expect(Api.ApiKeys.create.errors).toEqual(["BadRequest", "Locked"])
    expect(Api.ApiKeys.list.errors).toEqual([])
    expect(Api.ApiKeys.revoke.errors).toEqual(["NotFound", "BadRequest", "Locked"])
    expect(Api.Projects.list.errors).toEqual(["BadRequest"])
    expect(Api.Operations.list.errors).toEqual(["NotFound", "Forbidden", "BadRequest"])
    expect(Api.Operations.get.errors).toEqual(["NotFound", "Forbidden", "BadRequest"])
    expect(Api.Projects.listShared.errors).toEqual(["BadRequest"])
    expect(Api.Branches.create.errors).toEqual(["BadRequest", "NotFound", "Forbidden", "Conflict", "Locked"])
    expect(Api.Branches.delete.errors).toEqual(["BadRequest", "NotFound", "Forbidden", "Locked"])
    expect(Api.ComputeEndpoints.create.errors).toEqual(["BadRequest", "NotFound", "Forbidden", "Conflict", "Locked"])
    expect(Api.ComputeEndpoints.restart.errors).toEqual(["BadRequest", "NotFound", "Forbidden", "Locked"])
    for (const endpoint of Object.values(Api.Consumption)) {
      expect(endpoint.errors).toEqual(["BadRequest", "Forbidden", "NotFound", "NotAcceptable"])
    }
    expect(Api.Users.me.errors).toEqual([])
    expect(Api.Organizations.get.errors).toEqual(["NotFound", "BadRequest"])
    expect(Api.Organizations.updateMember.errors).toEqual(["BadRequest", "Forbidden", "NotFound"])
    expect(Api.Organizations.removeMember.errors).toEqual(["BadRequest", "Forbidden", "NotFound"])
    expect(Api.Organizations.createInvitations.errors).toEqual(["BadRequest", "Forbidden", "NotFound", "Conflict"])
    expect(Api.DataApi.create.errors).toEqual(["BadRequest", "NotFound", "Conflict", "Locked"])
    expect(Api.BranchAuth.create.errors).toEqual(["BadRequest", "NotFound", "Conflict", "Locked"])
    expect(Api.BranchAuth.addOAuthProvider.errors).toEqual(["BadRequest", "NotFound", "Conflict"])
    expect(Api.Jwks.add.errors).toEqual(["BadRequest", "NotFound", "Locked"])
  })

  it("declares each endpoint's success statuses: 200 unless said otherwise (§11.4)", () => {
    const statuses = Object.fromEntries(Api.endpoints.map((endpoint) => [endpoint.name, endpoint.statuses]))
    expect(statuses).toEqual({
      "ApiKeys.create": [200],
      "ApiKeys.list": [200],
      "ApiKeys.revoke": [200],
      "Projects.list": [200],
      "Projects.listShared": [200],
      "Projects.create": [201],
      "Projects.get": [200],
      "Projects.update": [200],
      "Projects.delete": [200],
      "Projects.recover": [200],
      "Projects.listAvailablePreloadLibraries": [200],
      "Projects.listAdvisorIssues": [200],
      "Operations.list": [200],
      "Operations.get": [200],
      "Branches.list": [200],
      "Branches.count": [200],
      "Branches.create": [201],
      "Branches.get": [200],
      "Branches.update": [200],
      "Branches.delete": [200, 204],
      "Branches.restore": [200],
      "Branches.setAsDefault": [200],
      "Branches.listEndpoints": [200],
      "Branches.recover": [200],
      "Branches.createAnonymized": [201],
      "Branches.getMaskingRules": [200],
      "Branches.updateMaskingRules": [200],
      "Branches.getAnonymizedStatus": [200],
      "Branches.startAnonymization": [200],
      "ComputeEndpoints.list": [200],
      "ComputeEndpoints.create": [201],
      "ComputeEndpoints.get": [200],
      "ComputeEndpoints.update": [200],
      "ComputeEndpoints.delete": [200, 204],
      "ComputeEndpoints.start": [200],
      "ComputeEndpoints.suspend": [200],
      "ComputeEndpoints.restart": [200],
      "Connections.uri": [200],
      "Databases.list": [200],
      "Databases.create": [201],
      "Databases.get": [200],
      "Databases.update": [200],
      "Databases.delete": [200, 204],
      "Roles.list": [200],
      "Roles.create": [201],
      "Roles.get": [200],
      "Roles.delete": [200, 204],
      "Roles.revealPassword": [200],
      "Roles.resetPassword": [200],
      "Regions.list": [200],
      "Consumption.listProjects": [200],
      "Consumption.listBranches": [200],
      "Consumption.listProjectsLegacy": [200],
      "Users.me": [200],
      "Users.listOrganizations": [200],
      "Users.auth": [200],
      "Organizations.get": [200],
      "Organizations.listMembers": [200],
      "Organizations.getMember": [200],
      "Organizations.updateMember": [200],
      "Organizations.removeMember": [200],
      "Organizations.listInvitations": [200],
      "Organizations.createInvitations": [200],
      "Organizations.getSpendingLimit": [200],
      "Organizations.setSpendingLimit": [200],
      "Organizations.deleteSpendingLimit": [200],
      "ProjectPermissions.list": [200],
      "ProjectPermissions.grant": [200],
      "ProjectPermissions.revoke": [200],
      "VpcEndpoints.list": [200],
      "VpcEndpoints.listAll": [200],
      "VpcEndpoints.get": [200],
      "VpcEndpoints.assign": [200],
      "VpcEndpoints.delete": [200],
      "VpcEndpoints.listRestrictions": [200],
      "VpcEndpoints.setRestriction": [200],
      "VpcEndpoints.deleteRestriction": [200],
      "ProjectTransfers.transfer": [200],
      "ProjectTransfers.createRequest": [201],
      "ProjectTransfers.acceptRequest": [204],
      "OrganizationApiKeys.list": [200],
      "OrganizationApiKeys.create": [200],
      "OrganizationApiKeys.revoke": [200],
      "BranchSchema.get": [200],
      "BranchSchema.compare": [200],
      "Snapshots.create": [200],
      "Snapshots.list": [200],
      "Snapshots.update": [200],
      "Snapshots.delete": [202],
      "Snapshots.restore": [200],
      "Snapshots.finalizeRestore": [200],
      "Snapshots.getBackupSchedule": [200],
      "Snapshots.setBackupSchedule": [200],
      "DataApi.get": [200],
      "DataApi.create": [201],
      "DataApi.update": [201],
      "DataApi.delete": [200],
      "BranchAuth.get": [200],
      "BranchAuth.create": [201],
      "BranchAuth.disable": [200],
      "BranchAuth.listDomains": [200],
      "BranchAuth.addDomain": [201],
      "BranchAuth.deleteDomains": [200],
      "BranchAuth.listOAuthProviders": [200],
      "BranchAuth.addOAuthProvider": [200],
      "BranchAuth.updateOAuthProvider": [200],
      "BranchAuth.deleteOAuthProvider": [200],
      "BranchAuth.createAuthProviderSdkKeys": [201],
      "BranchAuth.transferAuthProviderProject": [200],
      "BranchAuth.createUser": [201],
      "BranchAuth.deleteUser": [204],
      "BranchAuth.updateUserRole": [200],
      "BranchAuth.sendTestEmail": [200],
      "BranchAuth.getEmailAndPassword": [200],
      "BranchAuth.updateEmailAndPassword": [200],
      "BranchAuth.getEmailProvider": [200],
      "BranchAuth.updateEmailProvider": [200],
      "BranchAuth.getAllowLocalhost": [200],
      "BranchAuth.updateAllowLocalhost": [200],
      "BranchAuth.getPlugins": [200],
      "BranchAuth.updateOrganizationPlugin": [200],
      "BranchAuth.updateConfig": [200],
      "BranchAuth.updateMagicLinkPlugin": [200],
      "BranchAuth.getPhoneNumberPlugin": [200],
      "BranchAuth.updatePhoneNumberPlugin": [200],
      "BranchAuth.getWebhooks": [200],
      "BranchAuth.updateWebhooks": [200],
      "Jwks.list": [200],
      "Jwks.add": [201],
      "Jwks.delete": [200],
      "Credentials.list": [200],
      "Credentials.create": [201],
      "Credentials.revoke": [204],
      "Functions.list": [200],
      "Functions.get": [200],
      "Functions.update": [200],
      "Functions.delete": [204],
      "Functions.createDeployment": [201],
      "Buckets.list": [200],
      "Buckets.create": [201],
      "Buckets.delete": [204],
      "Buckets.listObjects": [200],
      "Buckets.deleteObject": [204],
      "Buckets.getObject": [200],
      "Buckets.deleteObjectsByPrefix": [200],
      "Buckets.presignObject": [200],
      "Storage.get": [200],
      "AiGateway.get": [200]
    })
  })

  it("marks the endpoints whose answer carries the operations they started (§4 rule 4, §11.5)", () => {
    expect(Api.endpoints.filter((endpoint) => endpoint.startsOperations).map((endpoint) => endpoint.name)).toEqual([
      "Projects.create",
      "Projects.update",
      "Branches.create",
      "Branches.update",
      "Branches.delete",
      "Branches.restore",
      "Branches.setAsDefault",
      "Branches.createAnonymized",
      "ComputeEndpoints.create",
      "ComputeEndpoints.update",
      "ComputeEndpoints.delete",
      "ComputeEndpoints.start",
      "ComputeEndpoints.suspend",
      "ComputeEndpoints.restart",
      "Databases.create",
      "Databases.update",
      "Databases.delete",
      "Roles.create",
      "Roles.delete",
      "Roles.resetPassword",
      "Snapshots.create",
      "Snapshots.delete",
      "Snapshots.restore",
      "Snapshots.finalizeRestore",
      "Jwks.add"
    ])
  })

  it("says where each list's items are, and the cursor of the lists that page by cursor (§4, §11.4)", () => {
    expect(
      Api.endpoints
        .filter((endpoint) => endpoint.list !== undefined)
        .map((endpoint) => `${endpoint.name}${endpoint.list?.cursor === undefined ? "" : " (cursor)"}`)
    ).toEqual([
      "ApiKeys.list",
      "Projects.list (cursor)",
      "Projects.listShared (cursor)",
      "Projects.listAvailablePreloadLibraries",
      "Projects.listAdvisorIssues",
      "Operations.list (cursor)",
      "Branches.list (cursor)",
      "Branches.listEndpoints",
      "ComputeEndpoints.list",
      "Databases.list",
      "Roles.list",
      "Regions.list",
      "Consumption.listProjects (cursor)",
      "Consumption.listBranches (cursor)",
      "Consumption.listProjectsLegacy (cursor)",
      "Users.listOrganizations",
      "Organizations.listMembers (cursor)",
      "Organizations.listInvitations",
      "ProjectPermissions.list",
      "VpcEndpoints.list",
      "VpcEndpoints.listAll",
      "VpcEndpoints.listRestrictions",
      "OrganizationApiKeys.list",
      "Snapshots.list",
      "BranchAuth.listDomains",
      "BranchAuth.listOAuthProviders",
      "Jwks.list",
      "Credentials.list",
      "Functions.list (cursor)",
      "Buckets.list",
      "Buckets.listObjects (cursor)"
    ])
    const page = Schema.decodeUnknownSync(Api.Operations.list.success)({
      operations: [operationWire("a07f8772-1877-4da9-a939-3a3ae62d1d8d")],
      pagination: { cursor: "2022-11-30T19:09:48Z" }
    })
    expect(Api.Operations.list.list.items(page).map((operation) => operation.id)).toEqual([
      "a07f8772-1877-4da9-a939-3a3ae62d1d8d"
    ])
    expect(Api.Operations.list.list.cursor?.(page)).toBe("2022-11-30T19:09:48Z")
  })

  it("an endpoint with a 204 decodes no body as undefined with its answer schema", () => {
    const withNoBody: ReadonlyArray<Endpoint.Endpoint> = Api.endpoints.filter((endpoint) =>
      endpoint.statuses.includes(204)
    )
    expect(withNoBody.map((endpoint) => endpoint.name)).toEqual([
      "Branches.delete",
      "ComputeEndpoints.delete",
      "Databases.delete",
      "Roles.delete",
      "ProjectTransfers.acceptRequest",
      "BranchAuth.deleteUser",
      "Credentials.revoke",
      "Functions.delete",
      "Buckets.delete",
      "Buckets.deleteObject"
    ])
    for (const endpoint of withNoBody) {
      expect(Either.isRight(Schema.decodeUnknownEither(endpoint.success)(undefined))).toBe(true)
    }
  })

  it("takes startsOperations only for an answer that carries operations (checked by the type checker)", () => {
    const declared = Endpoint.make({
      method: "GET",
      route: "/example",
      success: Schema.Struct({ name: Schema.String }),
      // @ts-expect-error: the answer has no `operations`
      startsOperations: true,
      errors: []
    })
    expect(declared.statuses).toEqual([200])
  })

  it("groups the branch endpoints by method name", () => {
    expect(Object.entries(Api.Branches).map(([method, endpoint]) => `${method} ${endpoint.name}`)).toEqual([
      "list Branches.list",
      "count Branches.count",
      "create Branches.create",
      "get Branches.get",
      "update Branches.update",
      "delete Branches.delete",
      "restore Branches.restore",
      "setAsDefault Branches.setAsDefault",
      "listEndpoints Branches.listEndpoints",
      "recover Branches.recover",
      "createAnonymized Branches.createAnonymized",
      "getMaskingRules Branches.getMaskingRules",
      "updateMaskingRules Branches.updateMaskingRules",
      "getAnonymizedStatus Branches.getAnonymizedStatus",
      "startAnonymization Branches.startAnonymization"
    ])
  })

  it("groups the compute endpoint endpoints by method name (§12)", () => {
    expect(Object.entries(Api.ComputeEndpoints).map(([method, endpoint]) => `${method} ${endpoint.name}`)).toEqual([
      "list ComputeEndpoints.list",
      "create ComputeEndpoints.create",
      "get ComputeEndpoints.get",
      "update ComputeEndpoints.update",
      "delete ComputeEndpoints.delete",
      "start ComputeEndpoints.start",
      "suspend ComputeEndpoints.suspend",
      "restart ComputeEndpoints.restart"
    ])
  })
})

describe("Endpoint.group", () => {
  const Things = Endpoint.group("Things", {
    get: Endpoint.make({
      method: "GET",
      route: "/things/{thing_id}",
      params: Schema.Struct({ thing_id: Schema.String }),
      success: Schema.Struct({ id: Schema.String }),
      errors: ["NotFound"]
    }),
    list: Endpoint.make({
      method: "GET",
      route: "/things",
      success: Schema.Array(Schema.String),
      errors: [],
      list: { items: (things) => things }
    })
  })

  it("names each entry Group.key, in its type too", () => {
    const name: "Things.get" = Things.get.name
    expect(name).toBe("Things.get")
    expect(Things.list.name).toBe("Things.list")
    expect(Object.keys(Things)).toEqual(["get", "list"])
  })

  it("keeps everything else the entry declares", () => {
    expect(Things.get.route).toBe("/things/{thing_id}")
    expect(Things.get.errors).toEqual(["NotFound"])
    expect(Things.get.parts).toEqual(new Map([["thing_id", "params"]]))
    expect(Things.list.list.items(["a", "b"])).toEqual(["a", "b"])
  })
})

describe("Endpoint.make", () => {
  it("throws when two parts share an input key: one flat input could not say which part it is for", () => {
    expect(() =>
      Endpoint.make({
        method: "POST",
        route: "/things/{name}",
        params: Schema.Struct({ name: Schema.String }),
        body: Schema.Struct({ name: Schema.String }),
        success: Schema.Unknown,
        errors: []
      })
    ).toThrow('POST /things/{name}: "name" is in both its params and its body')
    expect(() =>
      Endpoint.make({
        method: "GET",
        route: "/things",
        query: Schema.Struct({ limit: Schema.optional(Schema.String) }),
        body: Schema.Struct({ limit: Schema.Number }),
        success: Schema.Unknown,
        errors: []
      })
    ).toThrow('GET /things: "limit" is in both its query and its body')
  })

  it("maps each key of its parts to the part, and leaves out what it is not given", () => {
    const declared = Endpoint.make({
      method: "GET",
      route: "/things/{thing_id}",
      params: Schema.Struct({ thing_id: Schema.String }),
      query: Schema.Struct({ cursor: Schema.optional(Schema.String) }),
      success: Schema.Unknown,
      errors: []
    })
    expect(declared.parts).toEqual(
      new Map([
        ["thing_id", "params"],
        ["cursor", "query"]
      ])
    )
    expect(declared.body).toBeUndefined()
    expect(declared.list).toBeUndefined()
    expect(declared.about).toBeUndefined()
    expect(declared.startsOperations).toBe(false)
  })
})

describe("Endpoint.encode", () => {
  const project_id = ProjectId.make("spring-example-302709")

  it("sends each key of the one flat input to its part: path, query or body", () => {
    expect(
      Endpoint.encode(Api.Roles.create, {
        project_id,
        branch_id: BranchId.make("br-wispy-meadow-118737"),
        role: { name: "app" }
      })
    ).toEqual(
      Either.right({
        path: "/projects/spring-example-302709/branches/br-wispy-meadow-118737/roles",
        query: [],
        body: { role: { name: "app" } }
      })
    )
    expect(Endpoint.encode(Api.Operations.list, { project_id, limit: 10, cursor: "c" })).toEqual(
      Either.right({
        path: "/projects/spring-example-302709/operations",
        query: [
          ["limit", "10"],
          ["cursor", "c"]
        ],
        body: undefined
      })
    )
    // `GET /api_keys` takes no input: an empty object.
    expect(Endpoint.encode(Api.ApiKeys.list, {})).toEqual(
      Either.right({ path: "/api_keys", query: [], body: undefined })
    )
  })

  it("refuses a top-level key no part has, naming it, and sends nothing", () => {
    // Built in a variable, as the type checker lets through: an extra key of a literal is a type error.
    const withExpiry = { project_id, expires_at: "2030-01-01T00:00:00Z" }
    expect(encodeInputFailure(Api.Branches.create, withExpiry)).toBe("expires_at: is not a field this endpoint takes")
    const withFoo = { project_id, foo: 1 }
    expect(encodeInputFailure(Api.Operations.list, withFoo)).toBe("foo: is not a field this endpoint takes")
    // @ts-expect-error: `foo` is not a key of the endpoint's input
    expect(encodeInputFailure(Api.Operations.list, { project_id, foo: 1 })).toBe(
      "foo: is not a field this endpoint takes"
    )
  })

  it("names every key no part has at once", () => {
    const input = { project_id, expires_at: "2030-01-01T00:00:00Z", foo: 1 }
    expect(encodeInputFailure(Api.Branches.create, input)).toBe(
      "expires_at: is not a field this endpoint takes; foo: is not a field this endpoint takes"
    )
  })

  it("refuses a key no part has on an endpoint that takes no input at all", () => {
    const input = { foo: 1 }
    expect(encodeInputFailure(Api.ApiKeys.list, input)).toBe("foo: is not a field this endpoint takes")
  })

  it("says, in the ParseError's own message, which keys the input may have", () => {
    const withOrg = { org_id: "org-a", limit: 5 }
    const refused = Endpoint.encode(Api.Projects.listShared, withOrg)
    if (Either.isRight(refused)) throw new Error("expected encoding to fail")
    const message = refused.left.message
    expect(message.split("\n")[0]).toMatch(
      /^\{ readonly limit\?: .*; readonly cursor\?: .*; readonly search\?: .*; readonly timeout\?: .* \}$/
    )
    expect(message).toContain('["org_id"]')
    expect(message).not.toContain("ProjectsPage")
  })

  it("refuses a field nested in the body that its schema does not declare, naming it", () => {
    const branch = { name: "preview/pr-expiry-probe", expires_in: "7 days" }
    expect(encodeInputFailure(Api.Branches.create, { project_id, branch })).toBe(
      'branch.expires_in: is unexpected, expected: "name" | "parent_id" | "protected" | "expires_at" | "init_source" | "parent_timestamp" | "parent_lsn" | "archived"'
    )
    const endpoints = [{ type: "read_write" as const, pooler_enabled: true }]
    expect(encodeInputFailure(Api.Branches.create, { project_id, endpoints })).toMatch(
      /^endpoints\.0\.pooler_enabled: is unexpected/
    )
  })

  it("takes a key given as undefined as not given: nothing sent for it, and no error", () => {
    expect(Endpoint.encode(Api.Operations.list, { project_id, limit: undefined, cursor: undefined })).toEqual(
      Either.right({ path: "/projects/spring-example-302709/operations", query: [], body: undefined })
    )
    expect(Endpoint.encode(Api.Branches.create, { project_id, branch: undefined, endpoints: undefined })).toEqual(
      Either.right({ path: "/projects/spring-example-302709/branches", query: [], body: {} })
    )
    // Not even a key no part has: `undefined` sends nothing, so nothing is dropped.
    const spread = { project_id, foo: undefined }
    expect(Either.isRight(Endpoint.encode(Api.Operations.list, spread))).toBe(true)
  })

  it("refuses a value its part's schema refuses, with the schema's message", () => {
    expect(encodeInputFailure(Api.Operations.list, { project_id, limit: 1001 })).toBe(
      "limit: must be an integer from 1 to 1000"
    )
    expect(encodeInputFailure(Api.Branches.create, { project_id, branch: { name: "" } })).toBe(
      "branch.name: must be 1 to 256 characters"
    )
  })
})

describe("Endpoint.problem", () => {
  const project_id = ProjectId.make("spring-example-302709")
  const branch_id = BranchId.make("br-wispy-meadow-118737")

  it("finds an answer about another id than the input's (the entry's about)", () => {
    const answer = Schema.decodeUnknownSync(Api.Branches.get.success)({
      branch: branchWire("br-other-1"),
      annotation: { object: { type: "console/branch", id: "br-other-1" }, value: {} }
    })
    expect(Endpoint.problem(Api.Branches.get, { project_id, branch_id }, answer)).toBe(
      "the answer is about branch_id br-other-1, not br-wispy-meadow-118737"
    )
  })

  it("finds an item of another project nested in a page", () => {
    const page = Schema.decodeUnknownSync(Api.Operations.list.success)({
      operations: [
        operationWire("a07f8772-1877-4da9-a939-3a3ae62d1d8d"),
        operationWire("b07f8772-1877-4da9-a939-3a3ae62d1d8d", "other-project-1")
      ]
    })
    expect(Endpoint.problem(Api.Operations.list, { project_id }, page)).toBe(
      "the answer holds an item (b07f8772-1877-4da9-a939-3a3ae62d1d8d) of project_id other-project-1, not spring-example-302709"
    )
  })

  it("finds a page longer than the limit sent", () => {
    const page = Schema.decodeUnknownSync(Api.Operations.list.success)({
      operations: [
        operationWire("a07f8772-1877-4da9-a939-3a3ae62d1d8d"),
        operationWire("b07f8772-1877-4da9-a939-3a3ae62d1d8d")
      ]
    })
    expect(Endpoint.problem(Api.Operations.list, { project_id, limit: 1 }, page)).toBe(
      "the page has 2 items, more than the limit of 1"
    )
    // Without a limit, `GET /projects/{project_id}/operations` answers every operation at once.
    expect(Endpoint.problem(Api.Operations.list, { project_id }, page)).toBeUndefined()
  })

  it("finds a page longer than the endpoint's largest when none was sent to an endpoint with a default page size", () => {
    const page = Schema.decodeUnknownSync(Api.Projects.list.success)({
      projects: Array.from({ length: 401 }, (_, i) => projectWire(`project-${i}`))
    })
    expect(Endpoint.problem(Api.Projects.list, {}, page)).toBe("the page has 401 items, more than the limit of 400")
  })

  it("accepts the right answer", () => {
    const branch = Schema.decodeUnknownSync(Api.Branches.get.success)({
      branch: branchWire(branch_id),
      annotation: { object: { type: "console/branch", id: branch_id }, value: {} }
    })
    expect(Endpoint.problem(Api.Branches.get, { project_id, branch_id }, branch)).toBeUndefined()
    const page = Schema.decodeUnknownSync(Api.Operations.list.success)({
      operations: [
        operationWire("a07f8772-1877-4da9-a939-3a3ae62d1d8d"),
        operationWire("b07f8772-1877-4da9-a939-3a3ae62d1d8d")
      ]
    })
    expect(Endpoint.problem(Api.Operations.list, { project_id, limit: 2 }, page)).toBeUndefined()
  })
})

describe("Api.Databases and Api.Roles (§15)", () => {
  it("group the database and role endpoints by method name", () => {
    const named = (group: Readonly<Record<string, Endpoint.Endpoint>>) =>
      Object.entries(group).map(([method, endpoint]) => `${method} ${endpoint.name}`)
    expect(named(Api.Databases)).toEqual([
      "list Databases.list",
      "create Databases.create",
      "get Databases.get",
      "update Databases.update",
      "delete Databases.delete"
    ])
    expect(named(Api.Roles)).toEqual([
      "list Roles.list",
      "create Roles.create",
      "get Roles.get",
      "delete Roles.delete",
      "revealPassword Roles.revealPassword",
      "resetPassword Roles.resetPassword"
    ])
  })

  it("take names of 1 to 63 bytes of UTF-8 in bodies, as Postgres keeps them", () => {
    const create = Api.Databases.create.body!
    expect(
      Schema.decodeUnknownSync(create)({ database: { name: "d".repeat(63), owner_name: "é".repeat(31) } })
    ).toEqual({ database: { name: "d".repeat(63), owner_name: "é".repeat(31) } })
    expect(decodeFailure(create, { database: { name: "d".repeat(64), owner_name: "app" } })).toBe(
      "database.name: must be 1 to 63 bytes"
    )
    // 32 two-byte characters: 64 bytes.
    expect(decodeFailure(Api.Roles.create.body!, { role: { name: "é".repeat(32) } })).toBe(
      "role.name: must be 1 to 63 bytes"
    )
    expect(decodeFailure(Api.Roles.create.body!, { role: { name: "" } })).toBe("role.name: must be 1 to 63 bytes")
    expect(decodeFailure(Api.Databases.update.body!, { database: { owner_name: "" } })).toBe(
      "database.owner_name: must be 1 to 63 bytes"
    )
  })

  it("decode a revealed password to a Redacted value", () => {
    const answer = Schema.decodeUnknownSync(Api.Roles.revealPassword.success)({ password: "s3cret-Pa55" })
    expect(String(answer.password)).not.toContain("s3cret")
    expect(JSON.stringify(answer)).not.toContain("s3cret")
  })
})

describe("Api.Branches.list", () => {
  const query = Api.Branches.list.query!

  it("encodes every query parameter to a string", () => {
    expect(
      Schema.encodeSync(query)({ limit: 10_000, cursor: "c", search: "preview", sort_by: "name", sort_order: "asc" })
    ).toEqual({ limit: "10000", cursor: "c", search: "preview", sort_by: "name", sort_order: "asc" })
    expect(Schema.encodeSync(query)({})).toEqual({})
  })

  it.each([
    [{ limit: "0" }, "limit: must be an integer from 1 to 10000"],
    [{ limit: "10001" }, "limit: must be an integer from 1 to 10000"],
    [{ cursor: "" }, "cursor: must not be empty"],
    [{ sort_by: "id" }, "sort_by: must be name, created_at or updated_at"],
    [{ sort_order: "up" }, "sort_order: must be asc or desc"]
  ])("refuses to decode %j", (input, message) => {
    expect(decodeFailure(query, input)).toBe(message)
  })

  it("refuses a branch_id that is not an id", () => {
    expect(decodeFailure(Api.Branches.get.params!, { project_id: "spring-example-302709", branch_id: "br_Bad" })).toBe(
      "branch_id: must be 1 to 60 of a-z, 0-9 and -"
    )
    expect(decodeFailure(Api.Branches.get.params!, { project_id: "Bad", branch_id: "br-a" })).toBe(
      "project_id: must be 1 to 60 of a-z, 0-9 and -"
    )
  })
})

describe("Api.Branches.create", () => {
  const body = Api.Branches.create.body!

  it("takes no body as {}", () => {
    const encoded = Endpoint.encode(Api.Branches.create, { project_id: ProjectId.make("p-1") })
    expect(encoded).toEqual(Either.right({ path: "/projects/p-1/branches", query: [], body: {} }))
  })

  it("encodes a branch with a compute endpoint", () => {
    expect(
      Schema.encodeSync(body)({
        branch: { name: "preview/pr-42", parent_id: "br-main-1" as never },
        endpoints: [{ type: "read_write", autoscaling_limit_min_cu: 0.25, suspend_timeout_seconds: 300 }]
      })
    ).toEqual({
      branch: { name: "preview/pr-42", parent_id: "br-main-1" },
      endpoints: [{ type: "read_write", autoscaling_limit_min_cu: 0.25, suspend_timeout_seconds: 300 }]
    })
  })

  it.each([
    [{ branch: { name: "" } }, "branch.name: must be 1 to 256 characters"],
    [{ branch: { name: "x".repeat(257) } }, "branch.name: must be 1 to 256 characters"],
    [{ branch: { parent_id: "BR" } }, "branch.parent_id: must be 1 to 60 of a-z, 0-9 and -"],
    [{ endpoints: [{ type: "primary" }] }, "endpoints.0.type: must be read_write or read_only"],
    [
      { endpoints: [{ type: "read_only", autoscaling_limit_max_cu: 0.1 }] },
      "endpoints.0.autoscaling_limit_max_cu: must be a number of compute units, 0.25 or more"
    ],
    [
      { endpoints: [{ type: "read_only", suspend_timeout_seconds: -2 }] },
      "endpoints.0.suspend_timeout_seconds: must be an integer from -1 to 604800 (seconds)"
    ]
  ])("refuses %j", (input, message) => {
    expect(decodeFailure(body, input)).toBe(message)
  })
})

describe("Api.Connections.uri", () => {
  const endpoint = Api.Connections.uri

  it("encodes the query to strings, pooled as true or false (§13.1)", () => {
    const encoded = Either.getOrThrow(
      Endpoint.encode(endpoint, {
        project_id: ProjectId.make("spring-example-302709"),
        database_name: "neondb",
        role_name: "neondb_owner",
        branch_id: BranchId.make("br-wispy-meadow-118737"),
        pooled: true
      })
    )
    expect(encoded.path).toBe("/projects/spring-example-302709/connection_uri")
    expect(encoded.query).toEqual([
      ["database_name", "neondb"],
      ["role_name", "neondb_owner"],
      ["branch_id", "br-wispy-meadow-118737"],
      ["pooled", "true"]
    ])
  })

  it("refuses a query without a database or role name, naming both", () => {
    const decoded = Schema.decodeUnknownEither(endpoint.query!, { errors: "all" })({ pooled: "yes" })
    expect(Either.isLeft(decoded)).toBe(true)
    const message = Either.isLeft(decoded) ? DecodeIssue.format(decoded.left.issue) : ""
    expect(message).toBe("database_name: is missing; role_name: is missing; pooled: must be true or false")
  })

  it("decodes the answer's uri to Redacted, and encodes it back", () => {
    const uri =
      "postgresql://alex:s3cr3t-Pa55@ep-proud-mud-a5x8dq2u.aws-us-east-2.dbplatform.test/neondb?sslmode=require"
    const answer = Schema.decodeUnknownSync(endpoint.success)({ uri })
    expect(String(answer.uri)).toBe("<redacted>")
    expect(JSON.stringify(answer)).not.toContain("s3cr3t")
    expect(Redacted.value(answer.uri)).toBe(uri)
    expect(Schema.encodeSync(endpoint.success)(answer)).toEqual({ uri })
  })
})

describe("Api.ComputeEndpoints.create and update (§12)", () => {
  it("encodes a compute endpoint to create on a branch", () => {
    expect(
      Endpoint.encode(Api.ComputeEndpoints.create, {
        project_id: ProjectId.make("p-1"),
        endpoint: { branch_id: BranchId.make("br-a"), type: "read_only", suspend_timeout_seconds: -1 }
      })
    ).toEqual(
      Either.right({
        path: "/projects/p-1/endpoints",
        query: [],
        body: { endpoint: { branch_id: "br-a", type: "read_only", suspend_timeout_seconds: -1 } }
      })
    )
  })

  it.each([
    [{ endpoint: { type: "read_write" } }, "endpoint.branch_id: is missing"],
    [{ endpoint: { branch_id: "br-a", type: "primary" } }, "endpoint.type: must be read_write or read_only"],
    [
      { endpoint: { branch_id: "br-a", type: "read_write", autoscaling_limit_min_cu: 0 } },
      "endpoint.autoscaling_limit_min_cu: must be a number of compute units, 0.25 or more"
    ],
    [
      { endpoint: { branch_id: "br-a", type: "read_write", suspend_timeout_seconds: 604_801 } },
      "endpoint.suspend_timeout_seconds: must be an integer from -1 to 604800 (seconds)"
    ]
  ])("create refuses %j", (input, message) => {
    expect(decodeFailure(Api.ComputeEndpoints.create.body!, input)).toBe(message)
  })

  it("update takes the settings alone, and refuses a malformed endpoint id in the path", () => {
    expect(Schema.decodeUnknownSync(Api.ComputeEndpoints.update.body!)({ endpoint: {} })).toEqual({ endpoint: {} })
    expect(decodeFailure(Api.ComputeEndpoints.update.params!, { project_id: "p-1", endpoint_id: "ep_Bad" })).toBe(
      "endpoint_id: must be 1 to 60 of a-z, 0-9 and -"
    )
  })
})

describe("Api.Projects.listShared", () => {
  const query = Api.Projects.listShared.query!

  it("takes the query of GET /projects but org_id, with the same limits (§10.6)", () => {
    expect(Schema.encodeSync(query)({ limit: 400, cursor: "c", search: "bill", timeout: 100 })).toEqual({
      limit: "400",
      cursor: "c",
      search: "bill",
      timeout: "100"
    })
    expect(encodeFailure(query, { limit: 401 })).toBe("limit: must be an integer from 1 to 400")
    expect(encodeFailure(query, { timeout: 99 })).toBe("timeout: must be an integer from 100 to 30000 (milliseconds)")
    // `org_id` is not one of its parameters: given, it is refused and named, never dropped.
    expect(Api.Projects.listShared.parts.has("org_id")).toBe(false)
    const withOrg = { org_id: "org-a", limit: 5 }
    expect(encodeInputFailure(Api.Projects.listShared, withOrg)).toBe("org_id: is not a field this endpoint takes")
  })
})

describe("Endpoint.path", () => {
  it("fills each {param} of the route", () => {
    expect(
      Endpoint.path(Api.Operations.get.route, {
        project_id: "spring-example-302709",
        operation_id: "a07f8772-1877-4da9-a939-3a3ae62d1d8d"
      })
    ).toBe("/projects/spring-example-302709/operations/a07f8772-1877-4da9-a939-3a3ae62d1d8d")
    expect(Endpoint.path(Api.ApiKeys.revoke.route, { key_id: "-5" })).toBe("/api_keys/-5")
    expect(Endpoint.path(Api.ApiKeys.list.route, {})).toBe("/api_keys")
  })

  it("URL-encodes the values", () => {
    expect(Endpoint.path(Api.Operations.list.route, { project_id: "a b/../c?d#e%f" })).toBe(
      "/projects/a%20b%2F..%2Fc%3Fd%23e%25f/operations"
    )
    expect(Endpoint.path("/x/{id}", { id: "é\u202e" })).toBe("/x/%C3%A9%E2%80%AE")
  })

  it("encodes the params a schema encodes", () => {
    const params = Schema.encodeSync(Api.ApiKeys.revoke.params!)({ key_id: 165432 as never })
    expect(params).toEqual({ key_id: "165432" })
    expect(Endpoint.path(Api.ApiKeys.revoke.route, params)).toBe("/api_keys/165432")
  })
})

describe("Api.Operations.list", () => {
  const query = Api.Operations.list.query!

  it("encodes limit and cursor to strings", () => {
    expect(Schema.encodeSync(query)({ limit: 10, cursor: "eyJvZmZzZXQiOjEwfQ==" })).toEqual({
      limit: "10",
      cursor: "eyJvZmZzZXQiOjEwfQ=="
    })
    expect(Schema.encodeSync(query)({})).toEqual({})
  })

  it("decodes limit from a string", () => {
    expect(Schema.decodeUnknownSync(query)({ limit: "1000" })).toEqual({ limit: 1000 })
    expect(Schema.decodeUnknownSync(query)({ limit: "1" })).toEqual({ limit: 1 })
  })

  it.each([0, 1001, 1.5, -1])("refuses to encode limit %j", (limit) => {
    expect(encodeFailure(query, { limit })).toBe("limit: must be an integer from 1 to 1000")
  })

  it.each(["0", "1001", "1.5", "", "10x", " 10", "1e3", "-1"])("refuses to decode limit %j", (limit) => {
    expect(decodeFailure(query, { limit })).toBe("limit: must be an integer from 1 to 1000")
  })

  it("refuses an empty cursor", () => {
    expect(encodeFailure(query, { cursor: "" })).toBe("cursor: must not be empty")
  })

  it("refuses a project_id that is not an id", () => {
    expect(decodeFailure(Api.Operations.list.params!, { project_id: "Bad_Project" })).toBe(
      "project_id: must be 1 to 60 of a-z, 0-9 and -"
    )
  })
})

describe("Api.Projects.list", () => {
  const query = Api.Projects.list.query!

  it("encodes every query parameter to a string", () => {
    expect(
      Schema.encodeSync(query)({ limit: 400, cursor: "c", search: "spring", org_id: "org-123", timeout: 30_000 })
    ).toEqual({ limit: "400", cursor: "c", search: "spring", org_id: "org-123", timeout: "30000" })
  })

  it.each(["100", "30000", "5000"])("accepts timeout %j", (timeout) => {
    expect(Schema.decodeUnknownSync(query)({ timeout })).toEqual({ timeout: Number(timeout) })
  })

  it.each([
    [{ limit: "401" }, "limit: must be an integer from 1 to 400"],
    [{ limit: "0" }, "limit: must be an integer from 1 to 400"],
    [{ org_id: "Bad_Org" }, "org_id: must be 1 to 60 of a-z, 0-9 and -"],
    [{ org_id: "" }, "org_id: must be 1 to 60 of a-z, 0-9 and -"],
    [{ timeout: "99" }, "timeout: must be an integer from 100 to 30000 (milliseconds)"],
    [{ timeout: "30001" }, "timeout: must be an integer from 100 to 30000 (milliseconds)"],
    [{ timeout: "1.5e3" }, "timeout: must be an integer from 100 to 30000 (milliseconds)"]
  ])("refuses to decode %j", (input, message) => {
    expect(decodeFailure(query, input)).toBe(message)
  })

  it.each([
    [{ limit: 401 }, "limit: must be an integer from 1 to 400"],
    [{ org_id: "Bad_Org" }, "org_id: must be 1 to 60 of a-z, 0-9 and -"],
    [{ timeout: 99 }, "timeout: must be an integer from 100 to 30000 (milliseconds)"],
    [{ timeout: 30_001 }, "timeout: must be an integer from 100 to 30000 (milliseconds)"]
  ])("refuses to encode %j", (input, message) => {
    expect(encodeFailure(query, input)).toBe(message)
  })

  it("names every refused parameter at once when decoding with errors: all", () => {
    const result = Schema.decodeUnknownEither(query, { errors: "all" })({
      limit: "401",
      org_id: "Bad_Org",
      timeout: "99"
    })
    if (Either.isRight(result)) throw new Error("expected decoding to fail")
    const message = DecodeIssue.format(result.left.issue)
    expect(message).toContain("limit: must be an integer from 1 to 400")
    expect(message).toContain("org_id: must be 1 to 60 of a-z, 0-9 and -")
    expect(message).toContain("timeout: must be an integer from 100 to 30000 (milliseconds)")
  })

  it("shows the same message through Effect's own formatter", () => {
    const result = Schema.decodeUnknownEither(query)({ timeout: "99" })
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) {
      expect(ParseResult.TreeFormatter.formatErrorSync(result.left)).toContain(
        "must be an integer from 100 to 30000 (milliseconds)"
      )
    }
  })
})

describe("Api.ApiKeys.revoke", () => {
  const params = Api.ApiKeys.revoke.params!

  it.each([
    ["-5", -5],
    ["165432", 165432],
    ["0", 0]
  ])("decodes key_id %j", (keyId, id) => {
    expect(Schema.decodeUnknownSync(params)({ key_id: keyId })).toEqual({ key_id: id })
  })

  it.each(["12x", "1.5", "", "-", "1e3", " 1", "0x10", "99999999999999999"])("refuses key_id %j", (keyId) => {
    expect(decodeFailure(params, { key_id: keyId })).toBe("key_id: must be an integer")
  })

  it("encodes a negative key_id for the path", () => {
    const encoded = Schema.encodeSync(params)({ key_id: -5 as never })
    expect(encoded).toEqual({ key_id: "-5" })
    expect(Endpoint.path(Api.ApiKeys.revoke.route, encoded)).toBe("/api_keys/-5")
  })
})

describe("Api.ApiKeys.create", () => {
  it("has a body and no params or query", () => {
    expect(Api.ApiKeys.create.body).toBeDefined()
    expect(Api.ApiKeys.create.params).toBeUndefined()
    expect(Api.ApiKeys.create.query).toBeUndefined()
  })

  it("refuses an empty key_name in the body", () => {
    expect(decodeFailure(Api.ApiKeys.create.body!, { key_name: "  " })).toBe("key_name: must not be empty")
  })
})

describe("Api.Projects (§14)", () => {
  it("groups the project endpoints by the client's method names, the two lists as list and listShared", () => {
    expect(Object.entries(Api.Projects).map(([method, endpoint]) => `${method} ${endpoint.name}`)).toEqual([
      "list Projects.list",
      "listShared Projects.listShared",
      "create Projects.create",
      "get Projects.get",
      "update Projects.update",
      "delete Projects.delete",
      "recover Projects.recover",
      "listAvailablePreloadLibraries Projects.listAvailablePreloadLibraries",
      "listAdvisorIssues Projects.listAdvisorIssues"
    ])
  })

  it("decodes the available preload libraries, each field as the document declares it; none is an empty list", () => {
    const endpoint = Api.Projects.listAvailablePreloadLibraries
    const library = {
      library_name: "timescaledb",
      description: "time-series tables",
      is_default: false,
      is_experimental: false,
      version: "2.17.1"
    }
    const answer = Schema.decodeUnknownSync(endpoint.success)({ libraries: [library] })
    expect(endpoint.list.items(answer)).toEqual([library])
    expect(endpoint.list.items(Schema.decodeUnknownSync(endpoint.success)({}))).toEqual([])
    expect(
      Either.isLeft(Schema.decodeUnknownEither(endpoint.success)({ libraries: [{ ...library, is_default: "no" }] }))
    ).toBe(true)
    expect(endpoint.list.cursor).toBeUndefined()
  })

  it("takes a create body of `{ project }`, every field optional, and refuses what the platform refuses", () => {
    const create = Api.Projects.create.body!
    expect(Schema.decodeUnknownSync(create)({ project: {} })).toEqual({ project: {} })
    expect(decodeFailure(create, {})).toMatch(/project/)
    expect(decodeFailure(create, { project: { pg_version: 13 } })).toMatch(/14 to 18/)
    expect(decodeFailure(create, { project: { history_retention_seconds: 2_592_001 } })).toMatch(/0 to 2592000/)
    expect(decodeFailure(create, { project: { region_id: "US East" } })).toMatch(/a-z, 0-9 and -/)
    expect(decodeFailure(create, { project: { branch: { role_name: "r".repeat(64) } } })).toMatch(/1 to 63 bytes/)
    expect(
      decodeFailure(create, { project: { default_endpoint_settings: { autoscaling_limit_min_cu: 0.1 } } })
    ).toMatch(/0.25 or more/)
    const update = Api.Projects.update.body!
    expect(decodeFailure(update, { project: { name: "" } })).toMatch(/1 to 256 characters/)
  })

  it("decodes a project read alone, its extra fields optional, and the answers around it", () => {
    const project = {
      id: "quiet-forest-10",
      name: "ci",
      platform_id: "aws",
      region_id: "aws-us-east-2",
      provisioner: "k8s-neonvm",
      pg_version: 17,
      cpu_used_sec: 0,
      branch_logical_size_limit: 512,
      proxy_host: "aws-us-east-2.example.test",
      created_at: "2024-03-01T12:00:00Z",
      updated_at: "2024-03-01T12:00:00Z"
    }
    const alone = {
      ...project,
      default_endpoint_settings: {
        autoscaling_limit_min_cu: 0.25,
        autoscaling_limit_max_cu: 2,
        suspend_timeout_seconds: 0
      },
      history_retention_seconds: 86400,
      active_time_seconds: 10,
      compute_time_seconds: 5,
      written_data_bytes: 100,
      data_transfer_bytes: 200,
      data_storage_bytes_hour: 300,
      consumption_period_start: "2024-03-01T00:00:00Z",
      consumption_period_end: "2024-04-01T00:00:00Z"
    }
    const read = Schema.decodeUnknownSync(Api.Projects.get.success)({ project: alone })
    expect(read.project.default_endpoint_settings?.autoscaling_limit_max_cu).toBe(2)
    expect(read.project.data_storage_bytes_hour).toBe(300)
    expect(Schema.decodeUnknownSync(Api.Projects.get.success)({ project }).project.active_time_seconds).toBeUndefined()
    // A real server's delete answer has no operations.
    expect(Schema.decodeUnknownSync(Api.Projects.delete.success)({ project }).operations).toBeUndefined()
  })
})

describe("Api.BranchAuth's email provider (§26.6): a union body in the one flat input (docs/design.md §1.3)", () => {
  const ids = { project_id: ProjectId.make("spring-x-1"), branch_id: BranchId.make("br-dev-1") }
  const smtp = {
    host: Redacted.make("smtp.example.com"),
    port: 587,
    username: Redacted.make("mailer"),
    password: Redacted.make("s3cret"),
    sender_email: "auth@example.com",
    sender_name: "Example"
  }

  it("sends `type` with the variant's fields, the secrets in clear only on the wire", () => {
    const encoded = Endpoint.encode(Api.BranchAuth.updateEmailProvider, { ...ids, type: "standard", ...smtp })
    expect(Either.getOrThrow(encoded).body).toEqual({
      type: "standard",
      host: "smtp.example.com",
      port: 587,
      username: "mailer",
      password: "s3cret",
      sender_email: "auth@example.com",
      sender_name: "Example"
    })
    const shared = Endpoint.encode(Api.BranchAuth.updateEmailProvider, { ...ids, type: "shared", sender_name: "App" })
    expect(Either.getOrThrow(shared).body).toEqual({ type: "shared", sender_name: "App" })
  })

  it("refuses a variant missing a field, holding another's, or of no known type", () => {
    const { password: _, ...noPassword } = smtp
    const refused = (input: object) =>
      Either.isLeft(Endpoint.encode(Api.BranchAuth.updateEmailProvider, { ...ids, ...input } as never))
    expect(refused({ type: "standard", ...noPassword })).toBe(true)
    expect(refused({ type: "shared", host: Redacted.make("smtp.example.com") })).toBe(true)
    expect(refused({ type: "other" })).toBe(true)
    expect(refused({ sender_name: "App" })).toBe(true)
  })

  it("decodes by `type`, the SMTP secrets to Redacted, and keeps a type it does not know as it came", () => {
    const decode = Schema.decodeUnknownSync(Api.BranchAuth.getEmailProvider.success)
    const standard = decode({
      type: "standard",
      host: "smtp.example.com",
      port: 587,
      username: "mailer",
      password: "s3cret",
      sender_email: "a@example.com",
      sender_name: "A"
    })
    // `type` is open (a provider added later decodes too): `Schema.is` narrows to a known variant.
    expect(Schema.is(Api.StandardEmailServer)(standard) && Redacted.value(standard.password)).toBe("s3cret")
    expect(String(standard)).not.toContain("s3cret")
    expect(decode({ type: "shared" })).toEqual({ type: "shared" })
    expect(decode({ type: "mailgun", domain: "mg.example.com" })).toEqual({ type: "mailgun", domain: "mg.example.com" })
    expect(() => decode({ type: "standard", host: "smtp.example.com" })).toThrow()
  })
})
