import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { endAfterStart, futureDate, intBetween, isoDate, time, untilNotBefore } from './fields.ts';
import { check, fieldErrorOf } from './issues.ts';
import { messageOf as englishOf, messages } from './messages.ts';
import { blacklistEntryInput } from './blacklist.ts';
import { ClosureInput } from './closures.ts';
import { HolidayInput } from './holidays.ts';
import { OwnerInput } from './owner.ts';
import { RoomInput } from './rooms.ts';
import {
  isMultiLineText,
  isSingleLineText,
  isStorableText,
  optionalEmail,
  optionalText,
  requiredEmail,
  requiredText,
} from './rules.ts';

/** The rule a single value fails (key and parameters), or null when it passes. */
function ruleOf(schema: z.core.$ZodType, value: unknown) {
  const result = check(z.object({ v: schema }), { v: value });
  return result.ok ? null : (result.errors.v ?? null);
}

/** The field errors of a value a contract refuses (none when it passes). */
function errorsOf(schema: z.core.$ZodType, value: unknown) {
  const result = check(schema, value);
  return result.ok ? {} : result.errors;
}

/** The API's (English) text of the first issue. */
function messageOf(schema: z.core.$ZodType, value: unknown) {
  const result = z.safeParse(schema, value);
  return result.success ? null : englishOf(fieldErrorOf(result.error.issues[0]!));
}

describe('required text', () => {
  const name = requiredText(50, 3);

  it('trims, and refuses an empty value as required', () => {
    expect(z.parse(name, '  Lesesaal  ')).toBe('Lesesaal');
    for (const blank of ['', '   ', undefined, null]) {
      expect(ruleOf(name, blank)).toEqual({ key: 'required' });
      expect(messageOf(name, blank)).toBe('Value is required');
    }
  });

  it('checks the length of the trimmed value', () => {
    expect(ruleOf(name, ' ab ')).toEqual({ key: 'min-length', params: { min: 3 } });
    expect(messageOf(name, 'ab')).toBe('This field should be at least 3 characters long');
    expect(ruleOf(name, 'abc')).toBeNull();
    expect(ruleOf(name, 'x'.repeat(50))).toBeNull();
    expect(ruleOf(name, 'x'.repeat(51))).toEqual({ key: 'max-length', params: { max: 50 } });
    expect(messageOf(name, 'x'.repeat(51))).toBe('The maximum length allowed is 50');
  });

  it('refuses text PostgreSQL cannot store (NUL, lone surrogates), keeps every character', () => {
    expect(isStorableText('Grüße, 名前 😀 \u00A0\uFFFD')).toBe(true);
    for (const bad of ['A\u0000B', '\uD800', 'a\uDC00', '\uDE00\uD83D']) {
      expect(isStorableText(bad)).toBe(false);
      expect(ruleOf(requiredText(40), bad)).toEqual({ key: 'characters' });
      expect(ruleOf(optionalText(40), bad)).toEqual({ key: 'characters' });
    }
    expect(messageOf(requiredText(40), 'A\u0000B')).toBe(messages.characters);
    expect(isStorableText('\uD83D\uDE00')).toBe(true);
  });
});

/** Text with control characters (C0, DEL, C1, U+2028/9) among ordinary ones. */
const CONTROLS = [
  '\r',
  '\n',
  '\r\n',
  '\t',
  '\u0001',
  '\u000b',
  '\u000c',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009b',
  '\u2028',
  '\u2029',
];
/**
 * Ordinary text: any graphemes but control characters and separators (a grapheme may be one,
 * e.g. U+0085, which looks like a space), storable.
 */
const ordinary = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
  .filter((s) => !/[\p{Cc}\u2028\u2029]/u.test(s) && isStorableText(s));
/** A text that holds at least one of `controls` between ordinary characters. */
const withControl = (controls: readonly string[]) =>
  fc
    .tuple(ordinary, fc.constantFrom(...controls), ordinary)
    .map(([a, c, b]) => `${a.trim() || 'x'}${c}${b.trim() || 'y'}`);

