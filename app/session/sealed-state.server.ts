import { createCookie } from "@remix-run/node";
import type { z } from "zod";
import { env } from "~/runtime/env.server";
import { cookieScope } from "./cookie-name.server";
import { seal, unseal } from "./crypto.server";

/**
 * Where a multi-step form is between its posts, in a short-lived HttpOnly cookie of its own, sealed
 * with AES-256-GCM and scoped to the form's path: what a step needs (a reference, a device id, a
 * token secret) never reaches a hidden field or the URL. A cookie that does not open or does not
 * match the schema reads as no state.
 */
export function sealedState<Schema extends z.ZodTypeAny>(
  name: string,
  options: { path: string; maxAgeSeconds: number },
  schema: Schema,
) {
  const scope = cookieScope(name, options.path);
  const cookie = createCookie(scope.name, {
    path: scope.path,
    httpOnly: true,
    sameSite: "lax",
    secure: env.cookieSecure,
    maxAge: options.maxAgeSeconds,
    secrets: env.sessionSecrets,
  });
  return {
    async read(request: Request): Promise<z.output<Schema> | null> {
      const sealed: unknown = await cookie.parse(request.headers.get("Cookie"));
      if (typeof sealed !== "string" || !sealed) return null;
      const plain = unseal(sealed);
      if (!plain) return null;
      try {
        const parsed = schema.safeParse(JSON.parse(plain));
        return parsed.success ? (parsed.data as z.output<Schema>) : null;
      } catch {
        return null;
      }
    },
    commit(state: z.input<Schema>): Promise<string> {
      return cookie.serialize(seal(JSON.stringify(state)));
    },
    clear(): Promise<string> {
      return cookie.serialize("", { maxAge: 0 });
    },
  };
}
