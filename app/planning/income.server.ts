import { z } from "zod/v4";
import type { Jurisdiction } from "~/lib/analysis/income";
import type { PlanningClient } from "./client.server";
import { WireDate, WireMoney } from "./wire";

// Income received (issue 41, docs/decisions/199-income-received.md; docs/platform-api.md
// "Portfolio"): the platform's income call, by month and by tax year, per account and holding.

const Period = { start_date: WireDate, end_date: WireDate, income: WireMoney };

export const IncomeAnswer = z.object({
  report_currency: z.string(),
  tax_year: z.enum(["GB", "AU", "CA"]),
  end_date: WireDate,
  months: z.array(z.object({ month: z.string().regex(/^\d{4}-\d{2}$/), ...Period })),
  tax_years: z.array(z.object({ tax_year: z.number().int(), ...Period })),
  holdings: z.array(
    z.object({
      accountid: z.number(),
      security_id: z.number(),
      description: z.string(),
      code: z.string(),
      isin: z.string().nullable(),
      currency: z.string(),
    }),
  ),
  rows: z.array(
    z.object({
      accountid: z.number(),
      security_id: z.number(),
      month: z.string(),
      tax_year: z.number().int(),
      native_income: WireMoney,
      income: WireMoney,
      transactions: z.number(),
    }),
  ),
});
export type IncomeAnswer = z.output<typeof IncomeAnswer>;

/** Income received by the accounts (the view's, decision 107), in the report currency (default the client's preferred one). */
export async function fetchIncome(
  planning: PlanningClient,
  r: { accountIds: number[]; jurisdiction: Jurisdiction; reportCurrency?: string },
): Promise<IncomeAnswer> {
  return planning.get("resourceful/portfolio/income", IncomeAnswer, {
    query: { accountid: r.accountIds.join(","), tax_year: r.jurisdiction, report_currency: r.reportCurrency },
  });
}
