/**
 * The fake's log sequence numbers (docs/contract.md §19): a project's write-ahead log grows by
 * {@link bytesPerMilli} bytes every millisecond from its creation, where it starts at
 * {@link firstLsn}; every branch of the project shares that timeline, so a time of a branch's
 * history and an LSN stand for each other. Written as Postgres writes one: two hexadecimal
 * numbers, the high and low 32 bits, `0/1F2E3D4`.
 */

/** Where a project's log starts: `0/1000000`. */
export const firstLsn = 0x1_000_000

/** How many bytes of log the fake writes per millisecond. */
export const bytesPerMilli = 16

const twoTo32 = 2 ** 32

/** The LSN of a project created at `created` (epoch ms), at the time `at` (epoch ms). */
export const lsnAt = (created: number, at: number): string => {
  const position = firstLsn + Math.max(0, at - created) * bytesPerMilli
  const high = Math.floor(position / twoTo32)
  const low = position % twoTo32
  return `${high.toString(16).toUpperCase()}/${low.toString(16).toUpperCase()}`
}

/**
 * The time (epoch ms) of the LSN `lsn` in a project created at `created`: the first millisecond at
 * which its log had reached it. `undefined` for text that is not an LSN.
 */
export const timeOfLsn = (created: number, lsn: string): number | undefined => {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(lsn)
  if (match === null) return undefined
  const position = Number.parseInt(match[1]!, 16) * twoTo32 + Number.parseInt(match[2]!, 16)
  return created + Math.ceil((position - firstLsn) / bytesPerMilli)
}
