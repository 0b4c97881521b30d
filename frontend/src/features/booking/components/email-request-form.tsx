import { useState, type FormEvent, type ReactNode } from 'react';
import type { Contract } from '@rr/contracts/issues';
import { ErrorBox } from '../../../components/error-box';
import { InputField, RefusalScope } from '../../../components/form-field';
import { useRefusal } from '../../../hooks/use-refusal';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { useTranslation } from '../../../i18n/i18n-context';
import { formCheck, type FormCheck } from '../../../lib/form-check';

/** What a visitor's e-mail request is made of: the typed address and the page's language. */
export interface EmailRequest {
  email: string;
  language: string;
}

/**
 * The check of a request a visitor sends with only their e-mail address, e.g. for the link to
 * their bookings or a place on a waitlist: the contract `contract`, with the address trimmed. The
 * mails the server sends for it are in the page's language.
 */
export function emailRequestCheck<S extends Contract>(contract: S) {
  return formCheck(contract, (request: EmailRequest) => ({
    ...request,
    email: request.email.trim(),
  }));
}

const FIELDS = ['email'] as const;

interface EmailRequestFormProps<T> {
  /** The id of the address field (focused on a wrong address or a refusal of it). */
  id: string;
  className: string;
  check: FormCheck<EmailRequest, T>;
  label: string;
  /** The submit button's content (its text while sending or not, and any hidden context). */
  submitLabel: ReactNode;
  busy: boolean;
  /** The server's refusal of the last request, if any. */
  error: unknown;
  /** Shown in the form above the address field. */
  intro?: ReactNode;
  /** Shown in the refusal's message below its text (e.g. whom to contact). */
  errorExtra?: ReactNode;
  /** Sends the checked request; not called while one is on its way. */
  onSubmit: (body: T) => void;
}

/**
 * A form with one e-mail address and its submit button: the address is checked with the
 * request's contract before it is sent, and the server's refusal of it is shown below the
 * button, marking the field it concerns (docs/product.md#screens).
 */
export function EmailRequestForm<T>({
  id,
  className,
  check,
  label,
  submitLabel,
  busy,
  error,
  intro,
  errorExtra,
  onSubmit,
}: EmailRequestFormProps<T>) {
  const { i18n } = useTranslation();
  const [email, setEmail] = useState('');
  const form = useValidatedForm(check, FIELDS, () => id);
  const refusal = useRefusal(error, { email: id });
  const request = { email, language: i18n.language };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = form.validate(request);
    if (body && !busy) onSubmit(body);
  };

  return (
    <RefusalScope refusal={refusal}>
      <form className={className} noValidate onSubmit={submit}>
        {intro}
        <InputField
          id={id}
          label={label}
          type="email"
          autoComplete="email"
          required
          value={email}
          error={form.messageOf('email')}
          onChange={(event) => {
            setEmail(event.target.value);
            form.revalidate({ ...request, email: event.target.value });
          }}
        />
        <button type="submit" className="button button--primary" aria-disabled={busy || undefined}>
          {submitLabel}
        </button>
        <ErrorBox refusal={refusal} extra={errorExtra} />
      </form>
    </RefusalScope>
  );
}
