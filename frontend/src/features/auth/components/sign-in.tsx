import { useState, type FormEvent } from 'react';
import { ErrorBox } from '../../../components/error-box';
import { useRefusal } from '../../../hooks/use-refusal';
import { InputField, RefusalScope, RequiredHint } from '../../../components/form-field';
import { Page } from '../../../components/page';
import { SignInInput } from '@rr/contracts/auth';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { useTranslation } from '../../../i18n/i18n-context';
import { formCheck } from '../../../lib/form-check';
import { PermissionError } from '../../../components/permission-error';
import { useConfig } from '../../../app/config-context';
import { resolveApiUrl } from '../../../lib/url';
import { useGetSignInProvidersQuery, useLoginMutation } from '../api/auth-api';

const FIELDS = ['username', 'password'] as const;
type Field = (typeof FIELDS)[number];
/** User name and password are required (the user name is trimmed, the password sent as typed). */
const checkSignIn = formCheck(SignInInput, (values: Record<Field, string>) => values);
const idOf = (field: Field) => `sign-in-${field}`;

const OUTCOMES = ['no-role', 'failed', 'unavailable-oidc', 'unavailable-saml'] as const;
type Outcome = (typeof OUTCOMES)[number];

/**
 * What a sign-in with an identity provider came back with (`?signIn=` from the server's
 * redirect): refused for want of a staff role, failed, or the provider did not answer.
 */
function providerOutcome(): Outcome | null {
  const value = new URLSearchParams(window.location.search).get('signIn');
  return OUTCOMES.find((outcome) => outcome === value) ?? null;
}

/** The staff page to come back to after a provider's sign-in: this one, without `signIn`. */
function returnPath(): string {
  const url = new URL(window.location.href);
  url.searchParams.delete('signIn');
  const path = url.pathname + url.search;
  return path === '/admin' || path.startsWith('/admin/') ? path : '/admin/';
}

const isNoRole = (error: unknown) =>
  typeof error === 'object' &&
  error !== null &&
  'status' in error &&
  error.status === 403 &&
  'data' in error &&
  (error.data as { error?: string } | null)?.error === 'auth__no_staff_role';

/**
 * Sign-in page of the admin interface: a button per campus identity provider above the form;
 * on success the signed-in user replaces it. A person the campus identity knows but no staff
 * group names sees the permission screen.
 */
export function SignIn() {
  const { t } = useTranslation('auth');
  const { baseApiUrl } = useConfig();
  const [values, setValues] = useState<Record<Field, string>>({ username: '', password: '' });
  const [login, { isLoading, error, reset }] = useLoginMutation();
  const { data: ways } = useGetSignInProvidersQuery();
  const [outcome, setOutcome] = useState(providerOutcome);
  const form = useValidatedForm(checkSignIn, FIELDS, idOf);
  const refusal = useRefusal(error, { password: idOf('password') });

  if (outcome === 'no-role' || isNoRole(error)) {
    const back = () => {
      reset();
      setOutcome(null);
      window.history.replaceState(null, '', returnPath());
    };
    return (
      <>
        <PermissionError />
        <p>
          <button type="button" className="button button--secondary" onClick={back}>
            {t('sign-in.other-account')}
          </button>
        </p>
      </>
    );
  }

  const change = (field: Field, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    form.revalidate(next);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    reset();
    const credentials = form.validate(values);
    if (!credentials) return;
    try {
      await login(credentials).unwrap();
    } catch {
      // The refusal's message takes focus (hooks/use-refusal.ts); the password is typed anew.
      setValues((current) => ({ ...current, password: '' }));
    }
  };

  const providerLink = (p: { startUrl: string }) =>
    `${resolveApiUrl(baseApiUrl, p.startUrl)}?returnTo=${encodeURIComponent(returnPath())}`;
  const down =
    outcome === 'unavailable-oidc' || outcome === 'unavailable-saml'
      ? (ways?.providers.find((p) => `unavailable-${p.id}` === outcome) ?? null)
      : null;

  return (
    <Page
      title={down ? t('sign-in.unavailable-title', { provider: down.label }) : t('sign-in.title')}
    >
      {down ? (
        // The identity provider did not answer: what to do instead of an error of the API.
        <div className="error-box" role="alert">
          <p className="error-box__message">{t('sign-in.unavailable', { provider: down.label })}</p>
          <div className="error-box__extra">
            <p>{t('sign-in.unavailable-later')}</p>
            <p>
              <a className="button button--secondary" href={providerLink(down)}>
                {t('retry')}
              </a>
            </p>
            <p>
              {ways?.passwordSignIn === false
                ? t('sign-in.unavailable-break-glass')
                : t('sign-in.unavailable-password')}
            </p>
          </div>
        </div>
      ) : null}
      {outcome === 'failed' ? (
        <p className="notice notice--warning" role="alert">
          {t('sign-in.provider-failed')}
        </p>
      ) : null}
      {ways?.providers.length && !down ? (
        <ul className="sign-in-providers" aria-label={t('sign-in.providers')}>
          {ways.providers.map((p) => (
            <li key={p.id}>
              <a className="button button--primary" href={providerLink(p)}>
                {t('sign-in.with', { provider: p.label })}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      <RefusalScope refusal={refusal}>
        <form className="form form--narrow" noValidate onSubmit={submit}>
          <RequiredHint />
          <ErrorBox refusal={refusal} />
          <InputField
            id={idOf('username')}
            label={t('sign-in.username')}
            required
            autoComplete="username"
            value={values.username}
            error={form.messageOf('username')}
            onChange={(event) => change('username', event.target.value)}
          />
          <InputField
            id={idOf('password')}
            label={t('sign-in.password')}
            type="password"
            required
            autoComplete="current-password"
            value={values.password}
            error={form.messageOf('password')}
            onChange={(event) => change('password', event.target.value)}
          />
          <div className="form__actions">
            <button type="submit" className="button button--primary" disabled={isLoading}>
              {isLoading ? t('sign-in.submitting') : t('sign-in.submit')}
            </button>
          </div>
        </form>
      </RefusalScope>
    </Page>
  );
}
