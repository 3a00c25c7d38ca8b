import { describe, expect, it } from "vitest";
import {
  choicesQuery,
  MESSAGES,
  readSelection,
  type ReportInput,
  type ReportTemplate,
  todayIn,
  waitedTooLong,
} from "./valuation-report";
import { latestDate, periodDates, readReportRun } from "./report-run.server";

const template = (extra: Partial<ReportTemplate>): ReportTemplate => ({
  id: 7,
  name: "Report",
  userType: "Client",
  dateParameters: "No Date Required",
  requiredSelector: "Current Client Only",
  ...extra,
});
const input = (extra: Partial<ReportInput> = {}): ReportInput => ({
  template: "7",
  entity: "",
  selection: "",
  asAt: "",
  period: "",
  from: "",
  to: "",
  ...extra,
});
const choices = {
  clientId: 10,
  memberIds: [10, 11],
  groupCodes: ["FAM"],
  accountIds: [100, 101],
  latest: "2026-11-25",
  inception: "2021-03-15",
};

describe("dates (spec 002 §5 date range pickers)", () => {
  it("replaces today by yesterday with a hold-back period", () => {
    expect(latestDate("2026-03-01", false)).toBe("2026-03-01");
    expect(latestDate("2026-03-01", true)).toBe("2026-02-28");
  });
  it("dates the periods back from the end", () => {
    expect(periodDates("1Y", "2026-11-25", null)).toEqual({ from: "2025-11-25", to: "2026-11-25" });
    expect(periodDates("3Y", "2026-11-25", null)).toEqual({ from: "2023-11-25", to: "2026-11-25" });
    expect(periodDates("YTD", "2026-11-25", null)).toEqual({ from: "2026-01-01", to: "2026-11-25" });
    expect(periodDates("SI", "2026-11-25", "2021-03-15")).toEqual({ from: "2021-03-15", to: "2026-11-25" });
    expect(periodDates("1Y", "2024-02-29", null)).toEqual({ from: "2023-02-28", to: "2024-02-29" });
  });
  it("knows today in the user's time zone", () => {
    const lateUtc = new Date("2026-11-25T23:30:00Z");
    expect(todayIn("Europe/London", lateUtc)).toBe("2026-11-25");
    expect(todayIn("Australia/Sydney", lateUtc)).toBe("2026-11-26");
    expect(todayIn("Not/AZone", lateUtc)).toBe("2026-11-25");
  });
  it("knows today again when the day turns, within the minute it is kept for", () => {
    // kept per zone and minute: the last second of a day and the first of the next differ
    expect(todayIn("Europe/London", new Date("2026-11-25T23:59:59.900Z"))).toBe("2026-11-25");
    expect(todayIn("Europe/London", new Date("2026-11-26T00:00:00.100Z"))).toBe("2026-11-26");
    expect(todayIn("Asia/Kolkata", new Date("2026-11-25T18:29:59Z"))).toBe("2026-11-25");
    expect(todayIn("Asia/Kolkata", new Date("2026-11-25T18:30:00Z"))).toBe("2026-11-26");
    expect(todayIn("Asia/Kolkata", new Date("2026-11-25T18:29:59Z"))).toBe("2026-11-25");
  });
});

