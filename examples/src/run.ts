/**
 * How the examples run: against a real server when `DBPLATFORM_BASE_URL` is set (with
 * `DBPLATFORM_API_KEY`, through `fetch`), else against the fake platform from
 * `@dbplatform/testing`, seeded with a realistic account whose running operations finish a few
 * seconds after the start. Prints the program's result, or its failure and exit code 1.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { DbPlatform } from "@dbplatform/client"
import { DbPlatformTest, Seed } from "@dbplatform/testing"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"

/** The services every example uses. */
export type Services = DbPlatform.DbPlatform

/** Against the real server the environment names, or the fake. */
export const against: "server" | "fake" = process.env.DBPLATFORM_BASE_URL ? "server" : "fake"

const layer: Layer.Layer<Services, unknown> =
  against === "server"
    ? DbPlatform.layerConfig().pipe(Layer.provide(FetchHttpClient.layer))
    : DbPlatformTest.layer({ seed: Seed.realistic({ pendingFor: ["2 seconds", "4 seconds"] }) })

/** Runs `program` with the services and prints what it returns. */
export const run = <A, E>(program: Effect.Effect<A, E, Services>): void => {
  Effect.runPromiseExit(program.pipe(Effect.provide(layer))).then((exit) => {
    if (Exit.isSuccess(exit)) {
      console.log(exit.value)
    } else {
      console.error(Cause.pretty(exit.cause))
      process.exitCode = 1
    }
  })
}
