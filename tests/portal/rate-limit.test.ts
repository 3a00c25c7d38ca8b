import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Portal, startPortal } from "./portal-harness";

// docs/decisions/046: sign-in posts are limited per client address, read behind one trusted proxy.
process.env.TRUST_PROXY_HOPS = "1";

let portal: Portal;
beforeAll(async () => {
  portal = await startPortal();
});
afterAll(() => portal.close());

async function postLogin(address: string, username: string) {
  const route = await import("~/routes/login");
  const { honeypot } = await import("~/session/csrf.server");
  const { token, cookie } = await portal.csrf();
  const trap = await honeypot.getInputProps();
  const body = new URLSearchParams({
    csrf: token,
    [trap.nameFieldName]: "",
    [trap.validFromFieldName ?? "from__confirm"]: trap.encryptedValidFrom ?? "",
    userType: "client",
    username,
    password: "not-the-password",
  });
  const request = new Request("http://portal.test/login", {
    method: "POST",
    body,
    headers: {
      Cookie: cookie,
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Forwarded-For": `198.51.100.7, ${address}`,
    },
  });
  return (await route.action({ request, params: {}, context: {} })) as Response;
}

describe("the sign-in rate limit", () => {
  it("refuses the 21st sign-in post of an address within 5 minutes, keeping the username", async () => {
    for (let attempt = 1; attempt <= 20; attempt++) {
      expect((await postLogin("203.0.113.9", "nobody.here")).status).toBe(401);
    }
    const refused = await postLogin("203.0.113.9", "nobody.here");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    const data = (await refused.json()) as { alert?: { key: string }; result?: { initialValue?: Record<string, unknown> } };
    expect(data.alert?.key).toBe("steps.rateLimited");
    expect(data.result?.initialValue?.username).toBe("nobody.here");
    expect(data.result?.initialValue?.password).toBeUndefined();
  });

  it("counts each address apart: only the entry the trusted proxy wrote counts", async () => {
    expect((await postLogin("203.0.113.10", "nobody.here")).status).toBe(401);
  });
});
