import type { ReactNode } from 'react';
import { useTranslation } from '../i18n/i18n-context';
import { sanitizeUrl } from '../lib/sanitize-url';

interface ExternalLinkProps {
  href: string;
  children: ReactNode;
  className?: string;
  /** Open in a new window (announced to screen reader users). */
  newWindow?: boolean;
}

/** A link to a configured address; javascript:, data: and vbscript: addresses are blocked. */
export function ExternalLink({ href, children, className, newWindow = false }: ExternalLinkProps) {
  const { t } = useTranslation();
  return (
    <a
      href={sanitizeUrl(href)}
      className={className}
      {...(newWindow ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
    >
      {children}
      {newWindow ? <span className="visually-hidden"> {t('opens-in-new-window')}</span> : null}
    </a>
  );
}
