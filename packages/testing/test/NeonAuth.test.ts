/**
 * Neon Auth on a preview branch through the client over the fake (docs/contract.md §26.4-§26.8):
 * auth enabled, sign-in by email and password and an email provider configured, a trusted
 * domain added, two users created, one's role changed and the other deleted, a webhook set,
 * everything read back, auth disabled; then what the fake refuses as the platform does (a user on
 * a branch without auth, a duplicate email, values out of the document's ranges, an unknown
 * plugin), what it answers before anything is changed (the document's defaults), the two legacy
 * routes, and a saved state that loads with what it keeps.
 */
import { BranchAuth } from "@dbplatform/client"
import { BranchId, Endpoint, Api } from "@dbplatform/core"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import * as Seed from "../src/Seed.js"
import { projectId, read, send } from "./helpers.js"

const main = BranchId.make("br-main-100001")
const preview = BranchId.make("br-preview-100002")

const seed = {
  projects: [{ id: projectId }],
  branches: [
    { project_id: projectId, id: main, name: "main", default: true },
    { project_id: projectId, id: preview, name: "preview", parent_id: main }
  ],
  endpoints: [{ branch_id: main, id: "ep-main-100001", type: "read_write" as const }],
  roles: [main, preview].map((branch_id) => ({ branch_id, name: "owner" })),
  databases: [main, preview].map((branch_id) => ({ branch_id, name: "neondb", owner_name: "owner" }))
}

const provideFake = Effect.provide(DbPlatformTest.layer({ seed }))

const branch = { project_id: projectId, branch_id: preview }

const server = {
  host: Redacted.make("smtp.example.com"),
  port: 587,
  username: Redacted.make("mailer"),
  password: Redacted.make("smtp-password-1"),
  sender_email: "auth@example.com",
  sender_name: "Example"
}
const smtp = { type: "standard" as const, ...server }

