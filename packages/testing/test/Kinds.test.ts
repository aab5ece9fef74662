/**
 * The fake's state as collections of kinds: one change record applied by one function (the
 * journal replays to the same state), cascading deletes, the invariants checked in one place
 * (seeds refused), the version 1 snapshot lifted, seeds' branches and endpoints, the project
 * lock and operations started one after another.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import fc from "fast-check"
import * as FakePlatform from "../src/FakePlatform.js"
import { type Change, upsert } from "../src/engine/kinds.js"
import { lockedBy, startOperations } from "../src/engine/operations.js"
import { collectionsOfSeed, defaultBranchOf, seedProject } from "../src/internal/seed.js"
import {
  applyAll,
  cascade,
  itemsOf,
  makeFakeState,
  mutate,
  problems,
  snapshotOf,
  type State
} from "../src/engine/state.js"
import { controlPlane } from "../src/internal/duties.js"
import * as Seed from "../src/Seed.js"
import * as Snapshot from "../src/Snapshot.js"
import { operationId, projectId } from "./helpers.js"
import { load, stateOf } from "../src/internal/kinds.js"

/** The state of a seed at time 0, which must be valid. */
const stateOfSeed = (seed: Seed.Seed): State => Either.getOrThrow(load(collectionsOfSeed(seed, 0)))

/** One random step of a run over the state, as a mutation: what a route or a scenario does. */
type Action =
  | { readonly _tag: "AddProject"; readonly n: number }
  | { readonly _tag: "AddBranch"; readonly project: number; readonly n: number }
  | { readonly _tag: "AddEndpoint"; readonly branch: number; readonly n: number }
  | { readonly _tag: "DeleteBranch"; readonly branch: number }
  | { readonly _tag: "DeleteProject"; readonly project: number }
  | { readonly _tag: "Start"; readonly project: number; readonly count: number }

const pick = <A>(items: ReadonlyArray<A>, i: number): A | undefined => items[i % Math.max(1, items.length)]

/** The changes `action` makes to `state` at `now`, keeping the invariants (as the routes will). */
const changesOf = (state: State, action: Action, now: number): ReadonlyArray<Change> => {
  const projects = Array.from(itemsOf(state, "projects"))
  const branches = projects.flatMap((project) => Array.from(itemsOf(state, "branches", project.id)))
  switch (action._tag) {
    case "AddProject": {
      const project = seedProject({ id: `project-${action.n}-${now}`, age: 0 }, now)
      return [upsert("projects", project), upsert("branches", defaultBranchOf(project))]
    }
    case "AddBranch": {
      const project = pick(projects, action.project)
      const parent = project && Array.from(itemsOf(state, "branches", project.id)).find((branch) => branch.default)
      if (project === undefined || parent === undefined) return []
      const id = `br-child-${action.n}-${now}`
      return [upsert("branches", { ...parent, id, name: id, default: false, parent_id: parent.id, created_at: now })]
    }
    case "AddEndpoint": {
      const branch = pick(branches, action.branch)
      if (branch === undefined) return []
      const taken = Array.from(itemsOf(state, "endpoints", branch.id)).some((e) => e.type === "read_write")
      return [
        upsert("endpoints", {
          id: `ep-${action.n}-${now}`,
          project_id: branch.project_id,
          branch_id: branch.id,
          type: taken ? "read_only" : "read_write",
          autoscaling_limit_min_cu: 0.25,
          autoscaling_limit_max_cu: 1,
          suspend_timeout_seconds: 0,
          created_at: now,
          updated_at: now,
          active_at: now + 3000
        })
      ]
    }
    case "DeleteBranch": {
      // As the platform: never the default branch, nor one with children.
      const branch = pick(
        branches.filter((b) => !b.default && !branches.some((child) => child.parent_id === b.id)),
        action.branch
      )
      return branch === undefined ? [] : cascade(state, "branches", branch.id)
    }
    case "DeleteProject": {
      const project = pick(projects, action.project)
      return project === undefined ? [] : cascade(state, "projects", project.id)
    }
    case "Start": {
      const project = pick(projects, action.project)
      if (project === undefined || lockedBy(state, project.id, now) !== undefined) return []
      const starts = Array.from({ length: action.count }, (_, i) => ({
        id: crypto.randomUUID(),
        action: i === 0 ? "create_branch" : "start_compute",
        runsFor: 1000 * (i + 1)
      }))
      return startOperations(state, project.id, starts, now).changes
    }
  }
}

