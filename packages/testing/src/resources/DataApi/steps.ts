/**
 * What the fake's Data API routes do (docs/contract.md §25): one Data API per database of a
 * branch, kept as a `data_apis` record under its database (deleting the database, its branch or
 * its project deletes it); each mutation a pure step over the state.
 *
 * - Create: 404 for an unknown project, branch or database; 423 while the project has a pending
 *   operation; 409 when the database has one already; 400 for an `auth_provider` other than
 *   `neon_auth` and `external`, an `external` one without `jwks_url`, or `neon_auth` on a branch
 *   whose auth service is not enabled (§26).
 * - Read, update, delete: 404 as for a create, and for a database without a Data API; update and
 *   delete are locked (423) as a create. Update merges the settings given into those kept.
 * - It is `ready` at once and answers no operation (the fake's choice: the reference names none).
 */
import * as Either from "effect/Either"
import { databaseOf } from "../Databases/steps.js"
import { type Item, remove, upsert } from "../../engine/kinds.js"
import { get, type Mutation, type State, type StoredDatabase, type StoredProject } from "../../engine/state.js"
import { Status } from "../../engine/status.js"
import { notFound, refused, type Refusal } from "../../engine/refusal.js"
import { branchOf, unlockedProject } from "../../engine/records.js"

/** A Data API as the fake keeps it. */
export type StoredDataApi = Item<"data_apis">

/** The settings a Data API is created or updated with, as its request gives them. */
export type DataApiSettings = StoredDataApi["settings"]

/** What `POST …/data-api/{database_name}` takes, decoded. */
export interface DataApiRequest {
  readonly auth_provider?: string | undefined
  readonly jwks_url?: string | undefined
  readonly provider_name?: string | undefined
  readonly jwt_audience?: string | undefined
  readonly add_default_grants?: boolean | undefined
  readonly skip_auth_schema?: boolean | undefined
  readonly settings?: DataApiSettings | undefined
}

/** The auth providers a Data API can check tokens with. */
const dataApiProviders: ReadonlySet<string> = new Set(["neon_auth", "external"])

/**
 * The settings a Data API has where its own leave them out: the platform's defaults (aggregates
 * on, `anonymous` for anonymous requests, `public` exposed, the role in `.role`, no OpenAPI).
 */
export const dataApiDefaults = {
  db_aggregates_enabled: true,
  db_anon_role: "anonymous",
  db_schemas: ["public"],
  jwt_role_claim_key: ".role",
  openapi_mode: "disabled"
} as const

/**
 * Where the Data API of database `database` of branch `branchId` serves, e.g.
 * `https://br-dev-100002.apirest.aws-us-east-2.dbplatform.test/neondb/rest/v1`.
 */
export const dataApiUrl = (project: StoredProject, branchId: string, database: string) =>
  `https://${branchId}.apirest.${project.region_id}.dbplatform.test/${encodeURIComponent(database)}/rest/v1`

/** `settings` without its keys set to `undefined` (as a record decoded from JSON has none). */
const definedSettings = (settings: DataApiSettings | undefined): DataApiSettings => {
  const kept: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(settings ?? {})) if (value !== undefined) kept[key] = value
  return kept as DataApiSettings
}

/** The database `name` of a branch, its project, and its Data API if it has one; 404 for an unknown project, branch or database. */
const located = (state: State, projectId: string, branchId: string, name: string) =>
  Either.flatMap(branchOf(state, projectId, branchId), ([project]) =>
    Either.map(databaseOf(state, projectId, branchId, name), (database) => ({
      project,
      database,
      dataApi: get(state, "data_apis", database.id)
    }))
  )

/** The Data API of database `name` of a branch, or a 404 (for it, or any of project, branch, database). */
const existing = (state: State, projectId: string, branchId: string, name: string) =>
  Either.flatMap(located(state, projectId, branchId, name), (found) =>
    found.dataApi === undefined
      ? notFound("Data API")
      : Either.right({ project: found.project, database: found.database, dataApi: found.dataApi })
  )

