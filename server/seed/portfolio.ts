// The portfolio book of the demo data set (docs/decisions/071-portfolio-book.md): securities with
// business-day prices, FX and benchmarks for three years and more back from the clock's today,
// the Hartleys' portfolios, account groups, accounts and transactions, and the non-managed assets.
// Its own seeded random, so nothing drawn here moves the people seeded before it.
import type { Db } from "../db/connection";
import { addDays, businessDays, MICROS, MICROS_PER_MINOR } from "../domain/valuation";
import { seededRandom, type Random } from "../lib/random";

const SEED = 20250314;
/** The market's own seed: the factors' and the series' moves (the book's draws stay on SEED). */
const MARKET_SEED = 2;
/** The later additions' own seed (a fund with a look-through split, a security without a name). */
const LATER_SEED = 20250612;

export type PortfolioPeople = { client: number; partner: number; child: number; assets: number };

type SecuritySeed = {
  code: string;
  exchange: string;
  isin: string | null;
  description: string;
  sector: string;
  assetClass: "EQUITY" | "FIXED" | "PROPERTY" | "CASH";
  region: string;
  currency: "GBP" | "USD" | "EUR";
  price: number;
  yieldBp: number;
};

// ISINs are illustrative (well-formed, not checked against the real register).
const SECURITIES: SecuritySeed[] = [
  {
    code: "GBPCASH",
    exchange: "CASH",
    isin: null,
    description: "Sterling cash",
    sector: "Cash",
    assetClass: "CASH",
    region: "United Kingdom",
    currency: "GBP",
    price: 1,
    yieldBp: 0,
  },
  {
    code: "USDCASH",
    exchange: "CASH",
    isin: null,
    description: "US dollar cash",
    sector: "Cash",
    assetClass: "CASH",
    region: "North America",
    currency: "USD",
    price: 1,
    yieldBp: 0,
  },
  {
    code: "EURCASH",
    exchange: "CASH",
    isin: null,
    description: "Euro cash",
    sector: "Cash",
    assetClass: "CASH",
    region: "Europe",
    currency: "EUR",
    price: 1,
    yieldBp: 0,
  },
  {
    code: "ULVR",
    exchange: "LSE",
    isin: "GB00B10RZP78",
    description: "Unilever plc",
    sector: "Consumer Staples",
    assetClass: "EQUITY",
    region: "United Kingdom",
    currency: "GBP",
    price: 41.5,
    yieldBp: 350,
  },
  {
    code: "AZN",
    exchange: "LSE",
    isin: "GB0009895292",
    description: "AstraZeneca plc",
    sector: "Health Care",
    assetClass: "EQUITY",
    region: "United Kingdom",
    currency: "GBP",
    price: 104.2,
    yieldBp: 220,
  },
  {
    code: "HSBA",
    exchange: "LSE",
    isin: "GB0005405286",
    description: "HSBC Holdings plc",
    sector: "Financials",
    assetClass: "EQUITY",
    region: "United Kingdom",
    currency: "GBP",
    price: 5.82,
    yieldBp: 600,
  },
  {
    code: "ISF",
    exchange: "LSE",
    isin: "IE0005042456",
    description: "iShares Core FTSE 100 UCITS ETF",
    sector: "Diversified",
    assetClass: "EQUITY",
    region: "United Kingdom",
    currency: "GBP",
    price: 7.41,
    yieldBp: 380,
  },
  {
    code: "VGOV",
    exchange: "LSE",
    isin: "IE00B42WWV65",
    description: "Vanguard UK Gilt UCITS ETF",
    sector: "Government Bonds",
    assetClass: "FIXED",
    region: "United Kingdom",
    currency: "GBP",
    price: 18.9,
    yieldBp: 300,
  },
  {
    code: "LAND",
    exchange: "LSE",
    isin: "GB00BYW0PQ60",
    description: "Land Securities Group plc",
    sector: "Real Estate",
    assetClass: "PROPERTY",
    region: "United Kingdom",
    currency: "GBP",
    price: 6.2,
    yieldBp: 600,
  },
  {
    code: "AAPL",
    exchange: "NASDAQ",
    isin: "US0378331005",
    description: "Apple Inc.",
    sector: "Information Technology",
    assetClass: "EQUITY",
    region: "North America",
    currency: "USD",
    price: 150.3,
    yieldBp: 55,
  },
  {
    code: "MSFT",
    exchange: "NASDAQ",
    isin: "US5949181045",
    description: "Microsoft Corporation",
    sector: "Information Technology",
    assetClass: "EQUITY",
    region: "North America",
    currency: "USD",
    price: 255.1,
    yieldBp: 80,
  },
  {
    code: "JNJ",
    exchange: "NYSE",
    isin: "US4781601046",
    description: "Johnson & Johnson",
    sector: "Health Care",
    assetClass: "EQUITY",
    region: "North America",
    currency: "USD",
    price: 162.4,
    yieldBp: 290,
  },
  {
    code: "IEF",
    exchange: "NASDAQ",
    isin: "US4642874402",
    description: "iShares 7-10 Year Treasury Bond ETF",
    sector: "Government Bonds",
    assetClass: "FIXED",
    region: "North America",
    currency: "USD",
    price: 98.6,
    yieldBp: 320,
  },
  {
    code: "ASML",
    exchange: "XAMS",
    isin: "NL0010273215",
    description: "ASML Holding N.V.",
    sector: "Information Technology",
    assetClass: "EQUITY",
    region: "Europe",
    currency: "EUR",
    price: 560,
    yieldBp: 90,
  },
  {
    code: "SAP",
    exchange: "XETRA",
    isin: "DE0007164600",
    description: "SAP SE",
    sector: "Information Technology",
    assetClass: "EQUITY",
    region: "Europe",
    currency: "EUR",
    price: 108.4,
    yieldBp: 150,
  },
  {
    code: "SIE",
    exchange: "XETRA",
    isin: "DE0007236101",
    description: "Siemens AG",
    sector: "Industrials",
    assetClass: "EQUITY",
    region: "Europe",
    currency: "EUR",
    price: 128.7,
    yieldBp: 320,
  },
  {
    code: "IBGL",
    exchange: "XAMS",
    isin: "IE00B1FZS798",
    description: "iShares Euro Government Bond 15-30yr UCITS ETF",
    sector: "Government Bonds",
    assetClass: "FIXED",
    region: "Europe",
    currency: "EUR",
    price: 190.2,
    yieldBp: 250,
  },
];

/**
 * Added after the book above and drawn from their own random, so none of its prices or transactions
 * move: a multi-asset fund with a look-through split by asset class and region (spec 001 §3
 * asset_class_allocation, regional_allocation), and a security whose name is missing (spec 001 §5
 * 'INVALID DATA'). Each comes into an account by in-specie transfers (units, valued on the day).
 */
type LaterSecurity = Omit<SecuritySeed, "assetClass"> & {
  assetClass: SecuritySeed["assetClass"] | "MIXED";
  assetClassAllocation: Array<{ name: string; weight: number }> | null;
  regionalAllocation: Array<{ name: string; weight: number }> | null;
  /** Account (by description), months before today and units of each transfer in. */
  transfers: Array<[account: string, monthsAgo: number, units: number]>;
};

const LATER_SECURITIES: LaterSecurity[] = [
  {
    code: "VLS60",
    exchange: "FUND",
    isin: "GB00B3TYHH97",
    description: "Vanguard LifeStrategy 60% Equity Fund",
    sector: "Multi-asset",
    assetClass: "MIXED",
    region: "Global",
    currency: "GBP",
    price: 212.4,
    yieldBp: 190,
    assetClassAllocation: [
      { name: "Equities", weight: 60 },
      { name: "Fixed income", weight: 40 },
    ],
    regionalAllocation: [
      { name: "United Kingdom", weight: 25 },
      { name: "North America", weight: 40 },
      { name: "Europe", weight: 20 },
      { name: "Asia Pacific", weight: 15 },
    ],
    transfers: [
      ["Ellie Stocks and Shares ISA", 14, 110],
      ["Ellie Stocks and Shares ISA", 5, 45],
    ],
  },
  {
    code: "XDLST",
    exchange: "LSE",
    isin: null,
    description: "",
    sector: "Unclassified",
    assetClass: "EQUITY",
    region: "United Kingdom",
    currency: "GBP",
    price: 1.85,
    yieldBp: 0,
    assetClassAllocation: null,
    regionalAllocation: null,
    transfers: [["Joint General Investment Account", 9, 1_500]],
  },
];

