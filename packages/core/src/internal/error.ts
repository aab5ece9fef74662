import type * as Cause from "effect/Cause"
import * as Schema from "effect/Schema"

/** The type id every error of the SDK carries; public as `TypeId` (`ApiError.ts`). */
export const TypeId: unique symbol = Symbol.for("@dbplatform/core/DbPlatformError")

/** The type of {@link TypeId}. */
export type TypeId = typeof TypeId

/**
 * `Schema.TaggedErrorClass`, its instances marked with {@link TypeId}: the class an error of
 * the SDK extends.
 */
export interface TaggedErrorClass<Self, Tag extends string, Fields extends Schema.Struct.Fields>
  extends Schema.Class<
    Self,
    Fields,
    Schema.Struct.Encoded<Fields>,
    Schema.Struct.Context<Fields>,
    Schema.Struct.Constructor<Omit<Fields, "_tag">>,
    { readonly [TypeId]: TypeId },
    Cause.YieldableError
  > {
  readonly _tag: Tag
}

/**
 * `Schema.TaggedError` marked as an error of the SDK: its instances carry {@link TypeId}, what
 * `isDbPlatformError` tests. Used as Effect's own is: `class E extends TaggedError<E>()("E", fields) {}`.
 */
export const TaggedError =
  <Self>() =>
  <Tag extends string, Fields extends Schema.Struct.Fields>(
    tag: Tag,
    fields: Fields
  ): TaggedErrorClass<Self, Tag, { readonly _tag: Schema.tag<Tag> } & Fields> => {
    // TypeScript cannot extend a class whose fields are a type parameter: the class is typed by
    // this function's signature instead.
    const Base = Schema.TaggedError<Self>()(tag, fields) as unknown as new (
      props: object,
      options?: Schema.MakeOptions
    ) => Cause.YieldableError
    class Marked extends Base {
      readonly [TypeId]: TypeId = TypeId
    }
    return Marked as unknown as TaggedErrorClass<Self, Tag, { readonly _tag: Schema.tag<Tag> } & Fields>
  }
