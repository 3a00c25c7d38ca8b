import { createContext, startTransition, useContext, useEffect, useState } from "react";

// Whether the page's scripts have taken it over (docs/decisions/213). remix-utils' useHydrated reads
// a store whose value differs between the server and the browser, which makes React render every
// component that asks again at once, in one synchronous pass right after the hydration: on the
// investments tab with every row open that pass (each row's link becoming a button) was the page's
// longest task. Here one flag in the root turns true in a transition after the hydration, so the
// components that change render in slices the browser can interrupt, and a component mounted later
// reads true at once.

const HydratedContext = createContext(false);

/** The root's provider; `onHydrated` runs once every component that asked has rendered as hydrated. */
export function HydratedProvider({ children, onHydrated }: { children: React.ReactNode; onHydrated?: () => void }) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => startTransition(() => setHydrated(true)), []);
  useEffect(() => {
    if (hydrated) onHydrated?.();
  }, [hydrated, onHydrated]);
  return <HydratedContext.Provider value={hydrated}>{children}</HydratedContext.Provider>;
}

/** True once the page's scripts run (false on the server and in the hydration's own render). */
export function useHydrated(): boolean {
  return useContext(HydratedContext);
}
