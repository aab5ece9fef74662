/**
 * Neon Auth (docs/contract.md §26.5-§26.8) under kill -9 (an area of crash.test.ts, see
 * crashAreas.ts): one worker per project creates, deletes and re-roles its branch's auth users and
 * changes its webhook, magic-link plugin and SMTP email provider (a password each time), over
 * plain `fetch`.
 *
 * After each restart, read from the control API's snapshot (users and roles have no read of
 * their own): every acknowledged user is there with the roles last acknowledged, no deleted one
 * is, no more unknown users than creations without an answer; each setting is the one last
 * acknowledged (or one sent without an answer, which then holds).
 */
import { expect } from "vitest"
import type { CrashArea, CrashContext } from "../crashAreas.js"
import { type Answer, random, type Running } from "../spawned.js"

/** The kills of this test when it had a run of its own: each count below is checked against it. */
const ownKills = 3
const projects = ["crash-auth-0", "crash-auth-1"]
const branchOf = (i: number) => `br-auth-${i}`

/** What the test knows of one branch's auth; a set of candidates where a request got no answer. */
interface Tracked {
  auth: boolean | undefined
  /** Users by id, each with the roles it may have (one once acknowledged). */
  users: Map<string, Set<string>>
  /** Users deleted without an answer: there or not, as the restart shows. */
  maybeGone: Set<string>
  unansweredCreates: number
  timeout: Set<number>
  expiresIn: Set<number>
  password: Set<string>
}

