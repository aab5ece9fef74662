import { InvalidApiKey } from "@dbplatform/core"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"

/** Names of the characters a pasted key most often carries by mistake. */
const names: Record<number, string> = {
  0: "a NUL",
  9: "a tab",
  10: "a line feed",
  13: "a carriage return",
  32: "a space"
}

/**
 * Checks that the key can be sent as `Authorization: Bearer <key>`: 1 or more characters, each
 * visible ASCII (`!` to `~`). Fails with `InvalidApiKey` naming the first bad character by its
 * code point and position, never by the key's text.
 */
export const checkApiKey = (apiKey: Redacted.Redacted<string>): Effect.Effect<void, InvalidApiKey> =>
  Effect.suspend(() => {
    const value = Redacted.value(apiKey)
    if (value.length === 0) return Effect.fail(new InvalidApiKey({ message: "the API key is empty" }))
    for (let i = 0; i < value.length; i++) {
      const code = value.charCodeAt(i)
      if (code < 0x21 || code > 0x7e) {
        const name = names[code] ?? "a character"
        const point = `U+${code.toString(16).toUpperCase().padStart(4, "0")}`
        return Effect.fail(
          new InvalidApiKey({
            message: `the API key holds ${name} (${point}) at position ${i + 1} of ${value.length}, which an HTTP header cannot carry; keys are visible ASCII only (a trailing newline from a file is the usual cause)`
          })
        )
      }
    }
    return Effect.void
  })

/** What stands in for the key in text copied into an error. */
export const redactedMark = "<redacted>"

/**
 * Removes the key from text the client copies from a server or the transport into an error
 * (an error body that echoes the `Authorization` header, a transport message quoting it): the
 * key as sent and URL-encoded, and any `Bearer <token>`.
 */
export const scrubber = (apiKey: Redacted.Redacted<string>): ((text: string) => string) => {
  const value = Redacted.value(apiKey)
  const forms = [...new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)])].filter(
    (form) => form.length > 0
  )
  return (text) => {
    let scrubbed = text
    for (const form of forms) scrubbed = scrubbed.split(form).join(redactedMark)
    return scrubbed.replace(/\b(Bearer)\s+[^\s"',;]+/gi, `$1 ${redactedMark}`)
  }
}
