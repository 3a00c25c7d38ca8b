import { beforeAll, describe, expect, it } from "vitest";
import { bodyTypeRefusal, hasBody, mediaTypeOf } from "../../server/api/request-guard";
import { CALLER, withPlatform } from "./harness";

// ASVS 4.0.3 V13.1.5 and V13.2.5 (docs/decisions/182): a body of a type its endpoint does not take
// is refused with 415 and the platform's error body, before it is read; a call without a body is
// not judged.

const harness = withPlatform();
let token: string;
beforeAll(async () => {
  token = await harness.platform.session("demo.client");
});

/** A call with the body and Content-Type given as they are (the harness's `call` always says JSON). */
async function send(path: string, method: string, contentType: string | null, body?: string | FormData) {
  const headers: Record<string, string> = {
    ...CALLER,
    Accept: "application/json",
    "X-Xplan-Auth-Failure-Action": "error",
    Cookie: `XPLANID=${token}`,
  };
  if (contentType !== null) headers["Content-Type"] = contentType;
  const response = await fetch(`${harness.platform.baseUrl}${path}`, { method, headers, body, redirect: "manual" });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

describe("a body of another type than the endpoint takes", () => {
  it("is refused with 415 and the error body, whatever it holds", async () => {
    const form = await send("/resourceful/session/password", "PUT", "application/x-www-form-urlencoded", "a=b");
    expect(form.status).toBe(415);
    expect(form.body).toEqual({
      api_message: "This endpoint accepts application/json only",
      user_message: "This endpoint accepts application/json only",
    });
    // a text/plain body that is good JSON, as a cross-site form or no-cors fetch would send it
    const login = JSON.stringify({ username: "demo.client", password: "Demo-pass-1", user_type: "client" });
    expect((await send("/auth/login", "POST", "text/plain", login)).status).toBe(415);
    expect((await send("/auth/login", "POST", null, login)).status).toBe(415);
    expect((await send("/auth/login", "POST", "application/json; charset=latin1", login)).status).toBe(415);
    expect((await send("/auth/login", "POST", "application/jsonx", login)).status).toBe(415);
  });

  it("JSON is answered, with or without its charset", async () => {
    const login = JSON.stringify({ username: "demo.client", password: "Demo-pass-1", user_type: "client" });
    expect((await send("/auth/login", "POST", "application/json", login)).status).toBe(200);
    expect((await send("/auth/login", "POST", "Application/JSON; Charset=UTF-8", login)).status).toBe(200);
  });

  it("the upload takes multipart only; JSON there is refused", async () => {
    const form = new FormData();
    form.append("content", new Blob(["x"], { type: "text/plain" }), "a.txt");
    const asJson = await send("/resourceful/docnote-v2/1/attachment-v3", "POST", "application/json", "{}");
    expect(asJson.status).toBe(415);
    expect(asJson.body).toMatchObject({ api_message: "This endpoint accepts multipart/form-data only" });
    // multipart reaches the route (which then judges the document: not this client's own message)
    const multipart = await send("/resourceful/docnote-v2/1/attachment-v3", "POST", null, form);
    expect(multipart.status).not.toBe(415);
    // multipart anywhere else is refused
    expect((await send("/resourceful/session/password", "PUT", null, form)).status).toBe(415);
  });

  it("a call without a body is not judged: GET, DELETE, an empty POST", async () => {
    expect((await send("/resourceful/session/user", "GET", "text/plain")).status).toBe(200);
    expect((await send("/resourceful/session/user", "GET", null)).status).toBe(200);
    const other = await harness.platform.session("demo.client");
    const bare = await fetch(`${harness.platform.baseUrl}/resourceful/session`, {
      method: "DELETE",
      headers: { ...CALLER, Cookie: `XPLANID=${other}`, "X-Xplan-Auth-Failure-Action": "error" },
    });
    expect(bare.status).not.toBe(415);
    expect(bare.status).toBeLessThan(300);
  });
});

describe("the rule", () => {
  it("a body is chunked or has a length above zero", () => {
    expect(hasBody({})).toBe(false);
    expect(hasBody({ "content-length": "0" })).toBe(false);
    expect(hasBody({ "content-length": "2" })).toBe(true);
    expect(hasBody({ "content-length": "x" })).toBe(true);
    expect(hasBody({ "transfer-encoding": "chunked" })).toBe(true);
  });

  it("reads a media type and its parameters", () => {
    expect(mediaTypeOf('multipart/form-data; boundary="a b"')).toEqual({
      type: "multipart/form-data",
      params: { boundary: "a b" },
    });
    expect(mediaTypeOf("not a type")).toBeNull();
    expect(mediaTypeOf(undefined)).toBeNull();
  });

  it("judges by endpoint", () => {
    const judge = (method: string, path: string, contentType: string | undefined, body = true) =>
      bodyTypeRefusal({ method, path, contentType, hasBody: body })?.status ?? null;
    expect(judge("POST", "/auth/login", "application/json")).toBeNull();
    expect(judge("POST", "/auth/login", "application/json;charset=utf-8")).toBeNull();
    expect(judge("POST", "/auth/login", "application/json; charset=utf-16")).toBe(415);
    expect(judge("POST", "/auth/login", undefined)).toBe(415);
    expect(judge("POST", "/auth/login", undefined, false)).toBeNull();
    expect(judge("POST", "/resourceful/docnote-v2/7/attachment-v3", "multipart/form-data; boundary=x")).toBeNull();
    expect(judge("POST", "/resourceful/docnote-v2/7/attachment-v3", "multipart/form-data")).toBe(415);
    expect(judge("PUT", "/resourceful/docnote-v2/7", "multipart/form-data; boundary=x")).toBe(415);
  });
});
