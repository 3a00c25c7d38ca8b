import { describe, expect, it } from "vitest";
import { importantPanelOf } from "./important-panel.server";

describe('the home\'s important panel (spec 002 "Notification and postponement panels")', () => {
  it("builds the home panel's links only for what is there", () => {
    expect(importantPanelOf({ important: 0, toBeSigned: null })).toBeNull();
    expect(importantPanelOf({ important: 21, toBeSigned: 1 })).toEqual({
      important: { count: "20+", href: "/clients/documents-and-messages?importantOnly=true" },
      toBeSigned: { count: "1", href: "/clients/documents-and-messages?toBeSigned=true" },
    });
  });
});
