/**
 * The entries' `readBack` (`docs/design.md` §1.3): what a mutation waited for reads back is a GET
 * of one resource, by the name it says, whose answer's envelope shares a resource with the
 * mutation's answer.
 */
import { describe, expect, it } from "@effect/vitest"
import { Schema, SchemaAST } from "effect"
import { Api, type Endpoint } from "../src/index.js"

/** The field names of a struct or `Schema.Class` answer (its type side). */
const fields = (schema: Schema.Schema<any, any>): ReadonlyArray<string> =>
  SchemaAST.getPropertySignatures(Schema.typeSchema(schema).ast).map((signature) => String(signature.name))

const entries: ReadonlyArray<Endpoint.Endpoint> = Object.values(Api.groups).flatMap((group) =>
  Object.values(group as Readonly<Record<string, Endpoint.Endpoint>>)
)

describe("readBack", () => {
  it("names a GET of one resource, by its own name, whose envelope shares a resource with the entry's answer", () => {
    const problems: Array<string> = []
    const declared = entries.filter((entry) => entry.readBack !== undefined)
    for (const entry of declared) {
      const read = entry.readBack!.entry()
      if (!entries.includes(read)) problems.push(`${entry.name}: reads back an entry of no group`)
      if (read.method !== "GET" || read.list !== undefined || read.query !== undefined || read.body !== undefined) {
        problems.push(`${entry.name}: reads back ${read.name}, not a GET of one resource`)
      }
      if (!entry.startsOperations || entry.list !== undefined) problems.push(`${entry.name}: starts no operations`)
      // The client puts back the resources both envelopes hold (`{ branch }`); what only the read
      // holds (a branch's `annotation`) is not the mutation's to answer.
      const answered = fields(entry.success)
      if (!fields(read.success).some((key) => answered.includes(key))) {
        problems.push(`${entry.name}: its answer shares no resource with ${read.name}`)
      }
    }
    expect(problems).toEqual([])
    // Every mutation of a resource that has a GET (a delete, a JWKS and a snapshot have none).
    expect(declared.map((entry) => `${entry.name} -> ${entry.readBack!.entry().name}`)).toEqual([
      "Projects.create -> Projects.get",
      "Projects.update -> Projects.get",
      "Branches.create -> Branches.get",
      "Branches.update -> Branches.get",
      "Branches.restore -> Branches.get",
      "Branches.setAsDefault -> Branches.get",
      "Branches.createAnonymized -> Branches.get",
      "ComputeEndpoints.create -> ComputeEndpoints.get",
      "ComputeEndpoints.update -> ComputeEndpoints.get",
      "ComputeEndpoints.start -> ComputeEndpoints.get",
      "ComputeEndpoints.suspend -> ComputeEndpoints.get",
      "ComputeEndpoints.restart -> ComputeEndpoints.get",
      "Databases.create -> Databases.get",
      "Databases.update -> Databases.get",
      "Roles.create -> Roles.get",
      "Roles.resetPassword -> Roles.get",
      "Snapshots.restore -> Branches.get"
    ])
  })
})
