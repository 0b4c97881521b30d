import { describe, expect, it } from 'vitest';
import { validateForm } from '../../../lib/validation';
import {
  formValuesToHoliday,
  HOLIDAY_SCHEMA,
  holidayListPath,
  holidayListPathAt,
  holidayToFormValues,
} from './holiday-form';

describe('holiday form', () => {
  it('checks name, date and description (spec section 5)', () => {
    expect(validateForm({ name: ' ', date: '', description: '' }, HOLIDAY_SCHEMA)).toEqual({
      name: { key: 'required' },
      date: { key: 'required' },
    });
    expect(
      validateForm(
        { name: 'x'.repeat(101), date: '2026-02-30', description: 'y'.repeat(501) },
        HOLIDAY_SCHEMA,
      ),
    ).toEqual({
      name: { key: 'max-length', params: { max: 100 } },
      date: { key: 'date' },
      description: { key: 'max-length', params: { max: 500 } },
    });
    expect(
      validateForm({ name: 'Neujahr', date: '2026-01-01', description: '' }, HOLIDAY_SCHEMA),
    ).toEqual({});
  });

  it('leaves an empty description out of the payload', () => {
    expect(
      formValuesToHoliday({ name: ' Neujahr ', date: '2026-01-01', description: ' ' }),
    ).toEqual({ name: 'Neujahr', date: '2026-01-01' });
    expect(
      formValuesToHoliday({ name: 'Neujahr', date: '2026-01-01', description: 'Feiertag' }),
    ).toEqual({ name: 'Neujahr', date: '2026-01-01', description: 'Feiertag' });
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
