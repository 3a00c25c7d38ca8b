import { useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";

/** The root loader's data for the shell; undefined when the root loader itself failed. */
export function useShellData() {
  return useRouteLoaderData<typeof rootLoader>("root");
}

export type ShellData = NonNullable<ReturnType<typeof useShellData>>;
export type ShellUser = NonNullable<ShellData["user"]>;

export const FALLBACK_LOGO = "/brand/logo.svg";
