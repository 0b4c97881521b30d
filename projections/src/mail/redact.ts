/** Anything that looks like an e-mail address (as SMTP replies quote them: `<a@b>`, `a@b:`). */
const ADDRESS = /[^\s<>()[\]"',;:]+@[^\s<>()[\]"',;:]+/g;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * What the outbox keeps of a failed send (`last_error`): the error code, the SMTP reply code and
 * command, and the reply's text without addresses and without the given personal strings (the
 * recipient's names and address). An SMTP reply like "550 <reject.me@example.org> Recipient
 * address rejected" must not keep the address in the database after the erasure, nor before.
 */
export function redactedSendError(err: unknown, personal: (string | null | undefined)[]): string {
  const head = sendErrorCode(err);
  const message = (err as { message?: unknown } | null)?.message;
  let text = typeof message === 'string' ? message : String(err);
  text = text.replace(ADDRESS, '<address>');
  const words = personal
    .filter((p): p is string => typeof p === 'string' && p.trim().length >= 2)
    .map((p) => p.trim())
    .sort((a, b) => b.length - a.length);
  for (const word of words) text = text.replace(new RegExp(escapeRegExp(word), 'gi'), '<redacted>');
  return (head ? `${head}: ${text}` : text).slice(0, 500);
}

/** The codes of a send error alone (error code, SMTP reply code, command), e.g. for the log. */
export function sendErrorCode(err: unknown): string | undefined {
  const e = (typeof err === 'object' && err !== null ? err : {}) as {
    code?: unknown;
    responseCode?: unknown;
    command?: unknown;
  };
  const head = [
    typeof e.code === 'string' ? e.code : null,
    typeof e.responseCode === 'number' ? String(e.responseCode) : null,
    typeof e.command === 'string' ? e.command : null,
  ].filter((x): x is string => x !== null);
  return head.length ? head.join(' ') : undefined;
}
