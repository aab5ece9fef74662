/**
 * Runs before every test file of every package (`setupFiles` in vitest.shared.ts).
 *
 * After each test, one turn of the event loop. A test on the in-memory fake runs on promises
 * alone (microtasks), and so does vitest between tests: a whole file could run without its worker
 * once reading its I/O, and with it the main process's answers to the worker's calls (each test's
 * start and result, `onTaskUpdate`), which vitest fails after 60 s. On a busy 2-core machine a
 * file of a few hundred such tests ran over 200 s without a turn: the run failed with
 * `Timeout calling "onTaskUpdate"` (then once more for every later file of that worker) although
 * every test passed. With a turn after each test, the longest stretch without one is the longest
 * single test, not the longest file.
 */
import { afterEach } from "vitest"

afterEach(() => new Promise<void>((resolve) => setImmediate(resolve)))
