import { describe, expect, it } from 'vitest';
import { languageOf, textIn, withLanguage } from './language-choice';

describe('languageOf (the page language, docs/product.md#configuration)', () => {
  it("takes the address's lang first, then the remembered choice, then the page's lang", () => {
    expect(languageOf('?lang=en', 'de', 'de')).toEqual({ language: 'en', chosen: true });
    expect(languageOf('?month=3&lang=de', 'en', 'en')).toEqual({ language: 'de', chosen: true });
    expect(languageOf('', 'en', 'de')).toEqual({ language: 'en', chosen: true });
    expect(languageOf('', null, 'en-GB')).toEqual({ language: 'en', chosen: false });
    expect(languageOf('', null, '')).toEqual({ language: 'de', chosen: false });
  });

  it('ignores a language the app does not speak, in the address and remembered', () => {
    expect(languageOf('?lang=fr', 'it', 'en')).toEqual({ language: 'en', chosen: false });
    expect(languageOf('?lang=EN', null, 'de')).toEqual({ language: 'de', chosen: false });
  });
});

describe('withLanguage', () => {
  it('sets or replaces lang and keeps the rest of the address', () => {
    expect(withLanguage('https://lib.example/room/1?month=3&year=2027', 'en')).toBe(
      'https://lib.example/room/1?month=3&year=2027&lang=en',
    );
    expect(withLanguage('https://lib.example/?lang=en#top', 'de')).toBe(
      'https://lib.example/?lang=de#top',
    );
  });
});

describe('textIn (a text staff wrote and its translation)', () => {
  it("shows the page language's text and falls back to the other when it is empty", () => {
    expect(textIn('en', 'Lesesaal', 'Reading room')).toBe('Reading room');
    expect(textIn('de', 'Lesesaal', 'Reading room')).toBe('Lesesaal');
    expect(textIn('en', 'Lesesaal', undefined)).toBe('Lesesaal');
    expect(textIn('en', 'Lesesaal', '')).toBe('Lesesaal');
    expect(textIn('de', '', 'Reading room')).toBe('Reading room');
    expect(textIn('de', null, null)).toBe('');
  });
});
