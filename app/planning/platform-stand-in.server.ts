// The integration tests put a failing platform in the portal's way by replacing the process's
// fetch (`vi.stubGlobal("fetch", …)`, tests/portal). The portal itself calls the platform through
// undici's request, not fetch (issue 38), so the planning client asks here whether the tests have
// replaced the fetch and, while they have, calls that instead. Only the tests' set-up
// (tests/setup/platform-stand-in.ts) turns this on, before any test file replaces anything: a
// running portal never does, so that no fetch a server installs (Remix's `installGlobals` puts
// undici's in place after the build is imported) takes its calls off undici's request.

/** The process's fetch when the tests turned the stand-in on; undefined in a running portal. */
let startingFetch: typeof fetch | undefined;

/** Tests only: from now on a replaced process fetch stands in for the platform. */
export function followReplacedFetch(): void {
  startingFetch = globalThis.fetch;
}

/** The fetch that stands in for the platform, or null when there is none (always, in a running portal). */
export function platformStandIn(): typeof fetch | null {
  return startingFetch === undefined || globalThis.fetch === startingFetch ? null : globalThis.fetch;
}
