import { describe, expect, it } from "vitest";
import { PlanningError } from "~/planning/client.server";
import type { StepOutcome } from "~/planning/sign-in.server";
import { usernameOutcome } from "./login.server";

// docs/decisions/115: what the platform's answer to a password sign-in does to the username's count.

const refused = (status: number): StepOutcome => ({
  kind: "refused",
  status,
  apiMessage: null,
  failure: new PlanningError(status, null).failure,
});

describe("usernameOutcome", () => {
  it("keeps a wrong password (401) counted", () => {
    expect(usernameOutcome(refused(401))).toBe("failed");
  });

  it("clears the count on a sign-in, with or without further steps", () => {
    expect(usernameOutcome({ kind: "success", role: "ClientUser", token: "t" })).toBe("succeeded");
    expect(
      usernameOutcome({ kind: "step", role: "ClientUser", ticket: "t", step: { status: "MfaRequired" } as never }),
    ).toBe("succeeded");
  });

  it("takes back any other answer: a locked account, a fault, an ended sign-in", () => {
    expect(usernameOutcome(refused(403))).toBe("neither");
    expect(usernameOutcome(refused(503))).toBe("neither");
    expect(usernameOutcome({ kind: "ended" })).toBe("neither");
  });
});
