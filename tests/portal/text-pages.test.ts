import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Portal, startPortal } from "./portal-harness";

// spec 000 §2 "Site terms view and text pages" and 002 §2 (/core/site-terms-view): the core text
// pages against a real platform's site content, with and without -view (docs/decisions/024).

type Page = { page: { title: string; html: string } | null; back: string; title: string };
type Route = typeof import("~/routes/core.$segment/route");

let portal: Portal;
let route: Route;

beforeAll(async () => {
  portal = await startPortal();
  route = await import("~/routes/core.$segment/route");
}, 60_000);

afterAll(async () => {
  await portal?.close();
});

async function open(segment: string, cookie?: string): Promise<{ status: number; data: Page }> {
  const request = new Request(`http://portal.test/core/${segment}`, { headers: cookie ? { Cookie: cookie } : {} });
  const response = await route.loader({ request, params: { segment }, context: {} });
  return { status: response.status, data: (await response.json()) as Page };
}

describe("the core text pages", () => {
  it.each(["site-terms", "privacy-policy", "cookie-policy"])(
    "shows %s-view with the content of its base page",
    async (segment) => {
      const base = await open(segment);
      const view = await open(`${segment}-view`);
      expect(base.status).toBe(200);
      expect(view.status).toBe(200);
      expect(view.data.page).not.toBeNull();
      expect(view.data.page).toEqual(base.data.page);
      expect(view.data.title).toBe(base.data.title);
    },
  );

  it("shows the site terms' own heading and text at /core/site-terms-view, with Back to login when signed out", async () => {
    const { data } = await open("site-terms-view");
    expect(data.page?.title).toBe("Terms of use");
    expect(data.page?.html).toContain("<p>");
    expect(data.back).toBe("/login");
  });

  it("gives a signed-in client's Back link on a -view page too", async () => {
    const client = await portal.signIn("demo.client");
    expect((await open("privacy-policy-view", client)).data.back).toBe("/clients");
  });

  it("still answers 'Unknown page' for a -view of a segment that is not a page", async () => {
    for (const segment of ["no-such-page-view", "-view", "site-terms-view-view"]) {
      const { status, data } = await open(segment);
      expect(status).toBe(404);
      expect(data.page).toBeNull();
    }
  });
});
