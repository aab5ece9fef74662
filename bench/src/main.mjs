// @ts-check
/**
 * The benchmark: `npx -y pnpm@10.34.9 bench` at the repo root (builds what it needs, then runs
 * this with `node --expose-gc`). `--quick` (or `BENCH_QUICK=1`) shrinks every count for a smoke
 * run; `BENCH_N` sets the requests per contender per round on the canned server (1000 by
 * default; half of it on the emulator), `BENCH_ROUNDS` the rounds (7), `BENCH_ONLY` the sections
 * (`requests,suite,decode,stream,wait,first,emulator`; all by default), `BENCH_SERVERS` the servers of
 * the per-request section (`canned,emulator,memory`; all by default). `BENCH_BASELINE` names the
 * `dist` folder of another build of `@dbplatform/client` (e.g. `main`'s, built in a checkout of its
 * own), run as one more contender, `baseline`, in the per-request, test-suite, streaming and
 * waiting sections: before and after a change, side by side in one run (`builds.mjs`; the
 * test-suite section runs that checkout's `@dbplatform/testing` too, `BENCH_BASELINE_TESTING`);
 * `BENCH_CONTENDERS` (e.g. `ours,baseline`) keeps only those in the per-request section.
 * `BENCH_TIME=cpu` times the per-request and test-suite sections in the CPU time (user + system) of
 * the process that runs them rather than elapsed time: on a shared machine, other processes' load
 * shows less in it.
 *
 * Side by side, in one run, interleaved rounds (each round runs every contender, the order
 * rotated), medians and ratios: plain `fetch` + `JSON.parse`, the Effect floor (bare
 * `FetchHttpClient` without its per-request `http.client` span + `HttpClientResponse.schemaBodyJson`
 * with core's schemas), our client with
 * its defaults, and `@neon/sdk` 6.1.2. See `contenders.mjs`, `servers.mjs`, `walk.mjs`,
 * `testLayer.mjs`, `first.mjs`.
 */
import { spawn } from "node:child_process"
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { Api, isPending, Operation } from "@dbplatform/core"
import { FakePlatform, Seed } from "@dbplatform/testing"
import autocannon from "autocannon"
import * as esbuild from "esbuild"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import {
  baselineDist,
  baselineTestingDist,
  clientLayer,
  loadBaseline,
  loadBaselineTesting,
  loadOwnTesting
} from "./builds.mjs"
import {
  names as allNames,
  clientContender,
  contender,
  fakeContender,
  labels,
  ownModules,
  paths,
  sdkClient
} from "./contenders.mjs"

const quick = process.argv.includes("--quick") || process.env.BENCH_QUICK === "1"
const rounds = Number(process.env.BENCH_ROUNDS ?? (quick ? 2 : 7))
const perRound = Number(process.env.BENCH_N ?? (quick ? 100 : 1000))
/** `BENCH_WALKS`: the walks of 100 000 operations per contender (3), a process each. */
const walkRounds = Number(process.env.BENCH_WALKS ?? (quick ? 1 : 3))
const firstRuns = quick ? 2 : 5
const loadSeconds = quick ? 1 : 3
const pendingCount = quick ? 200 : 1000
const pollMs = 200
/**
 * From the set-up of the pending operations to the end of the newest one (ms): setting up, and
 * reading which are pending before the wait, must take less (printed beside the rounds).
 */
const pendingLeadMs = 1000
/** Builds of `DbPlatformTest.layer` per process in the test-suite section, after the first. */
const layerBuilds = quick ? 5 : 20
/** Processes per build and seed in the test-suite section, each timing its first build. */
const layerProcesses = quick ? 1 : 3
/** `BENCH_ONLY=requests,suite,decode,stream,wait,first,emulator` runs only those sections. */
const only = process.env.BENCH_ONLY?.split(",")
const section = (/** @type {string} */ name) => only === undefined || only.includes(name)
/** `BENCH_TIME=cpu`: the per-request section counts this process's CPU time, not elapsed time. */
const cpuTime = process.env.BENCH_TIME === "cpu"
/** Now, in µs: this process's CPU time so far (`BENCH_TIME=cpu`), or the time elapsed. */
const micros = () => {
  if (!cpuTime) return performance.now() * 1000
  const { system, user } = process.cpuUsage()
  return user + system
}
/** `BENCH_SERVERS=canned,emulator,memory` runs the per-request section on those servers only. */
const onlyServers = process.env.BENCH_SERVERS?.split(",")
/** `BENCH_CONTENDERS=ours,baseline` runs the per-request section with those contenders only. */
const onlyContenders = process.env.BENCH_CONTENDERS?.split(",")
/** The contenders of the import + first request section: all but the baseline. */
const firstNames = allNames.filter((name) => name !== "baseline")
/** The baseline build's modules, when `BENCH_BASELINE` names one. */
const baseline = baselineDist === undefined ? undefined : await loadBaseline(baselineDist)
const here = (/** @type {string} */ file) => fileURLToPath(new URL(file, import.meta.url))

