/**
 * A branch's app backend (docs/contract.md §25-§27) under kill -9 (an area of
 * crashProjects.test.ts, see crashAreas.ts): one worker per project enables and disables its
 * branch's auth, trusts and forgets domains, adds and removes OAuth providers (with client
 * secrets), creates, updates and deletes the Data API of its database, and adds and deletes JWKS,
 * over plain `fetch`.
 *
 * Time: the shared clock is frozen. A JWKS add starts `apply_config` on the project's compute
 * endpoint, which holds the project (423 for the next locked change) until the clock passes its
 * end: the worker moves it on after each add, and after a 423 (a refusal that changes nothing).
 * Other areas' advances only move it further; a restart moves it past every saved operation.
 *
 * After each restart, for every project: the auth service is there exactly when the last
 * acknowledged change left it there, with exactly the domains and OAuth providers acknowledged
 * (a provider's client secret as it was sent); the Data API likewise; every acknowledged JWKS is
 * listed and no deleted one; no operation is pending; and nothing appears that no request asked
 * for (a request without an answer may or may not have happened: what the restart shows of it is
 * what holds from then on).
 */
import { expect } from "vitest"
import type { CrashArea, CrashContext } from "../crashAreas.js"
import { type Answer, random, type Running, send } from "../spawned.js"

/** The kills of this test when it had a run of its own: each count below is checked against it. */
const ownKills = 8
const projects = ["crash-backend-0", "crash-backend-1", "crash-backend-2"]
const mainOf = (i: number) => `br-backend-main-${i}`
/** The longest the operations of one change run, in ms: a JWKS add's apply_config, 1 s. */
const longestChange = 1_000
const providerIds = ["google", "github", "microsoft", "vercel"]

/** What the test knows of one project's branch; `undefined` where a request got no answer (resolved at the next restart). */
interface Tracked {
  auth: boolean | undefined
  domains: Set<string>
  /** Domains added or deleted without an answer: in the list or not, as the restart shows. */
  maybeDomains: Set<string>
  /** OAuth providers by id, with the client secret last acknowledged. */
  providers: Map<string, string>
  maybeProviders: Set<string>
  dataApi: boolean | undefined
  jwks: Set<string>
  /** JWKS deleted without an answer, or added without one (how many): resolved at the restart. */
  maybeJwks: Set<string>
  unansweredJwksAdds: number
}

