import { describe, expect, it } from 'vitest';
import { NO_HOURS } from '@rr/contracts/sites';
import { checkHours, hoursFieldId, hoursRequest, hoursToFormValues } from './site-hours-form';

describe('the site hours form', () => {
  const empty = hoursToFormValues(NO_HOURS);

  it('sends every weekday and the exceptions as the form holds them', () => {
    const values = {
      ...empty,
      weekly: { ...empty.weekly, mon: [{ start: '08:00', end: '12:00' }] },
      exceptions: [{ date: '2026-12-24', ranges: [], note: 'Heiliger Abend', noteEn: '' }],
    };
    expect(checkHours(values)).toEqual({});
    expect(hoursRequest(values).weekly.mon).toEqual([{ start: '08:00', end: '12:00' }]);
    expect(hoursToFormValues(hoursRequest(values) as never)).toEqual(values);
  });

  it('names each error by the path its control’s id is made of', () => {
    const values = {
      ...empty,
      weekly: {
        ...empty.weekly,
        tue: [{ start: '', end: '' }],
        wed: [
          { start: '08:00', end: '12:00' },
          { start: '11:00', end: '13:00' },
        ],
      },
      exceptions: [{ date: '', ranges: [], note: '', noteEn: '' }],
    };
    expect(checkHours(values)).toEqual({
      'weekly.tue.0.start': { key: 'required' },
      'weekly.tue.0.end': { key: 'required' },
      'weekly.wed': { key: 'hours-overlap' },
      'exceptions.0.date': { key: 'date' },
    });
    expect(hoursFieldId('weekly.tue.0.start')).toBe('hours-weekly-tue-0-start');
  });
});
