import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { Api, DecodeIssue, Endpoint, ProjectId, ProjectSettingsRequest } from "../src/index.js"

const decode = Schema.decodeUnknownEither(ProjectSettingsRequest)
const problem = (value: unknown) =>
  Either.match(decode(value), { onLeft: (error) => DecodeIssue.format(error.issue), onRight: () => undefined })

describe("project settings in a request (docs/contract.md §22.2)", () => {
  it.each([
    "192.0.2.1",
    "0.0.0.0/0",
    "192.0.2.0/24",
    "192.0.2.1-192.0.2.20",
    "2001:db8::1",
    "::1",
    "::",
    "2001:db8::/32",
    "2001:db8::1-2001:db8::ff",
    "::ffff:192.0.2.1",
    "fe80:0:0:0:0:0:0:1"
  ])("takes the allow-list entry %s", (entry) => {
    expect(problem({ allowed_ips: { ips: [entry] } })).toBeUndefined()
  })

  it.each([
    "192.0.2",
    "192.0.2.256",
    "192.0.2.0/33",
    "2001:db8::/129",
    "192.0.2.20-192.0.2.1",
    "192.0.2.1-2001:db8::1",
    "2001:db8:::1",
    "1:2:3:4:5:6:7:8:9",
    "1::2::3",
    "example.com",
    "",
    "192.0.2.1/24/8"
  ])("refuses the allow-list entry %j, naming what an entry is", (entry) => {
    expect(problem({ allowed_ips: { ips: [entry] } })).toContain(
      "must be an IP address, a range of two (a-b) or a CIDR block (a/n), IPv4 or IPv6"
    )
  })

  it("checks the maintenance window, the quotas; keeps the audit log level open", () => {
    expect(problem({ maintenance_window: { weekdays: [1, 7], start_time: "01:00", end_time: "03:30" } })).toBe(
      undefined
    )
    expect(problem({ maintenance_window: { weekdays: [8], start_time: "01:00", end_time: "02:00" } })).toContain(
      "weekday"
    )
    expect(problem({ maintenance_window: { weekdays: [], start_time: "01:00", end_time: "02:00" } })).toBeDefined()
    expect(problem({ maintenance_window: { weekdays: [1], start_time: "24:00", end_time: "02:00" } })).toContain(
      "HH:MM"
    )
    expect(problem({ quota: { compute_time_seconds: -1 } })).toContain("non-negative")
    expect(problem({ audit_log_level: "verbose" })).toBeUndefined()
  })

  it("a create and an update send settings, and the client refuses a bad entry before sending", () => {
    const settings = {
      allowed_ips: { ips: ["192.0.2.0/24"], protected_branches_only: true },
      block_public_connections: true
    }
    expect(Either.isRight(Endpoint.encode(Api.Projects.create, { project: { settings } }))).toBe(true)
    expect(
      Either.isRight(
        Endpoint.encode(Api.Projects.update, {
          project_id: ProjectId.make("spring-example-302709"),
          project: { settings }
        })
      )
    ).toBe(true)
    const refused = Endpoint.encode(Api.Projects.create, { project: { settings: { allowed_ips: { ips: ["nope"] } } } })
    expect(Either.isLeft(refused)).toBe(true)
  })
})
