/**
 * The published-reference cases of the Buckets, Storage and AiGateway groups (docs/contract.md
 * §28), joined to `publishedCases.ts`'s `cases`: each success status and each error status the
 * fake answers on its own, over the seed of `publishedCases.ts` (its project and `main` branch).
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Api } from "@dbplatform/core"
import * as Effect from "effect/Effect"
import type * as FakePlatform from "../src/FakePlatform.js"

/** What a case of `publishedCases.ts` is, restated: that module imports this one. */
interface Case {
  readonly endpoint: (typeof Api.endpoints)[number]
  readonly label: string
  readonly status: number
  readonly request: (fixture: {
    readonly fake: FakePlatform.Service
    readonly key: string
  }) => Effect.Effect<HttpClientRequest.HttpClientRequest>
}

const project = "spring-example-302709"
const main = "br-main-100001"
const branch = `/projects/${project}/branches/${main}`
const buckets = `${branch}/buckets`
const objects = `${buckets}/assets/objects`

const get = (path: string) => Effect.succeed(HttpClientRequest.get(path))
const del = (path: string) => Effect.succeed(HttpClientRequest.del(path))
const post = (path: string, body: unknown) =>
  HttpClientRequest.post(path).pipe(HttpClientRequest.bodyJson(body), Effect.orDie)

/** The fake with the bucket `assets` on `main`, holding `docs/a.txt` and `docs/b.txt`. */
const withObjects = (fake: FakePlatform.Service) =>
  Effect.gen(function* () {
    const snapshot = yield* fake.snapshot
    const at = 1_700_000_000_000
    const object = (key: string) => ({
      id: JSON.stringify([main, "assets", key]),
      project_id: project,
      branch_id: main,
      bucket: "assets",
      key,
      body: new TextEncoder().encode(`content of ${key}`),
      etag: '"0123456789abcdef0123456789abcdef"',
      content_type: "text/plain",
      created_at: at
    })
    yield* fake.restore({
      ...snapshot,
      buckets: [
        {
          id: JSON.stringify([main, "assets"]),
          project_id: project,
          branch_id: main,
          name: "assets",
          access_level: "private",
          created_at: at
        }
      ],
      bucket_objects: [object("docs/a.txt"), object("docs/b.txt")]
    })
  }).pipe(Effect.orDie)

/** `request` sent to the fake {@link withObjects} filled. */
const given =
  (request: Effect.Effect<HttpClientRequest.HttpClientRequest>) =>
  ({ fake }: { readonly fake: FakePlatform.Service }) =>
    Effect.zipRight(withObjects(fake), request)

const aKey = encodeURIComponent("docs/a.txt")

