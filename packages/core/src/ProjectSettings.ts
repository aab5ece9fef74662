/**
 * A project's settings (`settings` of a project, and of the bodies that create and update one):
 * its IP allow list, whether public and VPC connections are blocked, its consumption quotas, its
 * maintenance window, logical replication, audit log level, HIPAA and preloaded libraries
 * (`docs/contract.md` §22.2).
 *
 * @since 0.5.0
 */
import * as Schema from "effect/Schema"
import { isIpEntry } from "./internal/ip.js"
import { withMessage } from "./internal/input.js"
import { openEnum } from "./internal/openEnum.js"

/**
 * A project's IP allow list (a `Data` value, as the other nested settings: equal by content): `ips`, the addresses, ranges (`192.0.2.1-192.0.2.20`) and CIDR
 * blocks (`192.0.2.0/24`, IPv4 or IPv6) allowed to connect (empty or absent: any), and
 * `protected_branches_only`, whether it applies to the project's protected branches only (§22.2).
 *
 * @since 0.5.0
 * @category schemas
 */
export const AllowedIps = Schema.Data(
  Schema.Struct({
    ips: Schema.optional(Schema.Data(Schema.Array(Schema.String))),
    protected_branches_only: Schema.optional(Schema.Boolean)
  })
).annotations({ identifier: "AllowedIps" })

/**
 * Per-project consumption quotas, each a number of its unit, 0 or absent meaning unlimited:
 * `active_time_seconds` and `compute_time_seconds` (seconds), `written_data_bytes`,
 * `data_transfer_bytes` and `logical_size_bytes` (bytes; per branch) (§22.2).
 *
 * @since 0.5.0
 * @category schemas
 */
export const ProjectQuota = Schema.Data(
  Schema.Struct({
    active_time_seconds: Schema.optional(Schema.Number),
    compute_time_seconds: Schema.optional(Schema.Number),
    written_data_bytes: Schema.optional(Schema.Number),
    data_transfer_bytes: Schema.optional(Schema.Number),
    logical_size_bytes: Schema.optional(Schema.Number)
  })
).annotations({ identifier: "ProjectQuota" })

/**
 * When the platform may do maintenance on a project: `weekdays` (1 Monday to 7 Sunday),
 * `start_time` and `end_time` (`HH:MM`, UTC) (§22.2).
 *
 * @since 0.5.0
 * @category schemas
 */
export const MaintenanceWindow = Schema.Data(
  Schema.Struct({
    weekdays: Schema.Data(Schema.Array(Schema.Number)),
    start_time: Schema.String,
    end_time: Schema.String
  })
).annotations({ identifier: "MaintenanceWindow" })

/**
 * The shared libraries preloaded into a project's computes: `use_defaults` and
 * `enabled_libraries` (names) (§22.2).
 *
 * @since 0.5.0
 * @category schemas
 */
export const PreloadLibraries = Schema.Data(
  Schema.Struct({
    use_defaults: Schema.optional(Schema.Boolean),
    enabled_libraries: Schema.optional(Schema.Data(Schema.Array(Schema.String)))
  })
).annotations({ identifier: "PreloadLibraries" })

/**
 * A project's audit log level: `base`, `extended`, `full`, or a value a newer server sends
 * (open) (§22.2).
 *
 * @since 0.5.0
 * @category schemas
 */
export const AuditLogLevel = openEnum(Schema.Literal("base", "extended", "full"), "AuditLogLevel")

/**
 * A project's settings as a server answers them (`project.settings`), every field optional
 * and unknown ones ignored: `allowed_ips`, `block_public_connections`, `block_vpc_connections`,
 * `quota`, `maintenance_window`, `enable_logical_replication`, `audit_log_level`, `hipaa`,
 * `preload_libraries` (§22.2). Its nested objects and arrays are `Data` values (`Equal.equals`
 * compares them by content), so two decodings of the same settings are equal.
 *
 * @since 0.5.0
 * @category schemas
 */
export class ProjectSettings extends Schema.Class<ProjectSettings>("ProjectSettings")({
  quota: Schema.optional(ProjectQuota),
  allowed_ips: Schema.optional(AllowedIps),
  enable_logical_replication: Schema.optional(Schema.Boolean),
  maintenance_window: Schema.optional(MaintenanceWindow),
  block_public_connections: Schema.optional(Schema.Boolean),
  block_vpc_connections: Schema.optional(Schema.Boolean),
  audit_log_level: Schema.optional(AuditLogLevel),
  hipaa: Schema.optional(Schema.Boolean),
  preload_libraries: Schema.optional(PreloadLibraries)
}) {}

/** An entry of an IP allow list: an address, a range `a-b` or a CIDR block, IPv4 or IPv6. */
const IpEntry = Schema.String.pipe(Schema.filter(isIpEntry)).annotations(
  withMessage("must be an IP address, a range of two (a-b) or a CIDR block (a/n), IPv4 or IPv6")
)

/** A quota: a non-negative integer (int64). */
const Quota = Schema.optional(
  Schema.Int.pipe(Schema.nonNegative()).annotations(withMessage("must be a non-negative integer"))
)

/** A time of day, `HH:MM` (UTC). */
const TimeOfDay = Schema.String.pipe(Schema.pattern(/^([01]\d|2[0-3]):[0-5]\d$/)).annotations(
  withMessage("must be a time of day HH:MM (UTC)")
)

/**
 * A project's settings as a request to create or update it sends them (§22.2), each field
 * optional: `allowed_ips` (`ips`: each an IPv4 or IPv6 address, a range `a-b` of two of the same
 * family, or a CIDR block `a/n`), `block_public_connections`, `block_vpc_connections`, `quota`
 * (non-negative integers), `maintenance_window` (`weekdays` 1 to 7, at least one; `start_time`
 * and `end_time` `HH:MM`), `enable_logical_replication` (once `true`, it stays: the server refuses
 * `false`), `audit_log_level` (`base`, `extended`, `full`: open, the server refuses others),
 * `hipaa`, `preload_libraries`.
 *
 * @since 0.5.0
 * @category schemas
 */
export const ProjectSettingsRequest = Schema.Struct({
  quota: Schema.optional(
    Schema.Struct({
      active_time_seconds: Quota,
      compute_time_seconds: Quota,
      written_data_bytes: Quota,
      data_transfer_bytes: Quota,
      logical_size_bytes: Quota
    })
  ),
  allowed_ips: Schema.optional(
    Schema.Struct({
      ips: Schema.optional(Schema.Array(IpEntry)),
      protected_branches_only: Schema.optional(Schema.Boolean)
    })
  ),
  enable_logical_replication: Schema.optional(Schema.Boolean),
  maintenance_window: Schema.optional(
    Schema.Struct({
      weekdays: Schema.NonEmptyArray(
        Schema.Int.pipe(Schema.between(1, 7)).annotations(withMessage("must be a weekday from 1 (Monday) to 7"))
      ),
      start_time: TimeOfDay,
      end_time: TimeOfDay
    })
  ),
  block_public_connections: Schema.optional(Schema.Boolean),
  block_vpc_connections: Schema.optional(Schema.Boolean),
  audit_log_level: Schema.optional(Schema.String),
  hipaa: Schema.optional(Schema.Boolean),
  preload_libraries: Schema.optional(
    Schema.Struct({
      use_defaults: Schema.optional(Schema.Boolean),
      enabled_libraries: Schema.optional(Schema.Array(Schema.String))
    })
  )
}).annotations({ identifier: "ProjectSettingsRequest" })
