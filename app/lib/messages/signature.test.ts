import { describe, expect, it } from "vitest";
import {
  awaitsAction,
  badgeOf,
  cleanCode,
  codeErrorOf,
  dayIn,
  finishedAt,
  folderOrder,
  hasValidPhone,
  ownOutcome,
  ownSignatory,
  readJourneyStep,
  signatoryLabelOf,
  signatoryName,
  STATUS,
} from "./signature";

describe("badgeOf (spec 002 §4 'Badge')", () => {
  it("maps each status to its badge and tone", () => {
    expect(badgeOf(STATUS.pending)).toEqual({ key: "pending", tone: "warning" });
    expect(badgeOf(STATUS.declined)).toEqual({ key: "declined", tone: "danger" });
    expect(badgeOf(STATUS.signed)).toEqual({ key: "signed", tone: "success" });
    expect(badgeOf(STATUS.awaitingSignature)).toEqual({ key: "awaiting", tone: "info" });
    expect(badgeOf(STATUS.partSigned)).toEqual({ key: "awaiting", tone: "info" });
  });
});

describe("awaitsAction (spec 002 §4)", () => {
  it("lists items that are neither pending nor signed and have a due date", () => {
    expect(awaitsAction({ status: STATUS.awaitingSignature, duedate: "2026-12-01" })).toBe(true);
    expect(awaitsAction({ status: STATUS.partSigned, duedate: "2026-12-01" })).toBe(true);
    expect(awaitsAction({ status: STATUS.declined, duedate: "2026-12-01" })).toBe(true);
    expect(awaitsAction({ status: STATUS.pending, duedate: "2026-12-01" })).toBe(false);
    expect(awaitsAction({ status: STATUS.signed, duedate: "2026-12-01" })).toBe(false);
    expect(awaitsAction({ status: STATUS.awaitingSignature, duedate: null })).toBe(false);
  });
});

describe("signatories (spec 002 §3, §4 'Signatory label')", () => {
  it("says who signed, declined or is awaited, with the date of what they did", () => {
    expect(signatoryLabelOf({ signed_at: "2026-11-20T10:00:00Z", declined_at: null })).toEqual({
      key: "signedBy",
      at: "2026-11-20T10:00:00Z",
    });
    expect(signatoryLabelOf({ signed_at: null, declined_at: "2026-11-21T10:00:00Z" })).toEqual({
      key: "declinedBy",
      at: "2026-11-21T10:00:00Z",
    });
    expect(signatoryLabelOf({ signed_at: null, declined_at: null })).toEqual({ key: "awaitingBy", at: null });
  });

  it("names a signatory 'Last, First', falling back to what is known", () => {
    expect(
      signatoryName({ entity_first_name: "Eleanor", entity_last_name: "Hartley", entity_name: "Eleanor Hartley" }),
    ).toBe("Hartley, Eleanor");
    expect(signatoryName({ entity_first_name: null, entity_last_name: "Hartley", entity_name: null })).toBe("Hartley");
    expect(signatoryName({ entity_first_name: " ", entity_last_name: null, entity_name: "Hartley Family Trust" })).toBe(
      "Hartley Family Trust",
    );
  });
});

describe("ownSignatory (spec 002 §4 'Who can sign')", () => {
  const mine = { id: 1, can_sign: true };
  const theirs = { id: 2, can_sign: false };
  it("lets a client sign an item awaiting signature, or part-signed when their own signatory can sign", () => {
    expect(ownSignatory({ status: STATUS.awaitingSignature }, [theirs, mine], true)).toBe(mine);
    expect(ownSignatory({ status: STATUS.partSigned }, [theirs, mine], true)).toBe(mine);
    expect(ownSignatory({ status: STATUS.partSigned }, [theirs], true)).toBeNull();
  });

  it("never for a signed, declined or pending item, nor for an adviser", () => {
    for (const status of [STATUS.signed, STATUS.declined, STATUS.pending])
      expect(ownSignatory({ status }, [mine], true)).toBeNull();
    expect(ownSignatory({ status: STATUS.awaitingSignature }, [mine], false)).toBeNull();
  });
});

