/**
 * An organization's members and invitations (docs/contract.md §20) under kill -9 (an area of
 * crash.test.ts, see crashAreas.ts): workers invite users (each already a member of another organization, so each joins at once),
 * change the roles of those who joined and remove them, over plain `fetch`. No operation is
 * involved.
 *
 * After each restart: every acknowledged invitation is listed; every member whose joining was
 * acknowledged is listed with the role last acknowledged, unless its removal was acknowledged;
 * nothing appears that no request asked for (a member or an invitation may appear only from a
 * request that got no answer, and what a restart shows of those holds from then on).
 */
import { expect } from "vitest"
import type { CrashArea, CrashContext } from "../crashAreas.js"
import { random, type Running, send } from "../spawned.js"

/** The kills of this test when it had a run of its own: each count below is checked against it. */
const ownKills = 6
const workers = 4
const org = "org-crash-members"
/** Where the users invited come from: each a member of it, so each has an account and joins at once. */
const pool = "org-crash-pool"
const usersPerWorker = 100
const roles = ["member", "editor", "viewer", "collaborator", "admin"] as const

/** A user of the pool as the test knows it in `org`. */
interface Tracked {
  readonly email: string
  readonly owner: number
  /** Whether its invitation was acknowledged (`undefined`: sent, no answer yet; resolved at the next restart). */
  invited: boolean | undefined
  /** Its membership's id, once read. */
  id: string | undefined
  /** The roles it may have: one, or two after a change that got no answer. */
  roles: ReadonlyArray<string>
  /** `undefined` after a removal that got no answer (resolved at the next restart). */
  removed: boolean | undefined
}

const emailOf = (w: number, n: number) => `w${w}-u${n}@pool.example`

export const members = ({ apiKey }: CrashContext): CrashArea => {
  const tracked = new Map<string, Tracked>()
  const counts = { invites: 0, roles: 0, removals: 0 }

  /** The checks after a restart; resolves what requests without an answer did. */
  const check = async (running: Running) => {
    const api = (path: string) => send("GET", `${running.baseUrl}${path}`, apiKey)
    const members = await api(`/organizations/${org}/members?limit=500`)
    expect(members.status).toBe(200)
    expect(members.body.pagination?.next).toBeUndefined()
    const invitations = await api(`/organizations/${org}/invitations`)
    expect(invitations.status).toBe(200)
    const byEmail = new Map<string, any>(members.body.members.map((item: any) => [item.user.email, item.member]))
    const invited = new Set<string>(invitations.body.invitations.map((invitation: any) => invitation.email))
    for (const email of invited) {
      const user = tracked.get(email)
      expect(user, `an invitation of ${email} that no request made`).toBeDefined()
      if (user!.invited === false) throw new Error(`${email} invited by no request`)
      if (user!.invited === undefined) {
        user!.invited = true
        user!.removed = false
      }
    }
    for (const user of tracked.values()) {
      if (user.invited === undefined) {
        tracked.delete(user.email)
        continue
      }
      expect(invited.has(user.email), `the invitation of ${user.email}`).toBe(true)
      const member = byEmail.get(user.email)
      if (user.removed !== undefined) expect(member === undefined, `${user.email} removed`).toBe(user.removed)
      user.removed = member === undefined
      if (member === undefined) continue
      expect(user.roles, `the role of ${user.email}`).toContain(member.role)
      user.roles = [member.role]
      user.id = member.id
    }
    for (const email of byEmail.keys()) {
      if (email === "you@example.com") continue
      expect(tracked.has(email), `member ${email} that no request added`).toBe(true)
    }
  }

  return {
    name: "organization members and invitations",
    seed: {
      organizations: [
        { id: org, members: [{ email: "you@example.com", role: "admin" }] },
        {
          id: pool,
          members: [
            { email: "you@example.com", role: "admin" },
            ...Array.from({ length: workers * usersPerWorker }, (_, i) => ({
              email: emailOf(i % workers, Math.floor(i / workers)),
              role: "member"
            }))
          ]
        }
      ]
    },
    workers,
    longestChange: 0,
    check,
    worker: async (run, w) => {
      const { running } = run
      const next = random(run.index * 1000 + w + 20)
      while (!run.killed) {
        const mine = Array.from(tracked.values()).filter(
          (user) =>
            user.owner === w && user.invited === true && user.removed === false && user.roles.length === 1 && user.id
        )
        const fresh = Array.from({ length: usersPerWorker }, (_, n) => emailOf(w, n)).filter(
          (email) => !tracked.has(email)
        )
        const choice = next()
        const user = mine.length === 0 || choice < 0.4 ? undefined : mine[Math.floor(next() * mine.length)]!
        if (user === undefined && fresh.length === 0) return
        const action = user === undefined ? "invite" : choice < 0.75 ? "role" : "remove"
        const role = roles[Math.floor(next() * roles.length)]!
        const target =
          user ??
          ({
            email: fresh[0]!,
            owner: w,
            invited: undefined,
            id: undefined,
            roles: [role],
            removed: undefined
          } as Tracked)
        if (action === "invite") tracked.set(target.email, target)
        if (action === "role") target.roles = [target.roles[0]!, role]
        if (action === "remove") target.removed = undefined
        const member = `${running.baseUrl}/organizations/${org}/members/${target.id}`
        const answer =
          action === "invite"
            ? await run.call("POST", `${running.baseUrl}/organizations/${org}/invitations`, apiKey, {
                invitations: [{ email: target.email, role }]
              })
            : action === "role"
              ? await run.call("PATCH", member, apiKey, { role })
              : await run.call("DELETE", member, apiKey)
        if (answer === undefined) continue // no (whole) answer: the next restart shows whether it happened
        expect(answer.status, `${action}: ${JSON.stringify(answer.body)}`).toBe(200)
        if (action === "invite") {
          expect(answer.body.invitations.map((invitation: any) => invitation.email)).toEqual([target.email])
          target.invited = true
          target.removed = false
          counts.invites += 1
        } else if (action === "role") {
          expect(answer.body.role).toBe(role)
          target.roles = [role]
          counts.roles += 1
        } else {
          expect(answer.body).toEqual({})
          target.removed = true
          counts.removals += 1
        }
        run.acknowledge()
        if (action === "invite" && !run.killed) {
          // The membership's id, for the changes to come; a read cut by the kill leaves it to the check.
          try {
            const listed = await send("GET", `${running.baseUrl}/organizations/${org}/members?limit=500`, apiKey)
            target.id = listed.body.members.find((item: any) => item.user.email === target.email)?.member.id
          } catch (error) {
            if (!run.killed) throw error
          }
        }
      }
    },
    finish: () => {
      expect(counts.invites).toBeGreaterThan(ownKills)
      expect(counts.roles).toBeGreaterThan(0)
      expect(counts.removals).toBeGreaterThan(0)
      return (
        `acknowledged ${counts.invites} invitations (each joining at once), ` +
        `${counts.roles} role changes, ${counts.removals} removals; 0 lost, nothing unasked for`
      )
    }
  }
}
