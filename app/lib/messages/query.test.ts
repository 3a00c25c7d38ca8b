import { describe, expect, it } from "vitest";
import { checkDateRange, DEFAULT_MESSAGES_QUERY, isoDate, listQuery, messagesHref, readMessagesQuery } from "./query";

const read = (search: string) =>
  readMessagesQuery(new URL(`http://portal.test/clients/documents-and-messages${search}`));

describe("readMessagesQuery (spec 002 page state in the URL)", () => {
  it("answers the defaults for a bare URL", () => {
    expect(read("")).toEqual(DEFAULT_MESSAGES_QUERY);
  });

  it("opens Important with importantOnly=true and the signature folder with toBeSigned=true", () => {
    expect(read("?importantOnly=true").folder).toBe("important");
    expect(read("?toBeSigned=true").folder).toBe("signature");
    expect(read("?folder=custom-2").folder).toBe("custom-2");
    expect(read("?folder=elsewhere").folder).toBe("inbox");
  });

  it("reads the views: compose, reply with an id, and anything else as invalid", () => {
    expect(read("?compose=true").view).toBe("compose");
    expect(read("?reply=42")).toMatchObject({ view: "reply", replyTo: 42 });
    expect(read("?reply=abc").view).toBe("invalid");
    expect(read("?view=nonsense").view).toBe("invalid");
    expect(read("?view=messages").view).toBe("messages");
  });

  it("keeps only valid values: sort, type, search, pages (capped at 50), message, expanded", () => {
    const q = read(
      "?sort=subject-za&type=SecureMessage&search=%20%20Tax%20%20year%20&pages=99&message=7&expanded=true",
    );
    expect(q).toMatchObject({
      sort: "subject-za",
      type: "SecureMessage",
      search: "Tax year",
      pages: 50,
      message: 7,
      expanded: true,
    });
    expect(read("?sort=-created_date&type=All&pages=-1&message=0&expanded=true")).toMatchObject({
      sort: "newest",
      type: null,
      pages: 1,
      message: null,
      expanded: false,
    });
    expect(read(`?search=${"x".repeat(300)}`).search).toHaveLength(255);
  });
});

describe("messagesHref", () => {
  it("leaves defaults out and round-trips", () => {
    expect(messagesHref(DEFAULT_MESSAGES_QUERY)).toBe("/clients/documents-and-messages");
    const q = read("?folder=important&sort=oldest&search=tax&pages=2&message=5&expanded=true");
    const href = messagesHref(q);
    expect(href).toBe(
      "/clients/documents-and-messages?folder=important&sort=oldest&search=tax&pages=2&message=5&expanded=true",
    );
    expect(read(href.replace("/clients/documents-and-messages", ""))).toEqual(q);
  });

  it("closes the pane without losing the list's state, and builds the reply URL", () => {
    const q = read("?folder=sent&message=5&expanded=true");
    expect(messagesHref(listQuery(q))).toBe("/clients/documents-and-messages?folder=sent");
    expect(messagesHref(listQuery(q), { view: "reply", replyTo: 5 })).toBe(
      "/clients/documents-and-messages?reply=5&folder=sent",
    );
    expect(messagesHref(q, { pages: 2 }, "message-21")).toContain("#message-21");
  });
});

describe("the created-date range (spec 002 §5 'Date range pickers', §9 'Date filters')", () => {
  it("reads from and to as given, trimmed, and carries them in the URL", () => {
    const q = read("?from=%202026-01-01%20&to=2026-03-31&search=tax");
    expect(q).toMatchObject({ from: "2026-01-01", to: "2026-03-31" });
    const href = messagesHref(q);
    expect(href).toBe("/clients/documents-and-messages?search=tax&from=2026-01-01&to=2026-03-31");
    expect(read(href.replace("/clients/documents-and-messages", ""))).toEqual(q);
    // what was typed is kept (so that it is shown back), however wrong, within a bound on length
    expect(read("?from=31/03/2026").from).toBe("31/03/2026");
    expect(read(`?to=${"9".repeat(100)}`).to).toHaveLength(30);
    // the list's own state: closing the pane keeps the range
    expect(messagesHref(listQuery(read("?from=2026-01-01&message=5")))).toBe(
      "/clients/documents-and-messages?from=2026-01-01",
    );
  });

  it("takes only real yyyy-MM-dd dates", () => {
    expect(isoDate("2024-02-29")).toBe("2024-02-29");
    expect(isoDate("2000-02-29")).toBe("2000-02-29");
    for (const bad of [
      "2026-02-29",
      "1900-02-29",
      "2026-04-31",
      "2026-13-01",
      "2026-00-10",
      "2026-01-00",
      "0000-01-01",
      "26-01-01",
      "2026-1-1",
      "31-03-2026",
      "2026/03/31",
      "12026-01-01",
      "tomorrow",
    ]) {
      expect(isoDate(bad), bad).toBeNull();
    }
  });

  it("applies no bound for empty fields: the default range asks for nothing", () => {
    expect(checkDateRange("", "")).toEqual({ start: null, end: null, errors: { from: null, to: null } });
    expect(checkDateRange("2026-01-01", "")).toEqual({
      start: "2026-01-01",
      end: null,
      errors: { from: null, to: null },
    });
    expect(checkDateRange("", "2026-01-01")).toEqual({
      start: null,
      end: "2026-01-01",
      errors: { from: null, to: null },
    });
    // the same day at both ends is one day (both included)
    expect(checkDateRange("2026-01-01", "2026-01-01")).toMatchObject({ start: "2026-01-01", end: "2026-01-01" });
  });

  it("refuses an invalid date beside its field and leaves that bound out", () => {
    expect(checkDateRange("2026-02-30", "2026-03-31")).toEqual({
      start: null,
      end: "2026-03-31",
      errors: { from: "messages:dates.invalid", to: null },
    });
    expect(checkDateRange("2026-01-01", "31/13/2026")).toEqual({
      start: "2026-01-01",
      end: null,
      errors: { from: null, to: "messages:dates.invalid" },
    });
    expect(checkDateRange("30-02-2026", "31-03-20261")).toEqual({
      start: null,
      end: null,
      errors: { from: "messages:dates.invalid", to: "messages:dates.invalid" },
    });
  });

  it("takes the portal's date field, DD-MM-YYYY, and the spec's yyyy-MM-dd (issue 25 item 18)", () => {
    expect(checkDateRange("01-02-2026", "31-03-2026")).toEqual({
      start: "2026-02-01",
      end: "2026-03-31",
      errors: { from: null, to: null },
    });
    expect(checkDateRange("01-02-2026", "2026-03-31")).toMatchObject({ start: "2026-02-01", end: "2026-03-31" });
    expect(checkDateRange("31-03-2026", "01-02-2026")).toEqual({
      start: null,
      end: null,
      errors: { from: null, to: "messages:dates.endBeforeStart" },
    });
  });

  it("refuses an end before the start beside the To field and leaves the range out", () => {
    expect(checkDateRange("2026-06-01", "2026-01-01")).toEqual({
      start: null,
      end: null,
      errors: { from: null, to: "messages:dates.endBeforeStart" },
    });
  });
});
