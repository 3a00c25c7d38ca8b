import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Portal, signInDemoUsers, startPortal, thrown } from "./portal-harness";

// spec 002 §2 "Notification and postponement panels", §4 "Announcement and cookie notice" and §9
// "Announcement hash": the shell's announcement panel for the Messages and Not Assigned levels, its
// close without JavaScript, and the cookies that keep it hidden (docs/decisions/096).

type Announcement = { title: string; html: string; hash: string } | null;
type Root = typeof import("~/root");
type Route = typeof import("~/routes/announcement/route");

let portal: Portal;
let root: Root;
let route: Route;
let users: Awaited<ReturnType<typeof signInDemoUsers>>;

beforeAll(async () => {
  portal = await startPortal();
  root = await import("~/root");
  route = await import("~/routes/announcement/route");
  users = await signInDemoUsers(portal);
}, 60_000);

afterAll(async () => {
  await portal?.close();
});

async function announcementOn(path: string, cookie: string): Promise<Announcement> {
  const response = await root.loader({
    request: new Request(`http://portal.test${path}`, { headers: { Cookie: cookie } }),
    params: {},
    context: {},
  });
  return ((await response.json()) as { announcement: Announcement }).announcement;
}

async function close(cookie: string, fields: Record<string, string>) {
  const { token, cookie: csrfCookie } = await portal.csrf(cookie);
  const request = new Request("http://portal.test/announcement", {
    method: "POST",
    body: new URLSearchParams({ csrf: token, ...fields }),
    headers: { Cookie: `${cookie}; ${csrfCookie}`, "Content-Type": "application/x-www-form-urlencoded" },
  });
  return route.action({ request, params: {}, context: {} });
}

/** The adviser's session after opening a client from the client list at the portal view `view`. */
async function openAtLevel(adviser: string, search: string, name: string, view: string): Promise<string> {
  const list = await import("~/routes/advisers.clients/route");
  const url = `http://portal.test/advisers/clients?name=${encodeURIComponent(search)}&dob=&postcode=`;
  const found = await (
    await list.loader({ request: new Request(url, { headers: { Cookie: adviser } }), params: {}, context: {} })
  ).json();
  const row = found.results?.rows.find((r: { name: string }) => r.name === name);
  if (!row) throw new Error(`${name} is not in the adviser's list`);
  const { token, cookie } = await portal.csrf(adviser);
  const opened = await thrown(
    list.action({
      request: new Request("http://portal.test/advisers/clients", {
        method: "POST",
        body: new URLSearchParams({ csrf: token, clientId: String(row.id), view, own: row.own }),
        headers: { Cookie: `${adviser}; ${cookie}`, "Content-Type": "application/x-www-form-urlencoded" },
      }),
      params: {},
      context: {},
    }),
  );
  return opened.headers.get("Set-Cookie")!.split(";")[0]!;
}

/** The cookie pair a Set-Cookie header gives the browser, e.g. `announcement_closed=…`. */
function pairOf(setCookie: string | null): string {
  return (setCookie ?? "").split(";")[0]!;
}

