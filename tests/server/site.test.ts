import { describe, expect, it } from "vitest";
import { startPlatform, withPlatform } from "./harness";

const harness = withPlatform();

type SiteAnswer = {
  version?: string;
  settings: Record<string, unknown>;
  content: { firmName: string; pages: Record<string, { title: string; html: string }> };
};

describe("site", () => {
  it("answers health without a session", async () => {
    expect((await harness.platform.call("/xplan/health")).body).toEqual({ status: "GOOD" });
  });

  it("answers settings, brand colours and the text pages without a session", async () => {
    const answer = await harness.platform.call<SiteAnswer>("/resourceful/site?site_locales=en-GB&version=true");
    expect(answer.status).toBe(200);
    expect(answer.body.version).toBe("22.9.240");
    expect(answer.body.settings.logo).toBe("/brand/logo.svg");
    expect(answer.body.settings["access.memorableWordEnabled"]).toBe(true);
    const colours = Object.keys(answer.body.settings).filter((k) => /^chartColour\d+$/.test(k));
    expect(colours.length).toBeGreaterThanOrEqual(6);
    for (const key of colours) expect(answer.body.settings[key]).toMatch(/^#[0-9a-f]{6}$/i);
    expect(Object.keys(answer.body.content.pages).sort()).toEqual([
      "accessibility",
      "announcement",
      "basis-of-valuation",
      "cookie-policy",
      "journey-apa",
      "journey-factfind",
      "journey-robo",
      "maintenance",
      "privacy-policy",
      "site-terms",
    ]);
    expect(answer.body.content.pages["privacy-policy"]?.html).toContain("Data Protection Act 2018");
    expect(answer.body.content.firmName).toBe("Northbridge Wealth");
  });

  it("answers the pages in the asked locale", async () => {
    const french = await harness.platform.call<SiteAnswer>("/resourceful/site?site_locales=fr-ca");
    expect(french.body.version).toBeUndefined();
    expect(french.body.content.pages["site-terms"]?.title).toBe("Conditions d'utilisation");
    const canadian = await harness.platform.call<SiteAnswer>("/resourceful/site?site_locales=en-CA");
    expect(canadian.body.content.pages["privacy-policy"]?.html).toContain("PIPEDA");
    const australian = await harness.platform.call<SiteAnswer>("/resourceful/site?site_locales=en-AU");
    expect(australian.body.content.pages["privacy-policy"]?.html).toContain("Privacy Act 1988");
  });

  it("answers the feature toggles", async () => {
    const toggles = await harness.platform.call<Array<{ name: string; enabled: boolean }>>(
      "/resourceful/feature_toggle/toggle_condition?firm=northbridge",
    );
    expect(toggles.body).toContainEqual({ name: "core_authentication", enabled: true });
    expect(toggles.body.length).toBeGreaterThanOrEqual(8);
  });

  it("answers contact-us details for a signed-in user", async () => {
    const token = await harness.platform.session("demo.client");
    const answer = await harness.platform.call<{ contact_type: string; general: Record<string, unknown> }>(
      "/resourceful/site/contact_us?locale=en-GB&role=client&client_id=1",
      { token },
    );
    expect(answer.body.contact_type).toBe("both");
    expect(answer.body.general).toMatchObject({
      contactName: "Client Services",
      telephoneNumber: "020 7946 0800",
      hideAvatars: false,
    });
    const french = await harness.platform.call<{ general: { contactName: string } }>(
      "/resourceful/site/contact_us?locale=fr-CA",
      { token },
    );
    expect(french.body.general.contactName).toBe("Service à la clientèle");
    expect((await harness.platform.call("/resourceful/site/contact_us?client_id=4", { token })).status).toBe(403);
    expect((await harness.platform.call("/resourceful/site/contact_us")).status).toBe(401);
  });

  it("answers 404 with the error body for an unknown resource", async () => {
    const answer = await harness.platform.call("/resourceful/no/such/thing");
    expect(answer.status).toBe(404);
    expect(answer.body.api_message).toBeTruthy();
  });
});

describe("the outbox", () => {
  it("is absent in production", async () => {
    const production = await startPlatform({ nodeEnv: "production" });
    try {
      expect((await production.call("/dev/outbox")).status).toBe(404);
    } finally {
      await production.close();
    }
  });
});