// ── the demo market (docs/decisions/110-report-text-and-realistic-demo-market.md) ────────────────
// Every series moves with the market it belongs to: a few common factors (world equities in
// sterling, UK equities beyond the world's, government bonds, the dollar and the euro against
// sterling) drawn once per business day, and each series' own moves. Each path is kept realistic:
// it is pulled back towards its drift over a year, and its trailing month's and year's changes are
// held within bounds that real markets kept (no index gains 52% in a year).

/** The common factors, each a standard normal draw per business day. */
type Factor = "world" | "uk" | "bonds" | "usd" | "eur";
const FACTORS: Factor[] = ["world", "uk", "bonds", "usd", "eur"];

type Bounds = { yearLow: number; yearHigh: number; month: number };
/**
 * The bounds a path is held within (as fractions: the change since the same day a year and a month
 * before). The tests check slightly wider ones (−25%…+30% a year; 8% a month for an index, 12% for a
 * security, 5% for an exchange rate): the margin covers rounding to the stored decimals.
 */
export const MARKET_BOUNDS = {
  index: { yearLow: -0.22, yearHigh: 0.27, month: 0.075 },
  security: { yearLow: -0.22, yearHigh: 0.27, month: 0.115 },
  fx: { yearLow: -0.12, yearHigh: 0.12, month: 0.045 },
} satisfies Record<string, Bounds>;

/** A series' yearly drift, its yearly volatility from each factor, its own yearly volatility and its bounds. */
type Market = { drift: number; loadings: Partial<Record<Factor, number>>; own: number; bounds: Bounds };

const equity = (loadings: Partial<Record<Factor, number>>, own: number, drift = 0.07): Market => ({
  drift,
  loadings,
  own,
  bounds: MARKET_BOUNDS.security,
});
/** A UK share: the world's moves and the UK's own. */
const ukEquity = (beta: number, own: number) => equity({ world: 0.09 * beta, uk: 0.07 * beta }, own);
/** A US or European share, priced in its currency: the world's moves in sterling, and the currency's against sterling. */
const foreignEquity = (currency: "usd" | "eur", beta: number, own: number) =>
  equity({ world: 0.12 * beta, [currency]: currency === "usd" ? 0.06 : 0.045 }, own);
const bond = (duration: number, own: number): Market => ({
  drift: 0.02,
  loadings: { bonds: 0.06 * duration },
  own,
  bounds: MARKET_BOUNDS.security,
});

/** Each security's market (by code); cash is constant at 1.00. */
const SECURITY_MARKETS: Record<string, Market> = {
  ULVR: ukEquity(0.7, 0.08),
  AZN: ukEquity(0.8, 0.09),
  HSBA: ukEquity(1.1, 0.09),
  ISF: ukEquity(1, 0.02),
  VGOV: bond(1, 0.01),
  LAND: { drift: 0.04, loadings: { world: 0.06, uk: 0.06 }, own: 0.09, bounds: MARKET_BOUNDS.security },
  AAPL: foreignEquity("usd", 1.1, 0.08),
  MSFT: foreignEquity("usd", 1.05, 0.08),
  JNJ: foreignEquity("usd", 0.6, 0.07),
  IEF: bond(0.8, 0.03),
  ASML: foreignEquity("eur", 1.1, 0.09),
  SAP: foreignEquity("eur", 1, 0.08),
  SIE: foreignEquity("eur", 0.9, 0.07),
  IBGL: bond(1.3, 0.04),
  // the later additions
  VLS60: { drift: 0.05, loadings: { world: 0.6 * 0.12, bonds: 0.4 * 0.06 }, own: 0.01, bounds: MARKET_BOUNDS.security },
  XDLST: { drift: 0, loadings: { uk: 0.02 }, own: 0.03, bounds: MARKET_BOUNDS.security },
};

const FX: Array<{ currency: string; start: number; market: Market }> = [
  { currency: "USD", start: 1.2, market: { drift: 0, loadings: { usd: 0.06 }, own: 0, bounds: MARKET_BOUNDS.fx } },
  { currency: "EUR", start: 1.15, market: { drift: 0, loadings: { eur: 0.045 }, own: 0, bounds: MARKET_BOUNDS.fx } },
];

const BENCHMARKS: Array<{ code: string; name: string; currency: string; start: number; market: Market }> = [
  {
    code: "FTASX",
    name: "FTSE All-Share",
    currency: "GBP",
    start: 4100,
    market: { drift: 0.06, loadings: { world: 0.09, uk: 0.07 }, own: 0, bounds: MARKET_BOUNDS.index },
  },
  {
    code: "MSCIWGBP",
    name: "MSCI World (GBP)",
    currency: "GBP",
    start: 2600,
    market: { drift: 0.08, loadings: { world: 0.12 }, own: 0, bounds: MARKET_BOUNDS.index },
  },
  {
    code: "GILTALL",
    name: "FTSE Actuaries UK Gilts All Stocks",
    currency: "GBP",
    start: 2900,
    market: { drift: 0.02, loadings: { bonds: 0.06 }, own: 0, bounds: MARKET_BOUNDS.index },
  },
];

/**
 * A balanced index (decision 091): 60% MSCI World and 40% gilts, rebalanced every business day, so
 * its daily return is the weighted sum of theirs; it starts at 1,000.
 */
const BALANCED = {
  code: "BAL6040",
  name: "Balanced index 60/40 (MSCI World and UK gilts)",
  start: 1000,
  parts: [
    ["MSCIWGBP", 0.6],
    ["GILTALL", 0.4],
  ] as const,
};

/** The composite's daily levels (micros, to 2 decimals) from its parts' levels. */
export function blendedLevels(blend: typeof BALANCED, levels: ReadonlyMap<string, readonly number[]>): number[] {
  const parts = blend.parts.map(([code, weight]) => ({ series: levels.get(code) as readonly number[], weight }));
  const length = parts[0]!.series.length;
  const out: number[] = [];
  let level = blend.start;
  for (let i = 0; i < length; i++) {
    if (i > 0)
      level *=
        1 + parts.reduce((sum, p) => sum + p.weight * ((p.series[i] as number) / (p.series[i - 1] as number) - 1), 0);
    out.push(Math.round(level * 100) * (MICROS / 100));
  }
  return out;
}

const TRADING_DAYS = 252;
/** How hard a path is pulled back towards its drift: a year's excess return fades by about half in six months. */
const PULL = 1.5;

