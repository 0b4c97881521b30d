import { describe, expect, it } from 'vitest';
import { HISTORY_WHATS } from '@rr/contracts/history';
import productRules from '../../../docs/product.md?raw';
import { actorLabel, whatLabel } from '../features/admin-history/utils/history';
import { SEAT_PAGE_TEXTS } from '../features/booking/components/seat-page/seat-page-texts';
import { SEAT_PICKER_TEXTS } from '../features/booking/components/seat-picker-texts';
import type { Catalogue } from '../lib/label-override';
import { errorMessageKeys, errorMessageParams, UNKNOWN_ERROR_KEY } from '../lib/error-message';
import de from './de.json';
import displayDe from './display.de.json';
import displayEn from './display.en.json';
import en from './en.json';
import { createI18n } from './i18n';
import staffDe from './staff.de.json';
import staffEn from './staff.en.json';
import visitorDe from './visitor.de.json';
import visitorEn from './visitor.en.json';

type Language = 'de' | 'en';

/**
 * Every catalogue of a language, by name, with the texts that lazy parts keep in their own chunk
 * (the seat page's, the seat picker's).
 */
const CATALOGUES: Record<Language, Record<string, Catalogue>> = {
  de: {
    main: de,
    visitor: visitorDe,
    staff: staffDe,
    display: displayDe,
    seatPage: SEAT_PAGE_TEXTS.de,
    seatPicker: SEAT_PICKER_TEXTS.de,
  },
  en: {
    main: en,
    visitor: visitorEn,
    staff: staffEn,
    display: displayEn,
    seatPage: SEAT_PAGE_TEXTS.en,
    seatPicker: SEAT_PICKER_TEXTS.en,
  },
};

function texts(catalogue: Catalogue, prefix = ''): [string, string][] {
  return Object.entries(catalogue).flatMap(([key, value]): [string, string][] =>
    typeof value === 'string' ? [[`${prefix}${key}`, value]] : texts(value, `${prefix}${key}.`),
  );
}

/** Every text of a language as `catalogue:key` and its text. */
const allTexts = (language: Language): [string, string][] =>
  Object.entries(CATALOGUES[language]).flatMap(([name, catalogue]) =>
    texts(catalogue).map(([key, text]): [string, string] => [`${name}:${key}`, text]),
  );

/** A section of docs/product.md, from its heading to the next one of its level. */
function section(heading: string): string {
  const start = productRules.indexOf(`\n## ${heading}\n`);
  expect(start, heading).toBeGreaterThan(0);
  const end = productRules.indexOf('\n## ', start + 1);
  return productRules.slice(start, end === -1 ? undefined : end);
}

/** The glossary's rows (docs/product.md#glossary) as table cells. */
const glossaryRows = section('Glossary')
  .split('\n')
  .filter((line) => line.startsWith('| ') && !line.startsWith('| Thing'))
  .map((line) =>
    line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim()),
  );
const quoted = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
const NOT: Record<Language, string[]> = {
  de: glossaryRows.flatMap((cells) => quoted(cells[3] ?? '')),
  en: glossaryRows.flatMap((cells) => quoted(cells[4] ?? '')),
};
/** The product's name, the one place a room is a reading room. */
const PRODUCT_NAME: Record<Language, string> = {
  de: 'Lesesaal-Reservierung',
  en: 'Reading room reservations',
};

/** A word on its own (not inside a longer word), in any case. */
const wordPattern = (word: string) => new RegExp(`(?<![\\p{L}])${word}(?![\\p{L}])`, 'iu');

/** An event's name (`TicketConfirmed`) or a code (`ticket__not_booked`, `no_show`). */
const CODE_NAME = /\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b|\b[a-z]+(?:_+[a-z]+)+\b/;

describe('the glossary (docs/product.md#glossary)', () => {
  it('names the words not to use in both languages', () => {
    expect(glossaryRows.length).toBeGreaterThan(5);
    for (const cells of glossaryRows) expect(cells, cells[0]).toHaveLength(5);
    expect(NOT.de).toEqual(expect.arrayContaining(['Saal', 'Reservierungsnummer']));
    expect(NOT.en).toEqual(expect.arrayContaining(['reservation number', 'your reservations']));
  });

  it.each(['de', 'en'] as const)('%s: no catalogue text uses a word it rules out', (language) => {
    const found = allTexts(language).flatMap(([key, text]) => {
      const plain = text.replaceAll(PRODUCT_NAME[language], '').replace(/{{\w+}}/g, '');
      return NOT[language]
        .filter((word) => wordPattern(word).test(plain))
        .map((word) => `${key}: ${word}`);
    });
    expect(found.join('\n')).toBe('');
  });

  it('uses the product name as the app title', () => {
    expect(de.common['app-title']).toBe(PRODUCT_NAME.de);
    expect(en.common['app-title']).toBe(PRODUCT_NAME.en);
  });
});

