import { request as httpRequest } from "node:http";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readEnv } from "../../server/env";
import { createLogger, logLevelOf } from "../../server/lib/logger";
import { currentRequestId, requestIdOf, runWithRequestId } from "../../server/lib/request-id";
import { CALLER, withPlatform } from "./harness";

// issue 26: the platform answers with the caller's request id (or its own), and every line it logs
// about a request carries that id; secrets given in the fields are never written.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
      done();
    },
  });
  return { destination, lines, events: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const log = capture();
const harness = withPlatform({ logger: createLogger("info", log.destination) });

/** A GET with the headers given (Host included, which fetch would not send as given). */
function get(path: string, headers: Record<string, string>) {
  const { port } = new URL(harness.platform.baseUrl);
  return new Promise<{ status: number; requestId: string | undefined }>((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, headers: { ...CALLER, ...headers } }, (res) => {
      res.resume();
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, requestId: res.headers["x-request-id"] as string | undefined }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

const linesOf = (requestId: string) => log.events().filter((e) => e.requestId === requestId);

describe("the platform's request id", () => {
  it("keeps a sane id and makes one otherwise (the portal's rule)", () => {
    expect(requestIdOf("0f8b3c2e9a1d4c5b8e7f6a5b4c3d2e1f")).toBe("0f8b3c2e9a1d4c5b8e7f6a5b4c3d2e1f");
    expect(requestIdOf(["lb:1.a_b-c", "other"])).toBe("lb:1.a_b-c");
    for (const bad of [undefined, "", "a".repeat(129), "has space", "new\nline", "é"])
      expect(requestIdOf(bad)).toMatch(UUID);
  });

  it("answers with the caller's X-Request-Id and logs the request's line with it, without the query", async () => {
    const answer = await harness.platform.call("/xplan/health?name=Hartley");
    expect(answer.headers.get("x-request-id")).toMatch(UUID);
    const given = "portal-7f3a.1";
    const res = await fetch(`${harness.platform.baseUrl}/xplan/health?name=Hartley`, {
      headers: { ...CALLER, "X-Request-Id": given },
    });
    expect(res.headers.get("x-request-id")).toBe(given);
    await res.text();
    await new Promise((r) => setTimeout(r, 20));
    const [line, ...others] = linesOf(given);
    expect(others).toEqual([]);
    expect(line).toMatchObject({
      level: "info",
      message: "request",
      method: "GET",
      path: "/xplan/health",
      status: res.status,
      requestId: given,
    });
    expect(typeof line!.ms).toBe("number");
    expect(log.lines.join("\n")).not.toContain("Hartley");
  });

  it("replaces an id that is not sane with its own", async () => {
    const res = await fetch(`${harness.platform.baseUrl}/xplan/health`, {
      headers: { ...CALLER, "X-Request-Id": 'forged"id with spaces' },
    });
    await res.text();
    const made = res.headers.get("x-request-id")!;
    expect(made).toMatch(UUID);
    await new Promise((r) => setTimeout(r, 20));
    expect(linesOf(made).map((e) => e.message)).toEqual(["request"]);
    expect(log.lines.join("\n")).not.toContain("forged");
  });

  it("puts the id on the other lines of the request too: a refused host's warning", async () => {
    const answer = await get("/xplan/health", { Host: "rebound.example", "X-Request-Id": "refused-1" });
    expect(answer).toEqual({ status: 403, requestId: "refused-1" });
    await new Promise((r) => setTimeout(r, 20));
    expect(linesOf("refused-1").map((e) => [e.level, e.message, e.status])).toEqual([
      ["warn", "request refused", 403],
      ["info", "request", 403],
    ]);
  });
});

describe("the platform's logger", () => {
  it("is at PLATFORM_LOG_LEVEL, else info, or errors only under NODE_ENV=test", () => {
    expect(logLevelOf(readEnv({ NODE_ENV: "development" }))).toBe("info");
    expect(
      logLevelOf(
        readEnv({
          NODE_ENV: "production",
          PLATFORM_SECRET_KEYS: "k".repeat(64),
          PLATFORM_CLAMD_ADDRESS: "off",
          PLATFORM_PEPPER_KEYS: "p".repeat(64),
          PLATFORM_CALLER_KEYS: "c".repeat(64),
          PLATFORM_DB_KEYS: "d".repeat(64),
        }),
      ),
    ).toBe("info");
    expect(logLevelOf(readEnv({ NODE_ENV: "test" }))).toBe("error");
    expect(logLevelOf(readEnv({ NODE_ENV: "test", PLATFORM_LOG_LEVEL: "info" }))).toBe("info");
    expect(() => readEnv({ NODE_ENV: "development", PLATFORM_LOG_LEVEL: "loud" })).toThrow(/PLATFORM_LOG_LEVEL/);
  });

  it("writes the request's id from the context, and never a secret, code, answer, token or cookie", async () => {
    const out = capture();
    const logger = createLogger("debug", out.destination);
    logger.info("outside");
    await runWithRequestId("ctx-1", async () => {
      await new Promise((r) => setTimeout(r, 1));
      expect(currentRequestId()).toBe("ctx-1");
      logger.warn(
        {
          username: "demo.client",
          password: "Pa55-word",
          code: "493021",
          answers: ["Rex"],
          token_secret: "JBSWY3DP",
          token: "sess-tok",
          headers: { cookie: "XPLANID=abc123" },
        },
        "sign-in step",
      );
    });
    const [outside, inside] = out.events();
    expect(outside).toMatchObject({ level: "info", message: "outside" });
    expect(outside!.requestId).toBeUndefined();
    expect(inside).toMatchObject({
      level: "warn",
      requestId: "ctx-1",
      username: "demo.client",
      password: "[Redacted]",
      headers: { cookie: "[Redacted]" },
    });
    for (const secret of ["Pa55-word", "493021", "Rex", "JBSWY3DP", "sess-tok", "abc123"])
      expect(out.lines.join("\n")).not.toContain(secret);
  });
});