describe('text of one line, text of several lines', () => {
  it('refuses every control character in a text of one line', () => {
    fc.assert(
      fc.property(withControl(CONTROLS), (text) => {
        expect(isSingleLineText(text)).toBe(false);
        expect(ruleOf(requiredText(100), text)).toEqual({ key: 'characters' });
        expect(ruleOf(optionalText(100), text)).toEqual({ key: 'characters' });
      }),
    );
  });

  it('keeps line feeds (CR LF and CR as LF) in a text of several lines, refuses other controls', () => {
    fc.assert(
      fc.property(withControl(['\n', '\r\n', '\r']), (text) => {
        const value = z.parse(requiredText(100, 1, 'multi'), text);
        expect(value).toBe(text.trim().replace(/\r\n?/g, '\n'));
        expect(isMultiLineText(value)).toBe(true);
      }),
    );
    const others = CONTROLS.filter((c) => !['\r', '\n', '\r\n'].includes(c));
    fc.assert(
      fc.property(withControl(others), (text) => {
        expect(ruleOf(requiredText(100, 1, 'multi'), text)).toEqual({ key: 'characters' });
        expect(ruleOf(optionalText(100, 'multi'), text)).toEqual({ key: 'characters' });
      }),
    );
  });

  it('passes text without control characters, whatever else it holds', () => {
    fc.assert(
      fc.property(ordinary, (text) => {
        expect(isSingleLineText(text)).toBe(true);
        expect(isMultiLineText(text)).toBe(true);
      }),
    );
  });

  it('refuses a line break in every name of rooms, holidays, closures and owners', () => {
    const name = 'Red\r\nEND:VEVENT\r\nBEGIN:VEVENT';
    const room = {
      name: 'Lesesaal',
      description: 'Ruhig',
      capacity: 3,
      openStartValue: 0,
      openStartType: 'DAY',
      openEndValue: 30,
      openEndType: 'DAY',
    };
    expect(errorsOf(RoomInput, { ...room, name })).toEqual({ name: { key: 'characters' } });
    expect(check(RoomInput, { ...room, description: 'One\nTwo' }).ok).toBe(true);
    expect(errorsOf(RoomInput, { ...room, description: 'One\u0007' })).toEqual({
      description: { key: 'characters' },
    });
    expect(errorsOf(HolidayInput, { name, date: '2027-01-06' })).toEqual({
      name: { key: 'characters' },
    });
    expect(
      check(HolidayInput, { name: 'Dreikönig', description: 'a\nb', date: '2027-01-06' }).ok,
    ).toBe(true);
    const closure = { fromDate: '2027-01-06', untilDate: '2027-01-06', reason: name };
    expect(errorsOf(ClosureInput, closure)).toEqual({ reason: { key: 'characters' } });
    const blacklist = blacklistEntryInput(() => '2027-01-01');
    const entry = { email: 'a@b.at', expiredAt: '2099-01-01' };
    expect(check(blacklist, { ...entry, description: 'a\nb' }).ok).toBe(true);
    expect(errorsOf(blacklist, { ...entry, description: 'a\u001bb' })).toEqual({
      description: { key: 'characters' },
    });
    const owner = { salutation: 'NONE', firstName: 'Ann', lastName: name, email: 'a@b.at' };
    expect(errorsOf(OwnerInput, owner)).toMatchObject({ lastName: { key: 'characters' } });
  });
});

describe('optional text', () => {
  const description = optionalText(500);

  it('lets an empty value pass, as undefined', () => {
    for (const empty of ['', '   ', null, undefined])
      expect(z.parse(description, empty)).toBeUndefined();
    expect(z.parse(description, ' note ')).toBe('note');
  });

  it('checks the length', () => {
    expect(ruleOf(description, 'x'.repeat(500))).toBeNull();
    expect(ruleOf(description, 'x'.repeat(501))).toEqual({
      key: 'max-length',
      params: { max: 500 },
    });
  });
});