function normal(random: Random): number {
  // Box–Muller; 1 − u keeps the logarithm finite
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/**
 * For each business day, the index of the last business day on or before the same date a year and
 * a month earlier (−1 before the series starts): the days the bounds are measured from. The earlier
 * date is compared as text, so a day that month lacks ('2023-02-29', '2024-04-31') falls after the
 * month's last day, as date-fns' subYears and subMonths would clamp it (the test checks with them);
 * formatting 1,600 dates with date-fns took longer than the rest of the market.
 */
export function lookbacks(days: readonly string[]): { year: Int32Array; month: Int32Array } {
  const back = (earlier: (y: number, m: number, rest: string) => string) => {
    const out = new Int32Array(days.length);
    let j = -1;
    days.forEach((day, i) => {
      const target = earlier(Number(day.slice(0, 4)), Number(day.slice(5, 7)), day.slice(7));
      while (j + 1 < days.length && (days[j + 1] as string) <= target) j++;
      out[i] = j;
    });
    return out;
  };
  const pad = (m: number) => String(m).padStart(2, "0");
  return {
    year: back((y, m, rest) => `${y - 1}-${pad(m)}${rest}`),
    month: back((y, m, rest) => (m === 1 ? `${y - 1}-12${rest}` : `${y}-${pad(m - 1)}${rest}`)),
  };
}

/** Draws each factor's shock for every business day (the market's common moves). */
function factorShocks(random: Random, count: number): Record<Factor, Float64Array> {
  const out = {} as Record<Factor, Float64Array>;
  for (const f of FACTORS) out[f] = new Float64Array(count);
  for (let i = 0; i < count; i++) for (const f of FACTORS) out[f][i] = normal(random);
  return out;
}

/**
 * A series' daily path, in micro-units rounded to `decimals`: log-normal steps from the factors'
 * shocks and its own, pulled towards its drift, then held within its bounds (the change since a
 * month and since a year before; the year's bound wins).
 */
function marketPath(
  random: Random,
  shocks: Record<Factor, Float64Array>,
  back: { year: Int32Array; month: Int32Array },
  start: number,
  market: Market,
  decimals: number,
): number[] {
  const dt = 1 / TRADING_DAYS;
  const loadings = Object.entries(market.loadings) as Array<[Factor, number]>;
  const variance = loadings.reduce((sum, [, v]) => sum + v * v, 0) + market.own * market.own;
  const step = 10 ** (6 - decimals);
  const count = back.year.length;
  const levels = new Float64Array(count);
  const out: number[] = [];
  let level = start;
  for (let i = 0; i < count; i++) {
    if (i > 0) {
      const shock =
        loadings.reduce((sum, [f, v]) => sum + v * (shocks[f][i] as number), 0) + market.own * normal(random);
      const y = back.year[i - 1] as number;
      const trailing = y >= 0 ? Math.log(level / (levels[y] as number)) : market.drift * (i / TRADING_DAYS);
      const pull = y >= 0 ? -PULL * (trailing - market.drift) : 0;
      level *= Math.exp((market.drift - variance / 2 + pull) * dt + Math.sqrt(dt) * shock);
      const m = back.month[i] as number;
      if (m >= 0)
        level = Math.min(
          Math.max(level, (levels[m] as number) * (1 - market.bounds.month)),
          (levels[m] as number) * (1 + market.bounds.month),
        );
      const yr = back.year[i] as number;
      if (yr >= 0)
        level = Math.min(
          Math.max(level, (levels[yr] as number) * (1 + market.bounds.yearLow)),
          (levels[yr] as number) * (1 + market.bounds.yearHigh),
        );
    }
    levels[i] = level;
    out.push(Math.round((level * MICROS) / step) * step);
  }
  return out;
}

type Role = keyof PortfolioPeople;
type PortfolioKey = "ellieSingle" | "jamesSingle" | "joint" | "trust" | "olivia";
type GroupKey = "isas" | "pensions" | "general" | "deposits";

/** The Hartleys' portfolios and who sees them (spec 001 §4), in the order they are inserted. */
const PORTFOLIOS: Array<{
  key: PortfolioKey;
  name: string;
  fullName: string;
  ptype: string;
  owner: Role;
  seenBy: Array<[entity: Role, reason: string, sortOrder: number]>;
}> = [
  {
    key: "ellieSingle",
    name: "Ellie's portfolio",
    fullName: "Eleanor Hartley - single portfolio",
    ptype: "PT_SINGLE",
    owner: "client",
    seenBy: [
      ["client", "single_owner", 0],
      ["partner", "single_owner", 4],
    ],
  },
  {
    key: "jamesSingle",
    name: "James's portfolio",
    fullName: "James Hartley - single portfolio",
    ptype: "PT_SINGLE",
    owner: "partner",
    seenBy: [
      ["partner", "single_owner", 0],
      ["client", "single_owner", 4],
    ],
  },
  {
    key: "joint",
    name: "Joint portfolio",
    fullName: "Eleanor and James Hartley - joint portfolio",
    ptype: "PT_JOINT",
    owner: "client",
    seenBy: [
      ["client", "primary_joint_owner", 1],
      ["partner", "secondary_joint_owner", 2],
    ],
  },
  {
    key: "trust",
    name: "Hartley Family Trust",
    fullName: "Hartley Family Trust - shared portfolio",
    ptype: "PT_SHARED",
    owner: "partner",
    seenBy: [
      ["client", "shared_owner", 3],
      ["partner", "shared_owner", 3],
    ],
  },
  {
    key: "olivia",
    name: "Olivia's Junior ISA",
    fullName: "Olivia Hartley - single portfolio",
    ptype: "PT_SINGLE",
    owner: "child",
    seenBy: [
      ["child", "single_owner", 0],
      ["client", "explicit_link", 6],
    ],
  },
];

/** The client's account groups: key, code and name, in the order they are inserted. */
const ACCOUNT_GROUPS: Array<[key: GroupKey, code: string, name: string]> = [
  ["isas", "HARTLEY-ISA", "ISAs"],
  ["pensions", "HARTLEY-PEN", "Pensions"],
  ["general", "HARTLEY-GIA", "General investments"],
  ["deposits", "HARTLEY-CASH", "Cash and deposits"],
];

type AccountSeed = {
  portfolio: PortfolioKey;
  group: GroupKey | null;
  description: string;
  planCurrency: "GBP" | "USD";
  serviceType: "Discretionary" | "Advisory" | "Execution only" | "Not managed";
  taxType: string;
  taxTypeTitle: string;
  product: string;
  owner: Role;
  /** Months before today of the opening transfer. */
  openedMonthsAgo: number;
  /** Opening cash per currency, in units. */
  deposits: Partial<Record<"GBP" | "USD" | "EUR", number>>;
  /** Holdings bought at opening: code and share of that currency's deposit. */
  holdings: Array<[code: string, share: number]>;
  /** Stamp duty and withholding tax apply (not in tax wrappers). */
  taxable: boolean;
};

/** The accounts, in the order they are inserted (each with its transactions). */
const ACCOUNTS: AccountSeed[] = [
  {
    portfolio: "ellieSingle",
    group: "isas",
    description: "Ellie Stocks and Shares ISA",
    planCurrency: "GBP",
    serviceType: "Discretionary",
    taxType: "ISA",
    taxTypeTitle: "Individual Savings Account",
    product: "Northbridge ISA",
    owner: "client",
    openedMonthsAgo: 30,
    deposits: { GBP: 60_000, USD: 25_000 },
    holdings: [
      ["ISF", 0.35],
      ["AZN", 0.2],
      ["ULVR", 0.2],
      ["VGOV", 0.2],
      ["AAPL", 0.5],
      ["MSFT", 0.45],
    ],
    taxable: false,
  },
  {
    portfolio: "ellieSingle",
    group: "pensions",
    description: "Ellie Self-Invested Personal Pension",
    planCurrency: "GBP",
    serviceType: "Advisory",
    taxType: "PEN",
    taxTypeTitle: "Personal pension (SIPP)",
    product: "Northbridge SIPP",
    owner: "client",
    openedMonthsAgo: 34,
    deposits: { GBP: 120_000, USD: 40_000, EUR: 35_000 },
    holdings: [
      ["HSBA", 0.25],
      ["LAND", 0.15],
      ["VGOV", 0.5],
      ["JNJ", 0.45],
      ["IEF", 0.5],
      ["ASML", 0.4],
      ["IBGL", 0.5],
    ],
    taxable: false,
  },
  {
    portfolio: "ellieSingle",
    group: "deposits",
    description: "Ellie Premium Bonds and deposits",
    planCurrency: "GBP",
    serviceType: "Not managed",
    taxType: "GEN",
    taxTypeTitle: "Cash deposit",
    product: "Held away",
    owner: "client",
    openedMonthsAgo: 26,
    deposits: { GBP: 15_000 },
    holdings: [],
    taxable: false,
  },
  {
    portfolio: "jamesSingle",
    group: "isas",
    description: "James Stocks and Shares ISA",
    planCurrency: "GBP",
    serviceType: "Discretionary",
    taxType: "ISA",
    taxTypeTitle: "Individual Savings Account",
    product: "Northbridge ISA",
    owner: "partner",
    openedMonthsAgo: 28,
    deposits: { GBP: 45_000 },
    holdings: [
      ["ISF", 0.4],
      ["HSBA", 0.25],
      ["VGOV", 0.3],
    ],
    taxable: false,
  },
  {
    portfolio: "jamesSingle",
    group: "general",
    description: "James US dollar account",
    planCurrency: "USD",
    serviceType: "Execution only",
    taxType: "GEN",
    taxTypeTitle: "General investment account",
    product: "Northbridge GIA (USD)",
    owner: "partner",
    openedMonthsAgo: 20,
    deposits: { USD: 50_000 },
    holdings: [
      ["MSFT", 0.4],
      ["JNJ", 0.3],
      ["IEF", 0.25],
    ],
    taxable: true,
  },
  {
    portfolio: "joint",
    group: "general",
    description: "Joint General Investment Account",
    planCurrency: "GBP",
    serviceType: "Advisory",
    taxType: "GEN",
    taxTypeTitle: "General investment account",
    product: "Northbridge GIA",
    owner: "client",
    openedMonthsAgo: 32,
    deposits: { GBP: 80_000, EUR: 30_000 },
    holdings: [
      ["ULVR", 0.3],
      ["AZN", 0.25],
      ["LAND", 0.2],
      ["SAP", 0.5],
      ["SIE", 0.45],
    ],
    taxable: true,
  },
  {
    portfolio: "trust",
    group: null,
    description: "Hartley Family Trust account",
    planCurrency: "GBP",
    serviceType: "Discretionary",
    taxType: "TRUST",
    taxTypeTitle: "Discretionary trust",
    product: "Northbridge Trust",
    owner: "partner",
    openedMonthsAgo: 24,
    deposits: { GBP: 100_000 },
    holdings: [
      ["ISF", 0.5],
      ["VGOV", 0.4],
    ],
    taxable: true,
  },
  {
    portfolio: "olivia",
    group: null,
    description: "Olivia Junior ISA",
    planCurrency: "GBP",
    serviceType: "Discretionary",
    taxType: "ISA",
    taxTypeTitle: "Junior ISA",
    product: "Northbridge Junior ISA",
    owner: "child",
    openedMonthsAgo: 18,
    deposits: { GBP: 9_000 },
    holdings: [["ISF", 0.9]],
    taxable: false,
  },
];

/** Ellie's ISA's target set: security code and weight (basis points). */
const TARGET_WEIGHTS: Array<[code: string, weightBp: number]> = [
  ["ISF", 3000],
  ["AZN", 1500],
  ["ULVR", 1000],
  ["AAPL", 1000],
  ["MSFT", 500],
  ["VGOV", 3000],
];

type AssetSeed = {
  entity: Role;
  kind: "investment" | "pension" | "annuity" | "liability";
  description: string;
  type: string;
  provider: string;
  policy: string;
  status: string;
  currency?: string;
  value: number;
  valuedMonthsAgo: number;
  sipp?: boolean;
  underAdvice?: boolean;
  contributions?: number;
  withdrawals?: number;
  crystallised?: number;
  uncrystallised?: number;
  income?: number;
  frequency?: string;
  rateBp?: number;
  capitalContent?: number;
  owners: Array<[entity: Role, bp: number]>;
};

/**
 * Other assets per family member (spec 001 §4). The Hartleys' other assets are held away, so none is
 * under advice: their managed assets are their portfolio accounts (docs/decisions/109). demo.assets
 * keeps items under advice to show the managed tables with a SIPP wrapper's holdings and a wrapped
 * liability.
 */
const OTHER_ASSETS: AssetSeed[] = [
  // the Hartleys
  {
    entity: "client",
    kind: "investment",
    description: "Holiday cottage, Padstow",
    type: "Property",
    provider: "Self",
    policy: "PROP-001",
    status: "Existing",
    value: 485_000,
    valuedMonthsAgo: 4,
    owners: [
      ["client", 5000],
      ["partner", 5000],
    ],
  },
  {
    entity: "client",
    kind: "investment",
    description: "Vanguard LifeStrategy 60% (held away)",
    type: "Unit trust",
    provider: "Vanguard",
    policy: "VG-778812",
    status: "Existing",
    value: 38_250.4,
    valuedMonthsAgo: 1,
    owners: [["client", 10000]],
  },
  {
    entity: "client",
    kind: "pension",
    description: "Aviva workplace pension",
    type: "Defined contribution",
    provider: "Aviva",
    policy: "AV-2231907",
    status: "Active",
    value: 212_400,
    valuedMonthsAgo: 2,
    contributions: 148_000,
    withdrawals: 0,
    crystallised: 0,
    uncrystallised: 212_400,
    owners: [["client", 10000]],
  },
  {
    entity: "client",
    kind: "pension",
    description: "Hargreaves Lansdown SIPP",
    type: "SIPP",
    provider: "Hargreaves Lansdown",
    policy: "HL-5523019",
    status: "Active",
    value: 96_870.25,
    valuedMonthsAgo: 1,
    sipp: true,
    contributions: 70_000,
    withdrawals: 0,
    crystallised: 0,
    uncrystallised: 96_870.25,
    owners: [["client", 10000]],
  },
  // what the HL SIPP wrapper holds (spec 001 §4: wrapped investments are shown with the pensions)
  {
    entity: "client",
    kind: "investment",
    description: "Fundsmith Equity (HL SIPP)",
    type: "Unit trust",
    provider: "Hargreaves Lansdown",
    policy: "HL-5523019-1",
    status: "Existing",
    value: 58_420.1,
    valuedMonthsAgo: 1,
    sipp: true,
    owners: [["client", 10000]],
  },
  {
    entity: "client",
    kind: "investment",
    description: "Cash (HL SIPP)",
    type: "Cash",
    provider: "Hargreaves Lansdown",
    policy: "HL-5523019-2",
    status: "Existing",
    value: 38_450.15,
    valuedMonthsAgo: 1,
    sipp: true,
    owners: [["client", 10000]],
  },
  {
    entity: "partner",
    kind: "pension",
    description: "NHS Pension Scheme",
    type: "Defined benefit",
    provider: "NHS Pensions",
    policy: "NHS-448120",
    status: "Active",
    value: 310_000,
    valuedMonthsAgo: 6,
    owners: [["partner", 10000]],
  },
  {
    entity: "partner",
    kind: "annuity",
    description: "Legal & General lifetime annuity",
    type: "Lifetime annuity",
    provider: "Legal & General",
    policy: "LG-A-90314",
    status: "Inforce",
    value: 54_000,
    valuedMonthsAgo: 3,
    income: 312.5,
    frequency: "Monthly",
    rateBp: 650,
    capitalContent: 1_450,
    owners: [["partner", 10000]],
  },
  {
    entity: "client",
    kind: "liability",
    description: "Mortgage, Kensington Park Road",
    type: "Repayment mortgage",
    provider: "Nationwide",
    policy: "NW-MTG-66120",
    status: "Current",
    value: 268_450.75,
    valuedMonthsAgo: 1,
    rateBp: 449,
    owners: [
      ["client", 5000],
      ["partner", 5000],
    ],
  },
  {
    entity: "partner",
    kind: "liability",
    description: "Car finance",
    type: "Hire purchase",
    provider: "Black Horse",
    policy: "BH-220194",
    status: "Current",
    value: 12_380,
    valuedMonthsAgo: 1,
    rateBp: 790,
    owners: [["partner", 10000]],
  },
  // kept out by the status rules of spec 001 §4: a surrendered pension and a repaid loan
  {
    entity: "client",
    kind: "pension",
    description: "Scottish Widows personal pension (transferred out)",
    type: "Personal pension",
    provider: "Scottish Widows",
    policy: "SW-PP-10482",
    status: "Transferred",
    value: 0,
    valuedMonthsAgo: 20,
    owners: [["client", 10000]],
  },
  {
    entity: "client",
    kind: "liability",
    description: "Personal loan (repaid)",
    type: "Personal loan",
    provider: "Nationwide",
    policy: "NW-PL-55012",
    status: "Redeemed",
    value: 0,
    valuedMonthsAgo: 14,
    rateBp: 690,
    owners: [["client", 10000]],
  },
  {
    entity: "child",
    kind: "investment",
    description: "Premium Bonds",
    type: "Savings",
    provider: "NS&I",
    policy: "NSI-0098812",
    status: "Existing",
    value: 2_500,
    valuedMonthsAgo: 1,
    owners: [["child", 10000]],
  },
  // demo.assets: every kind, a SIPP wrapper, some items under advice
  {
    entity: "assets",
    kind: "investment",
    description: "Buy-to-let flat, Clifton",
    type: "Property",
    provider: "Self",
    policy: "PROP-BTL-1",
    status: "Existing",
    value: 325_000,
    valuedMonthsAgo: 5,
    owners: [["assets", 10000]],
  },
  {
    entity: "assets",
    kind: "investment",
    description: "Fidelity Stocks and Shares ISA",
    type: "ISA",
    provider: "Fidelity",
    policy: "FID-ISA-38817",
    status: "Existing",
    value: 74_615.3,
    valuedMonthsAgo: 1,
    underAdvice: true,
    owners: [["assets", 10000]],
  },
  {
    entity: "assets",
    kind: "investment",
    description: "US brokerage account",
    type: "Brokerage",
    provider: "Interactive Brokers",
    policy: "IB-U4471123",
    status: "Existing",
    currency: "USD",
    value: 41_200,
    valuedMonthsAgo: 1,
    owners: [["assets", 10000]],
  },
  {
    entity: "assets",
    kind: "pension",
    description: "AJ Bell SIPP",
    type: "SIPP",
    provider: "AJ Bell",
    policy: "AJB-S-77120",
    status: "Active",
    value: 388_900,
    valuedMonthsAgo: 1,
    sipp: true,
    contributions: 260_000,
    withdrawals: 42_000,
    crystallised: 120_000,
    uncrystallised: 268_900,
    underAdvice: true,
    owners: [["assets", 10000]],
  },
  {
    entity: "assets",
    kind: "investment",
    description: "Commercial unit, Avonmouth (AJ Bell SIPP)",
    type: "Property",
    provider: "AJ Bell",
    policy: "AJB-S-77120-1",
    status: "Existing",
    value: 250_000,
    valuedMonthsAgo: 3,
    sipp: true,
    underAdvice: true,
    owners: [["assets", 10000]],
  },
  {
    entity: "assets",
    kind: "investment",
    description: "Drawdown portfolio (AJ Bell SIPP)",
    type: "Managed fund",
    provider: "AJ Bell",
    policy: "AJB-S-77120-2",
    status: "Existing",
    value: 138_900,
    valuedMonthsAgo: 1,
    sipp: true,
    underAdvice: true,
    owners: [["assets", 10000]],
  },
  {
    entity: "assets",
    kind: "pension",
    description: "Royal Mail defined benefit pension",
    type: "Defined benefit",
    provider: "Royal Mail Pensions",
    policy: "RM-55192",
    status: "Paid Up",
    value: 142_000,
    valuedMonthsAgo: 9,
    owners: [["assets", 10000]],
  },
  {
    entity: "assets",
    kind: "annuity",
    description: "Aviva enhanced annuity",
    type: "Enhanced annuity",
    provider: "Aviva",
    policy: "AV-ANN-20931",
    status: "Inforce",
    value: 88_500,
    valuedMonthsAgo: 2,
    income: 1_425,
    frequency: "Quarterly",
    rateBp: 710,
    capitalContent: 3_200,
    underAdvice: true,
    owners: [["assets", 10000]],
  },
  {
    entity: "assets",
    kind: "liability",
    description: "Buy-to-let mortgage",
    type: "Interest-only mortgage",
    provider: "Santander",
    policy: "SAN-BTL-88412",
    status: "Current",
    value: 198_000,
    valuedMonthsAgo: 1,
    rateBp: 525,
    owners: [["assets", 10000]],
  },
  {
    entity: "assets",
    kind: "liability",
    description: "Loan against the SIPP property",
    type: "Commercial loan",
    provider: "Lloyds Bank",
    policy: "LB-C-33019",
    status: "Current",
    value: 45_000,
    valuedMonthsAgo: 2,
    rateBp: 610,
    sipp: true,
    underAdvice: true,
    owners: [["assets", 10000]],
  },
];

/** The book's business days: from three years and two weeks before the clock's today, to today. */
type Calendar = {
  today: string;
  days: string[];
  dayIndex: Map<string, number>;
  /** The business day `n` business days from `date` (a business day of the series), capped at the last. */
  businessDayAfter(date: string, n: number): string;
  /** The business day on or after roughly `months` months before today. */
  monthsAgo(months: number, jitterDays?: number): string;
};

function bookCalendar(now: Date): Calendar {
  const today = now.toISOString().slice(0, 10);
  const threeYearsAgo = `${Number(today.slice(0, 4)) - 3}${today.slice(4, 10) === "-02-29" ? "-02-28" : today.slice(4)}`;
  const days = businessDays(addDays(threeYearsAgo, -14), today);
  const lastDay = days[days.length - 1] as string;
  const dayIndex = new Map(days.map((d, i) => [d, i]));
  return {
    today,
    days,
    dayIndex,
    businessDayAfter: (date, n) => days[Math.min((dayIndex.get(date) as number) + n, days.length - 1)] as string,
    monthsAgo: (months, jitterDays = 0) => {
      let d = addDays(today, -Math.round(months * 30.44) + jitterDays);
      while (!dayIndex.has(d) && d < lastDay) d = addDays(d, 1);
      return dayIndex.has(d) ? d : lastDay;
    },
  };
}

/** The demo market as seeded: the factors' shocks, each security's id and daily prices, the benchmarks' ids. */
type BookMarket = {
  shocks: Record<Factor, Float64Array>;
  back: { year: Int32Array; month: Int32Array };
  securityIds: Map<string, number>;
  prices: Map<number, number[]>;
  benchmarkIds: number[];
};

type Sqlite = Db["$client"];

/** Seeds the portfolio book inside the caller's transaction, with dates relative to `now`. */
export function seedPortfolioBook(db: Db, now: Date, people: PortfolioPeople): void {
  const sqlite = db.$client;
  const calendar = bookCalendar(now);
  const market = seedMarket(sqlite, calendar);
  const portfolios = seedPortfolios(sqlite, people, market.benchmarkIds[1] as number);
  const groups = seedAccountGroups(sqlite, people.client);
  const accountIds = seedAccounts(sqlite, calendar, market, { people, portfolios, groups });
  const ellieIsa = accountIds.get("Ellie Stocks and Shares ISA") as number;
  seedTargetSet(sqlite, ellieIsa, market.securityIds);
  seedPaymentMethods(sqlite, ellieIsa);
  seedOtherAssets(sqlite, calendar.today, people);
  seedLaterSecurities(sqlite, calendar, market, accountIds);
  seedDisposals(sqlite, calendar, market, accountIds);
}

// ── securities, prices, FX, benchmarks: the demo market ───────────────────────────────────────

function seedMarket(sqlite: Sqlite, calendar: Calendar): BookMarket {
  const marketRandom = seededRandom(MARKET_SEED);
  const shocks = factorShocks(marketRandom, calendar.days.length);
  const back = lookbacks(calendar.days);
  const path = (start: number, market: Market, decimals: number) =>
    marketPath(marketRandom, shocks, back, start, market, decimals);
  const { securityIds, prices } = seedSecurities(sqlite, calendar.days, path);
  seedFxRates(sqlite, calendar.days, path);
  const benchmarkIds = seedBenchmarks(sqlite, calendar.days, path);
  return { shocks, back, securityIds, prices, benchmarkIds };
}

type PathOf = (start: number, market: Market, decimals: number) => number[];

function seedSecurities(sqlite: Sqlite, days: readonly string[], path: PathOf) {
  const insertSecurity = sqlite.prepare(
    "INSERT INTO securities (code, exchange, isin, description, sector_name, asset_class_code, region, currency, is_cash, yield_bp) VALUES (?,?,?,?,?,?,?,?,?,?)",
  );
  const insertPrice = sqlite.prepare("INSERT INTO security_prices (security_id, date, price_micros) VALUES (?,?,?)");
  const securityIds = new Map<string, number>();
  const prices = new Map<number, number[]>();
  for (const s of SECURITIES) {
    const id = Number(
      insertSecurity.run(
        s.code,
        s.exchange,
        s.isin,
        s.description,
        s.sector,
        s.assetClass,
        s.region,
        s.currency,
        s.assetClass === "CASH" ? 1 : 0,
        s.yieldBp,
      ).lastInsertRowid,
    );
    securityIds.set(s.code, id);
    const market = SECURITY_MARKETS[s.code];
    const series = market ? path(s.price, market, s.price < 20 ? 4 : 2) : days.map(() => Math.round(s.price * MICROS));
    prices.set(id, series);
    series.forEach((micros, i) => insertPrice.run(id, days[i], micros));
  }
  return { securityIds, prices };
}

function seedFxRates(sqlite: Sqlite, days: readonly string[], path: PathOf): void {
  const insertFx = sqlite.prepare("INSERT INTO fx_rates (currency, date, rate_micros) VALUES (?,?,?)");
  for (const f of FX) {
    path(f.start, f.market, 4).forEach((micros, i) => insertFx.run(f.currency, days[i], micros));
  }
}

function seedBenchmarks(sqlite: Sqlite, days: readonly string[], path: PathOf): number[] {
  const insertBenchmark = sqlite.prepare("INSERT INTO benchmarks (code, name, currency) VALUES (?,?,?)");
  const insertLevel = sqlite.prepare("INSERT INTO benchmark_prices (benchmark_id, date, level_micros) VALUES (?,?,?)");
  const benchmarkIds: number[] = [];
  const benchmarkLevels = new Map<string, number[]>();
  for (const b of BENCHMARKS) {
    const id = Number(insertBenchmark.run(b.code, b.name, b.currency).lastInsertRowid);
    benchmarkIds.push(id);
    const levels = path(b.start, b.market, 2);
    benchmarkLevels.set(b.code, levels);
    levels.forEach((micros, i) => insertLevel.run(id, days[i], micros));
  }
  // a balanced composite computed from two of them, so it draws nothing from the random stream
  const balanced = Number(insertBenchmark.run(BALANCED.code, BALANCED.name, "GBP").lastInsertRowid);
  blendedLevels(BALANCED, benchmarkLevels).forEach((micros, i) => insertLevel.run(balanced, days[i], micros));
  return benchmarkIds;
}

// ── portfolios, account groups and accounts ──────────────────────────────────────────────────

function seedPortfolios(sqlite: Sqlite, people: PortfolioPeople, benchmarkId: number): Map<PortfolioKey, number> {
  const insertPortfolio = sqlite.prepare(
    "INSERT INTO portfolios (name, full_name, ptype, entity_id, report_currency, benchmark_id) VALUES (?,?,?,?,?,?)",
  );
  const insertVisibility = sqlite.prepare(
    "INSERT INTO portfolio_visibility (portfolio_id, entity_id, reason_for_visibility, sort_order, is_linked) VALUES (?,?,?,?,?)",
  );
  const ids = new Map<PortfolioKey, number>();
  for (const p of PORTFOLIOS) {
    const id = Number(
      insertPortfolio.run(p.name, p.fullName, p.ptype, people[p.owner], "GBP", benchmarkId).lastInsertRowid,
    );
    for (const [entity, reason, sortOrder] of p.seenBy)
      insertVisibility.run(id, people[entity], reason, sortOrder, sortOrder > 3 ? 1 : 0);
    ids.set(p.key, id);
  }
  return ids;
}

function seedAccountGroups(sqlite: Sqlite, client: number): Map<GroupKey, number> {
  const insertGroup = sqlite.prepare(
    "INSERT INTO account_groups (group_code, group_name, entity_id, report_currency) VALUES (?,?,?,?)",
  );
  return new Map(
    ACCOUNT_GROUPS.map(([key, code, name]) => [
      key,
      Number(insertGroup.run(code, name, client, "GBP").lastInsertRowid),
    ]),
  );
}

type AccountOwners = {
  people: PortfolioPeople;
  portfolios: Map<PortfolioKey, number>;
  groups: Map<GroupKey, number>;
};

/** Inserts each account and then its transactions; the ids by description. */
function seedAccounts(
  sqlite: Sqlite,
  calendar: Calendar,
  market: BookMarket,
  owners: AccountOwners,
): Map<string, number> {
  const insertAccount = sqlite.prepare(
    `INSERT INTO accounts (portfolio_id, account_group_id, description, plan_currency, report_currency, service_type, tax_structure,
      product, external_account_id, subfund, tax_type, tax_type_title, active_date, inception_date, vendor_id, account_owner)
      VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
  );
  const insertTransaction = sqlite.prepare(
    `INSERT INTO transactions (account_id, security_id, type, trade_date, settlement_date, quantity_micros, price_micros, currency,
      gross_minor, fee_minor, tax_minor, net_minor, cash_security_id, narrative) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
  );
  const random = seededRandom(SEED);
  const ids = new Map<string, number>();
  ACCOUNTS.forEach((a, i) => {
    const inception = calendar.monthsAgo(a.openedMonthsAgo);
    const vendorNumber = 100_200 + 17 * (i + 1);
    const id = Number(
      insertAccount.run(
        owners.portfolios.get(a.portfolio),
        a.group === null ? null : owners.groups.get(a.group),
        a.description,
        a.planCurrency,
        "GBP",
        a.serviceType,
        a.taxType === "ISA" ? "ISA" : a.taxType === "PEN" ? "Pension" : "Personal",
        a.product,
        `NBW-${vendorNumber}`,
        null,
        a.taxType,
        a.taxTypeTitle,
        inception,
        inception,
        `V${vendorNumber}`,
        owners.people[a.owner],
      ).lastInsertRowid,
    );
    ids.set(a.description, id);
    for (const row of generateTransactions(id, inception, a, { calendar, market, random }))
      insertTransaction.run(...row);
  });
  return ids;
}

/** quantity (micros) × price (micros) in minor units, exactly. */
const amountMinor = (quantityMicros: number, priceMicros: number) =>
  Number((BigInt(quantityMicros) * BigInt(priceMicros) + 5_000_000_000n) / 10_000_000_000n);

const securityOf = (code: string) => SECURITIES.find((s) => s.code === code) as SecuritySeed;

type TransactionRow = [
  accountId: number,
  securityId: number,
  type: string,
  tradeDate: string,
  settlementDate: string,
  quantityMicros: number,
  priceMicros: number | null,
  currency: string,
  gross: number,
  fee: number,
  tax: number,
  net: number,
  cashSecurityId: number | null,
  narrative: string,
];

type LedgerContext = { calendar: Calendar; market: BookMarket; random: Random };
type Ledger = ReturnType<typeof accountLedger>;

/**
 * One account's transactions as they are made: the rows, and its cash (minor units per currency)
 * and holdings (quantity micros per code) tracked so that nothing goes negative.
 */
function accountLedger(accountId: number, a: AccountSeed, { calendar, market }: LedgerContext) {
  const rows: TransactionRow[] = [];
  const cash = new Map<string, number>();
  const held = new Map<string, number>();
  const cashIn = (currency: string) => cash.get(currency) ?? 0;
  const priceAt = (code: string, date: string) =>
    (market.prices.get(market.securityIds.get(code) as number) as number[])[
      calendar.dayIndex.get(date) as number
    ] as number;
  const add = (
    type: string,
    code: string,
    date: string,
    quantityMicros: number,
    priceMicros: number | null,
    currency: string,
    amounts: [gross: number, fee: number, tax: number, net: number],
    narrative: string,
  ) => {
    const cashLine =
      type === "transfer_in" || type === "transfer_out" ? null : (market.securityIds.get(`${currency}CASH`) as number);
    const settles = calendar.businessDayAfter(date, 2);
    const security = market.securityIds.get(code) as number;
    rows.push([
      accountId,
      security,
      type,
      date,
      settles,
      quantityMicros,
      priceMicros,
      currency,
      ...amounts,
      cashLine,
      narrative,
    ]);
  };
  return {
    rows,
    held,
    cashIn,
    priceAt,
    add,
    /** Moves cash in or out of a currency (minor units). */
    move: (currency: string, minor: number) => cash.set(currency, cashIn(currency) + minor),
    /** The dealing fee: execution-only accounts pay one per trade. */
    dealingFee: a.serviceType === "Execution only" ? 995 : 0,
  };
}

function transferIn(ledger: Ledger, currency: "GBP" | "USD" | "EUR", units: number, date: string, narrative: string) {
  const minor = Math.round(units * 100);
  ledger.add(
    "transfer_in",
    `${currency}CASH`,
    date,
    minor * MICROS_PER_MINOR,
    MICROS,
    currency,
    [minor, 0, 0, minor],
    narrative,
  );
  ledger.move(currency, minor);
}

/** Buys whole units for up to `spendMinor` with the cash there is, with stamp duty where it applies. */
function buy(ledger: Ledger, a: AccountSeed, code: string, spendMinor: number, date: string): void {
  const s = securityOf(code);
  const fee = ledger.dealingFee;
  const price = ledger.priceAt(code, date);
  const stampRate = a.taxable && s.currency === "GBP" && s.assetClass !== "FIXED" && !code.startsWith("IS") ? 0.005 : 0;
  const budget = Math.min(spendMinor, ledger.cashIn(s.currency) - fee) / (1 + stampRate);
  const quantity = Math.floor((budget * MICROS_PER_MINOR) / price) * MICROS; // whole units
  if (quantity <= 0) return;
  const gross = amountMinor(quantity, price);
  const tax = Math.round(gross * stampRate);
  const net = gross + fee + tax;
  if (net > ledger.cashIn(s.currency)) return;
  ledger.move(s.currency, -net);
  ledger.held.set(code, (ledger.held.get(code) ?? 0) + quantity);
  ledger.add("buy", code, date, quantity, price, s.currency, [gross, fee, tax, net], `Purchase of ${s.description}`);
}

/** Sells a fraction (whole units) of a holding. */
function sell(ledger: Ledger, code: string, fraction: number, date: string): void {
  const s = securityOf(code);
  const quantity = Math.floor(((ledger.held.get(code) ?? 0) * fraction) / MICROS) * MICROS;
  if (quantity <= 0) return;
  const price = ledger.priceAt(code, date);
  const gross = amountMinor(quantity, price);
  const fee = ledger.dealingFee;
  const net = gross - fee;
  ledger.held.set(code, (ledger.held.get(code) ?? 0) - quantity);
  ledger.move(s.currency, net);
  ledger.add("sell", code, date, quantity, price, s.currency, [gross, fee, 0, net], `Sale of ${s.description}`);
}

/** An account's transactions from its opening, month by month to today, in trade-date order. */
function generateTransactions(accountId: number, inception: string, a: AccountSeed, context: LedgerContext) {
  const { days, dayIndex } = context.calendar;
  const ledger = accountLedger(accountId, a, context);
  const investOn = openAccount(ledger, a, inception, context.calendar);
  // month by month: income each quarter, fees, a top-up, a partial sale and a withdrawal
  const start = dayIndex.get(investOn) as number;
  for (let i = start + 21, month = 1; i < days.length; i += 21, month++) {
    const date = days[i] as string;
    if (month % 3 === 0) quarterEnd(ledger, a, date, month, context.random);
    if (a.serviceType === "Not managed") {
      if (month % 6 === 0)
        transferIn(ledger, "GBP", 500 + Math.floor(context.random() * 10) * 50, date, "Regular saving");
      continue;
    }
    clientMoves(ledger, a, date, month, context.calendar);
  }
  return ledger.rows.sort((x, y) => String(x[3]).localeCompare(String(y[3])));
}

/** The opening transfers, then the purchases two business days later; returns the day invested. */
function openAccount(ledger: Ledger, a: AccountSeed, inception: string, calendar: Calendar): string {
  for (const [currency, units] of Object.entries(a.deposits) as Array<["GBP" | "USD" | "EUR", number]>) {
    transferIn(ledger, currency, units, inception, `Opening transfer in (${currency})`);
  }
  const investOn = calendar.businessDayAfter(inception, 2);
  for (const [code, share] of a.holdings) {
    const currency = securityOf(code).currency;
    buy(ledger, a, code, Math.round((a.deposits[currency] ?? 0) * 100 * share), investOn);
  }
  return investOn;
}

/** A quarter's end: each holding's income, the management fee and, once a year if taxable, tax on interest. */
function quarterEnd(ledger: Ledger, a: AccountSeed, date: string, month: number, random: Random): void {
  for (const [code] of a.holdings) {
    const s = securityOf(code);
    const quantity = ledger.held.get(code) ?? 0;
    if (s.yieldBp === 0 || quantity === 0) continue;
    const gross = Math.round((amountMinor(quantity, ledger.priceAt(code, date)) * s.yieldBp) / 40_000);
    if (gross <= 0) continue;
    const tax = a.taxable && s.currency === "USD" ? Math.round(gross * 0.15) : 0;
    ledger.move(s.currency, gross - tax);
    ledger.add("income", code, date, 0, null, s.currency, [gross, 0, tax, gross - tax], `Dividend: ${s.description}`);
  }
  const cashCode = `${a.planCurrency}CASH`;
  if (a.serviceType !== "Not managed") {
    const fee = 2500 + Math.floor(random() * 2000);
    if (ledger.cashIn(a.planCurrency) >= fee) {
      ledger.move(a.planCurrency, -fee);
      ledger.add("fee", cashCode, date, 0, null, a.planCurrency, [fee, fee, 0, fee], "Quarterly management fee");
    }
  }
  if (a.taxable && month % 12 === 0) {
    const tax = 1500 + Math.floor(random() * 3000);
    if (ledger.cashIn(a.planCurrency) >= tax) {
      ledger.move(a.planCurrency, -tax);
      ledger.add("tax", cashCode, date, 0, null, a.planCurrency, [tax, 0, tax, tax], "Tax on interest");
    }
  }
}

/** A managed account's yearly top-up (and its purchase), one partial sale and one withdrawal. */
function clientMoves(ledger: Ledger, a: AccountSeed, date: string, month: number, calendar: Calendar): void {
  const currency = a.planCurrency;
  if (month % 12 === 7) {
    const topUp = Math.round((a.deposits[currency] ?? 10_000) * 0.1);
    transferIn(ledger, currency, topUp, date, "Top-up");
    const first = a.holdings.find(([code]) => securityOf(code).currency === currency);
    if (first) buy(ledger, a, first[0], topUp * 95, calendar.businessDayAfter(date, 1));
  }
  if (month === 10 && a.holdings.length > 1) sell(ledger, (a.holdings[1] as [string, number])[0], 0.3, date);
  if (month === 14) {
    const available = ledger.cashIn(currency);
    const out = Math.floor(available / 2 / 100) * 100;
    if (out > 0) {
      ledger.move(currency, -out);
      ledger.add(
        "transfer_out",
        `${currency}CASH`,
        date,
        out * MICROS_PER_MINOR,
        MICROS,
        currency,
        [out, 0, 0, out],
        "Withdrawal",
      );
    }
  }
}

// ── target set and payment details on Ellie's ISA ─────────────────────────────────────────────

function seedTargetSet(sqlite: Sqlite, accountId: number, securityIds: Map<string, number>): void {
  const targetSet = Number(
    sqlite
      .prepare("INSERT INTO target_sets (account_id, description) VALUES (?,?)")
      .run(accountId, "Balanced growth (70/30)").lastInsertRowid,
  );
  const insertWeight = sqlite.prepare(
    "INSERT INTO target_set_securities (target_set_id, security_id, weight_bp) VALUES (?,?,?)",
  );
  for (const [code, weight] of TARGET_WEIGHTS) insertWeight.run(targetSet, securityIds.get(code), weight);
}

function seedPaymentMethods(sqlite: Sqlite, accountId: number): void {
  const insertPayment = sqlite.prepare(
    "INSERT INTO payment_methods (account_id, kind, biller_code, reference, bank, account_name, bsb, account_number) VALUES (?,?,?,?,?,?,?,?)",
  );
  insertPayment.run(accountId, "bpay", "254789", "4012 3456 7890", null, null, null, null);
  insertPayment.run(
    accountId,
    "bank",
    null,
    null,
    "Barclays Bank UK plc",
    "Northbridge Wealth Client Money",
    "20-00-00",
    "43987610",
  );
}

// ── other assets per family member (spec 001 §4) ──────────────────────────────────────────────

function seedOtherAssets(sqlite: Sqlite, today: string, people: PortfolioPeople): void {
  const insertAsset = sqlite.prepare(
    `INSERT INTO other_assets (entity_id, kind, description, type, provider, policy_number, status, currency, value_minor, valuation_date,
      is_sipp_wrapper, under_advice, contribution_total_minor, withdrawal_total_minor, crystallised_minor, uncrystallised_minor,
      income_value_minor, frequency, rate_bp, capital_content_minor) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
  );
  const insertOwner = sqlite.prepare(
    "INSERT INTO other_asset_owners (asset_id, entity_id, percentage_bp) VALUES (?,?,?)",
  );
  const minor = (units: number | undefined) => (units === undefined ? null : Math.round(units * 100));
  for (const s of OTHER_ASSETS) {
    const id = Number(
      insertAsset.run(
        people[s.entity],
        s.kind,
        s.description,
        s.type,
        s.provider,
        s.policy,
        s.status,
        s.currency ?? "GBP",
        minor(s.value),
        addDays(today, -Math.round(s.valuedMonthsAgo * 30.44)),
        s.sipp ? 1 : 0,
        s.underAdvice ? 1 : 0,
        minor(s.contributions),
        minor(s.withdrawals),
        minor(s.crystallised),
        minor(s.uncrystallised),
        minor(s.income),
        s.frequency ?? null,
        s.rateBp ?? null,
        minor(s.capitalContent),
      ).lastInsertRowid,
    );
    for (const [entity, bp] of s.owners) insertOwner.run(id, people[entity], bp);
  }
}

// ── later additions: their own random, after everything above (nothing above moves) ─────────────

function seedLaterSecurities(
  sqlite: Sqlite,
  calendar: Calendar,
  market: BookMarket,
  accountIds: Map<string, number>,
): void {
  const later = seededRandom(LATER_SEED);
  const insertLater = sqlite.prepare(
    `INSERT INTO securities (code, exchange, isin, description, sector_name, asset_class_code, region, currency, is_cash, yield_bp,
      asset_class_allocation, regional_allocation) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`,
  );
  const insertPrice = sqlite.prepare("INSERT INTO security_prices (security_id, date, price_micros) VALUES (?,?,?)");
  for (const s of LATER_SECURITIES) {
    const id = Number(
      insertLater.run(
        s.code,
        s.exchange,
        s.isin,
        s.description,
        s.sector,
        s.assetClass,
        s.region,
        s.currency,
        0,
        s.yieldBp,
        s.assetClassAllocation && JSON.stringify(s.assetClassAllocation),
        s.regionalAllocation && JSON.stringify(s.regionalAllocation),
      ).lastInsertRowid,
    );
    const series = marketPath(
      later,
      market.shocks,
      market.back,
      s.price,
      SECURITY_MARKETS[s.code] as Market,
      s.price < 20 ? 4 : 2,
    );
    series.forEach((micros, i) => insertPrice.run(id, calendar.days[i], micros));
    insertTransfersIn(sqlite, calendar, s, id, series, accountIds);
  }
}

/** A later security's in-specie transfers in: units valued at the day's price. */
function insertTransfersIn(
  sqlite: Sqlite,
  calendar: Calendar,
  s: LaterSecurity,
  securityId: number,
  series: readonly number[],
  accountIds: Map<string, number>,
): void {
  const insertTransaction = sqlite.prepare(
    `INSERT INTO transactions (account_id, security_id, type, trade_date, settlement_date, quantity_micros, price_micros, currency,
      gross_minor, fee_minor, tax_minor, net_minor, cash_security_id, narrative) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
  );
  for (const [account, months, units] of s.transfers) {
    const date = calendar.monthsAgo(months);
    const quantity = units * MICROS;
    const price = series[calendar.dayIndex.get(date) as number] as number;
    const value = amountMinor(quantity, price);
    insertTransaction.run(
      accountIds.get(account) as number,
      securityId,
      "transfer_in",
      date,
      calendar.businessDayAfter(date, 2),
      quantity,
      price,
      s.currency,
      value,
      0,
      0,
      value,
      null,
      `In-specie transfer in: ${s.description || s.code}`,
    );
  }
}

// ── disposals in the taxable accounts (docs/decisions/202-demo-disposals.md) ─────────────────────
// Added after everything above and drawing nothing from any random stream, so no earlier row moves:
// sales in the Joint General Investment Account and the trust account that exercise each of the UK
// share-matching rules (a purchase and a sale on one day, a sale bought back within 30 days, sales
// from a pool built over several purchases), months apart so that they fall in more than one tax
// year. Every one of them leaves more cash than before at each date (a repurchase buys back fewer
// units than were sold), so no later withdrawal or purchase finds too little cash.

type DisposalSeed = {
  account: string;
  code: string;
  monthsAgo: number;
  /** The share of the units held that day that is sold (whole units). */
  sellShare: number;
  /** Units bought back the same day (a morning deal at the previous close), or null. */
  sameDayUnits: number | null;
  /** Calendar days later, and the share of the sold units bought back, or null. */
  buyBack: { days: number; share: number } | null;
};

const DISPOSALS: DisposalSeed[] = [
  // a sale bought back in part within 30 days (the rest from the pool), in an earlier tax year
  {
    account: "Joint General Investment Account",
    code: "LAND",
    monthsAgo: 16,
    sellShare: 0.4,
    sameDayUnits: null,
    buyBack: { days: 14, share: 0.5 },
  },
  // a sale from a pool of three purchases (the opening one and two yearly top-ups)
  {
    account: "Hartley Family Trust account",
    code: "ISF",
    monthsAgo: 10,
    sellShare: 0.2,
    sameDayUnits: null,
    buyBack: null,
  },
  {
    account: "Joint General Investment Account",
    code: "ULVR",
    monthsAgo: 7,
    sellShare: 0.25,
    sameDayUnits: null,
    buyBack: null,
  },
  // a purchase and a larger sale on one day: the same day's units first, the rest from the pool
  {
    account: "Joint General Investment Account",
    code: "AZN",
    monthsAgo: 4,
    sellShare: 0.3,
    sameDayUnits: 20,
    buyBack: null,
  },
];

function seedDisposals(sqlite: Sqlite, calendar: Calendar, market: BookMarket, accountIds: Map<string, number>): void {
  const insertTransaction = sqlite.prepare(
    `INSERT INTO transactions (account_id, security_id, type, trade_date, settlement_date, quantity_micros, price_micros, currency,
      gross_minor, fee_minor, tax_minor, net_minor, cash_security_id, narrative) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
  );
  const heldOn = sqlite.prepare(
    `SELECT COALESCE(SUM(CASE WHEN type IN ('buy', 'transfer_in') THEN quantity_micros WHEN type IN ('sell', 'transfer_out') THEN -quantity_micros ELSE 0 END), 0) AS q
      FROM transactions WHERE account_id = ? AND security_id = ? AND trade_date <= ?`,
  );
  for (const d of DISPOSALS) {
    const account = ACCOUNTS.find((a) => a.description === d.account) as AccountSeed;
    const accountId = accountIds.get(d.account) as number;
    const s = securityOf(d.code);
    const securityId = market.securityIds.get(d.code) as number;
    const cashId = market.securityIds.get(`${s.currency}CASH`) as number;
    const series = market.prices.get(securityId) as number[];
    const priceOn = (date: string) => series[calendar.dayIndex.get(date) as number] as number;
    const stampRate =
      account.taxable && s.currency === "GBP" && s.assetClass !== "FIXED" && !d.code.startsWith("IS") ? 0.005 : 0;
    const add = (type: "buy" | "sell", date: string, units: number, price: number) => {
      const quantity = units * MICROS;
      const gross = amountMinor(quantity, price);
      const tax = type === "buy" ? Math.round(gross * stampRate) : 0;
      const net = type === "buy" ? gross + tax : gross;
      insertTransaction.run(
        accountId,
        securityId,
        type,
        date,
        calendar.businessDayAfter(date, 2),
        quantity,
        price,
        s.currency,
        gross,
        0,
        tax,
        net,
        cashId,
        `${type === "buy" ? "Purchase" : "Sale"} of ${s.description}`,
      );
    };
    const date = calendar.monthsAgo(d.monthsAgo);
    const held = Math.floor(Number((heldOn.get(accountId, securityId, date) as { q: number }).q) / MICROS);
    const sold = Math.floor(held * d.sellShare);
    if (sold <= 0) continue;
    if (d.sameDayUnits) add("buy", date, d.sameDayUnits, priceOn(calendar.businessDayAfter(date, -1)));
    add("sell", date, sold, priceOn(date));
    if (d.buyBack) {
      const back = calendar.monthsAgo(d.monthsAgo - d.buyBack.days / 30.44);
      add("buy", back, Math.floor(sold * d.buyBack.share), priceOn(back));
    }
  }
}
