import { Suspense } from "react";
import { renderToPipeableStream, renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PageBodyStream } from "./page-stream.server";

// docs/decisions/132: React writes a page in 2 KiB pieces; the answer gets one piece per flush.

function Rows({ count }: { count: number }) {
  return (
    <ul>
      {Array.from({ length: count }, (_, i) => (
        <li key={i}>{`Row ${i}: a line of text long enough to fill the renderer's views quickly`}</li>
      ))}
    </ul>
  );
}

/** The pieces a render passes on through the stream, and the whole text. */
function pieces(node: React.ReactNode, ready: "onShellReady" | "onAllReady" = "onShellReady"): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const body = new PageBodyStream();
    const seen: Buffer[] = [];
    body.on("data", (chunk: Buffer) => seen.push(chunk));
    body.on("end", () => resolve(seen));
    body.on("error", reject);
    const { pipe } = renderToPipeableStream(node, {
      [ready]() {
        pipe(body);
      },
      onShellError: reject,
    });
  });
}

describe("a page's body", () => {
  it("reaches the answer in one piece when React writes it in many", async () => {
    const page = <Rows count={500} />;
    const seen = await pieces(page);
    const text = Buffer.concat(seen).toString("utf8");
    expect(text).toBe(renderToStaticMarkup(page));
    expect(text.length).toBeGreaterThan(20 * 2048);
    expect(seen).toHaveLength(1);
  });

  it("still streams: what a Suspense boundary shows later comes in a piece of its own", async () => {
    // React 18's way to wait in a render: throw a promise until the value is there.
    let shown: string | null = null;
    let show!: () => void;
    const later = new Promise<void>((resolve) => (show = resolve));
    function Later() {
      if (shown === null) throw later;
      return <p>{shown}</p>;
    }
    const done = pieces(
      <main>
        <Rows count={200} />
        <Suspense fallback={<p>Loading</p>}>
          <Later />
        </Suspense>
      </main>,
    );
    setTimeout(() => {
      shown = "Shown after the shell";
      show();
    }, 20);
    const seen = await done;
    expect(seen).toHaveLength(2);
    expect(seen[0]!.toString("utf8")).toContain("Loading");
    expect(seen[0]!.toString("utf8")).not.toContain("Shown after the shell");
    expect(seen[1]!.toString("utf8")).toContain("Shown after the shell");
  });
});
