// spec 001 §2.3 "Transactions tab", §5 "Display rules": which detail fields a transaction shows.
// Pure: unit tested without a server.

/** spec 001 §5: each of fees, taxes and value after fees and taxes has a hide setting. */
export type HideSetting = "Do Not Hide" | "Hide For All Transactions" | "Hide For Income Transactions Only";

export function readHideSetting(value: unknown): HideSetting {
  return value === "Hide For All Transactions" || value === "Hide For Income Transactions Only" ? value : "Do Not Hide";
}

export function shownUnder(setting: HideSetting, isIncome: boolean): boolean {
  if (setting === "Hide For All Transactions") return false;
  if (setting === "Hide For Income Transactions Only") return !isIncome;
  return true;
}

export type DetailKey = "account" | "value" | "narrative" | "valueAfter" | "fees" | "taxes" | "units" | "code" | "settlement";

export type HideSettings = { fees: HideSetting; taxes: HideSetting; valueAfter: HideSetting };

/**
 * spec 001 §2.3 detail fields, in order: Account, Value, Narrative, Value after fees and taxes,
 * Fees, Taxes, Number / unit price (not for income), Security code / ISIN, Settlement date.
 */
export function detailKeys(type: string, hide: HideSettings): DetailKey[] {
  const income = type === "income";
  return [
    "account",
    "value",
    "narrative",
    ...(shownUnder(hide.valueAfter, income) ? (["valueAfter"] as const) : []),
    ...(shownUnder(hide.fees, income) ? (["fees"] as const) : []),
    ...(shownUnder(hide.taxes, income) ? (["taxes"] as const) : []),
    ...(income ? [] : (["units"] as const)),
    "code",
    "settlement",
  ];
}

/** spec 001 §9: transaction dates as DD/MM/YYYY. */
export function transactionDate(iso: string): string {
  const [year, month, day] = iso.split("-");
  return `${day}/${month}/${year}`;
}
