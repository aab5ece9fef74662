import { Server } from "node:http"
import type { Duplex } from "node:stream"

/** What Node's HTTP parser refuses before the app sees a request, by its error code. */
const refusals: Record<string, { readonly status: number; readonly reason: string; readonly message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: "Request Header Fields Too Large",
    message: "request headers are larger than 16 KiB"
  },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: "Request Timeout", message: "the request did not arrive in time" }
}

/** How long a stop waits for the requests in flight to be answered before it closes their connections: 250 ms. */
export const stopGraceMillis = 250

/**
 * Node's HTTP server, whose `close` (the emulator stopping: Ctrl-C, SIGINT, SIGTERM) does not wait
 * for every request in flight: after {@link stopGraceMillis} it closes the connections still open,
 * which interrupts their requests (a migration being parsed, a slow fault), so that the emulator
 * stops within a second whatever it is doing. A request cut so was not answered: as after a crash,
 * its change may or may not have been made.
 */
class StoppingServer extends Server {
  override close(callback?: (error?: Error) => void): this {
    super.close(callback)
    setTimeout(() => this.closeAllConnections(), stopGraceMillis).unref()
    return this
  }
}

/**
 * Node's HTTP server (see {@link StoppingServer}), which answers a request its parser refuses (a
 * malformed request line or header, headers over 16 KiB, a request that does not arrive in time)
 * as every other refusal of the fake is answered: a 4xx with a `GeneralError` JSON body, instead of
 * Node's bare status line. The connection is then closed.
 */
export const httpServer = (): Server => {
  const server = new StoppingServer()
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || error.code === "ECONNRESET") {
      socket.destroy()
      return
    }
    const refusal = refusals[error.code ?? ""] ?? {
      status: 400,
      reason: "Bad Request",
      message: "the request is not well-formed HTTP/1.1"
    }
    const body = JSON.stringify({ code: "", message: refusal.message, request_id: crypto.randomUUID() })
    socket.end(
      `HTTP/1.1 ${refusal.status} ${refusal.reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
    )
  })
  return server
}
