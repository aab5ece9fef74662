/**
 * The fake's JWKS routes (docs/contract.md §27): each decodes with its entry of core's `Api.Jwks`
 * and runs a mutation or a read of `steps.ts`.
 */
import { Api } from "@dbplatform/core"
import * as Either from "effect/Either"
import { addJwks, deleteJwks, jwksOfProject, type StoredJwks } from "./steps.js"
import { type Handlers } from "../../engine/route.js"
import type { FakeState } from "../../engine/state.js"
import { at, operationAt, unchecked } from "../../engine/wire.js"
import { change, read } from "../../engine/change.js"

/** A JWKS as a real server sends it. */
const jwksAt = (jwks: StoredJwks) =>
  new Api.ProjectJwks(
    {
      id: jwks.id,
      project_id: jwks.project_id,
      ...(jwks.branch_id === undefined ? {} : { branch_id: jwks.branch_id }),
      jwks_url: jwks.jwks_url,
      provider_name: jwks.provider_name,
      created_at: at(jwks.created_at),
      updated_at: at(jwks.updated_at),
      ...(jwks.jwt_audience === undefined ? {} : { jwt_audience: jwks.jwt_audience }),
      role_names: jwks.role_names
    },
    unchecked
  )

/** How the fake answers each entry of core's `Api.Jwks`, over `fake`. */
export const jwksHandlers = (fake: FakeState): Handlers<typeof Api.Jwks> => ({
  list: ({ params }) =>
    read(fake, (state) =>
      Either.map(
        jwksOfProject(state, params.project_id),
        (jwks) => new Api.JwksList({ jwks: jwks.map(jwksAt) }, unchecked)
      )
    ),
  add: ({ body, params }) =>
    change(
      fake,
      (dice) => addJwks(params.project_id, body, dice),
      ({ jwks, operations }, now) =>
        new Api.JwksOperations(
          { jwks: jwksAt(jwks), operations: operations.map((operation) => operationAt(operation, now)) },
          unchecked
        )
    ),
  delete: ({ params }) => change(fake, () => deleteJwks(params.project_id, params.jwks_id), jwksAt)
})
