/**
 * What Node's HTTP parser refuses before the fake sees it (headers over 16 KiB, a malformed
 * request line or header) is answered like every other refusal: a 4xx with a `GeneralError`
 * body, and the emulator goes on serving.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { connect } from "node:net"
import * as Emulator from "../src/Emulator.js"

/** Sends `raw` bytes on a new connection; resolves with everything the server wrote before closing it. */
const exchange = (port: number, raw: string) =>
  Effect.promise(
    () =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, "127.0.0.1", () => socket.write(raw))
        let answer = ""
        socket.setEncoding("utf8").on("data", (chunk: string) => {
          answer += chunk
        })
        socket.on("end", () => resolve(answer))
        socket.on("error", reject)
      })
  )

const refused = (answer: string) => {
  const [head = "", body = ""] = answer.split("\r\n\r\n")
  return { statusLine: head.split("\r\n")[0], body: JSON.parse(body) as Record<string, unknown> }
}

describe("the emulator's HTTP server", () => {
  it.live("answers what Node's parser refuses with a 4xx GeneralError, and keeps serving", () =>
    Effect.gen(function* () {
      const emulator = yield* Emulator.Emulator
      const port = Number(new URL(emulator.baseUrl).port)
      const big = refused(
        yield* exchange(port, `GET /api/v2/projects HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`)
      )
      expect(big).toMatchObject({
        statusLine: "HTTP/1.1 431 Request Header Fields Too Large",
        body: { code: "", message: "request headers are larger than 16 KiB" }
      })
      for (const raw of [
        "NOT AN HTTP REQUEST\r\n\r\n",
        "GET /api/v2/projects HTTP/1.1\r\nHost: x\r\nBad\u0001Name: y\r\n\r\n"
      ]) {
        const answer = refused(yield* exchange(port, raw))
        expect(answer.statusLine).toBe("HTTP/1.1 400 Bad Request")
        expect(answer.body).toMatchObject({ code: "", message: "the request is not well-formed HTTP/1.1" })
        expect(typeof answer.body.request_id).toBe("string")
      }
      const response = yield* Effect.promise(() =>
        fetch(`${emulator.baseUrl}/projects`, {
          headers: { authorization: `Bearer ${Redacted.value(emulator.bootstrapKey)}` }
        })
      )
      expect(response.status).toBe(200)
    }).pipe(Effect.provide(Emulator.layer()), Effect.provide(NodeContext.layer))
  )
})
