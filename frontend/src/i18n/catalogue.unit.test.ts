import { describe, expect, it } from 'vitest';
import type { Catalogue } from '../lib/label-override';
import de from './de.json';
import en from './en.json';
import { createI18n, mergeCatalogues } from './i18n';
import staffDe from './staff.de.json';
import staffEn from './staff.en.json';

function keys(catalogue: Catalogue, prefix = ''): string[] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keys(value, `${prefix}${key}.`),
  );
}

/**
 * docs/product.md#errors plus the codes of this project's backend contract that any interface can meet
 * (the visitor's screens included): they are in the main catalogue.
 */
const ERROR_KEYS = [
  'ticket__validation_error',
  'validation__error',
  'max_tickets_per_time_reached',
  'max_tickets_per_day_reached',
  'timeslot_no_tickets_left',
  'max_tickets_by_user_reached',
  'timeslot_not_open',
  'unknown',
  'http__access_denied_exception',
  'booking__email_blacklisted',
  'booking__email_domain_not_allowed',
  'booking__no_show_blocked',
  'booking__no_show_blocked_until',
  'booking__confirmation_lapsed',
  'booking__confirmation_link_invalid',
  'booking__email_domain_not_allowed_domains',
  'booking__sign_in_required',
  'booking__affiliation_not_allowed',
  'booking__affiliation_not_allowed_affiliations',
  'recaptcha__validation_error',
  'generic__mail_send_exception',
  'ticket__validation_error_timeslot_not_open',
  'ticket__validation_error_max_tickets_per_time_reached',
  'ticket__validation_error_max_tickets_per_day_reached',
  'ticket__validation_error_timeslot_no_tickets_left',
  'ticket__validation_error_max_tickets_by_user_reached',
  'not_found',
  'service__overloaded',
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

/** Error codes of the staff API only (rooms, slots, holidays, blacklist, sign-in, reports). */
const STAFF_ERROR_KEYS = [
  // Only staff edit by version (rooms, holidays): the visitor's download does not carry it.
  'concurrency__version_conflict',
  'ticket__not_booked',
  'personal_data__erased',
  'ticket__not_cancelable',
  'report__no_rooms',
  'timeslot__overlapping',
  'blacklist__email_already_exists',
  'room__has_active_reservations',
  'site__already_exists',
  'site__slug_taken',
  'site__has_rooms',
  'site__first_site',
  'auth__invalid_credentials',
  'auth__no_staff_role',
  'image__invalid_type',
  'image__too_large',
  'image__too_many_pixels',
  'image__invalid',
  'http__too_many_requests',
  'timeslot__has_tickets',
  'timeslot__overbooking_not_confirmed',
  'calendar__invalid_file',
  'calendar__too_large',
  'insights__replay_too_large',
  'insights__replay_busy',
  'insights__replay_busy_seconds',
];

/** The namespaces of the staff screens: not in the main catalogue, so visitors never load them. */
const STAFF_NAMESPACES = [
  'auth',
  'dashboard',
  'admin-rooms',
  'admin-time-slots',
  'admin-holidays',
  'admin-sites',
  'admin-blacklist',
  'admin-reservations',
  'admin-history',
  'admin-overbooked',
  'admin-staff-accounts',
  'reports',
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
    // A message that names a count is there in its plural forms (`_one`, `_other`).
    const messages = Object.keys(catalogue['common-error']).map((key) =>
      key.replace(/_(zero|one|other)$/, ''),
    );
    expect(messages).toEqual(expect.arrayContaining(STAFF_ERROR_KEYS));
  });

  it.each([
    ['de', de, staffDe],
    ['en', en, staffEn],
  ])('%s: the staff namespaces are only in the staff catalogue', (_language, main, staff) => {
    expect(Object.keys(staff)).toEqual(expect.arrayContaining(STAFF_NAMESPACES));
    expect(Object.keys(main).filter((namespace) => STAFF_NAMESPACES.includes(namespace))).toEqual(
      [],
    );
    // Merged, the main and staff texts are all there.
    expect(keys(mergeCatalogues(main, staff)).sort()).toEqual(
      [...keys(main), ...keys(staff)].sort(),
    );
  });

  it('are loaded with the admin and reports interfaces, with the label overrides', async () => {
    const labelOverride = {
      'admin-reservations': { list: { title: 'Buchungen' } },
      'nav.dashboard': 'Start',
      'app-title': 'Lesesäle',
    };
    for (const mode of ['admin', 'reports'] as const) {
      const instance = await createI18n({ language: 'de', labelOverride, interface: mode });
      expect(instance.t('list.title', { ns: 'admin-reservations' })).toBe('Buchungen');
      expect(instance.t('title', { ns: 'reports' })).toBe('Berichte');
      expect(instance.t('nav.admin-reservations')).toBe('Reservierungen');
      expect(instance.t('nav.dashboard')).toBe('Start');
      expect(instance.t('app-title')).toBe('Lesesäle');
      expect(instance.t('validation.phone')).toBe(staffDe.common.validation.phone);
      expect(instance.t('sign-in.title', { ns: 'auth' })).toBe(staffDe.auth['sign-in'].title);
      // The main and visitor catalogues' texts are there as well.
      expect(instance.t('loading')).toBe(de.common.loading);
      expect(instance.hasResourceBundle('de', 'booking')).toBe(true);
    }
    const english = await createI18n({ language: 'en', labelOverride: {}, interface: 'admin' });
    expect(english.t('title', { ns: 'reports' })).toBe(staffEn.reports.title);
    expect(english.t('loading')).toBe(en.common.loading);
  });

  it('are not loaded with the visitor interface', async () => {
    for (const language of ['de', 'en'] as const) {
      const instance = await createI18n({ language, labelOverride: {}, interface: 'user' });
      for (const namespace of STAFF_NAMESPACES) {
        expect(instance.hasResourceBundle(language, namespace), namespace).toBe(false);
      }
      expect(instance.hasResourceBundle(language, 'booking')).toBe(true);
      expect(instance.t('loading')).toBe((language === 'de' ? de : en).common.loading);
    }
  });
});
