import * as Schema from "effect/Schema"
import { withMessage } from "./input.js"

/** Whether `text` is an absolute URL with a scheme (`https://example.com`). */
const isAbsoluteUrl = (text: string): boolean => {
  try {
    return new URL(text).protocol.length > 1
  } catch {
    return false
  }
}

/**
 * An absolute URL, as the published reference's `uri` format asks (`https://app.example.com`):
 * a scheme, then the rest; refused when it does not parse (`docs/contract.md` §25, §26).
 */
export const AbsoluteUrl = Schema.String.pipe(
  Schema.filter(isAbsoluteUrl, {
    // Drawn as URLs, not as strings filtered: few random strings parse.
    arbitrary: () => (fc) => fc.webUrl()
  })
).annotations(withMessage("must be an absolute URL, e.g. https://app.example.com"))

/** An `https://` URL (the platform fetches what it points to, e.g. a key set). */
export const HttpsUrl = Schema.String.pipe(
  Schema.filter(
    (text) => {
      try {
        return new URL(text).protocol === "https:"
      } catch {
        return false
      }
    },
    { arbitrary: () => (fc) => fc.webUrl({ validSchemes: ["https"] }) }
  )
).annotations(withMessage("must be an https:// URL"))
