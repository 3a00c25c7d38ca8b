// Before any test file replaces the process's fetch: the planning client then takes a replaced one
// for a stand-in for the platform (app/planning/platform-stand-in.server.ts).
import { followReplacedFetch } from "~/planning/platform-stand-in.server";

followReplacedFetch();
