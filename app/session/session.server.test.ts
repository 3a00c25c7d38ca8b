import { describe, expect, it } from "vitest";
import { sessionState } from "./session.server";

const HOUR = 3_600_000;

describe("sessionState", () => {
  const base = { createdAt: 0, lastActivity: 0, idleMinutes: 30 };
  it("is active inside the idle window", () => {
    expect(sessionState(base, 29 * 60_000, 12 * HOUR)).toBe("active");
    expect(sessionState(base, 30 * 60_000, 12 * HOUR)).toBe("active");
  });
  it("expires one moment after the idle window", () => {
    expect(sessionState(base, 30 * 60_000 + 1, 12 * HOUR)).toBe("idle-expired");
  });
  it("expires after the absolute lifetime even with recent activity", () => {
    expect(sessionState({ ...base, lastActivity: 12 * HOUR }, 12 * HOUR + 1, 12 * HOUR)).toBe("too-old");
  });
});
