/**
 * Anonymized branches (docs/contract.md §18.4): a branch created as a copy of its parent, with
 * masking rules, whose anonymization the fake runs on its clock. The fake keeps no rows: a run
 * checks each rule's column against the database's schema it keeps (`BranchSchema`), takes a
 * second per rule (at least one), and ends `anonymized`, or `error` naming the first column it
 * could not find. Its state at a time is derived from what is kept (`anonymizations`), so it
 * moves on the clock with nothing to schedule, and a saved state holds it.
 */
import { Api } from "@dbplatform/core"
import * as Either from "effect/Either"
import { accountUser } from "../../engine/caller.js"
import type { Dice } from "../../engine/ids.js"
import { type Item, upsert } from "../../engine/kinds.js"
import { branchOf } from "../../engine/records.js"
import { type Refusal, refused } from "../../engine/refusal.js"
import { get, itemsOf, type Mutation, type State } from "../../engine/state.js"
import { Status } from "../../engine/status.js"
import { at, type BranchCreation, unchecked } from "../../engine/wire.js"
import { tablesNow } from "../BranchSchema/steps.js"
import { type BranchToCreate, createBranch } from "./steps.js"

/** An anonymized branch's record, as the fake keeps it. */
export type StoredAnonymization = Item<"anonymizations">

/** A masking rule as the fake keeps it. */
type Rule = StoredAnonymization["masking_rules"][number]

/** How long a run takes per masking rule, in ms (at least one rule's). */
export const msPerRule = 1_000

/** 400 for a column two rules name: one rule per column. */
const oneRulePerColumn = (rules: ReadonlyArray<Rule>): Either.Either<ReadonlyArray<Rule>, Refusal> => {
  const seen = new Set<string>()
  for (const rule of rules) {
    const column = `${rule.database_name}.${rule.schema_name}.${rule.table_name}.${rule.column_name}`
    if (seen.has(column)) return refused(Status.badRequest, `column ${column} has more than one masking rule`)
    seen.add(column)
  }
  return Either.right(rules)
}

/** A rule as kept: its fields, no class. */
const ruleOf = (rule: Api.MaskingRule): Rule => ({ ...rule })

/**
 * `POST /projects/{project_id}/branch_anonymized` as a pure step: the branch `request` creates
 * (as `create` does: its operations, its compute endpoints, its copies of the parent's roles and
 * databases), made anonymized with `rules`, initialized once the branch is ready, and with
 * `start` anonymizing from then on. 400 for a column two rules name; the creation's refusals.
 */
export const createAnonymizedBranch =
  (
    projectId: string,
    request: BranchToCreate,
    rules: ReadonlyArray<Api.MaskingRule>,
    start: boolean,
    dice: Dice
  ): Mutation<BranchCreation, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const kept = yield* oneRulePerColumn(rules.map(ruleOf))
      const created = yield* createBranch(projectId, request, dice)(state, now)
      const { branch, databases } = created.answer
      const anonymization: StoredAnonymization = {
        id: branch.id,
        project_id: projectId,
        masking_rules: kept,
        created_at: now,
        initialized_at: branch.ready_at,
        updated_at: now,
        ...(start ? { run: runOf(kept, (name) => databases.find((one) => one.name === name), branch.ready_at) } : {})
      }
      return { changes: [...created.changes, upsert("anonymizations", anonymization)], answer: created.answer }
    })

/**
 * A run of `rules` from `from` (ms): its end, and the first rule whose database, table or column
 * the branch's schema does not have (then it ends in `error`).
 */
const runOf = (
  rules: ReadonlyArray<Rule>,
  databaseNamed: (name: string) => Item<"databases"> | undefined,
  from: number
): NonNullable<StoredAnonymization["run"]> => {
  let problem: string | undefined
  for (const rule of rules) {
    const database = databaseNamed(rule.database_name)
    const table =
      database === undefined
        ? undefined
        : tablesNow(database).find((one) => one.schema === rule.schema_name && one.name === rule.table_name)
    const column = table?.columns.find((one) => one.name === rule.column_name)
    if (column === undefined) {
      problem = `column ${rule.database_name}.${rule.schema_name}.${rule.table_name}.${rule.column_name} does not exist`
      break
    }
  }
  return {
    started_at: from,
    ends_at: from + Math.max(1, rules.length) * msPerRule,
    triggered_by: accountUser.id,
    masked_columns: problem === undefined ? rules.length : 0,
    ...(problem === undefined ? {} : { problem })
  }
}

