import { describe, expect, it } from "vitest";
import { CALLER, withPlatform } from "./harness";

// Decision 160: the platform writes its JSON answers itself, with the bytes and headers Express's
// res.json wrote: the content type with its charset, the length in bytes, no body to a HEAD.

const harness = withPlatform();

async function raw(path: string, init: RequestInit & { token?: string } = {}) {
  const { token, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (token) headers.set("Cookie", `XPLANID=${token}`);
  headers.set("X-Xplan-Auth-Failure-Action", "error");
  for (const [name, value] of Object.entries(CALLER)) headers.set(name, value);
  return fetch(`${harness.platform.baseUrl}${path}`, { ...rest, headers });
}

describe("the platform's JSON answers", () => {
  it("carry the content type with its charset and the length in bytes of what they send", async () => {
    const token = await harness.platform.session("demo.client");
    const response = await raw("/resourceful/session/user", { token });
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(Number(response.headers.get("content-length"))).toBe(bytes.length);
    expect(JSON.parse(bytes.toString("utf8"))).toMatchObject({ role_name: "ClientUser" });
  });

  it("send no body to a HEAD (which no route takes: a 405), with the headers of the answer", async () => {
    const token = await harness.platform.session("demo.client");
    const head = await raw("/resourceful/session/user", { token, method: "HEAD" });
    expect(head.status).toBe(405);
    expect(await head.text()).toBe("");
    expect(head.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const error = JSON.stringify({ api_message: "Method HEAD not allowed on /resourceful/session/user" });
    expect(Number(head.headers.get("content-length"))).toBeGreaterThan(error.length);
  });
});
