import { useEffect, useId, useState } from 'react';
import { useTranslation } from '../../../i18n/i18n-context';
import {
  useSubscribePushRemindersMutation,
  useUnsubscribePushRemindersMutation,
  type PushSubscriptionInput,
} from '../api/push-api';

/*
 * The switch "Reminders as notifications" of a booking on the "my bookings" page
 * (docs/product.md#reminders). Shown only where the browser can receive push messages and the
 * server offers its VAPID key (GET settings). Its texts live here, in the page's own chunk, not in
 * the visitor catalogue every visitor downloads.
 */

const TEXTS = {
  de: {
    label: 'Erinnerungen als Mitteilung',
    hint: 'Zusätzlich zur E-Mail erinnert Sie dieses Gerät vor Ihren Terminen mit einer Mitteilung.',
    denied:
      'Mitteilungen sind in diesem Browser blockiert. Bitte erlauben Sie sie in den Einstellungen.',
    failed: 'Mitteilungen konnten nicht eingerichtet werden. Bitte versuchen Sie es später erneut.',
  },
  en: {
    label: 'Reminders as notifications',
    hint: 'Besides the e-mail, this device reminds you of your appointments with a notification.',
    denied: 'Notifications are blocked in this browser. Please allow them in its settings.',
    failed: 'Notifications could not be set up. Please try again later.',
  },
};

/** How long the page waits for the service worker before it gives up. */
const READY_MS = 10_000;

const storageKey = (ownerId: string) => `rr.push.${ownerId}`;

/** The page's service worker, or an error once it has not come within READY_MS. */
function serviceWorkerReady(): Promise<ServiceWorkerRegistration> {
  return Promise.race([
    navigator.serviceWorker.ready,
    new Promise<never>((_resolve, reject) =>
      setTimeout(() => reject(new Error('no service worker')), READY_MS),
    ),
  ]);
}

/** The VAPID public key (base64url) as the bytes `pushManager.subscribe` takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** Whether this browser can receive push messages at all. */
const canPush = () => 'PushManager' in window && 'serviceWorker' in navigator;

/**
 * The switch of one booking, where the server offers its VAPID key (`publicKey`): nothing in a
 * browser without push.
 */
export default function PushReminders(props: {
  ownerId: string;
  bookingNumber: string;
  publicKey: string;
}) {
  return canPush() ? <PushSwitch {...props} /> : null;
}

function PushSwitch({
  ownerId,
  bookingNumber,
  publicKey,
}: {
  ownerId: string;
  bookingNumber: string;
  publicKey: string;
}) {
  const { i18n } = useTranslation();
  const t = TEXTS[i18n.language === 'en' ? 'en' : 'de'];
  const [subscribe] = useSubscribePushRemindersMutation();
  const [unsubscribe] = useUnsubscribePushRemindersMutation();
  const [on, setOn] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  // On: this browser's subscription is the one kept for this booking.
  useEffect(() => {
    let live = true;
    void navigator.serviceWorker
      .getRegistration()
      .then((registration) => registration?.pushManager.getSubscription())
      .then((subscription) => {
        const kept = localStorage.getItem(storageKey(ownerId));
        if (live) setOn(Boolean(subscription && kept === subscription.endpoint));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [ownerId]);

  const turnOn = async () => {
    if (!('Notification' in window) || (await Notification.requestPermission()) !== 'granted') {
      setProblem(t.denied);
      return;
    }
    const registration = await serviceWorkerReady();
    const subscription =
      (await registration.pushManager.getSubscription()) ??
      (await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(publicKey),
      }));
    const body = subscription.toJSON() as PushSubscriptionInput;
    await subscribe({ ownerId, body }).unwrap();
    localStorage.setItem(storageKey(ownerId), subscription.endpoint);
    setOn(true);
  };

  const turnOff = async () => {
    const endpoint = localStorage.getItem(storageKey(ownerId));
    // The browser's subscription stays: other bookings may use it.
    if (endpoint) await unsubscribe({ ownerId, endpoint }).unwrap();
    localStorage.removeItem(storageKey(ownerId));
    setOn(false);
  };

  const toggle = () => {
    setBusy(true);
    setProblem(null);
    (on ? turnOff() : turnOn()).catch(() => setProblem(t.failed)).finally(() => setBusy(false));
  };

  return (
    <div className="field field--checkbox">
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="field__checkbox"
        checked={on}
        disabled={busy}
        aria-describedby={`${id}-hint`}
        onChange={toggle}
      />
      <label htmlFor={id} className="field__label">
        {t.label}
        <span className="visually-hidden"> {bookingNumber}</span>
      </label>
      <p id={`${id}-hint`} className="field__hint">
        {t.hint}
      </p>
      {problem ? (
        <p className="field__error" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
