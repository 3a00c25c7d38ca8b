/**
 * A table wider than the screen scrolls inside its own region (WCAG 1.4.10), named by the table's
 * caption and focusable so that keyboard users can scroll it (WCAG 2.1.1; axe's
 * scrollable-region-focusable). Caption ids are unique on the page (decision 117).
 */
export function TableRegion({
  captionId,
  className,
  children,
}: {
  captionId: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <div
      className={className ? `table-wrap ${className}` : "table-wrap"}
      role="region"
      aria-labelledby={captionId}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region keyboard users must reach
      tabIndex={0}
    >
      {children}
    </div>
  );
}
