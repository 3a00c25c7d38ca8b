import { execFileSync } from "node:child_process";
import { DEMO_PASSWORD, expect, test } from "./fixtures";

// Issue 25 finding 22 (docs/decisions/121): script-restricted clients use text browsers, which show
// what CSS hides. Each anonymous form shows them one bait field, labelled to be left blank, and
// never the sealed timestamp; a text browser's post (every field of the form, the bait left blank)
// signs in. The pages are read as w3m and lynx render them (.ci/run installs both when missing).

const LABEL = "Anti-spam check: leave this field blank";

/** What a text browser shows of a page. */
function shown(browser: "w3m" | "lynx", html: string): string {
  const args =
    browser === "w3m"
      ? ["-dump", "-T", "text/html", "-cols", "100"]
      : ["-dump", "-stdin", "-force_html", "-width=100", "-nolist"];
  return execFileSync(browser, args, { input: html, encoding: "utf8" });
}

/** The page's forms that carry the honeypot. */
const anonymousForms = (html: string) =>
  html
    .split("<form")
    .slice(1)
    .filter((form) => form.slice(0, form.indexOf("</form>")).includes('name="name__confirm"'));

const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`, "i").exec(tag)?.[1];

test.describe("a text browser @no-js-only", () => {
  for (const path of ["/login", "/login?userType=adviser", "/login/help", "/login/help/reset"]) {
    test(`sees one anti-spam field per form on ${path}, labelled to be left blank, and never its timestamp`, async ({
      request,
    }) => {
      const html = await (await request.get(path)).text();
      const forms = anonymousForms(html).length;
      expect(forms).toBeGreaterThanOrEqual(3);
      const sealed = /name="from__confirm"[^>]*value="([^"]+)"/.exec(html)?.[1];
      expect(sealed).toBeTruthy();
      expect(html).not.toMatch(/autocomplete="nope"/i);
      for (const browser of ["w3m", "lynx"] as const) {
        const text = shown(browser, html);
        expect(text.split(LABEL).length - 1, browser).toBe(forms);
        expect(text, browser).not.toContain(sealed);
        expect(text, browser).not.toContain("Please leave this field blank");
      }
    });
  }

  test("signs in by sending the login form as it is, the anti-spam field left blank", async ({ request }) => {
    const html = await (await request.get("/login")).text();
    const start = html.search(/<form[^>]*action="\/login"/);
    const form = html.slice(start, html.indexOf("</form>", start));
    // every input a text browser sends: the hidden ones, the bait (blank) and the two it fills in
    const fields: Record<string, string> = {};
    for (const [tag] of form.matchAll(/<input\b[^>]*>/g)) {
      const name = attribute(tag, "name");
      if (!name || attribute(tag, "type") === "checkbox") continue;
      fields[name] = attribute(tag, "value") ?? "";
    }
    expect(Object.keys(fields)).toEqual(
      expect.arrayContaining(["csrf", "from__confirm", "name__confirm", "username", "password"]),
    );
    expect(fields.name__confirm).toBe("");
    const answer = await request.post("/login", {
      form: { ...fields, username: "demo.client", password: DEMO_PASSWORD, intent: "login" },
      maxRedirects: 0,
    });
    expect(answer.status()).toBe(302);
    expect(answer.headers().location).toMatch(/^\/clients/);
    const home = shown("w3m", await (await request.get("/clients/home")).text());
    expect(home).toContain("Log out");
  });
});
