import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entities } from "../../server/db/schema";
import { type Portal, startPortal, thrown } from "./portal-harness";

type Route = typeof import("~/routes/advisers.clients/route");
type Row = { id: number; name: string; dob: string | null; postcode: string | null; hasLogin: boolean; own: string };
/** The loader's answer as a test reads it (the fields a case asserts on are there). */
type ListData = {
  sort: string;
  results: { rows: Row[]; hasMore: boolean };
  result: { initialValue: Record<string, string>; error: Record<string, string[]> };
};
let portal: Portal;
let route: Route;
let adviser: string;
let client: string;

beforeAll(async () => {
  portal = await startPortal();
  route = await import("~/routes/advisers.clients/route");
  adviser = await portal.signIn("demo.adviser", "adviser");
  client = await portal.signIn("demo.client");
});
afterAll(() => portal.close());

async function load(search: string, cookie = adviser) {
  const request = new Request(`http://portal.test/advisers/clients${search}`, { headers: { Cookie: cookie } });
  const response = await route.loader({ request, params: {}, context: {} });
  return { status: response.status, data: (await response.json()) as unknown as ListData };
}

async function open(fields: Record<string, string>, cookie = adviser) {
  const { token, cookie: csrfCookie } = await portal.csrf(cookie);
  const body = new URLSearchParams({ csrf: token, ...fields });
  const request = new Request("http://portal.test/advisers/clients?name=&dob=&postcode=", {
    method: "POST",
    body,
    headers: { Cookie: `${cookie}; ${csrfCookie}`, "Content-Type": "application/x-www-form-urlencoded" },
  });
  return route.action({ request, params: {}, context: {} });
}

describe("adviser client list loader (spec 002 'Adviser client list')", () => {
  it("lists nothing before the first search", async () => {
    const { status, data } = await load("");
    expect(status).toBe(200);
    expect(data.results).toBeNull();
    expect(data.result).toBeNull();
  });

  it("lists the first 20 of all clients for an empty search, and says more remain", async () => {
    const { data } = await load("?name=&dob=&postcode=");
    expect(data.results.rows).toHaveLength(20);
    expect(data.results.hasMore).toBe(true);
    const names = data.results.rows.map((r: { name: string }) => r.name);
    expect(names[0]).toMatch(/^[A-Z]/);
  });

  it("loads page after page up to the asked count, until fewer remain", async () => {
    const two = await load("?name=&dob=&postcode=&pages=2");
    expect(two.data.results.rows).toHaveLength(40);
    const all = await load("?name=&dob=&postcode=&pages=10");
    expect(all.data.results.hasMore).toBe(false);
    expect(all.data.results.rows.length).toBeGreaterThanOrEqual(45);
    const ids = all.data.results.rows.map((r: { id: number }) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(0, 40)).toEqual(two.data.results.rows.map((r: { id: number }) => r.id));
  });

  it("sorts by name descending and by date of birth", async () => {
    const asc = await load("?name=&dob=&postcode=&pages=10");
    const desc = await load("?name=&dob=&postcode=&sort=-name&pages=10");
    expect(desc.data.results.rows.map((r: { id: number }) => r.id)).toEqual(
      [...asc.data.results.rows.map((r: { id: number }) => r.id)].reverse(),
    );
    const byDob = await load("?name=&dob=&postcode=&sort=dob");
    expect(byDob.data.sort).toBe("dob");
    expect(byDob.data.results.rows).toHaveLength(20);
  });

  it("finds a client by name and date of birth (quicksearch 'name YYYYMMDD')", async () => {
    const all = await load("?name=&dob=&postcode=&pages=10");
    const target = all.data.results.rows.find((r) => r.dob)!;
    const surname = target.name.split(",")[0]!;
    const { data } = await load(`?${new URLSearchParams({ name: surname, dob: target.dob!, postcode: "" })}`);
    expect(data.results.rows.map((r: { id: number }) => r.id)).toContain(target.id);
    expect(data.results.rows.every((r) => r.dob === target.dob)).toBe(true);
  });

  it("finds accented names without the accents, and by postcode", async () => {
    const { data } = await load("?name=Bronte&dob=&postcode=");
    expect(data.results.rows.map((r: { name: string }) => r.name)).toContain("Brontë, Zoë");
    const postcode = data.results.rows[0]!.postcode!;
    const byPostcode = await load(`?name=&dob=&postcode=${encodeURIComponent(postcode.toLowerCase())}`);
    expect(byPostcode.data.results.rows.map((r) => r.postcode)).toContain(postcode);
  });

  it("answers no rows when nothing matches", async () => {
    const { data } = await load("?name=Nobodyhere&dob=&postcode=");
    expect(data.results).toEqual({ rows: [], hasMore: false });
  });

  it("keeps invalid input and answers 400 with the messages, without calling the platform", async () => {
    const { status, data } = await load("?name=a&dob=1972-03-14&postcode=E-1");
    expect(status).toBe(400);
    expect(data.results).toBeNull();
    expect(data.result.initialValue).toEqual({ name: "a", dob: "1972-03-14", postcode: "E-1" });
    expect(data.result.error.name).toEqual(["advisers:clientList.errors.name"]);
    expect(data.result.error.postcode).toEqual(["advisers:clientList.errors.postcode"]);
    expect(data.result.error.dob![0]).toContain("advisers:clientList.errors.dob");
  });

  it("lists a client whose access level has no mapping, as one to preview only (spec 000 §8)", async () => {
    const before = (await load("?name=Hartley&dob=&postcode=")).data.results.rows.find(
      (r) => r.name === "Hartley, Eleanor",
    )!;
    expect(before).toMatchObject({ hasLogin: true, own: "Portfolio" });
    const entityId = portal.platform.db.select().from(entities).where(eq(entities.id, before.id)).get()?.id;
    if (entityId === undefined) throw new Error("the row's entity is not in the platform");
    portal.platform.db.update(entities).set({ clientAccessLevel: 7 }).where(eq(entities.id, entityId)).run();
    try {
      const { status, data } = await load("?name=Hartley&dob=&postcode=");
      expect(status).toBe(200);
      const rows = data.results.rows;
      expect(rows.find((r) => r.id === before.id)).toMatchObject({ hasLogin: false, own: "NotAssigned" });
      // the other rows are as they were
      expect(rows.filter((r) => r.id !== before.id).every((r) => r.own !== undefined)).toBe(true);
      expect(rows.length).toBeGreaterThan(1);
    } finally {
      portal.platform.db.update(entities).set({ clientAccessLevel: 1 }).where(eq(entities.id, entityId)).run();
    }
  });

  it("shows Access Denied to a client", async () => {
    const response = await thrown(load("", client));
    expect(response.status).toBe(403);
  });
});