describe("Neon Auth on a preview branch", () => {
  it.effect("is enabled, configured, given users and a webhook, read back whole, and disabled", () =>
    Effect.gen(function* () {
      const auth = yield* BranchAuth.BranchAuth
      yield* auth.create({ ...branch, auth_provider: "better_auth" })

      const signIn = yield* auth.updateEmailAndPassword({
        ...branch,
        email_verification_method: "otp",
        require_email_verification: true
      })
      expect(signIn).toMatchObject({
        enabled: true,
        email_verification_method: "otp",
        require_email_verification: true
      })
      const provider = yield* auth.updateEmailProvider({ ...branch, ...smtp })
      expect(Schema.is(Api.StandardEmailServer)(provider) && Redacted.value(provider.password)).toBe("smtp-password-1")
      yield* auth.addDomain({ ...branch, domain: "https://preview.example.com", auth_provider: "better_auth" })

      const ada = yield* auth.createUser({ ...branch, email: "ada@example.com", name: "Ada" })
      const bob = yield* auth.createUser({ ...branch, email: "bob@example.com" })
      expect(ada.id).not.toBe(bob.id)
      expect(yield* auth.updateUserRole({ ...branch, auth_user_id: ada.id, roles: ["admin"] })).toEqual({ id: ada.id })
      yield* auth.deleteUser({ ...branch, auth_user_id: bob.id })
      expect((yield* Effect.flip(auth.deleteUser({ ...branch, auth_user_id: bob.id })))._tag).toBe("NotFound")

      const webhook = {
        enabled: true,
        webhook_url: "https://hooks.example.com/auth",
        enabled_events: ["user.created", "send.otp"] as const
      }
      expect(yield* auth.updateWebhooks({ ...branch, ...webhook })).toEqual({ ...webhook, timeout_seconds: 5 })

      // Read back.
      expect(yield* auth.getEmailAndPassword(branch)).toEqual(signIn)
      const read = yield* auth.getEmailProvider(branch)
      expect(Schema.is(Api.StandardEmailServer)(read) && Redacted.value(read.host)).toBe("smtp.example.com")
      expect(yield* auth.listDomainsPage(branch)).toEqual({
        domains: [{ domain: "https://preview.example.com", auth_provider: "better_auth" }]
      })
      expect(yield* auth.getWebhooks(branch)).toEqual({ ...webhook, timeout_seconds: 5 })
      const plugins = yield* auth.getPlugins(branch)
      expect(plugins.email_and_password).toEqual(signIn)
      expect(plugins.email_provider?.type).toBe("standard")
      expect(plugins.allow_localhost).toBe(true)
      expect(plugins.organization).toMatchObject({ enabled: true, organization_limit: 10 })
      // The user changed and deleted: a second change of the deleted one is a 404, of Ada not.
      expect((yield* Effect.flip(auth.updateUserRole({ ...branch, auth_user_id: bob.id, roles: ["x"] })))._tag).toBe(
        "NotFound"
      )
      yield* auth.updateUserRole({ ...branch, auth_user_id: ada.id, roles: ["admin", "billing"] })

      yield* auth.disable(branch)
      expect((yield* Effect.flip(auth.getEmailAndPassword(branch)))._tag).toBe("NotFound")
      expect((yield* Effect.flip(auth.createUser({ ...branch, email: "eve@example.com" })))._tag).toBe("NotFound")
    }).pipe(provideFake)
  )

  it.effect("answers the document's defaults before anything is changed, and changes only what a PATCH gives", () =>
    Effect.gen(function* () {
      const auth = yield* BranchAuth.BranchAuth
      yield* auth.create({ ...branch, auth_provider: "better_auth" })
      const plugins = yield* auth.getPlugins(branch)
      expect(plugins.organization).toEqual({
        enabled: true,
        organization_limit: 10,
        membership_limit: 100,
        creator_role: "owner",
        send_invitation_email: false
      })
      expect(plugins.magic_link).toEqual({ enabled: false, expires_in: 5, disable_sign_up: false })
      expect(plugins.phone_number).toEqual({ enabled: false, otp_expires_in: 300 })
      expect(plugins.email_provider).toEqual({ type: "shared" })
      expect(plugins.oauth_providers).toEqual([])
      expect(yield* auth.getWebhooks(branch)).toEqual({ enabled: false, timeout_seconds: 5 })
      expect(yield* auth.getAllowLocalhost(branch)).toEqual({ allow_localhost: true })

      expect(yield* auth.updateOrganizationPlugin({ ...branch, membership_limit: 5 })).toMatchObject({
        enabled: true,
        organization_limit: 10,
        membership_limit: 5
      })
      expect(yield* auth.updateMagicLinkPlugin({ ...branch, enabled: true, expires_in: 1440 })).toEqual({
        enabled: true,
        expires_in: 1440,
        disable_sign_up: false
      })
      expect(yield* auth.updatePhoneNumberPlugin({ ...branch, enabled: true })).toEqual({
        enabled: true,
        otp_expires_in: 300
      })
      expect(yield* auth.getPhoneNumberPlugin(branch)).toEqual({ enabled: true, otp_expires_in: 300 })
      expect(yield* auth.updateAllowLocalhost({ ...branch, allow_localhost: false })).toEqual({
        allow_localhost: false
      })
      expect(yield* auth.updateConfig({ ...branch, name: "Acme" })).toEqual({ name: "Acme" })
      expect((yield* auth.get(branch)).name).toBe("Acme")
      expect(yield* auth.updateEmailProvider({ ...branch, type: "shared", sender_name: "Acme" })).toEqual({
        type: "shared",
        sender_name: "Acme"
      })
      const sent = yield* auth.sendTestEmail({ ...branch, ...server, recipient_email: "ada@example.com" })
      expect(sent).toEqual({ success: true })
      const failed = yield* auth.sendTestEmail({
        ...branch,
        ...server,
        host: Redacted.make("smtp.example.invalid"),
        recipient_email: "ada@example.com"
      })
      expect(failed.success).toBe(false)
    }).pipe(provideFake)
  )

  it.effect("refuses what the platform refuses", () =>
    Effect.gen(function* () {
      const auth = yield* BranchAuth.BranchAuth
      const tag = <A, E extends { readonly _tag: string }, R>(effect: Effect.Effect<A, E, R>) =>
        Effect.map(Effect.flip(effect), (error) => error._tag)
      // A user on a branch without auth.
      expect(yield* tag(auth.createUser({ ...branch, email: "ada@example.com" }))).toBe("NotFound")
      expect(yield* tag(auth.getPlugins(branch))).toBe("NotFound")
      yield* auth.create({ ...branch, auth_provider: "better_auth" })
      yield* auth.createUser({ ...branch, email: "ada@example.com" })
      // A duplicate email, whatever its case.
      expect(yield* tag(auth.createUser({ ...branch, email: "Ada@Example.com" }))).toBe("Conflict")
      // Out of the document's ranges: refused before anything is sent.
      expect(yield* tag(auth.createUser({ ...branch, email: "not an email" }))).toBe("InvalidRequest")
      expect(yield* tag(auth.updateMagicLinkPlugin({ ...branch, expires_in: 4 }))).toBe("InvalidRequest")
      expect(yield* tag(auth.updatePhoneNumberPlugin({ ...branch, otp_expires_in: 601 }))).toBe("InvalidRequest")
      expect(yield* tag(auth.updateOrganizationPlugin({ ...branch, organization_limit: 0 }))).toBe("InvalidRequest")
      expect(yield* tag(auth.updateWebhooks({ ...branch, enabled: false, timeout_seconds: 11 }))).toBe("InvalidRequest")
      expect(yield* tag(auth.updateUserRole({ ...branch, auth_user_id: "u", roles: [] as never }))).toBe(
        "InvalidRequest"
      )
      // An enabled webhook without its URL, or with one that is not absolute: the fake's 400.
      expect(yield* tag(auth.updateWebhooks({ ...branch, enabled: true }))).toBe("BadRequest")
      expect(yield* tag(auth.updateWebhooks({ ...branch, enabled: true, webhook_url: "hooks" }))).toBe("BadRequest")
      // A variant missing a field, or an unknown plugin (a route the platform does not have).
      const { password: _, ...noPassword } = smtp
      expect(yield* tag(auth.updateEmailProvider({ ...branch, ...noPassword } as never))).toBe("InvalidRequest")
      const fake = yield* FakePlatform.FakePlatform
      const unknown = yield* read(
        yield* send(
          fake,
          HttpClientRequest.patch(`/projects/${projectId}/branches/${preview}/auth/plugins/passkey`).pipe(
            HttpClientRequest.bodyUnsafeJson({ enabled: true })
          ),
          { key: fake.bootstrapKey }
        )
      )
      expect(unknown.status).toBe(404)
      // Nothing of it changed a thing.
      expect((yield* auth.getPlugins(branch)).magic_link).toEqual({
        enabled: false,
        expires_in: 5,
        disable_sign_up: false
      })
    }).pipe(provideFake)
  )

  it.effect("the legacy routes act on the auth of the project's default branch", () =>
    Effect.gen(function* () {
      const auth = yield* BranchAuth.BranchAuth
      const legacy = { project_id: projectId, auth_provider: "better_auth" as const }
      expect((yield* Effect.flip(auth.createAuthProviderSdkKeys(legacy)))._tag).toBe("NotFound")
      yield* auth.create({ project_id: projectId, branch_id: main, auth_provider: "better_auth" })
      const keys = yield* auth.createAuthProviderSdkKeys(legacy)
      expect(Redacted.value(keys.secret_server_key)).toMatch(/^ssk_[0-9a-f]{32}$/)
      expect(String(keys.secret_server_key)).not.toContain("ssk_")
      expect((yield* Effect.flip(auth.createAuthProviderSdkKeys({ ...legacy, auth_provider: "stack" })))._tag).toBe(
        "NotFound"
      )
      const transfer = yield* auth.transferAuthProviderProject(legacy)
      expect(transfer.url).toMatch(/^https:\/\//)
      expect((yield* auth.get({ project_id: projectId, branch_id: main })).transfer_status).toBe("initiated")
      expect(
        (yield* Effect.flip(auth.transferAuthProviderProject({ ...legacy, project_id: "no-such-project" })))._tag
      ).toBe("NotFound")
    }).pipe(provideFake)
  )

  it.effect("keeps what it was told in a snapshot, which loads whole", () =>
    Effect.gen(function* () {
      const auth = yield* BranchAuth.BranchAuth
      const fake = yield* FakePlatform.FakePlatform
      yield* auth.create({ ...branch, auth_provider: "better_auth" })
      const user = yield* auth.createUser({ ...branch, email: "ada@example.com" })
      yield* auth.updateEmailProvider({ ...branch, ...smtp })
      yield* auth.updateMagicLinkPlugin({ ...branch, enabled: true })
      const saved = yield* fake.snapshot
      yield* auth.disable(branch)
      yield* fake.restore(saved)
      expect((yield* auth.getPlugins(branch)).magic_link?.enabled).toBe(true)
      expect((yield* Effect.flip(auth.createUser({ ...branch, email: "ada@example.com" })))._tag).toBe("Conflict")
      yield* auth.deleteUser({ ...branch, auth_user_id: user.id })
    }).pipe(provideFake)
  )

  it.effect("a seed file describes a branch's auth: users, domains and settings, the rest the defaults", () =>
    Effect.gen(function* () {
      const file = yield* Seed.fromJson(
        JSON.stringify({
          ...seed,
          branch_auths: [
            {
              branch_id: preview,
              domains: ["https://preview.example.com"],
              users: [{ email: "ada@example.com", roles: ["admin"] }],
              magic_link: { enabled: true, expires_in: 30, disable_sign_up: false },
              email_provider: { type: "shared", sender_name: "Acme" }
            }
          ]
        })
      )
      return yield* Effect.gen(function* () {
        const auth = yield* BranchAuth.BranchAuth
        expect((yield* auth.get(branch)).db_name).toBe("neondb")
        expect((yield* auth.listDomainsPage(branch)).domains.map(({ domain }) => domain)).toEqual([
          "https://preview.example.com"
        ])
        const plugins = yield* auth.getPlugins(branch)
        expect(plugins.magic_link).toEqual({ enabled: true, expires_in: 30, disable_sign_up: false })
        expect(plugins.email_provider).toEqual({ type: "shared", sender_name: "Acme" })
        expect(plugins.organization?.membership_limit).toBe(100)
        expect((yield* Effect.flip(auth.createUser({ ...branch, email: "ada@example.com" })))._tag).toBe("Conflict")
        const unknown = yield* Effect.flip(FakePlatform.make({ ...seed, branch_auths: [{ branch_id: "br-none-1" }] }))
        expect(unknown.problems.join()).toContain("br-none-1")
      }).pipe(Effect.provide(DbPlatformTest.layer({ seed: file })))
    })
  )

  it("takes any variant of the email provider in one flat input, `type` telling them apart", () => {
    const encoded = Endpoint.encode(Api.BranchAuth.updateEmailProvider, { ...branch, type: "shared" })
    expect(Either.getOrThrow(encoded).body).toEqual({ type: "shared" })
  })
})
