import { checkServicesForm } from './room-services-values';
import { describe, expect, it } from 'vitest';
import type { Room } from '../../../api/types';
import { errorsOf } from '../../../lib/form-check';
import {
  checkRoomForm,
  movedIndex,
  ROOM_FORM_DEFAULTS,
  roomToFormValues,
  type RoomFormValues,
} from './room-form-values';

const errorsOfRoom = (values: RoomFormValues) => errorsOf(checkRoomForm(values));
const bodyOf = (values: RoomFormValues) => {
  const result = checkRoomForm(values);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.data;
};

const SITE_ID = '5f0c6a52-3b1e-4c1d-9a3e-2f4b6c8d0e11';

const room: Room = {
  id: '0b7a0e3e-9d55-4a4f-9a55-7d1f2c5b8e01',
  version: 4,
  siteId: SITE_ID,
  name: 'Lesesaal Ost',
  description: 'Ruhiger Saal mit 40 Plätzen',
  capacity: 40,
  openStart: { type: 'WORKING_DAY', value: 1 },
  openEnd: { type: 'DAY', value: 60 },
  imageAlt: null,
  imageUrl: null,
  order: 0,
  services: {
    checkInMinutesBefore: null,
    noShowReleaseMinutes: null,
    waitlistOfferMinutes: null,
    reminderHoursBefore: null,
  },
  members: {},
};

const valid: RoomFormValues = {
  ...ROOM_FORM_DEFAULTS,
  name: 'Saal',
  description: 'Groß',
  capacity: '10',
};

describe('room form values', () => {
  it('starts with the spec defaults for the reservation period', () => {
    expect(ROOM_FORM_DEFAULTS).toMatchObject({
      openStartValue: '2',
      openStartType: 'DAY',
      openEndValue: '30',
      openEndType: 'WORKING_DAY',
    });
  });

  it('round-trips a room through the form', () => {
    expect(bodyOf(roomToFormValues(room))).toEqual({
      name: 'Lesesaal Ost',
      description: 'Ruhiger Saal mit 40 Plätzen',
      capacity: 40,
      openStartValue: 1,
      openStartType: 'WORKING_DAY',
      openEndValue: 60,
      openEndType: 'DAY',
      siteId: SITE_ID,
    });
  });

  it('sends the chosen site; without one, none (docs/product.md#sites: the first site)', () => {
    expect(bodyOf({ ...valid, siteId: SITE_ID }).siteId).toBe(SITE_ID);
    expect(bodyOf(valid).siteId).toBeUndefined();
    expect(errorsOfRoom({ ...valid, siteId: 'jura' })).toHaveProperty('siteId');
  });

  it('carries the English texts, trimmed; left empty they are not sent (the German serves both)', () => {
    const english = { ...room, nameEn: 'East reading room', descriptionEn: 'Quiet, 40 seats' };
    expect(bodyOf(roomToFormValues(english))).toMatchObject({
      nameEn: 'East reading room',
      descriptionEn: 'Quiet, 40 seats',
    });
    const body = bodyOf({ ...valid, nameEn: '  ', descriptionEn: '' });
    expect(body.nameEn).toBeUndefined();
    expect(body.descriptionEn).toBeUndefined();
    expect(bodyOf({ ...valid, nameEn: ' Hall ' }).nameEn).toBe('Hall');
  });

  it('trims texts and parses numbers', () => {
    expect(bodyOf({ ...valid, name: '  Saal  ', capacity: ' 12 ' })).toMatchObject({
      name: 'Saal',
      capacity: 12,
    });
  });

  it('accepts valid values', () => {
    expect(errorsOfRoom(valid)).toEqual({});
  });

  it('enforces the room rules of docs/product.md#validation', () => {
    const errors = errorsOfRoom({
      name: 'ab',
      nameEn: 'cd',
      description: 'x'.repeat(101),
      descriptionEn: 'y'.repeat(101),
      capacity: '100000',
      openStartValue: '1.5',
      openStartType: 'WEEK',
      openEndValue: '',
      openEndType: 'DAY',
      siteId: '',
    });
    expect(errors).toEqual({
      name: { key: 'min-length', params: { min: 3 } },
      nameEn: { key: 'min-length', params: { min: 3 } },
      description: { key: 'max-length', params: { max: 100 } },
      descriptionEn: { key: 'max-length', params: { max: 100 } },
      capacity: { key: 'between', params: { min: 0, max: 99999 } },
      openStartValue: { key: 'integer' },
      openStartType: { key: 'invalid' },
      openEndValue: { key: 'required' },
    });
  });

  it('accepts the capacity and period bounds', () => {
    expect(
      errorsOfRoom({ ...valid, capacity: '0', openStartValue: '0', openEndValue: '365' }),
    ).toEqual({});
    expect(errorsOfRoom({ ...valid, capacity: '99999' })).toEqual({});
    expect(errorsOfRoom({ ...valid, openEndValue: '366' })).toHaveProperty('openEndValue');
    expect(errorsOfRoom({ ...valid, capacity: 'zehn' })).toEqual({ capacity: { key: 'integer' } });
  });
});

describe('movedIndex', () => {
  it('moves within the list and refuses to leave it', () => {
    expect(movedIndex(1, -1, 3)).toBe(0);
    expect(movedIndex(1, 1, 3)).toBe(2);
    expect(movedIndex(0, -1, 3)).toBeNull();
    expect(movedIndex(2, 1, 3)).toBeNull();
  });
});

describe('checkServicesForm', () => {
  const empty = {
    checkInMinutesBefore: '',
    noShowReleaseMinutes: '',
    waitlistOfferMinutes: '',
    reminderHoursBefore: '',
  };

  it('turns an empty field off (null), sends the others as numbers', () => {
    expect(checkServicesForm({ ...empty, reminderHoursBefore: ' 24 ' })).toEqual({
      ok: true,
      data: {
        checkInMinutesBefore: null,
        noShowReleaseMinutes: null,
        waitlistOfferMinutes: null,
        reminderHoursBefore: 24,
      },
    });
  });

  it('names the field of a failed rule: a release needs check-in, offers last at least 5 minutes', () => {
    const result = checkServicesForm({
      ...empty,
      noShowReleaseMinutes: '15',
      waitlistOfferMinutes: '2',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.checkInMinutesBefore?.key).toBe('required');
    expect(result.errors.waitlistOfferMinutes).toEqual({
      key: 'between',
      params: { min: 5, max: 1440 },
    });
  });
});
