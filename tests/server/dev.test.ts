import { describe, expect, it } from "vitest";
import { type ErrorAnswer, type LoginAnswer, withPlatform } from "./harness";

const harness = withPlatform();

const copy = (template: string, username: string) =>
  harness.platform.call<{ username: string; user_id: number } & ErrorAnswer>(`/dev/users/${template}/copy`, {
    method: "POST",
    body: { username },
  });
const login = (username: string) =>
  harness.platform.call<LoginAnswer & ErrorAnswer>("/auth/login", {
    method: "POST",
    body: { username, password: "Demo-pass-1", user_type: "client" },
  });

describe("copies of seeded logins, for journeys", () => {
  it("start in the template's state, with its pending steps", async () => {
    const made = await copy("demo.newuser", "newuser-copy-1");
    expect(made.status).toBe(201);
    expect(made.body.username).toBe("newuser-copy-1");
    expect((await login("newuser-copy-1")).body.login_status).toBe("ForceChangePassword");
    // The template is untouched.
    expect((await login("demo.newuser")).body.login_status).toBe("ForceChangePassword");
  });

  it("carry the template's security questions", async () => {
    await copy("demo.client", "client-copy-1");
    const reset = await harness.platform.call<{ reset_method: string; questions?: string[] }>(
      "/resourceful/forgotten_password",
      {
        method: "POST",
        body: { username: "client-copy-1" },
      },
    );
    expect(reset.body.reset_method).toBe("questions");
    expect(reset.body.questions).toHaveLength(2);
  });

  it("are people of their own that no adviser's client list shows", async () => {
    const adviser = await harness.platform.session("demo.adviser", "adviser");
    const list = () =>
      harness.platform.call<unknown[]>("/resourceful/entity/client-v3?page_size=100", { token: adviser });
    const before = (await list()).body.length;
    await copy("demo.mfa", "mfa-copy-1");
    expect((await list()).body.length).toBe(before);
    const token = await harness.platform.session("demo.client");
    const me = await harness.platform.call<{ entity_id: number }>("/resourceful/session/user", { token });
    expect(me.body.entity_id).toBe(1);
  });

  it("take an email address of their own when asked, so the template's never finds them", async () => {
    const made = await harness.platform.call(`/dev/users/demo.client/copy`, {
      method: "POST",
      body: { username: "client-copy-mail", email: "client-copy-mail@example.test" },
    });
    expect(made.status).toBe(201);
    const emails = (entityOf: string) =>
      harness.platform.db.$client
        .prepare(
          "SELECT c.value FROM contacts c JOIN users u ON u.entity_id = c.entity_id WHERE u.username = ? AND c.type IN ('m1', 'm2')",
        )
        .all(entityOf) as Array<{ value: string }>;
    expect(new Set(emails("client-copy-mail").map((r) => r.value))).toEqual(new Set(["client-copy-mail@example.test"]));
    expect(emails("demo.client").map((r) => r.value)).not.toContain("client-copy-mail@example.test");
    // the forgotten-username lookup (email and date of birth) finds the template alone
    const sent = await harness.platform.call("/resourceful/forgot/username", {
      method: "POST",
      body: { preferred_email: "eleanor.hartley@example.com", role_type: "client", dob: "1968-04-12" },
    });
    expect(sent.status).toBe(200);
    expect((await harness.platform.outbox("eleanor.hartley@example.com")).map((m) => m.code)).not.toContain(
      "client-copy-mail",
    );
    expect(
      (
        await harness.platform.call(`/dev/users/demo.client/copy`, {
          method: "POST",
          body: { username: "client-copy-bad", email: "not an address" },
        })
      ).status,
    ).toBe(400);
  });

  it("have no adviser, unless one is named (issue 25 item 12: 'Speak to adviser' needs one)", async () => {
    const advisersOf = async (username: string) => {
      const token = await harness.platform.session(username);
      return (
        await harness.platform.call<Array<{ adviser_name: string; client_adviser: boolean }>>(
          "/resourceful/session/user/adviser",
          { token },
        )
      ).body;
    };
    expect((await copy("demo.factfind", "factfind-copy-alone")).status).toBe(201);
    expect(await advisersOf("factfind-copy-alone")).toEqual([]);
    const linked = await harness.platform.call(`/dev/users/demo.factfind/copy`, {
      method: "POST",
      body: { username: "factfind-copy-advised", adviser: "demo.adviser2" },
    });
    expect(linked.status).toBe(201);
    expect(await advisersOf("factfind-copy-advised")).toEqual([expect.objectContaining({ client_adviser: true })]);
    const notAdviser = await harness.platform.call(`/dev/users/demo.factfind/copy`, {
      method: "POST",
      body: { username: "factfind-copy-bad", adviser: "demo.client" },
    });
    expect(notAdviser.status).toBe(404);
  });

  it("with clients, are an adviser who advises the template's clients too, never as their primary adviser", async () => {
    const book = async (username: string) => {
      const token = await harness.platform.session(username, "adviser");
      const rows = (
        await harness.platform.call<Array<{ id: number }>>("/resourceful/entity/client-v3?page_size=100", { token })
      ).body;
      return rows.map((r) => r.id).sort((a, b) => a - b);
    };
    const made = await harness.platform.call(`/dev/users/demo.adviser/copy`, {
      method: "POST",
      body: { username: "adviser-with-clients", clients: true },
    });
    expect(made.status).toBe(201);
    const clients = await book("demo.adviser");
    expect(clients.length).toBeGreaterThan(0);
    expect(await book("adviser-with-clients")).toEqual(clients);
    // each client's primary adviser stays the template
    const client = await harness.platform.session("demo.client");
    const advisers = (
      await harness.platform.call<Array<{ client_adviser: boolean }>>("/resourceful/session/user/adviser", {
        token: client,
      })
    ).body;
    expect(advisers.filter((a) => a.client_adviser)).toHaveLength(1);
    const notAdviser = await harness.platform.call(`/dev/users/demo.client/copy`, {
      method: "POST",
      body: { username: "client-with-clients", clients: true },
    });
    expect(notAdviser.status).toBe(400);
  });

  it("refuse a taken name, an unknown template and a malformed name", async () => {
    expect((await copy("demo.client", "demo.partner")).status).toBe(409);
    expect((await copy("no.such.user", "fresh-name")).status).toBe(404);
    expect((await copy("demo.client", "a b")).status).toBe(400);
  });
});
