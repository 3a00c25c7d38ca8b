import { describe, expect, it } from "vitest";
import { type ErrorAnswer, withPlatform } from "./harness";

// docs/decisions/203: the theme is the user's own setting, kept on the platform with their locale,
// time zone and currency, so it follows them to every browser they sign in from.
const harness = withPlatform();

type ThemeAnswer = { theme: string } & ErrorAnswer;

const user = (token: string) => harness.platform.call<{ theme: string }>("/resourceful/session/user", { token });
const setTheme = (token: string | null, body: unknown) =>
  harness.platform.call<ThemeAnswer>("/resourceful/session/user/theme", { method: "PUT", token, body });

describe("the user's theme", () => {
  it("is the device's setting until the user chooses, then kept for every session of theirs alone", async () => {
    const laptop = await harness.platform.session("demo.client");
    expect((await user(laptop)).body.theme).toBe("system");

    const saved = await setTheme(laptop, { theme: "dark" });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ theme: "dark" });

    // another sign-in of the same user (another browser) finds it
    const phone = await harness.platform.session("demo.client");
    expect((await user(phone)).body.theme).toBe("dark");
    // her partner's is his own
    const partner = await harness.platform.session("demo.partner");
    expect((await user(partner)).body.theme).toBe("system");

    expect((await setTheme(phone, { theme: "light" })).status).toBe(200);
    expect((await user(laptop)).body.theme).toBe("light");
  });

  it("is an adviser's own too, whichever client is in context", async () => {
    const adviser = await harness.platform.session("demo.adviser", "adviser");
    expect((await setTheme(adviser, { theme: "dark" })).status).toBe(200);
    expect((await user(adviser)).body.theme).toBe("dark");
  });

  it("takes only the three themes, and only from a signed-in user", async () => {
    const token = await harness.platform.session("demo.assets");
    for (const body of [{ theme: "blue" }, {}, { theme: "dark", extra: 1 }, { theme: null }]) {
      const answer = await setTheme(token, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.api_message).toMatch(/^Invalid body/);
    }
    expect((await user(token)).body.theme).toBe("system");
    expect((await setTheme(null, { theme: "dark" })).status).toBe(401);
  });
});
