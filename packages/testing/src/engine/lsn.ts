/**
 * The fake's log sequence numbers (docs/contract.md §18, §19, §24): one write-ahead log position per
 * moment of the fake's clock, {@link bytesPerMilli} bytes per millisecond since the epoch, so
 * that a time of a branch's history and an LSN stand for each other in every project (branch
 * creation from a point in time, snapshots, schema reads). Written as Postgres writes one: the
 * high and low 32 bits in upper-case hexadecimal, `16/B374D848`. `FakePlatform.lsnAt` is the same
 * function for tests.
 */

/** Bytes of the fake's write-ahead log per millisecond of its clock. */
export const bytesPerMilli = 256

/** The LSN of epoch millisecond `at` (a time before the epoch: `0/0`). */
export const lsnAt = (at: number): string => {
  const position = BigInt(Math.max(0, Math.floor(at))) * BigInt(bytesPerMilli)
  return `${(position >> 32n).toString(16).toUpperCase()}/${(position & 0xffffffffn).toString(16).toUpperCase()}`
}

/**
 * The epoch millisecond the LSN `lsn` falls in, or `undefined` for text that is not an LSN (two
 * hexadecimal numbers of 1 to 8 digits around a `/`; core's input schemas refuse others first).
 */
export const timeOfLsn = (lsn: string): number | undefined => {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(lsn)
  if (match === null) return undefined
  const position = (BigInt(`0x${match[1]}`) << 32n) + BigInt(`0x${match[2]}`)
  return Number(position / BigInt(bytesPerMilli))
}
