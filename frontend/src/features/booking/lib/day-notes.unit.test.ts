import { describe, expect, it } from 'vitest';
import { dayNotes, type DayNoteWords } from './day-notes';

const words: DayNoteWords = {
  closed: (reasons) => `geschlossen: ${reasons}`,
  closedPlain: 'geschlossen',
  open: 'geöffnet',
  bookableFrom: (date) => `ab ${date} online buchbar`,
  laterSymbol: '◌',
};

describe('dayNotes (the visitor calendar)', () => {
  const noteOf = dayNotes(
    {
      bookableFrom: '2026-12-01',
      bookableUntil: '2026-12-22',
      holidays: [
        { date: '2026-12-08', name: 'Mariä Empfängnis' },
        { date: '2026-12-10', name: 'Betriebsausflug' },
        { date: '2026-12-24', name: 'Heiliger Abend' },
        { date: '2026-12-24', name: 'Lesesaal geschlossen' },
      ],
      closures: [
        { date: '2026-12-09', reason: 'Wasserschaden' },
        { date: '2026-12-10', reason: 'Betriebsausflug' },
        { date: '2026-12-28', reason: 'Inventur' },
      ],
      openDays: ['2026-12-08', '2026-12-15', '2026-12-23'],
      laterDays: [
        { date: '2026-12-23', bookableFrom: '2026-12-02' },
        { date: '2026-12-24', bookableFrom: '2026-12-03' },
        { date: '2026-12-28', bookableFrom: '2026-12-04' },
      ],
    },
    words,
  );

  it('labels a holiday with slots as open, one without by its name alone', () => {
    expect(noteOf('2026-12-08')).toEqual({ text: 'Mariä Empfängnis: geöffnet' });
    expect(noteOf('2026-12-24')).toEqual({
      text: 'Heiliger Abend, Lesesaal geschlossen · ab 2026-12-03 online buchbar',
    });
  });

  it("names a closed day's reason, once when it is the holiday's name; a closed day opens no later", () => {
    expect(noteOf('2026-12-09')).toEqual({ text: 'geschlossen: Wasserschaden' });
    expect(noteOf('2026-12-10')).toEqual({ text: 'Betriebsausflug: geschlossen' });
    expect(noteOf('2026-12-28')).toEqual({ text: 'geschlossen: Inventur' });
  });

  it('says from which day a day after the window can be booked online, and nothing up to it', () => {
    expect(noteOf('2026-12-23')).toEqual({ text: 'ab 2026-12-02 online buchbar', symbol: '◌' });
    expect(noteOf('2026-12-22')).toBeUndefined();
    expect(noteOf('2026-12-15')).toBeUndefined();
  });

  it('says nothing while the calendar loads', () => {
    expect(dayNotes(undefined, words)('2027-01-05')).toBeUndefined();
  });

  it('names holidays and closures in the page language, the German text where no English one was given', () => {
    const english = dayNotes(
      {
        bookableFrom: '2026-12-01',
        bookableUntil: '2026-12-31',
        holidays: [
          { date: '2026-12-08', name: 'Mariä Empfängnis', nameEn: 'Immaculate Conception' },
          { date: '2026-12-24', name: 'Heiliger Abend', nameEn: 'Christmas Eve' },
          { date: '2026-12-24', name: 'Lesesaal geschlossen' },
        ],
        closures: [
          { date: '2026-12-15', reason: 'Wasserschaden', reasonEn: 'Water damage' },
          { date: '2026-12-16', reason: 'Inventur' },
        ],
        openDays: [],
        laterDays: [],
      },
      { ...words, closed: (reasons) => `closed: ${reasons}` },
      'en',
    );
    expect(english('2026-12-08')).toEqual({ text: 'Immaculate Conception' });
    expect(english('2026-12-24')).toEqual({ text: 'Christmas Eve, Lesesaal geschlossen' });
    expect(english('2026-12-15')).toEqual({ text: 'closed: Water damage' });
    expect(english('2026-12-16')).toEqual({ text: 'closed: Inventur' });
  });
});
