// spec 001 §2.3 "Transactions tab", §5 "Display rules": which detail fields a transaction shows,
// what a transaction is called and which way its money moved
// (docs/decisions/108-transaction-types-signs-and-investment-totals.md). Pure: unit tested without a server.
import { localeOf, SHORT_DATE_PATTERNS } from "../format";
import { DEFAULT_LOCALE } from "../i18n";
import { isCashSecurity } from "./investments";

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

export type DetailKey =
  "account" | "value" | "narrative" | "valueAfter" | "fees" | "taxes" | "units" | "code" | "settlement";

export type HideSettings = { fees: HideSetting; taxes: HideSetting; valueAfter: HideSetting };

/**
 * spec 001 §2.3 detail fields, in order: Account, Value, Narrative, Value after fees and taxes,
 * Fees, Taxes, Number / unit price (not for income), Security code / ISIN, Settlement date.
 */
export function detailKeys(type: string, hide: HideSettings): DetailKey[] {
  const income = type === "income";
  // a fee or a tax is itself the cost: its Fees and Taxes would only repeat its value, and no units change hands
  const cost = type === "fee" || type === "tax";
  return [
    "account",
    "value",
    "narrative",
    ...(shownUnder(hide.valueAfter, income) ? (["valueAfter"] as const) : []),
    ...(!cost && shownUnder(hide.fees, income) ? (["fees"] as const) : []),
    ...(!cost && shownUnder(hide.taxes, income) ? (["taxes"] as const) : []),
    ...(income || cost ? [] : (["units"] as const)),
    "code",
    "settlement",
  ];
}

/**
 * spec 001 §9: transaction dates as DD/MM/YYYY, the en-GB short date; each locale writes its own
 * short date (decision 211): DD/MM/YYYY in en-GB and en-AU, YYYY-MM-DD in en-CA and fr-CA.
 */
export function transactionDate(iso: string, locale: string = DEFAULT_LOCALE): string {
  const [year, month, day] = iso.split("-");
  return SHORT_DATE_PATTERNS[localeOf(locale)].order === "ymd" ? `${year}-${month}-${day}` : `${day}/${month}/${year}`;
}

// ── type and direction ──────────────────────────────────────────────────────────────────────────

/**
 * What a transaction is called on screen, from the platform's type code (decision 071): a transfer
 * of a cash line in is a deposit and out a withdrawal; a transfer of a security is an in-specie
 * transfer in or out. A code the portal does not know is 'other' (its own description is shown).
 */
export type TransactionKind =
  "purchase" | "sale" | "deposit" | "withdrawal" | "transferIn" | "transferOut" | "income" | "fee" | "tax" | "other";

/** 'in': money (or value) comes into the account; 'out': it leaves; null: not known. */
export type Direction = "in" | "out";

export function transactionKind(tx: { type: string; code: string; exchange: string }): TransactionKind {
  switch (tx.type) {
    case "buy":
      return "purchase";
    case "sell":
      return "sale";
    case "income":
      return "income";
    case "fee":
      return "fee";
    case "tax":
      return "tax";
    case "transfer_in":
      return isCashSecurity(tx) ? "deposit" : "transferIn";
    case "transfer_out":
      return isCashSecurity(tx) ? "withdrawal" : "transferOut";
    default:
      return "other";
  }
}

/**
 * Which way the transaction's money moves for the account, as a statement shows it: a purchase pays
 * cash out, a sale and income bring it in, a fee and a tax are paid out, a deposit or transfer in
 * brings value in, a withdrawal or transfer out takes it out.
 */
export function directionOf(kind: TransactionKind): Direction | null {
  switch (kind) {
    case "sale":
    case "income":
    case "deposit":
    case "transferIn":
      return "in";
    case "purchase":
    case "fee":
    case "tax":
    case "withdrawal":
    case "transferOut":
      return "out";
    case "other":
      return null;
  }
}

/** The platform's amounts, unsigned (decision 071). */
export type UnsignedAmounts = { value: number; valueAfter: number; fees: number; taxes: number };

/**
 * The amounts as the page, the CSV and any listing show them: money leaving the account negative.
 * Value and value after fees and taxes carry the transaction's direction; fees and taxes charged on
 * a transaction are costs, so always paid out (value + fees + taxes = value after fees and taxes on
 * a sale or income, and on a purchase, whose costs add to what it pays). A fee or a tax transaction
 * is itself the cost: its value is the signed amount, and it has no fees or taxes of its own (null).
 * An unknown type keeps the platform's unsigned figures.
 */
export function signedAmounts(
  kind: TransactionKind,
  a: UnsignedAmounts,
): { value: number; valueAfter: number; fees: number | null; taxes: number | null } {
  const direction = directionOf(kind);
  const sign = direction === "out" ? -1 : 1;
  const cost = (n: number) => (direction === null ? n : n === 0 ? 0 : -Math.abs(n));
  const own = kind === "fee" || kind === "tax";
  return {
    value: sign * Math.abs(a.value),
    valueAfter: sign * Math.abs(a.valueAfter),
    fees: own ? null : cost(a.fees),
    taxes: own ? null : cost(a.taxes),
  };
}
