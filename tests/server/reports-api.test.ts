// docs/platform-api.md "Valuation reports" (spec 002 "Valuation report page", §3 "Report template",
// "Valuation member", §4 "Report run", §6, §7, §9): the templates per role and client, the members,
// who may run what, the checks of a run, the job (not yet, the file, a failure, a job another user
// ran, a job a restart interrupted) and the PDF's content against the position call's figures.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/app";
import { reportJobs, siteSettings } from "../../server/db/schema";
import { longDate } from "../../server/domain/calendar";
import { formatMoney as pageMoney } from "~/lib/format";
import { formatMoney, INVALID_DATA, NO_ACCOUNTS } from "../../server/domain/valuation-report-pdf";
import { pdfText } from "../pdf-text";
import { CALLER, type ErrorAnswer, withPlatform } from "./harness";

type Template = { id: number; name: string; userType: string; dateParameters: string; requiredSelector: string };
type Member = { member_id: number; entity_name: string };
type Job = { job_id: string };
type Pending = { job_id: string; status: string; created_at: string };
type Money = { code: string; value: { _val: string } };
type Positions = {
  date: { _val: string };
  report_currency: string;
  total_value: Money;
  accounts: Array<{ accountid: number; description: string }>;
  positions: Array<{
    accountid: number;
    description: string;
    value: Money;
    volume: number;
    native_marketprice: number;
    native_currency: string;
  }>;
};
type Group = { group_code: string; group_name: string; accounts: Array<{ accountid: number }> };
type Account = { accountid: number; description: string; isLinked: boolean; service_type: string };

const TODAY = "2025-03-14";
const ELLIE = 1;
const JAMES = 2;
const OLIVIA = 3;

const harness = withPlatform();
let client: string;
let partner: string;
let assets: string;
let messages: string;
let adviser: string;
let otherAdviser: string;
let assetsEntity: number;
let seededDelay: unknown;

const templatesOf = (token: string, clientId: number) =>
  harness.platform.call<Template[] & ErrorAnswer>(`/resourceful/xmerge/template/template-v2?client_id=${clientId}`, {
    token,
  });

const runTemplate = (token: string, id: number, body: unknown) =>
  harness.platform.call<Job & ErrorAnswer>(`/resourceful/xmerge/template/template-v2/${id}?_method=runasync`, {
    method: "POST",
    token,
    body,
  });

const runValuation = (token: string, body: unknown) =>
  harness.platform.call<Job & ErrorAnswer>("/resourceful/xmerge/valuation?_method=runasync", {
    method: "POST",
    token,
    body,
  });

/** One poll: the status and, for 200, the file's bytes and headers; else the JSON body. */
async function poll(token: string, jobId: string) {
  const response = await fetch(`${harness.platform.baseUrl}/resourceful/job_queue/completed_job/${jobId}`, {
    headers: { ...CALLER, Cookie: `XPLANID=${token}`, "X-Xplan-Auth-Failure-Action": "error" },
  });
  if (response.status === 200)
    return { status: 200, headers: response.headers, pdf: new Uint8Array(await response.arrayBuffer()), body: null };
  return {
    status: response.status,
    headers: response.headers,
    pdf: null,
    body: (await response.json()) as Pending & ErrorAnswer,
  };
}

