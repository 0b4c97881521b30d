import { lazy, StrictMode, Suspense, useMemo, useState } from 'react';
import { Provider } from 'react-redux';
import { PermissionError } from '../components/permission-error';
import { createI18n } from '../i18n/i18n';
import { I18nProvider, LanguageContext, type LanguageSwitching } from '../i18n/i18n-context';
import { keepLanguageInAddress, rememberLanguage } from '../i18n/language-choice';
import type { Translator } from '../i18n/translator';
import type { AppConfig, Language } from '../lib/config';
import { ConfigContext } from './config-context';
import type { AppStore } from './store';

// Each interface is its own chunk: visitors never download the admin screens.
const UserApp = lazy(() => import('./user-app').then((module) => ({ default: module.UserApp })));
// The admin chunk's default export is its interface: no wrapper needed (the visitor's download is
// at its budget, docs/architecture.md).
const AdminApp = lazy(() => import('./admin-app'));
const DisplayApp = lazy(() =>
  import('./display-app').then((module) => ({ default: module.DisplayApp })),
);

interface AppProps {
  config: AppConfig;
  store: AppStore;
  i18n: Translator;
  /** The language was chosen (the address's `lang` or remembered), not the page's default. */
  chosen?: boolean;
}

interface Current {
  config: AppConfig;
  i18n: Translator;
  chosen: boolean;
}

/**
 * The language switch (docs/product.md#configuration): the choice is remembered and named in the
 * address at once; the page changes, its `lang` attribute with it, once the other language's
 * catalogues have loaded. The store stays: its answers hold the texts of both languages.
 */
function useLanguageSwitching(initial: Current) {
  const [current, setCurrent] = useState(initial);
  const switching = useMemo<LanguageSwitching>(
    () => ({
      language: current.config.language,
      chosen: current.chosen,
      switchTo: (language: Language) => {
        rememberLanguage(language);
        keepLanguageInAddress(language);
        const config = { ...current.config, language };
        void createI18n(config).then((i18n) => {
          document.documentElement.lang = language;
          document.getElementById('root')?.removeAttribute('lang');
          setCurrent({ config, i18n, chosen: true });
        });
      },
    }),
    [current],
  );
  return { ...current, switching };
}

function Interface({ config }: { config: AppConfig }) {
  switch (config.interface) {
    case 'admin':
    case 'reports':
      return <AdminApp mode={config.interface} />;
    case 'permissionerror':
      return (
        <main id="main-content" className="main">
          <PermissionError />
        </main>
      );
    case 'display':
      return <DisplayApp />;
    case 'user':
      return <UserApp />;
  }
}

export function App({ config: initialConfig, store, i18n: initialI18n, chosen = false }: AppProps) {
  const { config, i18n, switching } = useLanguageSwitching({
    config: initialConfig,
    i18n: initialI18n,
    chosen,
  });
  return (
    <StrictMode>
      <Provider store={store}>
        <I18nProvider i18n={i18n}>
          <LanguageContext value={switching}>
            <ConfigContext value={config}>
              <Suspense
                fallback={
                  <p className="loading" role="status">
                    {i18n.t('loading')}
                  </p>
                }
              >
                <Interface config={config} />
              </Suspense>
            </ConfigContext>
          </LanguageContext>
        </I18nProvider>
      </Provider>
    </StrictMode>
  );
}
