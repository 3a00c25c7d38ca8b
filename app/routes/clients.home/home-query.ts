// The home page's own query (spec 001 §2.1): timeframe, currency, expanded rows and the member of
// the assets summary, so that every view of the page is a URL. Pure: shared by server and browser.
import { PAGE_PATHS } from "~/lib/navigation";

export type Timeframe = "default" | "secondary";
export type CurrencyMode = "report" | "plan";

/** The page's own query: timeframe, currency, expanded rows and the member of the assets summary. */
export type HomeQuery = { timeframe: Timeframe; currency: CurrencyMode; expand: string[]; memberId: number | null };

/** Row keys as the platform gives them: portfolio-{id}, account-{id}, group-{code}. */
const KEY = /^(portfolio-[1-9]\d{0,9}|account-[1-9]\d{0,9}|group-[A-Za-z0-9_-]{1,60})$/;

export function readHomeQuery(url: URL): HomeQuery {
  const expand = (url.searchParams.get("expand") ?? "")
    .split(",")
    .map((k) => k.trim())
    .filter((k) => KEY.test(k));
  const id = Number(url.searchParams.get("id"));
  return {
    timeframe: url.searchParams.get("timeframe") === "secondary" ? "secondary" : "default",
    currency: url.searchParams.get("currency") === "plan" ? "plan" : "report",
    expand: [...new Set(expand)].slice(0, 20),
    memberId: Number.isInteger(id) && id > 0 ? id : null,
  };
}

/** The home URL with some of its query changed (defaults are left out, so URLs stay short). */
export function homeHref(query: HomeQuery, change: Partial<HomeQuery> = {}, hash = ""): string {
  const q = { ...query, ...change };
  const params = new URLSearchParams();
  if (q.timeframe !== "default") params.set("timeframe", q.timeframe);
  if (q.currency !== "report") params.set("currency", q.currency);
  if (q.expand.length) params.set("expand", q.expand.join(","));
  if (q.memberId !== null) params.set("id", String(q.memberId));
  const search = params.toString();
  return `${PAGE_PATHS.home}${search ? `?${search}` : ""}${hash}`;
}