describe("readReportRun (spec 002 'Valuation report page', §7 report variables)", () => {
  it("needs a template", () => {
    expect(readReportRun(null, input(), choices).errors).toEqual({ template: MESSAGES.template });
  });
  it("runs a current-client report with no date for the client", () => {
    expect(readReportRun(template({}), input(), choices).run).toEqual({
      templateId: 7,
      entityId: 10,
      groupCode: null,
      variables: {},
    });
  });
  it("sends as_at_date for a single date typed DD-MM-YYYY, no later than the latest date", () => {
    const single = template({ dateParameters: "Single Date" });
    expect(readReportRun(single, input({ asAt: "30-06-2026" }), choices).run?.variables).toEqual({
      as_at_date: "2026-06-30",
    });
    expect(readReportRun(single, input({ asAt: " 30-06-2026 " }), choices).run?.variables).toEqual({
      as_at_date: "2026-06-30",
    });
    expect(readReportRun(single, input({ asAt: "26-11-2026" }), choices).errors).toEqual({ asAt: MESSAGES.future });
  });
  it("takes dates in the one format every date field has, DD-MM-YYYY (issue 25 item 18)", () => {
    const single = template({ dateParameters: "Single Date" });
    expect(readReportRun(single, input({ asAt: "2026-06-30" }), choices).errors).toEqual({ asAt: MESSAGES.dateFormat });
    expect(readReportRun(single, input({ asAt: "31-06-2026" }), choices).errors).toEqual({ asAt: MESSAGES.dateFormat });
    expect(readReportRun(single, input({ asAt: "" }), choices).errors).toEqual({ asAt: MESSAGES.dateRequired });
  });
  it("sends from and to for a range, since_inception when it starts at inception", () => {
    const range = template({ dateParameters: "Date Range" });
    expect(readReportRun(range, input({ period: "1Y" }), choices).run?.variables).toEqual({
      from_date: "2025-11-25",
      to_date: "2026-11-25",
      since_inception: false,
    });
    expect(readReportRun(range, input({ period: "SI" }), choices).run?.variables).toEqual({
      from_date: "2021-03-15",
      to_date: "2026-11-25",
      since_inception: true,
    });
    expect(
      readReportRun(range, input({ period: "custom", from: "15-03-2021", to: "15-03-2022" }), choices).run?.variables,
    ).toEqual({ from_date: "2021-03-15", to_date: "2022-03-15", since_inception: true });
    expect(readReportRun(range, input({ period: "nonsense" }), choices).run?.variables.from_date).toBe("2025-11-25");
  });
  it("refuses an end before the start with the spec's text", () => {
    const range = template({ dateParameters: "Date Range" });
    expect(
      readReportRun(range, input({ period: "custom", from: "01-05-2026", to: "30-04-2026" }), choices).errors,
    ).toEqual({ to: "reports:errors.endBeforeStart" });
    expect(readReportRun(range, input({ period: "custom", from: "", to: "30-04-2026" }), choices).errors).toEqual({
      from: MESSAGES.dateRequired,
    });
  });
  it("runs for a chosen member only among the members", () => {
    const entity = template({ requiredSelector: "Select Entity" });
    expect(readReportRun(entity, input({ entity: "11" }), choices).run?.entityId).toBe(11);
    expect(readReportRun(entity, input({ entity: "99" }), choices).errors).toEqual({ entity: MESSAGES.entity });
  });
  it("runs for a group, or where allowed an account, of the client's", () => {
    const group = template({ requiredSelector: "Account Group" });
    expect(readReportRun(group, input({ selection: "group:FAM" }), choices).run).toMatchObject({
      groupCode: "FAM",
      variables: { report_type: "group" },
    });
    expect(readReportRun(group, input({ selection: "account:100" }), choices).errors).toEqual({
      selection: MESSAGES.group,
    });
    const either = template({ requiredSelector: "Account Group Or Account" });
    expect(readReportRun(either, input({ selection: "account:100" }), choices).run).toMatchObject({
      groupCode: null,
      variables: { report_type: "account", accountid: 100 },
    });
    expect(readReportRun(either, input({ selection: "account:999" }), choices).errors).toEqual({
      selection: MESSAGES.groupOrAccount,
    });
    expect(readReportRun(either, input({ selection: "group:OTHER" }), choices).errors).toEqual({
      selection: MESSAGES.groupOrAccount,
    });
  });
  it("reads the selector's values", () => {
    expect(readSelection("group:FAM")).toEqual({ kind: "group", code: "FAM" });
    expect(readSelection("account:12")).toEqual({ kind: "account", id: 12 });
    expect(readSelection("account:x")).toBeNull();
  });
});

describe("the job (spec 002 §9)", () => {
  it("waits 5 minutes at most", () => {
    const started = "2026-11-25T10:00:00.000Z";
    expect(waitedTooLong(started, Date.parse("2026-11-25T10:04:59Z"))).toBe(false);
    expect(waitedTooLong(started, Date.parse("2026-11-25T10:05:01Z"))).toBe(true);
    expect(waitedTooLong(null, Date.now())).toBe(false);
  });
  it("keeps the choices in the query", () => {
    expect(choicesQuery({ template: "3", asAt: "2026-06-30", entity: "" })).toBe("?template=3&asAt=2026-06-30");
    expect(choicesQuery({})).toBe("");
  });
});
