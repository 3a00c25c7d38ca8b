import { describe, expect, it } from "vitest";
import {
  countsAsActivity,
  createThrottle,
  nextTickIn,
  phaseAt,
  scheduleFrom,
  timeLeft,
  warningAfterMinutes,
  warningLeadMs,
} from "./session-timeout";

const MIN = 60_000;

describe("warning time (spec 000 §4: 5 minutes before when over 10, else 1)", () => {
  it("warns at 25 of 30 and 15 of 20", () => {
    expect(warningAfterMinutes(30)).toBe(25);
    expect(warningAfterMinutes(20)).toBe(15);
    expect(warningLeadMs(30)).toBe(5 * MIN);
  });
  it("warns at 9 of 10 (10 is not over 10) and 6 of 11", () => {
    expect(warningAfterMinutes(10)).toBe(9);
    expect(warningAfterMinutes(11)).toBe(6);
    expect(warningLeadMs(10)).toBe(MIN);
  });
  it("warns at once for a one-minute timeout", () => {
    expect(warningAfterMinutes(1)).toBe(0);
  });
});

describe("schedule and phases", () => {
  const start = 1_000_000;
  const thirty = scheduleFrom(start, 30);

  it("is active until 25 minutes, warns until 30, then ends", () => {
    expect(phaseAt(thirty, start + 25 * MIN - 1)).toBe("active");
    expect(phaseAt(thirty, start + 25 * MIN)).toBe("warning");
    expect(phaseAt(thirty, start + 30 * MIN - 1)).toBe("warning");
    expect(phaseAt(thirty, start + 30 * MIN)).toBe("ended");
  });

  it("warns at 9 of 10", () => {
    const ten = scheduleFrom(start, 10);
    expect(phaseAt(ten, start + 9 * MIN - 1)).toBe("active");
    expect(phaseAt(ten, start + 9 * MIN)).toBe("warning");
    expect(phaseAt(ten, start + 10 * MIN)).toBe("ended");
  });

  it("starts from what the server still allows, never from more than the timeout", () => {
    const short = scheduleFrom(start, 30, 29 * MIN + 30_000);
    expect(short.endAt).toBe(start + 29 * MIN + 30_000);
    expect(short.warnAt).toBe(short.endAt - 5 * MIN);
    expect(scheduleFrom(start, 30, 99 * MIN).endAt).toBe(start + 30 * MIN);
  });

  it("counts down in minutes and seconds, rounding up", () => {
    expect(timeLeft(thirty, start + 25 * MIN)).toEqual({ minutes: 5, seconds: 0 });
    expect(timeLeft(thirty, start + 25 * MIN + 800)).toEqual({ minutes: 5, seconds: 0 });
    expect(timeLeft(thirty, start + 25 * MIN + 1_000)).toEqual({ minutes: 4, seconds: 59 });
    expect(timeLeft(thirty, start + 31 * MIN)).toEqual({ minutes: 0, seconds: 0 });
  });

  it("ticks at the warning, then every second, then stops", () => {
    expect(nextTickIn(thirty, start)).toBe(25 * MIN);
    expect(nextTickIn(thirty, start + 26 * MIN)).toBe(1_000);
    expect(nextTickIn(thirty, start + 30 * MIN - 300)).toBe(300);
    expect(nextTickIn(thirty, start + 30 * MIN)).toBeNull();
  });
});

describe("activity (spec 000 §9: mouse reset throttle 1 second)", () => {
  it("lets one press a second through", () => {
    const allow = createThrottle();
    expect(allow(0)).toBe(true);
    expect(allow(500)).toBe(false);
    expect(allow(999)).toBe(false);
    expect(allow(1_000)).toBe(true);
    expect(allow(1_500)).toBe(false);
    expect(allow(2_500)).toBe(true);
  });

  it("ignores presses on elements marked no-heartbeat", () => {
    const marked = { closest: (s: string) => (s === "[data-no-heartbeat]" ? {} : null) };
    const plain = { closest: () => null };
    expect(countsAsActivity(marked)).toBe(false);
    expect(countsAsActivity(plain)).toBe(true);
    expect(countsAsActivity(null)).toBe(true);
  });
});
