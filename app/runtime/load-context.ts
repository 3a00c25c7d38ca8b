import type { AppLoadContext } from "@remix-run/node";

// What the portal's server (scripts/portal-server.mjs) gives every loader and action as `context`.
// Declared on Remix's AppLoadContext so that routes see it typed, without knowing the server.
declare module "@remix-run/node" {
  interface AppLoadContext {
    /**
     * The address at the other end of the connection: the client itself, or the nearest reverse
     * proxy. Absent only where there is no connection (a loader or action called by a test).
     */
    socketAddress?: string;
  }
}

export type PortalLoadContext = AppLoadContext;
