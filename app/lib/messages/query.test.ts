import { describe, expect, it } from "vitest";
import { DEFAULT_MESSAGES_QUERY, listQuery, messagesHref, readMessagesQuery } from "./query";

const read = (search: string) => readMessagesQuery(new URL(`http://portal.test/clients/documents-and-messages${search}`));

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
    const q = read("?sort=subject-za&type=SecureMessage&search=%20%20Tax%20%20year%20&pages=99&message=7&expanded=true");
    expect(q).toMatchObject({ sort: "subject-za", type: "SecureMessage", search: "Tax year", pages: 50, message: 7, expanded: true });
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
    expect(href).toBe("/clients/documents-and-messages?folder=important&sort=oldest&search=tax&pages=2&message=5&expanded=true");
    expect(read(href.replace("/clients/documents-and-messages", ""))).toEqual(q);
  });

  it("closes the pane without losing the list's state, and builds the reply URL", () => {
    const q = read("?folder=sent&message=5&expanded=true");
    expect(messagesHref(listQuery(q))).toBe("/clients/documents-and-messages?folder=sent");
    expect(messagesHref(listQuery(q), { view: "reply", replyTo: 5 })).toBe("/clients/documents-and-messages?reply=5&folder=sent");
    expect(messagesHref(q, { pages: 2 }, "message-21")).toContain("#message-21");
  });
});
