import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useTranslation } from '../../../i18n/i18n-context';
import { useBooking } from './booking-context';

/**
 * docs/product.md#screens: shown only while personal data or cart tickets exist; after a confirmation it
 * removes the cart and the personal data and starts again at `/?reset=y`.
 */
export function PanicButton() {
  const { t } = useTranslation('booking');
  const { tickets, personalData, panic } = useBooking();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);

  if (tickets.length === 0 && !personalData) return null;
  return (
    <>
      <button
        type="button"
        className="button button--secondary panic-button"
        onClick={() => setAsking(true)}
      >
        {t('panic.button')}
      </button>
      {asking ? (
        <ConfirmDialog
          title={t('panic.title')}
          confirmLabel={t('panic.confirm')}
          cancelLabel={t('panic.cancel')}
          busy={busy}
          onCancel={() => setAsking(false)}
          onConfirm={async () => {
            setBusy(true);
            await panic();
            setBusy(false);
            setAsking(false);
            // The dialog is gone: continue at the heading of the start page.
            document.querySelector<HTMLElement>('main h1')?.focus();
          }}
        >
          <p>{t('panic.question')}</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
