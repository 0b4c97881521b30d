import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../tests/support/db.ts';
import { positionOf, ReadModelsPosition, SharedAnswers } from './shared-answers.ts';

/** A query that answers what `value` held when it began, when the test lets it finish. */
function controlledQuery() {
  let value = 1;
  const pending: (() => void)[] = [];
  return {
    write: () => {
      value += 1;
    },
    finishAll: () => pending.splice(0).forEach((finish) => finish()),
    query: () => {
      const seen = String(value);
      return new Promise<string>((resolve) => pending.push(() => resolve(seen)));
    },
  };
}

describe('the read models position read for a crowd', () => {
  it('gives a caller a read that began after it asked, at most two under way', async () => {
    const q = controlledQuery();
    const reader = new ReadModelsPosition(q.query);
    const first = reader.read();
    // A write lands (and the gate saw it projected) while the first read is under way.
    q.write();
    const later = Array.from({ length: 50 }, () => reader.read());
    expect(reader.reads).toBe(1);
    q.finishAll();
    expect(await first).toBe('1');
    // The fifty began after the first read finished: they see the write, from one read.
    await Promise.resolve();
    q.finishAll();
    expect(new Set(await Promise.all(later))).toEqual(new Set(['2']));
    expect(reader.reads).toBe(2);
    // Nothing under way: the next caller starts a read of its own.
    const next = reader.read();
    expect(reader.reads).toBe(3);
    q.finishAll();
    expect(await next).toBe('2');
  });

  it('a failed read fails its callers only; those who came after it read afresh', async () => {
    let calls = 0;
    const reader = new ReadModelsPosition(() => {
      calls += 1;
      return calls === 1 ? Promise.reject(new Error('connection lost')) : Promise.resolve('p');
    });
    const [a, b] = [reader.read(), reader.read()];
    await expect(a).rejects.toThrow('connection lost');
    expect(await b).toBe('p');
    expect(await reader.read()).toBe('p');
    expect(calls).toBe(3);
  });
});

describe('answers shared by a crowd', () => {
  let db: TestDatabase;
  const CHECKPOINT = 'shared-answers-test';
  beforeAll(async () => {
    db = await createTestDatabase();
    await db.pool.query(`INSERT INTO projection_checkpoints (name) VALUES ($1)`, [CHECKPOINT]);
  });
  afterAll(async () => db.drop());

  const moveReadModels = () =>
    db.pool.query(`UPDATE projection_checkpoints SET last_gp = last_gp + 1 WHERE name = $1`, [
      CHECKPOINT,
    ]);

  it('computes once for a crowd while the read models stand still and within the time', async () => {
    const shared = new SharedAnswers<number>(1000);
    let computed = 0;
    const compute = () => Promise.resolve((computed += 1));
    const now = new Date('2026-11-23T09:00:00Z');
    const readsBefore = positionOf(db.pool).reads;
    const crowd = await Promise.all(
      Array.from({ length: 100 }, () => shared.get(db.pool, 'room', now, compute)),
    );
    expect(new Set(crowd)).toEqual(new Set([1]));
    expect(computed).toBe(1);
    // A hundred requests, two reads of the position (the first, and the one the rest share).
    expect(positionOf(db.pool).reads - readsBefore).toBe(2);

    // Another key is another answer.
    expect(await shared.get(db.pool, 'other room', now, compute)).toBe(2);
    // A write moves the position: computed afresh.
    await moveReadModels();
    expect(await shared.get(db.pool, 'room', now, compute)).toBe(3);
    expect(await shared.get(db.pool, 'room', new Date(now.getTime() + 999), compute)).toBe(3);
    // The clock passes the time an answer is shared (holds end by time, not by a write).
    expect(await shared.get(db.pool, 'room', new Date(now.getTime() + 1000), compute)).toBe(4);
  });

  it('a failed computation is not kept; off with no time', async () => {
    const shared = new SharedAnswers<string>(1000);
    const now = new Date('2026-11-23T09:00:00Z');
    await expect(
      shared.get(db.pool, 'room', now, () => Promise.reject(new Error('no room'))),
    ).rejects.toThrow('no room');
    expect(await shared.get(db.pool, 'room', now, () => Promise.resolve('found'))).toBe('found');

    const off = new SharedAnswers<number>(0);
    let computed = 0;
    const readsBefore = positionOf(db.pool).reads;
    await Promise.all(
      [1, 2, 3].map(() => off.get(db.pool, 'room', now, () => Promise.resolve(++computed))),
    );
    expect(computed).toBe(3);
    expect(positionOf(db.pool).reads).toBe(readsBefore);
  });
});
