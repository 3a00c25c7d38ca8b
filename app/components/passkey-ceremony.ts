import { type RefObject, useCallback, useRef } from "react";

// The browser's side of a passkey ceremony (docs/decisions/101). The WebAuthn helpers are loaded
// only when a ceremony starts, so no page's first load carries them.

/** Options are asked again after this long: the platform's challenge lives five minutes. */
const OPTIONS_FRESH_MS = 4 * 60_000;

/** Whether this browser has the WebAuthn API (a secure context with PublicKeyCredential). */
export function passkeysSupported(): boolean {
  return typeof window !== "undefined" && window.isSecureContext && typeof window.PublicKeyCredential === "function";
}

/** Whether the browser can offer passkeys in a username field's autofill (conditional mediation). */
export async function autofillSupported(): Promise<boolean> {
  if (!passkeysSupported()) return false;
  const check = (window.PublicKeyCredential as { isConditionalMediationAvailable?: () => Promise<boolean> })
    .isConditionalMediationAvailable;
  try {
    return typeof check === "function" ? await check.call(window.PublicKeyCredential) : false;
  } catch {
    return false;
  }
}

export const loadWebAuthn = () => import("@simplewebauthn/browser");

/**
 * The portal could not give the ceremony's options (the platform failed, or the form expired), or
 * refused them: `refusal` is what its answer said (a field's message for a wrong current password,
 * decision 179).
 */
export class OptionsUnavailable extends Error {
  constructor(
    readonly status: number,
    readonly refusal: { fieldError?: string; messageKey?: string } | null = null,
  ) {
    super(`passkey options unavailable (${status})`);
    this.name = "OptionsUnavailable";
  }
}

/**
 * Asks the portal for a ceremony's options: a POST of the page's form (its CSRF token, and the
 * honeypot of an anonymous form) to the options route, answered as JSON.
 */
export async function fetchCeremonyOptions<T>(url: string, form: HTMLFormElement): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { method: "POST", body: new FormData(form), headers: { Accept: "application/json" } });
  } catch {
    throw new OptionsUnavailable(0);
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { fieldError?: unknown; messageKey?: unknown } | null;
    const text = (value: unknown) => (typeof value === "string" ? value : undefined);
    const refusal = { fieldError: text(body?.fieldError), messageKey: text(body?.messageKey) };
    throw new OptionsUnavailable(response.status, refusal.fieldError || refusal.messageKey ? refusal : null);
  }
  return (await response.json()) as T;
}

/**
 * A ceremony's options, asked ahead (so that the ceremony can start straight from the user's
 * click) and reused while fresh. `next` answers them, asking the options route with the form when
 * there are none; `spend` forgets them once a verification has used their challenge, or when
 * asking failed.
 */
export function useCeremonyOptions<T>(url: string, form: RefObject<HTMLFormElement | null>) {
  const cached = useRef<{ promise: Promise<T>; at: number } | null>(null);
  const next = useCallback((): Promise<T> => {
    if (!form.current) return Promise.reject(new OptionsUnavailable(0));
    if (cached.current && Date.now() - cached.current.at < OPTIONS_FRESH_MS) return cached.current.promise;
    const promise = fetchCeremonyOptions<T>(url, form.current);
    cached.current = { promise, at: Date.now() };
    promise.catch(() => {
      if (cached.current?.promise === promise) cached.current = null;
    });
    return promise;
  }, [url, form]);
  const spend = useCallback(() => {
    cached.current = null;
  }, []);
  return { next, spend };
}