/** What a Data API read answers: it, its database and where it serves. */
export interface DataApiRead {
  readonly dataApi: StoredDataApi
  readonly database: StoredDatabase
  readonly url: string
  /** Whether the branch's auth service is enabled (its `neon_auth` schema is then there to expose). */
  readonly withAuth: boolean
}

/** The Data API of database `name` of a branch, with its URL (docs/contract.md §25). */
export const dataApiOf = (
  state: State,
  projectId: string,
  branchId: string,
  name: string
): Either.Either<DataApiRead, Refusal> =>
  Either.map(existing(state, projectId, branchId, name), ({ dataApi, database, project }) => ({
    dataApi,
    database,
    url: dataApiUrl(project, branchId, database.name),
    withAuth: get(state, "branch_auths", branchId) !== undefined
  }))

/** 400 unless `request`'s auth provider is one the platform offers, with what it needs. */
const providerRefusal = (state: State, branchId: string, request: DataApiRequest) => {
  const provider = request.auth_provider
  if (provider === undefined) return Either.void
  if (!dataApiProviders.has(provider)) {
    return refused(Status.badRequest, `auth_provider ${JSON.stringify(provider)} is not one of neon_auth, external`)
  }
  if (provider === "external" && request.jwks_url === undefined) {
    return refused(Status.badRequest, "jwks_url is required with auth_provider external")
  }
  if (provider === "neon_auth" && get(state, "branch_auths", branchId) === undefined) {
    return refused(Status.badRequest, "auth_provider neon_auth needs the branch's auth enabled first")
  }
  return Either.void
}

/**
 * Creates the Data API of database `name` of a branch (docs/contract.md §25); answers its URL.
 */
export const createDataApi =
  (projectId: string, branchId: string, name: string, request: DataApiRequest): Mutation<string, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const { database, dataApi, project } = yield* located(state, projectId, branchId, name)
      yield* unlockedProject(state, projectId, now)
      if (dataApi !== undefined) {
        return yield* refused(Status.conflict, `database ${JSON.stringify(name)} already has a Data API`)
      }
      yield* providerRefusal(state, branchId, request)
      const created: StoredDataApi = {
        id: database.id,
        project_id: projectId,
        branch_id: branchId,
        ...(request.auth_provider === undefined ? {} : { auth_provider: request.auth_provider }),
        ...(request.jwks_url === undefined ? {} : { jwks_url: request.jwks_url }),
        ...(request.provider_name === undefined ? {} : { provider_name: request.provider_name }),
        ...(request.jwt_audience === undefined ? {} : { jwt_audience: request.jwt_audience }),
        add_default_grants: request.add_default_grants ?? false,
        skip_auth_schema: request.skip_auth_schema ?? false,
        settings: definedSettings(request.settings),
        created_at: now,
        updated_at: now
      }
      return { changes: [upsert("data_apis", created)], answer: dataApiUrl(project, branchId, database.name) }
    })

/** Updates the settings of the Data API of database `name` of a branch (docs/contract.md §25). */
export const updateDataApi =
  (projectId: string, branchId: string, name: string, settings: DataApiSettings | undefined): Mutation<void, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const { dataApi } = yield* existing(state, projectId, branchId, name)
      yield* unlockedProject(state, projectId, now)
      const updated: StoredDataApi = {
        ...dataApi,
        settings: { ...dataApi.settings, ...definedSettings(settings) },
        updated_at: Math.max(now, dataApi.updated_at)
      }
      return { changes: [upsert("data_apis", updated)], answer: undefined }
    })

/** Deletes the Data API of database `name` of a branch (docs/contract.md §25). */
export const deleteDataApi =
  (projectId: string, branchId: string, name: string): Mutation<void, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const { dataApi } = yield* existing(state, projectId, branchId, name)
      yield* unlockedProject(state, projectId, now)
      return { changes: [remove("data_apis", dataApi.id)], answer: undefined }
    })