/** @param {ReadonlyArray<number>} values */
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}
const fixed = (/** @type {number} */ n, digits = 0) => n.toFixed(digits)
/**
 * A Markdown table; a column whose cells all start with a digit is right-aligned.
 * @param {ReadonlyArray<ReadonlyArray<string>>} rows
 */
const table = (rows) => {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((row) => (row[i] ?? "").length)))
  const right = widths.map((_, i) => rows.slice(1).every((row) => /^[\d.]/.test(row[i] ?? "")))
  const line = (/** @type {ReadonlyArray<string>} */ row) =>
    `| ${row.map((cell, i) => (right[i] ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0))).join(" | ")} |`
  return [
    line(rows[0] ?? []),
    `|${widths.map((w, i) => (right[i] ? `${"-".repeat(w + 1)}:` : "-".repeat(w + 2))).join("|")}|`,
    ...rows.slice(1).map(line)
  ].join("\n")
}
/** @param {ReadonlyArray<T>} list @param {number} by @template T */
const rotate = (list, by) => list.map((_, i) => /** @type {T} */ (list[(i + by) % list.length]))

/**
 * Runs `node args`, resolving with its stdout's last line parsed as JSON.
 * @param {ReadonlyArray<string>} args
 * @returns {Promise<any>}
 */
const nodeJson = (args) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] })
    let out = ""
    child.stdout.on("data", (chunk) => {
      out += chunk
    })
    child.on("exit", (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split("\n").at(-1) ?? "")) : reject(new Error(`${args[0]}: ${code}`))
    )
  })

// --- The machine -------------------------------------------------------------------------------
const cpu = cpus()[0]?.model.trim() ?? "unknown CPU"
console.log(`# dbplatform bench${quick ? " (--quick)" : ""}`)
console.log(
  `machine: ${cpu}, ${availableParallelism()} cores, Node ${process.versions.node}, load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")} (1/5/15 min)`
)
console.log(`rounds: ${rounds} x ${perRound} requests per contender (canned), ${perRound / 2} (emulator)`)
console.log(baselineDist === undefined ? "" : `baseline (BENCH_BASELINE): ${baselineDist}\n`)

// --- The servers, in their own process ------------------------------------------------------------
const servers = spawn(process.execPath, [here("servers.mjs")], { stdio: ["ignore", "pipe", "inherit"] })
/** @type {{ canned: string, control: string, emulator: string, bare: string, apiKey: string, projectId: string, operationId: string }} */
const addresses = await new Promise((resolve, reject) => {
  servers.on("exit", (code) => reject(new Error(`servers exited with ${code}`)))
  createInterface({ input: servers.stdout }).once("line", (line) => resolve(JSON.parse(line)))
})
const stopServers = () => servers.kill("SIGTERM")
process.on("exit", stopServers)

/** The base URL of the requests answered in memory (see {@link memory}). */
const memoryBaseUrl = "http://memory.invalid/api/v2"
/**
 * In memory: a `fetch` that answers at once, from memory, with the canned server's bodies (a new
 * `Response` per request), for the requests of `paths` on {@link memoryBaseUrl}: no socket, no
 * other process, so that only the client's own cost shows, and the machine's load weighs less on
 * it. Reads the bodies from the canned server once.
 * @returns {Promise<typeof globalThis.fetch>}
 */
const memory = async () => {
  /** @type {Map<string, string>} */
  const bodies = new Map()
  for (const path of Object.values(paths({ ...addresses, baseUrl: addresses.canned }))) {
    const response = await fetch(`${addresses.canned}${path}`, {
      headers: { authorization: `Bearer ${addresses.apiKey}` }
    })
    bodies.set(new URL(`${memoryBaseUrl}${path}`).href, await response.text())
  }
  return async (input) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url
    const body = bodies.get(new URL(url).href)
    return body === undefined
      ? new Response(null, { status: 404 })
      : new Response(body, {
          status: 200,
          headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) }
        })
  }
}

