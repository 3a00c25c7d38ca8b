// docs/platform-api.md "Review and notifications" (spec 002 §2 "Annual Review page", §3 review state,
// page config and notification config, §4 "Review flow", "Notification flow", §7): the notification
// config (read and set), the review's pages, state, playback and submission, who may call them, the
// demo data and the dev copy of a reviewing client.
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { capabilities, contacts, documents, entities, siteSettings, users } from "../../server/db/schema";
import { CALLER, type ClientRow, type ErrorAnswer, type Platform, withPlatform } from "./harness";

type Config = {
  fact_find_status: string;
  xpt_review_status: string;
  robo_journey_type: string;
  robo_journey_status: string;
  consent_workflow_status: number;
  fee_summary_opt_in_status: number;
  can_complete_journey: boolean;
  email_template_id: number | null;
  partner_entity_id: number | null;
};
type Page = {
  order: number;
  type: string;
  heading: string;
  secondary_heading: string | null;
  introduction_text: string | null;
  client_question: string | null;
  partner_question: string | null;
  alternate_client_question: string | null;
  alternate_partner_question: string | null;
  hint: string | null;
  show_additional_information: boolean;
  fields: Array<{ field_name: string; description: string; enabled: boolean }>;
  changes_text: string | null;
  no_changes_text: string | null;
  success_text: string | null;
  error_text: string | null;
  display_adviser_detail: boolean;
  adviser_details_header: string | null;
};
type Answer = { id: number; question: string; response: boolean | null; additional_text: string | null };
type Review = {
  client_id: number;
  review_status: string;
  partner: { id: number; name: string; review_status: string } | null;
  can_answer_for_partner: boolean;
  state: {
    order: number;
    respond_for_partner: boolean | null;
    client_questions: Answer[];
    partner_questions: Answer[];
    is_submitted: boolean;
    submitted_at: string | null;
    updated_at: string;
  } | null;
};
type RiskProfile = { name: string | null; index: number | null; description: string | null; is_empty: boolean };
type Playback = {
  client: { id: number; name: string };
  partner: { id: number; name: string } | null;
  values: Array<{ field_name: string; client_value: string | null; partner_value: string | null }>;
  risk_profile: { client: RiskProfile; partner: RiskProfile | null };
};
type SubmitResult = { id: number; docnote_id?: number; status: string; user_message?: string };
type Doc = {
  id: number;
  subject: string;
  entity_ids: number[];
  docsubtype: string | null;
  creator: { id: number; name: string };
  has_been_seen: boolean;
};

const ELLIE = 1;
const JAMES = 2;
const CONFIG_FIELDS = [
  "fact_find_status",
  "xpt_review_status",
  "robo_journey_type",
  "robo_journey_status",
  "consent_workflow_status",
  "fee_summary_opt_in_status",
  "can_complete_journey",
  "email_template_id",
  "partner_entity_id",
];
const PAGE_TYPES = [
  "reviewIntro",
  "standardQuestionPage",
  "standardQuestionPage",
  "standardQuestionPage",
  "riskProfileQuestion",
  "contactDetailsQuestionPage",
  "personalDetailsQuestionPage",
  "submission",
  "completion",
];

const v4 = (id: number, query = "") => `/resourceful/entity/client-v4/${id}${query}`;
const review = (id: number, rest = "") => `/resourceful/review/client/${id}${rest}`;

const entityOf = (platform: Platform, username: string) =>
  platform.db.select({ id: users.entityId }).from(users).where(eq(users.usernameKey, username)).get()!.id;
const adviserEntity = (platform: Platform) => entityOf(platform, "demo.adviser");

function answers(n: number, response = true, extra: Partial<Answer> = {}): Answer[] {
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    question: `Question ${i + 1}?`,
    response,
    additional_text: null,
    ...extra,
  }));
}

function setting(platform: Platform, key: string, value: unknown) {
  platform.db
    .insert(siteSettings)
    .values({ key, valueJson: JSON.stringify(value) })
    .onConflictDoUpdate({ target: siteSettings.key, set: { valueJson: JSON.stringify(value) } })
    .run();
}

