import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openClientInContext, type Portal, startPortal, thrown } from "./portal-harness";

// The valuation report page, the job's page and the download (spec 002 "Valuation report page",
// §4 "Report run", §9) against a real platform: templates by user type, the run, waiting, the
// file as report.pdf, a failure, and who may see what.

type Route = {
  loader: (args: LoaderFunctionArgs) => Promise<Response>;
  action?: (args: ActionFunctionArgs) => Promise<Response>;
};
type Form = {
  templates: Array<{ value: string; label: string }>;
  template: { value: string; dateParameters: string; requiredSelector: string } | null;
  members: Array<{ value: string; label: string }>;
  groups: Array<{ value: string; label: string }>;
  accounts: Array<{ value: string; label: string }>;
};
type JobView = { state: string; downloadHref?: string; message?: string | null };

const BASE = "http://portal.test/clients/valuation-report";
let portal: Portal;
let page: Route;
let job: Route;
let file: Route;

const get = (route: Route, url: string, cookie: string, params: Record<string, string> = {}) =>
  thrown(route.loader({ request: new Request(url, { headers: { Cookie: cookie } }), params, context: {} }));

async function form(cookie: string, search = ""): Promise<Form> {
  const response = await get(page, `${BASE}${search}`, cookie);
  expect(response.status).toBe(200);
  return ((await response.json()) as { form: Form }).form;
}

/** The toast a response leaves for the next page. */
async function toastOf(response: Response) {
  const cookie = response.headers
    .getSetCookie()
    .find((c) => c.startsWith("__toast="))
    ?.split(";")[0];
  if (!cookie) return null;
  const { readToast } = await import("~/session/toast.server");
  return (await readToast(new Request("http://portal.test/", { headers: { Cookie: cookie } }))).toast;
}

async function run(cookie: string, fields: Record<string, string>): Promise<Response> {
  const { token, cookie: csrfCookie } = await portal.csrf(cookie);
  const request = new Request(BASE, {
    method: "POST",
    body: new URLSearchParams({ csrf: token, ...fields }),
    headers: { Cookie: `${cookie}; ${csrfCookie}`, "Content-Type": "application/x-www-form-urlencoded" },
  });
  return thrown(page.action!({ request, params: {}, context: {} }));
}

