// A module of its own: the legend (chart-figure.tsx) and the interactive chart's tooltip, loaded
// on demand, both draw it.

/**
 * A series' colour beside the series' name: a short line for a line chart, drawn as its series is
 * (charts.css gives `data-stroke="N"` the theme's colour and the series' dash pattern), or a block
 * for a slice of a pie or a column (`data-fill="N"`; docs/decisions/203).
 */
export function LegendSwatch({
  colour,
  colourNumber,
  shape = "line",
}: {
  colour: string;
  colourNumber?: number;
  shape?: "line" | "block";
}) {
  const number = colourNumber ? String(colourNumber) : undefined;
  return (
    <svg
      className={`chart-legend__swatch chart-legend__swatch--${shape}`}
      width="24"
      height="12"
      viewBox="0 0 24 12"
      aria-hidden="true"
      focusable="false"
    >
      {shape === "line" ? (
        <line x1="0" y1="6" x2="24" y2="6" stroke={colour} strokeWidth="4" data-stroke={number} />
      ) : (
        <rect x="6" y="0" width="12" height="12" fill={colour} data-fill={number} />
      )}
    </svg>
  );
}
