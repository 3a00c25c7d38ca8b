// Before any test file replaces the process's fetch: the planning client then knows a replaced one
// for a stand-in for the platform (app/planning/platform-stand-in.server.ts).
import "~/planning/platform-stand-in.server";
