import { afterEach, describe, expect, it, vi } from "vitest";
import { platformCallStarted, platformServerTiming, runWithPlatformTiming } from "./platform-timing.server";
import { currentRequestId, runWithRequestId } from "./request-id.server";

// issue 16: the platform's critical path on a request — calls in parallel count once.

afterEach(() => {
  vi.restoreAllMocks();
});

function clock() {
  let now = 0;
  vi.spyOn(performance, "now").mockImplementation(() => now);
  return (ms: number) => {
    now += ms;
  };
}

describe("the wait for the platform", () => {
  it("counts overlapping calls once and the gaps between calls not at all", () => {
    const advance = clock();
    runWithPlatformTiming(() => {
      const a = platformCallStarted();
      advance(10);
      const b = platformCallStarted(); // in parallel with a
      advance(30);
      a();
      advance(20);
      b(); // a and b: 60 ms together
      advance(100); // the portal's own work
      const c = platformCallStarted();
      advance(15);
      c();
      c(); // ending twice changes nothing
      expect(platformServerTiming()).toBe('platform;dur=75.0;desc="3 platform calls"');
    });
  });

  it("includes a call still in flight, and records nothing outside a request", () => {
    const advance = clock();
    runWithPlatformTiming(() => {
      platformCallStarted();
      advance(12);
      expect(platformServerTiming()).toBe('platform;dur=12.0;desc="1 platform calls"');
    });
    const outside = platformCallStarted();
    outside();
    expect(platformServerTiming()).toBeNull();
  });

  it("keeps each request's figure apart", async () => {
    const first = runWithPlatformTiming(async () => {
      const done = platformCallStarted();
      await new Promise((r) => setTimeout(r, 5));
      done();
      return platformServerTiming();
    });
    const second = runWithPlatformTiming(async () => platformServerTiming());
    expect(await second).toBe('platform;dur=0.0;desc="0 platform calls"');
    expect(await first).toMatch(/^platform;dur=\d+\.\d;desc="1 platform calls"$/);
  });

  it("is kept in the request's one context: the request id's run times its calls, each request its own", async () => {
    // docs/decisions/132: the portal's server enters only `runWithRequestId` for a request.
    const advance = clock();
    const seen = runWithRequestId("req-1", () => {
      const done = platformCallStarted();
      advance(7);
      done();
      const inner = runWithRequestId("req-2", () => [currentRequestId(), platformServerTiming()]);
      const timedApart = runWithPlatformTiming(() => [currentRequestId(), platformServerTiming()]);
      return [currentRequestId(), platformServerTiming(), ...inner, ...timedApart];
    });
    expect(seen).toEqual([
      "req-1",
      'platform;dur=7.0;desc="1 platform calls"',
      "req-2",
      'platform;dur=0.0;desc="0 platform calls"',
      "req-1",
      'platform;dur=0.0;desc="0 platform calls"',
    ]);
  });
});