describe('e-mail addresses', () => {
  it('requires a valid address of at most 320 characters', () => {
    const email = requiredEmail();
    expect(z.parse(email, ' anna@example.at ')).toBe('anna@example.at');
    expect(ruleOf(email, '')).toEqual({ key: 'required' });
    expect(ruleOf(email, 'no-at-sign')).toEqual({ key: 'email' });
    expect(messageOf(email, 'no-at-sign')).toBe('Value is not a valid email address');
    expect(ruleOf(email, `${'a'.repeat(310)}@example.at`)).toEqual({
      key: 'max-length',
      params: { max: 320 },
    });
  });

  it('lets an optional address be empty', () => {
    const email = optionalEmail();
    expect(z.parse(email, '')).toBeUndefined();
    expect(z.parse(email, '  ')).toBeUndefined();
    expect(z.parse(email, undefined)).toBeUndefined();
    expect(ruleOf(email, 'x')).toEqual({ key: 'email' });
    expect(ruleOf(email, `${'a'.repeat(310)}@example.at`)).toEqual({
      key: 'max-length',
      params: { max: 320 },
    });
  });
});

describe('integers in a range', () => {
  const capacity = intBetween(0, 99999);

  it('accepts the bounds', () => {
    for (const n of [0, 1, 99999]) expect(ruleOf(capacity, n)).toBeNull();
  });

  it('refuses values outside with both bounds', () => {
    for (const n of [-1, 100000]) {
      expect(ruleOf(capacity, n)).toEqual({ key: 'between', params: { min: 0, max: 99999 } });
      expect(messageOf(capacity, n)).toBe('The value must be between 0 and 99999');
    }
  });

  it('wants an integer, and a value', () => {
    expect(ruleOf(capacity, 1.5)).toEqual({ key: 'integer' });
    expect(messageOf(capacity, 1.5)).toBe('Enter an integer');
    expect(ruleOf(capacity, Number.NaN)).toEqual({ key: 'integer' });
    expect(ruleOf(capacity, undefined)).toEqual({ key: 'required' });
    expect(messageOf(capacity, 'ten')).toBe('Value is required');
  });
});

describe('dates and times', () => {
  it('accepts the dates PostgreSQL has, from 0001-01-01 to 9999-12-31', () => {
    for (const d of ['0001-01-01', '2026-02-28', '2028-02-29', '9999-12-31'])
      expect(ruleOf(isoDate(), d), d).toBeNull();
    for (const d of [
      '0000-01-01',
      '99999-01-01',
      '+10000-01-01',
      '2026-02-29',
      '2026-13-01',
      '31.12.2027',
    ]) {
      expect(ruleOf(isoDate(), d), d).toEqual({ key: 'date' });
      expect(messageOf(isoDate(), d)).toBe('Select a valid date');
    }
    expect(ruleOf(isoDate(), undefined)).toEqual({ key: 'required' });
  });

  it('wants a date after today for future dates', () => {
    const future = futureDate(() => '2026-03-02');
    expect(ruleOf(future, '2026-03-03')).toBeNull();
    for (const d of ['2026-03-02', '2026-03-01']) {
      expect(ruleOf(future, d)).toEqual({ key: 'date-future' });
      expect(messageOf(future, d)).toBe('Date must be in the future');
    }
    expect(ruleOf(future, '2026-02-30')).toEqual({ key: 'date' });
  });

  it('accepts times with hour 0-23 and minute 0-59', () => {
    for (const t of ['00:00', '23:59', ' 08:30 ']) expect(ruleOf(time(), t), t).toBeNull();
    for (const t of ['24:00', '10:60', '8:00', 'noon']) {
      expect(ruleOf(time(), t), t).toEqual({ key: 'time' });
      expect(messageOf(time(), t)).toBe('Select a valid time');
    }
    expect(ruleOf(time(), '')).toEqual({ key: 'required' });
  });
});

