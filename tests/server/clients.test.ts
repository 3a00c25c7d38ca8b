import { beforeAll, describe, expect, it } from "vitest";
import { type ClientInContext, type ClientRow, type SessionUser, withPlatform } from "./harness";

const harness = withPlatform();
let adviser: string;
let client: string;
beforeAll(async () => {
  adviser = await harness.platform.session("demo.adviser", "adviser");
  client = await harness.platform.session("demo.client");
});

const DENIED = "Permission Error: You do not have access to this entity";
const list = (query: string, token = adviser) =>
  harness.platform.call<ClientRow[]>(`/resourceful/entity/client-v3${query}`, { token });

/** Every client of the adviser, page by page. */
async function allPages(sort: string) {
  const pages: ClientRow[][] = [];
  let bookmark = "";
  for (;;) {
    const answer = await list(`?page_size=20&page_sort=${sort}${bookmark ? `&page_bookmark=${bookmark}` : ""}`);
    expect(answer.status).toBe(200);
    pages.push(answer.body);
    if (answer.body.length < 20) return pages;
    bookmark = answer.body[answer.body.length - 1]!.bookmark;
  }
}

describe("adviser client list", () => {
  it("pages 45+ clients by bookmark, 20 at a time, without repeats", async () => {
    const pages = await allPages("entity_name");
    expect(pages.map((p) => p.length).slice(0, 2)).toEqual([20, 20]);
    const rows = pages.flat();
    expect(rows.length).toBeGreaterThanOrEqual(45);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    const names = rows.map((r) => r.entity_name.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase());
    expect(names).toEqual([...names].sort());
    // every access level and some clients without a login
    expect(new Set(rows.map((r) => r.client_access_level))).toEqual(new Set([0, 1, 2, 3]));
    expect(rows.some((r) => r.user_id === null)).toBe(true);
    expect(rows[0]).toMatchObject({ entity_name: expect.stringContaining(", "), email: expect.stringContaining("@") });
  });

  it("sorts by -entity_name and by dob, paging the same rows", async () => {
    const ascending = (await allPages("entity_name")).flat().map((r) => r.id);
    const descending = (await allPages("-entity_name")).flat().map((r) => r.id);
    expect(descending).toEqual([...ascending].reverse());
    const byDob = (await allPages("dob")).flat();
    expect(byDob.length).toBe(ascending.length);
    const dobs = byDob.map((r) => r.dob?._val ?? "9999-12-31");
    expect(dobs).toEqual([...dobs].sort());
    const byDobDesc = (await allPages("-dob")).flat().map((r) => r.dob?._val ?? "9999-12-31");
    expect(byDobDesc).toEqual([...dobs].reverse());
  });

  it("refuses a bookmark of another sort", async () => {
    const first = await list("?page_size=2&page_sort=dob");
    const answer = await list(`?page_sort=entity_name&page_bookmark=${first.body[1]!.bookmark}`);
    expect(answer.status).toBe(400);
    expect((await list("?page_bookmark=not-a-bookmark")).status).toBe(400);
    expect((await list("?page_sort=postcode")).status).toBe(400);
  });

  it("finds clients by name, accent- and case-insensitively", async () => {
    const zoe = await list("?quicksearch=ZOE%20bronte");
    expect(zoe.body.map((r) => r.display_name)).toEqual(["Zoë Brontë"]);
    const jose = await list(`?quicksearch=${encodeURIComponent("Núñez")}`);
    expect(jose.body.map((r) => r.entity_name)).toEqual(["Núñez, José"]);
    const partial = await list("?quicksearch=hartl");
    expect(partial.body.map((r) => r.first_name).sort()).toEqual(["Eleanor", "James"]);
    expect((await list("?quicksearch=zzzzqq")).body).toEqual([]);
  });

  it("finds a client by a date-of-birth word and by postcode prefix", async () => {
    const byDob = await list("?quicksearch=19680412");
    expect(byDob.body.map((r) => r.entity_name)).toEqual(["Hartley, Eleanor"]);
    const both = await list("?quicksearch=eleanor%2019680412");
    expect(both.body).toHaveLength(1);
    const byPostcode = await list("?postcode=w112e");
    expect(byPostcode.body.map((r) => r.first_name).sort()).toEqual(["Eleanor", "James"]);
    expect(byPostcode.body[0]?.postcode).toBe("W11 2EU");
    const unpaged = await harness.platform.call<ClientRow[]>("/resourceful/entity/client?name=hartley&dob=1965-09-30", {
      token: adviser,
    });
    expect(unpaged.body.map((r) => r.first_name)).toEqual(["James"]);
  });

  it("shows only the adviser's own clients", async () => {
    const other = await harness.platform.session("demo.adviser2", "adviser");
    const theirs = (await list("?page_size=100", other)).body.map((r) => r.id);
    const mine = new Set((await list("?page_size=100")).body.map((r) => r.id));
    const notMine = theirs.filter((id) => !mine.has(id));
    expect(notMine.length).toBeGreaterThan(0);
    const refused = await harness.platform.call(`/resourceful/entity/client-v3/${notMine[0]}`, { token: adviser });
    expect(refused.status).toBe(403);
    expect(refused.body.api_message).toBe(DENIED);
  });

  it("is refused to a client", async () => {
    const answer = await list("", client);
    expect(answer.status).toBe(403);
    expect((await harness.platform.call("/resourceful/entity/client?name=smith", { token: client })).status).toBe(403);
  });
});