try {
  // --- Per request ---------------------------------------------------------------------------------
  if (section("requests")) {
    const names = onlyContenders === undefined ? allNames : allNames.filter((name) => onlyContenders.includes(name))
    /** @type {ReadonlyArray<[import("./contenders.mjs").Request, string]>} */
    const requests = [
      ["operation", "GET one operation"],
      ["projects", "GET /projects"],
      ["operations10", "GET operations?limit=10"]
    ]
    /** @type {Array<[string, string, Record<string, number>]>} */
    const perRequest = []
    const memoryFetch = await memory()
    for (const [server, baseUrl, n, fetchFunction] of /** @type {const} */ ([
      ["canned", addresses.canned, perRound, undefined],
      ["emulator", addresses.emulator, Math.max(1, Math.floor(perRound / 2)), undefined],
      ["memory", memoryBaseUrl, perRound * 2, memoryFetch]
    ])) {
      if (onlyServers !== undefined && !onlyServers.includes(server)) continue
      const target = { ...addresses, baseUrl }
      const clients = Object.fromEntries(names.map((name) => [name, contender(name, target, fetchFunction, baseline)]))
      for (const [request, label] of requests) {
        /** @type {Record<string, Array<number>>} */
        const times = Object.fromEntries(names.map((name) => [name, []]))
        // Warm-up, not timed: a round's worth of requests per contender, so that each runs compiled code.
        for (const name of names) await clients[name]?.run(request, n)
        for (let round = 0; round < rounds; round++) {
          for (const name of rotate(names, round)) {
            const started = micros()
            await clients[name]?.run(request, n)
            times[name]?.push((micros() - started) / n)
          }
        }
        perRequest.push([server, label, Object.fromEntries(names.map((name) => [name, median(times[name] ?? [])]))])
      }
      for (const name of names) await clients[name]?.dispose()
    }
    console.log(
      `## µs${cpuTime ? " of this process's CPU time" : ""} per request (median of the rounds; one request at a time)\n`
    )
    console.log(
      table([
        ["server", "request", ...names.map((name) => labels[name])],
        ...perRequest.map(([server, label, us]) => [server, label, ...names.map((name) => fixed(us[name] ?? 0))])
      ])
    )
    /** @type {ReadonlyArray<[import("./contenders.mjs").Name, import("./contenders.mjs").Name]>} */
    const allPairs = [
      ...(baseline === undefined
        ? []
        : /** @type {ReadonlyArray<[import("./contenders.mjs").Name, import("./contenders.mjs").Name]>} */ ([
            ["ours", "baseline"],
            ["baseline", "floor"],
            ["baseline", "sdk"]
          ])),
      ["ours", "floor"],
      ["ours", "sdk"],
      ["ours", "fetch"],
      ["floor", "fetch"],
      ["sdk", "fetch"],
      ["floor", "sdk"]
    ]
    const pairs = allPairs.filter(([a, b]) => names.includes(a) && names.includes(b))
    console.log("\n## ratios (a / b of the medians above)\n")
    console.log(
      table([
        ["server", "request", ...pairs.map(([a, b]) => `${a} / ${b}`)],
        ...perRequest.map(([server, label, us]) => [
          server,
          label,
          ...pairs.map(([a, b]) => `${fixed((us[a] ?? 0) / (us[b] ?? 1), 2)}x`)
        ])
      ])
    )
  }

  // --- A user's test suite ------------------------------------------------------------------------
  if (section("suite")) {
    // The builds side by side: this workspace's, and the baseline's (its client and its testing).
    /** @type {ReadonlyArray<{ build: "ours" | "baseline", modules: import("./builds.mjs").ClientModules, testing: import("./builds.mjs").TestingModules }>} */
    const suiteBuilds = [
      { build: "ours", modules: ownModules, testing: await loadOwnTesting() },
      ...(baseline === undefined || baselineTestingDist === undefined
        ? []
        : /** @type {const} */ ([
            { build: "baseline", modules: baseline, testing: await loadBaselineTesting(baselineTestingDist) }
          ]))
    ]
    const builds = suiteBuilds.map(({ build }) => build)
    const memoryFetch = await memory()
    const memoryTarget = { ...addresses, baseUrl: memoryBaseUrl }
    /** @type {Record<string, import("./contenders.mjs").Contender>} */
    const suiteContenders = Object.fromEntries(
      suiteBuilds.flatMap(({ build, modules, testing }) => [
        [`${build} canned`, clientContender(modules, memoryTarget, memoryFetch)],
        [`${build} fake`, fakeContender(testing)]
      ])
    )
    const keys = Object.keys(suiteContenders)
    /** @type {ReadonlyArray<["operation" | "projects", string]>} */
    const suiteRequests = [
      ["operation", "GET one operation"],
      ["projects", "GET /projects"]
    ]
    /** @type {Array<[string, Record<string, number>]>} */
    const perCall = []
    for (const [request, label] of suiteRequests) {
      /** @type {Record<string, Array<number>>} */
      const times = Object.fromEntries(keys.map((key) => [key, []]))
      for (const key of keys) await suiteContenders[key]?.run(request, perRound)
      for (let round = 0; round < rounds; round++) {
        for (const key of rotate(keys, round)) {
          const started = micros()
          await suiteContenders[key]?.run(request, perRound)
          times[key]?.push((micros() - started) / perRound)
        }
      }
      perCall.push([label, Object.fromEntries(keys.map((key) => [key, median(times[key] ?? [])]))])
    }
    for (const key of keys) await suiteContenders[key]?.dispose()
    // Build times, a process per build and seed (`testLayer.mjs`), the order rotated.
    const combinations = builds.flatMap((build) => ["realistic", "empty"].map((seed) => `${build} ${seed}`))
    /** @type {Record<string, Array<any>>} */
    const layerRuns = Object.fromEntries(combinations.map((combination) => [combination, []]))
    for (let run = 0; run < layerProcesses; run++) {
      for (const combination of rotate(combinations, run)) {
        const [build = "ours", seed = "realistic"] = combination.split(" ")
        layerRuns[combination]?.push(await nodeJson([here("testLayer.mjs"), build, seed, String(layerBuilds)]))
      }
    }
    const firstOfLayer = (/** @type {string} */ combination) =>
      median((layerRuns[combination] ?? []).map((run) => (cpuTime ? run.firstCpuMs : run.firstMs)))
    const nextOfLayer = (/** @type {string} */ combination) =>
      median((layerRuns[combination] ?? []).flatMap((run) => (cpuTime ? run.nextCpuMs : run.nextMs)))
    const before = builds.includes("baseline")
    console.log(
      `\n## a user's test suite: our client over @dbplatform/testing's fake, in memory${cpuTime ? " (CPU time)" : ""}\n`
    )
    console.log(
      `µs${cpuTime ? " of this process's CPU time" : ""} per request (median of ${rounds} rounds of ${perRound}; one request at a time): the same client (\`DbPlatform.layer\`, its defaults) over the fake (\`DbPlatformTest.layer({ seed: Seed.realistic() })\`: \`FakeHttpClient\`, the fake answering in the caller's fiber) and over the canned in-memory \`fetch\` of the per-request section (\`FetchHttpClient\`)${before ? "; ours: this build, baseline: BENCH_BASELINE's, each with its own @dbplatform/testing" : ""}\n`
    )
    console.log(
      table([
        [
          "request",
          ...builds.map((build) => `canned, ${build} (µs)`),
          ...builds.map((build) => `fake, ${build} (µs)`),
          ...builds.map((build) => `fake / canned, ${build}`),
          ...(before ? ["fake: ours / baseline"] : [])
        ],
        ...perCall.map(([label, us]) => [
          label,
          ...builds.map((build) => fixed(us[`${build} canned`] ?? 0)),
          ...builds.map((build) => fixed(us[`${build} fake`] ?? 0)),
          ...builds.map((build) => `${fixed((us[`${build} fake`] ?? 0) / (us[`${build} canned`] ?? 1), 2)}x`),
          ...(before ? [`${fixed((us["ours fake"] ?? 0) / (us["baseline fake"] ?? 1), 2)}x`] : [])
        ])
      ])
    )
    console.log(
      `\n\`DbPlatformTest.layer\`'s build time${cpuTime ? " in CPU time" : ""}, from the seed's making to the layer's services built (\`ManagedRuntime.runtime()\`), in a fresh process per build and seed (${layerProcesses} each, imports done first): its first build, and the ${layerBuilds} after it\n`
    )
    console.log(
      table([
        [
          "build",
          "seed",
          `first build (ms, median of ${layerProcesses})`,
          `next builds (ms, median of ${layerProcesses * layerBuilds})`,
          ...(before ? ["next: ours / baseline"] : [])
        ],
        ...combinations.map((combination) => {
          const [build = "ours", seed = "realistic"] = combination.split(" ")
          return [
            build,
            seed === "empty" ? "empty" : "Seed.realistic()",
            fixed(firstOfLayer(combination), 1),
            fixed(nextOfLayer(combination), 1),
            ...(before
              ? [build === "ours" ? `${fixed(nextOfLayer(combination) / nextOfLayer(`baseline ${seed}`), 2)}x` : ""]
              : [])
          ]
        })
      ])
    )
  }

  // --- Decoding ------------------------------------------------------------------------------------
  if (section("decode")) {
    const pageText = await fetch(`${addresses.canned}/projects/walk-10000/operations?limit=1000`, {
      headers: { authorization: `Bearer ${addresses.apiKey}` }
    }).then((response) => response.text())
    const decodeFirst = Schema.decodeUnknownSync(Api.Operations.list.success)
    const decodeAll = Schema.decodeUnknownSync(Api.Operations.list.success, { errors: "all" })
    /** @param {() => unknown} f */
    const timeMs = (f, times = quick ? 5 : 30) => {
      for (let i = 0; i < 3; i++) f()
      const runs = []
      for (let i = 0; i < times; i++) {
        const started = performance.now()
        f()
        runs.push(performance.now() - started)
      }
      return median(runs)
    }
    const parsed = JSON.parse(pageText)
    const parseMs = timeMs(() => JSON.parse(pageText))
    const firstMs = timeMs(() => decodeFirst(parsed))
    const allMs = timeMs(() => decodeAll(parsed))
    console.log("\n## decoding a page of 1000 operations with core's schema (`Api.Operations.list.success`)\n")
    console.log(
      table([
        ["step", "ms per 1000 operations", "µs per operation"],
        ["JSON.parse", fixed(parseMs, 2), fixed(parseMs, 2)],
        ["Schema.decodeUnknownSync (first issue)", fixed(firstMs, 2), fixed(firstMs, 2)],
        ['Schema.decodeUnknownSync { errors: "all" }', fixed(allMs, 2), fixed(allMs, 2)]
      ])
    )
    // Where an operation's decoding goes: each field's schema on its own, the same fields as a
    // plain struct, and the `Operation` class (the struct plus building the instance).
    /** @type {Record<string, unknown>} */
    const operation = parsed.operations[0]
    /** @type {Record<string, unknown>} */
    const fields = Operation.fields
    const perField = Object.entries(fields).flatMap(([name, field]) => {
      if (!(name in operation)) return []
      // An optional field is a property signature: its schema is its `from`.
      const schema = Schema.isSchema(field) ? field : /** @type {{ from: Schema.Schema<unknown> }} */ (field).from
      const decodeField = Schema.decodeUnknownSync(/** @type {Schema.Schema<unknown>} */ (schema))
      const value = operation[name]
      return [
        [
          name,
          timeMs(() => {
            for (let i = 0; i < 1000; i++) decodeField(value)
          })
        ]
      ]
    })
    const decodeStruct = Schema.decodeUnknownSync(Schema.Struct(Operation.fields))
    const decodeClass = Schema.decodeUnknownSync(Operation)
    const structMs = timeMs(() => {
      for (let i = 0; i < 1000; i++) decodeStruct(operation)
    })
    const classMs = timeMs(() => {
      for (let i = 0; i < 1000; i++) decodeClass(operation)
    })
    console.log("\n### where one operation's decoding goes (each schema on its own, 1000 times)\n")
    console.log(
      table([
        ["schema", "µs per operation"],
        ...perField.map(([name, ms]) => [`field \`${name}\``, fixed(Number(ms), 2)]),
        [
          "the fields' sum",
          fixed(
            perField.reduce((sum, [, ms]) => sum + Number(ms), 0),
            2
          )
        ],
        ["Schema.Struct of the same fields", fixed(structMs, 2)],
        ["Operation (the class)", fixed(classMs, 2)]
      ])
    )
  }

  // --- Streaming -----------------------------------------------------------------------------------
  if (section("stream")) {
    const walkCounts = quick ? [10_000] : [10_000, 100_000]
    /** @type {Record<string, Record<string, Array<any>>>} */
    const walks = {}
    for (const count of walkCounts) {
      walks[count] = Object.fromEntries(allNames.map((name) => [name, []]))
      for (let round = 0; round < (count === 100_000 ? walkRounds : 1); round++) {
        for (const name of rotate(allNames, round)) {
          const result = await nodeJson([
            "--expose-gc",
            here("walk.mjs"),
            name,
            String(count),
            addresses.canned,
            addresses.apiKey
          ])
          if (result.operations !== count) throw new Error(`${name} walked ${result.operations} of ${count}`)
          walks[count]?.[name]?.push(result)
        }
      }
    }
    const longest = walkCounts.at(-1) ?? 10_000
    const walkMs = (/** @type {string} */ name, /** @type {number} */ count) =>
      median((walks[count]?.[name] ?? []).map((result) => result.ms))
    console.log(
      `\n## streaming ${longest.toLocaleString("en")} operations at pages of 1000 (canned server; a process per walk, median of ${walkRounds})\n`
    )
    console.log(
      table([
        [
          "contender",
          "time (ms)",
          "µs per operation",
          "/ fetch",
          "/ floor",
          ...(baseline === undefined ? [] : ["/ before"]),
          "peak RSS (MB)",
          ...walkCounts.map((count) => `heap retained after ${count / 1000}k (MB)`)
        ],
        ...allNames.map((name) => [
          `${labels[name]}${name === "ours" || name === "baseline" ? " (Operations.list)" : name === "sdk" ? " (raw listProjectOperations loop)" : " (cursor loop)"}`,
          fixed(walkMs(name, longest)),
          fixed((walkMs(name, longest) * 1000) / longest, 2),
          `${fixed(walkMs(name, longest) / walkMs("fetch", longest), 2)}x`,
          `${fixed(walkMs(name, longest) / walkMs("floor", longest), 2)}x`,
          ...(baseline === undefined ? [] : [`${fixed(walkMs(name, longest) / walkMs("baseline", longest), 2)}x`]),
          fixed(median((walks[longest]?.[name] ?? []).map((result) => result.peakRssMb))),
          ...walkCounts.map((count) => fixed(median((walks[count]?.[name] ?? []).map((r) => r.retainedHeapMb)), 2))
        ])
      ])
    )
  }

  // --- Waiting on pending operations -----------------------------------------------------------
  if (section("wait")) {
    /**
     * A `fetch` that counts requests into rounds, a round being the requests between two poll
     * sleeps: a request that starts when none is in flight and none has ended for 90% of the poll
     * interval or more starts a new round (the requests of a round follow each other at once).
     * At each round's start it records the spread of the pending operations then (`spreadNow`).
     * @param {Array<number>} rounds the size of each round, appended to
     * @param {Array<number>} spreads the spread at each round's start, appended to
     * @param {() => number} spreadNow
     * @returns {typeof globalThis.fetch}
     */
    const counting = (rounds, spreads, spreadNow) => {
      let inFlight = 0
      let lastEnd = Number.NEGATIVE_INFINITY
      return async (input, init) => {
        if (rounds.length === 0 || (inFlight === 0 && performance.now() - lastEnd >= pollMs * 0.9)) {
          rounds.push(0)
          spreads.push(spreadNow())
        }
        rounds[rounds.length - 1] = (rounds.at(-1) ?? 0) + 1
        inFlight += 1
        try {
          return await fetch(input, init)
        } finally {
          inFlight -= 1
          lastEnd = performance.now()
        }
      }
    }
    /**
     * The spread of the pending operations at `now`: how many operations of the project lie from
     * the newest pending one to the oldest, both counted (0 when none is pending).
     * @param {ReadonlyArray<number>} ends when each operation ends (epoch ms), in list order
     * @param {number} now epoch ms
     */
    const spreadAt = (ends, now) => {
      let newest = -1
      let oldest = -1
      ends.forEach((end, i) => {
        if (end <= now) return
        if (newest < 0) newest = i
        oldest = i
      })
      return newest < 0 ? 0 : oldest - newest + 1
    }
    const bound = (/** @type {number} */ spread) => 1 + Math.ceil(spread / 1000)
    /**
     * The raw pending operations of a project, read with `fetch` (not counted).
     * @param {string} projectId
     */
    const pendingOf = async (projectId) => {
      /** @type {Array<any>} */
      const pending = []
      /** @type {string | undefined} */
      let cursor
      for (;;) {
        const page = await fetch(
          `${addresses.emulator}/projects/${projectId}/operations?limit=1000${cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`}`,
          { headers: { authorization: `Bearer ${addresses.apiKey}` } }
        ).then((response) => response.json())
        pending.push(...page.operations.filter(isPending))
        if (page.operations.length < 1000) return pending
        cursor = page.pagination.cursor
      }
    }
    const interleave = quick ? 8 : 4
    const scenarios = [
      {
        every: 1,
        title: `${pendingCount} pending operations of one project, one after another`
      },
      {
        every: interleave,
        title: `${pendingCount} pending operations of one project, every ${interleave}th of ${pendingCount * interleave}, the others ended`
      }
    ]
    /** Our client, the baseline build when `BENCH_BASELINE` names one, and the official SDK. */
    /** @type {ReadonlyArray<"ours" | "baseline" | "sdk">} */
    const waitNames = baseline === undefined ? ["ours", "sdk"] : ["ours", "baseline", "sdk"]
    let sdkListenerWarnings = 0
    for (const { every, title } of scenarios) {
      /** @type {Array<{ name: "ours" | "baseline" | "sdk", rounds: ReadonlyArray<number>, spreads: ReadonlyArray<number>, ms: number, setUpMs: number }>} */
      const waits = []
      for (const name of waitNames) {
        const setUp = performance.now()
        /** @type {{ projectId: string, ends: ReadonlyArray<number | null> }} */
        const started = await fetch(
          `${addresses.control}/control/pending?count=${pendingCount}&every=${every}&lead=${pendingLeadMs}`,
          {
            method: "POST"
          }
        ).then((response) => response.json())
        const { projectId } = started
        const ends = started.ends.map((end) => end ?? Number.POSITIVE_INFINITY)
        const target = { ...addresses, baseUrl: addresses.emulator, projectId }
        /** @type {Array<number>} */
        const rounds = []
        /** @type {Array<number>} */
        const spreads = []
        const fetchCounting = counting(rounds, spreads, () => spreadAt(ends, Date.now()))
        const pending = await pendingOf(projectId)
        if (pending.length !== pendingCount) throw new Error(`${pending.length} pending, not ${pendingCount}`)
        const start = performance.now()
        const setUpMs = start - setUp
        if (name === "ours" || name === "baseline") {
          // Each build on its own `effect` (`builds.mjs`): the baseline's schedule and schemas are its own.
          const modules = name === "baseline" && baseline !== undefined ? baseline : ownModules
          const { Effect, ManagedRuntime, Operation, Operations, Schedule, Schema } = modules
          const runtime = ManagedRuntime.make(clientLayer(modules, target, fetchCounting))
          await runtime.runPromise(
            Effect.gen(function* () {
              const operations = yield* Operations.Operations
              // As a program has them: decoded by core's schema.
              const refs = pending.map((operation) => Schema.decodeUnknownSync(Operation)(operation))
              const result = yield* operations.awaitAll(refs, { schedule: Schedule.spaced(`${pollMs} millis`) })
              if (result.pending.length > 0 || result.failed.length > 0) throw new Error("not every operation finished")
            })
          )
          await runtime.dispose()
        } else {
          const neon = sdkClient(target, fetchCounting)
          // Its warnings that too many listeners were added to one `AbortSignal` are counted, not printed.
          const printers = process.listeners("warning")
          process.removeAllListeners("warning")
          process.on("warning", (warning) => {
            if (warning.name === "MaxListenersExceededWarning") sdkListenerWarnings += 1
            else for (const print of printers) print(warning)
          })
          await neon.operations.waitFor({ operations: pending }, { pollIntervalMs: pollMs, timeoutMs: 600_000 })
          process.removeAllListeners("warning")
          for (const print of printers) process.on("warning", print)
        }
        waits.push({ name, rounds, spreads, ms: performance.now() - start, setUpMs })
      }
      console.log(
        `\n## waiting: ${title} (emulator, poll every ${pollMs} ms; the newest pending one ends first, ${pendingLeadMs} ms after the set-up, the oldest last, ${fixed((pendingLeadMs + pendingCount * 3) / 1000, 1)} s after it)\n`
      )
      console.log(
        "spread: the operations of the project from the newest pending one to the oldest, both counted, measured at each round's start from the fake's own state (when each operation ends); bound: 1 + ⌈spread/1000⌉ requests a round, what our client's awaitAll promises (the official SDK reads each operation on its own, so its rounds are runs of requests with no poll sleep between them)\n"
      )
      console.log(
        table([
          [
            "contender",
            "requests",
            "rounds",
            "largest round",
            "max spread",
            "bound 1 + ⌈max spread/1000⌉",
            "rounds over their own bound",
            "time (s)"
          ],
          ...waits.map(({ name, rounds, spreads, ms }) => [
            `${labels[name]}${name === "sdk" ? " (operations.waitFor)" : " (Operations.awaitAll)"}`,
            String(rounds.reduce((sum, size) => sum + size, 0)),
            String(rounds.length),
            String(Math.max(...rounds)),
            String(Math.max(...spreads)),
            String(bound(Math.max(...spreads))),
            String(rounds.filter((size, i) => size > bound(spreads[i] ?? 0)).length),
            fixed(ms / 1000, 1)
          ])
        ])
      )
      console.log("\nrounds (requests / spread at the round's start):")
      for (const { name, rounds, spreads, setUpMs } of waits) {
        console.log(
          `- ${name}: ${rounds.map((size, i) => `${size}/${spreads[i]}`).join(", ")} (set-up and reading which are pending: ${fixed(setUpMs)} ms)`
        )
      }
    }
    console.log(
      `\n(@neon/sdk's waitFor adds an abort listener to one AbortSignal per request it sends: Node warned ${sdkListenerWarnings} times that it passed the signal's limit of listeners)`
    )
  }

  // --- Import + first request ------------------------------------------------------------------
  if (section("first")) {
    // Each contender as published (Node loads its modules one by one: for Effect, some 350
    // files) and bundled as an application's build would (esbuild, one file, its branch only).
    /** @type {Record<string, string>} */
    const bundles = {}
    // The baseline build is measured per request and streaming only.
    const names = firstNames
    for (const name of names) {
      const outfile = join(tmpdir(), `dbplatform-bench-first-${name}.mjs`)
      await esbuild.build({
        entryPoints: [here("first.mjs")],
        outfile,
        bundle: true,
        format: "esm",
        platform: "node",
        target: "node20",
        minifySyntax: true,
        define: { "process.env.BENCH_FIRST": JSON.stringify(name) },
        logLevel: "error"
      })
      bundles[name] = outfile
    }
    /** @type {Record<string, Array<any>>} */
    const firsts = Object.fromEntries(names.map((name) => [name, []]))
    /** @type {Record<string, Array<any>>} */
    const bundled = Object.fromEntries(names.map((name) => [name, []]))
    const serverArgs = [addresses.canned, addresses.apiKey, addresses.projectId, addresses.operationId]
    for (let run = 0; run < firstRuns; run++) {
      for (const name of rotate(names, run)) {
        firsts[name]?.push(await nodeJson([here("first.mjs"), name, ...serverArgs]))
        bundled[name]?.push(await nodeJson([bundles[name] ?? "", name, ...serverArgs]))
      }
    }
    const firstOf = (/** @type {Record<string, Array<any>>} */ runs, /** @type {string} */ name) =>
      median((runs[name] ?? []).map((r) => r.firstMs))
    console.log(
      `\n## import + first request (a fresh node process each, median of ${firstRuns}; ms from the process's start)\n`
    )
    console.log(
      table([
        [
          "contender",
          "as published: imports done (ms)",
          "first answer (ms)",
          "/ sdk",
          "bundled (esbuild): first answer (ms)",
          "/ sdk bundled"
        ],
        ...names.map((name) => [
          labels[name],
          fixed(median((firsts[name] ?? []).map((r) => r.importMs))),
          fixed(firstOf(firsts, name)),
          `${fixed(firstOf(firsts, name) / firstOf(firsts, "sdk"), 2)}x`,
          fixed(firstOf(bundled, name)),
          `${fixed(firstOf(bundled, name) / firstOf(bundled, "sdk"), 2)}x`
        ])
      ])
    )
  }

  // --- The emulator ------------------------------------------------------------------------------
  if (section("emulator")) {
    /** @param {string} url */
    const load = (url) =>
      new Promise((resolve, reject) =>
        autocannon(
          {
            url,
            connections: 10,
            duration: loadSeconds,
            headers: { authorization: `Bearer ${addresses.apiKey}`, accept: "application/json" }
          },
          (/** @type {unknown} */ error, /** @type {any} */ result) =>
            error ? reject(error) : resolve({ rps: result.requests.average, non2xx: result.non2xx })
        )
      )
    const operationPath = `/projects/${addresses.projectId}/operations/${addresses.operationId}`
    /** @type {any} */
    const emulatorLoad = await load(`${addresses.emulator}${operationPath}`)
    /** @type {any} */
    const bareLoad = await load(`${addresses.bare}/api/v2${operationPath}`)
    const starts = []
    const boots = []
    for (let run = 0; run < firstRuns; run++) {
      // Node's own start, for comparison: a process that does nothing.
      const booted = performance.now()
      await new Promise((resolve) => spawn(process.execPath, ["-e", "0"], { stdio: "ignore" }).on("exit", resolve))
      boots.push(performance.now() - booted)
      const started = performance.now()
      const child = spawn(process.execPath, [here("../../packages/emulator/dist/esm/bin/emulator.js")], {
        stdio: ["ignore", "pipe", "ignore"]
      })
      await new Promise((resolve) => createInterface({ input: child.stdout }).once("line", resolve))
      starts.push(performance.now() - started)
      child.kill("SIGINT")
      await new Promise((resolve) => child.on("exit", resolve))
    }
    const makes = []
    for (let run = 0; run < firstRuns + 1; run++) {
      const started = performance.now()
      await Effect.runPromise(FakePlatform.make(Seed.realistic()))
      makes.push(performance.now() - started)
    }
    console.log(
      `\n## the emulator (GET one operation, ${loadSeconds} s, 10 keep-alive connections, autocannon; start times median of ${firstRuns})\n`
    )
    console.log(
      table([
        ["server", "requests/s", "non-2xx"],
        ["emulator (the fake on node:http)", fixed(emulatorLoad.rps), String(emulatorLoad.non2xx)],
        ["bare node:http, same body", fixed(bareLoad.rps), String(bareLoad.non2xx)]
      ])
    )
    console.log(
      `\nemulator / bare: ${fixed(emulatorLoad.rps / bareLoad.rps, 2)}x; dbplatform-emulator start to its "serving" line: ${fixed(median(starts))} ms (node -e 0: ${fixed(median(boots))} ms); FakePlatform.make(Seed.realistic()) in process: ${fixed(median(makes.slice(1)), 1)} ms (first ${fixed(makes[0] ?? 0, 1)} ms)`
    )
  }
  console.log(
    `\nload average at the end: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")} (1/5/15 min)`
  )
} finally {
  stopServers()
}
