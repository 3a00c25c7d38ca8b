import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getPortalSession } from "~/session/session.server";

// spec 000 §2 "Index routing": a client goes to /clients, an adviser to /advisers, anyone else to login.
export async function loader({ request }: LoaderFunctionArgs) {
  const session = await getPortalSession(request);
  if (!session) return redirect("/login");
  return redirect(session.user.role === "User" ? "/advisers" : "/clients");
}
