/**
 * The project advisor of the fake (docs/contract.md §14.6): the issues it finds in a database's
 * schema as the fake keeps it (`BranchSchema`), three checks of its own that the platform's
 * advisor also runs, by the platform's names. It keeps nothing in its state.
 */
import { AdvisorIssue, AdvisorIssues, type Api } from "@dbplatform/core"
import * as Either from "effect/Either"
import { branchOf } from "../../engine/records.js"
import { type Refusal, notFound, refused } from "../../engine/refusal.js"
import { get, itemsOf, type State, type StoredDatabase } from "../../engine/state.js"
import { Status } from "../../engine/status.js"
import { unchecked } from "../../engine/wire.js"
import { tablesNow } from "../BranchSchema/steps.js"
import type { Table } from "../Databases/kinds.js"

/** What a request asks of the advisor: `GET /projects/{project_id}/advisors`'s query, decoded. */
export type AdvisorQuery = NonNullable<typeof Api.Projects.listAdvisorIssues.query>["Type"]

/** The levels from the lowest: `min_severity` keeps its own and those after it. */
const levels: ReadonlyArray<string> = ["INFO", "WARN", "ERROR"]

/** Where the platform documents its advisor's checks. */
const remediation = "https://neon.com/docs/data-api/database-advisor"

/** One check: its name, title, level, facing, categories and description, and what it finds in a table. */
interface Check {
  readonly name: string
  readonly title: string
  readonly level: "INFO" | "WARN" | "ERROR"
  readonly facing: "EXTERNAL" | "INTERNAL"
  readonly categories: ReadonlyArray<"SECURITY" | "PERFORMANCE">
  readonly description: string
  /** Each occurrence in `table`: its detail and metadata. */
  readonly find: (table: Table) => ReadonlyArray<{ readonly detail: string; readonly metadata: object }>
}

const qualified = (table: Table) => `\`${table.schema}.${table.name}\``

/** Whether `columns` lead a primary key or unique constraint of `table` (the indexes the fake knows). */
const indexed = (table: Table, columns: ReadonlyArray<string>) =>
  table.constraints.some(
    (constraint) => constraint.type !== "foreign_key" && columns.every((column, i) => constraint.columns[i] === column)
  )

/** The fake's checks, in the order it answers them. */
const checks: ReadonlyArray<Check> = [
  {
    name: "rls_disabled_in_public",
    title: "RLS Disabled in Public",
    level: "ERROR",
    facing: "EXTERNAL",
    categories: ["SECURITY"],
    description: "Detects tables in the public schema, which the Data API exposes, without row-level security enabled.",
    // The fake's schemas keep no row-level security: every table of `public` has it disabled.
    find: (table) =>
      table.schema === "public"
        ? [
            {
              detail: `Table ${qualified(table)} is public, but RLS has not been enabled.`,
              metadata: { schema: table.schema, name: table.name, type: "table" }
            }
          ]
        : []
  },
  {
    name: "unindexed_foreign_keys",
    title: "Unindexed foreign keys",
    level: "INFO",
    facing: "INTERNAL",
    categories: ["PERFORMANCE"],
    description: "Detects foreign key constraints without an index covering their columns.",
    find: (table) =>
      table.constraints
        .filter((constraint) => constraint.type === "foreign_key" && !indexed(table, constraint.columns))
        .map((constraint) => ({
          detail: `Table ${qualified(table)} has a foreign key \`${constraint.name}\` without a covering index.`,
          metadata: { schema: table.schema, name: table.name, type: "table", fkey_name: constraint.name }
        }))
  },
  {
    name: "no_primary_key",
    title: "No Primary Key",
    level: "INFO",
    facing: "INTERNAL",
    categories: ["PERFORMANCE"],
    description: "Detects tables without a primary key.",
    find: (table) =>
      table.constraints.some((constraint) => constraint.type === "primary_key")
        ? []
        : [
            {
              detail: `Table ${qualified(table)} does not have a primary key.`,
              metadata: { schema: table.schema, name: table.name, type: "table" }
            }
          ]
  }
]

/**
 * The database the advisor looks at: `database_name` of the branch, or its only one; 404 for an
 * unknown one, 400 when the branch has several and none is named, or none at all.
 */
const databaseOf = (
  state: State,
  branchId: string,
  name: string | undefined
): Either.Either<StoredDatabase, Refusal> => {
  const databases = Array.from(itemsOf(state, "databases", branchId))
  if (name !== undefined) {
    const found = databases.find((database) => database.name === name)
    return found === undefined ? notFound("database") : Either.right(found)
  }
  if (databases.length === 1) return Either.right(databases[0]!)
  return refused(
    Status.badRequest,
    databases.length === 0
      ? "the branch has no database to analyze"
      : "the branch has several databases: database_name is required"
  )
}

/**
 * The issues of `GET /projects/{project_id}/advisors` (docs/contract.md §14.6): the checks run
 * over the tables of the database asked for, of `branch_id` or the project's default branch,
 * kept by `category` and `min_severity`. 404 (project, branch, database), 400 (several databases
 * and no `database_name`; a database without the Data API on).
 */
export const advisorIssues = (
  state: State,
  projectId: string,
  query: AdvisorQuery
): Either.Either<AdvisorIssues, Refusal> =>
  Either.gen(function* () {
    let branchId = query.branch_id as string | undefined
    if (branchId === undefined) {
      for (const branch of itemsOf(state, "branches", projectId)) if (branch.default) branchId = branch.id
    }
    const [, branch] = yield* branchOf(state, projectId, branchId ?? "")
    const database = yield* databaseOf(state, branch.id, query.database_name)
    if (get(state, "data_apis", database.id) === undefined) {
      return yield* refused(
        Status.badRequest,
        `the advisor needs the Data API: it is not enabled on database ${JSON.stringify(database.name)}`
      )
    }
    const floor = levels.indexOf(query.min_severity ?? "INFO")
    const issues: Array<AdvisorIssue> = []
    for (const check of checks) {
      if (levels.indexOf(check.level) < floor) continue
      if (query.category !== undefined && !check.categories.includes(query.category)) continue
      for (const table of tablesNow(database)) {
        for (const { detail, metadata } of check.find(table)) {
          issues.push(
            new AdvisorIssue(
              {
                name: check.name,
                title: check.title,
                level: check.level,
                facing: check.facing,
                categories: check.categories,
                description: check.description,
                detail,
                remediation,
                metadata: metadata as Record<string, unknown>,
                cache_key: `${check.name}_${table.schema}_${table.name}`
              },
              unchecked
            )
          )
        }
      }
    }
    return new AdvisorIssues({ issues }, unchecked)
  })
