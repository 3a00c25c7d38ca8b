import { describe, expect, it } from "vitest";
import { fetchSpeakToAdviser } from "./adviser.server";
import { createPlanningClient } from "./client.server";
import { readFeatureToggles } from "./feature-toggles.server";

// What the portal keeps between pages instead of asking the platform again (decision 158): the
// firm's toggles for everyone, the advisers for the session. A stand-in platform counts the calls.

function standIn() {
  const calls: string[] = [];
  const fetch = async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    calls.push(url.pathname);
    const body = url.pathname.endsWith("/feature_toggle/toggle_condition")
      ? [{ name: "client_reports", enabled: true }]
      : url.pathname.endsWith("/session/user/adviser")
        ? [{ id: 7, adviser_name: "Sam Adviser" }]
        : { contact_type: "adviser" };
    return new Response(JSON.stringify(body), { headers: { "Content-Type": "application/json" } });
  };
  const client = (token: string) =>
    createPlanningClient({ baseUrl: "http://platform.test", fetch: fetch as typeof globalThis.fetch, token });
  return { calls, client };
}

describe("answers kept between pages (decision 158)", () => {
  it("asks for the firm's toggles once for every session of the instance", async () => {
    const platform = standIn();
    const first = await readFeatureToggles(platform.client("one"));
    const second = await readFeatureToggles(platform.client("two"));
    expect(second).toEqual(first);
    expect(platform.calls.filter((p) => p.endsWith("toggle_condition"))).toHaveLength(1);
  });

  it("asks for the advisers once per session, again for another session", async () => {
    const platform = standIn();
    const input = { locale: "en-GB", role: "ClientUser", clientId: 1 };
    expect(await fetchSpeakToAdviser(platform.client("one"), input)).toEqual({ offered: true });
    expect(await fetchSpeakToAdviser(platform.client("one"), input)).toEqual({ offered: true });
    const adviserCalls = () => platform.calls.filter((p) => p.endsWith("/session/user/adviser")).length;
    expect(adviserCalls()).toBe(1);
    await fetchSpeakToAdviser(platform.client("two"), input);
    expect(adviserCalls()).toBe(2);
  });
});
