import { Readable } from "node:stream";
import NodeClam from "clamscan";

// ASVS V12.4.2: every file a client uploads is scanned by ClamAV's daemon (clamd) before it is
// stored, through clamscan, a maintained client of clamd's INSTREAM command (the bytes go over the
// socket; clamd needs no access to a file). docs/decisions/192-uploads-scanned-for-viruses.md. The
// portal keeps the same code (app/lib/virus-scan.server.ts, to answer by the field at once); the
// platform trusts no client. tests/contract/attachment-rules.test.ts holds the two equal.

/** Where clamd listens: its local socket, or a host and a TCP port. */
export type ClamdAddress = { socket: string } | { host: string; port: number };

/** What the scan of one file found; "unavailable" when clamd could not say (down, timed out, refused). */
type ScanVerdict =
  { verdict: "clean" } | { verdict: "infected"; signatures: string[] } | { verdict: "unavailable"; reason: string };

/** How long one file may take, connection included: a 10 MB file takes well under a second. */
const SCAN_TIMEOUT_MS = 30_000;

/** The word that turns scanning off, explicitly (production requires an address or this). */
export const SCANNING_OFF = "off";

/**
 * An address as the environment gives it: an absolute path (clamd's LocalSocket), `host:port`
 * or `[v6]:port` (its TCPSocket and TCPAddr); `off` is null. Anything else is undefined: refused.
 */
export function parseClamdAddress(value: string): ClamdAddress | null | undefined {
  const text = value.trim();
  if (text === SCANNING_OFF) return null;
  if (text.startsWith("/")) return { socket: text };
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?):(\d{1,5})$/i.exec(text);
  const port = match ? Number(match[2]) : 0;
  if (!match || port < 1 || port > 65_535) return undefined;
  return { host: match[1]!.replace(/^\[|\]$/g, ""), port };
}

/** How an address is written in logs and messages. */
export const describeClamdAddress = (address: ClamdAddress) =>
  "socket" in address ? address.socket : `${address.host}:${address.port}`;

const scanners = new Map<string, Promise<NodeClam>>();

/**
 * A client for one address, made once. Only clamd over its socket: no local binary is looked for
 * or run (no path), none is fallen back to, and clamd is not asked at start (an upload asks it).
 */
function scannerFor(address: ClamdAddress, timeoutMs: number): Promise<NodeClam> {
  const key = `${describeClamdAddress(address)} ${timeoutMs}`;
  let scanner = scanners.get(key);
  if (!scanner) {
    scanner = new NodeClam().init({
      removeInfected: false,
      debugMode: false,
      clamscan: { active: false, path: "" },
      clamdscan: {
        ...("socket" in address ? { socket: address.socket } : { host: address.host, port: address.port }),
        path: "",
        timeout: timeoutMs,
        localFallback: false,
        active: true,
        bypassTest: true,
      },
      preference: "clamdscan",
    });
    scanners.set(key, scanner);
    // a failed set-up is not kept: the next upload tries again
    scanner.catch(() => scanners.delete(key));
  }
  return scanner;
}

/** Scans one file's bytes with the clamd at `address`; never throws. */
export async function scanForViruses(
  address: ClamdAddress,
  bytes: Uint8Array,
  timeoutMs: number = SCAN_TIMEOUT_MS,
): Promise<ScanVerdict> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const scanner = await Promise.race([scannerFor(address, timeoutMs), timedOut]);
    const stream = Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]);
    const result = await Promise.race([scanner.scanStream(stream), timedOut]);
    if (result.isInfected === true) return { verdict: "infected", signatures: result.viruses ?? [] };
    if (result.isInfected === false) return { verdict: "clean" };
    return { verdict: "unavailable", reason: "clamd gave no verdict" };
  } catch (error) {
    return { verdict: "unavailable", reason: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}
