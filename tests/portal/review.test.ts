import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openClientInContext, type Portal, startPortal, thrown } from "./portal-harness";

// The annual review's loader and action (spec 002 "Annual Review page", §4 "Review flow", §5, §8)
// against a real platform: the pages in order, answers kept by the platform, the partner's part,
// the submission's message per person and statuses, speak to adviser, and who may see it.

type Route = {
  loader: (args: LoaderFunctionArgs) => Promise<Response>;
  action: (args: ActionFunctionArgs) => Promise<Response>;
};
type View = {
  kind: "page" | "followUp";
  page: { order: number; type: string; heading: string };
  progress: { shown: number; arrival: number; answered: number };
  canAnswerForPartner: boolean;
  respondForPartner: boolean;
  questions: { client: string; partner: string | null } | null;
  answers: { client: { response: string | null; additionalText: string }; partner: { response: string | null } };
  risk: { client: { rating: string | null }; partner: { rating: string | null } | null } | null;
  playback: Array<{ fieldName: string; client: string[] | null; partner: string[] | null; phone: boolean }> | null;
  summary: string | null;
  completion: { successText: string | null } | null;
  inProgress: boolean;
  speakToAdviser: { offered: boolean; contact?: unknown } | null;
};
type Loaded = { view: View; confirmLogout: boolean; title: string };

const PATH = "http://portal.test/clients/annual-review";
let portal: Portal;
let route: Route;

async function load(cookie: string, search = ""): Promise<Response> {
  return thrown(
    route.loader({
      request: new Request(`${PATH}${search}`, { headers: { Cookie: cookie } }),
      params: {},
      context: {},
    }),
  );
}
async function view(cookie: string, search = ""): Promise<Loaded> {
  const response = await load(cookie, search);
  expect(response.status).toBe(200);
  return (await response.json()) as Loaded;
}
async function post(cookie: string, fields: Record<string, string>): Promise<Response> {
  const { token, cookie: csrfCookie } = await portal.csrf(cookie);
  const request = new Request(PATH, {
    method: "POST",
    body: new URLSearchParams({ csrf: token, ...fields }),
    headers: { Cookie: `${cookie}; ${csrfCookie}`, "Content-Type": "application/x-www-form-urlencoded" },
  });
  return thrown(route.action({ request, params: {}, context: {} }));
}
const location = (response: Response) => response.headers.get("Location");

/** A copy of demo.client with a partner and both reviews in progress, signed in. */
async function reviewer(
  name: string,
  options: { adviser?: string } = {},
): Promise<{ cookie: string; username: string }> {
  const copied = await portal.platform.call("/dev/users/demo.client/copy", {
    method: "POST",
    body: { username: name, review: true, ...options },
  });
  expect(copied.status).toBe(201);
  return { cookie: await portal.signIn(name), username: name };
}

async function platformReview(username: string) {
  const token = await portal.platform.session(username);
  const me = (await portal.platform.call("/resourceful/session/user", { token })).body as unknown as {
    entity_id: number;
  };
  const review = (await portal.platform.call(`/resourceful/review/client/${me.entity_id}`, { token }))
    .body as unknown as {
    review_status: string;
    partner: { id: number; review_status: string } | null;
    state: {
      order: number;
      client_questions: Array<{ id: number; response: boolean | null; additional_text: string | null }>;
      partner_questions: Array<{ id: number; response: boolean | null }>;
      is_submitted: boolean;
    } | null;
  };
  return { token, entityId: me.entity_id, review };
}

beforeAll(async () => {
  portal = await startPortal();
  route = (await import("~/routes/clients.annual-review/route")) as unknown as Route;
}, 60_000);
afterAll(() => portal.close());

describe("who may see the review (spec 002 §6)", () => {
  it("is Access Denied for an adviser, even with the client in context", async () => {
    const adviser = await openClientInContext(
      portal,
      await portal.signIn("demo.adviser", "adviser"),
      "Hartley",
      "Hartley, Eleanor",
    );
    expect((await load(adviser)).status).toBe(403);
  });

  it("sends a client without a review in progress to the clients home", async () => {
    const response = await load(await portal.signIn("demo.assets"));
    expect(response.status).toBe(302);
    expect(location(response)).toBe("/clients/");
  });
});

