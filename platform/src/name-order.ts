/**
 * The collation of every list sorted by a name (migration 089): German order, ICU's `de-AT`
 * ("Öhlinger" with the O's, "Müller" beside "Muller"), whatever the database's own collation;
 * on a PostgreSQL built without ICU, the database's own.
 */
export const NAME_COLLATION = 'rr_names';

/**
 * The SQL of the sort key of a name: `expr` in lower case, in German order. The reservations
 * list's key of a visitor's last and first name is what the index `personal_data_name` holds:
 * `nameKey("coalesce(p.last_name, '')")`.
 */
export const nameKey = (expr: string): string => `lower(${expr}) COLLATE ${NAME_COLLATION}`;
