import { useEffect, useRef, useState } from 'react';
import { resolveApiUrl } from './url';

/** After the server refused the stream (too many open, or an error), the page polls this long. */
const REOPEN_AFTER_MS = 60_000;

const positionIn = (data: string): string | null => {
  try {
    const parsed = JSON.parse(data) as { position?: unknown };
    return typeof parsed.position === 'string' ? parsed.position : null;
  } catch {
    return null;
  }
};

/**
 * Follows the live availability of a room's month (`GET rooms/{id}/availability/stream`, server-
 * sent events) while the page shows it, calling `onChange` with the position of the server's read
 * models on each change and when the stream (re)opens (anything may have changed meanwhile): a
 * read of the month sent with it as X-Min-Position sees the change. Answers whether the stream is
 * open now: while it is not (no EventSource, an error, the server refused it), the page reads the
 * month as it did without it. Closed when the room or the month changes or the page is left;
 * reopened a minute after the server refused it.
 */
export function useLiveAvailability(
  baseApiUrl: string,
  roomId: string,
  month: string,
  onChange: (position: string) => void,
): boolean {
  return useLiveStream(
    baseApiUrl,
    roomId ? `rooms/${encodeURIComponent(roomId)}/availability/stream?month=${month}` : null,
    onChange,
  );
}

/**
 * Follows a stream of live availability (`path` within the API; null: none) as
 * `useLiveAvailability` does a room's month: the foyer display's stream is another.
 */
export function useLiveStream(
  baseApiUrl: string,
  path: string | null,
  onChange: (position: string) => void,
): boolean {
  const [live, setLive] = useState(false);
  // The latest callback, without reopening the stream on every render.
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  });
  useEffect(() => {
    if (path === null || typeof EventSource === 'undefined') return undefined;
    const url = resolveApiUrl(baseApiUrl, path);
    let source: EventSource | null = null;
    let reopen: number | undefined;
    const open = () => {
      const current = new EventSource(url);
      source = current;
      current.addEventListener('ready', (event) => {
        setLive(true);
        const position = positionIn((event as MessageEvent<string>).data);
        if (position !== null) latest.current(position);
      });
      current.addEventListener('availability', (event) => {
        const position = positionIn((event as MessageEvent<string>).data);
        if (position !== null) latest.current(position);
      });
      current.addEventListener('error', () => {
        setLive(false);
        // Refused (an HTTP error): the browser does not try again by itself.
        if (current.readyState === EventSource.CLOSED)
          reopen = window.setTimeout(open, REOPEN_AFTER_MS);
      });
    };
    open();
    return () => {
      window.clearTimeout(reopen);
      source?.close();
      setLive(false);
    };
  }, [baseApiUrl, path]);
  return live;
}
