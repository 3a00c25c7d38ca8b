import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Portal, setFeatureToggle, startPortal } from "./portal-harness";

// spec 000 §4 "Additional verification flow" step 2: with one method (or none) the page offers a
// return button, and 'Contact your adviser' unless one-way messaging is enabled.

let portal: Portal;
let single: string;

type Page = typeof import("~/routes/clients.additional-verification/route");
let page: Page;

const setOneWay = (enabled: boolean) => setFeatureToggle(portal, "one_way_messaging", enabled);

async function view(cookie: string) {
  const response = await page.loader({
    request: new Request("http://portal.test/clients/additional-verification", { headers: { Cookie: cookie } }),
    params: {},
    context: {},
  });
  expect(response.status).toBe(200);
  return response.json();
}

beforeAll(async () => {
  portal = await startPortal();
  page = await import("~/routes/clients.additional-verification/route");
  single = await portal.signInWithCode("demo.single");
});

afterAll(async () => {
  await portal?.close();
});

describe("'Contact your adviser' on the single-method view (spec 000 §4)", () => {
  it("is offered while one-way messaging is off", async () => {
    setOneWay(false);
    expect(await view(single)).toMatchObject({ view: "single", contactAdviser: true });
  });

  it("is left out while one-way messaging is on", async () => {
    setOneWay(true);
    try {
      expect(await view(single)).toMatchObject({ view: "single", contactAdviser: false });
    } finally {
      setOneWay(false);
    }
  });
});