describe("the journey's rules (spec 002 'Signing journey', §8)", () => {
  it("needs a registered phone with '+'", () => {
    expect(hasValidPhone("+44 7700 900123")).toBe(true);
    expect(hasValidPhone("07700 900456")).toBe(false);
    expect(hasValidPhone(null)).toBe(false);
  });

  it("recognises the platform's three code refusals", () => {
    expect(codeErrorOf("OTP does not match")).toBe("mismatch");
    expect(codeErrorOf("Too many incorrect OTP attempts")).toBe("tooMany");
    expect(codeErrorOf("OTP code has expired")).toBe("expired");
    expect(codeErrorOf("Invalid secure data")).toBeNull();
    expect(codeErrorOf(null)).toBeNull();
  });

  it("reads the step of the URL and cleans a typed code", () => {
    expect(readJourneyStep("code")).toBe("code");
    expect(readJourneyStep("elsewhere")).toBeNull();
    expect(cleanCode(" 12 34-56 7")).toBe("123456");
    expect(cleanCode(undefined)).toBe("");
  });
});

describe("the To be signed folder (spec 002 'Folders', §4 'Badge')", () => {
  it("keeps every item, those awaiting action first, so signed and declined documents stay findable", () => {
    const items = [
      { id: 1, status: STATUS.signed, duedate: "2026-12-01" },
      { id: 2, status: STATUS.awaitingSignature, duedate: "2026-12-01" },
      { id: 3, status: STATUS.pending, duedate: null },
      { id: 4, status: STATUS.declined, duedate: "2026-12-01" },
      { id: 5, status: STATUS.partSigned, duedate: "2026-12-03" },
    ];
    // spec 002 §4: declined is neither pending nor signed, so it is listed with those awaiting action
    expect(folderOrder(items).map((i) => i.id)).toEqual([2, 4, 5, 1, 3]);
  });
});

describe("ownOutcome (the line that confirms a signature)", () => {
  const eleanor = { id: 1, entityid: 10, signed_at: "2026-11-26T13:00:00Z", declined_at: null };
  const james = { id: 2, entityid: 11, signed_at: null, declined_at: "2026-11-25T09:00:00Z" };
  it("names what the client's own signatory did, and when", () => {
    expect(ownOutcome([eleanor, james], 10)).toEqual({ key: "signed", at: "2026-11-26T13:00:00Z", signatory: eleanor });
    expect(ownOutcome([eleanor, james], 11)).toEqual({ key: "declined", at: "2026-11-25T09:00:00Z", signatory: james });
  });

  it("is nothing while the client has not acted, or is not a signatory", () => {
    expect(ownOutcome([{ ...eleanor, signed_at: null }], 10)).toBeNull();
    expect(ownOutcome([eleanor], 99)).toBeNull();
  });
});

describe("finishedAt and dayIn (the folder's date of a signed or declined document)", () => {
  const s = (signed_at: string | null, declined_at: string | null = null) => ({ signed_at, declined_at });
  it("takes the last signature of a signed item, the decline of a declined one, nothing otherwise", () => {
    expect(
      finishedAt({ status: STATUS.signed, signatories: [s("2026-11-02T10:00:00Z"), s("2026-11-05T10:00:00Z")] }),
    ).toEqual({ key: "signedOn", at: "2026-11-05T10:00:00Z" });
    expect(
      finishedAt({
        status: STATUS.declined,
        signatories: [s("2026-11-02T10:00:00Z"), s(null, "2026-11-03T10:00:00Z")],
      }),
    ).toEqual({ key: "declinedOn", at: "2026-11-03T10:00:00Z" });
    expect(finishedAt({ status: STATUS.partSigned, signatories: [s("2026-11-02T10:00:00Z"), s(null)] })).toBeNull();
  });

  it("gives the day in the user's time zone", () => {
    expect(dayIn("2026-11-25T23:30:00Z", "Australia/Sydney")).toBe("2026-11-26");
    expect(dayIn("2026-11-25T23:30:00Z", null)).toBe("2026-11-25");
    expect(dayIn("2026-11-25T23:30:00Z", "Not/AZone")).toBe("2026-11-25");
  });
});
