import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../i18n/i18n-context';
import { ErrorBox } from './error-box';

interface LoadingContainerProps<T> {
  /** The loaded data; undefined while loading. */
  data: T | undefined;
  /** The load error, if any (an RTK Query error or problem body). */
  error?: unknown;
  /** Where the error state offers to go back to. */
  backLink?: { to: string; label: string };
  /** Rendered only once the data is there. */
  children: (data: T) => ReactNode;
}

/** "Loading …" (or what is under way) as a status message. */
export function Loading({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <p className="loading" role="status">
      {children ?? t('loading')}
    </p>
  );
}

/** Shows "loading", or an error message with an optional back link, or the content. */
export function LoadingContainer<T>({ data, error, backLink, children }: LoadingContainerProps<T>) {
  if (error) {
    return (
      <ErrorBox
        error={error}
        extra={backLink ? <Link to={backLink.to}>{backLink.label}</Link> : undefined}
      />
    );
  }
  if (data === undefined) return <Loading />;
  return <>{children(data)}</>;
}
