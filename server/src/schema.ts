import { IDENTITY_MIGRATIONS_DIR } from '@rr/identity';
import { INTEGRATIONS_MIGRATIONS_DIR } from '@rr/integrations';
import { MIGRATIONS_DIR } from '@rr/platform';

/**
 * The folders of the database's migrations, one per module that has tables of its own: the
 * platform's (events, read models, mail, …), identity's (staff sign-in) and the integrations'
 * (webhooks). `migrate` applies their files in one order, by number.
 */
export const SCHEMA_MIGRATION_DIRS: readonly string[] = [
  MIGRATIONS_DIR,
  IDENTITY_MIGRATIONS_DIR,
  INTEGRATIONS_MIGRATIONS_DIR,
];
