import { request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { withPlatform } from "./harness";

// ASVS 4.0.3 V14.4.2 (issue 39, docs/decisions/169): the platform is an API. Every answer says
// nosniff, and a JSON answer (a result, an error, a refusal before any route) is a download named
// api.json; a file keeps its own name (tests/server/docnote.test.ts reads the attachments' names).

const harness = withPlatform();
const API = 'attachment; filename="api.json"';

describe("the platform's answers", () => {
  it("are JSON downloads named api.json, with nosniff: results, errors and unknown addresses", async () => {
    const answers = [
      await harness.platform.call("/xplan/health"),
      await harness.platform.call("/auth/login", {
        method: "POST",
        body: { username: "demo.client", password: "wrong" },
      }),
      await harness.platform.call("/resourceful/session/user"),
      await harness.platform.call("/no/such/path"),
    ];
    for (const answer of answers) {
      expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
      expect(answer.headers.get("content-disposition")).toBe(API);
      expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it("are so when the guard refuses a host before any route", async () => {
    const port = Number(new URL(harness.platform.baseUrl).port);
    const headers = await new Promise<Record<string, string | string[] | undefined>>((resolve, reject) => {
      const req = httpRequest(
        { host: "127.0.0.1", port, path: "/xplan/health", headers: { Host: "rebound.example" }, agent: false },
        (res) => {
          res.resume();
          expect(res.statusCode).toBe(403);
          resolve(res.headers);
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(headers["content-disposition"]).toBe(API);
    expect(headers["x-content-type-options"]).toBe("nosniff");
  });
});