/** Polls until the job is no longer 202 (spec 002 §4: every 3 s in the portal; here every 50 ms). */
async function settle(token: string, jobId: string) {
  for (let i = 0; i < 200; i++) {
    const answer = await poll(token, jobId);
    if (answer.status !== 202) return answer;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${jobId} did not finish`);
}

async function setSetting(key: string, value: string | number) {
  const answer = await harness.platform.call(`/dev/settings/${key}`, { method: "PUT", body: { value } });
  expect(answer.status).toBe(200);
}

/** The sum of the position call's values (cents), for the same date and accounts. */
function sumOf(positions: Positions, accountIds?: number[]) {
  const cents = positions.positions
    .filter((p) => !accountIds || accountIds.includes(p.accountid))
    .reduce((sum, p) => sum + Math.round(Number(p.value.value._val) * 100), 0);
  return cents / 100;
}

beforeAll(async () => {
  [client, partner, assets, messages, adviser, otherAdviser] = await Promise.all([
    harness.platform.session("demo.client"),
    harness.platform.session("demo.partner"),
    harness.platform.session("demo.assets"),
    harness.platform.session("demo.messages"),
    harness.platform.session("demo.adviser", "adviser"),
    harness.platform.session("demo.adviser2", "adviser"),
  ]);
  assetsEntity = (await harness.platform.call<{ entity_id: number }>("/resourceful/session/user", { token: assets }))
    .body.entity_id;
  const row = harness.platform.db.select().from(siteSettings).where(eq(siteSettings.key, "reportJobDelayMs")).get();
  seededDelay = row ? JSON.parse(row.valueJson) : undefined;
  await setSetting("reportJobDelayMs", 0);
});

describe("templates", () => {
  it("answers demo.client's three client templates, in order, with the contract's fields", async () => {
    const answer = await templatesOf(client, ELLIE);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      {
        id: 1,
        name: "Portfolio valuation",
        userType: "Client",
        dateParameters: "Single Date",
        requiredSelector: "Current Client Only",
      },
      {
        id: 2,
        name: "Performance report",
        userType: "Client",
        dateParameters: "Date Range",
        requiredSelector: "Account Group Or Account",
      },
      {
        id: 3,
        name: "Household valuation",
        userType: "Client",
        dateParameters: "No Date Required",
        requiredSelector: "Select Entity",
      },
    ]);
  });

  it("answers none for demo.partner and demo.assets (the single-click path), nor for demo.messages", async () => {
    expect((await templatesOf(partner, JAMES)).body).toEqual([]);
    expect((await templatesOf(assets, assetsEntity)).body).toEqual([]);
    const me = (await harness.platform.call<{ entity_id: number }>("/resourceful/session/user", { token: messages }))
      .body.entity_id;
    expect((await templatesOf(messages, me)).body).toEqual([]);
  });

  it("answers an adviser the adviser templates for a client they advise, and never the client ones", async () => {
    const answer = await templatesOf(adviser, ELLIE);
    expect(answer.status).toBe(200);
    expect(answer.body.map((t) => [t.name, t.userType, t.dateParameters, t.requiredSelector])).toEqual([
      ["Client valuation (adviser)", "Adviser", "Single Date", "Account Group"],
      ["Client review pack", "Adviser", "Date Range", "Current Client Only"],
    ]);
  });

  it("refuses a client another client's templates, and an adviser a client they do not advise", async () => {
    expect((await templatesOf(client, assetsEntity)).status).toBe(403);
    // James is Ellie's partner: she may see his portfolio, but the templates she asks for are her own
    expect((await templatesOf(client, JAMES)).status).toBe(403);
    const others = await templatesOf(otherAdviser, assetsEntity);
    expect(others.status).toBe(403);
    expect(others.body.api_message).toBe("Permission Error: You do not have access to this entity");
  });

  it("refuses a call without a session", async () => {
    expect((await templatesOf("nope", ELLIE)).status).toBe(401);
  });
});

describe("members", () => {
  it("answers the client first, then the login-accessible members of the group (not the child)", async () => {
    const answer = await harness.platform.call<Member[]>(`/resourceful/xmerge/valuation/member?client_id=${ELLIE}`, {
      token: client,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      { member_id: ELLIE, entity_name: "Ellie Hartley" },
      { member_id: JAMES, entity_name: "James Hartley" },
    ]);
    expect(answer.body.some((m) => m.member_id === OLIVIA)).toBe(false);
  });

  it("answers an adviser for their client, and refuses what the caller may not see", async () => {
    expect(
      (
        await harness.platform.call<Member[]>(`/resourceful/xmerge/valuation/member?client_id=${JAMES}`, {
          token: adviser,
        })
      ).body[0],
    ).toEqual({
      member_id: JAMES,
      entity_name: "James Hartley",
    });
    expect(
      (await harness.platform.call(`/resourceful/xmerge/valuation/member?client_id=${assetsEntity}`, { token: client }))
        .status,
    ).toBe(403);
    expect(
      (
        await harness.platform.call(`/resourceful/xmerge/valuation/member?client_id=${assetsEntity}`, {
          token: otherAdviser,
        })
      ).status,
    ).toBe(403);
  });
});

describe("running a report: refusals and checks", () => {
  it("checks the variables against the template, with the contract's messages", async () => {
    const cases: Array<[number, unknown, number, string]> = [
      [1, { entityid: ELLIE, variables: {} }, 400, "Please select a date."],
      [1, { entityid: ELLIE, variables: { as_at_date: "2025-03-15" } }, 400, "You cannot select a date in the future."],
      [
        1,
        { entityid: JAMES, variables: { as_at_date: "2025-01-31" } },
        400,
        "This report can only be run for the current client.",
      ],
      [
        2,
        { entityid: ELLIE, variables: { from_date: "2025-01-31" } },
        400,
        "Please select a start date and an end date.",
      ],
      [
        2,
        {
          entityid: ELLIE,
          group_code: null,
          variables: { from_date: "2025-02-01", to_date: "2025-01-01", report_type: "group" },
        },
        400,
        "You cannot select an End date earlier than the Start date.",
      ],
      [
        2,
        { entityid: ELLIE, variables: { from_date: "2024-01-01", to_date: "2025-04-01" } },
        400,
        "You cannot select a date in the future.",
      ],
      [
        2,
        { entityid: ELLIE, variables: { from_date: "2024-01-01", to_date: "2025-01-01" } },
        400,
        "Please select an account group or an account.",
      ],
      [
        2,
        {
          entityid: ELLIE,
          group_code: "NOPE",
          variables: { from_date: "2024-01-01", to_date: "2025-01-01", report_type: "group" },
        },
        400,
        "The selected account group is not available.",
      ],
      [
        2,
        {
          entityid: ELLIE,
          variables: { from_date: "2024-01-01", to_date: "2025-01-01", report_type: "account", accountid: 999999 },
        },
        400,
        "The selected account is not available.",
      ],
      [3, { entityid: ELLIE + 1000, variables: {} }, 403, "Permission Error: You do not have access to this entity"],
    ];
    for (const [id, body, status, message] of cases) {
      const answer = await runTemplate(client, id, body);
      expect([id, JSON.stringify(body), answer.status, answer.body.api_message]).toEqual([
        id,
        JSON.stringify(body),
        status,
        message,
      ]);
    }
  });

  it("refuses a malformed body or date with the usual 400", async () => {
    const answer = await runTemplate(client, 1, { entityid: "x", variables: { as_at_date: "2025-02-30" } });
    expect(answer.status).toBe(400);
    expect(answer.body.api_message).toMatch(/^Invalid body: /);
    expect(
      (
        await harness.platform.call(`/resourceful/xmerge/template/template-v2/1`, {
          method: "POST",
          token: client,
          body: { entityid: ELLIE },
        })
      ).status,
    ).toBe(400);
  });

  it("answers 404 for a template the caller may not run: another user type's, or not assigned to the client", async () => {
    expect(
      (await runTemplate(client, 4, { entityid: ELLIE, group_code: "G", variables: { as_at_date: "2025-01-31" } }))
        .status,
    ).toBe(404);
    expect((await runTemplate(partner, 1, { entityid: JAMES, variables: { as_at_date: "2025-01-31" } })).status).toBe(
      404,
    );
    expect((await runTemplate(adviser, 1, { entityid: ELLIE, variables: { as_at_date: "2025-01-31" } })).status).toBe(
      404,
    );
    expect((await runTemplate(client, 99, { entityid: ELLIE, variables: {} })).status).toBe(404);
  });

  it("refuses an adviser a client they do not advise, and a client another client's valuation", async () => {
    const answer = await runTemplate(otherAdviser, 5, {
      entityid: assetsEntity,
      variables: { from_date: "2024-01-01", to_date: "2025-01-01" },
    });
    expect(answer.status).toBe(403);
    expect((await runValuation(client, { clientId: assetsEntity, variables: {} })).status).toBe(403);
    // Oliver looks after the Hartleys' pensions (a second adviser): he may value Ellie's accounts
    expect((await runValuation(otherAdviser, { clientId: ELLIE, variables: {} })).status).toBe(202);
  });

  it("refuses the single-click report of a client without Portfolio or Assets access", async () => {
    const me = (await harness.platform.call<{ entity_id: number }>("/resourceful/session/user", { token: messages }))
      .body.entity_id;
    const answer = await runValuation(messages, { clientId: me, variables: {} });
    expect(answer.status).toBe(403);
    expect(answer.body.api_message).toBe("Permission Error: Valuation reports need Portfolio or Assets access");
  });
});

describe("the job", () => {
  it("answers 202 (not yet) while the report is made, then the PDF as report.pdf", async () => {
    await setSetting("reportJobDelayMs", 600);
    try {
      const run = await runTemplate(client, 1, {
        entityid: ELLIE,
        group_code: null,
        variables: { as_at_date: "2025-01-31" },
      });
      expect(run.status).toBe(202);
      expect(run.body.job_id).toMatch(/^[0-9a-f]{32}$/);
      const first = await poll(client, run.body.job_id);
      expect(first.status).toBe(202);
      expect(first.body).toMatchObject({ job_id: run.body.job_id, created_at: "2025-03-14T10:00:00.000Z" });
      expect(["queued", "running"]).toContain(first.body?.status);
      const done = await settle(client, run.body.job_id);
      expect(done.status).toBe(200);
      expect(done.headers.get("content-type")).toBe("application/pdf");
      expect(done.headers.get("content-disposition")).toBe('attachment; filename="report.pdf"');
      expect(
        Buffer.from(done.pdf as Uint8Array)
          .subarray(0, 5)
          .toString(),
      ).toBe("%PDF-");
      // the file stays for later polls
      expect((await poll(client, run.body.job_id)).status).toBe(200);
    } finally {
      await setSetting("reportJobDelayMs", 0);
    }
  });

  it("answers 404 for another user's job and for an unknown id", async () => {
    const run = await runTemplate(client, 1, { entityid: ELLIE, variables: { as_at_date: "2025-01-31" } });
    expect((await poll(partner, run.body.job_id)).status).toBe(404);
    expect((await poll(adviser, run.body.job_id)).status).toBe(404);
    expect((await poll(client, "0".repeat(32))).status).toBe(404);
    expect((await poll(client, "not-a-job")).status).toBe(404);
    expect((await settle(client, run.body.job_id)).status).toBe(200);
  });

  it("answers 500 with the contract's message when the job fails (the dev switch), and the next job runs", async () => {
    expect(
      (await harness.platform.call("/dev/report-jobs/fail-next", { method: "POST", body: { username: "demo.client" } }))
        .status,
    ).toBe(200);
    const failing = await runTemplate(client, 1, { entityid: ELLIE, variables: { as_at_date: "2025-01-31" } });
    const failed = await settle(client, failing.body.job_id);
    expect(failed.status).toBe(500);
    expect(failed.body?.api_message).toBe("The report could not be generated.");
    const next = await runTemplate(client, 1, { entityid: ELLIE, variables: { as_at_date: "2025-01-31" } });
    expect((await settle(client, next.body.job_id)).status).toBe(200);
  });

  it("fails every job of the template named by reportJobFailTemplate", async () => {
    await setSetting("reportJobFailTemplate", "3");
    try {
      const run = await runTemplate(client, 3, { entityid: ELLIE, variables: {} });
      expect((await settle(client, run.body.job_id)).status).toBe(500);
    } finally {
      await setSetting("reportJobFailTemplate", "");
    }
  });

  it("fails, at start, the jobs a previous process left queued or running, with the interrupted message", async () => {
    const id = "a".repeat(32);
    const user = (await harness.platform.call<{ id: number }>("/resourceful/session/user", { token: client })).body.id;
    harness.platform.db
      .insert(reportJobs)
      .values({
        id,
        userId: user,
        entityId: ELLIE,
        templateId: 1,
        variables: "{}",
        status: "running",
        createdAt: "2025-03-14T09:59:00.000Z",
      })
      .run();
    expect((await poll(client, id)).status).toBe(202);
    // a platform starting on the same database
    createApp({
      db: harness.platform.db,
      clock: harness.platform.clock,
      env: { port: 0, host: "127.0.0.1", dbFile: ":memory:", nodeEnv: "test", devEndpoints: true },
    });
    const answer = await poll(client, id);
    expect(answer.status).toBe(500);
    expect(answer.body?.api_message).toBe("The report was interrupted. Please run it again.");
  });

  it("deletes finished jobs an hour after they end", async () => {
    const run = await runTemplate(client, 1, { entityid: ELLIE, variables: { as_at_date: "2025-01-31" } });
    expect((await settle(client, run.body.job_id)).status).toBe(200);
    harness.platform.db
      .update(reportJobs)
      .set({ finishedAt: "2025-03-14T08:00:00.000Z" })
      .where(eq(reportJobs.id, run.body.job_id))
      .run();
    createApp({
      db: harness.platform.db,
      clock: harness.platform.clock,
      env: { port: 0, host: "127.0.0.1", dbFile: ":memory:", nodeEnv: "test", devEndpoints: true },
    });
    expect((await poll(client, run.body.job_id)).status).toBe(404);
  });
});

describe("the PDF", () => {
  async function reportText(token: string, run: Promise<{ status: number; body: Job & ErrorAnswer }>) {
    const answer = await run;
    expect(answer.status).toBe(202);
    const done = await settle(token, answer.body.job_id);
    expect(done.status).toBe(200);
    return pdfText(done.pdf as Uint8Array);
  }

  it("a single-date valuation: the client, the date, each holding, and the same total as the position call", async () => {
    const date = "2025-01-31";
    const text = await reportText(client, runTemplate(client, 1, { entityid: ELLIE, variables: { as_at_date: date } }));
    const positions = (
      await harness.platform.call<Positions>(`/resourceful/portfolio/position?date=${date}`, { token: client })
    ).body;
    expect(positions.positions.length).toBeGreaterThan(3);
    expect(text.title).toBe("Portfolio valuation: Ellie Hartley");
    expect(text.author).toBe("Northbridge Wealth");
    expect(text.text).toContain("Northbridge Wealth");
    expect(text.text).toContain("Ellie Hartley");
    expect(text.text).toContain(`Valuation as at ${longDate(date)}`);
    for (const account of positions.accounts) expect(text.text).toContain(account.description);
    const flat = text.text.replace(/\s+/g, " ");
    for (const p of positions.positions) {
      // a holding with no valid name (seeded on purpose) is 'INVALID DATA', as on the page (spec 001 §5)
      const name = p.description.trim() ? p.description.replace(/\s+/g, " ") : INVALID_DATA;
      // units and price as the investments tab shows them in the original currency (spec 001 §9:
      // volumes to 4 decimals; money to 2, a price under 10 to 4), then the currency and the value
      const units = new Intl.NumberFormat("en-GB", { minimumFractionDigits: 0, maximumFractionDigits: 4 }).format(
        p.volume,
      );
      const price = pageMoney(p.native_marketprice, p.native_currency, "en-GB", {
        decimals: p.native_marketprice < 10 ? 4 : 2,
      });
      expect(flat).toContain(
        `${name} ${units} ${price} ${p.native_currency} ${formatMoney(Number(p.value.value._val), positions.report_currency)}`,
      );
    }
    expect(flat).toContain(`${INVALID_DATA} `);
    expect(flat).not.toContain("Unnamed");
    // prices of 10 and more with 2 decimals, as on the page (the seed has them)
    expect(positions.positions.some((p) => p.native_marketprice >= 10)).toBe(true);
    expect(flat).not.toMatch(/[£$€]\d{2,}(,\d{3})*\.\d{3}/);
    const total = formatMoney(sumOf(positions), positions.report_currency);
    expect(flat).toMatch(
      new RegExp(`Grand total of ${positions.accounts.length} accounts? ${total.replace(/[.$]/g, "\\$&")}`),
    );
    // the sum of the rounded positions is the position call's own total, to the penny
    expect(Math.abs(sumOf(positions) - Number(positions.total_value.value._val))).toBeLessThanOrEqual(
      0.01 * positions.positions.length,
    );
    expect(flat).toContain("Allocation by asset class");
    expect(flat).toContain("Basis of valuation");
    expect(flat).toMatch(/Page 1 of \d+/);
  });

  it("a date-range report of one account: the period, the account only, its total and the performance", async () => {
    const accounts = (await harness.platform.call<Account[]>("/resourceful/portfolio/account", { token: client })).body;
    const account = accounts.find((a) => !a.isLinked && a.service_type !== "Not managed") as Account;
    const from = "2024-03-14";
    const to = "2025-02-28";
    const text = await reportText(
      client,
      runTemplate(client, 2, {
        entityid: ELLIE,
        group_code: null,
        variables: { from_date: from, to_date: to, report_type: "account", accountid: account.accountid },
      }),
    );
    const positions = (
      await harness.platform.call<Positions>(
        `/resourceful/portfolio/position?date=${to}&accountid=${account.accountid}`,
        {
          token: client,
        },
      )
    ).body;
    const flat = text.text.replace(/\s+/g, " ");
    expect(flat).toContain(`Valuation for ${longDate(from)} to ${longDate(to)}`);
    expect(flat).toContain(account.description);
    for (const other of accounts.filter((a) => a.accountid !== account.accountid)) {
      if (!account.description.includes(other.description))
        expect(flat).not.toContain(`Total of ${other.description} `);
    }
    expect(flat).toContain(`Grand total of 1 account ${formatMoney(sumOf(positions), positions.report_currency)}`);
    expect(flat).toContain("Performance over the period");
    expect(flat).toContain(`Value on ${longDate(from)}`);
    expect(flat).toContain("Time-weighted return over the period");
  });

  it("a 3-year report of an account opened inside it: its returns labelled since its opening, annualised over that (decision 109)", async () => {
    // James's account, linked to Ellie (the client templates are hers)
    const accounts = (await harness.platform.call<Account[]>("/resourceful/portfolio/account", { token: client })).body;
    const usd = accounts.find((a) => a.description === "James US dollar account") as Account;
    const opened = String(
      (
        harness.platform.db.$client
          .prepare("SELECT MIN(trade_date) AS d FROM transactions WHERE account_id = ? AND type = 'transfer_in'")
          .get(usd.accountid) as { d: string }
      ).d,
    );
    const from = "2022-03-14";
    const to = "2025-03-13";
    expect(opened > from).toBe(true);
    const text = await reportText(
      client,
      runTemplate(client, 2, {
        entityid: ELLIE,
        group_code: null,
        variables: { from_date: from, to_date: to, report_type: "account", accountid: usd.accountid },
      }),
    );
    const flat = text.text.replace(/\s+/g, " ");
    expect(flat).toContain(`Time-weighted return since ${longDate(opened)}`);
    // twenty months: over a year, so annualised, and said to be over that period
    expect(flat).toContain(`Time-weighted return a year since ${longDate(opened)} (annualised)`);
    expect(flat).not.toContain("Time-weighted return over the period");
  });

  it("a group's report for an adviser: the adviser template, the group's accounts only", async () => {
    const groups = (await harness.platform.call<Group[]>("/resourceful/portfolio/group/account", { token: client }))
      .body;
    const group = groups[0] as Group;
    const text = await reportText(
      adviser,
      runTemplate(adviser, 4, {
        entityid: ELLIE,
        group_code: group.group_code,
        variables: { as_at_date: "2025-02-28" },
      }),
    );
    const positions = (
      await harness.platform.call<Positions>(
        `/resourceful/portfolio/group/account/code/${group.group_code}/position?date=2025-02-28`,
        { token: client },
      )
    ).body;
    const flat = text.text.replace(/\s+/g, " ");
    expect(text.title).toBe("Client valuation (adviser): Ellie Hartley");
    expect(flat).toContain(
      `Grand total of ${positions.accounts.length} account${positions.accounts.length === 1 ? "" : "s"} ${formatMoney(sumOf(positions), positions.report_currency)}`,
    );
  });

  it("the single-click valuation of demo.partner: his accounts as at today, the same total as the position call at his prices", async () => {
    const text = await reportText(partner, runValuation(partner, { clientId: JAMES, groupCode: null, variables: {} }));
    // as at today, the prices the client sees (view_marketdata: delayed), as the portal asks for them
    const positions = (
      await harness.platform.call<Positions>("/resourceful/portfolio/position?pricing_type=delayed", { token: partner })
    ).body;
    const flat = text.text.replace(/\s+/g, " ");
    expect(text.title).toBe("Portfolio valuation: James Hartley");
    expect(flat).toContain(`Valuation as at ${longDate(positions.date._val)}`);
    expect(positions.date._val).toBe(TODAY);
    expect(flat).toContain(formatMoney(sumOf(positions), positions.report_currency));
  });

  it("the household valuation of a member (Select Entity): the member's name", async () => {
    const text = await reportText(client, runTemplate(client, 3, { entityid: JAMES, variables: {} }));
    expect(text.text).toContain("James Hartley");
    expect(text.text).toContain("Household valuation");
  });

  it("demo.assets' single-click report says plainly that there is nothing to value", async () => {
    const text = await reportText(assets, runValuation(assets, { clientId: assetsEntity, variables: {} }));
    expect(text.text).toContain("Marcus Bell");
    expect(text.text).toContain(NO_ACCOUNTS);
  });
});

describe("development hooks", () => {
  it("the demo waits 1.5 s per report (the site setting a test sets to 0)", () => {
    expect(seededDelay).toBe(1500);
  });

  it("the copy of demo.client keeps its template assignments", async () => {
    const copy = await harness.platform.call<{ user_id: number }>("/dev/users/demo.client/copy", {
      method: "POST",
      body: { username: "reports.copy" },
    });
    expect(copy.status).toBe(201);
    const token = await harness.platform.session("reports.copy");
    const me = (await harness.platform.call<{ entity_id: number }>("/resourceful/session/user", { token })).body
      .entity_id;
    expect((await templatesOf(token, me)).body.map((t) => t.name)).toEqual([
      "Portfolio valuation",
      "Performance report",
      "Household valuation",
    ]);
  });

  it("the settings route refuses a malformed key or value", async () => {
    expect((await harness.platform.call("/dev/settings/bad%20key", { method: "PUT", body: { value: 1 } })).status).toBe(
      400,
    );
    expect(
      (await harness.platform.call("/dev/settings/reportJobDelayMs", { method: "PUT", body: { value: { a: 1 } } }))
        .status,
    ).toBe(400);
    expect(
      (await harness.platform.call("/dev/report-jobs/fail-next", { method: "POST", body: { username: "nobody.here" } }))
        .status,
    ).toBe(404);
  });
});