export const appBackend = ({ apiKey, advance }: CrashContext): CrashArea => {
  const tracked = projects.map(
    (): Tracked => ({
      auth: false,
      domains: new Set(),
      maybeDomains: new Set(),
      providers: new Map(),
      maybeProviders: new Set(),
      dataApi: false,
      jwks: new Set(),
      maybeJwks: new Set(),
      unansweredJwksAdds: 0
    })
  )
  const counts = { changes: 0, auth: 0, domains: 0, providers: 0, dataApi: 0, jwks: 0, locked: 0 }

  /** The checks after a restart; resolves what requests without an answer did. */
  const check = async (running: Running) => {
    const api = (path: string) => send("GET", `${running.baseUrl}${path}`, apiKey)
    for (const [i, project] of projects.entries()) {
      const known = tracked[i]!
      const branch = `/projects/${project}/branches/${mainOf(i)}`
      const auth = await api(`${branch}/auth`)
      expect([200, 404]).toContain(auth.status)
      if (known.auth !== undefined) expect(auth.status === 200, `${project}: auth`).toBe(known.auth)
      known.auth = auth.status === 200
      if (known.auth) {
        const domains = new Set<string>(
          (await api(`${branch}/auth/domains`)).body.domains.map((domain: any) => domain.domain)
        )
        for (const domain of known.domains) expect(domains.has(domain), `${project}: domain ${domain}`).toBe(true)
        for (const domain of domains) {
          expect(known.domains.has(domain) || known.maybeDomains.has(domain), `${project}: domain ${domain}`).toBe(true)
        }
        known.domains = domains
        const providers = (await api(`${branch}/auth/oauth_providers`)).body.providers as Array<any>
        for (const provider of providers) {
          const secret = known.providers.get(provider.id)
          if (secret !== undefined) expect(provider.client_secret, `${project}: ${provider.id}`).toBe(secret)
          else expect(known.maybeProviders.has(provider.id), `${project}: provider ${provider.id}`).toBe(true)
        }
        for (const id of known.providers.keys()) {
          expect(
            providers.some((provider) => provider.id === id) || known.maybeProviders.has(id),
            `${project}: provider ${id}`
          ).toBe(true)
        }
        known.providers = new Map(providers.map((provider) => [provider.id, provider.client_secret]))
      } else {
        known.domains = new Set()
        known.providers = new Map()
      }
      known.maybeDomains.clear()
      known.maybeProviders.clear()
      const dataApi = await api(`${branch}/data-api/neondb`)
      expect([200, 404]).toContain(dataApi.status)
      if (known.dataApi !== undefined) expect(dataApi.status === 200, `${project}: Data API`).toBe(known.dataApi)
      known.dataApi = dataApi.status === 200
      const jwks = new Set<string>((await api(`/projects/${project}/jwks`)).body.jwks.map((item: any) => item.id))
      for (const id of known.jwks) {
        expect(jwks.has(id) || known.maybeJwks.has(id), `${project}: JWKS ${id}`).toBe(true)
      }
      const unknown = Array.from(jwks).filter((id) => !known.jwks.has(id))
      expect(unknown.length, `${project}: JWKS no request added`).toBeLessThanOrEqual(known.unansweredJwksAdds)
      known.jwks = jwks
      known.maybeJwks.clear()
      known.unansweredJwksAdds = 0
      // The clock moved on past every saved operation: none is pending.
      const operations = await api(`/projects/${project}/operations?limit=50`)
      for (const operation of operations.body.operations) {
        if (operation.action === "check_availability") continue
        expect(operation.status, `operation ${operation.id} (${operation.action})`).toBe("finished")
      }
    }
  }

  return {
    name: "app backend (Data API, branch auth, JWKS)",
    seed: {
      projects: projects.map((id) => ({ id })),
      branches: projects.map((project, i) => ({ project_id: project, id: mainOf(i), name: "main", default: true })),
      // Never suspended: the control plane's own suspend_compute would run at times of its own.
      endpoints: projects.map((_, i) => ({
        branch_id: mainOf(i),
        id: `ep-backend-main-${i}`,
        suspend_timeout_seconds: -1
      })),
      roles: projects.map((_, i) => ({ branch_id: mainOf(i), name: "owner" })),
      databases: projects.map((_, i) => ({ branch_id: mainOf(i), name: "neondb", owner_name: "owner" }))
    },
    workers: projects.length,
    longestChange,
    check,
    worker: async (run, w) => {
      const { running, answers } = run
      /** Counts an acknowledged change (and kills the emulator at the kill point). */
      const acknowledge = () => {
        counts.changes += 1
        run.acknowledge()
      }
      const project = projects[w]!
      const known = tracked[w]!
      const branch = `${running.baseUrl}/projects/${project}/branches/${mainOf(w)}`
      const jwksUrl = `${running.baseUrl}/projects/${project}/jwks`
      const next = random(run.index * 1000 + w)
      let op = 0
      while (!run.killed) {
        const n = op++
        const choice = next()
        /** Sends one change; `undefined` when it got no (whole) answer, after `unanswered` marked what may have happened. */
        const change = async (
          method: string,
          url: string,
          body: unknown,
          unanswered: () => void
        ): Promise<Answer | undefined> => {
          const answer = await run.call(method, url, apiKey, body)
          if (answer === undefined) unanswered()
          return answer
        }
        /** A 423: nothing changed; the clock is moved past the operations that hold the project. */
        const locked = async (answer: Answer) => {
          if (answer.status !== 423) return false
          counts.locked += 1
          await advance(running, longestChange, answers)
          return true
        }
        if (choice < 0.2) {
          if (known.auth === undefined) continue
          const enable = !known.auth
          const answer = enable
            ? await change("POST", `${branch}/auth`, { auth_provider: "better_auth" }, () => {
                known.auth = undefined
              })
            : await change("DELETE", `${branch}/auth`, { delete_data: true }, () => {
                known.auth = undefined
              })
          if (answer === undefined || (await locked(answer))) continue
          expect(answer.status, JSON.stringify(answer.body)).toBe(enable ? 201 : 200)
          known.auth = enable
          if (!enable) {
            known.domains.clear()
            known.providers.clear()
          }
          counts.auth += 1
        } else if (choice < 0.45) {
          if (known.auth !== true) continue
          const present = Array.from(known.domains)
          const remove = present.length > 0 && next() < 0.4
          const domain = remove
            ? present[Math.floor(next() * present.length)]!
            : `https://r${run.index}-w${w}-${n}.example.com`
          const answer = remove
            ? await change(
                "DELETE",
                `${branch}/auth/domains`,
                { auth_provider: "better_auth", domains: [{ domain }] },
                () => known.maybeDomains.add(domain)
              )
            : await change("POST", `${branch}/auth/domains`, { domain, auth_provider: "better_auth" }, () =>
                known.maybeDomains.add(domain)
              )
          if (answer === undefined) {
            known.domains.delete(domain)
            continue
          }
          expect(answer.status, JSON.stringify(answer.body)).toBe(remove ? 200 : 201)
          if (remove) known.domains.delete(domain)
          else known.domains.add(domain)
          counts.domains += 1
        } else if (choice < 0.65) {
          if (known.auth !== true) continue
          const id = providerIds[Math.floor(next() * providerIds.length)]!
          const secret = `secret-r${run.index}-w${w}-${n}`
          const present = known.providers.has(id)
          const update = present && next() < 0.5
          const answer = !present
            ? await change(
                "POST",
                `${branch}/auth/oauth_providers`,
                { id, client_id: `id-${n}`, client_secret: secret },
                () => known.maybeProviders.add(id)
              )
            : update
              ? await change("PATCH", `${branch}/auth/oauth_providers/${id}`, { client_secret: secret }, () =>
                  known.maybeProviders.add(id)
                )
              : await change("DELETE", `${branch}/auth/oauth_providers/${id}`, undefined, () =>
                  known.maybeProviders.add(id)
                )
          if (answer === undefined) {
            known.providers.delete(id)
            continue
          }
          expect(answer.status, JSON.stringify(answer.body)).toBe(200)
          if (present && !update) known.providers.delete(id)
          else {
            expect(answer.body.client_secret).toBe(secret)
            known.providers.set(id, secret)
          }
          counts.providers += 1
        } else if (choice < 0.85) {
          if (known.dataApi === undefined) continue
          const url = `${branch}/data-api/neondb`
          const action = !known.dataApi ? "create" : next() < 0.5 ? "update" : "delete"
          const answer = await change(
            action === "create" ? "POST" : action === "update" ? "PATCH" : "DELETE",
            url,
            action === "delete" ? undefined : { settings: { db_max_rows: n } },
            () => {
              if (action !== "update") known.dataApi = undefined
            }
          )
          if (answer === undefined || (await locked(answer))) continue
          expect(answer.status, JSON.stringify(answer.body)).toBe(action === "delete" ? 200 : 201)
          known.dataApi = action !== "delete"
          counts.dataApi += 1
        } else {
          const present = Array.from(known.jwks)
          const remove = present.length > 0 && next() < 0.4
          const id = remove ? present[Math.floor(next() * present.length)]! : undefined
          const answer =
            id !== undefined
              ? await change("DELETE", `${jwksUrl}/${id}`, undefined, () => known.maybeJwks.add(id))
              : await change(
                  "POST",
                  jwksUrl,
                  { jwks_url: `https://auth.example.com/${n}/jwks.json`, provider_name: "Clerk" },
                  () => {
                    known.unansweredJwksAdds += 1
                  }
                )
          if (answer === undefined || (await locked(answer))) continue
          expect(answer.status, JSON.stringify(answer.body)).toBe(id === undefined ? 201 : 200)
          if (id === undefined) {
            known.jwks.add(answer.body.jwks.id)
            expect(answer.body.operations.map((operation: any) => operation.action)).toEqual(["apply_config"])
          } else known.jwks.delete(id)
          counts.jwks += 1
          acknowledge()
          if (id === undefined) await advance(running, longestChange, answers)
          continue
        }
        acknowledge()
      }
    },
    finish: () => {
      expect(counts.changes).toBeGreaterThan(ownKills * 4)
      for (const kind of ["auth", "domains", "providers", "dataApi", "jwks"] as const) {
        expect(counts[kind], kind).toBeGreaterThan(0)
      }
      return (
        `acknowledged ${counts.changes} changes (${counts.auth} auth, ${counts.domains} domains, ` +
        `${counts.providers} OAuth providers, ${counts.dataApi} Data API, ${counts.jwks} JWKS); ` +
        `${counts.locked} refused with 423; 0 lost, nothing unasked for`
      )
    }
  }
}
