import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPortalApp, importBuild } from "../../scripts/portal-app.mjs";

// ASVS 4.0.3 V8.3.1 (docs/decisions/189): the portal's own log lines about a request (the request
// line, a refusal) carry its path, never its query. The adviser's client search keeps its criteria
// in the URL (decision 031), so a name, a date of birth and a postcode are in the query of every
// search; nginx's access log writes the path only too (tests/deploy/nginx-logs.test.ts).

type Line = { level: string; message: string } & Record<string, unknown>;
const lines: Line[] = [];
(globalThis as { __portalLogLines?: Line[] }).__portalLogLines = lines;

const SEARCH = "/advisers/clients?name=Pemberton&dob=23%2F04%2F1961&postcode=SW1A+1AA&sort=name";
const TYPED = ["Pemberton", "1961", "SW1A", "name=", "?"];

let server: Server;
let base: string;

beforeAll(async () => {
  // a stand-in server build: its entry's logger records the lines; Remix has no route to answer with
  const build = await importBuild(new URL("./portal-build-stand-in.mjs", import.meta.url).href);
  expect(build).not.toBeNull();
  const app = await createPortalApp(build!);
  server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()) ?? resolve());
});

describe("the portal's log lines about a request", () => {
  it("carry a search's path, never its query", async () => {
    await (await fetch(`${base}${SEARCH}`, { headers: { "X-Request-Id": "search-1" } })).text();
    const request = lines.find((line) => line.message === "request" && line.requestId === "search-1");
    expect(request).toMatchObject({ method: "GET", path: "/advisers/clients" });
    // a refusal too (a method no page takes)
    await (await fetch(`${base}${SEARCH}`, { method: "PUT", headers: { "X-Request-Id": "search-2" } })).text();
    const refused = lines.find((line) => line.message === "request refused");
    expect(refused).toMatchObject({ method: "PUT", path: "/advisers/clients", status: 405 });
    for (const typed of TYPED) expect(JSON.stringify(lines)).not.toContain(typed);
  });
});
