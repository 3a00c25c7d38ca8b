// Issue 40 (WCAG 3.1.2, docs/decisions/210): the texts and lists the platform holds, per locale. A
// French client must not meet an English question, asset class or document type: for every name the
// platform holds in each list, the site gives its Canadian French name, and the site's answer
// carries them for the portal.
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { withPlatform } from "./harness";

const harness = withPlatform();

type SiteAnswer = { settings: Record<string, unknown> };
type Questions = { default_questions: string[] };

async function siteSettings(): Promise<Record<string, unknown>> {
  const answer = await harness.platform.call<SiteAnswer>("/resourceful/site?site_locales=fr-CA");
  expect(answer.status).toBe(200);
  return answer.body.settings;
}

/** A list's French names as the site answers them: English name → French name. */
async function frenchNames(list: string): Promise<Record<string, string>> {
  const value = (await siteSettings())[`${list}.fr-CA`];
  expect(typeof value, `${list}.fr-CA`).toBe("string");
  const names = JSON.parse(value as string) as Record<string, string>;
  for (const [english, french] of Object.entries(names)) {
    expect(french.trim(), english).not.toBe("");
    // translated, not copied (a proper name keeps its words, but never the whole name as it is)
    expect(french, english).not.toBe(english === "Europe" ? "" : english);
  }
  return names;
}

const column = (query: ReturnType<typeof sql>) =>
  (harness.platform.db.all(query) as Array<{ name: string }>).map((r) => r.name);

/** The names a JSON look-through column holds (`[{ "name": …, "weight": … }]`). */
function splitNames(field: "asset_class_allocation" | "regional_allocation"): string[] {
  const rows = harness.platform.db.all(
    sql.raw(`select ${field} as split from securities where ${field} is not null`),
  ) as Array<{ split: string }>;
  return rows.flatMap((r) => (JSON.parse(r.split) as Array<{ name: string }>).map((p) => p.name));
}

function expectAllNamed(held: string[], names: Record<string, string>) {
  const missing = [...new Set(held)].filter((name) => !(name in names));
  expect(missing).toEqual([]);
  expect(held.length).toBeGreaterThan(0);
}

describe("the site's texts and lists in Canadian French (decision 210)", () => {
  it("gives the password guidance in French beside the English", async () => {
    const settings = await siteSettings();
    expect(settings.passwordGuidance).toMatch(/^Use at least 12 characters/);
    expect(settings["passwordGuidance.fr-CA"]).toMatch(/^Utilisez au moins 12 caractères/);
  });

  it("names each of the eight default security questions in French", async () => {
    const token = await harness.platform.session("demo.client");
    const answer = await harness.platform.call<Questions>("/resourceful/session/security_questions", { token });
    const names = await frenchNames("securityQuestions");
    expect(answer.body.default_questions).toHaveLength(8);
    expectAllNamed(answer.body.default_questions, names);
    expect(names["What was the name of your first pet?"]).toBe(
      "Quel était le nom de votre premier animal de compagnie?",
    );
    expect(new Set(Object.values(names)).size).toBe(8);
  });

  it("names every asset class the securities hold, whole or in a fund's split", async () => {
    const names = await frenchNames("assetClassNames");
    const codes = column(sql`select distinct asset_class_code as name from securities`);
    const { ASSET_CLASS_NAMES } = await import("../../server/domain/holdings");
    expectAllNamed(
      [...codes.map((code) => ASSET_CLASS_NAMES[code] ?? code), ...splitNames("asset_class_allocation")],
      names,
    );
    expect(names.Equities).toBe("Actions");
  });

  it("names every sector the securities hold", async () => {
    const names = await frenchNames("sectorNames");
    expectAllNamed(column(sql`select distinct sector_name as name from securities`), names);
  });

  it("names every region the securities hold, whole or in a fund's split", async () => {
    const names = await frenchNames("regionNames");
    expectAllNamed(
      [...column(sql`select distinct region as name from securities`), ...splitNames("regional_allocation")],
      names,
    );
    expect(names["United Kingdom"]).toBe("Royaume-Uni");
  });

  it("names every document type", async () => {
    const names = await frenchNames("documentTypeNames");
    expectAllNamed(column(sql`select name from document_types`), names);
    expect(names["Secure Message"]).toBe("Message sécurisé");
  });

  it("names every benchmark", async () => {
    const names = await frenchNames("benchmarkNames");
    expectAllNamed(column(sql`select name from benchmarks`), names);
  });

  it("names every report template", async () => {
    const names = await frenchNames("reportTemplateNames");
    expectAllNamed(column(sql`select name from report_templates`), names);
    expect(names["Portfolio valuation"]).toBe("Évaluation du portefeuille");
  });
});
