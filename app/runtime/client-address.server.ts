import { env } from "./env.server";
import type { PortalLoadContext } from "./load-context";

/**
 * The address of the person asking (docs/decisions/046). Without trusted proxies it is the address
 * of the connection. Behind `hops` trusted proxies, each of which appends the address it saw to
 * X-Forwarded-For, it is the `hops`-th entry from the right; anything further left was written by
 * the client and cannot be trusted. Null only when there is no connection (tests).
 */
export function clientAddress(
  request: Request,
  context: PortalLoadContext,
  hops: number = env.trustProxyHops,
): string | null {
  return addressBehindProxies(request.headers.get("x-forwarded-for"), context.socketAddress, hops);
}

/** clientAddress's rule on the raw parts: the X-Forwarded-For header and the connection's address. */
export function addressBehindProxies(
  forwardedFor: string | null | undefined,
  socketAddress: string | null | undefined,
  hops: number = env.trustProxyHops,
): string | null {
  const socket = socketAddress ? plain(socketAddress) : null;
  if (hops <= 0) return socket;
  const forwarded = (forwardedFor ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  // Fewer entries than trusted proxies: the request did not come through all of them (a direct
  // connection, a health check), so nothing in the header can be trusted.
  if (forwarded.length < hops) return socket;
  return plain(forwarded[forwarded.length - hops]!);
}

/** An IPv4 client on a dual-stack socket shows as `::ffff:192.0.2.1`: one client, one spelling. */
function plain(address: string): string {
  return address.startsWith("::ffff:") && address.includes(".") ? address.slice("::ffff:".length) : address;
}