describe("entity access for a client", () => {
  it("reads their own and their login-accessible partner's details, no one else's", async () => {
    expect((await harness.platform.call("/resourceful/entity/client-v3/1", { token: client })).status).toBe(200);
    expect((await harness.platform.call("/resourceful/entity/client-v3/2", { token: client })).status).toBe(200);
    for (const path of [
      "/resourceful/entity/client-v3/3",
      "/resourceful/entity/client-v3/4",
      "/resourceful/entity/client-v3/4/contact",
      "/resourceful/entity/client-v3/4/address",
      "/resourceful/entity/client/4/client_group/member",
    ]) {
      const answer = await harness.platform.call(path, { token: client });
      expect(answer.status, path).toBe(403);
      expect(answer.body.api_message).toBe(DENIED);
    }
  });

  it("lists the client group with the login-accessible flag", async () => {
    const members = await harness.platform.call<Array<{ relationship: string; login_accessible: boolean }>>(
      "/resourceful/entity/client/1/client_group/member",
      { token: client },
    );
    expect(members.body.map((m) => [m.relationship, m.login_accessible])).toEqual([
      ["Client", true],
      ["Partner", true],
      ["Child", false],
    ]);
  });

  it("answers personal details, contacts and GB addresses", async () => {
    const details = await harness.platform.call<Record<string, unknown>>("/resourceful/entity/client-v3/1", {
      token: client,
    });
    expect(details.body).toMatchObject({
      title: "Mrs",
      first_name: "Eleanor",
      middle_name: "Rose",
      last_name: "Hartley",
      dob: { _type: "Date", _val: "1968-04-12" },
      marital_status: "Married",
      dependents: 1,
      comm_pref_email: "1",
      comm_pref_mail: "0",
      comm_pref_sms: "1",
    });
    const contacts = await harness.platform.call<Array<{ type: string; value: string; preferred: boolean }>>(
      "/resourceful/entity/client-v3/1/contact",
      { token: client },
    );
    expect(contacts.body.map((c) => c.type).sort()).toEqual(["m1", "m2", "p1", "p2", "p3"]);
    expect(contacts.body.find((c) => c.type === "m1")).toMatchObject({
      value: "eleanor.hartley@example.com",
      preferred: true,
    });
    const addresses = await harness.platform.call<Array<Record<string, unknown>>>(
      "/resourceful/entity/client-v3/1/address",
      {
        token: client,
      },
    );
    const residential = addresses.body.find((a) => a.type === 1 && a.status === "Current");
    expect(residential).toMatchObject({
      block: "Flat 3",
      street_name: "27 Kensington Park Road",
      postcode: "W11 2EU",
      country: "GB",
    });
    expect(addresses.body.some((a) => a.type === 0)).toBe(true);
  });

  it("answers the client's advisers, primary first, with contact and work address", async () => {
    const advisers = await harness.platform.call<
      Array<{ id: number; adviser_name: string; client_adviser: boolean; role: string }>
    >("/resourceful/session/user/adviser", { token: client });
    expect(advisers.body[0]).toMatchObject({
      adviser_name: "Sarah Whitfield",
      client_adviser: true,
      role: "Chartered Financial Planner",
      photo: null,
    });
    const id = advisers.body[0]!.id;
    const contact = await harness.platform.call<{ workEmail: string; workPhone: string[] }>(
      `/resourceful/session/user/adviser/${id}/contact`,
      { token: client },
    );
    expect(contact.body.workEmail).toBe("sarah.whitfield@northbridgewealth.example");
    expect(contact.body.workPhone).toHaveLength(2);
    const address = await harness.platform.call<{ postcode: string; type: number }>(
      `/resourceful/session/user/adviser/${id}/address`,
      { token: client },
    );
    expect(address.body).toMatchObject({ type: 2, postcode: "EC2R 6EA" });
    expect((await harness.platform.call(`/resourceful/entity/user/${id}`, { token: client })).status).toBe(200);
    expect((await harness.platform.call("/resourceful/session/user/adviser/999", { token: client })).status).toBe(404);
  });
});

