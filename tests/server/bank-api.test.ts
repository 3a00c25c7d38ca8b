import { describe, expect, it } from "vitest";
import { maskedAccountNumber } from "../../server/api/portfolio/instructions";
import { withDemoPlatform, type ErrorAnswer } from "./harness";

// spec 001 §7 "Targets and payment information" bank detail (docs/platform-api.md "Portfolio"):
// `entity/client/{id}/bank`, a member's registered bank accounts, checked like every entity call
// (as the balance-sheet asset calls: a client sees itself and the login-accessible members of its
// group; an adviser the clients it advises), and never the full account number.

type Bank = {
  id: number;
  bank_name: string;
  account_name: string;
  sort_code: string | null;
  bsb: string | null;
  account_number_masked: string;
  is_default: boolean;
};

const CLIENT = 1;
const PARTNER = 2;
const CHILD = 3;
const ASSETS = 4;
const DENIED = "Permission Error: You do not have access to this entity";

const demo = withDemoPlatform();

const sql = (query: string, ...params: unknown[]) =>
  demo.platform.db.$client.prepare(query).all(...params) as Array<Record<string, number | string | null>>;
const bank = (id: number, token: string) =>
  demo.platform.call<Bank[] & ErrorAnswer>(`/resourceful/entity/client/${id}/bank`, { token });
const denied = async (id: number, token: string, why: string) => {
  const answer = await bank(id, token);
  expect(answer.status, why).toBe(403);
  expect(answer.body.api_message, why).toBe(DENIED);
};

describe("registered bank accounts (spec 001 §7 GET entity/client/{id}/bank)", () => {
  it("answers the client's own accounts, the default first, with the number masked", async () => {
    const answer = await bank(CLIENT, demo.sessions.client);
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveLength(2);
    expect(answer.body[0]).toEqual({
      id: expect.any(Number),
      bank_name: "Barclays",
      account_name: "Mrs E Hartley",
      sort_code: "20-45-77",
      bsb: null,
      account_number_masked: "****6655",
      is_default: true,
    });
    expect(answer.body[1]).toMatchObject({ is_default: false, bsb: null });
    for (const row of answer.body) {
      expect(Object.keys(row).sort()).toEqual([
        "account_name",
        "account_number_masked",
        "bank_name",
        "bsb",
        "id",
        "is_default",
        "sort_code",
      ]);
      expect(row.account_number_masked).toMatch(/^\*{4}\d{4}$/);
    }
    // no stored number appears anywhere in an answer
    const text = JSON.stringify(answer.body) + JSON.stringify((await bank(PARTNER, demo.sessions.client)).body);
    for (const { n } of sql("SELECT account_number AS n FROM client_bank_accounts"))
      expect(text).not.toContain(String(n));
  });

  it("shows the partner's to the client while the partner is a login-accessible member, as the asset calls", async () => {
    const theirs = await bank(PARTNER, demo.sessions.client);
    expect(theirs.status).toBe(200);
    expect(theirs.body).toEqual([
      expect.objectContaining({ bank_name: "Lloyds Bank", account_name: "Mr J E Hartley", is_default: true }),
    ]);
    expect((await bank(PARTNER, demo.sessions.partner)).body).toEqual(theirs.body);
    expect((await bank(CLIENT, demo.sessions.partner)).body).toEqual((await bank(CLIENT, demo.sessions.client)).body);
    // the same rule as the balance sheet: not login accessible, not seen
    const flip = (on: number) =>
      demo.platform.db.$client
        .prepare("UPDATE client_group_members SET login_accessible = ? WHERE entity_id = ?")
        .run(on, PARTNER);
    flip(0);
    try {
      await denied(PARTNER, demo.sessions.client, "partner not login accessible");
      expect(
        (await demo.platform.call(`/resourceful/entity/client/${PARTNER}/asset`, { token: demo.sessions.client }))
          .status,
      ).toBe(403);
    } finally {
      flip(1);
    }
    expect((await bank(PARTNER, demo.sessions.client)).status).toBe(200);
  });

  it("refuses a foreign entity (403), a child without a login and an unknown id alike", async () => {
    await denied(ASSETS, demo.sessions.client, "another client");
    await denied(CHILD, demo.sessions.client, "child without a login");
    await denied(999, demo.sessions.client, "unknown id");
    await denied(CLIENT, demo.sessions.assets, "the Hartleys to another client");
    // a member with no registered accounts gets an empty list
    expect((await bank(ASSETS, demo.sessions.assets)).body).toEqual([]);
    expect((await bank(CLIENT, "nobody")).status).toBe(401);
    expect((await bank(0, demo.sessions.client)).status).toBe(400);
  });

  it("shows an adviser the accounts of the client in context, and refuses clients it does not advise", async () => {
    const put = await demo.platform.call("/resourceful/session/client_in_context", {
      method: "PUT",
      token: demo.sessions.adviser,
      body: { client_id: CLIENT, client_access_level: 1 },
    });
    expect(put.status).toBe(200);
    expect((await bank(CLIENT, demo.sessions.adviser)).body).toEqual((await bank(CLIENT, demo.sessions.client)).body);
    expect((await bank(PARTNER, demo.sessions.adviser)).body).toEqual((await bank(PARTNER, demo.sessions.client)).body);
    // Oliver advises Ellie (not as primary) but not James
    expect((await bank(CLIENT, demo.sessions.otherAdviser)).status).toBe(200);
    await denied(PARTNER, demo.sessions.otherAdviser, "a client the adviser does not advise");
  });

  it("masks any number to its last four characters, never the whole of a short one", () => {
    expect(maskedAccountNumber("41236655")).toBe("****6655");
    expect(maskedAccountNumber("1234 5678 90")).toBe("****7890");
    expect(maskedAccountNumber("1234")).toBe("****");
    expect(maskedAccountNumber("")).toBe("****");
  });
});