describe("opening a client (spec 002 §4 'Preview access')", () => {
  async function rows() {
    return (await load("?name=&dob=&postcode=&pages=10")).data.results.rows;
  }

  it("puts the client in context at their own view, not in preview, and goes straight to their landing page", async () => {
    const row = (await rows()).find((r) => r.hasLogin && r.own === "Portfolio")!;
    const response = await thrown(open({ clientId: String(row.id), view: "Portfolio", own: row.own }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/clients/home");
    const cookie = response.headers.get("Set-Cookie")!.split(";")[0]!;
    expect(await portal.sessionUser(cookie)).toMatchObject({
      clientInContext: { entityId: row.id, siteAccessLevel: "Portfolio", isPreviewMode: false },
    });
  });

  it("remembers the list as the adviser left it, and only a client-list address", async () => {
    const row = (await rows()).find((r) => r.hasLogin && r.own === "Portfolio")!;
    const listUrlAfter = async (returnTo: string) => {
      const response = await thrown(open({ clientId: String(row.id), view: "Portfolio", own: row.own, returnTo }));
      const cookie = response.headers.get("Set-Cookie")!.split(";")[0]!;
      return ((await portal.sessionUser(cookie)) as { clientInContext: { listUrl: string | null } }).clientInContext
        .listUrl;
    };
    expect(await listUrlAfter("/advisers/clients?name=Hartley&sort=-name")).toBe(
      "/advisers/clients?name=Hartley&sort=-name",
    );
    expect(await listUrlAfter("https://evil.example/advisers/clients")).toBeNull();
    expect(await listUrlAfter("/clients/home")).toBeNull();
  });

  it("opens a NotAssigned client as Messages without preview", async () => {
    const row = (await rows()).find((r) => r.hasLogin && r.own === "NotAssigned")!;
    const response = await thrown(open({ clientId: String(row.id), view: "Messages", own: row.own }));
    const cookie = response.headers.get("Set-Cookie")!.split(";")[0]!;
    expect(await portal.sessionUser(cookie)).toMatchObject({
      clientInContext: { siteAccessLevel: "NotAssigned", isPreviewMode: false },
    });
  });

  it("previews another view than the client's own", async () => {
    const row = (await rows()).find((r) => r.hasLogin && r.own === "Portfolio")!;
    const response = await thrown(open({ clientId: String(row.id), view: "Assets", own: row.own }));
    const cookie = response.headers.get("Set-Cookie")!.split(";")[0]!;
    expect(await portal.sessionUser(cookie)).toMatchObject({
      clientInContext: { siteAccessLevel: "Assets", isPreviewMode: true },
    });
  });

  it("previews a client without a login once a view is chosen, and asks for one otherwise", async () => {
    const row = (await rows()).find((r) => !r.hasLogin)!;
    const refused = await thrown(open({ clientId: String(row.id), view: "", own: row.own }));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      rowError: { clientId: row.id, message: "advisers:clientList.errors.view" },
    });
    const response = await thrown(open({ clientId: String(row.id), view: "Portfolio", own: row.own }));
    const cookie = response.headers.get("Set-Cookie")!.split(";")[0]!;
    expect(await portal.sessionUser(cookie)).toMatchObject({ clientInContext: { isPreviewMode: true } });
  });

  it("refuses a post without the CSRF token", async () => {
    const request = new Request("http://portal.test/advisers/clients", {
      method: "POST",
      body: new URLSearchParams({ clientId: "1", view: "Assets" }),
      headers: { Cookie: adviser, "Content-Type": "application/x-www-form-urlencoded" },
    });
    const response = await thrown(route.action({ request, params: {}, context: {} }));
    expect(response.status).toBe(403);
  });

  it("shows the platform's refusal for a client who is not the adviser's", async () => {
    const response = await thrown(open({ clientId: "999999", view: "Assets", own: "Portfolio" }));
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(await response.json()).toHaveProperty("failure");
  });
});
