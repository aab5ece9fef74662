/**
 * The client's retries, which it logs at Debug (with a `status` annotation), printed as lines
 * of the tour: `  (429 from the server: retrying Projects.list after 1s)`.
 */
import * as HashMap from "effect/HashMap"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"

/** A terminal's escape code: back to the start of the line, and erase it. */
export const eraseLine = "\r\u001b[2K"

/**
 * A Layer replacing the default logger: each Debug message is a line on stdout, other levels
 * are dropped. The first `staged` 429s are the ones the demo injected itself, and say so. With
 * `live` (a terminal, where the wait keeps a line rewritten in place), each line first erases
 * that line, which the wait draws again below it within a second.
 */
export const retryLog = (staged: number, live = false) => {
  let left = staged
  return Logger.replace(
    Logger.defaultLogger,
    Logger.make(({ annotations, logLevel, message }) => {
      if (logLevel._tag !== "Debug") return
      const status = String(Option.getOrElse(HashMap.get(annotations, "status"), () => "no response"))
      const text = Array.isArray(message) ? message.join(" ") : String(message)
      const isStaged = status === "429" && left > 0
      if (isStaged) left -= 1
      const why = isStaged ? " (staged: the demo injected this 429 to show retrying)" : ""
      process.stdout.write(`${live ? eraseLine : ""}  (${status} from the server${why}: ${text})\n`)
    })
  )
}
