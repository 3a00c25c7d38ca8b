import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { issueToken } from "./anti-forgery-token.server";
import { csrf, honeypot, readForm } from "./csrf.server";
import { seal, unseal } from "./crypto.server";
import { env } from "~/runtime/env.server";
import { tampered } from "../../tests/tamper";

// Issue 24 finding 8 (docs/decisions/113): the portal's own anti-forgery token and honeypot, on
// node:crypto, compatible with remix-utils' React inputs (field names `csrf`, `name__confirm`,
// `from__confirm`).

function post(cookie: string, fields: Record<string, string>) {
  return new Request("http://portal.test/login", {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
  });
}

async function status(work: Promise<unknown>): Promise<number | "accepted"> {
  try {
    await work;
    return "accepted";
  } catch (error) {
    if (error instanceof Response) return error.status;
    throw error;
  }
}

async function visitor() {
  const [token, setCookie] = await csrf.commitToken(new Request("http://portal.test/"));
  return { token, cookie: setCookie!.split(";")[0]! };
}

describe("the anti-forgery token", () => {
  it("is a random token with its HMAC, kept while the cookie holds it", async () => {
    const { token, cookie } = await visitor();
    expect(token).toMatch(/^[\w-]{43}\.[\w-]{43}$/);
    const [again, setCookie] = await csrf.commitToken(
      new Request("http://portal.test/", { headers: { Cookie: cookie } }),
    );
    expect(again).toBe(token);
    expect(setCookie).toBeNull();
    expect((await visitor()).token).not.toBe(token);
  });

  it("is HttpOnly, SameSite=Lax, for the whole site", async () => {
    const [, setCookie] = await csrf.commitToken(new Request("http://portal.test/"));
    expect(setCookie).toMatch(/^csrf=[^;]+; Path=\/; HttpOnly; SameSite=Lax/);
    expect((await issueToken(null))[1]).toMatch(/^csrf=[^;]+; Path=\/; HttpOnly; SameSite=Lax/);
  });

  it("accepts the form's token equal to the cookie's, and refuses anything else with 403", async () => {
    const { token, cookie } = await visitor();
    expect(await status(readForm(post(cookie, { csrf: token })))).toBe("accepted");
    expect(await status(readForm(post(cookie, {})))).toBe(403);
    expect(await status(readForm(post("", { csrf: token })))).toBe(403);
    expect(await status(readForm(post(cookie, { csrf: (await visitor()).token })))).toBe(403);
  });

  it("keeps a cookie's token once its signatures check out, and never a cookie whose do not", async () => {
    const { token, cookie } = await visitor();
    const page = () => csrf.commitToken(new Request("http://portal.test/", { headers: { Cookie: cookie } }));
    expect(await page()).toEqual([token, null]);
    expect(await page()).toEqual([token, null]);
    // the same cookie with its last character changed: a new token, whatever was kept for the first
    const value = cookie.slice("csrf=".length);
    const changed = `csrf=${value.slice(0, -3)}${value.slice(-3, -2) === "A" ? "B" : "A"}${value.slice(-2)}`;
    const [other, setCookie] = await csrf.commitToken(
      new Request("http://portal.test/", { headers: { Cookie: changed } }),
    );
    expect(other).not.toBe(token);
    expect(setCookie).not.toBeNull();
    expect(await status(readForm(post(changed, { csrf: token })))).toBe(403);
  });

  it("answers a new token on rotation, which replaces the old one", async () => {
    const { token } = await visitor();
    const rotated = (await issueToken(null))[1].split(";")[0]!;
    const [fresh] = await csrf.commitToken(new Request("http://portal.test/", { headers: { Cookie: rotated } }));
    expect(fresh).not.toBe(token);
    expect(await status(readForm(post(rotated, { csrf: fresh })))).toBe("accepted");
    expect(await status(readForm(post(rotated, { csrf: token })))).toBe(403);
  });
});

