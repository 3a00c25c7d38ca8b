// spec 001 §4 "Account filter levels": what an `id` in the URL selects, its heading and its
// breadcrumb. Pure: the loader resolves the filter against the accounts the platform lets the
// client see, so a foreign or unknown id selects nothing.
import { COLLECTION, type Grouping } from "~/lib/performance";

export type FilterAccount = {
  accountid: number;
  description: string;
  portfolioid: number;
  portfolioName: string;
  group_code: string | null;
  group_name: string | null;
  isLinked: boolean;
  service_type: string;
};

/** The texts a filter's headings need, translated by the caller. */
export type FilterNames = { allPortfolios: string; allAccounts: string; ungrouped: string; linked: string };

/** One level of the breadcrumb: the filter id that restores it (null: everything) and its name. */
export type Crumb = { id: string | null; name: string };

export type Filter =
  | { kind: "all"; heading: string; crumbs: Crumb[]; rows: "portfolio" | "group" | "account"; accountIds: null }
  | { kind: "portfolio"; heading: string; crumbs: Crumb[]; rows: "account"; accountIds: number[]; portfolioId: number }
  | { kind: "group"; heading: string; crumbs: Crumb[]; rows: "account"; accountIds: number[]; code: string }
  | { kind: "account"; heading: string; crumbs: Crumb[]; rows: null; accountIds: number[]; account: FilterAccount }
  | { kind: "unknown"; heading: string; crumbs: Crumb[]; rows: null; accountIds: [] };

/** The own accounts without a group and the linked accounts are rows of their own in account-group mode. */
export const UNGROUPED = "group-none";
export const LINKED = "group-linked";

const groupIdOf = (a: FilterAccount) => (a.isLinked ? LINKED : (a.group_code ?? UNGROUPED));

function groupName(id: string, accounts: readonly FilterAccount[], names: FilterNames): string {
  if (id === LINKED) return names.linked;
  if (id === UNGROUPED) return names.ungrouped;
  return accounts.find((a) => !a.isLinked && a.group_code === id)?.group_name ?? id;
}

/**
 * spec 001 §2.2 heading and breadcrumb: the default heading ('All accounts' in account-group mode,
 * else 'All portfolios'), then the portfolio or group, then the account. An account's middle crumb is
 * its portfolio (split) or its group (account groups); consolidated mode lists accounts directly.
 */
export function resolveFilter(
  id: string | null,
  accounts: readonly FilterAccount[],
  grouping: Grouping,
  names: FilterNames,
): Filter {
  const top: Crumb = { id: null, name: grouping === "accountgroup" ? names.allAccounts : names.allPortfolios };
  if (id === null)
    return { kind: "all", heading: top.name, crumbs: [top], rows: COLLECTION[grouping], accountIds: null };
  const unknown: Filter = { kind: "unknown", heading: top.name, crumbs: [top], rows: null, accountIds: [] };

  if (/^\d+$/.test(id)) {
    const account = accounts.find((a) => a.accountid === Number(id));
    if (!account) return unknown;
    const parent: Crumb | null =
      grouping === "split"
        ? { id: `portfolio-${account.portfolioid}`, name: account.portfolioName }
        : grouping === "accountgroup"
          ? { id: groupIdOf(account), name: groupName(groupIdOf(account), accounts, names) }
          : null;
    const crumbs = [top, ...(parent ? [parent] : []), { id, name: account.description }];
    return {
      kind: "account",
      heading: account.description,
      crumbs,
      rows: null,
      accountIds: [account.accountid],
      account,
    };
  }

  const portfolio = /^portfolio-(\d+)$/.exec(id);
  if (portfolio) {
    const portfolioId = Number(portfolio[1]);
    const members = accounts.filter((a) => a.portfolioid === portfolioId);
    if (!members.length) return unknown;
    const name = members[0]!.portfolioName;
    return {
      kind: "portfolio",
      heading: name,
      crumbs: [top, { id, name }],
      rows: "account",
      accountIds: members.map((a) => a.accountid),
      portfolioId,
    };
  }

  const members = accounts.filter((a) => groupIdOf(a) === id);
  if (!members.length) return unknown;
  const name = groupName(id, accounts, names);
  return {
    kind: "group",
    heading: name,
    crumbs: [top, { id, name }],
    rows: "account",
    accountIds: members.map((a) => a.accountid),
    code: id,
  };
}

/** The level above the current one (spec 000 §2 mobile Back without JavaScript); null at the top. */
export function parentCrumb(filter: Filter): Crumb | null {
  return filter.crumbs.length >= 2 ? (filter.crumbs[filter.crumbs.length - 2] ?? null) : null;
}