const actions: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ _tag: fc.constant("AddProject" as const), n: fc.nat(1000) }),
  fc.record({ _tag: fc.constant("AddBranch" as const), project: fc.nat(20), n: fc.nat(1000) }),
  fc.record({ _tag: fc.constant("AddEndpoint" as const), branch: fc.nat(20), n: fc.nat(1000) }),
  fc.record({ _tag: fc.constant("DeleteBranch" as const), branch: fc.nat(20) }),
  fc.record({ _tag: fc.constant("DeleteProject" as const), project: fc.nat(20) }),
  fc.record({ _tag: fc.constant("Start" as const), project: fc.nat(20), count: fc.integer({ min: 1, max: 3 }) })
)

const base: Seed.Seed = {
  projects: [{ id: projectId }, { id: "second-river-2" }],
  branches: [
    { project_id: projectId, id: "br-main-1" },
    { project_id: projectId, id: "br-dev-1" }
  ],
  endpoints: [
    { branch_id: "br-main-1", id: "ep-main-1" },
    { branch_id: "br-dev-1", type: "read_only" }
  ],
  operations: [{ project_id: projectId, id: operationId(1), action: "create_branch", branch_id: "br-dev-1" }]
}

describe("the state's change record", () => {
  it.effect("a random run keeps the invariants, and its journal replayed on the first state gives the last", () =>
    Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(fc.array(actions, { maxLength: 25 }), async (run) => {
          const journal: Array<Change> = []
          const first = stateOfSeed(base)
          const fake = await Effect.runPromise(
            makeFakeState(first, (changes) => Effect.sync(() => journal.push(...changes)), controlPlane)
          )
          let changed = 0
          for (const [i, action] of run.entries()) {
            await Effect.runPromise(
              mutate(fake, (state) => {
                const changes = changesOf(state, action, 1000 * i)
                if (changes.length > 0) changed += 1
                return Either.right({ changes, answer: undefined })
              })
            )
          }
          const last = await Effect.runPromise(Ref.get(fake.ref))
          expect(problems(last)).toEqual([])
          expect(snapshotOf(applyAll(first, journal))).toEqual(snapshotOf(last))
          // The same through the public form: the snapshot and the changes, as a state file and its journal.
          expect(Snapshot.applyChanges(snapshotOf(first), journal)).toEqual(snapshotOf(last))
          // One revision per mutation that changed something.
          expect(last.revision).toBe(changed)
        }),
        { seed: 302709, numRuns: 60 }
      )
    )
  )

  it("a cascade deletes a project's endpoints, branches and operations; a branch's endpoints but not its operations", () => {
    const state = stateOfSeed(base)
    const kinds = (changes: ReadonlyArray<Change>) =>
      changes.map((change) => (change._tag === "Delete" ? `${change.kind} ${change.id}` : change._tag))
    const project = kinds(cascade(state, "projects", projectId))
    expect(project).toHaveLength(2 + 2 + 1 + 1)
    expect(project.slice(-1)).toEqual([`projects ${projectId}`])
    expect(project).toContain(`operations ${operationId(1)}`)
    expect(project).toContain("endpoints ep-main-1")
    // Children before their parent: a replay never holds an orphan.
    expect(project.indexOf("endpoints ep-main-1")).toBeLessThan(project.indexOf("branches br-main-1"))
    const branch = kinds(cascade(state, "branches", "br-dev-1"))
    expect(branch).toHaveLength(2)
    expect(branch[1]).toBe("branches br-dev-1")
    const after = applyAll(state, cascade(state, "branches", "br-dev-1"))
    expect(problems(after)).toEqual([])
    expect(Array.from(itemsOf(after, "operations", projectId), (operation) => operation.branch_id)).toEqual([
      "br-dev-1"
    ])
    expect(cascade(state, "projects", "no-such-project")).toEqual([])
  })
})

