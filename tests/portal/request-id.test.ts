import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../server/lib/logger";
import { type Portal, startPortal } from "./portal-harness";

// issue 26: every platform call a request makes carries the request's id, so that one id finds the
// request in the portal's and the platform's logs.

const lines: string[] = [];
const destination = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    done();
  },
});
const platformRequests = (requestId: string) =>
  lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((e) => e.message === "request" && e.requestId === requestId);

let portal: Portal;
let runWithRequestId: typeof import("~/runtime/request-id.server").runWithRequestId;

beforeAll(async () => {
  portal = await startPortal({ logger: createLogger("info", destination) });
  ({ runWithRequestId } = await import("~/runtime/request-id.server"));
}, 60_000);

afterAll(async () => {
  await portal?.close();
});

describe("the request id on platform calls", () => {
  it("is sent on every platform call of a page's loader, batches included", async () => {
    const cookie = await portal.signIn("demo.client");
    const home = await import("~/routes/clients.home/route");
    const requestId = "nginx-0f8b3c2e9a1d4c5b";
    const before = lines.length;
    const response = await runWithRequestId(requestId, () =>
      home.loader({
        request: new Request("http://portal.test/clients/home", { headers: { Cookie: cookie } }),
        params: {},
        context: {},
      }),
    );
    expect((response as Response).status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    const calls = platformRequests(requestId);
    const during = lines.slice(before).filter((line) => line.includes('"message":"request"'));
    expect(calls.length).toBeGreaterThan(1);
    expect(calls).toHaveLength(during.length);
    expect(calls.map((c) => c.path)).toContain("/resourceful");
    expect(calls.every((c) => c.status === 200)).toBe(true);
  });

  it("is not sent outside a request: the platform makes its own", async () => {
    const before = lines.length;
    await portal.signIn("demo.assets");
    await new Promise((r) => setTimeout(r, 50));
    const made = lines
      .slice(before)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((e) => e.message === "request");
    expect(made.length).toBeGreaterThan(0);
    expect(made.every((e) => /^[0-9a-f-]{36}$/.test(String(e.requestId)))).toBe(true);
  });
});
