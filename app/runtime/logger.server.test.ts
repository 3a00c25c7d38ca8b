import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import type { LogLevel } from "./env.server";
import { createLogger, messageFirst } from "./logger.server";
import { runWithRequestId } from "./request-id.server";

// issue 26: the portal's logs are pino's JSON lines, with the request's id, and no secret.

function capture(level: LogLevel = "debug") {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
      done();
    },
  });
  const log = messageFirst(createLogger(level, destination));
  return { log, lines, events: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe("the portal's logger", () => {
  it("writes one JSON line per event: ISO time, level name, message, fields", () => {
    const { log, events } = capture();
    log.info("sign-in", { userId: 7, outcome: "signed in" });
    log.error("render failed");
    const [info, error] = events();
    expect(info).toMatchObject({ level: "info", message: "sign-in", userId: 7, outcome: "signed in" });
    expect(new Date(String(info!.time)).toISOString()).toBe(info!.time);
    expect(error).toMatchObject({ level: "error", message: "render failed" });
  });

  it("honours the level: silent writes nothing, error only errors, info no debug", () => {
    const silent = capture("silent");
    silent.log.error("x");
    expect(silent.lines).toEqual([]);
    const errors = capture("error");
    errors.log.info("x");
    errors.log.warn("y");
    errors.log.error("z");
    expect(errors.events().map((e) => e.message)).toEqual(["z"]);
    const info = capture("info");
    info.log.debug("a");
    info.log.info("b");
    info.log.warn("c");
    expect(info.events().map((e) => e.level)).toEqual(["info", "warn"]);
  });

  it("puts the request's id on every line written during the request, and none outside", async () => {
    const { log, events } = capture();
    log.info("before");
    await runWithRequestId("nginx-5f0c", async () => {
      log.info("first");
      await new Promise((r) => setTimeout(r, 1));
      log.error("after an await", { status: 502 });
    });
    log.info("after");
    expect(events().map((e) => [e.message, e.requestId])).toEqual([
      ["before", undefined],
      ["first", "nginx-5f0c"],
      ["after an await", "nginx-5f0c"],
      ["after", undefined],
    ]);
  });

  it("never writes a password, secret, code, answer, memorable word, token or cookie given in the fields", () => {
    const { log, lines, events } = capture();
    const secrets = {
      password: "Pa55-word-1",
      newPassword: "N3w-pass-2",
      secret: "s3cr3t-value",
      token_secret: "JBSWY3DPEHPK3PXP",
      code: "493021",
      answers: ["first pet Rex"],
      memorableWord: "aubergine",
      token: "xplan-session-token",
      login_ticket: "ticket-abc",
      cookie: "__session=sealed-cookie",
    };
    log.info("sign-in step", { username: "demo.client", ...secrets, "set-cookie": "__session=another" });
    log.warn("request", {
      headers: { cookie: "XPLANID=abc123", "set-cookie": "XPLANID=def456", authorization: "Bearer tok-789" },
    });
    log.error("nested", {
      req: { headers: { cookie: "XPLANID=ghi012" } },
      body: { username: "demo.client", code: "775511", memorableWord: "aubergine" },
    });
    const text = lines.join("\n");
    for (const value of [
      ...Object.values(secrets).flat(),
      "abc123",
      "def456",
      "tok-789",
      "ghi012",
      "775511",
      "__session=another",
    ])
      expect(text).not.toContain(value);
    const [first, second, third] = events();
    expect(first).toMatchObject({
      username: "demo.client",
      password: "[Redacted]",
      code: "[Redacted]",
      cookie: "[Redacted]",
    });
    expect(second!.headers).toEqual({ cookie: "[Redacted]", "set-cookie": "[Redacted]", authorization: "[Redacted]" });
    expect(third!.body).toEqual({ username: "demo.client", code: "[Redacted]", memorableWord: "[Redacted]" });
  });
});
