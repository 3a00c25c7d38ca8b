// The fills a pie's and a column chart's slices take under forced colours (Windows high contrast),
// where every slice is drawn in the system's two colours: one pattern per chart colour, so slices
// and their legend's blocks are told apart by more than colour (WCAG 1.4.1; decision 215).
// charts.css points `[data-fill="N"]` at `#chart-pattern-N` in that mode only; elsewhere nothing
// refers to them. Drawn once per page, in an SVG of its own that takes no room.

/** What each chart colour's pattern draws on an 8-unit tile: paths in the text colour. */
export const CHART_PATTERNS: ReadonlyArray<{ name: string; ink: string; solid?: boolean }> = [
  { name: "solid", ink: "", solid: true },
  { name: "rising diagonals", ink: "M-2,2 L2,-2 M0,8 L8,0 M6,10 L10,6" },
  { name: "falling diagonals", ink: "M-2,6 L2,10 M0,0 L8,8 M6,-2 L10,2" },
  { name: "horizontal lines", ink: "M0,2 H8 M0,6 H8" },
  { name: "vertical lines", ink: "M2,0 V8 M6,0 V8" },
  { name: "grid", ink: "M0,4 H8 M4,0 V8" },
  { name: "diagonal cross", ink: "M0,0 L8,8 M8,0 L0,8" },
  { name: "small crosses", ink: "M2,1 V3 M1,2 H3 M6,5 V7 M5,6 H7" },
  { name: "empty", ink: "" },
];

/** The id the stylesheet refers to for the pattern of chart colour `number` (1-based). */
export const chartPatternId = (number: number) => `chart-pattern-${number}`;

export function ChartPatterns() {
  return (
    <svg className="chart-patterns" width="0" height="0" aria-hidden="true" focusable="false">
      <defs>
        {CHART_PATTERNS.map((pattern, i) => (
          <pattern
            key={pattern.name}
            id={chartPatternId(i + 1)}
            width="8"
            height="8"
            patternUnits="userSpaceOnUse"
            data-pattern={pattern.name}
          >
            <rect className={pattern.solid ? "chart-patterns__ink" : "chart-patterns__ground"} width="8" height="8" />
            {pattern.ink ? <path className="chart-patterns__ink" d={pattern.ink} /> : null}
          </pattern>
        ))}
      </defs>
    </svg>
  );
}
