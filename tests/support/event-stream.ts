import http from 'node:http';

/** One server-sent event: its name and its data, parsed as JSON. */
export interface StreamEvent {
  event: string;
  data: unknown;
}

/** An open event stream (text/event-stream) as a browser's EventSource reads it. */
export interface EventStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The events received so far, in order (comment lines are not events). */
  events: StreamEvent[];
  /** Comment lines received so far (the heartbeat). */
  comments: number;
  /** The answer's body when it was no stream (a problem). */
  body(): Promise<string>;
  /** Resolves once an event matches (or rejects after `timeoutMs`). */
  next(match: (e: StreamEvent) => boolean, timeoutMs: number): Promise<StreamEvent>;
  /** Whether the server ended the stream. */
  ended: boolean;
  /** Closes the connection, as a browser leaving the page. */
  close(): void;
}

/**
 * Opens an event stream on its own connection (as each browser has its own), resolving once the
 * answer's headers came.
 */
export function openEventStream(url: string): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: { Accept: 'text/event-stream' } }, (res) => {
      const waiting = new Set<() => void>();
      let buffer = '';
      let raw = '';
      const stream: EventStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        events: [],
        comments: 0,
        ended: false,
        body: () =>
          new Promise((done) => {
            if (stream.ended) done(raw);
            else res.once('end', () => done(raw));
          }),
        next: (match, timeoutMs) =>
          new Promise((done, fail) => {
            const check = () => {
              const found = stream.events.find(match);
              if (!found) return;
              waiting.delete(check);
              clearTimeout(timer);
              done(found);
            };
            const timer = setTimeout(() => {
              waiting.delete(check);
              fail(new Error(`no matching event within ${timeoutMs} ms (${raw.slice(0, 500)})`));
            }, timeoutMs);
            waiting.add(check);
            check();
          }),
        close: () => req.destroy(),
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        raw += chunk;
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) stream.comments += 1;
            else if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length)
            stream.events.push({ event, data: JSON.parse(data.join('\n')) as unknown });
        }
        for (const check of [...waiting]) check();
      });
      res.on('end', () => (stream.ended = true));
      res.on('error', () => (stream.ended = true));
      resolve(stream);
    });
    req.on('error', reject);
  });
}
