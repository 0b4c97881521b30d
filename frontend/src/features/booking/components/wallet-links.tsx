import { useState } from 'react';
import { useConfig } from '../../../app/config-context';
import { useTranslation } from '../../../i18n/i18n-context';
import { resolveApiUrl } from '../../../lib/url';
import type { Ticket } from '../api/booking-api';
import { useTicketText } from './ticket-list';

/**
 * The wallet links' texts: here, in the my-bookings chunk, rather than in the visitor catalogue
 * every visitor downloads (docs/product.md#wallet-passes).
 */
const TEXTS = {
  de: {
    apple: 'Zu Apple Wallet hinzufügen',
    google: 'In Google Wallet speichern',
    opening: 'Google Wallet wird geöffnet …',
    failed: 'Der Google-Wallet-Link konnte nicht geladen werden. Bitte später erneut versuchen.',
  },
  en: {
    apple: 'Add to Apple Wallet',
    google: 'Save to Google Wallet',
    opening: 'Opening Google Wallet …',
    failed: 'The Google Wallet link could not be loaded. Please try again later.',
  },
} satisfies Record<'de' | 'en', Record<string, string>>;

/**
 * A ticket's wallet passes (by the owner id of its booking): the Apple Wallet pass to download
 * and the Google Wallet save link, each only where the server makes them (`GET settings`'
 * `wallets`). The ticket's text names it for screen readers, as the ticket's other buttons do. A
 * chunk of its own, loaded only from a server that makes passes.
 */
export default function WalletLinks({
  ticket,
  wallets,
}: {
  ticket: Ticket;
  wallets: { apple: boolean; google: boolean };
}) {
  const label = useTicketText()(ticket);
  const { i18n } = useTranslation();
  const texts = TEXTS[i18n.language === 'en' ? 'en' : 'de'];
  const { baseApiUrl } = useConfig();
  const [state, setState] = useState<'idle' | 'opening' | 'failed'>('idle');
  const path = `owners/${ticket.ownerId ?? ''}/tickets/${ticket.id}`;

  const openGoogle = async () => {
    setState('opening');
    try {
      const res = await fetch(resolveApiUrl(baseApiUrl, `${path}/google-wallet`), {
        headers: { Accept: 'application/json' },
        credentials: 'same-origin',
      });
      if (!res.ok) throw new Error(String(res.status));
      const { saveUrl } = (await res.json()) as { saveUrl: string };
      // Google's own page saves the ticket; the pass is signed, so only its address is opened.
      if (!saveUrl.startsWith('https://pay.google.com/')) throw new Error('unexpected link');
      window.location.assign(saveUrl);
    } catch {
      setState('failed');
    }
  };

  return (
    <div className="wallet-links">
      {wallets.apple ? (
        <a
          className="button button--secondary button--small"
          href={resolveApiUrl(baseApiUrl, `${path}/wallet.pkpass`)}
        >
          {texts.apple}
          <span className="visually-hidden"> {label}</span>
        </a>
      ) : null}{' '}
      {wallets.google ? (
        <button
          type="button"
          className="button button--secondary button--small"
          disabled={state === 'opening'}
          onClick={() => void openGoogle()}
        >
          {texts.google}
          <span className="visually-hidden"> {label}</span>
        </button>
      ) : null}
      {state === 'opening' ? <p role="status">{texts.opening}</p> : null}
      {state === 'failed' ? (
        <div className="error-box" role="alert">
          <p className="error-box__message">{texts.failed}</p>
        </div>
      ) : null}
    </div>
  );
}