describe('cross-field rules', () => {
  const range = z
    .object({ from: z.optional(isoDate()), until: z.optional(isoDate()), n: intBetween(0, 9) })
    .check(untilNotBefore('from', 'until'));
  const times = z
    .object({ start: time(), end: time(), n: intBetween(0, 9) })
    .check(endAfterStart('start', 'end'));

  it('wants a range not to end before it starts, on the end date', () => {
    expect(check(range, { from: '2026-03-02', until: '2026-03-02', n: 1 }).ok).toBe(true);
    expect(check(range, { from: '2026-03-02', until: '2026-03-01', n: 1 })).toEqual({
      ok: false,
      errors: { until: { key: 'date-not-before' } },
    });
    const issue = z.safeParse(range, { from: '2026-03-02', until: '2026-03-01', n: 1 }).error!
      .issues[0]!;
    expect(englishOf(fieldErrorOf(issue))).toBe('Date not valid or ends BEFORE start date');
  });

  it('leaves missing or invalid dates to their own fields', () => {
    expect(check(range, { until: '2026-03-01', n: 1 }).ok).toBe(true);
    expect(check(range, { from: '2026-03-02', until: '2026-02-30', n: 1 })).toEqual({
      ok: false,
      errors: { until: { key: 'date' } },
    });
  });

  it('is checked when other fields failed too (a form shows every error at once)', () => {
    expect(check(range, { from: '2026-03-02', until: '2026-03-01' })).toEqual({
      ok: false,
      errors: { n: { key: 'required' }, until: { key: 'date-not-before' } },
    });
    expect(check(range, 'not an object').ok).toBe(false);
  });

  it('wants the end time after the start time', () => {
    expect(check(times, { start: '08:00', end: '08:01', n: 1 }).ok).toBe(true);
    for (const end of ['08:00', '07:59'])
      expect(check(times, { start: '08:00', end, n: 1 })).toEqual({
        ok: false,
        errors: { end: { key: 'time-after' } },
      });
    const issue = z.safeParse(times, { start: '08:00', end: '07:00', n: 1 }).error!.issues[0]!;
    expect(englishOf(fieldErrorOf(issue))).toBe('Time until must be after Time from');
    expect(check(times, { start: '', end: '07:00', n: 1 })).toEqual({
      ok: false,
      errors: { start: { key: 'required' } },
    });
  });
});

describe('messages', () => {
  it('are the spec texts, with their parameters', () => {
    const { between, maxLength, minLength, ...texts } = messages;
    expect(texts).toEqual({
      required: 'Value is required',
      email: 'Value is not a valid email address',
      integer: 'Enter an integer',
      date: 'Select a valid date',
      time: 'Select a valid time',
      characters: 'The value contains characters that are not allowed',
    });
    expect(between(0, 365)).toBe('The value must be between 0 and 365');
    expect(maxLength(40)).toBe('The maximum length allowed is 40');
    expect(minLength(5)).toBe('This field should be at least 5 characters long');
    expect(englishOf({ key: 'weekday' })).toBe('Select at least one weekday');
    expect(englishOf({ key: 'phone' })).toBe('Enter a telephone number with numbers or plus only');
    expect(englishOf({ key: 'date-future' })).toBe('Date must be in the future');
  });
});

describe('issues without a rule', () => {
  it('fall back to a generic key', () => {
    expect(fieldErrorOf({ code: 'unrecognized_keys', keys: ['x'], path: [], message: '' })).toEqual(
      { key: 'invalid' },
    );
    expect(fieldErrorOf({ code: 'custom', path: [], message: '', params: {} })).toEqual({
      key: 'invalid',
    });
  });

  it('name an empty choice required only when the parse reported its input (as check does)', () => {
    const choice = z.object({ c: z.enum(['A', 'B']) });
    expect(check(choice, {})).toEqual({ ok: false, errors: { c: { key: 'required' } } });
    expect(check(choice, { c: 'X' })).toEqual({ ok: false, errors: { c: { key: 'invalid' } } });
    // The server parses without the input: its own message for a wrong choice stays.
    expect(fieldErrorOf(z.safeParse(choice, {}).error!.issues[0]!)).toEqual({ key: 'invalid' });
  });
});
