#!/usr/bin/env node
/**
 * How much memory does the emulator hold for objects in buckets? The built command (`pnpm build`
 * first, or `--bin` for another build of it) runs in a child process with a `--state` file and a
 * seed of one project, one branch and one bucket; this process uploads `--objects` objects (1,000
 * by default) of `--size` KiB (64 by default) through presigned `PUT` URLs, `--concurrency` at a
 * time (4), then lists them all and downloads a few. It samples the child's resident set size
 * (`VmRSS` of `/proc/<pid>/status`, Linux) every 50 ms and prints: at the start, the highest
 * while uploading, after the uploads, after the emulator folded its journal into the state file
 * (SIGTERM) and was started again from it (the state read back), and the state file's size.
 * A figure over `--bound` MiB (640 by default, the bound `docs/contract.md` §28.6 states) makes
 * it exit with 1.
 *
 * Usage: `node bench/buckets.mjs [--bin dist/esm/bin/emulator.js] [--objects 1000] [--size 64]
 * [--concurrency 4] [--bound 640] [--no-state]`.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const flag = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`)
  return index < 0 ? fallback : process.argv[index + 1]
}

const bin = flag("bin", fileURLToPath(new URL("../dist/esm/bin/emulator.js", import.meta.url)))
const objects = Number(flag("objects", "1000"))
const size = Number(flag("size", "64")) * 1024
const concurrency = Number(flag("concurrency", "4"))
const bound = Number(flag("bound", "640"))
const key = "bench-buckets-key"
const token = "bench-buckets-token"
const project = "bench-buckets"
const branch = "br-main-000001"

const mib = (bytes) => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`

/** The resident set size of process `pid`, in bytes. */
const rss = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0) * 1024
}

const start = async (args) => {
  const child = spawn(process.execPath, [bin, "--port", "0", ...args], {
    env: { ...process.env, DBPLATFORM_EMULATOR_KEY: key, DBPLATFORM_EMULATOR_TOKEN: token },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  let errors = ""
  child.stderr.setEncoding("utf8").on("data", (text) => {
    errors += text
  })
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)))
  const base = await new Promise((resolve, reject) => {
    child.stdout.setEncoding("utf8").on("data", (text) => {
      output += text
      const found = /^DBPLATFORM_BASE_URL=(.+)$/m.exec(output)?.[1]
      if (found !== undefined) resolve(found)
    })
    exited.then((code) => reject(new Error(`the emulator exited (${code}) before it was ready: ${errors}`)))
  })
  return { child, exited, base }
}

const api = async (base, method, path, body) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`)
  return text === "" ? undefined : JSON.parse(text)
}

const dir = mkdtempSync(join(tmpdir(), "dbplatform-bench-buckets-"))
try {
  const state = join(dir, "state.json")
  const seed = join(dir, "seed.json")
  writeFileSync(
    seed,
    JSON.stringify({
      projects: [{ id: project }],
      branches: [{ project_id: project, id: branch, name: "main", default: true }],
      buckets: [{ branch_id: branch, name: "bench" }]
    })
  )
  const withState = process.argv.includes("--no-state") ? [] : ["--state", state]
  const first = await start([...withState, "--seed", seed])
  const pid = first.child.pid
  const atStart = rss(pid)
  let peak = atStart
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss(pid))
  }, 50)
  const objectsPath = `/projects/${project}/branches/${branch}/buckets/bench/objects`
  const started = performance.now()
  let next = 0
  const worker = async () => {
    while (next < objects) {
      const n = next++
      const body = new Uint8Array(size)
      for (let i = 0; i < size; i += 4096) body[i] = (n + i) % 251
      const url = await api(first.base, "POST", `${objectsPath}/${encodeURIComponent(`data/${n}.bin`)}/presign`, {
        operation: "upload",
        content_type: "application/octet-stream"
      })
      const put = await fetch(url.url, { method: "PUT", headers: url.headers, body })
      if (put.status !== 200) throw new Error(`PUT ${n}: ${put.status} ${await put.text()}`)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  const uploadSeconds = (performance.now() - started) / 1000
  let listed = 0
  let cursor
  do {
    const page = await api(
      first.base,
      "GET",
      `${objectsPath}?limit=1000${cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`}`
    )
    listed += page.objects.length
    cursor = page.is_truncated ? page.next_cursor : undefined
  } while (cursor !== undefined)
  for (const n of [0, Math.floor(objects / 2), objects - 1]) {
    const got = await fetch(`${first.base}${objectsPath}/${encodeURIComponent(`data/${n}.bin`)}/download`, {
      headers: { authorization: `Bearer ${key}` }
    })
    if ((await got.arrayBuffer()).byteLength !== size) throw new Error(`download ${n}: wrong size`)
  }
  const afterUploads = rss(pid)
  clearInterval(sampler)
  first.child.kill("SIGTERM")
  if ((await first.exited) !== 0) throw new Error("the emulator did not stop cleanly")
  const stateBytes = statSync(state).size
  const second = await start(["--state", state])
  let reloadedPeak = rss(second.child.pid)
  const page = await api(second.base, "GET", `${objectsPath}?limit=1000`)
  reloadedPeak = Math.max(reloadedPeak, rss(second.child.pid))
  const reloaded = rss(second.child.pid)
  second.child.kill("SIGTERM")
  await second.exited
  const stored = objects * size
  console.log(`objects: ${objects} of ${size / 1024} KiB (${mib(stored)} of bytes), listed ${listed}`)
  console.log(`uploads: ${uploadSeconds.toFixed(1)} s (${concurrency} at a time)`)
  console.log(`RSS at start:              ${mib(atStart)}`)
  console.log(`RSS highest while loading: ${mib(peak)}`)
  console.log(`RSS after the uploads:     ${mib(afterUploads)}`)
  console.log(`state file:                ${mib(stateBytes)}`)
  console.log(`RSS read back from state:  ${mib(reloaded)} (listed ${page.objects.length} on the first page)`)
  const worst = Math.max(peak, afterUploads, reloadedPeak, reloaded)
  console.log(`highest: ${mib(worst)}; bound ${bound} MiB: ${worst <= bound * 1024 * 1024 ? "held" : "EXCEEDED"}`)
  process.exitCode = worst <= bound * 1024 * 1024 ? 0 : 1
} finally {
  rmSync(dir, { recursive: true, force: true })
}
