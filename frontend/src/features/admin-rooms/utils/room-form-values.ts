import { RoomInput } from '@rr/contracts/rooms';
import type { DayType, Room, RoomCreate } from '../../../api/types';
import { formCheck } from '../../../lib/form-check';
import { numberOf, text } from '../../../lib/staff-forms';

export const DAY_TYPES: readonly DayType[] = ['DAY', 'WORKING_DAY'];

export const ROOM_FIELDS = [
  'name',
  'nameEn',
  'description',
  'descriptionEn',
  'capacity',
  'openStartValue',
  'openStartType',
  'openEndValue',
  'openEndType',
  'siteId',
] as const;

export type RoomField = (typeof ROOM_FIELDS)[number];
export type RoomFormValues = Record<RoomField, string>;
/**
 * The English texts: optional (docs/product.md#translations); the site too (a new room without
 * one joins the first site, docs/product.md#sites).
 */
export const OPTIONAL_ROOM_FIELDS: ReadonlySet<RoomField> = new Set([
  'nameEn',
  'descriptionEn',
  'siteId',
  // A bound left empty (its number and its kind): the site's, else the default applies
  // (docs/product.md#booking-window).
  'openStartValue',
  'openStartType',
  'openEndValue',
  'openEndType',
]);

/** docs/product.md#limits: open start 2 days (type DAY), open end 30 working days. */
export const ROOM_FORM_DEFAULTS: RoomFormValues = {
  name: '',
  nameEn: '',
  description: '',
  descriptionEn: '',
  capacity: '',
  openStartValue: '2',
  openStartType: 'DAY',
  openEndValue: '30',
  openEndType: 'WORKING_DAY',
  siteId: '',
};

/** docs/product.md#validation, room: the request of the form's values, checked with the room contract. */
export const checkRoomForm = formCheck(
  RoomInput,
  (values: RoomFormValues): Record<keyof RoomCreate, unknown> => ({
    name: values.name,
    nameEn: values.nameEn,
    description: values.description,
    descriptionEn: values.descriptionEn,
    capacity: numberOf(values.capacity),
    openStartValue: numberOf(values.openStartValue),
    openStartType: text(values.openStartType),
    openEndValue: numberOf(values.openEndValue),
    openEndType: text(values.openEndType),
    siteId: text(values.siteId),
  }),
);

export function roomToFormValues(room: Room): RoomFormValues {
  return {
    name: room.name,
    nameEn: room.nameEn ?? '',
    description: room.description,
    descriptionEn: room.descriptionEn ?? '',
    capacity: String(room.capacity),
    // A bound the room does not set stays empty: its site's (or the default) applies.
    openStartValue: room.openStart ? String(room.openStart.value) : '',
    openStartType: room.openStart?.type ?? '',
    openEndValue: room.openEnd ? String(room.openEnd.value) : '',
    openEndType: room.openEnd?.type ?? '',
    siteId: room.siteId,
  };
}

/** The new 0-based position when moving the room at `index` one step up (-1) or down (+1). */
export function movedIndex(index: number, direction: -1 | 1, count: number): number | null {
  const target = index + direction;
  return target >= 0 && target < count ? target : null;
}
