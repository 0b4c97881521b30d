import { useState, type FormEvent } from 'react';
import { ErrorBox } from '../../../components/error-box';
import { InputField, RequiredHint } from '../../../components/form-field';
import { Page } from '../../../components/page';
import { SignInInput } from '@rr/contracts/auth';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { useTranslation } from '../../../i18n/i18n-context';
import { formCheck } from '../../../lib/form-check';
import { useLoginMutation } from '../api/auth-api';

const FIELDS = ['username', 'password'] as const;
type Field = (typeof FIELDS)[number];
/** User name and password are required (the user name is trimmed, the password sent as typed). */
const checkSignIn = formCheck(SignInInput, (values: Record<Field, string>) => values);
const idOf = (field: Field) => `sign-in-${field}`;

/** Sign-in page of the admin interface; on success the signed-in user replaces it. */
export function SignIn() {
  const { t } = useTranslation('auth');
  const [values, setValues] = useState<Record<Field, string>>({ username: '', password: '' });
  const [login, { isLoading, error, reset }] = useLoginMutation();
  const form = useValidatedForm(checkSignIn, FIELDS, idOf);

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
      setValues((current) => ({ ...current, password: '' }));
      document.getElementById(idOf('password'))?.focus();
    }
  };

  return (
    <Page title={t('sign-in.title')}>
      <form className="form form--narrow" noValidate onSubmit={submit}>
        <RequiredHint />
        {error ? <ErrorBox error={error} /> : null}
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
    </Page>
  );
}