describe("the honeypot of anonymous forms", () => {
  async function anonymous(fields: Record<string, string>) {
    const { token, cookie } = await visitor();
    return status(readForm(post(cookie, { csrf: token, ...fields }), { anonymous: true }));
  }
  const props = () => honeypot.getInputProps();

  it("gives the field names remix-utils' inputs render, and a sealed timestamp", () => {
    const { nameFieldName, validFromFieldName, encryptedValidFrom } = props();
    expect(nameFieldName).toBe("name__confirm");
    expect(validFromFieldName).toBe("from__confirm");
    expect(encryptedValidFrom).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(encryptedValidFrom).not.toContain(String(Date.now()).slice(0, 6));
  });

  it("seals a form made now once a second: the same value within the second, opening to its start; a new one after it", () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 29, 9, 30, 15, 100), toFake: ["Date"] });
    try {
      const first = props().encryptedValidFrom;
      vi.setSystemTime(Date.UTC(2026, 10, 29, 9, 30, 15, 990));
      expect(props().encryptedValidFrom).toBe(first);
      expect(unseal(first, env.sessionSecrets, "honeypot")).toBe(String(Date.UTC(2026, 10, 29, 9, 30, 15)));
      vi.setSystemTime(Date.UTC(2026, 10, 29, 9, 30, 16, 0));
      const next = props().encryptedValidFrom;
      expect(next).not.toBe(first);
      expect(unseal(next, env.sessionSecrets, "honeypot")).toBe(String(Date.UTC(2026, 10, 29, 9, 30, 16)));
    } finally {
      vi.useRealTimers();
    }
  });

  it("lets a person's post through: the trap empty, the timestamp as sealed", async () => {
    const { encryptedValidFrom } = props();
    expect(await anonymous({ name__confirm: "", from__confirm: encryptedValidFrom })).toBe("accepted");
  });

  it("answers 400 'Form not submitted properly' to a filled trap", async () => {
    const { encryptedValidFrom } = props();
    const { token, cookie } = await visitor();
    try {
      await readForm(
        post(cookie, { csrf: token, name__confirm: "bot@example.com", from__confirm: encryptedValidFrom }),
        { anonymous: true },
      );
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(Response);
      expect((error as Response).status).toBe(400);
      expect(await (error as Response).text()).toBe("Form not submitted properly");
    }
  });

  it("answers 400 to a timestamp that does not unseal, is in the future, or is missing, and to a missing trap", async () => {
    const { encryptedValidFrom } = props();
    expect(await anonymous({ name__confirm: "", from__confirm: "U2FsdGVkX1+garbage" })).toBe(400);
    expect(await anonymous({ name__confirm: "", from__confirm: tampered(encryptedValidFrom) })).toBe(400);
    // sealed for another purpose (the sign-in steps' cookie): not a honeypot timestamp
    expect(await anonymous({ name__confirm: "", from__confirm: seal(String(Date.now())) })).toBe(400);
    expect(
      await anonymous({
        name__confirm: "",
        from__confirm: honeypot.getInputProps({ validFromTimestamp: Date.now() + 3_600_000 }).encryptedValidFrom,
      }),
    ).toBe(400);
    expect(await anonymous({ name__confirm: "" })).toBe(400);
    expect(await anonymous({ from__confirm: encryptedValidFrom })).toBe(400);
    expect(await anonymous({})).toBe(400);
  });

  it("is not asked of signed-in forms", async () => {
    const { token, cookie } = await visitor();
    expect(await status(readForm(post(cookie, { csrf: token })))).toBe("accepted");
  });
});

describe("the packages", () => {
  it("no longer include crypto-js, is-ip or intl-parse-accept-language", () => {
    const manifest = JSON.parse(readFileSync("package.json", "utf8")) as Record<
      string,
      Record<string, string> | undefined
    >;
    const names = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})];
    for (const name of ["crypto-js", "@types/crypto-js", "is-ip", "intl-parse-accept-language"])
      expect(names).not.toContain(name);
  });
});
