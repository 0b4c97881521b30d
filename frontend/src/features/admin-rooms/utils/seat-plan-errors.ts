import type { FieldError, FieldErrors } from '@rr/contracts/issues';
import { RULE_KEYS, type RuleKey } from '@rr/contracts/issues';

/** A refused field of one seat: the seat's place in the request, its field and rule. */
export interface SeatFieldError {
  index: number;
  field: string;
  error: FieldError;
}

/** `seats.3.label`, or `seats.3` for a whole row of a CSV file (its field: `row`). */
const SEAT_FIELD = /(?:^|\.)seats\.(\d+)(?:\.(\w+))?$/;
const isRuleKey = (rule: string): rule is RuleKey =>
  (RULE_KEYS as readonly string[]).includes(rule);

/** The seats' fields of a check's errors (`seats.3.label`), in the seats' order. */
export function seatErrorsOf(errors: FieldErrors): SeatFieldError[] {
  return Object.entries(errors)
    .flatMap(([path, error]) => {
      const match = SEAT_FIELD.exec(path);
      return match && error ? [{ index: Number(match[1]), field: match[2] ?? 'row', error }] : [];
    })
    .sort((a, b) => a.index - b.index);
}

/**
 * The seats' fields a server's refusal names (`validation__error`, its `errors` with `field` and
 * `rule`), as the browser's own check names them; none for any other refusal.
 */
export function refusedSeatErrors(refusal: unknown): SeatFieldError[] {
  if (refusal === null || typeof refusal !== 'object') return [];
  const body = 'data' in refusal ? refusal.data : refusal;
  if (body === null || typeof body !== 'object' || !('errors' in body)) return [];
  if (!Array.isArray(body.errors)) return [];
  const errors: FieldErrors = {};
  for (const item of body.errors as unknown[]) {
    if (item === null || typeof item !== 'object') continue;
    const { field, rule } = item as { field?: unknown; rule?: unknown };
    if (typeof field !== 'string') continue;
    errors[field] ??= { key: typeof rule === 'string' && isRuleKey(rule) ? rule : 'invalid' };
  }
  return seatErrorsOf(errors);
}

/** Whether a refusal names the uploaded file itself (`csv`: not UTF-8, no CSV, a wrong header). */
export function refusesFile(refusal: unknown): boolean {
  if (refusal === null || typeof refusal !== 'object') return false;
  const body = 'data' in refusal ? refusal.data : refusal;
  if (body === null || typeof body !== 'object' || !('errors' in body)) return false;
  return (
    Array.isArray(body.errors) &&
    (body.errors as unknown[]).some(
      (item) =>
        item !== null && typeof item === 'object' && (item as { field?: unknown }).field === 'csv',
    )
  );
}
