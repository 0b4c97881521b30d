import { describe, expect, it } from 'vitest';
import { check } from '@rr/contracts/issues';
import { SeatsInput } from '@rr/contracts/seats';
import { refusedSeatErrors, refusesFile, seatErrorsOf } from './seat-plan-errors';

const refusal = (errors: { field: string; rule: string }[]) => ({
  status: 400,
  data: { error: 'validation__error', payload: [], errors },
});

describe('refused seats', () => {
  it('names the seat and field of a server refusal, a whole CSV row as `row`', () => {
    expect(
      refusedSeatErrors(
        refusal([
          { field: 'seats.12.label', rule: 'unique' },
          { field: 'seats.3', rule: 'invalid' },
          { field: 'seats.3.x', rule: 'no-such-rule' },
        ]),
      ),
    ).toEqual([
      { index: 3, field: 'row', error: { key: 'invalid' } },
      { index: 3, field: 'x', error: { key: 'invalid' } },
      { index: 12, field: 'label', error: { key: 'unique' } },
    ]);
    expect(refusedSeatErrors({ status: 409, data: { error: 'seat__taken' } })).toEqual([]);
  });

  it('tells a refused file from refused rows', () => {
    expect(refusesFile(refusal([{ field: 'csv', rule: 'required' }]))).toBe(true);
    expect(refusesFile(refusal([{ field: 'seats.0.label', rule: 'required' }]))).toBe(false);
  });

  it("names a label used twice as the browser's own check finds it", () => {
    const checked = check(SeatsInput, {
      seats: [
        { label: 'A1', x: 1, y: 1 },
        { label: 'a1', x: 2, y: 2 },
      ],
    });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(seatErrorsOf(checked.errors)).toEqual([
      { index: 1, field: 'label', error: { key: 'unique' } },
    ]);
  });
});
