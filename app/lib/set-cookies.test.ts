import { describe, expect, it } from "vitest";
import { setCookiesOf } from "./set-cookies";

describe("setCookiesOf", () => {
  it("answers each Set-Cookie apart with the standard Headers", () => {
    const headers = new Headers();
    headers.append("Set-Cookie", "a=1; Path=/");
    headers.append("Set-Cookie", "b=2; Path=/");
    expect(setCookiesOf(headers)).toEqual(["a=1; Path=/", "b=2; Path=/"]);
  });
  it("uses getAll where getSetCookie is missing", () => {
    const legacy = { getAll: () => ["XPLANID=abc; HttpOnly"], get: () => null } as unknown as Headers;
    expect(setCookiesOf(legacy)).toEqual(["XPLANID=abc; HttpOnly"]);
  });
  it("answers nothing when there is no cookie", () => {
    expect(setCookiesOf(new Headers())).toEqual([]);
  });
});
