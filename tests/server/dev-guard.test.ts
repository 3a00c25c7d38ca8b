import { request as httpRequest } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { readEnv } from "../../server/env";
import { CALLER, type OutboxRow, startPlatform, withPlatform } from "./harness";

// Finding 10 (docs/decisions/114): the development endpoints answer the demo's own tools, never a
// page the user's browser happens to visit (a cross-site form or fetch, or a DNS-rebound host name).

const harness = withPlatform();
let port: number;
beforeAll(async () => {
  port = Number(new URL(harness.platform.baseUrl).port);
});

/** A raw request (fetch cannot set Host): every header as given, and the caller key (docs/decisions/186). */
function raw(
  path: string,
  { method = "GET", headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        headers: { Host: `127.0.0.1:${port}`, ...CALLER, ...headers },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const json = { "Content-Type": "application/json" };

describe("the development endpoints refuse what a cross-site page can send", () => {
  it("a text/plain POST (a form or no-cors fetch from any page) is refused and changes nothing", async () => {
    const copied = await raw("/dev/users/demo.client/copy", {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: JSON.stringify({ username: "cross.site.copy" }),
    });
    expect(copied.status).toBe(415);
    expect(JSON.parse(copied.body)).toMatchObject({ api_message: expect.stringMatching(/application\/json/) });
    const later = await raw("/dev/users/demo.client/copy", {
      method: "POST",
      headers: json,
      body: JSON.stringify({ username: "cross.site.copy" }),
    });
    expect(later.status).toBe(201); // the refused copy was never made
  });

  it("a form post and a body-less POST are refused; the same call as JSON is answered", async () => {
    const form = await raw("/dev/maintenance", {
      method: "PUT",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "maintenance=true",
    });
    expect(form.status).toBe(415);
    expect((await raw("/dev/users/demo.lockout/unlock", { method: "POST" })).status).toBe(415);
    expect(
      (
        await raw("/dev/users/demo.lockout/unlock", {
          method: "POST",
          headers: { "Content-Type": "application/json; charset=utf-8" },
          body: "{}",
        })
      ).status,
    ).toBe(200);
  });

  it("a foreign Origin is refused, even with a JSON body; the platform's own origin is not", async () => {
    for (const origin of ["https://evil.example", "null", `http://localhost:${port + 1}`]) {
      const answer = await raw("/dev/maintenance", {
        method: "PUT",
        headers: { ...json, Origin: origin },
        body: JSON.stringify({ maintenance: true }),
      });
      expect(answer.status, origin).toBe(403);
    }
    const own = await raw("/dev/maintenance", {
      method: "PUT",
      headers: { ...json, Origin: `http://127.0.0.1:${port}` },
      body: JSON.stringify({ maintenance: false }),
    });
    expect(own.status).toBe(200);
    expect(JSON.parse(own.body)).toEqual({ maintenance: false, status: "GOOD" });
  });

  it("reading the outbox from another site is refused (foreign Origin, or Sec-Fetch-Site cross-site or same-site)", async () => {
    expect((await raw("/dev/outbox", { headers: { Origin: "https://evil.example" } })).status).toBe(403);
    expect((await raw("/dev/outbox", { headers: { "Sec-Fetch-Site": "cross-site" } })).status).toBe(403);
    expect((await raw("/dev/outbox", { headers: { "Sec-Fetch-Site": "same-site" } })).status).toBe(403);
    // the demo's tools (no Origin; a typed-in address is Sec-Fetch-Site none) still read it
    expect((await raw("/dev/outbox")).status).toBe(200);
    expect((await raw("/dev/outbox", { headers: { "Sec-Fetch-Site": "none" } })).status).toBe(200);
    expect((await raw("/dev/outbox", { headers: { "Sec-Fetch-Site": "same-origin" } })).status).toBe(200);
    expect(Array.isArray((await harness.platform.call<OutboxRow[]>("/dev/outbox")).body)).toBe(true);
  });
});

describe("the development platform answers only its configured host names (DNS rebinding)", () => {
  it("refuses a request whose Host is another name, on /dev and on the API", async () => {
    for (const host of [
      `evil.example:${port}`,
      "evil.example",
      `127.0.0.1.evil.example:${port}`,
      `localhost.:${port}`,
    ]) {
      const dev = await raw("/dev/outbox", { headers: { Host: host } });
      expect(dev.status, host).toBe(403);
      expect(JSON.parse(dev.body)).toMatchObject({ api_message: "Host not allowed" });
      const login = await raw("/auth/login", {
        method: "POST",
        headers: { ...json, Host: host },
        body: JSON.stringify({ username: "demo.client", password: "Demo-pass-1", user_type: "client" }),
      });
      expect(login.status, host).toBe(403);
    }
  });

  it("answers localhost, 127.0.0.1 and [::1], with any port (a local relay forwards its own)", async () => {
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, "LOCALHOST", "127.0.0.1:1"]) {
      expect((await raw("/xplan/health", { headers: { Host: host } })).status, host).toBe(200);
      expect((await raw("/dev/outbox?to=nobody", { headers: { Host: host } })).status, host).toBe(200);
    }
  });

  it("PLATFORM_ALLOWED_HOSTS replaces the list: names (any port) or name:port", async () => {
    const env = readEnv({
      NODE_ENV: "development",
      PLATFORM_ALLOWED_HOSTS: "harness.platform.internal, demo.example:8080",
    });
    expect(env.allowedHosts).toEqual(["harness.platform.internal", "demo.example:8080"]);
    expect(readEnv({ NODE_ENV: "development" }).allowedHosts).toBeUndefined();
    expect(() => readEnv({ NODE_ENV: "development", PLATFORM_ALLOWED_HOSTS: "http://x.example/" })).toThrow(
      /PLATFORM_ALLOWED_HOSTS/,
    );
    const other = await startPlatform({ allowedHosts: env.allowedHosts });
    try {
      const p = Number(new URL(other.baseUrl).port);
      const at = (host: string) =>
        new Promise<number>((resolve, reject) => {
          const req = httpRequest(
            { host: "127.0.0.1", port: p, path: "/xplan/health", headers: { Host: host, ...CALLER }, agent: false },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          );
          req.on("error", reject);
          req.end();
        });
      expect(await at("harness.platform.internal:3100")).toBe(200);
      expect(await at("demo.example:8080")).toBe(200);
      expect(await at("demo.example:8081")).toBe(403);
      expect(await at(`127.0.0.1:${p}`)).toBe(403);
    } finally {
      await other.close();
    }
  });

  it("in production (no /dev) the Host is not checked unless PLATFORM_ALLOWED_HOSTS is set", async () => {
    const prod = await startPlatform({ nodeEnv: "production" });
    try {
      const p = Number(new URL(prod.baseUrl).port);
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          {
            host: "127.0.0.1",
            port: p,
            path: "/xplan/health",
            headers: { Host: "harness.platform.example.com", ...CALLER },
            agent: false,
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end();
      });
      expect(status).toBe(200);
      expect((await prod.call("/dev/outbox")).status).toBe(404);
    } finally {
      await prod.close();
    }
  });
});

describe("paths that reach /dev another way are held to the same rules", () => {
  it("dot segments and encoded dots", async () => {
    for (const path of [
      "/x/../dev/users/demo.lockout/unlock",
      "/%2e/dev/users/demo.lockout/unlock",
      "/dev/users/demo.lockout/unlock/",
    ]) {
      expect(
        (await raw(path, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "{}" })).status,
        path,
      ).toBe(415);
    }
  });
});
