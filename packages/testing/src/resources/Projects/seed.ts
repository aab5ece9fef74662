/**
 * The Projects group's part of a seed (its projects): its schema, in a seed file as in code, derived
 * from the kind the fake keeps (`kinds.ts`), with times relative to the start. `Seed.ts`
 * assembles the parts and documents them.
 */
import * as Schema from "effect/Schema"
import { SeedDuration } from "../../engine/seed.js"
import { SnapshotProject } from "./kinds.js"

const project = SnapshotProject.fields

/** `Seed.SeedProjectFile` (documented there). */
export const SeedProjectFile = Schema.Struct({
  /** Matches `^[a-z0-9-]{1,60}$`, e.g. `spring-example-302709` (checked when the fake starts). */
  id: project.id,
  name: Schema.optional(project.name),
  region_id: Schema.optional(project.region_id),
  platform_id: Schema.optional(project.platform_id),
  provisioner: Schema.optional(project.provisioner),
  pg_version: Schema.optional(project.pg_version),
  /** The organization it belongs to (`org_id`, `^[a-z0-9-]{1,60}$`); the fake's default one when absent. */
  org_id: project.org_id,
  /**
   * `true`: a project of another account shared with this one, listed by `GET /projects/shared`
   * and not by `GET /projects` (docs/contract.md §10.6); its operations are read as any other's.
   * Absent (or `false`): one of the account's own.
   */
  shared: project.shared,
  /** Seconds of history kept for point-in-time restores (0 to 2 592 000); 86 400 (a day) by default. Since 0.3.0. */
  history_retention_seconds: project.history_retention_seconds,
  /**
   * The settings of the compute endpoints created in it without their own (compute units,
   * seconds); 0.25 compute units and a suspend timeout of 0 (the platform's default) when absent.
   * Since 0.3.0.
   */
  default_endpoint_settings: project.default_endpoint_settings,
  /**
   * Its settings (IP allow list, blocked connections, quotas...: core's `ProjectSettingsRequest`,
   * docs/contract.md §22.2); none when absent. Since 0.5.0.
   */
  settings: project.settings,
  /**
   * The integration installed on it (`github`, `vercel`): a transfer to another organization
   * refuses it with a 422 (docs/contract.md §22.4); none when absent. Since 0.5.0.
   */
  integration: project.integration,
  /** How long before the start the project was created; 30 days by default. */
  age: Schema.optional(SeedDuration)
}).annotations({ identifier: "SeedProject" })
