import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/seed";
import { freshClient, type Portal, signedInPost, startPortal } from "./portal-harness";

// spec 002 "Security questions" with the current password asked again (ASVS V3.7.1, decision
// 179): against a real platform, a missing or wrong password changes nothing and nothing secret
// is answered back; the right one saves.

type QuestionsRoute = typeof import("~/routes/clients.security-questions/route");
let portal: Portal;
let page: QuestionsRoute;

const PAGE = "http://portal.test/clients/security-questions";
const Q1 = "What was the name of your first pet?";
const Q2 = "What was the make of your first car?";

beforeAll(async () => {
  portal = await startPortal();
  page = await import("~/routes/clients.security-questions/route");
}, 60_000);

afterAll(async () => {
  await portal?.close();
});

const newClient = () => freshClient(portal, "questions");

const post = (cookie: string, fields: Record<string, string>) =>
  signedInPost(portal, page.action, PAGE, cookie, fields);

const answers = { question1: Q1, answer1: "Biscuit-the-dog", question2: Q2, answer2: "Morris Minor" };

describe("security questions, with the current password", () => {
  it("saves nothing without it or with a wrong one, answering neither it nor the answers back", async () => {
    const { username, cookie } = await newClient();
    const before = (await portal.platform.call<unknown[]>(`/dev/outbox?to=${username}`)).body;
    type Answer = { result: { error: Record<string, string[]> } };
    const none = await post(cookie, answers);
    expect(none.status).toBe(400);
    expect(((await none.json()) as Answer).result.error).toEqual({
      currentPassword: ["security:changePassword.errors.current"],
    });
    const wrong = await post(cookie, { ...answers, currentPassword: "Not-the-password-2" });
    expect(wrong.status).toBe(400);
    const text = await wrong.text();
    expect((JSON.parse(text) as Answer).result.error).toEqual({
      currentPassword: ["security:changePassword.errors.incorrect"],
    });
    for (const secret of ["Not-the-password-2", "Biscuit-the-dog", "Morris Minor"]) expect(text).not.toContain(secret);
    // nothing changed, so the owner was told of nothing
    expect((await portal.platform.call<unknown[]>(`/dev/outbox?to=${username}`)).body).toEqual(before);

    const saved = await post(cookie, { ...answers, currentPassword: DEMO_PASSWORD });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Set-Cookie")).toMatch(/toast=/);
  });
});
