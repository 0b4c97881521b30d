import { describe, expect, it } from 'vitest';
import { loadHyphenate, SOFT_HYPHEN } from './hyphenate';

/** The soft hyphens made visible. */
const shown = (text: string) => text.replaceAll(SOFT_HYPHEN, '-');

describe('loadHyphenate', () => {
  it('puts soft hyphens between the syllables of German words', async () => {
    const hyphenate = await loadHyphenate('de');
    expect(shown(hyphenate('Zeitschriftenlesesaal'))).toBe('Zeit-schrif-ten-le-se-saal');
    expect(shown(hyphenate('Heute keine weiteren Termine'))).toBe(
      'Heute keine wei-te-ren Ter-mi-ne',
    );
    // Short words stay whole; the text is otherwise unchanged.
    expect(hyphenate('Raum 3, Stock 2')).toBe('Raum 3, Stock 2');
    // Once more from the cache: the same.
    expect(shown(hyphenate('Zeitschriftenlesesaal'))).toBe('Zeit-schrif-ten-le-se-saal');
  });

  it('hyphenates English by the English patterns', async () => {
    const hyphenate = await loadHyphenate('en');
    expect(shown(hyphenate('Interdisciplinary'))).toBe('In-ter-dis-ci-pli-nary');
    expect(shown(hyphenate('Manuscripts'))).toBe('Man-u-scripts');
    expect(hyphenate('Seats free now')).toBe('Seats free now');
  });

  it('takes German for a language without a catalogue, as the app does', async () => {
    expect(await loadHyphenate('fr')).toBe(await loadHyphenate('de'));
  });
});
