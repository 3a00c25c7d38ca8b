// Where a request came from: the person's address and browser. The portal passes on its own
// client's in X-Client-Address and X-Client-User-Agent (app/runtime/request-origin.server.ts), as it
// passes its request id. They are read once, here, into the request's one `client`
// (docs/decisions/182): the notices the platform sends the owner name it (docs/decisions/164), and a
// session keeps it (docs/decisions/170), a session only what the portal told.
//
// A caller that sends neither header is taken at its word: its connection's address and its own
// User-Agent. A caller that sends either is the portal speaking for someone: what it did not say
// stays unknown (never the portal's own address or User-Agent).

export const CLIENT_ADDRESS_HEADER = "X-Client-Address";
export const CLIENT_USER_AGENT_HEADER = "X-Client-User-Agent";

/** The person's address and browser, each null when unknown. */
export type RequestOrigin = { address: string | null; userAgent: string | null };

/** A request's client: its origin, and whether the portal told it (forwarded) or the connection did. */
export type RequestClient = RequestOrigin & { forwarded: boolean };

export const UNKNOWN_CLIENT: RequestClient = { address: null, userAgent: null, forwarded: false };

/** The longest browser description kept: enough to name a browser and its system (the portal sends no more). */
export const USER_AGENT_MAX = 256;

// an IPv4 or IPv6 address (with an IPv4 tail or a zone), nothing else: it is shown to the user
const ADDRESS =
  /^(?:[0-9]{1,3}(?:\.[0-9]{1,3}){3}|[0-9a-f:]{2,39}(?:[0-9]{1,3}(?:\.[0-9]{1,3}){3})?(?:%[0-9a-z._-]{1,16})?)$/i;

/** An IPv4 or IPv6 address, in lower case, an IPv4-mapped one as IPv4; else null. */
export function saneAddress(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const address = value.trim().toLowerCase();
  const plain = address.startsWith("::ffff:") && address.includes(".") ? address.slice("::ffff:".length) : address;
  return plain && ADDRESS.test(plain) ? plain : null;
}

/** A browser description with anything but printable ASCII taken out, at most USER_AGENT_MAX long, else null. */
export function saneUserAgent(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = value
    .replace(/[^\x20-\x7e]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, USER_AGENT_MAX);
  return text || null;
}

type Headers = Record<string, string | string[] | undefined>;

/** The client of a request: the portal's headers when it sent either, else the connection's address and User-Agent. */
export function clientOf(headers: Headers, socketAddress: string | undefined): RequestClient {
  const passedAddress = headers[CLIENT_ADDRESS_HEADER.toLowerCase()];
  const passedAgent = headers[CLIENT_USER_AGENT_HEADER.toLowerCase()];
  if (passedAddress !== undefined || passedAgent !== undefined) {
    return { address: saneAddress(passedAddress), userAgent: saneUserAgent(passedAgent), forwarded: true };
  }
  return { address: saneAddress(socketAddress), userAgent: saneUserAgent(headers["user-agent"]), forwarded: false };
}

/** What a session keeps of a request's client: what the portal told, else nothing (docs/decisions/170). */
export function toldClient(client: RequestClient | undefined): RequestOrigin {
  return client?.forwarded ? { address: client.address, userAgent: client.userAgent } : UNKNOWN_ORIGIN;
}

export const UNKNOWN_ORIGIN: RequestOrigin = { address: null, userAgent: null };
