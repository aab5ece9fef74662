/**
 * How to connect to a branch's database: the connection URI and its parts
 * (`docs/contract.md` §11.3, §13). The URI and the password are secrets: `Redacted` from the wire on.
 *
 * @since 0.3.0
 */
import * as Schema from "effect/Schema"

/**
 * The parts of a connection URI (§11.3): `database`, `role`, `host` (direct), `pooler_host`
 * (through the connection pooler) and `password`, which decodes to a `Redacted<string>` (never
 * shown by a log, `String()` or `JSON.stringify`) and encodes back to the string.
 *
 * @since 0.3.0
 * @category schemas
 */
export class ConnectionParameters extends Schema.Class<ConnectionParameters>("ConnectionParameters")({
  database: Schema.String,
  role: Schema.String,
  host: Schema.String,
  pooler_host: Schema.String,
  password: Schema.Redacted(Schema.String)
}) {}

/**
 * A connection URI and its parts (§11.3), as a branch creation answers with them.
 * `connection_uri` (`postgresql://role:password@host/database?...`) holds the password: it
 * decodes to a `Redacted<string>` too; `Redacted.value` reads it where a driver needs it.
 *
 * @since 0.3.0
 * @category schemas
 */
export class ConnectionDetails extends Schema.Class<ConnectionDetails>("ConnectionDetails")({
  connection_uri: Schema.Redacted(Schema.String),
  connection_parameters: ConnectionParameters
}) {}

/**
 * Answer of `GET /projects/{project_id}/connection_uri` (`docs/contract.md` §13.1): `{ uri }`,
 * a connection URI (`postgresql://role:password@host/database?sslmode=require`) holding the
 * role's password, decoded to a `Redacted<string>` (never shown by a log, `String()` or
 * `JSON.stringify`; `Redacted.value` reads it where a driver needs it) and encoded back to the
 * string.
 *
 * @since 0.3.0
 * @category schemas
 */
export class ConnectionUri extends Schema.Class<ConnectionUri>("ConnectionUri")({
  uri: Schema.Redacted(Schema.String)
}) {}