describe("notification config", () => {
  const harness = withPlatform();
  let ellie: string;
  let james: string;
  let assets: string;
  let adviser: string;
  let adviser2: string;
  beforeAll(async () => {
    [ellie, james, assets, adviser, adviser2] = await Promise.all([
      harness.platform.session("demo.client"),
      harness.platform.session("demo.partner"),
      harness.platform.session("demo.assets"),
      harness.platform.session("demo.adviser", "adviser"),
      harness.platform.session("demo.adviser2", "adviser"),
    ]);
  });

  it("answers every field without `fields`: Eleanor's review in progress, James her partner, the fact find's template", async () => {
    const answer = await harness.platform.call<Config>(v4(ELLIE), { token: ellie });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(CONFIG_FIELDS);
    expect(answer.body).toEqual({
      fact_find_status: "0",
      xpt_review_status: "In Progress",
      robo_journey_type: "none",
      robo_journey_status: "none",
      consent_workflow_status: 0,
      fee_summary_opt_in_status: 0,
      can_complete_journey: true,
      email_template_id: expect.any(Number),
      partner_entity_id: JAMES,
    });
    const template = await harness.platform.call<{ id: number; name: string; subject: string; body: string }>(
      `/resourceful/email/template/${answer.body.email_template_id}`,
      { token: ellie },
    );
    expect(template.status).toBe(200);
    expect(template.body.name).toMatch(/fact find/i);
    expect(template.body.subject).toContain("{client_name}");
    const jamesOwn = await harness.platform.call<Config>(v4(JAMES), { token: james });
    expect(jamesOwn.body.xpt_review_status).toBe("In Progress");
    expect(jamesOwn.body.partner_entity_id).toBe(ELLIE);
  });

  it("answers exactly the asked fields, in the asked order, repeated or comma-separated", async () => {
    const answer = await harness.platform.call<Partial<Config>>(
      v4(ELLIE, "?fields=xpt_review_status,robo_journey_type"),
      {
        token: ellie,
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ xpt_review_status: "In Progress", robo_journey_type: "none" });
    const repeated = await harness.platform.call<Partial<Config>>(
      v4(ELLIE, "?fields=can_complete_journey&fields=partner_entity_id"),
      { token: ellie },
    );
    expect(repeated.body).toEqual({ can_complete_journey: true, partner_entity_id: JAMES });
  });

  it("answers 400 'invalid field name' for an unknown name", async () => {
    const answer = await harness.platform.call(v4(ELLIE, "?fields=xpt_review_status,shoe_size"), { token: ellie });
    expect(answer.status).toBe(400);
    expect(answer.body.api_message).toBe("invalid field name: shoe_size");
  });

  it("answers the same 400 for the names of notificationFieldsUnsupported, as an older platform (the portal's fallback)", async () => {
    const site = await harness.platform.call<{ settings: Record<string, unknown> }>("/resourceful/site");
    expect(site.body.settings.notificationFieldsUnsupported).toBe("");
    setting(
      harness.platform,
      "notificationFieldsUnsupported",
      "xpt_review_status, robo_journey_type,robo_journey_status",
    );
    try {
      const asked = await harness.platform.call(v4(ELLIE, "?fields=fact_find_status,robo_journey_type"), {
        token: ellie,
      });
      expect(asked.status).toBe(400);
      expect(asked.body.api_message).toBe("invalid field name: robo_journey_type");
      const review = await harness.platform.call(v4(ELLIE, "?fields=xpt_review_status"), { token: ellie });
      expect(review.body.api_message).toBe("invalid field name: xpt_review_status");
      const others = await harness.platform.call<Partial<Config>>(v4(ELLIE, "?fields=fact_find_status"), {
        token: ellie,
      });
      expect(others.status).toBe(200);
      const all = await harness.platform.call<Partial<Config>>(v4(ELLIE), { token: ellie });
      expect(Object.keys(all.body)).toEqual(
        CONFIG_FIELDS.filter((f) => !["xpt_review_status", "robo_journey_type", "robo_journey_status"].includes(f)),
      );
    } finally {
      setting(harness.platform, "notificationFieldsUnsupported", "");
    }
    expect((await harness.platform.call(v4(ELLIE, "?fields=xpt_review_status"), { token: ellie })).status).toBe(200);
  });

  it("has the panels' demo logins: a fact find and an investment journey, a retirement health check in progress", async () => {
    const factFind = await harness.platform.session("demo.factfind");
    const robo = await harness.platform.session("demo.robo");
    const factFindId = entityOf(harness.platform, "demo.factfind");
    const roboId = entityOf(harness.platform, "demo.robo");
    expect((await harness.platform.call<Config>(v4(factFindId), { token: factFind })).body).toMatchObject({
      fact_find_status: "1",
      xpt_review_status: "",
      robo_journey_type: "investment",
      robo_journey_status: "enabled",
      partner_entity_id: null,
    });
    expect((await harness.platform.call<Config>(v4(roboId), { token: robo })).body).toMatchObject({
      fact_find_status: "0",
      xpt_review_status: "",
      robo_journey_type: "retirement_health_check",
      robo_journey_status: "in_progress",
    });
    for (const id of [factFindId, roboId]) {
      const person = harness.platform.db.select().from(entities).where(eq(entities.id, id)).get()!;
      expect(person.clientAccessLevel).toBe(2);
    }
    // in no adviser's list
    for (const token of [adviser, adviser2]) {
      const list = await harness.platform.call<ClientRow[]>("/resourceful/entity/client-v3?page_size=100", { token });
      expect(list.body.map((c) => c.id)).not.toContain(factFindId);
      expect(list.body.map((c) => c.id)).not.toContain(roboId);
      expect((await harness.platform.call(v4(factFindId), { token })).status).toBe(403);
    }
  });

  it("is read by the partner with view_partner and the client's advisers; anyone else 403, a non-client 404", async () => {
    expect((await harness.platform.call<Config>(v4(ELLIE), { token: james })).status).toBe(200);
    expect((await harness.platform.call<Config>(v4(JAMES), { token: ellie })).status).toBe(200);
    expect((await harness.platform.call<Config>(v4(ELLIE), { token: adviser })).body.xpt_review_status).toBe(
      "In Progress",
    );
    // Oliver advises Ellie (not as primary) but not James
    expect((await harness.platform.call(v4(ELLIE), { token: adviser2 })).status).toBe(200);
    expect((await harness.platform.call(v4(JAMES), { token: adviser2 })).status).toBe(403);
    const other = await harness.platform.call(v4(ELLIE), { token: assets });
    expect(other.status).toBe(403);
    expect(other.body.api_message).toBe("Permission Error: You do not have access to this entity");
    expect((await harness.platform.call(v4(adviserEntity(harness.platform)), { token: ellie })).status).toBe(404);
    expect((await harness.platform.call(v4(999_999), { token: ellie })).status).toBe(404);
    expect((await harness.platform.call(v4(ELLIE), { token: null })).status).toBe(401);
  });

  it("is set by the client for themselves; the partner's review status with view_partner only", async () => {
    const own = await harness.platform.call<Config>(v4(ELLIE), {
      method: "PATCH",
      token: ellie,
      body: { fact_find_status: "0", robo_journey_status: "declined" },
    });
    expect(own.status).toBe(200);
    expect(Object.keys(own.body)).toEqual(CONFIG_FIELDS);
    expect(own.body.robo_journey_status).toBe("declined");
    const entity = harness.platform.db.select().from(entities).where(eq(entities.id, ELLIE)).get()!;
    expect(entity.roboJourneyStatus).toBe("declined");

    // read case-insensitively, kept as the canonical text
    const forJames = await harness.platform.call<Config>(v4(JAMES), {
      method: "PATCH",
      token: ellie,
      body: { xpt_review_status: "follow up required" },
    });
    expect(forJames.status).toBe(200);
    expect(forJames.body.xpt_review_status).toBe("Follow Up Required");
    expect(harness.platform.db.select().from(entities).where(eq(entities.id, JAMES)).get()!.reviewStatus).toBe(
      "Follow Up Required",
    );
    const notReview = await harness.platform.call(v4(JAMES), {
      method: "PATCH",
      token: ellie,
      body: { fact_find_status: "1" },
    });
    expect(notReview.status).toBe(403);

    // without view_partner, not even the review status
    harness.platform.db
      .delete(capabilities)
      .where(and(eq(capabilities.entityId, ELLIE), eq(capabilities.name, "view_partner")))
      .run();
    try {
      expect(
        (
          await harness.platform.call(v4(JAMES), {
            method: "PATCH",
            token: ellie,
            body: { xpt_review_status: "In Progress" },
          })
        ).status,
      ).toBe(403);
      expect((await harness.platform.call(v4(JAMES), { token: ellie })).status).toBe(403);
    } finally {
      harness.platform.db.insert(capabilities).values({ entityId: ELLIE, name: "view_partner" }).run();
    }
    const back = await harness.platform.call<Config>(v4(JAMES), {
      method: "PATCH",
      token: ellie,
      body: { xpt_review_status: "In Progress" },
    });
    expect(back.body.xpt_review_status).toBe("In Progress");
  });

  it("refuses advisers (read only), other clients, bad values and unknown fields", async () => {
    const byAdviser = await harness.platform.call(v4(ELLIE), {
      method: "PATCH",
      token: adviser,
      body: { xpt_review_status: "Follow Up Required" },
    });
    expect(byAdviser.status).toBe(403);
    expect(byAdviser.body.api_message).toBe("Permission Error: This feature is only available to clients");
    expect(
      (await harness.platform.call(v4(ELLIE), { method: "PATCH", token: assets, body: { fact_find_status: "0" } }))
        .status,
    ).toBe(403);
    const bad = await harness.platform.call(v4(ELLIE), {
      method: "PATCH",
      token: ellie,
      body: { xpt_review_status: "Finished" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.api_message).toMatch(/^Invalid body: xpt_review_status: Expected one of 'In Progress'/);
    const robo = await harness.platform.call(v4(ELLIE), {
      method: "PATCH",
      token: ellie,
      body: { robo_journey_status: "started" },
    });
    expect(robo.status).toBe(400);
    expect(robo.body.api_message).toContain("robo_journey_status");
    const empty = await harness.platform.call(v4(ELLIE), { method: "PATCH", token: ellie, body: {} });
    expect(empty.status).toBe(400);
    const unknown = await harness.platform.call(v4(ELLIE), {
      method: "PATCH",
      token: ellie,
      body: { robo_journey_type: "investment" },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.api_message).toBe("invalid field name: robo_journey_type");
    expect(harness.platform.db.select().from(entities).where(eq(entities.id, ELLIE)).get()!.reviewStatus).toBe(
      "In Progress",
    );
  });
});

describe("review pages, review, state and playback", () => {
  const harness = withPlatform();
  let ellie: string;
  let james: string;
  let assets: string;
  let adviser: string;
  let factFind: string;
  beforeAll(async () => {
    [ellie, james, assets, adviser, factFind] = await Promise.all([
      harness.platform.session("demo.client"),
      harness.platform.session("demo.partner"),
      harness.platform.session("demo.assets"),
      harness.platform.session("demo.adviser", "adviser"),
      harness.platform.session("demo.factfind"),
    ]);
  });

  it("answers the review's nine pages in order, per locale (en-GB without one)", async () => {
    const gb = await harness.platform.call<{ pages: Page[] }>("/resourceful/review/config?site_locales=en-GB", {
      token: ellie,
    });
    expect(gb.status).toBe(200);
    const pages = gb.body.pages;
    expect(pages.map((p) => p.order)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(pages.map((p) => p.type)).toEqual(PAGE_TYPES);
    expect(pages.slice(1, 4).map((p) => p.show_additional_information)).toEqual([true, false, true]);
    expect(pages[1]).toMatchObject({
      heading: "Your circumstances",
      partner_question: expect.stringContaining("{partnerName}"),
    });
    for (const p of pages.slice(1, 7)) {
      expect(p.client_question).toBeTruthy();
      expect(p.alternate_client_question).toBeTruthy();
      expect(p.alternate_partner_question).toBeTruthy();
    }
    expect(pages[5]!.fields).toEqual([
      { field_name: "home_phone", description: "Home phone", enabled: true },
      { field_name: "work_phone", description: "Work phone", enabled: true },
      { field_name: "mobile_phone", description: "Mobile phone", enabled: true },
      { field_name: "personal_email", description: "Personal email", enabled: true },
      { field_name: "work_email", description: "Work email", enabled: false },
      { field_name: "residential_address", description: "Residential address", enabled: true },
      { field_name: "postal_address", description: "Postal address", enabled: true },
    ]);
    expect(pages[6]!.fields.map((f) => f.field_name)).toEqual([
      "title",
      "first_name",
      "middle_name",
      "last_name",
      "dob",
      "country_of_birth",
      "marital_status",
      "dependents",
    ]);
    expect(pages[7]).toMatchObject({ changes_text: expect.any(String), no_changes_text: expect.any(String) });
    expect(pages[8]).toMatchObject({
      display_adviser_detail: true,
      adviser_details_header: "Your Adviser",
      success_text: expect.any(String),
    });
    expect(Object.keys(pages[0]!).sort()).toEqual(
      [
        "order",
        "type",
        "heading",
        "secondary_heading",
        "introduction_text",
        "client_question",
        "partner_question",
        "alternate_client_question",
        "alternate_partner_question",
        "hint",
        "show_additional_information",
        "fields",
        "changes_text",
        "no_changes_text",
        "success_text",
        "error_text",
        "display_adviser_detail",
        "adviser_details_header",
      ].sort(),
    );

    const fr = (
      await harness.platform.call<{ pages: Page[] }>("/resourceful/review/config?site_locales=fr-CA", { token: ellie })
    ).body.pages;
    expect(fr.map((p) => p.type)).toEqual(PAGE_TYPES);
    expect(fr[0]!.heading).toBe("Votre revue annuelle");
    expect(fr[5]!.fields.find((f) => f.field_name === "work_email")).toEqual({
      field_name: "work_email",
      description: "Courriel professionnel",
      enabled: false,
    });
    const ca = (
      await harness.platform.call<{ pages: Page[] }>("/resourceful/review/config?site_locales=en-CA", { token: ellie })
    ).body.pages;
    const caText = JSON.stringify(ca.map((p) => Object.values(p)));
    expect(caText).toContain("advisor");
    expect(caText).not.toMatch(/adviser/i);
    const au = (
      await harness.platform.call<{ pages: Page[] }>("/resourceful/review/config?site_locales=en-AU", { token: ellie })
    ).body.pages;
    expect(au[8]!.adviser_details_header).toBe("Your Adviser");
    const other = (
      await harness.platform.call<{ pages: Page[] }>("/resourceful/review/config?site_locales=de-DE", { token: ellie })
    ).body.pages;
    expect(other).toEqual(pages);
    expect((await harness.platform.call("/resourceful/review/config", { token: null })).status).toBe(401);
  });

  it("answers Eleanor's review: in progress, James in progress, she may answer for him, no state yet", async () => {
    const answer = await harness.platform.call<Review>(review(ELLIE), { token: ellie });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      client_id: ELLIE,
      review_status: "In Progress",
      partner: { id: JAMES, name: "James Hartley", review_status: "In Progress" },
      can_answer_for_partner: true,
      state: null,
    });
    const own = await harness.platform.call<Review>(review(JAMES), { token: james });
    expect(own.body).toMatchObject({
      client_id: JAMES,
      partner: { id: ELLIE, review_status: "In Progress" },
      can_answer_for_partner: true,
    });
    const none = await harness.platform.call<Review>(review(entityOf(harness.platform, "demo.factfind")), {
      token: factFind,
    });
    expect(none.body).toEqual({
      client_id: entityOf(harness.platform, "demo.factfind"),
      review_status: "",
      partner: null,
      can_answer_for_partner: false,
      state: null,
    });
  });

  it("lets no one but the client call the review: advisers and other clients 403, a non-client 404", async () => {
    for (const [method, rest, body] of [
      ["GET", "", undefined],
      ["PUT", "/state", { order: 2, respond_for_partner: false, client_questions: [], partner_questions: [] }],
      ["DELETE", "/state", undefined],
      ["GET", "/playback", undefined],
      [
        "POST",
        "/submit",
        { client: { id: ELLIE, name: "Ellie Hartley", responses: [], status: "NoChangesReported" }, client_access: 1 },
      ],
    ] as const) {
      for (const token of [adviser, james, assets]) {
        const answer = await harness.platform.call(review(ELLIE, rest), { method, token, body });
        expect(answer.status, `${method} ${rest}`).toBe(403);
      }
      expect(
        (await harness.platform.call(review(adviserEntity(harness.platform), rest), { method, token: ellie, body }))
          .status,
      ).toBe(404);
      expect((await harness.platform.call(review(999_999, rest), { method, token: ellie, body })).status).toBe(404);
    }
    expect((await harness.platform.call<Review>(review(ELLIE), { token: ellie })).body.state).toBeNull();
  });

  it("stores the state (validated), answers it, refuses it when the review is not in progress, and resets it", async () => {
    const body = {
      order: 3,
      respond_for_partner: true,
      client_questions: [
        {
          id: 2,
          question: "Have your own circumstances changed?",
          response: true,
          additional_text: "We moved to Bath.",
        },
      ],
      partner_questions: [
        { id: 2, question: "Have your partner's circumstances changed?", response: false, additional_text: null },
      ],
    };
    const put = await harness.platform.call<Review>(review(ELLIE, "/state"), { method: "PUT", token: ellie, body });
    expect(put.status).toBe(200);
    expect(put.body.state).toEqual({
      order: 3,
      respond_for_partner: true,
      client_questions: body.client_questions,
      partner_questions: body.partner_questions,
      is_submitted: false,
      submitted_at: null,
      updated_at: harness.platform.clock.now().toISOString(),
    });
    expect((await harness.platform.call<Review>(review(ELLIE), { token: ellie })).body.state).toEqual(put.body.state);
    const again = await harness.platform.call<Review>(review(ELLIE, "/state"), {
      method: "PUT",
      token: ellie,
      body: { ...body, order: 4 },
    });
    expect(again.body.state!.order).toBe(4);

    for (const wrong of [
      { ...body, order: 0 },
      { ...body, order: 51 },
      { ...body, client_questions: answers(51) },
      { ...body, client_questions: [{ ...body.client_questions[0], question: "x".repeat(1001) }] },
      { ...body, client_questions: [{ ...body.client_questions[0], additional_text: "x".repeat(4001) }] },
      { ...body, client_questions: [{ ...body.client_questions[0], response: "yes" }] },
    ]) {
      const answer = await harness.platform.call(review(ELLIE, "/state"), { method: "PUT", token: ellie, body: wrong });
      expect(answer.status).toBe(400);
    }
    const limits = await harness.platform.call(review(ELLIE, "/state"), {
      method: "PUT",
      token: ellie,
      body: {
        ...body,
        order: 50,
        client_questions: answers(50, true, { question: "q".repeat(1000), additional_text: "a".repeat(4000) }),
      },
    });
    expect(limits.status).toBe(200);

    const notInProgress = await harness.platform.call(review(entityOf(harness.platform, "demo.factfind"), "/state"), {
      method: "PUT",
      token: factFind,
      body,
    });
    expect(notInProgress.status).toBe(409);
    expect(notInProgress.body.api_message).toBe("The review is not in progress");

    expect((await harness.platform.call(review(ELLIE, "/state"), { method: "DELETE", token: ellie })).status).toBe(204);
    expect((await harness.platform.call<Review>(review(ELLIE), { token: ellie })).body.state).toBeNull();
    // deleting nothing is fine too
    expect((await harness.platform.call(review(ELLIE, "/state"), { method: "DELETE", token: ellie })).status).toBe(204);
  });

  it("plays back the recorded contact and personal details and risk profiles of Eleanor and James", async () => {
    const answer = await harness.platform.call<Playback>(review(ELLIE, "/playback?site_locales=en-GB"), {
      token: ellie,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.client).toEqual({ id: ELLIE, name: "Ellie Hartley" });
    expect(answer.body.partner).toEqual({ id: JAMES, name: "James Hartley" });
    const value = (field: string) => answer.body.values.find((v) => v.field_name === field);
    expect(answer.body.values.map((v) => v.field_name)).toEqual([
      "home_phone",
      "work_phone",
      "mobile_phone",
      "personal_email",
      "work_email",
      "residential_address",
      "postal_address",
      "title",
      "first_name",
      "middle_name",
      "last_name",
      "dob",
      "country_of_birth",
      "marital_status",
      "dependents",
    ]);
    // each contact value is the record's
    const recorded = (entityId: number, type: "p1" | "p2" | "p3" | "m1" | "m2") =>
      harness.platform.db
        .select()
        .from(contacts)
        .where(and(eq(contacts.entityId, entityId), eq(contacts.type, type)))
        .get()?.value ?? null;
    const types = {
      home_phone: "p1",
      work_phone: "p2",
      mobile_phone: "p3",
      personal_email: "m1",
      work_email: "m2",
    } as const;
    for (const [field, type] of Object.entries(types)) {
      expect(value(field)).toEqual({
        field_name: field,
        client_value: recorded(ELLIE, type),
        partner_value: recorded(JAMES, type),
      });
    }
    expect(value("work_phone")!.partner_value).toBeNull();
    expect(value("mobile_phone")!.partner_value).toBe("07700 900457");
    // the current addresses (not the previous one in Guildford), as lines
    expect(value("residential_address")).toEqual({
      field_name: "residential_address",
      client_value: "Flat 3\n27 Kensington Park Road\nLondon\nGreater London\nW11 2EU",
      partner_value: "Flat 3\n27 Kensington Park Road\nLondon\nGreater London\nW11 2EU",
    });
    expect(value("postal_address")).toEqual({
      field_name: "postal_address",
      client_value: "Hartley Architects\n8 Portobello Road\nNotting Hill\nLondon\nGreater London\nW11 3DA",
      partner_value: null,
    });
    expect(value("title")).toMatchObject({ client_value: "Mrs", partner_value: "Mr" });
    expect(value("first_name")).toMatchObject({ client_value: "Eleanor", partner_value: "James" });
    expect(value("middle_name")).toMatchObject({ client_value: "Rose", partner_value: "Edward" });
    expect(value("dob")).toMatchObject({ client_value: "1968-04-12", partner_value: "1965-09-30" });
    expect(value("country_of_birth")).toMatchObject({ client_value: "GB", partner_value: "GB" });
    expect(value("marital_status")).toMatchObject({ client_value: "Married", partner_value: "Married" });
    expect(value("dependents")).toMatchObject({ client_value: "1", partner_value: "1" });
    expect(answer.body.risk_profile).toEqual({
      client: { name: "Balanced", index: 4, description: expect.any(String), is_empty: false },
      partner: { name: "Moderately adventurous", index: 5, description: expect.any(String), is_empty: false },
    });

    // a change in the records shows at once
    harness.platform.db.update(entities).set({ middleName: null, dependents: 2 }).where(eq(entities.id, ELLIE)).run();
    const changed = await harness.platform.call<Playback>(review(ELLIE, "/playback"), { token: ellie });
    expect(changed.body.values.find((v) => v.field_name === "middle_name")!.client_value).toBeNull();
    expect(changed.body.values.find((v) => v.field_name === "dependents")!.client_value).toBe("2");
    harness.platform.db.update(entities).set({ middleName: "Rose", dependents: 1 }).where(eq(entities.id, ELLIE)).run();

    const fr = await harness.platform.call<Playback>(review(ELLIE, "/playback?site_locales=fr-CA"), { token: ellie });
    expect(fr.body.risk_profile.client).toMatchObject({ name: "Équilibré", index: 4 });
  });

  it("plays back no partner without view_partner, and an empty risk profile without one", async () => {
    harness.platform.db
      .delete(capabilities)
      .where(and(eq(capabilities.entityId, ELLIE), eq(capabilities.name, "view_partner")))
      .run();
    try {
      const answer = await harness.platform.call<Playback>(review(ELLIE, "/playback"), { token: ellie });
      expect(answer.body.partner).toBeNull();
      expect(answer.body.values.every((v) => v.partner_value === null)).toBe(true);
      expect(answer.body.risk_profile.partner).toBeNull();
      expect((await harness.platform.call<Review>(review(ELLIE), { token: ellie })).body.can_answer_for_partner).toBe(
        false,
      );
    } finally {
      harness.platform.db.insert(capabilities).values({ entityId: ELLIE, name: "view_partner" }).run();
    }
    const id = entityOf(harness.platform, "demo.factfind");
    const none = await harness.platform.call<Playback>(review(id, "/playback"), { token: factFind });
    expect(none.body.partner).toBeNull();
    expect(none.body.risk_profile).toEqual({
      client: { name: null, index: null, description: null, is_empty: true },
      partner: null,
    });
    expect(none.body.values.find((v) => v.field_name === "work_phone")!.client_value).toBeNull();
    expect(none.body.values.find((v) => v.field_name === "residential_address")!.client_value).toBe(
      "5 Royal Crescent\nBath\nSomerset\nBA1 2LR",
    );
  });
});

describe("review submission", () => {
  const harness = withPlatform();
  let ellie: string;
  let james: string;
  let adviser: string;
  beforeAll(async () => {
    [ellie, james, adviser] = await Promise.all([
      harness.platform.session("demo.client"),
      harness.platform.session("demo.partner"),
      harness.platform.session("demo.adviser", "adviser"),
    ]);
  });

  const documentCount = () => harness.platform.db.select({ id: documents.id }).from(documents).all().length;
  const sent = async (token: string) =>
    (
      await harness.platform.call<Doc[]>(
        `/resourceful/docnote-v2?page_size=100&docsubtype=${encodeURIComponent("Client Initiated")}`,
        { token },
      )
    ).body;

  it("refuses the partner part to someone else's partner, and a body that is not the review's", async () => {
    const client = { id: ELLIE, name: "Ellie Hartley", responses: answers(2, false), status: "NoChangesReported" };
    const before = documentCount();
    const wrongPartner = await harness.platform.call(review(ELLIE, "/submit"), {
      method: "POST",
      token: ellie,
      body: {
        client,
        partner: {
          id: entityOf(harness.platform, "demo.assets"),
          partner_id: ELLIE,
          name: "Marcus Bell",
          responses: [],
          status: "NoChangesReported",
        },
        client_access: 1,
      },
    });
    expect(wrongPartner.status).toBe(403);
    expect(wrongPartner.body.api_message).toBe("Permission Error: You cannot answer for your partner");
    const wrongClient = await harness.platform.call(review(ELLIE, "/submit"), {
      method: "POST",
      token: ellie,
      body: { client: { ...client, id: JAMES }, client_access: 1 },
    });
    expect(wrongClient.status).toBe(400);
    const bad = await harness.platform.call(review(ELLIE, "/submit"), {
      method: "POST",
      token: ellie,
      body: { client: { ...client, status: "Done" }, client_access: 1 },
    });
    expect(bad.status).toBe(400);
    const byAdviser = await harness.platform.call(review(ELLIE, "/submit"), {
      method: "POST",
      token: adviser,
      body: { client, client_access: 1 },
    });
    expect(byAdviser.status).toBe(403);
    expect(documentCount()).toBe(before);
  });

  it("records one secure message per person, in their Sent folder, marks the state submitted, and refuses a second submission", async () => {
    await harness.platform.call(review(ELLIE, "/state"), {
      method: "PUT",
      token: ellie,
      body: {
        order: 7,
        respond_for_partner: true,
        client_questions: answers(6, false),
        partner_questions: answers(6, false),
      },
    });
    const before = documentCount();
    const clientResponses = [
      {
        id: 2,
        question: "Have your own circumstances changed since your last review?",
        response: true,
        additional_text: "We moved <house>\nto Bath & Wells.",
      },
      { id: 3, question: "Has your own income changed?", response: false, additional_text: null },
      {
        id: 5,
        question: "Do you feel your own attitude to investment risk has changed?",
        response: false,
        additional_text: null,
      },
      { id: 6, question: "Do any of your own details need updating?", response: false, additional_text: null },
      {
        id: 7,
        question: "Do any of your own details need updating?",
        response: true,
        additional_text: "My new surname is Hartley-Rees.",
      },
    ];
    const partnerResponses = [
      { id: 2, question: "Have your partner's circumstances changed?", response: false, additional_text: null },
    ];
    const answer = await harness.platform.call<SubmitResult[]>(review(ELLIE, "/submit"), {
      method: "POST",
      token: ellie,
      body: {
        client: { id: ELLIE, name: "Ellie Hartley", responses: clientResponses, status: "ChangesReported" },
        partner: {
          id: JAMES,
          partner_id: ELLIE,
          name: "James Hartley",
          responses: partnerResponses,
          status: "NoChangesReported",
        },
        client_access: 1,
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      { id: ELLIE, docnote_id: expect.any(Number), status: "ChangesReported" },
      { id: JAMES, docnote_id: expect.any(Number), status: "NoChangesReported" },
    ]);
    expect(documentCount()).toBe(before + 2);
    const [ellieDoc, jamesDoc] = answer.body.map((r) => r.docnote_id!) as [number, number];

    // Eleanor's: her entity, her Sent folder, created by her
    const own = (await sent(ellie)).find((d) => d.id === ellieDoc);
    expect(own).toMatchObject({
      subject: "Annual review: changes reported",
      entity_ids: [ELLIE],
      docsubtype: "Client Initiated",
    });
    const row = harness.platform.db.select().from(documents).where(eq(documents.id, ellieDoc)).get()!;
    expect(row).toMatchObject({
      doctype: "SecureMessage",
      isClientAccessAccessible: true,
      creatorName: "Ellie Hartley",
      createdAt: harness.platform.clock.now().toISOString(),
    });
    expect(row.creatorUserId).toBe(
      harness.platform.db.select().from(users).where(eq(users.usernameKey, "demo.client")).get()!.id,
    );
    const response = await fetch(`${harness.platform.baseUrl}/resourceful/docnote-v2/${ellieDoc}/body`, {
      headers: { ...CALLER, Cookie: `XPLANID=${ellie}` },
    });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Have your own circumstances changed since your last review?");
    expect(html).toContain("Answer: Yes");
    expect(html).toContain("Answer: No");
    expect(html).toContain("We moved &lt;house&gt;<br>to Bath &amp; Wells.");
    expect(html).not.toContain("<house>");
    // each answer under its page's heading, so two pages asking the same question read apart
    const sections = html.split("<h3>").slice(1);
    expect(sections.map((h) => h.slice(0, h.indexOf("</h3>")))).toEqual([
      "Your circumstances",
      "Your income and spending",
      "Your attitude to risk",
      "Your contact details",
      "Your personal details",
    ]);
    // with what the client was shown: the risk profile, and the details of the page's enabled fields
    expect(sections[2]).toContain("Risk rating: 4 (Balanced)");
    expect(sections[3]).toContain(
      "Residential address: Flat 3, 27 Kensington Park Road, London, Greater London, W11 2EU",
    );
    expect(sections[3]).toMatch(/Work phone: \d/);
    expect(sections[3]).not.toContain("Work email");
    expect(sections[4]).toContain("Country of birth: United Kingdom");
    expect(sections[4]).toContain("Date of birth: 12 April 1968");
    expect(sections[4]).toContain("My new surname is Hartley-Rees.");
    expect(html).not.toMatch(/: GB\b/);
    // spec 002 §4 "Sending": a message the client sent is read in their own Sent folder
    expect(own!.has_been_seen).toBe(true);

    // James's: his entity, in his own Sent folder
    const his = (await sent(james)).find((d) => d.id === jamesDoc);
    expect(his).toMatchObject({ subject: "Annual review: no changes reported", entity_ids: [JAMES] });
    // answered for him by Eleanor: new to James, so unread for him, read for her who sent it
    expect(his!.has_been_seen).toBe(false);
    expect((await sent(ellie)).find((d) => d.id === jamesDoc)!.has_been_seen).toBe(true);
    expect((await sent(james)).some((d) => d.id === ellieDoc)).toBe(true); // he holds view_partner too
    // the adviser sees both in the client's context
    await harness.platform.call("/resourceful/session/client_in_context", {
      method: "PUT",
      token: adviser,
      body: { client_id: ELLIE, client_access_level: 1 },
    });
    expect((await harness.platform.call<Doc>(`/resourceful/docnote-v2/${ellieDoc}`, { token: adviser })).status).toBe(
      200,
    );

    const state = (await harness.platform.call<Review>(review(ELLIE), { token: ellie })).body.state!;
    expect(state).toMatchObject({
      is_submitted: true,
      submitted_at: harness.platform.clock.now().toISOString(),
      order: 7,
    });

    const second = await harness.platform.call(review(ELLIE, "/submit"), {
      method: "POST",
      token: ellie,
      body: {
        client: { id: ELLIE, name: "Ellie Hartley", responses: [], status: "NoChangesReported" },
        client_access: 1,
      },
    });
    expect(second.status).toBe(409);
    expect(second.body.api_message).toBe("The review is not in progress");
    const put = await harness.platform.call(review(ELLIE, "/state"), {
      method: "PUT",
      token: ellie,
      body: { order: 2, client_questions: [] },
    });
    expect(put.status).toBe(409);
    expect(documentCount()).toBe(before + 2);

    // the portal then patches the statuses; the submitted state stays until the exit from completion
    expect(
      (
        await harness.platform.call(v4(ELLIE), {
          method: "PATCH",
          token: ellie,
          body: { xpt_review_status: "Changes Reported" },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await harness.platform.call(v4(JAMES), {
          method: "PATCH",
          token: ellie,
          body: { xpt_review_status: "No Changes Reported" },
        })
      ).status,
    ).toBe(200);
    const after = (await harness.platform.call<Review>(review(ELLIE), { token: ellie })).body;
    expect(after).toMatchObject({
      review_status: "Changes Reported",
      partner: { review_status: "No Changes Reported" },
      can_answer_for_partner: false,
    });
    expect(after.state!.is_submitted).toBe(true);
    expect((await harness.platform.call(review(ELLIE, "/state"), { method: "DELETE", token: ellie })).status).toBe(204);
    expect((await harness.platform.call<Review>(review(ELLIE), { token: ellie })).body.state).toBeNull();
  });

  it("writes the message in the review's language: fr-CA headings, labels and values (issue 25 item 13)", async () => {
    const made = await harness.platform.call<{ entity_id: number }>("/dev/users/demo.client/copy", {
      method: "POST",
      body: { username: "review-fr", review: true },
    });
    expect(made.status).toBe(201);
    const id = made.body.entity_id;
    // the copy takes Eleanor's status, submitted by the test before: in progress again
    harness.platform.db.update(entities).set({ reviewStatus: "In Progress" }).where(eq(entities.id, id)).run();
    const token = await harness.platform.session("review-fr");
    const answer = await harness.platform.call<SubmitResult[]>(review(id, "/submit?site_locales=fr-CA"), {
      method: "POST",
      token,
      body: {
        client: {
          id,
          name: "Ellie Hartley",
          responses: [
            {
              id: 7,
              question: "Certains de vos propres renseignements doivent-ils être mis à jour?",
              response: false,
              additional_text: null,
            },
          ],
          status: "NoChangesReported",
        },
        client_access: 1,
      },
    });
    expect(answer.status).toBe(200);
    const docId = answer.body[0]!.docnote_id!;
    const own = (await sent(token)).find((d) => d.id === docId);
    expect(own).toMatchObject({ subject: "Revue annuelle : aucun changement signalé", has_been_seen: true });
    const html = await (
      await fetch(`${harness.platform.baseUrl}/resourceful/docnote-v2/${docId}/body`, {
        headers: { ...CALLER, Cookie: `XPLANID=${token}` },
      })
    ).text();
    expect(html).toContain("<h3>Vos renseignements personnels</h3>");
    expect(html).toContain("Pays de naissance : Royaume-Uni");
    expect(html).toContain("Date de naissance : 12 avril 1968");
    expect(html).toContain("Réponse : Non");
  });

  it("records the client's part alone, and answers a user_message for a partner whose review is no longer in progress", async () => {
    // James's own review, in progress again; Eleanor's review (his partner's) is Changes Reported now
    harness.platform.db.update(entities).set({ reviewStatus: "In Progress" }).where(eq(entities.id, JAMES)).run();
    const before = documentCount();
    const answer = await harness.platform.call<SubmitResult[]>(review(JAMES, "/submit"), {
      method: "POST",
      token: james,
      body: {
        client: { id: JAMES, name: "James Hartley", responses: answers(1, false), status: "NoChangesReported" },
        partner: {
          id: ELLIE,
          partner_id: JAMES,
          name: "Ellie Hartley",
          responses: answers(1, false),
          status: "NoChangesReported",
        },
        client_access: 1,
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      { id: JAMES, docnote_id: expect.any(Number), status: "NoChangesReported" },
      { id: ELLIE, status: "NoChangesReported", user_message: "Your partner's review is not in progress" },
    ]);
    expect(documentCount()).toBe(before + 1);
    const alone = await harness.platform.call<SubmitResult[]>(review(ELLIE, "/submit"), {
      method: "POST",
      token: ellie,
      body: {
        client: { id: ELLIE, name: "Ellie Hartley", responses: [], status: "NoChangesReported" },
        client_access: 1,
      },
    });
    expect(alone.status).toBe(409);
  });
});

describe("dev copy of a reviewing client", () => {
  const harness = withPlatform();

  it("copies the partner into a new client group with `review: true`, statuses and risk profiles kept", async () => {
    const made = await harness.platform.call<
      { username: string; user_id: number; entity_id: number; partner_entity_id: number | null } & ErrorAnswer
    >("/dev/users/demo.client/copy", { method: "POST", body: { username: "review-copy-1", review: true } });
    expect(made.status).toBe(201);
    const token = await harness.platform.session("review-copy-1");
    const me = (
      await harness.platform.call<{ entity_id: number; partner_entity_id: number | null }>(
        "/resourceful/session/user",
        {
          token,
        },
      )
    ).body;
    expect(made.body.entity_id).toBe(me.entity_id);
    const partnerCopy = made.body.partner_entity_id!;
    expect(partnerCopy).not.toBeNull();
    expect([ELLIE, JAMES]).not.toContain(partnerCopy);
    expect(me.partner_entity_id).toBe(partnerCopy);

    const members = (
      await harness.platform.call<Array<{ entity_id: number; relationship: string; login_accessible: boolean }>>(
        `/resourceful/entity/client/${me.entity_id}/client_group/member`,
        { token },
      )
    ).body;
    expect(members.map((m) => [m.entity_id, m.relationship, m.login_accessible])).toEqual([
      [me.entity_id, "Client", true],
      [partnerCopy, "Partner", true],
    ]);
    const reviewAnswer = (await harness.platform.call<Review>(review(me.entity_id), { token })).body;
    expect(reviewAnswer).toEqual({
      client_id: me.entity_id,
      review_status: "In Progress",
      partner: { id: partnerCopy, name: "James Hartley", review_status: "In Progress" },
      can_answer_for_partner: true,
      state: null,
    });
    const playback = (await harness.platform.call<Playback>(review(me.entity_id, "/playback"), { token })).body;
    expect(playback.risk_profile.client.index).toBe(4);
    expect(playback.risk_profile.partner!.index).toBe(5);
    expect(playback.values.find((v) => v.field_name === "mobile_phone")!.partner_value).toBe("07700 900457");
    expect((await harness.platform.call<Config>(v4(me.entity_id), { token })).body.partner_entity_id).toBe(partnerCopy);
    // the partner copy has no login; its capabilities came along
    expect(harness.platform.db.select().from(users).where(eq(users.entityId, partnerCopy)).all()).toEqual([]);
    expect(
      harness.platform.db
        .select()
        .from(capabilities)
        .where(eq(capabilities.entityId, partnerCopy))
        .all()
        .map((c) => c.name),
    ).toContain("view_partner");

    // the copy's submission touches the copies only
    const submitted = await harness.platform.call<SubmitResult[]>(review(me.entity_id, "/submit"), {
      method: "POST",
      token,
      body: {
        client: { id: me.entity_id, name: "Ellie Hartley", responses: answers(1, false), status: "NoChangesReported" },
        partner: {
          id: partnerCopy,
          partner_id: me.entity_id,
          name: "James Hartley",
          responses: answers(1, false),
          status: "NoChangesReported",
        },
        client_access: 1,
      },
    });
    expect(submitted.body.map((r) => r.id)).toEqual([me.entity_id, partnerCopy]);
    const ellie = await harness.platform.session("demo.client");
    expect((await harness.platform.call<Review>(review(ELLIE), { token: ellie })).body.state).toBeNull();
  });

  it("copies no partner without `review`, and keeps the notification fields of demo.factfind", async () => {
    const plain = await harness.platform.call<{ username: string; partner_entity_id?: number }>(
      "/dev/users/demo.client/copy",
      {
        method: "POST",
        body: { username: "review-copy-2" },
      },
    );
    expect(plain.status).toBe(201);
    expect(plain.body.partner_entity_id).toBeUndefined();
    const token = await harness.platform.session("review-copy-2");
    const me = (await harness.platform.call<{ entity_id: number }>("/resourceful/session/user", { token })).body;
    const own = (await harness.platform.call<Review>(review(me.entity_id), { token })).body;
    expect(own).toMatchObject({ review_status: "In Progress", partner: null, can_answer_for_partner: false });

    const copy = await harness.platform.call<{ entity_id: number; partner_entity_id: number | null }>(
      "/dev/users/demo.factfind/copy",
      {
        method: "POST",
        body: { username: "factfind-copy-1", review: true },
      },
    );
    expect(copy.status).toBe(201);
    expect(copy.body.partner_entity_id).toBeNull();
    const copyToken = await harness.platform.session("factfind-copy-1");
    expect((await harness.platform.call<Config>(v4(copy.body.entity_id), { token: copyToken })).body).toMatchObject({
      fact_find_status: "1",
      robo_journey_type: "investment",
      robo_journey_status: "enabled",
      partner_entity_id: null,
    });
  });
});
