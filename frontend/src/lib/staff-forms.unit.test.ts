import { describe, expect, it } from 'vitest';
import { WEEKDAYS } from './calendar';
import { toggled } from './staff-forms';

describe('a choice of several checkboxes', () => {
  it('adds and removes one item and keeps the order of all of them, whatever the clicks', () => {
    expect(toggled(WEEKDAYS, ['FRIDAY'], 'MONDAY', true)).toEqual(['MONDAY', 'FRIDAY']);
    expect(toggled(WEEKDAYS, ['MONDAY', 'FRIDAY'], 'MONDAY', false)).toEqual(['FRIDAY']);
    expect(toggled(WEEKDAYS, ['MONDAY'], 'MONDAY', true)).toEqual(['MONDAY']);
    expect(toggled(WEEKDAYS, [], 'SUNDAY', false)).toEqual([]);
  });
});