/** The state of `anonymization` at `now`, its message, and when it last changed (ms). */
const stateAt = (anonymization: StoredAnonymization, now: number) => {
  const { run } = anonymization
  if (now < anonymization.initialized_at) {
    return { state: "created", message: "creating the branch", changed: anonymization.created_at }
  }
  if (run === undefined || now < run.started_at) {
    return {
      state: "initialized",
      message: "ready to anonymize",
      changed: Math.max(anonymization.initialized_at, anonymization.updated_at)
    }
  }
  if (now < run.ends_at) {
    const total = Math.max(1, anonymization.masking_rules.length)
    const done = Math.min(total, Math.floor((now - run.started_at) / msPerRule) + 1)
    return { state: "anonymizing", message: `masking column ${done} of ${total}`, changed: run.started_at }
  }
  return run.problem === undefined
    ? { state: "anonymized", message: `masked ${run.masked_columns} columns`, changed: run.ends_at }
    : { state: "error", message: run.problem, changed: run.ends_at }
}

/** The status of `anonymization` as the API answers it at `now`. */
export const anonymizedStatusAt = (anonymization: StoredAnonymization, now: number): Api.AnonymizedBranchStatus => {
  const { state, message, changed } = stateAt(anonymization, now)
  const run = anonymization.run
  const started = run !== undefined && now >= run.started_at
  const completed = started && now >= run.ends_at
  return new Api.AnonymizedBranchStatus(
    {
      project_id: anonymization.project_id,
      branch_id: anonymization.id,
      state,
      status_message: message,
      created_at: at(anonymization.created_at),
      updated_at: at(Math.max(changed, anonymization.created_at)),
      ...(state === "error" ? { failed_at: at(run!.ends_at) } : {}),
      ...(started
        ? {
            last_run: new Api.AnonymizationRun(
              {
                started_at: at(run.started_at),
                ...(completed ? { completed_at: at(run.ends_at), masked_columns: run.masked_columns } : {}),
                triggered_by: run.triggered_by,
                triggered_by_username: accountUser.email
              },
              unchecked
            )
          }
        : {})
    },
    unchecked
  )
}

/** The anonymized branch `branchId` of project `projectId`: 404 for an unknown one, 400 for a branch that is not anonymized. */
export const anonymizedBranch = (
  state: State,
  projectId: string,
  branchId: string
): Either.Either<StoredAnonymization, Refusal> =>
  Either.flatMap(branchOf(state, projectId, branchId), () => {
    const anonymization = get(state, "anonymizations", branchId)
    return anonymization === undefined
      ? refused(Status.badRequest, `branch ${branchId} is not an anonymized branch`)
      : Either.right(anonymization)
  })

/**
 * `PATCH .../masking_rules` as a pure step: the rules replaced by `rules`. 400 (not anonymized; a
 * column two rules name), 409 while a run is anonymizing, 404 (project, branch).
 */
export const updateMaskingRules =
  (
    projectId: string,
    branchId: string,
    rules: ReadonlyArray<Api.MaskingRule>
  ): Mutation<StoredAnonymization, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const anonymization = yield* anonymizedBranch(state, projectId, branchId)
      const kept = yield* oneRulePerColumn(rules.map(ruleOf))
      if (stateAt(anonymization, now).state === "anonymizing") {
        return yield* refused(Status.conflict, `branch ${branchId} is being anonymized: change its rules after the run`)
      }
      const changed: StoredAnonymization = { ...anonymization, masking_rules: kept, updated_at: now }
      return { changes: [upsert("anonymizations", changed)], answer: changed }
    })

/**
 * `POST .../anonymize` as a pure step: a run of the branch's rules from `now`. 400 (not
 * anonymized), 409 unless `initialized`, `error` or `anonymized`, 404 (project, branch).
 */
export const startAnonymization =
  (projectId: string, branchId: string): Mutation<StoredAnonymization, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const anonymization = yield* anonymizedBranch(state, projectId, branchId)
      const { state: current } = stateAt(anonymization, now)
      if (!["initialized", "error", "anonymized"].includes(current)) {
        return yield* refused(
          Status.conflict,
          `branch ${branchId} is ${current}: anonymization starts from initialized, error or anonymized`
        )
      }
      const databases = Array.from(itemsOf(state, "databases", branchId))
      const run = runOf(anonymization.masking_rules, (name) => databases.find((one) => one.name === name), now)
      const changed: StoredAnonymization = { ...anonymization, run, updated_at: now }
      return { changes: [upsert("anonymizations", changed)], answer: changed }
    })
