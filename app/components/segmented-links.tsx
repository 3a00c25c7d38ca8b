import { Link } from "@remix-run/react";
import { useId } from "react";
import styles from "./segmented-links.css";

/** The switch's stylesheet, for the links of a route that shows one. */
export const segmentedLinksStyles = styles;

export type SegmentedOption = { href: string; text: string; current: boolean };

/**
 * A choice between views of one page as links (the home's timeframe and currency, the balance
 * sheet's views and currency): every option is a URL, so it works without JavaScript and can be
 * shared; the current one carries `aria-current`. The label is the navigation's name, shown above
 * the options when `visibleLabel` is set.
 */
export function SegmentedLinks({
  label,
  options,
  visibleLabel = false,
  className = "segmented",
}: {
  label: string;
  options: SegmentedOption[];
  visibleLabel?: boolean;
  className?: string;
}) {
  const id = useId();
  return (
    <nav
      className={className}
      aria-label={visibleLabel ? undefined : label}
      aria-labelledby={visibleLabel ? id : undefined}
    >
      {visibleLabel ? (
        <span id={id} className="segmented__label">
          {label}
        </span>
      ) : null}
      <ul className="segmented__list">
        {options.map((o) => (
          <li key={o.href}>
            <Link
              to={o.href}
              className="segmented__option"
              aria-current={o.current ? "true" : undefined}
              preventScrollReset
            >
              {o.text}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
