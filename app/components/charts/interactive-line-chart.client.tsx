// The line chart with tooltips, for the browser only. Reached solely through the dynamic import in
// chart-figure.tsx, so nivo is a separate chunk loaded when the user turns to the chart.

import { Line, type SliceTooltipProps } from "@nivo/line";
import { useLayoutEffect, useMemo, useRef, useState } from "react";
import { colourNumber } from "./chart-data";
import { LegendSwatch } from "./legend-swatch";
import {
  chartPalette,
  CHART_BREAKPOINT_PX,
  LINE_CHART_SIZE,
  lineChartProps,
  NARROW_LINE_CHART_SIZE,
  type LineChartInput,
  type NivoSeries,
} from "./line-chart";

function tooltipFor(input: LineChartInput) {
  const labels = new Map(input.series.map((s) => [s.id, s.label]));
  const palette = chartPalette(input);
  return function SliceTooltip({ slice }: SliceTooltipProps<NivoSeries>) {
    // nivo lists a slice's points last series first: show them in the legend's order.
    const points = [...slice.points].sort((a, b) => a.seriesIndex - b.seriesIndex);
    const first = points[0];
    return (
      <div className="chart-tooltip">
        {first ? <p className="chart-tooltip__date">{first.data.xFormatted}</p> : null}
        <ul className="chart-tooltip__values">
          {points.map((point) => (
            <li key={point.id}>
              <LegendSwatch colour={point.seriesColor} colourNumber={colourNumber(palette, point.seriesColor)} />
              {labels.get(point.seriesId) ?? point.seriesId}: <strong>{point.data.yFormatted}</strong>
            </li>
          ))}
        </ul>
      </div>
    );
  };
}

/** The chart at the width of its container, 300 high below the 576px breakpoint (spec 001 §9). */
export default function InteractiveLineChart({ input }: { input: LineChartInput }) {
  const container = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const SliceTooltip = useMemo(() => tooltipFor(input), [input]);

  // The series say their colour's number, as the server's SVG does (seriesColourAttributes), so that
  // the stylesheet draws them in the theme's colours and dash patterns (docs/decisions/203).
  useLayoutEffect(() => {
    const palette = chartPalette(input);
    for (const element of container.current?.querySelectorAll("svg [stroke], svg [fill]") ?? []) {
      for (const attribute of ["stroke", "fill"] as const) {
        const number = colourNumber(palette, element.getAttribute(attribute) ?? "");
        if (number) element.setAttribute(`data-${attribute}`, String(number));
      }
    }
  });

  useLayoutEffect(() => {
    const element = container.current;
    if (!element) return;
    setWidth(Math.floor(element.getBoundingClientRect().width));
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const height = width < CHART_BREAKPOINT_PX ? NARROW_LINE_CHART_SIZE.height : (input.height ?? LINE_CHART_SIZE.height);
  return (
    <div ref={container} className="chart-figure__interactive">
      {width > 0 ? (
        <Line {...lineChartProps(input, width, height)} isInteractive enableSlices="x" sliceTooltip={SliceTooltip} />
      ) : null}
    </div>
  );
}
