import { useEffect, useState } from "react";
import { useTranslation } from "~/components/translation";
import styles from "./download-progress.css";

/** The spinner's stylesheet, for the links of a route that shows it. */
export const downloadProgressStyles = styles;

/** spec 002 §4 "Attachment download" and §9: the spinner shows for 3 seconds after Download. */
export const DOWNLOAD_SPINNER_MS = 3_000;

/**
 * Whether the download spinner shows: `start()` turns it on, and it turns itself off after
 * DOWNLOAD_SPINNER_MS, then calls `onDone` (the dialog closes then). Only ever on once
 * JavaScript runs: without it the browser's own download indicator is the feedback.
 */
export function useDownloadSpinner(onDone?: () => void) {
  const [downloading, setDownloading] = useState(false);
  useEffect(() => {
    if (!downloading) return;
    const timer = window.setTimeout(() => {
      setDownloading(false);
      onDone?.();
    }, DOWNLOAD_SPINNER_MS);
    return () => window.clearTimeout(timer);
  }, [downloading, onDone]);
  return { downloading, start: () => setDownloading(true) };
}

/** The spinner with its text, announced politely; the region is always there so it is heard. */
export function DownloadProgress({ downloading, filename }: { downloading: boolean; filename: string }) {
  const { t } = useTranslation("messages");
  return (
    <p role="status" className="download-progress">
      {downloading ? (
        <>
          <span className="spinner" aria-hidden="true" />
          {t("download.inProgress", { filename })}
        </>
      ) : null}
    </p>
  );
}
