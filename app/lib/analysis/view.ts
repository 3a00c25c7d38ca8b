// One view, one set of accounts (spec 001 §1, §2.1, §2.3, §4 "Portfolio ordering and linkage", §5;
// docs/decisions/107-one-view-one-set-of-accounts.md). Pure: every part of a view (the overview
// tiles, the chart, the portfolios or accounts tab, investments, allocation, transactions, both CSV
// downloads and the valuation report form's choices) asks this one rule which accounts it covers,
// so no part counts an account another leaves out. The platform applies the same rule to the calls
// made without a list of accounts (server/api/portfolio/visibility.ts `accountsOfView`).
import { flagSetting, type Settings } from "~/lib/performance";

export type ViewAccount = {
  accountid: number;
  isLinked: boolean;
  service_type: string;
  /** Whether the account has any transaction; absent (an older platform): taken as having some. */
  has_transactions?: boolean;
  vendor_id?: string | null;
};

export type ViewOptions = {
  /** spec 001 §5: the 'accounts without transactions' option (site setting `showAccountsWithoutTransactions`). */
  withoutTransactions: boolean;
  /** spec 001 §5: with the client-analysis toggle, accounts with a vendor id are shown without transactions too. */
  clientAnalysis: boolean;
};

/** What the totals of a view cover, so that each total can say it. */
export type Covers =
  /** The client's own accounts ('Total of your portfolios'); linked ones, if any, are listed apart. */
  | "own"
  /** Only linked accounts are seen: the totals are theirs ('Total of your linked portfolios'). */
  | "linked"
  /** A portfolio, group or account chosen in the URL: its accounts, whoever owns them. */
  | "selection"
  /** Nothing to count. */
  | "none";

export type View<A extends ViewAccount> = {
  /** Every account the view can show: what a filter in the URL is resolved against and drills to. */
  shown: A[];
  /** The accounts every figure and list of the view covers, in the platform's order. */
  counted: number[];
  /** Linked accounts listed beside them in their own, labelled section, counted in no total. */
  linked: number[];
  covers: Covers;
};

/** spec 001 §5: 'Not managed' accounts are excluded from the summary. */
export const isManaged = (a: Pick<ViewAccount, "service_type">) => a.service_type !== "Not managed";

/**
 * spec 001 §5: whether a view shows an account at all: a managed account, with transactions unless
 * the 'accounts without transactions' option is on (or, with client analysis, it has a vendor id).
 */
export function inView(a: ViewAccount, options: ViewOptions): boolean {
  if (!isManaged(a)) return false;
  if (a.has_transactions !== false || options.withoutTransactions) return true;
  return options.clientAnalysis && Boolean(a.vendor_id);
}

/**
 * The rule. `selected` is the accounts a filter chose (a portfolio's, a group's, one account), or
 * null for 'All portfolios' / 'All accounts'. With a selection, the view covers its accounts that
 * the view shows (a linked portfolio drilled into covers that portfolio). Without one, it covers the
 * client's own accounts and lists the linked ones apart; a client who sees only linked accounts is
 * covered by those (decision 073's totals).
 */
export function viewOf<A extends ViewAccount>(
  accounts: readonly A[],
  selected: readonly number[] | null,
  options: ViewOptions,
): View<A> {
  const shown = accounts.filter((a) => inView(a, options));
  if (selected !== null) {
    const wanted = new Set(selected);
    const counted = shown.filter((a) => wanted.has(a.accountid)).map((a) => a.accountid);
    return { shown, counted, linked: [], covers: counted.length ? "selection" : "none" };
  }
  const own = shown.filter((a) => !a.isLinked).map((a) => a.accountid);
  const linked = shown.filter((a) => a.isLinked).map((a) => a.accountid);
  if (own.length) return { shown, counted: own, linked, covers: "own" };
  return { shown, counted: linked, linked: [], covers: linked.length ? "linked" : "none" };
}

/** The rule's options from the site's settings and the client-analysis toggle. */
export function viewOptions(settings: Settings, clientAnalysis: boolean): ViewOptions {
  return { withoutTransactions: flagSetting(settings.showAccountsWithoutTransactions ?? false), clientAnalysis };
}
