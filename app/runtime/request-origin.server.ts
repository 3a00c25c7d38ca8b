import { addressOf } from "./client-address.server";
import { currentRequestContext } from "./request-context.server";

// Where the request being served came from, passed on to the platform with every call it makes, as
// the request id is (request-id.server.ts): the platform tells an account's owner of changes to how
// the account is reached, with the address and browser they came from (docs/decisions/164). The
// platform reads the same headers (server/lib/request-origin.ts).

export const CLIENT_ADDRESS_HEADER = "X-Client-Address";
export const CLIENT_USER_AGENT_HEADER = "X-Client-User-Agent";

/** The longest browser description passed on: enough to name a browser and its system. */
const USER_AGENT_MAX = 256;

export type ClientOrigin = { address: string | null; userAgent: string | null };

/** What the portal's server knows of a request's connection (scripts/portal-app.mjs). */
export type Connection = { socketAddress?: string; forwardedFor?: string; userAgent?: string };

/** A browser description as printable ASCII (a header carries nothing else), at most USER_AGENT_MAX long. */
function plainUserAgent(value: string | undefined): string | null {
  const text = (value ?? "")
    .replace(/[^\x20-\x7e]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, USER_AGENT_MAX);
  return text || null;
}

/** The client's address (behind the trusted proxies: client-address.server.ts) and browser. */
export function originOfConnection(connection: Connection, hops?: number): ClientOrigin {
  return {
    address: addressOf(connection.socketAddress, connection.forwardedFor, hops),
    userAgent: plainUserAgent(connection.userAgent),
  };
}

/** The headers that pass the request's origin on to the platform; none outside a request or where unknown. */
export function originHeaders(): Record<string, string> {
  const origin = currentRequestContext()?.origin;
  const headers: Record<string, string> = {};
  if (origin?.address) headers[CLIENT_ADDRESS_HEADER.toLowerCase()] = origin.address;
  if (origin?.userAgent) headers[CLIENT_USER_AGENT_HEADER.toLowerCase()] = origin.userAgent;
  return headers;
}
