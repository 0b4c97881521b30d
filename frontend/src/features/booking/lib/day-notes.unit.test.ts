import { describe, expect, it } from 'vitest';
import { dayNotes } from './day-notes';

const later = { text: 'noch nicht buchbar', symbol: '◌' };

describe('dayNotes (the visitor calendar)', () => {
  const noteOf = dayNotes(
    {
      bookableFrom: '2026-12-01',
      bookableUntil: '2026-12-22',
      holidays: [
        { date: '2026-12-08', name: 'Mariä Empfängnis' },
        { date: '2026-12-24', name: 'Heiliger Abend' },
        { date: '2026-12-24', name: 'Lesesaal geschlossen' },
      ],
    },
    later,
  );

  it('names a holiday, within the booking window and after it, by its name', () => {
    expect(noteOf('2026-12-08')).toEqual({ text: 'Mariä Empfängnis' });
    expect(noteOf('2026-12-24')).toEqual({ text: 'Heiliger Abend, Lesesaal geschlossen' });
  });

  it('says "not yet bookable" after the window\'s last day, and nothing up to it', () => {
    expect(noteOf('2026-12-22')).toBeUndefined();
    expect(noteOf('2026-12-01')).toBeUndefined();
    expect(noteOf('2026-12-23')).toBe(later);
    expect(noteOf('2027-01-05')).toBe(later);
  });

  it('says nothing while the calendar loads', () => {
    expect(dayNotes(undefined, later)('2027-01-05')).toBeUndefined();
  });

  it('names a holiday in the page language, the German name where no English one was given', () => {
    const english = dayNotes(
      {
        bookableFrom: '2026-12-01',
        bookableUntil: '2026-12-31',
        holidays: [
          { date: '2026-12-08', name: 'Mariä Empfängnis', nameEn: 'Immaculate Conception' },
          { date: '2026-12-24', name: 'Heiliger Abend', nameEn: 'Christmas Eve' },
          { date: '2026-12-24', name: 'Lesesaal geschlossen' },
        ],
      },
      later,
      'en',
    );
    expect(english('2026-12-08')).toEqual({ text: 'Immaculate Conception' });
    expect(english('2026-12-24')).toEqual({ text: 'Christmas Eve, Lesesaal geschlossen' });
  });
});