/** The job's page, asked again until it is no longer pending (as the browser does every 3 seconds). */
async function waitForJob(cookie: string, location: string): Promise<{ view: JobView; again: string }> {
  const url = new URL(location, BASE);
  const jobId = decodeURIComponent(url.pathname.split("/").pop()!);
  for (let i = 0; i < 100; i++) {
    const response = await get(job, url.toString(), cookie, { jobId });
    const answer = (await response.json()) as { view: JobView; again: string };
    if (!answer.view) throw new Error(`the job's page answered ${response.status}: ${JSON.stringify(answer)}`);
    if (answer.view.state !== "pending") return answer;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the job never finished");
}

beforeAll(async () => {
  portal = await startPortal();
  // no waiting in tests: the platform's demo delay off
  expect(
    (await portal.platform.call("/dev/settings/reportJobDelayMs", { method: "PUT", body: { value: 0 } })).status,
  ).toBe(200);
  page = (await import("~/routes/clients.valuation-report/route")) as unknown as Route;
  job = (await import("~/routes/clients.valuation-report_.jobs.$jobId/route")) as unknown as Route;
  file = (await import("~/routes/clients.valuation-report_.jobs.$jobId_.report[.]pdf/route")) as unknown as Route;
}, 60_000);
afterAll(() => portal.close());

describe("the report form (spec 002 'Valuation report page', §6)", () => {
  it("offers a client their client templates, 'Me' first among the members", async () => {
    const client = await portal.signIn("demo.client");
    const f = await form(client);
    expect(f.templates.map((t) => t.label).sort()).toEqual([
      "Household valuation",
      "Performance report",
      "Portfolio valuation",
    ]);
    const household = f.templates.find((t) => t.label === "Household valuation")!;
    const chosen = await form(client, `?template=${household.value}`);
    expect(chosen.template?.requiredSelector).toBe("Select Entity");
    expect(chosen.members[0]?.label).toBe("Me");
  });

  it("offers as accounts and groups exactly what a run can cover: her own managed accounts, no 'Not managed' nor linked one (decision 107)", async () => {
    const client = await portal.signIn("demo.client");
    const sql = (text: string) =>
      portal.platform.db.$client.prepare(text).all() as Array<Record<string, string | number>>;
    const entity = Number(sql("SELECT entity_id AS id FROM users WHERE username = 'demo.client'")[0]!.id);
    const seen = sql(
      `SELECT a.description AS name, a.service_type AS st, v.is_linked AS linked, g.group_name AS grp FROM accounts a
       JOIN portfolio_visibility v ON v.portfolio_id = a.portfolio_id LEFT JOIN account_groups g ON g.id = a.account_group_id
       WHERE v.entity_id = ${entity} ORDER BY a.id`,
    );
    const ownManaged = seen.filter((a) => a.st !== "Not managed" && a.linked === 0);
    // the seed has the accounts the form must leave out: 'Not managed' and linked
    expect(seen.some((a) => a.st === "Not managed" && a.linked === 0)).toBe(true);
    expect(seen.some((a) => a.linked === 1)).toBe(true);
    const templates = (await form(client)).templates;
    let checked = 0;
    for (const template of templates) {
      const f = await form(client, `?template=${template.value}`);
      if (
        f.template?.requiredSelector !== "Account Group Or Account" &&
        f.template?.requiredSelector !== "Account Group"
      )
        continue;
      checked++;
      if (f.template.requiredSelector === "Account Group Or Account") {
        expect(f.accounts.map((a) => a.label).sort()).toEqual(ownManaged.map((a) => String(a.name)).sort());
        expect(f.accounts.map((a) => a.label)).not.toContain("Ellie Premium Bonds and deposits");
      }
      // a group is offered only with one of her own managed accounts in it: 'Cash and deposits' holds only the Premium Bonds
      const groups = [
        ...new Set(ownManaged.map((a) => a.grp).filter((g): g is string => typeof g === "string")),
      ].sort();
      expect(f.groups.map((g) => g.label).sort()).toEqual(groups);
      expect(f.groups.map((g) => g.label)).not.toContain("Cash and deposits");
    }
    expect(checked).toBeGreaterThan(0);
  });

  it("offers an adviser in context the adviser templates only", async () => {
    const adviser = await openClientInContext(
      portal,
      await portal.signIn("demo.adviser", "adviser"),
      "Hartley",
      "Hartley, Eleanor",
    );
    const f = await form(adviser);
    expect(f.templates.map((t) => t.label).sort()).toEqual(["Client review pack", "Client valuation (adviser)"]);
  });

  it("is Access Denied at the Messages level", async () => {
    expect((await get(page, BASE, await portal.signIn("demo.messages"))).status).toBe(403);
  });
});

describe("running a report (spec 002 §4 'Report run', §9)", () => {
  it("runs a single-date report, waits for it and downloads report.pdf", async () => {
    const client = await portal.signIn("demo.client");
    const single = (await form(client)).templates.find((t) => t.label === "Portfolio valuation")!;
    const started = await run(client, { intent: "run", template: single.value, asAt: "31-01-2025" });
    expect(started.status).toBe(302);
    // spec 002 §8: the report toast, for the job's page to show beside its own status
    expect(await toastOf(started)).toEqual({ type: "info", title: "reports:job.generating" });
    const location = started.headers.get("Location")!;
    expect(location).toMatch(
      new RegExp(`^/clients/valuation-report/jobs/[^/?]+\\?template=${single.value}&asAt=31-01-2025&started=\\d+$`),
    );
    const { view, again } = await waitForJob(client, location);
    expect(view.state).toBe("ready");
    expect(again).toBe(`/clients/valuation-report?template=${single.value}&asAt=31-01-2025`);
    const jobId = decodeURIComponent(new URL(location, BASE).pathname.split("/").pop()!);
    const pdf = await get(file, new URL(view.downloadHref!, BASE).toString(), client, { jobId });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
    expect(pdf.headers.get("Content-Disposition")).toBe('attachment; filename="report.pdf"');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    // another user cannot read the job
    const other = await portal.signIn("demo.partner");
    expect((await get(job, new URL(location, BASE).toString(), other, { jobId })).status).toBe(404);
  });

  it("refuses an end date before the start with the spec's text, keeping the choices", async () => {
    const client = await portal.signIn("demo.client");
    const range = (await form(client)).templates.find((t) => t.label === "Performance report")!;
    const groups = (await form(client, `?template=${range.value}`)).groups;
    const refused = await run(client, {
      intent: "run",
      template: range.value,
      selection: groups[0]!.value,
      period: "custom",
      from: "01-05-2026",
      to: "30-04-2026",
    });
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { errors: Record<string, string>; values: Record<string, string> };
    expect(body.errors).toEqual({ to: "reports:errors.endBeforeStart" });
    expect(body.values.from).toBe("01-05-2026");
  });

  it("gives a client without templates the single-click report", async () => {
    const partner = await portal.signIn("demo.partner");
    expect((await form(partner)).templates).toEqual([]);
    const started = await run(partner, { intent: "run-default" });
    expect(started.status).toBe(302);
    expect(await toastOf(started)).toEqual({ type: "info", title: "reports:job.generating" });
    expect((await waitForJob(partner, started.headers.get("Location")!)).view.state).toBe("ready");
  });

  it("without JavaScript reloads itself a few times, then stops and says so (WCAG 2.2.2)", async () => {
    const client = await portal.signIn("demo.client");
    const single = (await form(client)).templates.find((t) => t.label === "Portfolio valuation")!;
    const delay = (value: number) =>
      portal.platform.call("/dev/settings/reportJobDelayMs", { method: "PUT", body: { value } });
    expect((await delay(600_000)).status).toBe(200);
    try {
      const location = (await run(client, { intent: "run", template: single.value, asAt: "31-01-2025" })).headers.get(
        "Location",
      )!;
      const url = new URL(location, BASE);
      const jobId = decodeURIComponent(url.pathname.split("/").pop()!);
      const at = async (checks: number | null) => {
        const asked = new URL(url);
        if (checks !== null) asked.searchParams.set("checks", String(checks));
        const response = await get(job, asked.toString(), client, { jobId });
        const body = (await response.json()) as { view: JobView & { stoppedChecking?: boolean }; self: string };
        return { refresh: response.headers.get("Refresh"), ...body };
      };
      const first = await at(null);
      expect(first.view).toEqual({ state: "pending", stoppedChecking: false });
      // each reload counts itself in the URL it leads to
      expect(first.refresh).toBe(`3; url=${url.pathname}${url.search}&checks=1`);
      expect((await at(9)).refresh).toBe(`3; url=${url.pathname}${url.search}&checks=10`);
      const last = await at(10);
      expect(last.refresh).toBeNull();
      expect(last.view).toEqual({ state: "pending", stoppedChecking: true });
      // 'Check again now' looks again and starts the reloads afresh
      expect(last.self).toBe(`${url.pathname}${url.search}`);
    } finally {
      expect((await delay(0)).status).toBe(200);
    }
  });

  it("ends the wait when the job fails, with the platform's message", async () => {
    const username = "report-portal-fails";
    expect(
      (await portal.platform.call("/dev/users/demo.client/copy", { method: "POST", body: { username } })).status,
    ).toBe(201);
    const client = await portal.signIn(username);
    const single = (await form(client)).templates.find((t) => t.label === "Portfolio valuation")!;
    expect(
      (await portal.platform.call("/dev/report-jobs/fail-next", { method: "POST", body: { username } })).status,
    ).toBe(200);
    const started = await run(client, { intent: "run", template: single.value, asAt: "31-01-2025" });
    const { view, again } = await waitForJob(client, started.headers.get("Location")!);
    expect(view.state).toBe("failed");
    expect(view.message).toBe("The report could not be generated.");
    expect(again).toContain("asAt=31-01-2025");
  });
});
