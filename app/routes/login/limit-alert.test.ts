import { describe, expect, it } from "vitest";
import { createTranslator, type Texts } from "~/lib/translator";
import { resources } from "~/locales/resources";
import { limitAlert } from "./login.server";

// Decision 173: a refusal by a limit says what is limited: the address's posts (seconds), the
// username's failures from browsers not known for it, or this browser's own (minutes).

const en = createTranslator("en-GB", resources["en-GB"] as unknown as Texts).fixedT("auth");
const shown = (alert: ReturnType<typeof limitAlert>) => en(alert.key!, alert.params);

describe("the refusal's message", () => {
  it("names the connection for the address's limit, in seconds", () => {
    expect(shown(limitAlert(undefined, 42))).toBe(
      "Too many attempts from your connection. Please wait 42 seconds and try again.",
    );
  });

  it("names this user and the browsers not known for them, in whole minutes rounded up", () => {
    const counter = { username: "demo.client", device: null };
    expect(shown(limitAlert(counter, 900))).toBe(
      "Too many failed attempts to log in as this user from browsers that have not logged in as this user before. " +
        "Please wait 15 minutes and try again, or log in from a browser you have logged in with before.",
    );
    expect(limitAlert(counter, 61).params).toMatchObject({ minutes: 2 });
    expect(shown(limitAlert(counter, 60))).toContain("Please wait 1 minute and try again");
  });

  it("names this browser when it is known for the user", () => {
    expect(shown(limitAlert({ username: "demo.client", device: "nonce" }, 1))).toBe(
      "Too many failed attempts to log in as this user from this browser. Please wait 1 minute and try again.",
    );
  });
});
