// Valuation report templates (docs/platform-api.md "Valuation reports", "Demo data set"): three
// client templates, one per date-parameter kind, assigned to demo.client only (demo.partner and
// demo.assets have none: the single-click report), and two firm-wide adviser templates; and the
// runner's site settings. Seeded last, drawing nothing, so no earlier row, id or draw moves.
import type { Db } from "../db/connection";
import { reportTemplateClients, reportTemplates, siteSettings } from "../db/schema";
import { DELAY_SETTING, FAIL_NEXT_SETTING, FAIL_TEMPLATE_SETTING } from "../api/reports/runner";

type TemplateSeed = typeof reportTemplates.$inferInsert;

export const REPORT_TEMPLATES: TemplateSeed[] = [
  {
    id: 1,
    name: "Portfolio valuation",
    userType: "Client",
    dateParameters: "Single Date",
    requiredSelector: "Current Client Only",
    sortOrder: 1,
  },
  {
    id: 2,
    name: "Performance report",
    userType: "Client",
    dateParameters: "Date Range",
    requiredSelector: "Account Group Or Account",
    sortOrder: 2,
  },
  {
    id: 3,
    name: "Household valuation",
    userType: "Client",
    dateParameters: "No Date Required",
    requiredSelector: "Select Entity",
    sortOrder: 3,
  },
  {
    id: 4,
    name: "Client valuation (adviser)",
    userType: "Adviser",
    dateParameters: "Single Date",
    requiredSelector: "Account Group",
    allClients: true,
    sortOrder: 1,
  },
  {
    id: 5,
    name: "Client review pack",
    userType: "Adviser",
    dateParameters: "Date Range",
    requiredSelector: "Current Client Only",
    allClients: true,
    sortOrder: 2,
  },
];

/** The runner's settings in the demo: 1.5 s per report, so the portal's waiting state shows. */
export const REPORT_SETTINGS: Record<string, string | number> = {
  [DELAY_SETTING]: 1500,
  [FAIL_TEMPLATE_SETTING]: "",
  [FAIL_NEXT_SETTING]: "",
};

export function seedReports(db: Db, people: { client: number }): void {
  db.insert(reportTemplates).values(REPORT_TEMPLATES).run();
  for (const t of REPORT_TEMPLATES) {
    if (t.userType === "Client")
      db.insert(reportTemplateClients)
        .values({ templateId: t.id as number, entityId: people.client })
        .run();
  }
  for (const [key, value] of Object.entries(REPORT_SETTINGS)) {
    db.insert(siteSettings)
      .values({ key, valueJson: JSON.stringify(value) })
      .run();
  }
}
