import { lazy, StrictMode, Suspense } from 'react';
import { Provider } from 'react-redux';
import { PermissionError } from '../components/permission-error';
import { I18nProvider } from '../i18n/i18n-context';
import type { Translator } from '../i18n/translator';
import type { AppConfig } from '../lib/config';
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

export function App({ config, store, i18n }: AppProps) {
  return (
    <StrictMode>
      <Provider store={store}>
        <I18nProvider i18n={i18n}>
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
        </I18nProvider>
      </Provider>
    </StrictMode>
  );
}
