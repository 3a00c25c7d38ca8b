import { env } from "~/env.server";

/**
 * The address of the person asking. Behind `hops` trusted proxies, each of which appends the
 * address it saw to X-Forwarded-For, the client's address is the `hops`-th entry from the right;
 * anything further left was written by the client and cannot be trusted. Without trusted proxies
 * the header is ignored entirely.
 */
export function clientAddress(request: Request, hops: number = env.trustProxyHops): string | null {
  // remix-serve does not pass the socket's address to the app, so without a trusted proxy the
  // address is unknown rather than guessed from a header anyone can write.
  if (hops <= 0) return null;
  const forwarded = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  if (forwarded.length === 0) return null;
  return forwarded[Math.max(forwarded.length - hops, 0)] ?? null;
}
