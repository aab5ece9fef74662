/**
 * The shared preload libraries the fake offers a project, by its Postgres major version
 * (docs/contract.md §14.5): a fixed list of its own, in the platform's shape, not the platform's
 * catalogue. The fake keeps nothing of it in its state and enables nothing.
 */
import { AvailablePreloadLibrary } from "@dbplatform/core"

/** A library of the list: its name, what it does, whether default or experimental, its version by major. */
interface Offered {
  readonly library_name: string
  readonly description: string
  readonly is_default: boolean
  readonly is_experimental: boolean
  /** Its version on each Postgres major version that has it; a major without one does not offer it. */
  readonly versions: Readonly<Partial<Record<number, string>>>
}

const offered: ReadonlyArray<Offered> = [
  {
    library_name: "pg_stat_statements",
    description: "Counts the time, rows and calls of every statement the server runs",
    is_default: true,
    is_experimental: false,
    versions: { 14: "1.9", 15: "1.10", 16: "1.10", 17: "1.11", 18: "1.12" }
  },
  {
    library_name: "timescaledb",
    description: "Time-series tables split into chunks by time, with compression and continuous aggregates",
    is_default: false,
    is_experimental: false,
    versions: { 14: "2.10.1", 15: "2.17.1", 16: "2.17.1", 17: "2.17.1" }
  },
  {
    library_name: "pg_cron",
    description: "Runs SQL on a cron schedule from a background worker of the database",
    is_default: false,
    is_experimental: false,
    versions: { 14: "1.6", 15: "1.6", 16: "1.6", 17: "1.6", 18: "1.6" }
  },
  {
    library_name: "pg_partman_bgw",
    description: "The background worker of pg_partman: creates and drops time or id partitions on an interval",
    is_default: false,
    is_experimental: false,
    versions: { 14: "5.1.0", 15: "5.1.0", 16: "5.1.0", 17: "5.1.0", 18: "5.2.4" }
  },
  {
    library_name: "pgaudit",
    description: "Writes an audit trail of sessions and objects to the server log",
    is_default: false,
    is_experimental: false,
    versions: { 14: "1.6.2", 15: "1.7.0", 16: "16.0", 17: "17.0", 18: "18.0" }
  },
  {
    library_name: "anon",
    description: "Masks personal data with rules declared on columns (PostgreSQL Anonymizer)",
    is_default: false,
    is_experimental: true,
    versions: { 14: "2.1.0", 15: "2.1.0", 16: "2.1.0", 17: "2.1.0" }
  }
]

/**
 * The libraries a project on Postgres `pgVersion` may enable: `pg_stat_statements` (the one
 * default), `timescaledb` (not on 18), `pg_cron`, `pg_partman_bgw`, `pgaudit` and `anon`
 * (experimental, not on 18), each with its version on that major; none for a major the fake does
 * not know.
 */
export const availablePreloadLibraries = (pgVersion: number): ReadonlyArray<AvailablePreloadLibrary> =>
  offered.flatMap(({ versions, ...library }) => {
    const version = versions[pgVersion]
    return version === undefined ? [] : [new AvailablePreloadLibrary({ ...library, version }, true)]
  })
