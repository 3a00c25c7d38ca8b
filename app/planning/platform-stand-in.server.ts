// The integration tests put a failing platform in the portal's way by replacing the process's
// fetch (`vi.stubGlobal("fetch", …)`, tests/portal). The portal itself calls the platform through
// undici's request, not fetch (issue 38), so the planning client asks here whether the fetch has
// been replaced and, while it is, calls that instead. This module is imported before any test
// replaces anything (tests/setup/platform-stand-in.ts), and at start-up in a running portal, where
// nothing replaces the fetch.

/** The process's fetch as it was when this module was first imported. */
const STARTING_FETCH = globalThis.fetch;

/** The fetch that stands in for the platform, or null when the process's own is in place. */
export function platformStandIn(): typeof fetch | null {
  return globalThis.fetch === STARTING_FETCH ? null : globalThis.fetch;
}
