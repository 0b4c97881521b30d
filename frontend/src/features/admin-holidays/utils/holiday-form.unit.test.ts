import { describe, expect, it } from 'vitest';
import { errorsOf } from '../../../lib/form-check';
import {
  checkHolidayForm,
  HOLIDAY_FORM_DEFAULTS,
  holidayListPath,
  holidayListPathAt,
  holidayToFormValues,
  type HolidayFormValues,
} from './holiday-form';

/** The form's values: the given ones, the others empty. */
const values = (given: Partial<HolidayFormValues>): HolidayFormValues => ({
  ...HOLIDAY_FORM_DEFAULTS,
  ...given,
});

describe('holiday form', () => {
  it('checks name, date and description (docs/product.md#validation)', () => {
    expect(errorsOf(checkHolidayForm(values({ name: ' ', date: '', description: '' })))).toEqual({
      name: { key: 'required' },
      date: { key: 'required' },
    });
    expect(
      errorsOf(
        checkHolidayForm(
          values({
            name: 'x'.repeat(101),
            nameEn: 'x'.repeat(101),
            date: '2026-02-30',
            description: 'y'.repeat(501),
            descriptionEn: 'y'.repeat(501),
          }),
        ),
      ),
    ).toEqual({
      name: { key: 'max-length', params: { max: 100 } },
      nameEn: { key: 'max-length', params: { max: 100 } },
      date: { key: 'date' },
      description: { key: 'max-length', params: { max: 500 } },
      descriptionEn: { key: 'max-length', params: { max: 500 } },
    });
    expect(
      errorsOf(checkHolidayForm(values({ name: 'Neujahr', date: '2026-01-01', description: '' }))),
    ).toEqual({});
  });

  it('leaves an empty description and empty English texts out of the payload', () => {
    expect(
      checkHolidayForm(
        values({ name: ' Neujahr ', nameEn: ' ', date: '2026-01-01', description: ' ' }),
      ),
    ).toEqual({
      ok: true,
      data: { name: 'Neujahr', date: '2026-01-01' },
    });
    expect(
      checkHolidayForm(
        values({
          name: 'Neujahr',
          nameEn: " New Year's Day ",
          date: '2026-01-01',
          description: 'Feiertag',
          descriptionEn: 'Holiday',
        }),
      ),
    ).toEqual({
      ok: true,
      data: {
        name: 'Neujahr',
        nameEn: "New Year's Day",
        date: '2026-01-01',
        description: 'Feiertag',
        descriptionEn: 'Holiday',
      },
    });
  });

  it('fills the form from a holiday, with its English texts', () => {
    expect(
      holidayToFormValues({
        id: 'h',
        version: 1,
        name: 'Neujahr',
        date: '2026-01-01',
        siteId: null,
      }),
    ).toEqual({
      name: 'Neujahr',
      nameEn: '',
      date: '2026-01-01',
      description: '',
      descriptionEn: '',
      siteId: '',
    });
    expect(
      holidayToFormValues({
        id: 'h',
        version: 1,
        name: 'Neujahr',
        nameEn: "New Year's Day",
        descriptionEn: 'Closed',
        date: '2026-01-01',
        siteId: '00000000-0000-4000-8000-000000000002',
      }),
    ).toMatchObject({
      nameEn: "New Year's Day",
      descriptionEn: 'Closed',
      siteId: '00000000-0000-4000-8000-000000000002',
    });
  });

  it('links to the list at a year', () => {
    expect(holidayListPath()).toBe('/holiday-list');
    expect(holidayListPath(2027)).toBe('/holiday-list?year=2027');
    expect(holidayListPathAt('2026-12-24')).toBe('/holiday-list?year=2026');
  });
});
