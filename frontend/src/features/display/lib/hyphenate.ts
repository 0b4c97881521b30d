import createHyphenator from 'hyphen';
import { useEffect, useState } from 'react';

/** A text with soft hyphens (U+00AD) between the syllables of its longer words. */
export type Hyphenate = (text: string) => string;

/** The soft hyphen: invisible unless a line breaks at it, then shown as a hyphen. */
export const SOFT_HYPHEN = '\u00ad';

/** Words shorter than this stay whole: they fit on a line of any screen the display runs on. */
const MIN_WORD_LENGTH = 6;

const unchanged: Hyphenate = (text) => text;

/**
 * The hyphenation patterns (TeX's) of each catalogue language, each its own chunk: the display
 * loads the one of its page's language, and no other page loads any (the visitor's download does
 * not grow). German by the reformed spelling's rules; English by Liang's patterns, whose breaks
 * readers expect ("Man-u-scripts", where the British set gives "Ma-nus-cripts"). The patterns
 * alone, not the package's per-language modules: those share the engine, which the build would
 * then move into the chunk every page loads; imported here, it stays in the display's.
 */
const PATTERNS = {
  de: () => import('hyphen/patterns/de-1996'),
  en: () => import('hyphen/patterns/en-us'),
} as const;

const loaded = new Map<string, Promise<Hyphenate>>();

/**
 * The hyphenation of a language (`de`, else `en`), loaded once. The words' soft hyphens come
 * from the patterns, not from the browser: Chromium as Debian ships it, and many a kiosk browser,
 * has no hyphenation dictionary, so CSS `hyphens: auto` alone breaks a long room name
 * ("Zeitschriftenraum") mid-syllable and without a hyphen. A browser that hyphenates by itself
 * breaks at the same soft hyphens.
 */
export function loadHyphenate(language: string): Promise<Hyphenate> {
  const key = language === 'en' ? 'en' : 'de';
  let hyphenate = loaded.get(key);
  if (!hyphenate) {
    hyphenate = PATTERNS[key]().then(({ default: patterns }) => {
      // Synchronous (the factory's default): a name is hyphenated as it renders.
      const hyphenateSync = createHyphenator(patterns, {
        hyphenChar: SOFT_HYPHEN,
        minWordLength: MIN_WORD_LENGTH,
      });
      // A screen renders the same few names every second: each is hyphenated once.
      const done = new Map<string, string>();
      return (text: string) => {
        let result = done.get(text);
        if (result === undefined) {
          const hyphenated = hyphenateSync(text);
          result = typeof hyphenated === 'string' ? hyphenated : text;
          done.set(text, result);
        }
        return result;
      };
    });
    // A chunk that failed to load (a network hiccup) is tried again by the next screen.
    hyphenate.catch(() => loaded.delete(key));
    loaded.set(key, hyphenate);
  }
  return hyphenate;
}

/**
 * The hyphenation of the language for a screen: texts stay as they are until its patterns have
 * loaded (a moment after the first paint), or when they cannot be.
 */
export function useHyphenate(language: string): Hyphenate {
  const [hyphenate, setHyphenate] = useState<{ of: string; fn: Hyphenate } | null>(null);
  useEffect(() => {
    let current = true;
    loadHyphenate(language).then(
      (fn) => {
        if (current) setHyphenate({ of: language, fn });
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [language]);
  return hyphenate?.of === language ? hyphenate.fn : unchanged;
}

/** The text without its soft hyphens: what a reader means. */
export const withoutSoftHyphens = (text: string): string => text.replaceAll(SOFT_HYPHEN, '');

/**
 * Copies of the screen's text without the soft hyphens: pasted elsewhere, a word with invisible
 * hyphens in it would not be found by a search.
 */
export function useCopyWithoutSoftHyphens(): void {
  useEffect(() => {
    const copy = (event: ClipboardEvent) => {
      const selected = document.getSelection()?.toString() ?? '';
      if (!event.clipboardData || !selected.includes(SOFT_HYPHEN)) return;
      event.clipboardData.setData('text/plain', withoutSoftHyphens(selected));
      event.preventDefault();
    };
    document.addEventListener('copy', copy);
    return () => document.removeEventListener('copy', copy);
  }, []);
}
