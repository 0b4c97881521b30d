import { describe, expect, it } from 'vitest';
import { errorsOf } from '../../../lib/form-check';
import {
  checkHolidayForm,
  holidayListPath,
  holidayListPathAt,
  holidayToFormValues,
} from './holiday-form';

describe('holiday form', () => {
  it('checks name, date and description (docs/product.md#validation)', () => {
    expect(errorsOf(checkHolidayForm({ name: ' ', date: '', description: '' }))).toEqual({
      name: { key: 'required' },
      date: { key: 'required' },
    });
    expect(
      errorsOf(
        checkHolidayForm({
          name: 'x'.repeat(101),
          date: '2026-02-30',
          description: 'y'.repeat(501),
        }),
      ),
    ).toEqual({
      name: { key: 'max-length', params: { max: 100 } },
      date: { key: 'date' },
      description: { key: 'max-length', params: { max: 500 } },
    });
    expect(
      errorsOf(checkHolidayForm({ name: 'Neujahr', date: '2026-01-01', description: '' })),
    ).toEqual({});
  });

  it('leaves an empty description out of the payload', () => {
    expect(checkHolidayForm({ name: ' Neujahr ', date: '2026-01-01', description: ' ' })).toEqual({
      ok: true,
      data: { name: 'Neujahr', date: '2026-01-01' },
    });
    expect(
      checkHolidayForm({ name: 'Neujahr', date: '2026-01-01', description: 'Feiertag' }),
    ).toEqual({ ok: true, data: { name: 'Neujahr', date: '2026-01-01', description: 'Feiertag' } });
  });

  it('fills the form from a holiday', () => {
    expect(
      holidayToFormValues({ id: 'h', version: 1, name: 'Neujahr', date: '2026-01-01' }),
    ).toEqual({ name: 'Neujahr', date: '2026-01-01', description: '' });
  });

  it('links to the list at a year', () => {
    expect(holidayListPath()).toBe('/holiday-list');
    expect(holidayListPath(2027)).toBe('/holiday-list?year=2027');
    expect(holidayListPathAt('2026-12-24')).toBe('/holiday-list?year=2026');
  });
});
