import { sanitizeUrl } from '../../../lib/sanitize-url';

interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

let script: Promise<void> | null = null;

function loadScript(src: string): Promise<void> {
  script ??= new Promise<void>((resolve, reject) => {
    const element = document.createElement('script');
    element.src = sanitizeUrl(src);
    element.async = true;
    element.onload = () => resolve();
    element.onerror = () => {
      script = null;
      reject(new Error('recaptcha'));
    };
    document.head.append(element);
  });
  return script;
}

/**
 * A token of the human check (reCAPTCHA v3 style: `ready` then `execute`) for creating a cart.
 * Undefined when the check is not configured (no public key or no script address).
 */
export async function humanCheckToken(siteKey: string, src: string): Promise<string | undefined> {
  if (!siteKey || !src) return undefined;
  await loadScript(src);
  const grecaptcha = window.grecaptcha;
  if (!grecaptcha) throw new Error('recaptcha');
  await new Promise<void>((resolve) => grecaptcha.ready(resolve));
  return grecaptcha.execute(siteKey, { action: 'reservation' });
}
