// Minimal shell; the full top bar, main bar, footer and notices are built in this folder.
export function Shell({ children }: { children: React.ReactNode }) {
  return <main id="main-content">{children}</main>;
}
