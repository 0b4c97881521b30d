import { describe, expect, it } from 'vitest';
import { errorsOf } from '../../../lib/form-check';
import {
  addFormDefaults,
  checkAddForm,
  checkCapacityForm,
  checkEditForm,
  isRepeating,
  slotToEditValues,
  toTimeSlotInput,
  type AddFormValues,
} from './time-slot-form';

const addErrors = (values: AddFormValues) => errorsOf(checkAddForm(values));

const defaults = addFormDefaults('2026-03-02');
const series: AddFormValues = { ...defaults, repeatUntil: '2026-03-31', capacity: '10' };

describe('adding time slots', () => {
  it('starts with the defaults of docs/product.md#limits', () => {
    expect(defaults).toEqual({
      startTime: '00:00',
      endTime: '23:59',
      startDate: '2026-03-02',
      repeatUntil: '2026-03-02',
      daysOfWeek: ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY'],
      includeHolidays: false,
      capacity: '0',
    });
    expect(addErrors(defaults)).toEqual({});
    // With the room known, its capacity.
    expect(addFormDefaults('2026-03-02', 24).capacity).toBe('24');
  });

  it('repeats only when repeat-until is after the start date', () => {
    expect(isRepeating(defaults)).toBe(false);
    expect(isRepeating({ startDate: '2026-03-02', repeatUntil: '' })).toBe(false);
    expect(isRepeating({ startDate: '2026-03-02', repeatUntil: '2026-03-03' })).toBe(true);
    expect(isRepeating({ startDate: '2026-03-02', repeatUntil: '2026-03-01' })).toBe(false);
    expect(isRepeating({ startDate: '', repeatUntil: '2026-03-03' })).toBe(false);
  });

  it('checks the single fields', () => {
    const errors = addErrors({
      ...defaults,
      startTime: '',
      endTime: '25:00',
      startDate: '2026-02-30',
      capacity: '1.5',
    });
    expect(errors).toEqual({
      startTime: { key: 'required' },
      endTime: { key: 'time' },
      startDate: { key: 'date' },
      capacity: { key: 'integer' },
    });
    expect(addErrors({ ...defaults, capacity: '100000' })).toEqual({
      capacity: { key: 'between', params: { min: 0, max: 99999 } },
    });
  });

  it('checks end after start, repeat-until not before start and a weekday when repeating', () => {
    expect(addErrors({ ...defaults, startTime: '12:00', endTime: '08:00' })).toEqual({
      endTime: { key: 'time-after' },
    });
    expect(addErrors({ ...defaults, repeatUntil: '2026-03-01' })).toEqual({
      repeatUntil: { key: 'date-not-before' },
    });
    expect(addErrors({ ...series, daysOfWeek: [] })).toEqual({
      daysOfWeek: { key: 'weekday' },
    });
    // A one-off slot needs no weekday.
    expect(addErrors({ ...defaults, daysOfWeek: [] })).toEqual({});
    // Every error at once: the single fields and the rules between them.
    expect(
      addErrors({ ...series, endTime: '', startTime: '10:00', daysOfWeek: [], capacity: '' }),
    ).toEqual({
      endTime: { key: 'required' },
      capacity: { key: 'required' },
      daysOfWeek: { key: 'weekday' },
    });
  });

  it('sends a one-off slot for all seven days including holidays', () => {
    expect(toTimeSlotInput({ ...defaults, startTime: ' 08:00', capacity: ' 5 ' })).toEqual({
      startTime: '08:00',
      endTime: '23:59',
      startDate: '2026-03-02',
      repeatUntil: '2026-03-02',
      daysOfWeek: ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'],
      includeHolidays: true,
      capacity: 5,
    });
  });

  it('sends a series with the chosen weekdays in calendar order', () => {
    expect(
      toTimeSlotInput({ ...series, daysOfWeek: ['FRIDAY', 'MONDAY'], includeHolidays: true }),
    ).toEqual({
      startTime: '00:00',
      endTime: '23:59',
      startDate: '2026-03-02',
      repeatUntil: '2026-03-31',
      daysOfWeek: ['MONDAY', 'FRIDAY'],
      includeHolidays: true,
      capacity: 10,
    });
  });
});

describe('editing a time slot', () => {
  const slot = {
    id: 's1',
    date: '2026-03-02',
    startTime: '08:00:00',
    endTime: '12:00',
    capacity: 4,
    ticketCount: 0,
    count: 0,
    roomId: 'r1',
    roomName: 'Room',
    failedRules: [],
    closedReason: null,
  };

  it('fills the form from the slot and sends the update', () => {
    const values = slotToEditValues(slot);
    expect(values).toEqual({ startTime: '08:00', endTime: '12:00', capacity: '4' });
    expect(checkEditForm({ ...values, capacity: '7' })).toEqual({
      ok: true,
      data: { startTime: '08:00', endTime: '12:00', capacity: 7 },
    });
  });

  it('wants the end after the start', () => {
    expect(
      errorsOf(checkEditForm({ startTime: '08:00', endTime: '08:00', capacity: '1' })),
    ).toEqual({
      endTime: { key: 'time-after' },
    });
  });
});

describe('capacity of a date range', () => {
  it('checks dates and capacity and sends numbers', () => {
    const values = { fromDate: '2026-03-01', untilDate: '2026-03-31', capacity: '12' };
    expect(checkCapacityForm(values)).toEqual({ ok: true, data: { ...values, capacity: 12 } });
    expect(errorsOf(checkCapacityForm({ ...values, untilDate: '2026-02-28' }))).toEqual({
      untilDate: { key: 'date-not-before' },
    });
    expect(errorsOf(checkCapacityForm({ ...values, fromDate: '', capacity: '-1' }))).toEqual({
      fromDate: { key: 'required' },
      capacity: { key: 'between', params: { min: 0, max: 99999 } },
    });
  });
});