export const auth = ({ apiKey }: CrashContext): CrashArea => {
  const tracked = projects.map(
    (): Tracked => ({
      auth: false,
      users: new Map(),
      maybeGone: new Set(),
      unansweredCreates: 0,
      timeout: new Set([5]),
      expiresIn: new Set([5]),
      password: new Set([""])
    })
  )
  let acknowledgedChanges = 0

  const check = async (running: Running) => {
    const snapshot: any = await running.control((control) => control.snapshot())
    for (const [i, project] of projects.entries()) {
      const known = tracked[i]!
      const auth = (snapshot.branch_auths ?? []).find((item: any) => item.id === branchOf(i))
      if (known.auth !== undefined) expect(auth !== undefined, `${project}: auth`).toBe(known.auth)
      known.auth = auth !== undefined
      if (auth === undefined) continue
      const users = new Map<string, string>((auth.users ?? []).map((user: any) => [user.id, user.roles.join(",")]))
      for (const [id, roles] of known.users) {
        const found = users.get(id)
        if (found === undefined) expect(known.maybeGone.has(id), `${project}: user ${id}`).toBe(true)
        else expect(roles.has(found), `${project}: roles of ${id}: ${found}`).toBe(true)
      }
      const unknown = [...users.keys()].filter((id) => !known.users.has(id))
      expect(unknown.length, `${project}: users no request created`).toBeLessThanOrEqual(known.unansweredCreates)
      known.users = new Map([...users].map(([id, roles]) => [id, new Set([roles])]))
      known.maybeGone.clear()
      known.unansweredCreates = 0
      const settle = (candidates: Set<unknown>, actual: unknown, what: string) => {
        expect(candidates.has(actual), `${project}: ${what} ${actual}`).toBe(true)
        candidates.clear()
        candidates.add(actual)
      }
      settle(known.timeout, auth.webhooks?.timeout_seconds ?? 5, "webhook timeout")
      settle(known.expiresIn, auth.magic_link?.expires_in ?? 5, "magic link expiry")
      settle(known.password, auth.email_provider?.password ?? "", "SMTP password")
    }
  }

  return {
    name: "Neon Auth",
    seed: {
      projects: projects.map((id) => ({ id })),
      branches: projects.map((project, i) => ({ project_id: project, id: branchOf(i), name: "main", default: true })),
      roles: projects.map((_, i) => ({ branch_id: branchOf(i), name: "owner" })),
      databases: projects.map((_, i) => ({ branch_id: branchOf(i), name: "neondb", owner_name: "owner" }))
    },
    workers: projects.length,
    longestChange: 0,
    check,
    worker: async (run, w) => {
      const known = tracked[w]!
      const branch = `${run.running.baseUrl}/projects/${projects[w]}/branches/${branchOf(w)}/auth`
      const next = random(run.index * 1000 + w)
      /** Sends one change: its answer, or `undefined` (after `unanswered`) when it got none. */
      const change = async (method: string, url: string, body: unknown, unanswered: () => void) => {
        const answer: Answer | undefined = await run.call(method, url, apiKey, body)
        if (answer === undefined) unanswered()
        return answer
      }
      const acknowledged = (answer: Answer, status: number) => {
        expect(answer.status, JSON.stringify(answer.body)).toBe(status)
        acknowledgedChanges += 1
        run.acknowledge()
      }
      let n = 0
      while (!run.killed) {
        n += 1
        const tag = `r${run.index}-w${w}-${n}`
        if (known.auth !== true) {
          if (known.auth === undefined) return
          const answer = await change("POST", branch, { auth_provider: "better_auth" }, () => {
            known.auth = undefined
          })
          if (answer === undefined) return
          known.auth = true
          acknowledged(answer, 201)
          continue
        }
        const ids = [...known.users.keys()].filter((id) => !known.maybeGone.has(id))
        const id = ids[Math.floor(next() * ids.length)]
        const choice = next()
        if (choice < 0.35 || id === undefined) {
          const answer = await change("POST", `${branch}/users`, { email: `${tag}@example.com` }, () => {
            known.unansweredCreates += 1
          })
          if (answer === undefined) continue
          known.users.set(answer.body.id, new Set(["user"]))
          acknowledged(answer, 201)
        } else if (choice < 0.5) {
          const answer = await change("DELETE", `${branch}/users/${id}`, undefined, () => known.maybeGone.add(id))
          if (answer === undefined) continue
          known.users.delete(id)
          acknowledged(answer, 204)
        } else if (choice < 0.7) {
          const roles = `role-${tag}`
          const candidates = known.users.get(id)!
          const answer = await change("PUT", `${branch}/users/${id}/role`, { roles: [roles] }, () =>
            candidates.add(roles)
          )
          if (answer === undefined) continue
          known.users.set(id, new Set([roles]))
          acknowledged(answer, 200)
        } else if (choice < 0.8) {
          const timeout = 1 + (n % 10)
          const body = { enabled: true, webhook_url: "https://hooks.example.com/auth", timeout_seconds: timeout }
          const answer = await change("PUT", `${branch}/webhooks`, body, () => known.timeout.add(timeout))
          if (answer === undefined) continue
          known.timeout = new Set([timeout])
          acknowledged(answer, 200)
        } else if (choice < 0.9) {
          const expiresIn = 5 + n
          const answer = await change("PATCH", `${branch}/plugins/magic-link`, { expires_in: expiresIn }, () =>
            known.expiresIn.add(expiresIn)
          )
          if (answer === undefined) continue
          known.expiresIn = new Set([expiresIn])
          acknowledged(answer, 200)
        } else {
          const password = `smtp-${tag}`
          const body = {
            type: "standard",
            host: "smtp.example.com",
            port: 587,
            username: "mailer",
            password,
            sender_email: "auth@example.com",
            sender_name: "Example"
          }
          const answer = await change("PATCH", `${branch}/email_provider`, body, () => known.password.add(password))
          if (answer === undefined) continue
          known.password = new Set([password])
          acknowledged(answer, 200)
        }
      }
    },
    finish: () => {
      expect(acknowledgedChanges).toBeGreaterThan(ownKills * 6)
      return `${acknowledgedChanges} changes of users and settings acknowledged: 0 lost, nothing unasked for`
    }
  }
}