/**
 * The counted nouns, singular and plural (a form may be both), that a number in a text can
 * count: a number before one of them is a `{{count}}` with its plural forms.
 */
const NOUNS: Record<Language, [string, string][]> = {
  de: [
    ['Termin', 'Termine'],
    ['Platz', 'Plätze'],
    ['Platz', 'Plätzen'],
    ['Reservierung', 'Reservierungen'],
    ['Buchung', 'Buchungen'],
    ['Zeitfenster', 'Zeitfenster'],
    ['Zeitfenster', 'Zeitfenstern'],
    ['Eintrag', 'Einträge'],
    ['Minute', 'Minuten'],
    ['Sekunde', 'Sekunden'],
    ['Stunde', 'Stunden'],
    ['Tag', 'Tage'],
    ['Tag', 'Tagen'],
    ['No-Show', 'No-Shows'],
    ['Raum', 'Räume'],
    ['Adresse', 'Adressen'],
    ['Zeichen', 'Zeichen'],
    ['Person', 'Personen'],
  ],
  en: [
    ['appointment', 'appointments'],
    ['seat', 'seats'],
    ['reservation', 'reservations'],
    ['booking', 'bookings'],
    ['slot', 'slots'],
    ['entry', 'entries'],
    ['minute', 'minutes'],
    ['second', 'seconds'],
    ['hour', 'hours'],
    ['day', 'days'],
    ['no-show', 'no-shows'],
    ['room', 'rooms'],
    ['address', 'addresses'],
    ['character', 'characters'],
    ['person', 'people'],
    ['event', 'events'],
  ],
};

/** Texts whose number before a counted noun is not a count, and why. */
const NOT_COUNTS: Record<string, string> = {
  'visitor:booking.hold.left': 'a duration shown as m:ss',
  'staff:reports.insights.lead.days-range': 'the end of a range of days, always several',
};

const PLURAL = /_(zero|one|two|few|many|other)$/;

/** Words between a number and a noun that end the number's phrase ("2 am Tag", "2 a day"). */
const STOP = new Set('am pro je von in im an auf als a per of at on as'.split(' '));

/**
 * The counted noun a variable counts: the word after it, or the one after an adjective
 * ("2 gebuchte Reservierungen", "2 booked reservations"), before any punctuation or variable.
 */
