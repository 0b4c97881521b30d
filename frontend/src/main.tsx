import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { makeStore } from './app/store';
import { createI18n } from './i18n/i18n';
import { keepLanguageInAddress, languageOf, rememberedLanguage } from './i18n/language-choice';
import { parseConfig } from './lib/config';
import { setLibraryTimeZone } from './lib/dates';
import './styles.css';

const mount = document.getElementById('root');
if (!mount) throw new Error('The mount element #root is missing.');

const choice = languageOf(
  window.location.search,
  rememberedLanguage(),
  document.documentElement.lang,
);
const config = {
  ...parseConfig(mount.dataset, document.documentElement.lang),
  language: choice.language,
};
if (choice.chosen) {
  // A chosen language is the page's, and the address names it.
  document.documentElement.lang = config.language;
  keepLanguageInAddress(config.language);
} else if (!document.documentElement.lang.toLowerCase().startsWith(config.language)) {
  // If the page language is not one the app speaks, mark the app's own language.
  mount.lang = config.language;
}

/**
 * The library's time zone (the server's TIME_ZONE), set before the first render so that every
 * time shown is in it, whatever the device's zone; loaded beside the catalogues. Should the
 * settings not load, the default zone stays and the page's own requests show the error.
 */
const timeZone = fetch(`${config.baseApiUrl}settings`)
  .then((res) => res.json() as Promise<{ timeZone?: string }>)
  // A missing or unknown zone keeps the default (setLibraryTimeZone ignores what it cannot use).
  .then(
    (settings) => setLibraryTimeZone(settings.timeZone ?? ''),
    () => undefined,
  );

void Promise.all([createI18n(config), timeZone]).then(([i18n]) => {
  createRoot(mount).render(
    <App config={config} store={makeStore(config)} i18n={i18n} chosen={choice.chosen} />,
  );
});
