// Where a request came from, for the notices the platform sends the account's owner
// (docs/decisions/164): the person's address and browser. The portal passes on its own client's in
// X-Client-Address and X-Client-User-Agent (app/runtime/request-origin.server.ts), as it passes its
// request id; a caller that does not is taken at its word: its connection and User-Agent.

export const CLIENT_ADDRESS_HEADER = "X-Client-Address";
export const CLIENT_USER_AGENT_HEADER = "X-Client-User-Agent";

export type RequestOrigin = { address: string | null; userAgent: string | null };

export const UNKNOWN_ORIGIN: RequestOrigin = { address: null, userAgent: null };

/** The longest browser description kept: enough to name a browser and its system. */
export const USER_AGENT_MAX = 256;

/** An IPv4 or IPv6 address as written (letters, digits, dots and colons only), else null. */
export function saneAddress(value: string | string[] | undefined | null): string | null {
  const first = Array.isArray(value) ? value[0] : value;
  if (!first) return null;
  const address = first.trim();
  const plain = address.startsWith("::ffff:") && address.includes(".") ? address.slice("::ffff:".length) : address;
  return /^[0-9A-Fa-f.:]{2,45}$/.test(plain) ? plain : null;
}

/** A browser description with anything but printable ASCII taken out, at most USER_AGENT_MAX long, else null. */
export function saneUserAgent(value: string | string[] | undefined | null): string | null {
  const first = Array.isArray(value) ? value[0] : value;
  if (!first) return null;
  const text = first
    .replace(/[^\x20-\x7e]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, USER_AGENT_MAX);
  return text || null;
}

type Headers = Record<string, string | string[] | undefined>;

/** The origin of a request: the portal's headers when sent, else the connection's address and User-Agent. */
export function originOf(headers: Headers, socketAddress: string | undefined): RequestOrigin {
  const passedAddress = headers[CLIENT_ADDRESS_HEADER.toLowerCase()];
  const passedAgent = headers[CLIENT_USER_AGENT_HEADER.toLowerCase()];
  return {
    address: passedAddress !== undefined ? saneAddress(passedAddress) : saneAddress(socketAddress),
    userAgent: passedAgent !== undefined ? saneUserAgent(passedAgent) : saneUserAgent(headers["user-agent"]),
  };
}
