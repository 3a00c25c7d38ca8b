import { redirect } from "@remix-run/node";

// spec 002 §2: /core/review is the annual review's address among the core pages; the review is the
// clients section's page (docs/decisions/096).
export function loader() {
  return redirect("/clients/annual-review");
}
