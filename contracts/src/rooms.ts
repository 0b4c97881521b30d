import * as z from 'zod/mini';
import { intBetween } from './fields.ts';
import { imageFile } from './files.ts';
import { requiredText } from './rules.ts';

/** Spec section 5, room. */

export const DAY_TYPES = ['WORKING_DAY', 'DAY'] as const;
export type DayType = (typeof DAY_TYPES)[number];

/** Name 3-50, description 3-100, capacity 0-99999, open start and end values 0-365. */
export const RoomInput = z.object({
  name: requiredText(50, 3),
  description: requiredText(100, 3),
  capacity: intBetween(0, 99999),
  openStartValue: intBetween(0, 365),
  openStartType: z.enum(DAY_TYPES),
  openEndValue: intBetween(0, 365),
  openEndType: z.enum(DAY_TYPES),
});

/** The image's alt text: required, 5-150 characters. */
export const RoomImageAlt = requiredText(150, 5);

/** The image form: the chosen file (required unless the room has an image) and its alt text. */
export function roomImageInput(imageRequired: boolean) {
  return z.object({ image: imageFile(imageRequired), alt: RoomImageAlt });
}
