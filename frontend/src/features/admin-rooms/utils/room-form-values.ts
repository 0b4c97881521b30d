import type { DayType, Room, RoomCreate } from '../../../api/types';
import {
  between,
  integer,
  maxLength,
  minLength,
  required,
  type FormSchema,
  type Rule,
} from '../../../lib/validation';

export const DAY_TYPES: readonly DayType[] = ['DAY', 'WORKING_DAY'];

export const ROOM_FIELDS = [
  'name',
  'description',
  'capacity',
  'openStartValue',
  'openStartType',
  'openEndValue',
  'openEndType',
] as const;

export type RoomField = (typeof ROOM_FIELDS)[number];
export type RoomFormValues = Record<RoomField, string>;

/** Spec section 9: open start 2 days (type DAY), open end 30 working days. */
export const ROOM_FORM_DEFAULTS: RoomFormValues = {
  name: '',
  description: '',
  capacity: '',
  openStartValue: '2',
  openStartType: 'DAY',
  openEndValue: '30',
  openEndType: 'WORKING_DAY',
};

const dayType: Rule = (value) =>
  (DAY_TYPES as readonly string[]).includes(value) ? null : { key: 'required' };

/** Spec section 5, room. */
export const ROOM_SCHEMA: FormSchema<RoomField> = {
  name: [required, minLength(3), maxLength(50)],
  description: [required, minLength(3), maxLength(100)],
  capacity: [required, integer, between(0, 99999)],
  openStartValue: [required, integer, between(0, 365)],
  openStartType: [required, dayType],
  openEndValue: [required, integer, between(0, 365)],
  openEndType: [required, dayType],
};

function toDayType(value: string, fallback: DayType): DayType {
  return (DAY_TYPES as readonly string[]).includes(value) ? (value as DayType) : fallback;
}

export function roomToFormValues(room: Room): RoomFormValues {
  return {
    name: room.name,
    description: room.description,
    capacity: String(room.capacity),
    openStartValue: String(room.openStart?.value ?? ROOM_FORM_DEFAULTS.openStartValue),
    openStartType: room.openStart?.type ?? ROOM_FORM_DEFAULTS.openStartType,
    openEndValue: String(room.openEnd?.value ?? ROOM_FORM_DEFAULTS.openEndValue),
    openEndType: room.openEnd?.type ?? ROOM_FORM_DEFAULTS.openEndType,
  };
}

/** The request body for validated form values (texts trimmed, numbers parsed). */
export function formValuesToRoom(values: RoomFormValues): RoomCreate {
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    capacity: Number.parseInt(values.capacity.trim(), 10),
    openStartValue: Number.parseInt(values.openStartValue.trim(), 10),
    openStartType: toDayType(values.openStartType, 'DAY'),
    openEndValue: Number.parseInt(values.openEndValue.trim(), 10),
    openEndType: toDayType(values.openEndType, 'WORKING_DAY'),
  };
}

/** The new 0-based position when moving the room at `index` one step up (-1) or down (+1). */
export function movedIndex(index: number, direction: -1 | 1, count: number): number | null {
  const target = index + direction;
  return target >= 0 && target < count ? target : null;
}
