// A module of its own: the legend (chart-figure.tsx) and the interactive chart's tooltip, loaded
// on demand, both draw it.

/** A series' colour as a short line, beside the series' name. */
export function LegendSwatch({ colour }: { colour: string }) {
  return (
    <svg
      className="chart-legend__swatch"
      width="16"
      height="12"
      viewBox="0 0 16 12"
      aria-hidden="true"
      focusable="false"
    >
      <rect x="0" y="4" width="16" height="4" fill={colour} />
    </svg>
  );
}
