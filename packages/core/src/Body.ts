/**
 * A body read whole, up to a limit: the client's reading of a response body, and the fake's and
 * the control API's of a request body. A body is a `Stream` of bytes (`response.stream`,
 * `request.stream` of `@effect/platform`); it is read up to `maxBytes`, then decoded as UTF-8.
 * What is past the limit is never kept: it is either left unread or read and dropped.
 *
 * @since 0.3.0
 */
import * as Chunk from "effect/Chunk"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"

/**
 * The body is longer than `maxBytes` bytes.
 *
 * @since 0.3.0
 * @category errors
 */
export class TooLarge extends Data.TaggedError("BodyTooLarge")<{ readonly maxBytes: number }> {}

/**
 * The body is not well-formed UTF-8 (read with `malformed: "fail"`).
 *
 * @since 0.3.0
 * @category errors
 */
export class NotUtf8 extends Data.TaggedError("BodyNotUtf8") {}

/**
 * How a body is read: at most `maxBytes` bytes; what is done past them, `past`: `"stop"` (the
 * default) stops pulling at the first chunk past the limit, and the rest is never read (a client
 * then aborts the request); `"drain"` reads the rest to its end and drops it, so that a server's
 * answer (a 413) reaches a client still sending.
 *
 * @since 0.3.0
 * @category models
 */
export interface ReadOptions {
  readonly maxBytes: number
  readonly past?: "stop" | "drain" | undefined
}

/**
 * How a body's text is read: as {@link ReadOptions}, and what is done with bytes that are not
 * UTF-8, `malformed`: `"replace"` (the default) decodes each as U+FFFD, as `fetch`'s
 * `Response.text()` does; `"fail"` fails with {@link NotUtf8}.
 *
 * @since 0.3.0
 * @category models
 */
export interface TextOptions extends ReadOptions {
  readonly malformed?: "replace" | "fail" | undefined
}

/** The bytes of `chunks`, `size` in all, in one array. */
const concat = (chunks: Chunk.Chunk<Uint8Array>, size: number): Uint8Array => {
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.length
  }
  return bytes
}

/**
 * The bytes of `body`, at most `options.maxBytes`: a longer body fails with {@link TooLarge}
 * (after reading its rest with `past: "drain"`). A failure of `body` is passed on.
 *
 * @since 0.3.0
 * @category reading
 */
export const bytes = <E, R>(
  body: Stream.Stream<Uint8Array, E, R>,
  options: ReadOptions
): Effect.Effect<Uint8Array, E | TooLarge, R> => {
  const { maxBytes } = options
  const drain = options.past === "drain"
  // The body's failure comes out as a value (`Stream.either`) and is failed with after the run:
  // a stream run that fails logs it as a fiber's unhandled error, at Debug level.
  return body.pipe(
    Stream.either,
    Stream.runFoldWhile(
      { chunks: Chunk.empty<Uint8Array>(), size: 0, failure: Option.none<E>() },
      (read) => Option.isNone(read.failure) && (drain || read.size <= maxBytes),
      (read, item) => {
        if (Either.isLeft(item)) return { ...read, failure: Option.some(item.left) }
        const size = read.size + item.right.length
        // Past the limit nothing is kept.
        return {
          chunks: size <= maxBytes ? Chunk.append(read.chunks, item.right) : Chunk.empty(),
          size,
          failure: read.failure
        }
      }
    ),
    Effect.flatMap(({ chunks, failure, size }): Effect.Effect<Uint8Array, E | TooLarge> => {
      if (Option.isSome(failure)) return Effect.fail(failure.value)
      return size > maxBytes ? Effect.fail(new TooLarge({ maxBytes })) : Effect.succeed(concat(chunks, size))
    })
  )
}

/**
 * `bytes` decoded as UTF-8 (a byte order mark dropped): with `malformed: "fail"`, bytes that
 * are not UTF-8 are a {@link NotUtf8}; else each is U+FFFD.
 *
 * @since 0.3.0
 * @category reading
 */
export const decodeUtf8 = (
  bytes: Uint8Array,
  malformed: "replace" | "fail" = "replace"
): Either.Either<string, NotUtf8> =>
  Either.try({
    try: () => new TextDecoder("utf-8", { fatal: malformed === "fail" }).decode(bytes),
    catch: () => new NotUtf8()
  })

/**
 * The text of `body` (UTF-8), at most `options.maxBytes` bytes: {@link bytes}, then
 * {@link decodeUtf8}. Fails with {@link TooLarge}, with {@link NotUtf8} (only with
 * `malformed: "fail"`), or as `body` does.
 *
 * @example
 * ```ts
 * import { Body } from "@dbplatform/core"
 * import { Effect, Stream } from "effect"
 *
 * const body = Stream.make(new TextEncoder().encode("{\"id\":"), new TextEncoder().encode("1}"))
 * Effect.runPromise(Body.text(body, { maxBytes: 64 })).then(console.log) // {"id":1}
 * ```
 *
 * @since 0.3.0
 * @category reading
 */
export function text<E, R>(
  body: Stream.Stream<Uint8Array, E, R>,
  options: TextOptions & { readonly malformed: "fail" }
): Effect.Effect<string, E | TooLarge | NotUtf8, R>
export function text<E, R>(
  body: Stream.Stream<Uint8Array, E, R>,
  options: TextOptions & { readonly malformed?: "replace" | undefined }
): Effect.Effect<string, E | TooLarge, R>
export function text<E, R>(
  body: Stream.Stream<Uint8Array, E, R>,
  options: TextOptions
): Effect.Effect<string, E | TooLarge | NotUtf8, R> {
  return Effect.flatMap(bytes(body, options), (read) => decodeUtf8(read, options.malformed))
}
