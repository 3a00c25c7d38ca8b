import { createCookieSessionStorage, redirect } from "@remix-run/node";
import { z } from "zod";
import type { Toast } from "~/lib/toast";
import { env } from "~/runtime/env.server";
import { cookieName } from "./cookie-name.server";
import { createSealedCookie } from "./sealed-cookie.server";

// Flash messages (toasts) travel in their own cookie, read and cleared by the root loader.
export const ToastSchema: z.ZodType<Toast, z.ZodTypeDef, unknown> = z.object({
  type: z.enum(["success", "error", "info"]).default("success"),
  /** i18n key (namespace:key) of the title, or a ready text. */
  title: z.string(),
  description: z.string().optional(),
});

// Sealed (docs/decisions/113): a toast can name what the user did (a signed document's title).
const toastStorage = createCookieSessionStorage({
  cookie: createSealedCookie(
    cookieName("__toast"),
    { httpOnly: true, sameSite: "lax", path: "/", secure: env.cookieSecure },
    "toast",
  ),
});

export async function toastCookie(toast: Toast): Promise<string> {
  const session = await toastStorage.getSession();
  session.flash("toast", toast);
  return toastStorage.commitSession(session);
}

export async function redirectWithToast(url: string, toast: Toast, init?: ResponseInit): Promise<Response> {
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await toastCookie(toast));
  return redirect(url, { ...init, headers });
}

/** The pending toast, and the Set-Cookie that clears it. */
export async function readToast(request: Request): Promise<{ toast: Toast | null; headers: Headers }> {
  const session = await toastStorage.getSession(request.headers.get("Cookie"));
  const pending = session.has("toast");
  const parsed = ToastSchema.safeParse(session.get("toast"));
  const headers = new Headers();
  if (pending) headers.append("Set-Cookie", await toastStorage.destroySession(session));
  return { toast: parsed.success ? parsed.data : null, headers };
}
