import { BlockList, isIP } from "node:net"

const loopbackAddresses = new BlockList()
loopbackAddresses.addSubnet("127.0.0.0", 8, "ipv4")
loopbackAddresses.addAddress("::1", "ipv6")

/** Whether `host` is a loopback address (127.0.0.0/8, `::1`, also IPv4-mapped) or `localhost`. */
export const isLoopback = (host: string): boolean => {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
  if (name === "localhost" || name.endsWith(".localhost")) return true
  const family = isIP(name)
  return family !== 0 && loopbackAddresses.check(name, family === 4 ? "ipv4" : "ipv6")
}
