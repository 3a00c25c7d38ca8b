import { describe, expect, it } from "vitest";
import { cleanServerMessage, toFailure } from "./error-catalogue";

describe("cleanServerMessage", () => {
  it("drops messages about corba, xplan internals and internal server errors", () => {
    expect(cleanServerMessage("CORBA timeout talking to node 3")).toBeNull();
    expect(cleanServerMessage("xplan.core failed")).toBeNull();
    expect(cleanServerMessage("Xplan failed")).toBeNull();
    expect(cleanServerMessage("There was an Internal Server Error")).toBeNull();
  });
  it("ensures a trailing full stop and removes the permission prefix", () => {
    expect(cleanServerMessage("Permission Error: You do not have access to this entity")).toBe(
      "You do not have access to this entity.",
    );
    expect(cleanServerMessage("Already fine.")).toBe("Already fine.");
    expect(cleanServerMessage("The planning platform is busy")).toBe("The planning platform is busy.");
  });
  it("treats empty input as no message", () => {
    expect(cleanServerMessage("")).toBeNull();
    expect(cleanServerMessage("   ")).toBeNull();
    expect(cleanServerMessage(undefined)).toBeNull();
  });
});

describe("toFailure", () => {
  it("recognises both lost-session messages whatever the status", () => {
    expect(toFailure(400, "This feature is not available without a valid session").kind).toBe("lost-session");
    expect(toFailure(500, "Either existing session or username required").kind).toBe("lost-session");
  });
  it("maps no answer to the network failure", () => {
    expect(toFailure(0, null)).toEqual({ kind: "network", status: 503, detail: null });
  });
  it("keeps a cleaned api message, or falls back to the generic text", () => {
    expect(toFailure(422, "Value too large")).toEqual({ kind: "api", status: 422, detail: "Value too large." });
    expect(toFailure(500, "corba exploded")).toEqual({ kind: "generic", status: 500, detail: null });
    expect(toFailure(403, "Permission Error: no")).toEqual({ kind: "forbidden", status: 403, detail: "no." });
    expect(toFailure(404, null).kind).toBe("not-found");
  });
});
