import type { ActionFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Portal, startPortal, thrown } from "./portal-harness";

// Conventions: anonymous forms carry the honeypot. The shell's cookie notice (spec 000 §2 "Global
// cookie notice") and language chooser are posted by signed-out visitors (docs/decisions/022).

let portal: Portal;

beforeAll(async () => {
  portal = await startPortal();
}, 60_000);

afterAll(async () => {
  await portal?.close();
});

type Action = (args: ActionFunctionArgs) => Promise<Response>;

/** A signed-out visitor's post, with the honeypot as the shell renders it and `trap` typed into it. */
async function post(action: Action, path: string, fields: Record<string, string>, trap: string): Promise<Response> {
  const { body, cookie } = await portal.anonymousForm(fields, trap);
  const request = new Request(`http://portal.test${path}`, {
    method: "POST",
    body,
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
  });
  return thrown(action({ request, params: {}, context: {} }));
}

describe("the cookie notice's Accept", () => {
  it("is accepted with the honeypot left empty", async () => {
    const { action } = await import("~/routes/cookie-consent/route");
    const response = await post(action, "/cookie-consent", { redirectTo: "/login" }, "");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login");
    expect(response.headers.get("Set-Cookie")).toMatch(/^cookie_consent=/);
  });

  it("is refused, remembering nothing, when the honeypot is filled", async () => {
    const { action } = await import("~/routes/cookie-consent/route");
    const response = await post(action, "/cookie-consent", { redirectTo: "/login", inline: "true" }, "bot@example.com");
    expect(response.status).toBe(400);
    expect(await response.text()).toBe("Form not submitted properly");
    expect(response.headers.get("Set-Cookie")).toBeNull();
  });
});

describe("the language chooser", () => {
  it("is accepted with the honeypot left empty", async () => {
    const { action } = await import("~/routes/locale/route");
    const response = await post(action, "/locale", { lng: "fr-CA", redirectTo: "/login" }, "");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login");
    expect(response.headers.get("Set-Cookie")).toMatch(/^lng=/);
  });

  it("is refused, changing nothing, when the honeypot is filled", async () => {
    const { action } = await import("~/routes/locale/route");
    const response = await post(action, "/locale", { lng: "fr-CA", redirectTo: "/login" }, "Français");
    expect(response.status).toBe(400);
    expect(await response.text()).toBe("Form not submitted properly");
    expect(response.headers.get("Set-Cookie")).toBeNull();
  });
});
