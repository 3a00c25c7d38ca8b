// spec 002 §2 documents and messages, §4 reading, sending and attachment download, §5 compose, §7
// (docs/platform-api.md "Documents and messages"), one module per resource; their routes in the
// order the router tries them (the fixed paths before `:id`).
import type { Route } from "../router";
import { documentRoutes } from "./documents";
import { emailRoutes } from "./email";
import { allowanceRoute, fileRoutes } from "./files";

export const docnoteRoutes: Route[] = [allowanceRoute, ...documentRoutes, ...fileRoutes, ...emailRoutes];