function countedNoun(text: string, at: number, nouns: Set<string>): string | undefined {
  const after = /^[^.,;:!?(){}„“"]*/.exec(text.slice(at))?.[0] ?? '';
  const [first, second] = after.split(/\s+/).filter(Boolean);
  if (first === undefined) return undefined;
  if (nouns.has(first)) return first;
  return !STOP.has(first) && second !== undefined && nouns.has(second) ? second : undefined;
}

describe('counts in the catalogues', () => {
  it.each(['de', 'en'] as const)('%s: every plural key has its one and other forms', (language) => {
    for (const [name, catalogue] of Object.entries(CATALOGUES[language])) {
      const keys = new Set(texts(catalogue).map(([key]) => key));
      const bases = [...keys].filter((key) => PLURAL.test(key)).map((k) => k.replace(PLURAL, ''));
      for (const base of bases) {
        expect(keys.has(`${base}_one`), `${name}:${base}_one`).toBe(true);
        expect(keys.has(`${base}_other`), `${name}:${base}_other`).toBe(true);
      }
    }
  });

  it.each(['de', 'en'] as const)(
    '%s: a number before a counted noun is a count in the plural form of its key',
    (language) => {
      const singular = new Set(NOUNS[language].map(([one]) => one));
      const plural = new Set(NOUNS[language].map(([, other]) => other));
      const nouns = new Set([...singular, ...plural]);
      const wrong: string[] = [];
      for (const [key, text] of allTexts(language)) {
        if (key in NOT_COUNTS) continue;
        for (const match of text.matchAll(/{{(\w+)}}/g)) {
          const noun = countedNoun(text, match.index + match[0].length, nouns);
          if (noun === undefined) continue;
          const form = PLURAL.exec(key)?.[1];
          if (match[1] !== 'count' || form === undefined)
            wrong.push(`${key}: {{${match[1]}}} ${noun}`);
          else if (form === 'one' && !singular.has(noun)) wrong.push(`${key}: one ${noun}`);
          else if (form === 'other' && !plural.has(noun)) wrong.push(`${key}: other ${noun}`);
        }
      }
      expect(wrong.join('\n')).toBe('');
    },
  );

  it('says "1 Reservierung", "2 Reservierungen", "1 reservation", "2 reservations"', async () => {
    for (const [language, one, two] of [
      ['de', '1 Reservierung', '2 Reservierungen'],
      ['en', '1 reservation', '2 reservations'],
    ] as const) {
      const i18n = await createI18n({ language, labelOverride: {}, interface: 'admin' });
      const t = i18n.getFixedT(language, 'admin-holidays');
      expect(t('closure.ticket-count', { count: 1 })).toBe(one);
      expect(t('closure.ticket-count', { count: 2 })).toBe(two);
      expect(t('closure.ticket-count', { count: 0 })).toBe(two.replace('2', '0'));
    }
  });
});

describe('no event or code name reaches a screen', () => {
  it.each(['de', 'en'] as const)('%s: no catalogue text is a code name', (language) => {
    const found = allTexts(language)
      .filter(([, text]) => CODE_NAME.test(text.replace(/{{\w+}}/g, '')))
      .map(([key, text]) => `${key}: ${text}`);
    expect(found).toEqual([]);
  });

  it.each(['de', 'en'] as const)(
    '%s: the history says every event in words, an unknown one without its name',
    async (language) => {
      const i18n = await createI18n({ language, labelOverride: {}, interface: 'admin' });
      const t = i18n.getFixedT(language, 'admin-history');
      const shown = (label: { key: string; params?: Readonly<Record<string, string>> }) =>
        t(label.key, { ...label.params });
      const labels = HISTORY_WHATS.map((what) => shown(whatLabel({ what })));
      for (const [index, label] of labels.entries()) {
        expect(label, HISTORY_WHATS[index]).not.toMatch(/^what\./);
        expect(label, HISTORY_WHATS[index]).not.toMatch(CODE_NAME);
      }
      // Each what its own words.
      expect(new Set(labels).size).toBe(labels.length);
      const unknown = shown(whatLabel({ what: 'TicketTeleported' }));
      expect(unknown).not.toContain('TicketTeleported');
      expect(unknown).not.toMatch(CODE_NAME);
      for (const actor of [
        { kind: 'system', job: 'nightly-cleanup' },
        { kind: 'robot' },
        { kind: 'system', job: 'no-show-release' },
        { kind: 'system', job: 'confirmation-release' },
      ]) {
        const text = shown(actorLabel(actor));
        expect(text).not.toMatch(/^actor\./);
        expect(text).not.toMatch(/nightly-cleanup|robot|-release/);
      }
    },
  );

  /** docs/product.md#errors: every code its table names, and the rule keys it lists. */
  const errorCodes = [
    ...new Set([
      ...section('Errors')
        .split('\n')
        .filter((line) => line.startsWith('| `'))
        .flatMap((line) => quoted(line.split('|')[1] ?? '')),
      ...quoted(section('Errors')).filter((code) => /^ticket__validation_error_[a-z]/.test(code)),
    ]),
  ];

  it.each(['de', 'en'] as const)(
    '%s: every error code of docs/product.md#errors has a message of its own',
    async (language) => {
      expect(errorCodes.length).toBeGreaterThan(50);
      const i18n = await createI18n({ language, labelOverride: {}, interface: 'admin' });
      const t = i18n.getFixedT(language, 'common-error');
      const unknown = t(UNKNOWN_ERROR_KEY);
      for (const code of errorCodes) {
        // The bare code, or its plural forms for a code whose message names a count.
        const problem = { error: code, payload: [] };
        // The refusals only a seat's page meets have their message in its own texts.
        const atSeat = (SEAT_PAGE_TEXTS[language].errors as Catalogue)[code];
        const message =
          typeof atSeat === 'string'
            ? atSeat
            : t(errorMessageKeys(problem), { ...errorMessageParams(problem), count: 2 });
        if (code !== UNKNOWN_ERROR_KEY) expect(message, code).not.toBe(unknown);
        expect(message, code).not.toMatch(CODE_NAME);
      }
    },
  );

  it.each(['de', 'en'] as const)(
    '%s: in the visitor app every code reads as its message or the unknown error, never by its name',
    async (language) => {
      const i18n = await createI18n({ language, labelOverride: {}, interface: 'user' });
      const t = i18n.getFixedT(language, 'common-error');
      for (const code of [...errorCodes, 'some__new_code']) {
        const problem = { error: code, payload: ['seats', '3'] };
        const message = t(errorMessageKeys(problem), errorMessageParams(problem));
        expect(message, code).not.toMatch(CODE_NAME);
        // The unknown error's message says "unknown", a word, not the code.
        if (code !== UNKNOWN_ERROR_KEY) expect(message, code).not.toContain(code);
      }
    },
  );
});
