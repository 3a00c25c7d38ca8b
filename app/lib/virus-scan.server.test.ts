import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EICAR, EICAR_SIGNATURE, startClamd } from "../../scripts/clamd.mjs";
import { parseClamdAddress, scanForViruses } from "./virus-scan.server";

// ASVS V12.4.2 (docs/decisions/192): clamd's verdict through clamscan, against a clamd of the test's
// own with the EICAR test file's signature (scripts/clamd.mjs). A machine without clamd fails here.

let clamd: Awaited<ReturnType<typeof startClamd>>;
beforeAll(async () => {
  clamd = await startClamd();
}, 90_000);
afterAll(() => clamd?.stop());

describe("scanForViruses", () => {
  it("passes a clean file", async () => {
    const pdf = new TextEncoder().encode("%PDF-1.4\n1 0 obj <<>> endobj\n%%EOF\n");
    expect(await scanForViruses({ socket: clamd.socket }, pdf)).toEqual({ verdict: "clean" });
  });

  it("finds the EICAR test file alone, and inside a larger file, by its signature's name", async () => {
    expect(await scanForViruses({ socket: clamd.socket }, EICAR)).toEqual({
      verdict: "infected",
      signatures: [EICAR_SIGNATURE],
    });
    const large = Buffer.concat([Buffer.alloc(3_000_000, 0x20), EICAR, Buffer.alloc(3_000_000, 0x20)]);
    expect(await scanForViruses({ socket: clamd.socket }, large)).toMatchObject({ verdict: "infected" });
  });

  it("says unavailable, never clean, when clamd cannot be reached or does not answer", async () => {
    const absent = await scanForViruses({ socket: `${clamd.socket}.absent` }, EICAR);
    expect(absent).toMatchObject({ verdict: "unavailable", reason: expect.stringMatching(/ENOENT/) });
    // a port where something accepts the connection and never answers
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const started = Date.now();
      const result = await scanForViruses({ host: "127.0.0.1", port }, EICAR, 500);
      expect(result).toMatchObject({ verdict: "unavailable" });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      silent.close();
    }
  });
});

describe("parseClamdAddress", () => {
  it("reads a socket path, host:port and [v6]:port; off is null; anything else undefined", () => {
    expect(parseClamdAddress("/run/clamav/clamd.ctl")).toEqual({ socket: "/run/clamav/clamd.ctl" });
    expect(parseClamdAddress(" clamav.internal:3310 ")).toEqual({ host: "clamav.internal", port: 3310 });
    expect(parseClamdAddress("[fd00::5]:3310")).toEqual({ host: "fd00::5", port: 3310 });
    expect(parseClamdAddress("off")).toBeNull();
    for (const wrong of ["", "clamd.ctl", "host", "host:", "host:0", "host:65536", "http://host:3310", "OFF"])
      expect(parseClamdAddress(wrong), wrong).toBeUndefined();
  });
});
