/**
 * IP addresses as an IP allow list holds them (`docs/contract.md` §22.2): an address, a range of
 * two addresses of one family (`a-b`, `a` not after `b`), or a CIDR block (`a/n`, `n` at most
 * 32 for IPv4, 128 for IPv6).
 */

/** An IPv4 address as a number, or `undefined`: four decimal octets of 0 to 255. */
const ipv4 = (text: string): bigint | undefined => {
  const parts = text.split(".")
  if (parts.length !== 4) return undefined
  let value = 0n
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined
    value = value * 256n + BigInt(part)
  }
  return value
}

/** The 16-bit groups of one side of an IPv6 address (`1:db8`), or `undefined`. */
const groups = (text: string): ReadonlyArray<bigint> | undefined => {
  if (text === "") return []
  const parts = text.split(":")
  const values: Array<bigint> = []
  for (const [i, part] of parts.entries()) {
    if (i === parts.length - 1 && part.includes(".")) {
      const v4 = ipv4(part)
      if (v4 === undefined) return undefined
      values.push(v4 >> 16n, v4 & 0xffffn)
    } else if (/^[0-9a-f]{1,4}$/i.test(part)) {
      values.push(BigInt(`0x${part}`))
    } else {
      return undefined
    }
  }
  return values
}

/** An IPv6 address as a number, or `undefined`: eight groups, `::` standing for one or more zero groups. */
const ipv6 = (text: string): bigint | undefined => {
  const halves = text.split("::")
  if (halves.length > 2) return undefined
  const head = groups(halves[0]!)
  const tail = halves.length === 2 ? groups(halves[1]!) : []
  if (head === undefined || tail === undefined) return undefined
  const missing = 8 - head.length - tail.length
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined
  return [...head, ...Array<bigint>(missing).fill(0n), ...tail].reduce((value, group) => (value << 16n) + group, 0n)
}

/** An address with its family (4 or 6), or `undefined`. */
const address = (text: string): { readonly family: 4 | 6; readonly value: bigint } | undefined => {
  const v4 = ipv4(text)
  if (v4 !== undefined) return { family: 4, value: v4 }
  const v6 = text.includes(":") ? ipv6(text) : undefined
  return v6 === undefined ? undefined : { family: 6, value: v6 }
}

/** Whether `entry` is an entry of an IP allow list: an address, a range `a-b`, or a CIDR block `a/n`. */
export const isIpEntry = (entry: string): boolean => {
  const slash = entry.split("/")
  if (slash.length === 2) {
    const base = address(slash[0]!)
    return base !== undefined && /^\d{1,3}$/.test(slash[1]!) && Number(slash[1]) <= (base.family === 4 ? 32 : 128)
  }
  if (slash.length !== 1) return false
  const dash = entry.split("-")
  if (dash.length === 2) {
    const from = address(dash[0]!)
    const to = address(dash[1]!)
    return from !== undefined && to !== undefined && from.family === to.family && from.value <= to.value
  }
  return dash.length === 1 && address(entry) !== undefined
}
