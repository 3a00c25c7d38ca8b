import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  clearLoginState,
  commitLoginState,
  LOGIN_STATE_COOKIE,
  type LoginState,
  openLoginState,
  readLoginState,
  sealLoginState,
} from "./login-state.server";

const state: LoginState = {
  ticket: "T".repeat(43),
  role: "ClientUser",
  userType: "client",
  redirectTo: "/clients/home",
  step: { status: "MemorableCharactersRequired", positions: [0, 2, 5], hint: "A tree" },
};

function requestWith(setCookie: string): Request {
  return new Request("http://portal.test/login", { headers: { Cookie: setCookie.split(";")[0]! } });
}

describe("the login-state cookie", () => {
  it("round-trips the state, sealed: the ticket is not readable in the cookie", () => {
    const header = commitLoginState(state);
    expect(header).not.toContain(state.ticket);
    expect(header).toMatch(/; Path=\/login; Max-Age=600; HttpOnly; SameSite=Lax/);
    expect(readLoginState(requestWith(header))).toEqual(state);
  });

  it("refuses a tampered or foreign value", () => {
    const value = sealLoginState(state);
    // one character changed in the middle, where every bit of it is data (the last one of an
    // unpadded base64 text may carry unused bits, and two random endings can be the same)
    const middle = Math.floor(value.length / 2);
    const tampered = `${value.slice(0, middle)}${value[middle] === "A" ? "B" : "A"}${value.slice(middle + 1)}`;
    expect(tampered).not.toBe(value);
    expect(openLoginState(tampered)).toBeNull();
    expect(openLoginState("not-a-sealed-value")).toBeNull();
    expect(openLoginState(sealLoginState(state).replace(/^/, "x"))).toBeNull();
  });

  it("is cleared with Max-Age=0", () => {
    expect(clearLoginState()).toBe(`${LOGIN_STATE_COOKIE}=; Path=/login; Max-Age=0; HttpOnly; SameSite=Lax`);
    expect(readLoginState(requestWith(clearLoginState()))).toBeNull();
  });

  it("keeps terms that fit, and leaves out terms too long for a cookie", () => {
    const short: LoginState = {
      ...state,
      step: { status: "SiteTerms", terms: { title: "Terms of use", html: "<p>Short terms.</p>" } },
    };
    expect(openLoginState(sealLoginState(short))?.step).toEqual(short.step);
    // Random text does not compress: far beyond what a cookie can hold.
    const noise = randomBytes(3000).toString("hex");
    const long: LoginState = { ...state, step: { status: "SiteTerms", terms: { title: "Terms of use", html: noise } } };
    const value = sealLoginState(long);
    expect(value.length).toBeLessThanOrEqual(3800);
    expect(openLoginState(value)?.step).toEqual({ status: "SiteTerms", terms: { title: "Terms of use", html: null } });
  });
});
