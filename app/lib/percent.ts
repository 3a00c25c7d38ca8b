// Shares of a whole as whole percentages that add up to 100 (spec 001 §2.1 "Percent rounding").
// Pure: shared by the server and the browser.

export type PercentShare = {
  /** The whole percentage shown. */
  percent: number;
  /** What the user reads: '42%', '<1%' for a non-zero share shown as 0, '0%'. */
  label: string;
  /** The unrounded share of the positive total, 0 to 100. */
  exact: number;
};

// A share computed as 33.99999999999999 is 34: floor after this tolerance.
const EPSILON = 1e-9;
// spec 001 §2.1: "The leftover to 100 is spread over items, none above 99."
const SPREAD_CEILING = 99;

// one formatter per locale, not one per label (decision 124); kept here so this module imports nothing
const percentFormats = new Map<string, Intl.NumberFormat>();
function percentFormat(locale: string): Intl.NumberFormat {
  let format = percentFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 0 });
    if (percentFormats.size >= 50) percentFormats.clear();
    percentFormats.set(locale, format);
  }
  return format;
}

/**
 * A whole percentage as a label. A share that is not truly zero but rounds to 0 reads '<1%'.
 * Without a locale the label is '42%'; with one it follows the locale ('42 %' in fr-CA).
 */
export function formatPercentLabel(percent: number, nonZero: boolean, locale?: string): string {
  const shown = percent === 0 && nonZero ? 1 : percent;
  const text = locale ? percentFormat(locale).format(shown / 100) : `${shown}%`;
  return percent === 0 && nonZero ? `<${text}` : text;
}

/**
 * spec 001 §2.1: each value's share of the total, capped between 0 and 100 and rounded down; the
 * points left over to 100 go one at a time to the items with the largest fractional remainder
 * (ties: the larger value, then the earlier item), never raising an item above 99 and never to an
 * item whose value is 0. Negative and non-finite values count as 0; a zero total gives 0% to all.
 */
export function roundPercentages(values: readonly number[], locale?: string): PercentShare[] {
  const amounts = values.map((v) => (Number.isFinite(v) && v > 0 ? v : 0));
  const total = amounts.reduce((sum, v) => sum + v, 0);
  if (total <= 0) {
    return amounts.map(() => ({ percent: 0, label: formatPercentLabel(0, false, locale), exact: 0 }));
  }

  const exact = amounts.map((v) => Math.min(100, Math.max(0, (v / total) * 100)));
  const percent = exact.map((e) => Math.floor(e + EPSILON));
  let leftover = 100 - percent.reduce((sum, p) => sum + p, 0);

  const order = amounts
    .map((value, index) => ({ value, index, remainder: Math.max(0, exact[index]! - percent[index]!) }))
    .filter((item) => item.value > 0)
    .sort((a, b) => b.remainder - a.remainder || b.value - a.value || a.index - b.index);

  while (leftover > 0) {
    let given = false;
    for (const { index } of order) {
      if (leftover === 0) break;
      if (percent[index]! >= SPREAD_CEILING) continue;
      percent[index] = percent[index]! + 1;
      leftover -= 1;
      given = true;
    }
    if (!given) break;
  }

  return amounts.map((value, i) => ({
    percent: percent[i]!,
    label: formatPercentLabel(percent[i]!, value > 0, locale),
    exact: exact[i]!,
  }));
}
