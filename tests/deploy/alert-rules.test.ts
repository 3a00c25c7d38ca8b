import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { observePortal, registry as portalRegistry, serveMetrics } from "../../app/runtime/metrics.server";
import { AUTH_STEPS, type AuthOutcome } from "../../server/lib/auth-log";
import { observePlatform, registry as platformRegistry } from "../../server/lib/metrics";

// ASVS 4.0.3 V8.1.4, V11.1.7, V11.1.8 (docs/decisions/190): the alert rules shipped in
// deploy/prometheus/alerts.yml are well-formed, and every figure they name is one the portal's or
// the platform's /metrics really serves, with the labels and label values the rules match on. A
// renamed metric or label would otherwise leave an alert that never fires.

const RULES_FILE = new URL("../../deploy/prometheus/alerts.yml", import.meta.url);

type Rule = {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
};
const document = parse(readFileSync(RULES_FILE, "utf8")) as { groups: { name: string; rules: Rule[] }[] };
const rules = document.groups.flatMap((group) => group.rules);

/** PromQL's words that are not metric names (aggregations and functions are told by their "("). */
const KEYWORDS = new Set([
  "by",
  "without",
  "on",
  "ignoring",
  "group_left",
  "group_right",
  "and",
  "or",
  "unless",
  "bool",
  "offset",
]);
const GROUPING = /\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g;
/** Labels Prometheus itself gives every series: the scrape target's. */
const TARGET_LABELS = ["job", "instance"];

/** The metric names an expression selects: its identifiers, less functions, keywords, labels and numbers. */
function metricNames(expr: string): string[] {
  const text = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, " ")
    .replace(/\[[^\]]*\]/g, " ")
    .replace(GROUPING, " ");
  const names: string[] = [];
  for (const match of text.matchAll(/(?<![\w:.])[A-Za-z_:][\w:]*/g)) {
    const after = text.slice(match.index + match[0].length).trimStart();
    if (after.startsWith("(") || KEYWORDS.has(match[0])) continue;
    names.push(match[0]);
  }
  return names;
}

/** Each `metric{…}` selector's label matchers. */
function selectors(expr: string) {
  return [...expr.matchAll(/([A-Za-z_:][\w:]*)\{([^}]*)\}/g)].map(([, metric, body]) => ({
    metric: metric!,
    matchers: [...body!.matchAll(/(\w+)\s*(=~|!~|!=|=)\s*"([^"]*)"/g)].map(([, label, op, value]) => ({
      label: label!,
      op: op!,
      value: value!,
    })),
  }));
}

const OUTCOMES: AuthOutcome[] = ["success", "failure", "locked", "refused", "error"];
const CALL_OUTCOMES = ["ok", "3xx", "4xx", "5xx", "timeout", "network_error"];

/** What the two /metrics endpoints serve: each series name, and each metric's labels. */
const served = new Map<string, string[]>();
const servers: Server[] = [];

