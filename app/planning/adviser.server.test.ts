import { describe, expect, it } from "vitest";
import { fetchSpeakToAdviser } from "./adviser.server";
import { PlanningError, type PlanningClient } from "./client.server";
import { fakePlatformKeys } from "../../tests/fake-platform-keys";

/** A planning client whose answers the test gives out, recording what was asked and when. */
function fakePlanning() {
  const asked: string[] = [];
  const pending = new Map<string, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  const planning = {
    keys: fakePlatformKeys(),
    get: (path: string, schema: { parse: (value: unknown) => unknown }) => {
      asked.push(path);
      return new Promise((resolve, reject) =>
        pending.set(path, { resolve: (value) => resolve(schema.parse(value)), reject }),
      );
    },
  } as unknown as PlanningClient;
  const answer = (path: string, value: unknown) => pending.get(path)!.resolve(value);
  const fail = (path: string, error: unknown) => pending.get(path)!.reject(error);
  return { planning, asked, answer, fail };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const input = { locale: "en-GB", role: "ClientUser", clientId: 7 };

describe("fetchSpeakToAdviser asks the advisers and the site's contact at once (decision 124)", () => {
  it("asks both before either answers, and offers it to a client with an adviser whatever the contact answer", async () => {
    const { planning, asked, answer, fail } = fakePlanning();
    const offer = fetchSpeakToAdviser(planning, input);
    await tick();
    expect(asked.sort()).toEqual(["resourceful/session/user/adviser", "resourceful/site/contact_us"]);
    answer("resourceful/session/user/adviser", [{ id: 1, adviser_name: "Ann Adviser" }]);
    fail("resourceful/site/contact_us", new Error("contact-us is down"));
    await expect(offer).resolves.toEqual({ offered: true });
  });

  it("tells a client without an adviser whom to contact instead, from the contact answer", async () => {
    const { planning, answer } = fakePlanning();
    const offer = fetchSpeakToAdviser(planning, input);
    await tick();
    answer("resourceful/site/contact_us", {
      contact_type: "general",
      general: { contactName: "Client services", telephoneNumber: "0800 000 000" },
    });
    answer("resourceful/session/user/adviser", []);
    await expect(offer).resolves.toEqual({
      offered: false,
      contact: { name: "Client services", phone: expect.anything(), email: null },
    });
  });

  it("fails for a client without an adviser when the contact cannot be read", async () => {
    const { planning, answer, fail } = fakePlanning();
    const offer = fetchSpeakToAdviser(planning, input);
    await tick();
    const failure = new PlanningError(503, "unavailable");
    fail("resourceful/site/contact_us", failure);
    answer("resourceful/session/user/adviser", []);
    await expect(offer).rejects.toBe(failure);
  });

  it("asks once per session, kept five minutes (decision 158); another session asks again", async () => {
    const one = fakePlanning();
    const first = fetchSpeakToAdviser(one.planning, input);
    await tick();
    one.answer("resourceful/session/user/adviser", [{ id: 1, adviser_name: "Ann Adviser" }]);
    one.answer("resourceful/site/contact_us", { contact_type: "adviser" });
    await expect(first).resolves.toEqual({ offered: true });
    await expect(fetchSpeakToAdviser(one.planning, input)).resolves.toEqual({ offered: true });
    expect(one.asked).toHaveLength(2);
    const another = fakePlanning();
    void fetchSpeakToAdviser(another.planning, input).catch(() => undefined);
    await tick();
    expect(another.asked.sort()).toEqual(["resourceful/session/user/adviser", "resourceful/site/contact_us"]);
  });
});
