import * as z from 'zod/mini';
import { isoDate } from './fields.ts';
import { calendarFile } from './files.ts';
import { optionalText, requiredText } from './rules.ts';

/**
 * docs/product.md#validation, holiday: name required, at most 100; description at most 500; date
 * required. `nameEn` and `descriptionEn` are the optional English texts, with the same bounds
 * (docs/product.md#translations).
 */
export const HolidayInput = z.object({
  name: requiredText(100),
  nameEn: optionalText(100),
  description: optionalText(500, 'multi'),
  descriptionEn: optionalText(500, 'multi'),
  date: isoDate(),
  /** The site whose rooms it applies to (docs/product.md#sites); absent or null: every site. */
  siteId: z.optional(z.nullable(z.uuid())),
});

/** docs/product.md#validation, holiday import: the file (field `file` of the upload). */
export const HolidayImportInput = z.object({ file: calendarFile() });

/** The site an import's holidays apply to (a query parameter beside the upload); absent: every site. */
export const HolidayImportQuery = z.object({ siteId: z.optional(z.uuid()) });
