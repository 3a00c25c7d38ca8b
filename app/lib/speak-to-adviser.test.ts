import { describe, expect, it } from "vitest";
import { speakToAdviserOf } from "./speak-to-adviser";

describe("'Speak to adviser' (spec 002 §4, issue 25 item 12)", () => {
  const general = { name: "Client Services", phone: { text: "020 7946 0800", href: "tel:02079460800" }, email: null };
  it("is offered to a client with an adviser", () => {
    expect(speakToAdviserOf(1, general)).toEqual({ offered: true });
    expect(speakToAdviserOf(2, null)).toEqual({ offered: true });
  });
  it("is not offered without one: the general contact instead, when it gives a way to reach it", () => {
    expect(speakToAdviserOf(0, general)).toEqual({ offered: false, contact: general });
    expect(speakToAdviserOf(0, { name: "Client Services", phone: null, email: null })).toEqual({
      offered: false,
      contact: null,
    });
    expect(speakToAdviserOf(0, null)).toEqual({ offered: false, contact: null });
  });
});
