import { describe, expect, it } from "vitest";
import { mobileBackHref, stepsBackInHistory } from "./mobile-back";

describe("mobileBackHref (spec 000 §2 mobile Back)", () => {
  it("leads to the page's previous level when it gives one, else to the clients home", () => {
    expect(mobileBackHref("/clients/analysis", "/clients/analysis?id=portfolio-1", "Portfolio")).toBe(
      "/clients/analysis?id=portfolio-1",
    );
    expect(mobileBackHref("/clients/analysis", "/clients/home", "Portfolio")).toBe("/clients/home");
    expect(mobileBackHref("/clients/balance-sheet", undefined, "Portfolio")).toBe("/clients/home");
    expect(mobileBackHref("/clients/documents-and-messages/", null, "Portfolio")).toBe("/clients/home");
  });

  it("shows no Back button on the clients home or outside the clients pages", () => {
    expect(mobileBackHref("/clients/home", null, "Portfolio")).toBeNull();
    expect(mobileBackHref("/clients/home/", null, "Portfolio")).toBeNull();
    expect(mobileBackHref("/advisers/clients", null, "Portfolio")).toBeNull();
    expect(mobileBackHref("/login", null, "Portfolio")).toBeNull();
  });

  it("leads a client who sees only messages and documents there, never to the home (Access Denied)", () => {
    expect(mobileBackHref("/clients/personal-details", null, "Messages")).toBe("/clients/documents-and-messages");
    expect(mobileBackHref("/clients/documents-and-messages", null, "Messages")).toBeNull();
    expect(mobileBackHref("/clients/balance-sheet", null, "Assets")).toBe("/clients/home");
    // a level the portal does not know: the clients' index, whose guard says why
    expect(mobileBackHref("/clients/personal-details", null, null)).toBe("/clients");
  });

  it("never leads off the clients pages, whatever a loader says", () => {
    expect(mobileBackHref("/clients/analysis", "https://elsewhere.example/", "Portfolio")).toBe("/clients/home");
    expect(mobileBackHref("/clients/analysis", "//elsewhere.example/clients/", "Portfolio")).toBe("/clients/home");
    expect(mobileBackHref("/clients/analysis", 3, "Portfolio")).toBe("/clients/home");
  });
});

describe("stepsBackInHistory", () => {
  it("steps back to an earlier state of the same page", () => {
    expect(stepsBackInHistory("/clients/analysis?id=12", "/clients/analysis?id=portfolio-1")).toBe(true);
    expect(stepsBackInHistory("/clients/analysis?id=portfolio-1", "/clients/analysis")).toBe(true);
  });

  it("follows the link after another page, the same state or an unknown entry", () => {
    expect(stepsBackInHistory("/clients/analysis", "/clients/home")).toBe(false);
    expect(stepsBackInHistory("/clients/analysis?id=1", "/clients/analysis?id=1")).toBe(false);
    expect(stepsBackInHistory("/clients/analysis", null)).toBe(false);
    expect(stepsBackInHistory("/clients/analysis", undefined)).toBe(false);
  });
});
