import path from 'node:path';

/**
 * The integrations' migrations (`integrations/migrations/NNN_name.ts`: the webhooks' tables),
 * numbered in one sequence with every other module's (see migrate in @rr/platform).
 */
export const INTEGRATIONS_MIGRATIONS_DIR = path.resolve(import.meta.dirname, '..', 'migrations');