describe("the review flow (spec 002 §4, §5)", () => {
  let cookie: string;
  let username: string;
  beforeAll(async () => {
    ({ cookie, username } = await reviewer("review-portal-flow"));
  });

  it("opens on the introduction with the partner choice, and asks for it before starting", async () => {
    const { view: intro, confirmLogout } = await view(cookie);
    expect(intro.page.type).toBe("reviewIntro");
    expect(intro.canAnswerForPartner).toBe(true);
    expect(confirmLogout).toBe(true);
    const refused = await post(cookie, { intent: "start", page: String(intro.page.order) });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { errors: unknown }).errors).toEqual({
      respondForPartner: "review:errors.required",
    });
  });

  it("starts answering for the partner too, and requires both answers on a question", async () => {
    const started = await post(cookie, { intent: "start", page: "1", respondForPartner: "yes" });
    expect(location(started)).toBe("/clients/annual-review?page=2");
    const { view: first, title } = await view(cookie, "?page=2");
    expect(first.page.type).toBe("standardQuestionPage");
    // each step has a title of its own: its heading, then the review's (issue 40, WCAG 2.4.2)
    expect(title).toBe(`${first.page.heading} – Annual Review`);
    const intro = await view(cookie, "?page=1");
    expect(intro.title).toBe(`${intro.view.page.heading} – Annual Review`);
    expect(intro.title).not.toBe(title);
    expect(first.questions?.partner).toBeTruthy();
    expect(first.progress.shown).toBe(0);
    const empty = await post(cookie, { intent: "next", page: "2", clientText: "kept" });
    expect(empty.status).toBe(400);
    const body = (await empty.json()) as { errors: unknown; typed: { client: { additionalText: string } } };
    expect(body.errors).toEqual({ client: "review:errors.required", partner: "review:errors.required" });
    expect(body.typed.client.additionalText).toBe("kept");
  });

  it("stores the answers on the platform at each Next, with the details for a Yes", async () => {
    const next = await post(cookie, {
      intent: "next",
      page: "2",
      client: "yes",
      clientText: "We moved house",
      partner: "no",
    });
    expect(location(next)).toBe("/clients/annual-review?page=3");
    const { review } = await platformReview(username);
    expect(review.state?.order).toBe(3);
    expect(review.state?.client_questions).toEqual([
      expect.objectContaining({ id: 2, response: true, additional_text: "We moved house" }),
    ]);
    expect(review.state?.partner_questions).toEqual([expect.objectContaining({ id: 2, response: false })]);
    // a new sign-in (another device, another instance) finds them
    const again = await portal.signIn(username);
    const resumed = (await view(again)).view;
    expect(resumed.page.order).toBe(3);
    const back = (await view(again, "?page=2")).view;
    expect(back.answers.client).toEqual({ response: "yes", additionalText: "We moved house" });
    expect(back.progress.shown).toBeGreaterThan(0);
  });

  it("does not show a page not reached yet", async () => {
    expect((await view(cookie, "?page=8")).view.page.order).toBe(3);
  });

  it("goes back with Previous, keeping what was chosen", async () => {
    const previous = await post(cookie, { intent: "previous", page: "3", client: "no" });
    expect(location(previous)).toBe("/clients/annual-review?page=2");
    const { review } = await platformReview(username);
    expect(review.state?.client_questions.find((a) => a.id === 3)?.response).toBe(false);
    expect(review.state?.order).toBe(3);
  });

  it("plays back the risk profiles and the details of both, then submits a message per person", async () => {
    let order = 3;
    for (;;) {
      const page = (await view(cookie, `?page=${order}`)).view;
      if (page.page.type === "submission") {
        expect(page.summary).toBeTruthy();
        break;
      }
      if (page.page.type === "riskProfileQuestion") {
        expect(page.risk?.client.rating).toMatch(/^Risk rating: \d+ \(.+\)$/);
        expect(page.risk?.partner?.rating).toMatch(/^Risk rating: \d+ \(.+\)$/);
      }
      if (page.page.type === "contactDetailsQuestionPage") {
        const phone = page.playback?.find((row) => row.phone && row.client);
        expect(phone).toBeTruthy();
        expect(page.playback?.some((row) => row.client === null || row.partner === null)).toBe(true);
        expect(page.playback?.some((row) => (row.client?.length ?? 0) > 1)).toBe(true);
      }
      if (page.page.type === "personalDetailsQuestionPage") {
        // the country of birth by its name, as the personal details page shows it, not its code
        const country = page.playback?.find((row) => row.fieldName === "country_of_birth");
        expect(country?.client).toEqual(["United Kingdom"]);
      }
      const next = await post(cookie, { intent: "next", page: String(order), client: "no", partner: "no" });
      expect(next.status).toBe(302);
      order = Number(new URL(location(next)!, PATH).searchParams.get("page"));
    }
    const { review: before, token, entityId } = await platformReview(username);
    const sentBefore = (
      await portal.platform.call("/resourceful/docnote-v2?page_size=50&docsubtype=Client%20Initiated", { token })
    ).body as unknown as unknown[];
    const submitted = await post(cookie, { intent: "submit", page: String(order) });
    expect(submitted.status).toBe(302);
    const { review: after } = await platformReview(username);
    expect(after.review_status).toBe("Changes Reported");
    expect(after.partner?.review_status).toBe("No Changes Reported");
    expect(after.state?.is_submitted).toBe(true);
    expect(before.review_status).toBe("In Progress");
    const sentAfter = (
      await portal.platform.call("/resourceful/docnote-v2?page_size=50&docsubtype=Client%20Initiated", { token })
    ).body as unknown as Array<{ subject: string }>;
    expect(sentAfter.length - sentBefore.length).toBe(2);
    expect(sentAfter.filter((d) => /annual review/i.test(d.subject))).toHaveLength(2);
    // the client's own message is read in her Sent folder (spec 002 §4 "Sending")
    const own = (sentAfter as Array<{ subject: string; entity_ids: number[]; has_been_seen: boolean }>).find(
      (d) => /annual review/i.test(d.subject) && d.entity_ids.includes(entityId),
    );
    expect(own?.has_been_seen).toBe(true);
    // the completion, then Finish resets the review and goes home, where the page no longer opens
    const completion = await view(cookie);
    expect(completion.view.page.type).toBe("completion");
    expect(completion.confirmLogout).toBe(false);
    const finished = await post(cookie, { intent: "finish" });
    expect(location(finished)).toBe("/clients/");
    expect(location(await load(cookie))).toBe("/clients/");
  });
});

