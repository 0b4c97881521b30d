import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SeatsInput } from '@rr/contracts/seats';
import { fromContract } from './contract-schema.ts';
import { seatsCsv, seatsFromCsv, type SeatAnswer } from './seat-plans.ts';

const seats: SeatAnswer[] = [
  {
    id: '00000000-0000-4000-8000-000000000001',
    label: '=A1',
    zone: 'North; "gallery"',
    attributes: ['power', 'window'],
    notes: 'line\u00e4',
    x: 12.5,
    y: 0,
    rotation: 345,
  },
];

describe('seats.csv', () => {
  it('reads back what it writes (the formula guard and quoting undone)', () => {
    const read = seatsFromCsv(Buffer.from(seatsCsv(seats)), 2000);
    expect(read).toEqual({
      ok: true,
      seats: [
        {
          label: '=A1',
          zone: 'North; "gallery"',
          attributes: ['power', 'window'],
          notes: 'line\u00e4',
          x: 12.5,
          y: 0,
          rotation: 345,
        },
      ],
    });
  });

  it('never throws: any bytes are seats to check or errors naming the file or a seat', () => {
    const SeatsBody = fromContract(SeatsInput);
    const anyText = fc.oneof(
      fc.uint8Array({ maxLength: 400 }).map((b) => Buffer.from(b)),
      fc
        .array(
          fc.array(fc.oneof(fc.string(), fc.constantFrom('label', 'x', 'y', '1', '"')), {
            maxLength: 8,
          }),
          {
            maxLength: 8,
          },
        )
        .map((rows) => Buffer.from(rows.map((r) => r.join(';')).join('\n'))),
    );
    fc.assert(
      fc.property(anyText, (bytes) => {
        const read = seatsFromCsv(bytes, 2000);
        if (!read.ok) {
          expect(read.errors.length).toBeGreaterThan(0);
          for (const e of read.errors) expect(e.field).toMatch(/^(csv|seats\.\d+)$/);
        } else SeatsBody.safeParse({ seats: read.seats });
      }),
      { numRuns: 500 },
    );
  });
});
