import { useEffect } from 'react';
import { useConfig } from '../../../app/config-context';
import { useLanguage } from '../../../i18n/i18n-context';
// Its own texts, in its own chunk: only a library with visitor sign-in downloads them.
import de from '../../../i18n/visitor-account.de.json';
import en from '../../../i18n/visitor-account.en.json';
import { resolveApiUrl } from '../../../lib/url';
import type { Room } from '../../../api/types';
import type { PersonalData } from '../lib/personal-data';
import { useGetSignedInVisitorQuery, useVisitorSignOutMutation } from '../api/visitor-account-api';

/** What the campus identity fills in of the personal data (and the form keeps read-only). */
export type Claimed = Partial<Pick<PersonalData, 'firstName' | 'lastName' | 'email'>>;

/** The claims as personal data: the address, and a name of at least two words split at its last. */
export function claimedData(visitor: { name: string | null; email: string | null }): Claimed {
  const words = visitor.name?.trim().split(/\s+/) ?? [];
  return {
    ...(visitor.email ? { email: visitor.email } : {}),
    ...(words.length > 1
      ? { firstName: words.slice(0, -1).join(' '), lastName: words.at(-1) }
      : {}),
  };
}

const startUrl = (baseApiUrl: string, way: string) =>
  resolveApiUrl(
    baseApiUrl,
    `visitor-auth/${way}/start?returnTo=${encodeURIComponent(window.location.pathname)}`,
  );

/**
 * A room for members of the university says so to guests, with the way to sign in: by the rule
 * the room applies (`members`: its own with its site's, docs/product.md#sites).
 */
export function MembersSignIn({ way, members }: { way: string; members: Room['members'] }) {
  const t = useLanguage().language === 'en' ? en : de;
  const { baseApiUrl } = useConfig();
  if (!members.signInRequired && !members.allowedAffiliations?.length) return null;
  return (
    <p className="notice">
      {t.members} – <a href={startUrl(baseApiUrl, way)}>{t['sign-in-short']}</a>
    </p>
  );
}

/**
 * The personal data step's campus sign-in (docs/product.md#visitor-sign-in), loaded only where
 * the library lets visitors sign in: a button to the provider, or who is signed in and a way out.
 * The form fills in and locks what the claims supply (`onClaimed`).
 */
export default function VisitorAccount({
  way,
  onClaimed,
}: {
  way: string;
  onClaimed: (claimed: Claimed | undefined) => void;
}) {
  const t = useLanguage().language === 'en' ? en : de;
  const { baseApiUrl } = useConfig();
  // After signing out the answer is a 401: the last visitor's data, which the query keeps, is not
  // theirs any more.
  const { data, isError } = useGetSignedInVisitorQuery();
  const visitor = isError ? undefined : data;
  const [signOut, { isLoading }] = useVisitorSignOutMutation();
  useEffect(() => onClaimed(visitor && claimedData(visitor)), [visitor, onClaimed]);

  if (!visitor) {
    return (
      <p>
        <a className="button button--secondary" href={startUrl(baseApiUrl, way)}>
          {t['sign-in']}
        </a>
      </p>
    );
  }
  return (
    <p className="notice" role="status">
      {t['signed-in'].replace('{{name}}', visitor.name ?? visitor.email ?? visitor.subject)}{' '}
      <button
        type="button"
        className="button button--secondary"
        disabled={isLoading}
        onClick={() => void signOut()}
      >
        {t['sign-out']}
      </button>
    </p>
  );
}
