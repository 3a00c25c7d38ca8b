import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { logger } from "~/runtime/logger.server";
import { unreadCount } from "./unread.server";

// spec 000 §2 "Unread badge", 002 §9: the root loader's count, asked of the platform as a count
// (issue 38), with a platform stood in by a replaced fetch (app/planning/platform-stand-in.server.ts).

type Answer = { status: number; body: unknown } | "network";

let answer: Answer;
let calls: URL[];

beforeEach(() => {
  calls = [];
  answer = { status: 200, body: { count: 0 } };
  vi.stubGlobal("fetch", async (input: RequestInfo | URL) => {
    calls.push(new URL(typeof input === "string" || input instanceof URL ? input.toString() : input.url));
    if (answer === "network") throw new TypeError("fetch failed");
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { "Content-Type": "application/json" },
    });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const HOME = new URL("http://portal.test/clients/home");
const opening = (id: string) => new URL(`http://portal.test/clients/documents-and-messages?message=${id}`);

describe("unreadCount (spec 000 §2 'Unread badge')", () => {
  it("asks the platform once for the count of the received documents not yet read", async () => {
    answer = { status: 200, body: { count: 7 } };
    expect(await unreadCount("token", HOME)).toBe(7);
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call!.pathname).toBe("/resourceful/docnote-v2/count");
    expect(Object.fromEntries(call!.searchParams)).toEqual({
      docsubtype_exclude: "Client Initiated",
      "firstread.include_read_notes": "false",
    });
  });

  it.each([
    [0, 0],
    [20, 20],
    [21, 21],
    [500, 21],
  ])("keeps the cap of 20 exact: %i unread show as %i (21 is '20+')", async (count, shown) => {
    answer = { status: 200, body: { count } };
    expect(await unreadCount("token", HOME)).toBe(shown);
  });

  it("has the platform leave out the message being opened by the same request", async () => {
    answer = { status: 200, body: { count: 3 } };
    expect(await unreadCount("token", opening("42"))).toBe(3);
    expect(calls[0]!.searchParams.getAll("id_exclude.0")).toEqual(["42"]);
    // another page, or no valid message id, leaves nothing out
    for (const url of [HOME, opening("abc"), opening("0"), new URL("http://portal.test/clients/home?message=42")]) {
      calls = [];
      await unreadCount("token", url);
      expect(
        [...calls[0]!.searchParams.keys()].some((key) => key.startsWith("id_exclude")),
        url.href,
      ).toBe(false);
    }
  });

  it.each<[string, Answer]>([
    ["a refusal", { status: 500, body: { api_message: "Internal error", user_message: "Internal error" } }],
    ["no session", { status: 401, body: { api_message: "This feature is not available without a valid session" } }],
    ["an answer without a count", { status: 200, body: [{ id: 1 }] }],
    ["a count that is no count", { status: 200, body: { count: -1 } }],
    ["no answer", "network"],
  ])("shows no badge after %s, and logs it", async (_, failure) => {
    answer = failure;
    const logged = vi.spyOn(logger, "error").mockImplementation(() => {});
    expect(await unreadCount("token", HOME)).toBeNull();
    expect(logged).toHaveBeenCalledWith(
      "unread count unavailable",
      expect.objectContaining({ error: expect.any(String) }),
    );
    // never repeated: the badge shows none rather than hold up the page
    expect(calls).toHaveLength(1);
  });
});