describe("the announcement panel", () => {
  it("shows the site content's announcement to a client with Messages access, with a short hash", async () => {
    const announcement = await announcementOn("/clients/documents-and-messages", users.messages);
    expect(announcement?.title).toBe("Our offices over the holidays");
    expect(announcement?.html).toContain("will be closed from 25 December to 1 January");
    expect(announcement?.hash).toMatch(/^[0-9a-z]{1,7}$/);
    // the same announcement, the same hash, on every page
    expect((await announcementOn("/clients/personal-details", users.messages))?.hash).toBe(announcement?.hash);
  });

  it("shows none at the Portfolio and Assets levels, nor to an adviser without a client", async () => {
    expect(await announcementOn("/clients/home", users.client)).toBeNull();
    expect(await announcementOn("/clients/home", users.assets)).toBeNull();
    expect(await announcementOn("/advisers/clients", users.adviser)).toBeNull();
    expect(await announcementOn("/clients/home", users.adviserWithClient)).toBeNull();
  });

  it("shows it to an adviser with a client in context at the Messages level", async () => {
    const adviserWithMessagesView = await openAtLevel(users.adviser, "Hartley", "Hartley, Eleanor", "Messages");
    expect((await announcementOn("/clients/documents-and-messages", adviserWithMessagesView))?.title).toBe(
      "Our offices over the holidays",
    );
  });

  it("shows it at the Not Assigned level", async () => {
    const copied = await portal.platform.call("/dev/users/demo.client/copy", {
      method: "POST",
      body: { username: "announce.notassigned" },
    });
    expect(copied.status).toBe(201);
    const set = await portal.platform.call("/dev/users/announce.notassigned/client_access_level", {
      method: "PUT",
      body: { client_access_level: 0 },
    });
    expect(set.status).toBe(200);
    const notAssigned = await portal.signIn("announce.notassigned");
    expect((await announcementOn("/clients/documents-and-messages", notAssigned))?.title).toBe(
      "Our offices over the holidays",
    );
  });

  it("'Don't show this again' sets a cookie keyed by the hash until 2099, and the panel stays hidden", async () => {
    const { hash } = (await announcementOn("/clients/documents-and-messages", users.messages))!;
    const response = await close(users.messages, {
      hash,
      dontShowAgain: "yes",
      redirectTo: "/clients/documents-and-messages?page=2",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/clients/documents-and-messages?page=2");
    const setCookie = response.headers.get("Set-Cookie") ?? "";
    expect(setCookie).toMatch(new RegExp(`^announcement_hidden_${hash}=`));
    expect(setCookie).toContain("Expires=Thu, 31 Dec 2099 23:59:59 GMT");
    expect(setCookie).toContain("Path=/");
    expect(setCookie).toContain("HttpOnly");
    const withCookie = `${users.messages}; ${pairOf(setCookie)}`;
    expect(await announcementOn("/clients/documents-and-messages", withCookie)).toBeNull();
    expect(await announcementOn("/clients/personal-details", withCookie)).toBeNull();
  });

  it("closing without the tick hides it for the browser session only (a cookie without an expiry)", async () => {
    const { hash } = (await announcementOn("/clients/documents-and-messages", users.messages))!;
    const response = await close(users.messages, { hash, redirectTo: "/clients/documents-and-messages" });
    expect(response.status).toBe(302);
    const setCookie = response.headers.get("Set-Cookie") ?? "";
    expect(setCookie).toMatch(/^announcement_closed=/);
    expect(setCookie).not.toMatch(/Expires|Max-Age/i);
    expect(
      await announcementOn("/clients/documents-and-messages", `${users.messages}; ${pairOf(setCookie)}`),
    ).toBeNull();
  });

  it("shows a new announcement again: the cookies are keyed by the hash", async () => {
    const response = await close(users.messages, { hash: "zzzzzz", dontShowAgain: "yes", redirectTo: "/clients" });
    const closedAgain = await close(users.messages, { hash: "zzzzzz", redirectTo: "/clients" });
    const cookies = `${users.messages}; ${pairOf(response.headers.get("Set-Cookie"))}; ${pairOf(closedAgain.headers.get("Set-Cookie"))}`;
    expect((await announcementOn("/clients/documents-and-messages", cookies))?.title).toBe(
      "Our offices over the holidays",
    );
  });

  it("answers the shell's fetcher without a redirect", async () => {
    const { hash } = (await announcementOn("/clients/documents-and-messages", users.messages))!;
    const response = await close(users.messages, { hash, inline: "true", redirectTo: "/clients" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ closed: true });
    expect(response.headers.get("Set-Cookie")).toMatch(/^announcement_closed=/);
  });

  it("goes back only to a local path", async () => {
    const { hash } = (await announcementOn("/clients/documents-and-messages", users.messages))!;
    for (const redirectTo of ["//evil.example/x", "https://evil.example/", "javascript:alert(1)"]) {
      expect((await close(users.messages, { hash, redirectTo })).headers.get("Location")).toBe("/");
    }
  });

  it("refuses a post without the form token, and sets nothing for a hash it cannot be", async () => {
    const request = new Request("http://portal.test/announcement", {
      method: "POST",
      body: new URLSearchParams({ hash: "abc", redirectTo: "/clients" }),
      headers: { Cookie: users.messages, "Content-Type": "application/x-www-form-urlencoded" },
    });
    const refused = await route.action({ request, params: {}, context: {} }).catch((error: unknown) => error);
    expect((refused as Response).status).toBe(403);
    const bad = await close(users.messages, { hash: "../../x", redirectTo: "/clients" });
    expect(bad.headers.get("Set-Cookie")).toBeNull();
  });
});
