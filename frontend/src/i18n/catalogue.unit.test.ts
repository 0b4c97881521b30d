import { describe, expect, it } from 'vitest';
import type { Catalogue } from '../lib/label-override';
import de from './de.json';
import en from './en.json';

function keys(catalogue: Catalogue, prefix = ''): string[] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keys(value, `${prefix}${key}.`),
  );
}

/** Spec section 8 plus the codes of this project's backend contract. */
const ERROR_KEYS = [
  'ticket__validation_error',
  'validation__error',
  'max_tickets_per_time_reached',
  'max_tickets_per_day_reached',
  'timeslot_no_tickets_left',
  'max_tickets_by_user_reached',
  'timeslot_not_open',
  'timeslot__overlapping',
  'unknown',
  'http__access_denied_exception',
  'booking__email_blacklisted',
  'recaptcha__validation_error',
  'blacklist__email_already_exists',
  'generic__mail_send_exception',
  'ticket__validation_error_timeslot_not_open',
  'ticket__validation_error_max_tickets_per_time_reached',
  'ticket__validation_error_max_tickets_per_day_reached',
  'ticket__validation_error_timeslot_no_tickets_left',
  'ticket__validation_error_max_tickets_by_user_reached',
  'room__has_active_reservations',
  'concurrency__version_conflict',
  'auth__invalid_credentials',
  'image__invalid_type',
  'image__too_large',
  'not_found',
  'timeslot__has_tickets',
  'calendar__invalid_file',
  'calendar__too_large',
];

describe('message catalogues', () => {
  it('have the same keys in German and English', () => {
    expect(keys(en).sort()).toEqual(keys(de).sort());
  });

  it('have no empty texts', () => {
    for (const catalogue of [de, en]) {
      const flat = keys(catalogue);
      expect(flat.length).toBeGreaterThan(50);
      for (const key of flat) {
        const text = key.split('.').reduce<Catalogue | string>((node, part) => {
          if (typeof node === 'string') throw new Error(key);
          const next = node[part];
          if (next === undefined) throw new Error(key);
          return next;
        }, catalogue);
        expect(typeof text === 'string' && text.trim().length > 0, key).toBe(true);
      }
    }
  });

  it.each([
    ['de', de],
    ['en', en],
  ])('%s contains the whole error catalogue', (_language, catalogue) => {
    expect(Object.keys(catalogue['common-error'])).toEqual(expect.arrayContaining(ERROR_KEYS));
  });

  it('uses the same interpolation variables in both languages', () => {
    const variables = (text: string) => [...text.matchAll(/{{(\w+)}}/g)].map((m) => m[1]).sort();
    const lookup = (catalogue: Catalogue, key: string) =>
      key
        .split('.')
        .reduce<Catalogue | string>(
          (node, part) => (node as Catalogue)[part] ?? '',
          catalogue,
        ) as string;
    for (const key of keys(de)) {
      expect(variables(lookup(en, key)), key).toEqual(variables(lookup(de, key)));
    }
  });
});
