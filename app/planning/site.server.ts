import { z } from "zod/v4";
import type { Locale } from "~/lib/i18n";
import { logger } from "~/runtime/logger.server";
import { env } from "~/runtime/env.server";
import { createPlanningClient } from "./client.server";

export const SiteAnswer = z.object({
  version: z.string().nullish(),
  settings: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).prefault({}),
  content: z
    .object({
      firmName: z.string().nullish(),
      pages: z.record(z.string(), z.object({ title: z.string(), html: z.string() })).prefault({}),
    })
    .prefault({}),
});

export type Site = {
  version: string | null;
  firmName: string;
  logo: string | null;
  logoOnWhite: string | null;
  memorableWordEnabled: boolean;
  /** spec 000 §3: keys chartColour1, chartColour2 … ordered by number. */
  chartColours: string[];
  pages: Record<string, { title: string; html: string }>;
  settings: Record<string, string | number | boolean | null>;
};

/**
 * How many of the firm's chart colours the charts use (decision 212): the stylesheet gives each of
 * nine its dark theme's version and its dash pattern (charts.css), so a tenth would be drawn in its
 * light colour in the dark theme and be told from the first by colour alone. A chart with more
 * series than colours starts again at the first, as with the nine defaults.
 */
export const CHART_COLOUR_COUNT = 9;

/**
 * spec 001 §9: nine default chart colours, the first light blue; each has at least 3:1 contrast on
 * white (WCAG 1.4.11), so a line or bar stays visible.
 */
export const DEFAULT_CHART_COLOURS = [
  "#2e8fd0",
  "#1d4f91",
  "#00857c",
  "#c4511a",
  "#6b3fa0",
  "#8a6d00",
  "#b0265f",
  "#4d7a2a",
  "#5d6878",
];

const HEX = /^#[0-9a-f]{3}([0-9a-f]{3})?$/i;

export function toSite(answer: z.output<typeof SiteAnswer>): Site {
  const s = answer.settings;
  const text = (key: string) => (typeof s[key] === "string" && s[key] ? (s[key] as string) : null);
  const chartColours = Object.entries(s)
    .map(([key, value]) => ({ n: Number(/^chartColour(\d+)$/.exec(key)?.[1]), value }))
    .filter(
      (c): c is { n: number; value: string } =>
        Number.isFinite(c.n) && typeof c.value === "string" && HEX.test(c.value),
    )
    .sort((a, b) => a.n - b.n)
    .map((c) => c.value)
    // the stylesheet draws nine colours in each theme, each with its own dash pattern (decision 212)
    .slice(0, CHART_COLOUR_COUNT);
  return {
    version: answer.version ?? null,
    firmName: answer.content.firmName ?? "Client Online",
    logo: text("logo"),
    logoOnWhite: text("logoOnWhite"),
    memorableWordEnabled: s["access.memorableWordEnabled"] === true || s["access.memorableWordEnabled"] === "true",
    chartColours: chartColours.length ? chartColours : DEFAULT_CHART_COLOURS,
    pages: answer.content.pages,
    settings: s,
  };
}

export const DEFAULT_SITE: Site = toSite({ version: null, settings: {}, content: { pages: {} } });

// Site settings are the same for every visitor of a locale: kept in memory for a few minutes per
// instance (no user data in it, so nothing breaks behind a load balancer), for the platform they
// came from (one in a running portal; each test file's own where files share the modules).
const TTL_MS = 5 * 60_000;
const cache = new Map<string, { at: number; site: Site }>();

/** spec 000 §1: if the settings cannot be fetched, defaults are used and a warning is logged. */
export async function getSite(locale: Locale): Promise<Site> {
  const key = `${env.planningApiUrl} ${locale}`;
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.site;
  try {
    const answer = await createPlanningClient().get("resourceful/site", SiteAnswer, {
      query: { site_locales: locale, version: true },
      retry: false,
    });
    const site = toSite(answer);
    cache.set(key, { at: Date.now(), site });
    return site;
  } catch (error) {
    logger.error("site settings unavailable, using defaults", { error: String(error) });
    return hit?.site ?? DEFAULT_SITE;
  }
}
