/**
 * `@dbplatform/core`: the control API v2 wire contract as `effect/Schema`, branded ids and
 * tagged errors. Depends on `effect` only.
 *
 * @since 0.1.0
 */
export * from "./ApiError.js"
export * from "./ApiKey.js"
export * from "./GeneralError.js"
export * from "./Ids.js"
export * from "./Operation.js"
export * from "./Pagination.js"
export * from "./Project.js"
export * from "./Timestamp.js"
