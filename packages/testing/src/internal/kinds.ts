/**
 * The table of every kind the fake keeps (`engine/kinds.ts`): the engine's own and each
 * resource's (`resources/<Group>/kinds.ts`), in the order a snapshot lists them and problems are
 * reported: a parent kind comes before its children. The state is made from it ({@link stateOf},
 * {@link load}), and the `Snapshot` schema and the change record are derived from it.
 */
import {
  api_keys,
  type Collections,
  type Id,
  type Kind,
  type Kinds,
  type KindSpec,
  operations,
  specIn
} from "../engine/kinds.js"
import { emptyState, loadState, makeState, type State, stateProblems } from "../engine/state.js"
import { branch_auths } from "../resources/BranchAuth/kinds.js"
import { branchTreeProblems } from "../resources/Branches/invariants.js"
import { anonymizations, branches, deleted_branches } from "../resources/Branches/kinds.js"
import { endpoints } from "../resources/ComputeEndpoints/kinds.js"
import { credentials } from "../resources/Credentials/kinds.js"
import { data_apis } from "../resources/DataApi/kinds.js"
import { databases } from "../resources/Databases/kinds.js"
import { jwks } from "../resources/Jwks/kinds.js"
import { functions } from "../resources/Functions/kinds.js"
import { bucket_object_versions, bucket_objects, buckets, presigned_urls } from "../resources/Buckets/kinds.js"
import { invitations, members, organizations } from "../resources/Organizations/kinds.js"
import { withImpliedOrganizations } from "../resources/Organizations/steps.js"
import { permissions } from "../resources/ProjectPermissions/kinds.js"
import { projects } from "../resources/Projects/kinds.js"
import { transfer_requests } from "../resources/ProjectTransfers/kinds.js"
import { roles } from "../resources/Roles/kinds.js"
import { backup_schedules, branch_snapshots } from "../resources/Snapshots/kinds.js"
import { vpc_endpoints, vpc_restrictions } from "../resources/VpcEndpoints/kinds.js"

export { SnapshotApiKey, SnapshotOperation, SnapshotStep, SnapshotTime } from "../engine/kinds.js"
export { SnapshotBranchAuth } from "../resources/BranchAuth/kinds.js"
export { SnapshotAnonymization, SnapshotBranch, SnapshotDeletedBranch } from "../resources/Branches/kinds.js"
export { SnapshotEndpoint } from "../resources/ComputeEndpoints/kinds.js"
export { SnapshotCredential } from "../resources/Credentials/kinds.js"
export { SnapshotDataApi } from "../resources/DataApi/kinds.js"
export {
  SnapshotDatabase,
  SnapshotSchemaColumn,
  SnapshotSchemaConstraint,
  SnapshotSchemaTable,
  SnapshotSchemaVersion
} from "../resources/Databases/kinds.js"
export { SnapshotJwks } from "../resources/Jwks/kinds.js"
export { SnapshotFunction, SnapshotFunctionDeployment } from "../resources/Functions/kinds.js"
export {
  SnapshotBucket,
  SnapshotBucketObject,
  SnapshotBucketObjectVersion,
  SnapshotPresignedUrl
} from "../resources/Buckets/kinds.js"
export { SnapshotInvitation, SnapshotMember, SnapshotOrganization } from "../resources/Organizations/kinds.js"
export { SnapshotPermission } from "../resources/ProjectPermissions/kinds.js"
export { SnapshotProject } from "../resources/Projects/kinds.js"
export { SnapshotTransferRequest } from "../resources/ProjectTransfers/kinds.js"
export { SnapshotRole } from "../resources/Roles/kinds.js"
export { SnapshotBackupSchedule, SnapshotBranchSnapshot } from "../resources/Snapshots/kinds.js"
export { SnapshotVpcEndpoint, SnapshotVpcRestriction } from "../resources/VpcEndpoints/kinds.js"

/**
 * The kinds, in the order a snapshot lists them and problems are reported: a parent kind comes
 * before its children. A kind missing here is a type error (every kind of the registry `Kinds`).
 */
export const kinds: Kinds = {
  api_keys,
  projects,
  branches,
  endpoints,
  roles,
  databases,
  data_apis,
  branch_auths,
  jwks,
  operations,
  organizations,
  members,
  invitations,
  permissions,
  vpc_endpoints,
  vpc_restrictions,
  transfer_requests,
  branch_snapshots,
  backup_schedules,
  deleted_branches,
  credentials,
  anonymizations,
  functions,
  buckets,
  bucket_objects,
  bucket_object_versions,
  presigned_urls
}

/** The kinds' names, in table order. */
export const kindNames = Object.keys(kinds) as ReadonlyArray<Kind>

/** The kinds' own specs, seen through one type (a table lookup by a name known only at run time). */
export const specOf = <K extends Kind>(kind: K): KindSpec<Kinds[K]["schema"], Id<K>, Kind> => specIn(kinds, kind)

/** An account with nothing in it. */
export const empty: State = emptyState(kinds)

/** The state `collections` describe, as they are (see {@link load} for the one that checks them). */
export const stateOf = (collections: Collections): State => makeState(kinds, collections)

/**
 * Everything wrong with `state`, one line each (empty when it can be served): the engine's
 * (`stateProblems`: a key's hash twice, an organization's key of no organization, an orphan),
 * then the branch trees' (`resources/Branches/invariants.ts`: one default branch per project, a
 * parent in the project, compute endpoints of the branch's project and at most one `read_write`,
 * a database's owner a role of its branch).
 */
export const problems = (state: State): Array<string> => [...stateProblems(state), ...branchTreeProblems(state)]

/**
 * The state `collections` describe, or every problem in them: each item's own (a bad id, a bad
 * `org_id`), a repeated id (the first item with it is kept), then those of the whole state
 * ({@link problems}); every organization a project names is implied when not declared.
 */
export const load = (collections: Collections) => loadState(kinds, collections, withImpliedOrganizations, problems)
