import { START, type EventStore, type Position, type RecordedEvent } from '@rr/events';

/**
 * Reads the log after `after`, page by page, until at least `n` events have been read. The
 * gap-safe read (readAll) holds back events while any older transaction in the cluster is open,
 * and the cluster is shared with the other test files running meanwhile, so committed events may
 * take a moment to show up there. Gives up after `timeoutMs` and answers what it read.
 */
export async function readVisible(
  store: EventStore,
  n: number,
  after: Position = START,
  page = 1000,
  timeoutMs = 20_000,
): Promise<RecordedEvent[]> {
  const deadline = Date.now() + timeoutMs;
  const all: RecordedEvent[] = [];
  let from = after;
  while (all.length < n && Date.now() <= deadline) {
    const batch = await store.readAll(from, page);
    if (batch.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      continue;
    }
    all.push(...batch);
    from = batch[batch.length - 1]!.position;
  }
  return all;
}
