// spec 000 §2 and 002 §2: the legal pages exist "with and without -view" (/core/site-terms-view).
// A `-view` segment is the read-only view of its base page and shows the same content
// (docs/decisions/024-text-pages-and-probes.md).

export const VIEW_SUFFIX = "-view";

type Page = { title: string; html: string };

/**
 * The content page a `/core/{segment}` shows: the page of that segment, else, for a segment ending
 * in '-view', the page of its base segment; undefined when neither exists.
 */
export function textPageFor<P extends Page>(pages: Record<string, P>, segment: string): P | undefined {
  if (Object.hasOwn(pages, segment)) return pages[segment];
  if (!segment.endsWith(VIEW_SUFFIX)) return undefined;
  const base = segment.slice(0, -VIEW_SUFFIX.length);
  return base && Object.hasOwn(pages, base) ? pages[base] : undefined;
}
