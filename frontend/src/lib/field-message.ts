import type { FieldError } from '@rr/contracts/issues';
import type { TFunction } from '../i18n/translator';

/**
 * The message of a field's failed rule (the `validation` texts of the common namespace). A
 * length limit is a count, so its message takes the limit's plural form ("1 Zeichen",
 * "at most 1 character").
 */
export function fieldMessage(t: TFunction, error: FieldError): string {
  const limit = error.params?.max ?? error.params?.min;
  return t(`validation.${error.key}`, {
    ns: 'common',
    ...error.params,
    ...(limit === undefined ? {} : { count: limit }),
  });
}
