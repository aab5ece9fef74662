/** The type id every error of the SDK carries; public as `TypeId` (`ApiError.ts`). */
export const TypeId: unique symbol = Symbol.for("@dbplatform/core/DbPlatformError")

/** The type of {@link TypeId}. */
export type TypeId = typeof TypeId