describe("speak to adviser (spec 002 'Annual Review page', §8)", () => {
  it("sets follow-up required and confirms it", async () => {
    const { cookie, username } = await reviewer("review-portal-speak", { adviser: "demo.adviser2" });
    expect((await view(cookie, "?page=1")).view.speakToAdviser).toEqual({ offered: true });
    const spoke = await post(cookie, { intent: "speak", page: "1" });
    expect(location(spoke)).toBe("/clients/annual-review?outcome=follow-up");
    expect((await platformReview(username)).review.review_status).toBe("Follow Up Required");
    const confirmed = await view(cookie, "?outcome=follow-up");
    expect(confirmed.view.kind).toBe("followUp");
    expect(confirmed.confirmLogout).toBe(false);
    // without the outcome, the page is closed now
    expect(location(await load(cookie))).toBe("/clients/");
  });

  it("is not offered to a client without an adviser, who is told whom to contact instead (issue 25 item 12)", async () => {
    const { cookie, username } = await reviewer("review-portal-no-adviser");
    const intro = (await view(cookie, "?page=1")).view;
    expect(intro.page.type).toBe("reviewIntro");
    expect(intro.speakToAdviser).toEqual({
      offered: false,
      contact: {
        name: "Client Services",
        phone: { text: "020 7946 0800", href: "tel:02079460800" },
        email: {
          text: "clientservices@northbridgewealth.example",
          href: "mailto:clientservices@northbridgewealth.example",
        },
      },
    });
    // a post from an old page changes nothing
    const spoke = await post(cookie, { intent: "speak", page: "1" });
    expect(location(spoke)).toBe("/clients/annual-review?page=1");
    expect((await platformReview(username)).review.review_status).toBe("In Progress");
  });
});

describe("a submission the platform refuses (spec 002 §8)", () => {
  it("shows the completion failure when an answer carries a user message, and sets no status", async () => {
    const { cookie, username } = await reviewer("review-portal-refused");
    await post(cookie, { intent: "start", page: "1", respondForPartner: "no" });
    let order = 2;
    for (;;) {
      const page = (await view(cookie, `?page=${order}`)).view;
      if (page.page.type === "submission") break;
      const next = await post(cookie, { intent: "next", page: String(order), client: "no" });
      order = Number(new URL(location(next)!, PATH).searchParams.get("page"));
    }
    // the platform's answer for the client carries a user message (as when it could not record it)
    const { token, entityId } = await platformReview(username);
    const { createPlanningClient } = await import("~/planning/client.server");
    const { getFixedT } = await import("~/session/i18next.server");
    const { reviewAction } = await import("~/routes/clients.annual-review/review.server");
    const real = createPlanningClient({ token });
    const planning: typeof real = {
      ...real,
      post: (async (path: string, schema: never, opts?: never) =>
        path.endsWith("/submit")
          ? [{ id: entityId, user_message: "Your review could not be recorded" }]
          : real.post(path, schema, opts)) as typeof real.post,
    };
    const request = new Request(PATH, { method: "POST" });
    const form = new FormData();
    form.set("intent", "submit");
    form.set("page", String(order));
    const refused = await thrown(
      reviewAction({
        request,
        planning,
        clientId: entityId,
        role: "ClientUser",
        clientAccess: 1,
        t: await getFixedT(request, "review"),
        locale: "en-GB",
        form,
      }),
    );
    expect(refused.status).toBe(502);
    expect(await refused.json()).toEqual({ submitFailed: true });
    // no status was set: the review is still in progress and still open
    expect((await platformReview(username)).review.review_status).toBe("In Progress");
    expect((await view(cookie)).view.page.type).toBe("submission");
  });
});
