import { describe, expect, it } from 'vitest';
import { noShowTotals } from './no-shows';

describe('no-show totals', () => {
  it('sum the no-shows and rate them against the tickets booked and not cancelled', () => {
    expect(
      noShowTotals([
        { noShows: 1, noShowBase: 4 },
        { noShows: 0, noShowBase: 6 },
        { noShows: 2, noShowBase: 10 },
      ]),
    ).toEqual({ noShows: 3, noShowRate: 15 });
  });
  it('have no rate without tickets', () => {
    expect(noShowTotals([])).toEqual({ noShows: 0, noShowRate: null });
    expect(noShowTotals([{ noShows: 0, noShowBase: 0 }])).toEqual({ noShows: 0, noShowRate: null });
  });
});
