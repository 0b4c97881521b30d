/**
 * A URL the server sends to on its own (a webhook endpoint, a push service's endpoint) as the
 * browser and the server parse it (WHATWG): http or https, without credentials and without a
 * fragment. Which schemes and hosts the server then delivers to is its configuration's
 * (WEBHOOK_ALLOW_HTTP, WEB_PUSH_ALLOW_HTTP and the allowed hosts), checked by the server alone.
 */
export function isOutboundUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.username === '' &&
    url.password === '' &&
    url.hash === '' &&
    url.hostname !== ''
  );
}
