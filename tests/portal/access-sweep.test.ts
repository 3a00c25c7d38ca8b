import type { LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { accountGroups, accounts, digitalSignatures, documentAttachments } from "../../server/db/schema";
import { type Portal, startPortal, thrown } from "./portal-harness";

// The access-control sweep through the portal's own resource routes (issue 24 "Tests"; the platform's
// in tests/server/access-sweep.test.ts): every demo client who signs in with a password asks the
// portal for everyone else's attachment files, signature documents, report files and CSV downloads by
// id, and gets a 404 (403 where their site access has no such page) every time, while the owner gets their own.

vi.setConfig({ testTimeout: 120_000 });

type Loader = (args: LoaderFunctionArgs) => Promise<Response>;
type Client = {
  username: string;
  cookie: string;
  token: string;
  documents: Set<number>;
  signatures: Set<number>;
  accounts: Set<number>;
  groups: Set<string>;
  job: string | null;
};

const CLIENTS = ["demo.client", "demo.partner", "demo.assets", "demo.messages", "demo.factfind", "demo.robo"];

let portal: Portal;
const clients: Client[] = [];
const routes = {} as { file: Loader; signature: Loader; report: Loader; csv: Loader };

async function listed<T>(token: string, path: string): Promise<T> {
  const answer = await portal.platform.call<T>(path, { token });
  expect(answer.status, path).toBe(200);
  return answer.body;
}

beforeAll(async () => {
  portal = await startPortal();
  routes.file = (await import("~/routes/clients.documents-and-messages_.files.$documentId.$docpartid/route"))
    .loader as unknown as Loader;
  routes.signature = (await import("~/routes/clients.documents-and-messages_.signature-documents.$id/route"))
    .loader as unknown as Loader;
  routes.report = (await import("~/routes/clients.valuation-report_.jobs.$jobId_.report[.]pdf/route"))
    .loader as unknown as Loader;
  routes.csv = (await import("~/routes/clients.analysis_.download.$kind/route")).loader as unknown as Loader;
  for (const username of CLIENTS) {
    const token = await portal.platform.session(username);
    const cookie = await portal.signIn(username);
    const documents = await listed<Array<{ id: number }>>(token, "/resourceful/docnote-v2?page_size=100");
    const signatures = await listed<Array<{ id: number }>>(token, "/resourceful/digital_signature?page_size=100");
    const own = await listed<Array<{ accountid: number; group_code: string | null }>>(
      token,
      "/resourceful/portfolio/account",
    );
    const me = await listed<{ entity_id: number }>(token, "/resourceful/session/user");
    const run = await portal.platform.call<{ job_id: string }>("/resourceful/xmerge/valuation?_method=runasync", {
      method: "POST",
      token,
      body: { clientId: me.entity_id, variables: {} },
    });
    clients.push({
      username,
      cookie,
      token,
      documents: new Set(documents.map((d) => d.id)),
      signatures: new Set(signatures.map((s) => s.id)),
      accounts: new Set(own.map((a) => a.accountid)),
      groups: new Set(own.map((a) => a.group_code).filter((c): c is string => c !== null)),
      job: run.status === 202 ? run.body.job_id : null,
    });
  }
}, 120_000);
afterAll(() => portal?.close());

/** A loader's answer as a status: a thrown or returned Response. */
async function statusOf(loader: Loader, client: Client, path: string, params: Record<string, string>) {
  const request = new Request(`http://portal.test${path}`, { headers: { Cookie: client.cookie } });
  const response = await thrown(loader({ request, params, context: {} }));
  await response.arrayBuffer().catch(() => null);
  return response.status;
}

type Ask = { loader: Loader; path: string; params: Record<string, string> };

async function expectStatuses(client: Client, asks: Ask[], allowed: number[]) {
  const wrong: string[] = [];
  for (const ask of asks) {
    const status = await statusOf(ask.loader, client, ask.path, ask.params);
    if (!allowed.includes(status)) wrong.push(`${client.username} ${ask.path} → ${status}`);
  }
  expect(wrong).toEqual([]);
}

const fileAsk = (documentId: number, docpartid: number): Ask => ({
  loader: routes.file,
  path: `/clients/documents-and-messages/files/${documentId}/${docpartid}?confirm=1`,
  params: { documentId: String(documentId), docpartid: String(docpartid) },
});
const signatureAsk = (id: number): Ask => ({
  loader: routes.signature,
  path: `/clients/documents-and-messages/signature-documents/${id}?download=1`,
  params: { id: String(id) },
});
const reportAsk = (jobId: string): Ask => ({
  loader: routes.report,
  path: `/clients/valuation-report/jobs/${jobId}/report.pdf`,
  params: { jobId },
});
const csvAsk = (kind: "investments" | "allocation" | "transactions", id: string): Ask => ({
  loader: routes.csv,
  path: `/clients/analysis/download/${kind}?id=${encodeURIComponent(id)}`,
  params: { kind },
});

describe("the portal's resource routes refuse everyone else's items", () => {
  it("attachment files: the owner downloads theirs, everyone else 404", async () => {
    const parts = portal.platform.db.select().from(documentAttachments).all();
    expect(parts.length).toBeGreaterThan(0);
    for (const client of clients) {
      const mine = parts.filter((p) => client.documents.has(p.documentId));
      await expectStatuses(
        client,
        mine.slice(0, 3).map((p) => fileAsk(p.documentId, p.docpartid)),
        [200],
      );
      await expectStatuses(
        client,
        parts.filter((p) => !client.documents.has(p.documentId)).map((p) => fileAsk(p.documentId, p.docpartid)),
        [404],
      );
    }
    expect(clients.some((c) => parts.some((p) => c.documents.has(p.documentId)))).toBe(true);
  });

  it("signature documents: the signatory gets theirs, everyone else 404", async () => {
    const items = portal.platform.db
      .select({ id: digitalSignatures.id })
      .from(digitalSignatures)
      .all()
      .map((s) => s.id);
    for (const client of clients) {
      await expectStatuses(client, [...client.signatures].map(signatureAsk), [200]);
      await expectStatuses(client, items.filter((id) => !client.signatures.has(id)).map(signatureAsk), [404]);
    }
  });

  it("report files: the one who ran the report gets it, everyone else 404", async () => {
    const jobs = clients.filter((c) => c.job !== null);
    expect(jobs.length).toBeGreaterThan(2);
    // the owners' files once made (a report not ready sends its owner back to its page)
    for (const owner of jobs) {
      await expect
        .poll(() => statusOf(routes.report, owner, reportAsk(owner.job!).path, reportAsk(owner.job!).params), {
          timeout: 60_000,
        })
        .toBe(200);
    }
    for (const client of clients) {
      await expectStatuses(
        client,
        jobs.filter((o) => o !== client).map((o) => reportAsk(o.job!)),
        [403, 404],
      );
    }
  });

  it("CSV downloads: the owner's account and group give a file, anyone else's id 404", async () => {
    const allAccounts = portal.platform.db
      .select({ id: accounts.id })
      .from(accounts)
      .all()
      .map((a) => String(a.id));
    const allGroups = portal.platform.db
      .select({ code: accountGroups.groupCode })
      .from(accountGroups)
      .all()
      .map((g) => g.code);
    const owner = clients.find((c) => c.username === "demo.client")!;
    const mine = [...owner.accounts].map(String);
    expect(mine.length).toBeGreaterThan(0);
    // (an account the analysis view leaves out, decision 107, is a 404 for its owner too)
    const got = await Promise.all(
      mine.map((id) => statusOf(routes.csv, owner, csvAsk("transactions", id).path, { kind: "transactions" })),
    );
    expect(got.filter((status) => status === 200).length).toBeGreaterThanOrEqual(2);
    expect(got.every((status) => status === 200 || status === 404)).toBe(true);
    for (const client of clients) {
      const foreign = [
        ...allAccounts.filter((id) => !client.accounts.has(Number(id))),
        ...allGroups.filter((c) => !client.groups.has(c)),
      ];
      // 403 for a client whose site access has no analysis page at all
      await expectStatuses(
        client,
        foreign.flatMap((id) => [csvAsk("transactions", id), csvAsk("investments", id), csvAsk("allocation", id)]),
        [403, 404],
      );
    }
  });
});
