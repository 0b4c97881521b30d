import { useRefusal, type Refusal } from '../../../hooks/use-refusal';
import { hasErrorCode } from '../../../lib/staff-forms';
import { siteFieldId } from './site-form';

/**
 * A refusal of the site form: a slug another site has marks the slug field. Kept here rather
 * than in the shared code-to-field table, which the visitor's download carries.
 */
export function useSiteRefusal(error: unknown): Refusal {
  const refusal = useRefusal(error);
  return hasErrorCode(error, 'site__slug_taken')
    ? { ...refusal, controlId: siteFieldId('slug') }
    : refusal;
}
