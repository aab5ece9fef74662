/**
 * The fake's Data API routes (docs/contract.md §25): each decodes with its entry of core's
 * `Api.DataApi` and runs a mutation or a read of `steps.ts`.
 */
import { Api } from "@dbplatform/core"
import * as Either from "effect/Either"
import { createDataApi, dataApiDefaults, dataApiOf, deleteDataApi, updateDataApi } from "./steps.js"
import { usersSchema } from "../BranchAuth/steps.js"
import { type Handlers } from "../../engine/route.js"
import type { FakeState } from "../../engine/state.js"
import { unchecked } from "../../engine/wire.js"
import { change, read } from "../../engine/change.js"

/** How the fake answers each entry of core's `Api.DataApi`, over `fake`. */
export const dataApiHandlers = (fake: FakeState): Handlers<typeof Api.DataApi> => ({
  get: ({ params }) =>
    read(fake, (state) =>
      Either.map(
        dataApiOf(state, params.project_id, params.branch_id, params.database_name),
        ({ dataApi, url, withAuth }) =>
          new Api.DataApiConfiguration(
            {
              url,
              status: "ready",
              settings: new Api.DataApiSettings({ ...dataApiDefaults, ...dataApi.settings }, unchecked),
              available_schemas: withAuth ? ["public", usersSchema] : ["public"]
            },
            unchecked
          )
      )
    ),
  create: ({ body, params }) =>
    change(
      fake,
      () => createDataApi(params.project_id, params.branch_id, params.database_name, body),
      (url) => new Api.DataApiCreated({ url }, unchecked)
    ),
  update: ({ body, params }) =>
    change(
      fake,
      () => updateDataApi(params.project_id, params.branch_id, params.database_name, body.settings),
      () => ({})
    ),
  delete: ({ params }) =>
    change(
      fake,
      () => deleteDataApi(params.project_id, params.branch_id, params.database_name),
      () => ({})
    )
})
