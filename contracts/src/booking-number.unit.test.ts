import { describe, expect, it } from 'vitest';
import { isBookingNumber, isBookingNumberPart } from './booking-number.ts';

describe('booking numbers typed into a search', () => {
  it('tells a whole number from a part of one', () => {
    expect(isBookingNumber(' r-7k3qx2 ')).toBe(true);
    expect(isBookingNumber('7K3QX2')).toBe(false);
    for (const part of ['R-7', 'r-7k3', '7K3', 'k3qx2', 'QX2', 'ANNA'])
      expect(isBookingNumberPart(part), part).toBe(true);
    // Too short, letters never in a number (0, O, 1, I), a bare prefix, a whole name.
    for (const text of ['7K', 'R-', 'OTTO', 'Li1', 'Müller', 'R-7K3QX2X'])
      expect(isBookingNumberPart(text), text).toBe(false);
  });
});
