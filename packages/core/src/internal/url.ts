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
export const AbsoluteUrl = Schema.String.pipe(Schema.filter(isAbsoluteUrl)).annotations(
  withMessage("must be an absolute URL, e.g. https://app.example.com")
)
