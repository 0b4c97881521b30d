import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { addStaffTexts, staffResources } from '../app/staff-texts';
import type { Catalogue } from '../lib/label-override';
import de from './de.json';
import en from './en.json';
import staffDe from './staff.de.json';
import staffEn from './staff.en.json';

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

/** Error codes of the staff API (reservation edit, cancel, reports). */
const STAFF_ERROR_KEYS = [
  'ticket__not_booked',
  'personal_data__erased',
  'ticket__not_cancelable',
  'report__no_rooms',
];

const variables = (text: string) => [...text.matchAll(/{{(\w+)}}/g)].map((m) => m[1]).sort();

function texts(catalogue: Catalogue, prefix = ''): [string, string][] {
  return Object.entries(catalogue).flatMap(([key, value]): [string, string][] =>
    typeof value === 'string' ? [[`${prefix}${key}`, value]] : texts(value, `${prefix}${key}.`),
  );
}

describe('staff message catalogues', () => {
  it('have the same keys, no empty texts and the same variables in German and English', () => {
    expect(keys(staffEn).sort()).toEqual(keys(staffDe).sort());
    const english = new Map(texts(staffEn));
    const all = texts(staffDe);
    expect(all.length).toBeGreaterThan(100);
    for (const [key, text] of all) {
      expect(text.trim().length, key).toBeGreaterThan(0);
      expect(english.get(key)?.trim().length, key).toBeGreaterThan(0);
      expect(variables(english.get(key) ?? ''), key).toEqual(variables(text));
    }
  });

  it('add texts only: no key of the main catalogue is repeated', () => {
    const main = new Set(keys(de));
    expect(keys(staffDe).filter((key) => main.has(key))).toEqual([]);
  });

  it.each([
    ['de', staffDe],
    ['en', staffEn],
  ])('%s has the staff error messages', (_language, catalogue) => {
    expect(Object.keys(catalogue['common-error'])).toEqual(
      expect.arrayContaining(STAFF_ERROR_KEYS),
    );
  });

  it('are added to a running i18next instance, with the label overrides', async () => {
    const instance = createInstance();
    await instance.init({
      lng: 'de',
      fallbackLng: false,
      resources: { de },
      ns: Object.keys(de),
      defaultNS: 'common',
      fallbackNS: 'common',
    });
    const config = {
      language: 'de' as const,
      labelOverride: {
        'admin-reservations': { list: { title: 'Buchungen' } },
        'nav.dashboard': 'Start',
      },
    };
    addStaffTexts(instance, config);
    addStaffTexts(instance, config);
    expect(instance.t('list.title', { ns: 'admin-reservations' })).toBe('Buchungen');
    expect(instance.t('title', { ns: 'reports' })).toBe('Berichte');
    expect(instance.t('nav.admin-reservations')).toBe('Reservierungen');
    expect(instance.t('validation.phone')).toBe(staffDe.common.validation.phone);
    // The main catalogue's texts are still there.
    expect(instance.t('nav.dashboard')).toBe(de.common.nav.dashboard);
    expect(instance.t('loading')).toBe(de.common.loading);
    expect(Object.keys(staffResources('en', {}))).toEqual(Object.keys(staffEn));
  });
});
