// spec 001 §7 portfolios, accounts, summaries, profit analysis, time series, positions, allocation
// and FX; §3 balance-sheet assets (docs/decisions/073-performance-endpoints.md, docs/platform-api.md
// "Portfolio"), one module per resource; their routes in the order the router tries them.
import type { Route } from "../router";
import { accountRoutes } from "./accounts";
import { assetRoutes } from "./assets";
import { benchmarkRoutes } from "./benchmarks";
import { gainsRoutes } from "./gains";
import { incomeRoutes } from "./income";
import { instructionRoutes } from "./instructions";
import { performanceRoutes } from "./performance";
import { positionRoutes } from "./positions";
import { transactionRoutes } from "./transactions";

export const portfolioRoutes: Route[] = [
  ...accountRoutes,
  ...performanceRoutes,
  ...benchmarkRoutes,
  ...transactionRoutes,
  ...incomeRoutes,
  ...gainsRoutes,
  ...instructionRoutes,
  ...assetRoutes,
  ...positionRoutes,
];