describe("invariants", () => {
  it.effect("a seed that breaks them is InvalidSeed naming each problem", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        FakePlatform.make({
          projects: [{ id: projectId }],
          branches: [
            { project_id: projectId, id: "br-one-1", default: true },
            { project_id: projectId, id: "br-two-2", default: true },
            { project_id: projectId, id: "br-three-3", parent_id: "br-nowhere-9" },
            { project_id: "no-such-project", id: "br-lost-4" },
            { project_id: projectId, id: "Bad Branch" }
          ],
          endpoints: [
            { branch_id: "br-one-1", id: "ep-one-1" },
            { branch_id: "br-one-1", id: "ep-one-2" },
            { branch_id: "br-gone-7", id: "ep-gone-7" }
          ]
        })
      )
      expect(error.problems).toEqual([
        'branch "Bad Branch": a branch id is 1 to 60 of a-z, 0-9 and -',
        "branch of unknown project no-such-project",
        "endpoint of unknown branch br-gone-7",
        `project ${projectId} has 2 default branches, not one`,
        // Branch by branch, newest first (the same age here: by id).
        "branch br-one-1 has 2 read_write endpoints, at most one",
        `branch br-three-3: parent br-nowhere-9 is not a branch of project ${projectId}`
      ])
    })
  )

  it("a project without branches is fine (a version 1 state); with branches it needs exactly one default", () => {
    const noBranches = stateOf({ ...collectionsOfSeed({ projects: [{ id: projectId }] }, 0), branches: [] })
    expect(problems(noBranches)).toEqual([])
    const [main] = Array.from(itemsOf(stateOfSeed({ projects: [{ id: projectId }] }), "branches", projectId))
    const noDefault = applyAll(noBranches, [upsert("branches", { ...main!, default: false })])
    expect(problems(noDefault)).toEqual([`project ${projectId} has 0 default branches, not one`])
  })
})

describe("snapshots", () => {
  it.effect("a version 1 snapshot (0.2.x) still loads: lifted to version 2 without branches nor endpoints", () =>
    Effect.gen(function* () {
      const v1 = JSON.stringify({
        version: 1,
        next_key_id: 1000003,
        api_keys: [],
        projects: [
          {
            id: projectId,
            name: "billing",
            region_id: "aws-us-east-2",
            platform_id: "aws",
            provisioner: "k8s-neonvm",
            pg_version: 17,
            created_at: "2026-11-23T00:00:00.000Z"
          }
        ],
        operations: [
          {
            id: operationId(1),
            project_id: projectId,
            action: "create_timeline",
            created_at: "2026-11-23T00:00:00.000Z",
            steps: [{ at: "2026-11-23T00:00:00.000Z", status: "scheduling" }],
            failures_count: 0
          }
        ]
      })
      const snapshot = yield* Schema.decode(Snapshot.SnapshotFromJson)(v1)
      expect(snapshot).toMatchObject({ version: 2, next_key_id: 1000003, branches: [], endpoints: [] })
      const fake = yield* FakePlatform.restore(snapshot, { bootstrapKey: "v1-key" })
      const now = yield* fake.snapshot
      // A project saved without org_id belongs to the default organization.
      expect(now.projects[0]).toMatchObject({ id: projectId, org_id: "org-dbplatform-000000" })
      expect(now.operations.map((operation) => operation.id)).toEqual([operationId(1)])
      // Written back as version 2.
      expect(JSON.parse(yield* Schema.encode(Snapshot.SnapshotFromJson)(now)).version).toBe(2)
    })
  )

  it.effect("a project added by a scenario comes with its default branch, in the snapshot and the journal", () =>
    Effect.gen(function* () {
      const changes: Array<Snapshot.SnapshotChange> = []
      const fake = yield* FakePlatform.make(
        {},
        { journal: { record: (recorded) => Effect.sync(() => changes.push(...recorded)), sync: Effect.void } }
      )
      const start = yield* fake.snapshot
      yield* fake.scenario.addProject({ id: "late-river-118737" })
      const now = yield* fake.snapshot
      expect(now.branches).toMatchObject([
        { project_id: "late-river-118737", name: "main", default: true, ready_at: now.projects[0]!.created_at }
      ])
      expect(Snapshot.applyChanges(start, changes)).toEqual(now)
    })
  )
})

