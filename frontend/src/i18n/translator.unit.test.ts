import { describe, expect, it } from 'vitest';
import { createTranslator } from './translator';

const resources = {
  common: {
    loading: 'Lädt …',
    nav: { rooms: 'Räume' },
    seats_one: '{{count}} Platz',
    seats_other: '{{count}} Plätze',
    greeting: 'Hallo {{name}}, {{ name }}!',
  },
  'common-error': {
    overlapping: 'Überschneidung',
    overlapping_date: 'Überschneidung am {{date}}',
    held_one: 'ein Platz bis {{until}}',
    held_other: '{{count}} Plätze',
    reserved_held_one: '{{count}} gehalten bis {{until}}',
    reserved_held_other: '{{count}} gehalten',
    reserved_one: '{{count}} gebucht',
    reserved_other: '{{count}} gebucht (mehrere)',
  },
  booking: { title: 'Buchen', events: { 'booking.created': 'Buchung angelegt' } },
};

describe('translator', () => {
  const german = createTranslator('de', resources, 'common');

  it('reads dot paths in the default namespace and answers a missing key as is', () => {
    expect(german.language).toBe('de');
    expect(german.t('loading')).toBe('Lädt …');
    expect(german.t('nav.rooms')).toBe('Räume');
    expect(german.t('nav.nothing')).toBe('nav.nothing');
    expect(german.t('nav')).toBe('nav');
  });

  it('looks in the chosen namespace and falls back to the default one', () => {
    const booking = german.getFixedT('de', 'booking');
    expect(booking('title')).toBe('Buchen');
    expect(booking('loading')).toBe('Lädt …');
    expect(german.t('title', { ns: 'booking' })).toBe('Buchen');
    expect(booking('overlapping', { ns: 'common-error' })).toBe('Überschneidung');
    expect(german.hasResourceBundle('de', 'booking')).toBe(true);
    expect(german.hasResourceBundle('de', 'display')).toBe(false);
  });

  it('picks the plural form by the language and inserts the values', () => {
    expect(german.t('seats', { count: 1 })).toBe('1 Platz');
    expect(german.t('seats', { count: 0 })).toBe('0 Plätze');
    expect(german.t('seats', { count: 7 })).toBe('7 Plätze');
    expect(german.t('greeting', { name: 'Ada' })).toBe('Hallo Ada, Ada!');
    expect(german.t('greeting')).toBe('Hallo {{name}}, {{ name }}!');
  });

  it("writes a number the language's way, without thousands separators", () => {
    expect(german.t('seats', { count: 2.5 })).toBe('2,5 Plätze');
    expect(german.t('seats', { count: 1234 })).toBe('1234 Plätze');
  });

  it('prefers the context, with its plural form, over the plain key', () => {
    const errors = german.getFixedT('de', 'common-error');
    expect(errors('overlapping', { context: 'date', date: '03.12.2026' })).toBe(
      'Überschneidung am 03.12.2026',
    );
    expect(errors('overlapping', { context: 'held' })).toBe('Überschneidung');
    expect(errors('reserved', { context: 'held', count: 1, until: '10:00' })).toBe(
      '1 gehalten bis 10:00',
    );
    expect(errors('reserved', { context: 'held', count: 3 })).toBe('3 gehalten');
    expect(errors('reserved', { context: 'date', count: 3 })).toBe('3 gebucht (mehrere)');
  });

  it('finds a key that itself contains dots under a dot path, as i18next does', () => {
    const t = createTranslator('de', resources, 'common').getFixedT('de', 'booking');
    expect(t('events.booking.created')).toBe('Buchung angelegt');
    expect(t('events.booking.missing')).toBe('events.booking.missing');
  });

  it('takes the first of several keys that exists', () => {
    const errors = german.getFixedT('de', 'common-error');
    expect(errors(['missing_1', 'overlapping', 'unknown'])).toBe('Überschneidung');
    expect(errors(['missing_1', 'missing_2'])).toBe('missing_2');
  });

  it('uses the plural rules of English', () => {
    const english = createTranslator('en', resources, 'common');
    expect(english.t('seats', { count: 1 })).toBe('1 Platz');
    expect(english.t('seats', { count: 2 })).toBe('2 Plätze');
  });
});
