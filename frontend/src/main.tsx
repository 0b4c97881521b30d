import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { makeStore } from './app/store';
import { createI18n } from './i18n/i18n';
import { parseConfig } from './lib/config';
import './styles.css';

const mount = document.getElementById('root');
if (!mount) throw new Error('The mount element #root is missing.');

const config = parseConfig(mount.dataset, document.documentElement.lang);
// If the page language is not one the app speaks, mark the app's own language.
if (!document.documentElement.lang.toLowerCase().startsWith(config.language)) {
  mount.lang = config.language;
}

void createI18n(config).then((i18n) => {
  createRoot(mount).render(<App config={config} store={makeStore(config)} i18n={i18n} />);
});
