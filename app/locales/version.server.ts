import { createHash } from "node:crypto";
import { resources } from "./resources";

/** Changes whenever a text changes, so browsers can cache /locales/* forever. */
export const localesVersion = createHash("sha256").update(JSON.stringify(resources)).digest("hex").slice(0, 12);
