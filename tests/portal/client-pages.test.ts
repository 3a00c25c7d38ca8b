import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Portal, startPortal, thrown, signInDemoUsers, callLoader, type LoaderModule } from "./portal-harness";

let portal: Portal;
let client: string;
let assets: string;
let messages: string;
let adviser: string;
let adviserWithClient: string;

async function data(module: LoaderModule, path: string, cookie: string) {
  const response = await callLoader(module, path, cookie);
  expect(response.status).toBe(200);
  return response.json();
}

beforeAll(async () => {
  portal = await startPortal();
  ({ client, assets, messages, adviser, adviserWithClient } = await signInDemoUsers(portal));
});
afterAll(() => portal.close());

describe("index routing (spec 000 §2)", () => {
  it("sends an adviser from /advisers to the client list, and denies anyone else", async () => {
    const index = await import("~/routes/advisers._index/route");
    expect((await thrown(callLoader(index, "/advisers", adviser))).headers.get("Location")).toBe("/advisers/clients");
    expect((await thrown(callLoader(index, "/advisers", client))).status).toBe(403);
  });

  it("sends /clients to home for Portfolio and Assets, else to documents and messages", async () => {
    const index = await import("~/routes/clients._index/route");
    const location = async (cookie: string) =>
      (await thrown(callLoader(index, "/clients", cookie))).headers.get("Location");
    expect(await location(client)).toBe("/clients/home");
    expect(await location(assets)).toBe("/clients/home");
    expect(await location(messages)).toBe("/clients/documents-and-messages");
    expect(await location(adviserWithClient)).toBe("/clients/home");
  });

  it("gates the clients section: an adviser without a client goes to the client list", async () => {
    const layout = await import("~/routes/clients/route");
    expect((await thrown(callLoader(layout, "/clients/home", adviser))).headers.get("Location")).toBe(
      "/advisers/clients",
    );
    expect((await callLoader(layout, "/clients/home", client)).status).toBe(200);
    const anonymous = await thrown(callLoader(layout, "/clients/home", ""));
    expect(anonymous.headers.get("Location")).toMatch(/^\/login/);
  });
});

describe("clients home", () => {
  it("greets the client by preferred (or first) name with the last login", async () => {
    const home = await import("~/routes/clients.home/route");
    const page = await data(home, "/clients/home", client);
    expect(page.firstName).toBe("Ellie"); // her preferred name
    expect(page.lastLogin).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4} \d{1,2}:\d{2} \S+$/);
    expect(page.viewingAs).toBeNull();
  });

  it("greets the client in context for an adviser", async () => {
    const home = await import("~/routes/clients.home/route");
    const page = await data(home, "/clients/home", adviserWithClient);
    expect(page.firstName).toBe("Ellie"); // her preferred name
    expect(page.viewingAs).toMatch(/Hartley/);
    expect(page.isPreviewMode).toBe(false);
  });

  it("is for Portfolio and Assets only", async () => {
    const home = await import("~/routes/clients.home/route");
    expect((await data(home, "/clients/home", assets)).firstName).toBeTruthy();
    expect((await thrown(callLoader(home, "/clients/home", messages))).status).toBe(403);
  });
});

describe("personal details", () => {
  it("shows the client's details with the intro panel", async () => {
    const route = await import("~/routes/clients.personal-details/route");
    const page = await data(route, "/clients/personal-details", client);
    expect(page.showIntro).toBe(true);
    const firstName = page.personal.find((i: { id: string }) => i.id === "first-name");
    expect(firstName.values).toEqual([{ text: "Eleanor" }]);
    const mobile = page.contacts.find((i: { id: string }) => i.id === "mobile-phone");
    expect(mobile.values[0].href).toMatch(/^tel:\+447700/);
    expect(page.addresses.map((a: { id: string }) => a.id)).toEqual(["residential-address", "postal-address"]);
  });

  it("shows the client in context's details to an adviser, without the intro", async () => {
    const route = await import("~/routes/clients.personal-details/route");
    const page = await data(route, "/clients/personal-details", adviserWithClient);
    expect(page.showIntro).toBe(false);
    expect(page.personal.find((i: { id: string }) => i.id === "last-name").values).toEqual([{ text: "Hartley" }]);
  });
});

describe("adviser details", () => {
  it("shows the client's advisers with a way to reach them", async () => {
    const route = await import("~/routes/clients.adviser-details/route");
    const page = await data(route, "/clients/adviser-details", client);
    expect(page.nothingToShow).toBe(false);
    const sarah = page.advisers.find((a: { name: string }) => a.name === "Sarah Whitfield");
    expect(sarah).toMatchObject({
      isClientAdviser: true,
      email: { href: "mailto:sarah.whitfield@northbridgewealth.example" },
    });
    expect(sarah.mapUrl).toMatch(/EC2R/);
    expect(sarah.phones[0].href).toMatch(/^tel:/);
  });

  it("shows the same for an adviser with the client in context", async () => {
    const route = await import("~/routes/clients.adviser-details/route");
    const page = await data(route, "/clients/adviser-details", adviserWithClient);
    expect(page.advisers.map((a: { name: string }) => a.name)).toContain("Sarah Whitfield");
  });
});