export const bucketCases: ReadonlyArray<Case> = [
  { endpoint: Api.Buckets.list, label: "a branch's", status: 200, request: given(get(buckets)) },
  {
    endpoint: Api.Buckets.list,
    label: "an unknown branch",
    status: 404,
    request: () => get(`/projects/${project}/branches/br-none-000000/buckets`)
  },
  {
    endpoint: Api.Buckets.list,
    label: "a bad branch id",
    status: 400,
    request: () => get(`/projects/${project}/branches/BR_NONE/buckets`)
  },
  { endpoint: Api.Buckets.create, label: "a bucket", status: 201, request: () => post(buckets, { name: "media" }) },
  { endpoint: Api.Buckets.create, label: "an empty name", status: 400, request: () => post(buckets, { name: "" }) },
  {
    endpoint: Api.Buckets.create,
    label: "an unknown branch",
    status: 404,
    request: () => post(`/projects/${project}/branches/br-none-000000/buckets`, { name: "media" })
  },
  {
    endpoint: Api.Buckets.create,
    label: "a name the branch has",
    status: 409,
    request: given(post(buckets, { name: "assets" }))
  },
  { endpoint: Api.Buckets.delete, label: "a bucket", status: 204, request: given(del(`${buckets}/assets`)) },
  { endpoint: Api.Buckets.delete, label: "an unknown bucket", status: 404, request: () => del(`${buckets}/none`) },
  {
    endpoint: Api.Buckets.delete,
    label: "a bad branch id",
    status: 400,
    request: () => del(`/projects/${project}/branches/BR_NONE/buckets/assets`)
  },
  {
    endpoint: Api.Buckets.listObjects,
    label: "a page with folders",
    status: 200,
    request: given(get(`${objects}?delimiter=/&limit=1`))
  },
  {
    endpoint: Api.Buckets.listObjects,
    label: "an unknown bucket",
    status: 404,
    request: () => get(`${buckets}/none/objects`)
  },
  { endpoint: Api.Buckets.listObjects, label: "a limit of 0", status: 400, request: () => get(`${objects}?limit=0`) },
  { endpoint: Api.Buckets.deleteObject, label: "an object", status: 204, request: given(del(`${objects}/${aKey}`)) },
  {
    endpoint: Api.Buckets.deleteObject,
    label: "an unknown object",
    status: 404,
    request: given(del(`${objects}/none`))
  },
  {
    endpoint: Api.Buckets.deleteObject,
    label: "a bad branch id",
    status: 400,
    request: () => del(`/projects/${project}/branches/BR_NONE/buckets/assets/objects/${aKey}`)
  },
  {
    endpoint: Api.Buckets.getObject,
    label: "an object's bytes",
    status: 200,
    request: given(get(`${objects}/${aKey}/download`))
  },
  {
    endpoint: Api.Buckets.getObject,
    label: "an unknown object",
    status: 404,
    request: given(get(`${objects}/none/download`))
  },
  {
    endpoint: Api.Buckets.getObject,
    label: "a bad branch id",
    status: 400,
    request: () => get(`/projects/${project}/branches/BR_NONE/buckets/assets/objects/${aKey}/download`)
  },
  {
    endpoint: Api.Buckets.deleteObjectsByPrefix,
    label: "a folder",
    status: 200,
    request: given(del(`${buckets}/assets/objects-by-prefix?prefix=docs/`))
  },
  {
    endpoint: Api.Buckets.deleteObjectsByPrefix,
    label: "a prefix without its /",
    status: 400,
    request: given(del(`${buckets}/assets/objects-by-prefix?prefix=docs`))
  },
  {
    endpoint: Api.Buckets.deleteObjectsByPrefix,
    label: "an unknown bucket",
    status: 404,
    request: () => del(`${buckets}/none/objects-by-prefix?prefix=docs/`)
  },
  {
    endpoint: Api.Buckets.presignObject,
    label: "an upload",
    status: 200,
    request: given(post(`${objects}/${aKey}/presign`, { operation: "upload", content_type: "text/plain" }))
  },
  {
    endpoint: Api.Buckets.presignObject,
    label: "an unknown operation",
    status: 400,
    request: given(post(`${objects}/${aKey}/presign`, { operation: "copy" }))
  },
  {
    endpoint: Api.Buckets.presignObject,
    label: "an unknown bucket",
    status: 404,
    request: () => post(`${buckets}/none/objects/${aKey}/presign`, { operation: "download" })
  },
  { endpoint: Api.Storage.get, label: "a branch's", status: 200, request: () => get(`${branch}/storage`) },
  {
    endpoint: Api.Storage.get,
    label: "an unknown branch (reason branch_not_found)",
    status: 404,
    request: () => get(`/projects/${project}/branches/br-none-000000/storage`)
  },
  {
    endpoint: Api.Storage.get,
    label: "a bad branch id",
    status: 400,
    request: () => get(`/projects/${project}/branches/BR_NONE/storage`)
  },
  { endpoint: Api.AiGateway.get, label: "a branch's", status: 200, request: () => get(`${branch}/ai_gateway`) },
  {
    endpoint: Api.AiGateway.get,
    label: "an unknown branch (reason branch_not_found)",
    status: 404,
    request: () => get(`/projects/${project}/branches/br-none-000000/ai_gateway`)
  },
  {
    endpoint: Api.AiGateway.get,
    label: "a bad branch id",
    status: 400,
    request: () => get(`/projects/${project}/branches/BR_NONE/ai_gateway`)
  }
]
