import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { createTranslator, type Texts } from "~/lib/translator";
import { HoneypotFields } from "./honeypot-fields";
import { TranslationProvider } from "./translation";

// Issue 25 findings 9 and 22 (docs/decisions/121): the anti-spam fields of an anonymous form as a
// text browser shows them (w3m and lynx show what CSS hides): the sealed timestamp travels as a
// hidden input, the one bait field says to leave it blank, and nothing carries autocomplete="nope".

const SEALED = "v1.c2VhbGVkLXRpbWVzdGFtcA.bm9uY2U.dGFn";

vi.mock("~/components/shell/root-data", () => ({
  useShellData: () => ({
    honeypotInputProps: {
      nameFieldName: "name__confirm",
      validFromFieldName: "from__confirm",
      encryptedValidFrom: SEALED,
    },
  }),
}));

function textsOf(locale: string): Texts {
  return {
    common: JSON.parse(readFileSync(new URL(`../locales/${locale}/common.json`, import.meta.url), "utf8")) as Record<
      string,
      string
    >,
  };
}

/** A page like the login page: three anonymous forms (sign-in, cookie notice, language chooser). */
function page(locale = "en-GB"): string {
  return renderToStaticMarkup(
    <TranslationProvider translator={createTranslator(locale, textsOf(locale))}>
      <main>
        <form method="post" action="/login">
          <HoneypotFields />
          <label htmlFor="username">Username</label>
          <input id="username" name="username" />
          <button type="submit">Login</button>
        </form>
        <form method="post" action="/cookie-consent">
          <HoneypotFields idSuffix="cookie-notice" />
          <button type="submit">Accept</button>
        </form>
        <form method="post" action="/locale">
          <HoneypotFields idSuffix="language-chooser" />
          <button type="submit">Change language</button>
        </form>
      </main>
    </TranslationProvider>,
  );
}

const inputsOf = (html: string) => [...html.matchAll(/<input\b[^>]*>/g)].map(([tag]) => tag);
const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`, "i").exec(tag)?.[1];

/** What a text browser shows of the page, one screen wide. */
function dump(browser: "w3m" | "lynx", html: string): string {
  const args =
    browser === "w3m"
      ? ["-dump", "-T", "text/html", "-cols", "100"]
      : ["-dump", "-stdin", "-force_html", "-width=100", "-nolist"];
  return execFileSync(browser, args, { input: html, encoding: "utf8" });
}

const LABEL = "Anti-spam check: leave this field blank";

describe("the anti-spam fields", () => {
  it("send the sealed timestamp as a hidden input and show one bait field per form", () => {
    const html = page();
    for (const form of html.split("</form>").slice(0, 3)) {
      const inputs = inputsOf(form);
      const timestamp = inputs.filter((tag) => attribute(tag, "name") === "from__confirm");
      expect(timestamp).toHaveLength(1);
      expect(attribute(timestamp[0]!, "type")).toBe("hidden");
      expect(attribute(timestamp[0]!, "value")).toBe(SEALED);
      expect(attribute(timestamp[0]!, "id")).toBeUndefined();
      const bait = inputs.filter((tag) => attribute(tag, "name") === "name__confirm");
      expect(bait).toHaveLength(1);
      expect(attribute(bait[0]!, "type")).toBe("text");
      expect(attribute(bait[0]!, "value")).toBe("");
      expect(attribute(bait[0]!, "tabindex")).toBe("-1");
      // the fields' id and the label that names it
      const id = attribute(bait[0]!, "id")!;
      expect(form).toContain(`<label for="${id}">${LABEL}</label>`);
    }
    const ids = inputsOf(html)
      .map((tag) => attribute(tag, "id"))
      .filter(Boolean);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('never carry autocomplete="nope" (not a value HTML knows): autocomplete is off', () => {
    const html = page();
    expect(html).not.toMatch(/autocomplete="nope"/i);
    for (const tag of inputsOf(html).filter((tag) => attribute(tag, "name") === "name__confirm")) {
      expect(attribute(tag, "autocomplete")).toBe("off");
    }
  });

  it.each(["w3m", "lynx"] as const)("show %s one labelled bait field per form and no timestamp", (browser) => {
    const text = dump(browser, page());
    expect(text.split(LABEL)).toHaveLength(4);
    expect(text).not.toContain("Please leave this field blank");
    expect(text).not.toContain(SEALED);
  });

  it("are the portal's own on every form: remix-utils' HoneypotInputs (autocomplete=\"nope\", the timestamp as a text field) is used nowhere", () => {
    const root = new URL("../", import.meta.url);
    const sources = readdirSync(root, { recursive: true, encoding: "utf8" }).filter(
      (path) => /\.tsx?$/.test(path) && !path.endsWith(".test.tsx"),
    );
    const users = sources.filter((path) => readFileSync(new URL(path, root), "utf8").includes("remix-utils/honeypot"));
    expect(users).toEqual([]);
  });

  it("are labelled in the page's language", () => {
    const html = page("fr-CA");
    expect(html).toContain("Vérification antipourriel : laissez ce champ vide");
    expect(html).not.toContain(LABEL);
  });
});
