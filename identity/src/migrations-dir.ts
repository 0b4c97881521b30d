import path from 'node:path';

/**
 * Identity's migrations (`identity/migrations/NNN_name.ts`: staff sign-in's tables), numbered in
 * one sequence with every other module's (see migrate in @rr/platform).
 */
export const IDENTITY_MIGRATIONS_DIR = path.resolve(import.meta.dirname, '..', 'migrations');