describe("seeds", () => {
  it.effect("a project without branches gets main, ready at its creation; ids are the same for the same seed", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.make({ projects: [{ id: projectId, age: "1 day" }] })
      const { branches, projects } = yield* fake.snapshot
      expect(branches).toEqual([
        {
          id: expect.stringMatching(/^br-[a-z]+-[a-z]+-\d{6}$/),
          project_id: projectId,
          name: "main",
          default: true,
          protected: false,
          created_at: projects[0]!.created_at,
          updated_at: projects[0]!.created_at,
          ready_at: projects[0]!.created_at
        }
      ])
      yield* fake.reset
      expect((yield* fake.snapshot).branches[0]!.id).toBe(branches[0]!.id)
    })
  )

  it.effect("realistic: a default branch per project, some children, endpoints; operations reference them", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.make(Seed.realistic())
      const { branches, endpoints, operations, projects } = yield* fake.snapshot
      for (const project of projects) {
        const own = branches.filter((branch) => branch.project_id === project.id)
        expect(own.filter((branch) => branch.default)).toHaveLength(1)
      }
      expect(branches.some((branch) => branch.parent_id !== undefined)).toBe(true)
      expect(endpoints.length).toBeGreaterThanOrEqual(projects.length)
      const branchIds = new Set(branches.map((branch) => branch.id))
      const endpointIds = new Set(endpoints.map((endpoint) => endpoint.id))
      for (const operation of operations) {
        if (operation.branch_id !== undefined) expect(branchIds).toContain(operation.branch_id)
        if (operation.endpoint_id !== undefined) expect(endpointIds).toContain(operation.endpoint_id)
      }
      // The branch being created is init until its create_branch operation ends, then ready.
      const creating = branches.find((branch) => branch.name === "preview-pending")!
      const created = operations.find(
        (operation) => operation.branch_id === creating.id && operation.action === "create_branch"
      )!
      expect(creating.ready_at).toBeGreaterThan(0)
      expect(creating.ready_at).toBe(created.steps.at(-1)!.at)
    })
  )
})

describe("operations a mutation starts", () => {
  it("run one after another; the project is locked while one is pending", () => {
    const state = stateOfSeed({ projects: [{ id: projectId }] })
    const { changes, operations } = startOperations(
      state,
      projectId,
      [
        { id: operationId(1), action: "create_branch", runsFor: 2000 },
        { id: operationId(2), action: "start_compute", runsFor: 3000 }
      ],
      0
    )
    expect(operations.map((operation) => operation.created_at)).toEqual([0, 1])
    expect(operations.map((operation) => operation.steps.at(-1))).toEqual([
      { at: 2000, status: "finished" },
      { at: 5000, status: "finished" }
    ])
    const started = applyAll(state, changes)
    expect(lockedBy(state, projectId, 0)).toBeUndefined()
    expect(lockedBy(started, projectId, 0)?.id).toBe(operationId(2))
    expect(lockedBy(started, projectId, 4999)?.id).toBe(operationId(2))
    expect(lockedBy(started, projectId, 5000)).toBeUndefined()
    // Started again at the same time: created a millisecond later than those already there.
    const again = startOperations(started, projectId, [{ id: operationId(3), action: "apply_config", runsFor: 1 }], 0)
    expect(again.operations[0]!.created_at).toBe(2)
  })
})
