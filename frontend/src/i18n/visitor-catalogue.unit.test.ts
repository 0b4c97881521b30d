import { describe, expect, it } from 'vitest';
import type { Catalogue } from '../lib/label-override';
import de from './de.json';
import en from './en.json';
import { mergeCatalogues } from './i18n';
import visitorDe from './visitor.de.json';
import visitorEn from './visitor.en.json';

function texts(catalogue: Catalogue, prefix = ''): [string, string][] {
  return Object.entries(catalogue).flatMap(([key, value]): [string, string][] =>
    typeof value === 'string' ? [[`${prefix}${key}`, value]] : texts(value, `${prefix}${key}.`),
  );
}

const keys = (catalogue: Catalogue) => texts(catalogue).map(([key]) => key);
const variables = (text: string) => [...text.matchAll(/{{(\w+)}}/g)].map((m) => m[1]).sort();

/** Error codes of the visitor API that the main catalogue may lack (docs/product.md#errors and the backend). */
const VISITOR_ERROR_KEYS = [
  'transaction__expired',
  'transaction__already_booked',
  'transaction__empty',
  'ticket__not_cancelable',
  'concurrency__retry_exhausted',
  'ticket__validation_error_timeslot_already_in_transaction',
  'ticket__validation_error_max_tickets_per_transaction_reached',
  'ticket__validation_error_timeslot_no_tickets_left',
  'ticket__validation_error_timeslot_not_open',
  'ticket__validation_error_max_tickets_per_time_reached',
  'ticket__validation_error_max_tickets_per_day_reached',
  'ticket__validation_error_max_tickets_by_user_reached',
  'booking__email_blacklisted',
  'booking__email_domain_not_allowed',
  'booking__no_show_blocked',
  'booking__no_show_blocked_until',
  'booking__confirmation_lapsed',
  'booking__confirmation_link_invalid',
  'booking__email_domain_not_allowed_domains',
  'recaptcha__validation_error',
  'validation__error',
  'unknown',
];

describe('visitor message catalogues', () => {
  it('have the same keys in German and English', () => {
    expect(keys(visitorEn).sort()).toEqual(keys(visitorDe).sort());
  });

  it('have no empty texts', () => {
    for (const catalogue of [visitorDe, visitorEn]) {
      const all = texts(catalogue);
      expect(all.length).toBeGreaterThan(50);
      for (const [key, text] of all) expect(text.trim().length, key).toBeGreaterThan(0);
    }
  });

  it('use the same interpolation variables in both languages', () => {
    const english = new Map(texts(visitorEn));
    for (const [key, text] of texts(visitorDe)) {
      expect(variables(english.get(key) ?? ''), key).toEqual(variables(text));
    }
  });

  it('have namespaces at the top level, like the main catalogue', () => {
    for (const value of Object.values(visitorDe)) expect(typeof value).toBe('object');
    expect(Object.keys(visitorDe)).toEqual(expect.arrayContaining(['booking', 'common-error']));
  });

  it.each([
    ['de', de, visitorDe],
    ['en', en, visitorEn],
  ])('%s: merged into the main catalogue, every visitor error is there', (_l, main, visitor) => {
    const merged = mergeCatalogues(main, visitor);
    expect(Object.keys(merged['common-error'] as Catalogue)).toEqual(
      expect.arrayContaining(VISITOR_ERROR_KEYS),
    );
    // The main catalogue's own texts survive the merge.
    expect(keys(merged)).toEqual(expect.arrayContaining(keys(main)));
    expect((merged.common as Catalogue).loading).toBe((main.common as Catalogue).loading);
  });
});

describe('mergeCatalogues', () => {
  it('merges deeply without changing its inputs', () => {
    const base: Catalogue = { a: { b: 'x', c: 'y' }, d: 'z' };
    const extra: Catalogue = { a: { c: 'Y', e: 'E' }, f: { g: 'G' } };
    expect(mergeCatalogues(base, extra)).toEqual({
      a: { b: 'x', c: 'Y', e: 'E' },
      d: 'z',
      f: { g: 'G' },
    });
    expect(base).toEqual({ a: { b: 'x', c: 'y' }, d: 'z' });
  });
});
