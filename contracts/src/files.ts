import * as z from 'zod/mini';
import { rule } from './rules.ts';

/** What a file picker (or an upload) tells about a chosen file. */
export interface FileLike {
  readonly name: string;
  readonly type: string;
  readonly size: number;
}
type File = FileLike | null | undefined;

/* ---- Room image (docs/product.md#validation and #limits): JPEG or PNG, at most 0.5 MB ---- */

export const MAX_IMAGE_BYTES = 512 * 1024;
export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/x-png'] as const;
/** Value of the file input's accept attribute. */
export const IMAGE_ACCEPT = 'image/jpeg,image/x-png,image/png';

function hasImageType(file: FileLike): boolean {
  if (file.type !== '') return (ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type);
  // Some systems report no type; fall back to the file name.
  return /\.(jpe?g|png)$/i.test(file.name);
}

/**
 * A chosen room image, by its declared type or name and its size (the server checks the content
 * itself, see command-service/src/rooms/image.ts). `required` is false when a room has an image
 * and only its alt text changes.
 */
export function imageFile(required: boolean) {
  return z.custom<File>().check(
    rule<File>('image-required', (f) => !required || f != null),
    rule<File>('image-type', (f) => f == null || hasImageType(f)),
    rule<File>('image-size', (f) => f == null || f.size <= MAX_IMAGE_BYTES),
  );
}

/* ---- Holiday import (docs/product.md#validation and #limits): text/calendar (ical, ics), at most 5 MB ---- */

export const MAX_CALENDAR_BYTES = 5 * 1024 * 1024;
/** Value of the file input's accept attribute. */
export const CALENDAR_ACCEPT = '.ics,.ical,text/calendar';

function hasCalendarType(file: FileLike): boolean {
  if (file.type.toLowerCase() === 'text/calendar') return true;
  // Systems without a calendar MIME type report none or a generic one: go by the name.
  return /\.(ics|ical|ifb|icalendar)$/i.test(file.name);
}

/** A chosen calendar file: required, iCalendar by type or name, at most 5 MB. */
export function calendarFile() {
  return z.custom<File>().check(
    rule<File>('calendar-required', (f) => f != null),
    rule<File>('calendar-type', (f) => f == null || hasCalendarType(f)),
    rule<File>('calendar-size', (f) => f == null || f.size <= MAX_CALENDAR_BYTES),
  );
}
