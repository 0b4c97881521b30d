import { describe, expect, it } from 'vitest';
import { RULE_KEYS, type RuleKey } from '@rr/contracts/issues';
import { BookingInput } from '@rr/contracts/owner';
import de from '../i18n/de.json';
import en from '../i18n/en.json';
import { mergeCatalogues } from '../i18n/i18n';
import staffDe from '../i18n/staff.de.json';
import staffEn from '../i18n/staff.en.json';
import visitorDe from '../i18n/visitor.de.json';
import visitorEn from '../i18n/visitor.en.json';
import type { Catalogue } from './label-override';
import { errorsOf, formCheck } from './form-check';
import { numberOf, text, withFieldNames } from './staff-forms';

const validationTexts = (...catalogues: Catalogue[]) =>
  ((catalogues.reduce(mergeCatalogues).common as Catalogue).validation ?? {}) as Catalogue;
/** Whether a rule has its text: its own, or the plural forms of one that names a count. */
const hasText = (texts: Catalogue, key: string) =>
  typeof texts[key] === 'string' ||
  (typeof texts[`${key}_one`] === 'string' && typeof texts[`${key}_other`] === 'string');

describe('the messages of the contracts’ rules', () => {
  it.each([
    ['de', de, visitorDe, staffDe],
    ['en', en, visitorEn, staffEn],
  ])('%s: the staff interface has a text for every rule', (_language, main, visitor, staff) => {
    const texts = validationTexts(main, visitor, staff);
    for (const key of RULE_KEYS) expect(hasText(texts, key), key).toBe(true);
  });

  it.each([
    ['de', de, visitorDe],
    ['en', en, visitorEn],
  ])('%s: the visitor has a text for every rule of the personal data', (_l, main, visitor) => {
    const texts = validationTexts(main, visitor);
    const visitorRules: RuleKey[] = ['required', 'max-length', 'email', 'phone', 'characters'];
    for (const key of [...visitorRules, 'invalid']) expect(hasText(texts, key), key).toBe(true);
    // Every rule the personal data can fail is among them.
    const check = formCheck(BookingInput, (values: object) => values);
    const failed = errorsOf(
      check({
        firstName: '',
        lastName: 'x'.repeat(41),
        email: 'x',
        phone: '0664 1a',
        title: '\u0000',
      }),
    );
    for (const error of Object.values(failed)) expect(visitorRules).toContain(error?.key);
  });
});

describe('form values as requests', () => {
  it('counts empty fields as not given, trims texts and reads numbers', () => {
    expect(text('  ')).toBeUndefined();
    expect(text(' a ')).toBe('a');
    expect(numberOf(' ')).toBeUndefined();
    expect(numberOf(' 12 ')).toBe(12);
    expect(numberOf('zwölf')).toBeNaN();
  });

  it('names the errors by the form’s fields', () => {
    const check = withFieldNames(
      formCheck(BookingInput, (values: { first: string }) => ({ firstName: values.first })),
      { first: 'firstName', mail: 'email' },
    );
    expect(errorsOf(check({ first: '' }))).toEqual({
      first: { key: 'required' },
      mail: { key: 'required' },
    });
  });
});
