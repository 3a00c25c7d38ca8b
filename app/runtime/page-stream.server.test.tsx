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

/**
 * The pieces a render passes on through the stream, and the whole text. The stream is made once the
 * shell has rendered, as entry.server makes it, with the title's prefix known then.
 */
function pieces(
  node: React.ReactNode,
  ready: "onShellReady" | "onAllReady" = "onShellReady",
  titlePrefix: () => string | null = () => null,
): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const { pipe } = renderToPipeableStream(node, {
      [ready]() {
        const body = new PageBodyStream(titlePrefix());
        const seen: Buffer[] = [];
        body.on("data", (chunk: Buffer) => seen.push(chunk));
        body.on("end", () => resolve(seen));
        body.on("error", reject);
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

  // Issue 40 (docs/decisions/194): a page that shows errors says so first in its title. The head is
  // written before the body that holds the error summary; the title gets its prefix on the way out.
  describe("the title of a page that shows errors", () => {
    function Page({ errors, text }: { errors: boolean; text?: string }) {
      return (
        <html lang="en-GB">
          <head>
            <title>Change password | Client Online</title>
          </head>
          <body>
            {errors ? <div className="error-summary">There is a problem</div> : null}
            <h1>Change password</h1>
            {text ? <p>{text}</p> : null}
            <Rows count={100} />
          </body>
        </html>
      );
    }

    it("starts with the prefix when the shell holds an error summary, and only the first title", async () => {
      const seen = await pieces(<Page errors />, "onShellReady", () => "Error: ");
      const text = Buffer.concat(seen).toString("utf8");
      expect(text).toContain("<title>Error: Change password | Client Online</title>");
      expect(text.match(/Error: /g)).toHaveLength(1);
    });

    it("is left as it is when the page shows no error summary", async () => {
      const seen = await pieces(<Page errors={false} />, "onShellReady", () => "Error: ");
      expect(Buffer.concat(seen).toString("utf8")).toContain("<title>Change password | Client Online</title>");
    });

    it("is left as it is when the summary's markup is only text of the page", async () => {
      const seen = await pieces(
        <Page errors={false} text='<div class="error-summary">' />,
        "onShellReady",
        () => "Error: ",
      );
      expect(Buffer.concat(seen).toString("utf8")).toContain("<title>Change password | Client Online</title>");
    });

    it("takes the prefix as text (a translation cannot write markup)", async () => {
      const seen = await pieces(<Page errors />, "onShellReady", () => "<b>Erreur</b> & : ");
      expect(Buffer.concat(seen).toString("utf8")).toContain(
        "<title>&lt;b&gt;Erreur&lt;/b&gt; &amp; : Change password | Client Online</title>",
      );
    });
  });
});
