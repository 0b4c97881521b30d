import type { FieldError, RuleKey } from './issues.ts';

/**
 * The field messages of docs/product.md#validation in English: the texts of the API's problem+json
 * (`validation__error`, one entry per field), by the rule a field failed. The browser shows its
 * catalogue's text of the same rule instead (`validation.<key>` in frontend/src/i18n, de and en).
 */
const TEXTS: Readonly<Record<RuleKey, (p: Readonly<Record<string, number>>) => string>> = {
  required: () => 'Value is required',
  between: (p) => `The value must be between ${p.min} and ${p.max}`,
  'max-length': (p) => `The maximum length allowed is ${p.max}`,
  'min-length': (p) => `This field should be at least ${p.min} characters long`,
  integer: () => 'Enter an integer',
  email: () => 'Value is not a valid email address',
  time: () => 'Select a valid time',
  date: () => 'Select a valid date',
  'time-after': () => 'Time until must be after Time from',
  'date-not-before': () => 'Date not valid or ends BEFORE start date',
  'date-future': () => 'Date must be in the future',
  weekday: () => 'Select at least one weekday',
  phone: () => 'Enter a telephone number with numbers or plus only',
  characters: () => 'The value contains characters that are not allowed',
  domain: () => 'Enter a domain name, such as uni.example',
  slug: () => 'Use 2 to 40 lower-case letters, digits and single hyphens, such as jura',
  'staff-role': () =>
    'A role is admin, reports or checkin, for all sites or for one site by its short name: admin@jura',
  'site-unknown': () => 'No site has this short name',
  unique: () => 'The value is used already: each must be different',
  'hours-ranges': (p) => `At most ${p.max} opening ranges a day`,
  'hours-overlap': () => 'The opening ranges of a day must not overlap',
  'hours-exceptions': (p) => `At most ${p.max} dates with other hours`,
  'image-required': () => 'Value is required',
  'image-type': () => 'Choose a JPEG or PNG image',
  'image-size': () => 'The image may be at most 0.5 MB',
  'calendar-required': () => 'Value is required',
  'calendar-type': () => 'Choose a valid calendar file',
  'calendar-size': () => 'The calendar file may be at most 5 MB',
  invalid: () => 'The value is not valid',
};

/** The English message of a failed rule. */
export function messageOf(error: FieldError): string {
  return TEXTS[error.key](error.params ?? {});
}

/** The same texts by name, for the server's own refusals. */
export const messages = {
  required: messageOf({ key: 'required' }),
  between: (min: number, max: number) => messageOf({ key: 'between', params: { min, max } }),
  maxLength: (max: number) => messageOf({ key: 'max-length', params: { max } }),
  minLength: (min: number) => messageOf({ key: 'min-length', params: { min } }),
  email: messageOf({ key: 'email' }),
  integer: messageOf({ key: 'integer' }),
  date: messageOf({ key: 'date' }),
  time: messageOf({ key: 'time' }),
  characters: messageOf({ key: 'characters' }),
};
