/**
 * The unified diff of two schemas' SQL text (docs/contract.md §24.1), computed from what changed:
 * both texts are walked section by section in the order the dump prints them (`ddl.ts`'s
 * `sectionsOf`: a table's `CREATE TABLE`, each of its keys, each of its foreign keys), so a table
 * present on one side only is all removed or all added, one changed is diffed line by line on its
 * own (jsdiff's `diffArrays`, over the few lines of that table), and one unchanged (the same table
 * object, or the same lines) costs a comparison. The time grows with the size of the two schemas
 * and of their difference, never with the product of the two, as a line diff of the whole texts
 * does (a minute for two schemas of 4,000 tables). The hunks are formed as jsdiff's
 * `structuredPatch` forms them (4 lines of context) and written by its `formatPatch`, so the text
 * reads as `createTwoFilesPatch`'s and `applyPatch` turns the base's SQL into the branch's.
 *
 * Two schemas at the fake's limit (5,000 tables each, none in common) make a diff of some 2.5 MB:
 * a fraction of a second of work, done in slices (`slices.ts`) that give the event loop back
 * between them, so that other requests are answered meanwhile.
 */
import { diffArrays, formatPatch, type StructuredPatchHunk } from "diff"
import type * as Effect from "effect/Effect"
import { type Section, sectionSteps, type Table } from "./sql.js"
import { sliced, type Steps } from "../../engine/slices.js"

/** Lines common to both sides, removed from the base, or added on the branch. */
interface Run {
  readonly kind: "common" | "removed" | "added"
  readonly lines: Array<string>
}

/** The lines of context around each change, as `createTwoFilesPatch` takes them by default. */
const context = 4

const compareOrder = (a: Section["order"], b: Section["order"]): number => {
  for (let i = 0; i < 3; i++) {
    const x = a[i]!
    const y = b[i]!
    if (x !== y) return x < y ? -1 : 1
  }
  return 0
}

const sameLines = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** How many lines the work reads or writes between two of its possible pauses. */
const sliceLines = 500

/**
 * The runs from the sections of the base (`before`) to those of the branch (`after`), both in the
 * dump's order; a pause (`yield`) after each slice.
 */
function* runsOf(before: ReadonlyArray<Section>, after: ReadonlyArray<Section>): Steps<ReadonlyArray<Run>> {
  const runs: Array<Run> = []
  const push = (kind: Run["kind"], lines: ReadonlyArray<string>) => {
    if (lines.length === 0) return
    const last = runs[runs.length - 1]
    if (last !== undefined && last.kind === kind) for (const line of lines) last.lines.push(line)
    else runs.push({ kind, lines: [...lines] })
  }
  let i = 0
  let j = 0
  let read = 0
  while (i < before.length || j < after.length) {
    if (read >= sliceLines) {
      read = 0
      yield
    }
    read += (before[i]?.lines.length ?? 0) + (after[j]?.lines.length ?? 0)
    const old = before[i]
    const now = after[j]
    const order = old === undefined ? 1 : now === undefined ? -1 : compareOrder(old.order, now.order)
    if (order < 0) {
      push("removed", old!.lines)
      i++
    } else if (order > 0) {
      push("added", now!.lines)
      j++
    } else {
      if ((old!.table !== undefined && old!.table === now!.table) || sameLines(old!.lines, now!.lines)) {
        push("common", now!.lines)
      } else {
        for (const part of diffArrays(old!.lines as Array<string>, now!.lines as Array<string>)) {
          push(part.added ? "added" : part.removed ? "removed" : "common", part.value)
        }
      }
      i++
      j++
    }
  }
  return runs
}

/** The hunks of `runs`, as jsdiff's `structuredPatch` forms them from the same runs; a pause after each slice. */
function* hunksOf(runs: ReadonlyArray<Run>): Steps<Array<StructuredPatchHunk>> {
  const all = [...runs, { kind: "common" as const, lines: [] }]
  const hunks: Array<StructuredPatchHunk> = []
  let oldRangeStart = 0
  let newRangeStart = 0
  let range: Array<string> = []
  let oldLine = 1
  let newLine = 1
  let written = 0
  for (let i = 0; i < all.length; i++) {
    if (written >= sliceLines) {
      written = 0
      yield
    }
    const run = all[i]!
    written += run.lines.length
    if (run.kind !== "common") {
      if (oldRangeStart === 0) {
        const previous = all[i - 1]
        oldRangeStart = oldLine
        newRangeStart = newLine
        if (previous !== undefined) {
          range = previous.lines.slice(-context).map((line) => ` ${line}`)
          oldRangeStart -= range.length
          newRangeStart -= range.length
        }
      }
      const sign = run.kind === "added" ? "+" : "-"
      for (const line of run.lines) range.push(`${sign}${line}`)
      if (run.kind === "added") newLine += run.lines.length
      else oldLine += run.lines.length
    } else {
      if (oldRangeStart !== 0) {
        if (run.lines.length <= context * 2 && i < all.length - 2) {
          for (const line of run.lines) range.push(` ${line}`)
        } else {
          const size = Math.min(run.lines.length, context)
          for (const line of run.lines.slice(0, size)) range.push(` ${line}`)
          hunks.push({
            oldStart: oldRangeStart,
            oldLines: oldLine - oldRangeStart + size,
            newStart: newRangeStart,
            newLines: newLine - newRangeStart + size,
            lines: range
          })
          oldRangeStart = 0
          newRangeStart = 0
          range = []
        }
      }
      oldLine += run.lines.length
      newLine += run.lines.length
    }
  }
  return hunks
}

function* diffOf(
  beforeTables: ReadonlyArray<Table>,
  afterTables: ReadonlyArray<Table>,
  names: DiffNames
): Steps<string> {
  const before = yield* sectionSteps(beforeTables)
  const after = yield* sectionSteps(afterTables)
  const runs = yield* runsOf(before, after)
  if (runs.every((run) => run.kind === "common")) return ""
  const hunks = yield* hunksOf(runs)
  return formatPatch({
    oldFileName: names.oldName,
    newFileName: names.newName,
    oldHeader: names.oldHeader,
    newHeader: names.newHeader,
    hunks
  })
}

/** The labels of the two sides of a diff and their headers (the time each was read at). */
export interface DiffNames {
  readonly oldName: string
  readonly newName: string
  readonly oldHeader: string
  readonly newHeader: string
}

/**
 * The unified diff from the tables `before` (labelled `oldName`, with `oldHeader`) to the tables
 * `after`, as SQL: `""` when they are the same, else the text `createTwoFilesPatch` writes (the
 * `===` line, the `---`/`+++` labels, hunks with 4 lines of context). Computed in slices that give
 * the event loop back between them.
 */
export const schemaDiff = (
  before: ReadonlyArray<Table>,
  after: ReadonlyArray<Table>,
  names: DiffNames
): Effect.Effect<string> => sliced(diffOf(before, after, names))