async function scrape(registry: typeof portalRegistry) {
  const server = await serveMetrics(registry, { port: 0, host: "127.0.0.1" });
  servers.push(server);
  const text = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`).then((r) => r.text());
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    const metric = registry.getSingleMetric(name!) as unknown as { labelNames?: readonly string[] } | undefined;
    const labels = [...(metric?.labelNames ?? [])];
    if (type === "histogram") {
      served.set(`${name}_bucket`, [...labels, "le"]);
      for (const suffix of ["_sum", "_count"]) served.set(`${name}${suffix}`, labels);
    } else served.set(name!, labels);
  }
}

beforeAll(async () => {
  observePortal({ routes: {}, assets: { version: "test" } });
  observePlatform("0.0.0");
  await scrape(portalRegistry);
  await scrape(platformRegistry);
});
afterAll(() => {
  for (const server of servers) server.close();
});

describe("the alert rules' file", () => {
  it("holds named groups of alerts, each with an expression, a severity and words for the person paged", () => {
    expect(document.groups.length).toBeGreaterThan(0);
    expect(new Set(document.groups.map((g) => g.name)).size).toBe(document.groups.length);
    const names = rules.map((rule) => rule.alert);
    expect(new Set(names).size).toBe(names.length);
    for (const rule of rules) {
      expect(rule.alert, JSON.stringify(rule)).toMatch(/^ClientOnline[A-Z]\w+$/);
      expect(typeof rule.expr).toBe("string");
      if (rule.for !== undefined) expect(rule.for).toMatch(/^\d+[smhdw]$/);
      expect(["warning", "critical"]).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary).toBeTruthy();
      expect(rule.annotations?.description).toBeTruthy();
      // brackets and parentheses balance
      let depth = 0;
      for (const char of rule.expr.replace(/"(?:[^"\\]|\\.)*"/g, "")) {
        depth += "({[".includes(char) ? 1 : ")}]".includes(char) ? -1 : 0;
        expect(depth, rule.alert).toBeGreaterThanOrEqual(0);
      }
      expect(depth, rule.alert).toBe(0);
    }
  });

  it("watches refusals, authentication failures, lockouts, access refusals, request numbers and errors", () => {
    const named = new Set(rules.flatMap((rule) => metricNames(rule.expr)));
    for (const metric of [
      "portal_rate_limit_refusals_total",
      "platform_auth_decisions_total",
      "platform_auth_lockouts_total",
      "platform_http_requests_total",
      "portal_http_requests_total",
      "portal_platform_call_duration_seconds_count",
    ]) {
      expect(named).toContain(metric);
    }
  });
});

describe("the figures the rules name", () => {
  it("are served by the portal's or the platform's /metrics (or are Prometheus's own `up`)", () => {
    expect(served.size).toBeGreaterThan(20);
    for (const rule of rules) {
      const names = metricNames(rule.expr);
      expect(names.length, rule.alert).toBeGreaterThan(0);
      for (const name of names) {
        if (name === "up") continue;
        expect(served.has(name), `${rule.alert}: ${name} is not served`).toBe(true);
      }
    }
  });

  it("are matched on labels they carry, and on values those labels take", () => {
    const steps = new Set(Object.values(AUTH_STEPS));
    for (const rule of rules) {
      for (const { metric, matchers } of selectors(rule.expr)) {
        const labels = metric === "up" ? [] : (served.get(metric) ?? []);
        for (const { label, op, value } of matchers) {
          expect([...labels, ...TARGET_LABELS], `${rule.alert}: ${metric} has no label ${label}`).toContain(label);
          const values = value.split("|");
          if (metric === "platform_auth_decisions_total" && label === "step") {
            for (const step of values) expect(steps, `${rule.alert}: no step ${step}`).toContain(step);
          }
          if (metric === "platform_auth_decisions_total" && label === "outcome") {
            for (const outcome of values) expect(OUTCOMES, `${rule.alert}: no outcome ${outcome}`).toContain(outcome);
          }
          if (metric.startsWith("portal_platform_call_duration_seconds") && label === "outcome") {
            for (const outcome of values)
              expect(CALL_OUTCOMES, `${rule.alert}: no outcome ${outcome}`).toContain(outcome);
          }
          if (label === "status" && op.includes("~")) expect(value).toMatch(/^[\d.|]+$/);
        }
      }
      // the labels of `by (…)` exist on a metric of the expression
      const available = new Set([
        ...TARGET_LABELS,
        ...metricNames(rule.expr).flatMap((name) => served.get(name) ?? []),
      ]);
      for (const [, list] of rule.expr.matchAll(GROUPING)) {
        for (const label of list!
          .split(",")
          .map((l) => l.trim())
          .filter(Boolean)) {
          expect(available, `${rule.alert}: by ${label}`).toContain(label);
        }
      }
    }
  });

  it("are told apart from functions, keywords, label matchers and numbers", () => {
    expect(
      metricNames(
        'histogram_quantile(0.95, sum by (le) (rate(a_bucket{x=~"5.."}[5m]))) > 2e3 and b offset 1w unless on(job) up == 0',
      ),
    ).toEqual(["a_bucket", "b", "up"]);
  });
});