describe("client in context", () => {
  const put = (client_id: number, client_access_level: number, token = adviser) =>
    harness.platform.call<ClientInContext>("/resourceful/session/client_in_context", {
      method: "PUT",
      token,
      body: { client_id, client_access_level },
    });

  it("is preview mode for a client without a login, or a level other than the client's own", async () => {
    const rows = (await list("?page_size=100")).body;
    const withoutLogin = rows.find((r) => r.user_id === null)!;
    const withLogin = rows.find((r) => r.user_id !== null && r.client_access_level === 2)!;

    expect((await put(withoutLogin.id, withoutLogin.client_access_level || 3)).body.is_preview_mode).toBe(true);
    expect((await put(withLogin.id, 1)).body).toMatchObject({
      entity_id: withLogin.id,
      is_preview_mode: true,
      client_access_level: 1,
    });
    const same = await put(withLogin.id, 2);
    expect(same.body).toMatchObject({
      is_preview_mode: false,
      client_access_level: 2,
      display_name: withLogin.display_name,
    });

    const me = await harness.platform.call<SessionUser>("/resourceful/session/user", { token: adviser });
    expect(me.body.client_in_context).toMatchObject({ entity_id: withLogin.id, is_preview_mode: false });
    // the client in context's advisers and capabilities
    expect(
      (await harness.platform.call<unknown[]>("/resourceful/session/user/adviser", { token: adviser })).body.length,
    ).toBeGreaterThan(0);
    expect(
      (await harness.platform.call(`/resourceful/entity/client-v3/${withLogin.id}`, { token: adviser })).status,
    ).toBe(200);

    expect(
      (await harness.platform.call("/resourceful/session/client_in_context", { method: "DELETE", token: adviser }))
        .status,
    ).toBe(204);
    expect(
      (await harness.platform.call<SessionUser>("/resourceful/session/user", { token: adviser })).body
        .client_in_context,
    ).toBeNull();
  });

  it("answers the capabilities of the client in context, or of a given client", async () => {
    await put(1, 1);
    const inContext = await harness.platform.call<{ capabilities: string[] }>("/resourceful/session/capability", {
      token: adviser,
    });
    expect(inContext.body.capabilities).toContain("view_partner");
    const given = await harness.platform.call<{ capabilities: string[] }>(
      "/resourceful/session/capability?client_id=4",
      {
        token: adviser,
      },
    );
    expect(given.body.capabilities).not.toContain("view_portfolio");
    const own = await harness.platform.call<{ capabilities: string[] }>("/resourceful/session/capability", {
      token: client,
    });
    expect(own.body.capabilities).toEqual([
      "modelling_by_target_sets",
      "view_marketdata",
      "view_partner",
      "view_portfolio",
    ]);
  });

  it("is refused for a client that is not the adviser's, for a bad level, and to clients", async () => {
    const other = await harness.platform.session("demo.adviser2", "adviser");
    const theirs = (await list("?page_size=100", other)).body.map((r) => r.id);
    const mine = new Set((await list("?page_size=100")).body.map((r) => r.id));
    expect(
      (
        await put(
          theirs.find((id) => !mine.has(id))!,
          1,
        )
      ).status,
    ).toBe(403);
    expect((await put(1, 7)).status).toBe(400);
    expect((await put(1, 1, client)).status).toBe(403);
  });
});
