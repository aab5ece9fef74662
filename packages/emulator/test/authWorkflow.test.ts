/**
 * Neon Auth on a preview branch against the shipped emulator (docs/contract.md §26.4-§26.8), its
 * platform routes driven only by plain `fetch`: auth enabled, sign-in by email and password and an
 * SMTP email provider configured, a trusted domain added, two users created, one's role changed
 * and the other deleted, a webhook set, everything read back (each answer validated against the
 * published schema of its operation, `publishedReference.ts`), auth disabled.
 */
import { describe, expect, it } from "vitest"
import { withWorkflow } from "./workflow.js"

const apiKey = "neon-auth-key"
const token = "neon-auth-control-token"
const project = "neon-auth"
const main = "br-main-100001"
const preview = "br-preview-100002"

describe("Neon Auth on a preview branch over the emulator, its platform routes with fetch alone", () => {
  it("enables it, configures it, adds and removes users, sets a webhook, reads it all back and disables it", async () => {
    const seed = {
      projects: [{ id: project, name: "neon auth", region_id: "aws-us-east-2" }],
      branches: [
        { project_id: project, id: main, name: "main", default: true },
        { project_id: project, id: preview, name: "preview", parent_id: main }
      ],
      roles: [main, preview].map((branch_id) => ({ branch_id, name: "owner" })),
      databases: [main, preview].map((branch_id) => ({ branch_id, name: "neondb", owner_name: "owner" }))
    }
    await withWorkflow({ apiKey, token, project, seed, params: { branch_id: preview } }, async ({ call }) => {
      const auth = "/projects/{project_id}/branches/{branch_id}/auth"
      await call("POST", `${auth}/users`, 404, { body: { email: "ada@example.com" } })
      await call("POST", auth, 201, { body: { auth_provider: "better_auth" } })

      const signIn = await call("PATCH", `${auth}/email_and_password`, 200, {
        body: { email_verification_method: "otp", require_email_verification: true }
      })
      expect(signIn).toMatchObject({
        enabled: true,
        email_verification_method: "otp",
        require_email_verification: true
      })
      const smtp = {
        type: "standard",
        host: "smtp.example.com",
        port: 587,
        username: "mailer",
        password: "smtp-password-2",
        sender_email: "auth@example.com",
        sender_name: "Example"
      }
      expect(await call("PATCH", `${auth}/email_provider`, 200, { body: smtp })).toEqual(smtp)
      await call("PATCH", `${auth}/email_provider`, 400, { body: { type: "standard", host: "smtp.example.com" } })
      await call("POST", `${auth}/domains`, 201, {
        body: { domain: "https://preview.example.com", auth_provider: "better_auth" }
      })

      const ada = await call("POST", `${auth}/users`, 201, { body: { email: "ada@example.com", name: "Ada" } })
      const bob = await call("POST", `${auth}/users`, 201, { body: { email: "bob@example.com" } })
      await call("POST", `${auth}/users`, 409, { body: { email: "bob@example.com" } })
      const user = `${auth}/users/{auth_user_id}`
      expect(
        await call("PUT", `${user}/role`, 200, { params: { auth_user_id: ada.id }, body: { roles: ["admin"] } })
      ).toEqual({ id: ada.id })
      await call("DELETE", user, 204, { params: { auth_user_id: bob.id } })
      await call("DELETE", user, 404, { params: { auth_user_id: bob.id } })

      const webhook = {
        enabled: true,
        webhook_url: "https://hooks.example.com/auth",
        enabled_events: ["user.created", "send.otp"],
        timeout_seconds: 3
      }
      expect(await call("PUT", `${auth}/webhooks`, 200, { body: webhook })).toEqual(webhook)

      // Read back.
      expect(await call("GET", `${auth}/email_and_password`, 200)).toEqual(signIn)
      expect(await call("GET", `${auth}/email_provider`, 200)).toEqual(smtp)
      expect((await call("GET", `${auth}/domains`, 200)).domains).toEqual([
        { domain: "https://preview.example.com", auth_provider: "better_auth" }
      ])
      expect(await call("GET", `${auth}/webhooks`, 200)).toEqual(webhook)
      expect(await call("GET", `${auth}/allow_localhost`, 200)).toEqual({ allow_localhost: true })
      expect(await call("GET", `${auth}/plugins/phone-number`, 200)).toEqual({ enabled: false, otp_expires_in: 300 })
      const plugins = await call("GET", `${auth}/plugins`, 200)
      expect(plugins).toMatchObject({ email_and_password: signIn, email_provider: smtp, allow_localhost: true })
      expect(plugins.magic_link).toEqual({ enabled: false, expires_in: 5, disable_sign_up: false })

      await call("DELETE", auth, 200, { body: { delete_data: true } })
      await call("GET", `${auth}/plugins`, 404)
      await call("GET", auth, 404)
    })
  }, 60_000)
})
