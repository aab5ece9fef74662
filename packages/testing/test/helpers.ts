import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { Operations } from "@dbplatform/client"
import { OperationId, ProjectId } from "@dbplatform/core"
import { Sha256 } from "@aws-crypto/sha256-js"
import { expect } from "@effect/vitest"
import { SignatureV4 } from "@smithy/signature-v4"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/TestClock"
import * as Redacted from "effect/Redacted"
import * as FakeHttpClient from "../src/FakeHttpClient.js"
import type * as FakePlatform from "../src/FakePlatform.js"

export const projectId = ProjectId.make("spring-example-302709")

/** A distinct, valid UUID per `n`. */
export const operationId = (n: number) =>
  OperationId.make(`3f0c6b8e-1d2a-4c5b-9e7f-${n.toString(16).padStart(12, "0")}`)

/** The requests the fake recorded for `GET` of one operation. */
export const getsOf = (fake: FakePlatform.Service, project: string, operation: string) =>
  Effect.map(fake.requests, (requests) =>
    requests.filter(
      (request) => request.method === "GET" && request.path === `/api/v2/projects/${project}/operations/${operation}`
    )
  )

/** An in-memory `HttpClient` over the fake that records the URL of each request as sent. */
export const capturingClient = (fake: FakePlatform.Service, urls: Array<string>): HttpClient.HttpClient => {
  const inner = FakeHttpClient.make(fake.httpApp)
  return HttpClient.make((request, url) => {
    urls.push(url.href)
    return inner.execute(request)
  })
}

/** Sends `request` (relative to `http://x/api/v2`) straight to the fake's HTTP app. */
export const send = (
  fake: FakePlatform.Service,
  request: HttpClientRequest.HttpClientRequest,
  options: { readonly key?: string | Redacted.Redacted<string> | undefined; readonly requestId?: string } = {}
) => {
  const withKey = options.key === undefined ? request : HttpClientRequest.bearerToken(request, options.key)
  const withId =
    options.requestId === undefined ? withKey : HttpClientRequest.setHeader(withKey, "x-request-id", options.requestId)
  return FakeHttpClient.make(fake.httpApp).execute(HttpClientRequest.prependUrl(withId, "http://x/api/v2"))
}

/** The status and JSON body of a response. */
export const read = (response: HttpClientResponse.HttpClientResponse) =>
  Effect.map(response.json, (body) => ({ status: response.status, body: body as any }))

/** Whether `body` is a `GeneralError` with a non-empty message and a `request_id` (docs/contract.md §10.1). */
export const isGeneralError = (body: unknown): boolean =>
  typeof body === "object" &&
  body !== null &&
  typeof (body as any).code === "string" &&
  typeof (body as any).message === "string" &&
  (body as any).message.length > 0 &&
  typeof (body as any).request_id === "string"

export const keyValue = (key: Redacted.Redacted<string>) => Redacted.value(key)

/**
 * Waits for the operations an answer carries (`{ operations }`, the `Option` of a delete, or
 * operations themselves) through the client's `Operations.awaitAll`, moving the `TestClock` a
 * poll (5 s) at a time, 20 s in all; expects none failed, answers those that succeeded.
 */
export const awaitAll = (answer: Operations.Awaitable) =>
  Effect.gen(function* () {
    const waiting = yield* Effect.fork(Effect.flatMap(Operations.Operations, (service) => service.awaitAll(answer)))
    for (let poll = 0; poll < 4; poll++) yield* TestClock.adjust("5 seconds")
    const { failed, succeeded } = yield* Fiber.join(waiting)
    expect(failed).toEqual([])
    return succeeded
  })

/** A role to add to a fake: its branch, name and password. */
export interface RoleToAdd {
  readonly branch_id: string
  readonly name: string
  readonly password: string
}

/** A database to add to a fake: its branch, id, name and owner (a role of the branch). */
export interface DatabaseToAdd {
  readonly branch_id: string
  readonly id: number
  readonly name: string
  readonly owner_name: string
}

/**
 * Adds roles and databases to the branches of a running fake (through its snapshot), created
 * with their branch.
 */
export const addRolesAndDatabases = (
  fake: FakePlatform.Service,
  roles: ReadonlyArray<RoleToAdd>,
  databases: ReadonlyArray<DatabaseToAdd>
) =>
  Effect.gen(function* () {
    const snapshot = yield* fake.snapshot
    const branchOf = (id: string) => {
      const branch = snapshot.branches.find((branch) => branch.id === id)
      if (branch === undefined) throw new Error(`no branch ${id} in the fake`)
      return branch
    }
    const times = (id: string) => ({
      project_id: branchOf(id).project_id,
      created_at: branchOf(id).created_at,
      updated_at: branchOf(id).created_at
    })
    yield* Effect.orDie(
      fake.restore({
        ...snapshot,
        roles: [
          ...snapshot.roles,
          ...roles.map((role) => ({
            ...role,
            ...times(role.branch_id),
            id: `${role.branch_id}/${role.name}`,
            protected: false
          }))
        ],
        databases: [
          ...snapshot.databases,
          ...databases.map((database) => ({ ...database, ...times(database.branch_id) }))
        ]
      })
    )
  })

/** What an S3 answer says: its status, its error `Code` (if any), the keys and common prefixes it lists. */
export interface S3Answer {
  readonly status: number
  readonly code: string | undefined
  readonly keys: ReadonlyArray<string>
  readonly prefixes: ReadonlyArray<string>
  readonly next: string | undefined
  readonly body: string
}

/** The text of every `<name>` element of `xml`, unescaped. */
export const elements = (xml: string, name: string): Array<string> =>
  Array.from(xml.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, "g")), (match) =>
    (match[1] ?? "")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&")
  )

/**
 * A `GET` of `path` under the branch's `s3_endpoint` with `query`, signed with AWS Signature V4
 * as an S3 client signs it (service `s3`, path not encoded again, `x-amz-content-sha256`), by
 * `@smithy/signature-v4`, the signer of AWS's SDKs, with `keys`.
 */
export const s3Get = (
  storage: { readonly s3_endpoint: string; readonly region: string },
  keys: { readonly accessKeyId: string; readonly secretAccessKey: string },
  path: string,
  query: Record<string, string> = {}
) =>
  Effect.gen(function* () {
    const url = new URL(`${storage.s3_endpoint}${path}`)
    const signer = new SignatureV4({
      credentials: keys,
      region: storage.region,
      service: "s3",
      sha256: Sha256,
      uriEscapePath: false
    })
    const now = yield* Clock.currentTimeMillis
    const signed = yield* Effect.promise(() =>
      signer.sign(
        {
          method: "GET",
          protocol: url.protocol,
          hostname: url.hostname,
          path: url.pathname,
          query,
          headers: { host: url.host }
        },
        { signingDate: new Date(now) }
      )
    )
    // The host is the URL's: a web request cannot set it.
    const { host: _, ...headers } = signed.headers
    const search = new URLSearchParams(query).toString()
    const response = yield* HttpClient.execute(
      HttpClientRequest.get(`${url.origin}${url.pathname}${search === "" ? "" : `?${search}`}`).pipe(
        HttpClientRequest.setHeaders(headers)
      )
    )
    const body = yield* response.text
    return {
      status: response.status,
      code: elements(body, "Code")[0],
      keys: elements(body, "Key"),
      prefixes: elements(body, "Prefix").slice(1),
      next: elements(body, "NextContinuationToken")[0],
      body
    } satisfies S3Answer
  })
