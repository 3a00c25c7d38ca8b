import { afterEach, describe, expect, it, vi } from "vitest";
import { logger } from "~/runtime/logger.server";
import { createPlanningClient, PlanningError } from "./client.server";
import { isToggleOn, readFeatureToggles } from "./feature-toggles.server";

// spec 000 §1: "If the toggle call fails, the toggle list becomes empty (all off)."

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

function clientAnswering(answer: () => Response | Promise<Response>) {
  const calls: string[] = [];
  const planning = createPlanningClient({
    baseUrl: "http://platform.test",
    retryDelayMs: 0,
    fetch: async (input) => {
      calls.push(String(input));
      return answer();
    },
  });
  return { planning, calls };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("readFeatureToggles", () => {
  it("answers the platform's toggles", async () => {
    const { planning, calls } = clientAnswering(() => json(200, [{ name: "digital_signatures", enabled: true }]));
    const toggles = await readFeatureToggles(planning);
    expect(toggles).toEqual([{ name: "digital_signatures", enabled: true }]);
    expect(calls).toEqual(["http://platform.test/resourceful/feature_toggle/toggle_condition"]);
    expect(isToggleOn(toggles, "digital_signatures")).toBe(true);
    expect(isToggleOn(toggles, "one_way_messaging")).toBe(false);
  });

  it("asks once (one request), however many parts of the page read them", async () => {
    const { planning, calls } = clientAnswering(() => json(200, [{ name: "notifications_v2", enabled: true }]));
    const [a, b] = await Promise.all([readFeatureToggles(planning), readFeatureToggles(planning)]);
    expect(await readFeatureToggles(planning)).toBe(a);
    expect(b).toBe(a);
    expect(calls).toHaveLength(1);
    // another request's client of the same platform is answered the kept toggles (decision 158)
    const other = clientAnswering(() => json(200, []));
    expect(await readFeatureToggles(other.planning)).toBe(a);
    expect(other.calls).toHaveLength(0);
  });

  it.each([
    ["a server error", () => json(500, { api_message: "The platform could not complete the request" })],
    ["a refusal", () => json(403, { api_message: "Not allowed" })],
    ["an answer that breaks the contract", () => json(200, { toggles: "yes" })],
    [
      "no answer",
      () => {
        throw new TypeError("fetch failed");
      },
    ],
  ])("answers all off, and logs it, after %s", async (_, answer) => {
    const logged = vi.spyOn(logger, "error");
    const { planning } = clientAnswering(answer);
    expect(await readFeatureToggles(planning)).toEqual([]);
    expect(logged).toHaveBeenCalledWith("feature toggles unavailable, all taken as off", expect.any(Object));
  });

  it("rethrows a lost session, so the page can send the user to sign in", async () => {
    const { planning } = clientAnswering(() =>
      json(401, { api_message: "This feature is not available without a valid session" }),
    );
    const error = await readFeatureToggles(planning).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlanningError);
    expect((error as PlanningError).failure.kind).toBe("lost-session");
  });
});
