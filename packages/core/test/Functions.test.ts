/**
 * The Functions group's deployment body (docs/contract.md §29.4): `multipart/form-data`, its
 * environment one text part holding a JSON object, values `Redacted` on the SDK's side.
 */
import { Api, BranchId, Endpoint, ProjectId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"

const input = { project_id: ProjectId.make("p-1"), branch_id: BranchId.make("br-a-1"), slug: "hello" }

describe("Functions.createDeployment", () => {
  it("is sent as multipart/form-data, the others as JSON", () => {
    expect(Api.Functions.createDeployment.bodyEncoding).toBe("multipart")
    expect(Api.Functions.update.bodyEncoding).toBe("json")
  })

  it("encodes the zip as bytes and the environment as one JSON text part", () => {
    const zip = new Uint8Array([0x50, 0x4b, 0x05, 0x06])
    const encoded = Endpoint.encode(Api.Functions.createDeployment, {
      ...input,
      zip,
      runtime: "nodejs24",
      environment: { KEY: Redacted.make("VALUE") }
    })
    expect(Either.isRight(encoded) && encoded.right.body).toEqual({
      zip,
      runtime: "nodejs24",
      environment: '{"KEY":"VALUE"}'
    })
    expect(Either.isRight(encoded) && encoded.right.path).toBe(
      "/projects/p-1/branches/br-a-1/functions/hello/deployments"
    )
  })

  it("refuses a slug out of its pattern and a runtime other than nodejs24, naming them", () => {
    const slug = Endpoint.encode(Api.Functions.get, { ...input, slug: "Hello-World" })
    expect(Either.isLeft(slug) && slug.left.message).toContain("must be 1 to 20 of a-z and 0-9")
    const runtime = Endpoint.encode(Api.Functions.createDeployment, { ...input, runtime: "python3" as "nodejs24" })
    expect(Either.isLeft(runtime) && runtime.left.message).toContain("must be nodejs24")
  })
})
