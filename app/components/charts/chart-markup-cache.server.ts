// The charts' SVG markup kept for the same chart (decision 124): drawing a nivo chart to markup on
// the server was the largest part of the home and analysis pages' own time, and the same data
// (the same client's series over the same range, or everyone's demo data) is drawn again and
// again. The key is a digest of everything the drawing reads: the input itself (data, colours,
// size, format, currency, locale, title) and, as a chart without dates is drawn around today,
// today's date. The markup is the data's own picture, so one user's chart is only ever served for
// the same data. Bounded by entries, the least recently used going first.
import { createHash } from "node:crypto";
import { BoundedCache } from "~/lib/bounded-cache";

/** About the distinct charts of a busy hour (a chart and its narrow version are two). */
export const MAX_CHART_MARKUPS = 200;

export type ChartMarkupCache = {
  /** The markup of the chart drawn from `input`, drawn by `draw` only when not kept. */
  markup<T>(kind: string, input: T, draw: (input: T) => string): string;
  readonly size: number;
  clear(): void;
};

export function chartMarkupCache(maxEntries = MAX_CHART_MARKUPS): ChartMarkupCache {
  const kept = new BoundedCache<string, string>(maxEntries);
  return {
    markup(kind, input, draw) {
      const today = new Date().toISOString().slice(0, 10);
      const key = createHash("sha256")
        .update(kind)
        .update("\u0000")
        .update(today)
        .update("\u0000")
        .update(JSON.stringify(input))
        .digest("base64");
      return kept.getOrSet(key, () => draw(input));
    },
    get size() {
      return kept.size;
    },
    clear() {
      kept.clear();
    },
  };
}

/** The process's one cache for every chart the pages draw. */
export const chartMarkups = chartMarkupCache();
