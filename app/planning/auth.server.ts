import { setCookiesOf } from "~/lib/set-cookies";
import { createPlanningClient } from "./client.server";

/** The XPLANID session from the platform's Set-Cookie headers. */
export function platformTokenFrom(headers: Headers): string | null {
  for (const cookie of setCookiesOf(headers)) {
    const match = /^XPLANID=([^;]+)/.exec(cookie);
    if (match?.[1]) return decodeURIComponent(match[1]);
  }
  return null;
}

/** DELETE /resourceful/session: the platform forgets the session, so a replayed cookie gets nothing. */
export async function logout(token: string): Promise<void> {
  await createPlanningClient({ token }).delete("resourceful/session", { retry: false });
}
