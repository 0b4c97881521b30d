// @ts-check
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';

/**
 * The boundaries: what each part may import. Deciders and contracts are pure: they
 * import no infrastructure (database, HTTP, the platform, identity, the services, Node's
 * built-ins); the domain takes events only from the pure catalogue. The platform (HTTP, database,
 * config) serves every module and imports none of them; identity (staff accounts, sessions,
 * sign-in, API tokens) builds on the platform alone. Insights (the figures for planning the
 * rooms, the what-if replay, the record of refused cart requests) build on the platform, the
 * domain and the log; the command side reaches only their refusal record. Integrations (webhooks,
 * calendar feeds) build on the platform and the log, never on the services or the projections
 * package. The command side and the query side do not import each other; frontend features do not import each other (shared code lives in
 * frontend/src/{app,components,lib,api,i18n}).
 */
const infrastructure = [
  '@rr/platform',
  '@rr/platform/*',
  '@rr/identity',
  '@rr/insights',
  '@rr/integrations',
  '@rr/command-service',
  '@rr/query-service',
  '@rr/projections',
  '@rr/server',
  'pg',
  'pg-*',
  'express',
  'express-*',
  'knex',
  'multer',
  'node:*',
];
const pure = (message) => ({
  'no-restricted-imports': [
    'error',
    {
      paths: [{ name: '@rr/events', message: `${message} Events come from @rr/events/catalogue.` }],
      patterns: [{ group: infrastructure, message }],
    },
  ],
});
/** The sources of a package import none of these modules; `message` says what it builds on. */
const importsNone = (group, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group, message }] }],
});
// Every folder of frontend/src/features is a feature: a new one is a zone without a list to
// extend.
const features = readdirSync(new URL('./frontend/src/features', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'frontend/src/api/schema.d.ts',
      '.tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
    },
  },
  {
    files: ['frontend/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*/components/*', '../../features/*'],
              message: 'features do not import each other',
            },
          ],
        },
      ],
    },
  },
  {
    // Time has one source: the services read the time from their injected Clock (platform's
    // clock.ts), durations and timeouts from the monotonic performance.now(). The browser app,
    // tests and benchmarks keep their own clocks.
    files: [
      '{platform,identity,insights,integrations,events,domain,command-service,query-service,projections,server}/src/**/*.ts',
    ],
    ignores: ['**/*.test.ts', 'platform/src/clock.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message:
            'Read the time from the injected Clock (deps.clock.now()); for a duration use performance.now().',
        },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Read the time from the injected Clock (deps.clock.now()).',
        },
      ],
    },
  },
  {
    files: ['domain/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'domain/src/testing/**'],
    rules: pure('The domain is pure: no infrastructure.'),
  },
  {
    files: ['contracts/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: importsNone(
      ['@rr/*', ...infrastructure],
      'Contracts are browser-safe and stand alone: zod only.',
    ),
  },
  {
    // No import cycles anywhere: a module's imports form a tree, so shared rules live in leaf
    // modules that import nothing of what uses them.
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.tsx', '.js'], conditionNames: ['import'] }),
      ],
    },
    // Cycles through dependencies are not looked for (a fifth of the lint's time); the workspace
    // packages resolve to their own folders, so a cycle through another package is still found.
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Resolved paths, so relative imports across the boundaries are caught as well.
    files: [
      'command-service/src/**/*.ts',
      'query-service/src/**/*.ts',
      'frontend/src/**/*.{ts,tsx}',
    ],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } } },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './command-service/src',
              from: ['./query-service', './projections'],
              message: 'The command side does not import the read side.',
            },
            {
              target: './command-service/src',
              from: './insights',
              except: ['./src/refusals'],
              message: "The command side reaches the insights' refusal record only.",
            },
            {
              target: './query-service/src',
              from: ['./command-service'],
              message: 'The query side does not import the command side.',
            },
            ...features.map((feature) => ({
              target: `./frontend/src/features/${feature}`,
              from: './frontend/src/features',
              except: [`./${feature}`],
              message: 'Features do not import each other: share through lib, components or api.',
            })),
          ],
        },
      ],
    },
  },
  {
    // The same by resolved path for the platform and the modules; their tests may load what the
    // server composes (the migration test applies every module's migrations).
    files: [
      'platform/{src,migrations}/**/*.ts',
      'identity/{src,migrations}/**/*.ts',
      'insights/src/**/*.ts',
      'integrations/{src,migrations}/**/*.ts',
    ],
    ignores: ['**/*.test.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } } },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './platform',
              from: [
                './identity',
                './insights',
                './integrations',
                './events',
                './command-service',
                './query-service',
                './projections',
                './server',
              ],
              message: 'The platform serves the modules and imports none of them.',
            },
            {
              target: './identity/src',
              from: [
                './insights',
                './integrations',
                './events',
                './command-service',
                './query-service',
                './projections',
                './server',
              ],
              message: 'Identity builds on the platform alone.',
            },
            {
              target: './insights/src',
              from: [
                './identity',
                './integrations',
                './command-service',
                './query-service',
                './projections',
                './server',
              ],
              message: 'Insights build on the platform, the domain and the log.',
            },
            {
              target: './integrations',
              from: [
                './identity',
                './insights',
                './command-service',
                './query-service',
                './projections',
                './server',
              ],
              message: 'Integrations build on the platform and the log alone.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['platform/src/**/*.ts', 'platform/migrations/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: importsNone(
      [
        '@rr/identity',
        '@rr/insights',
        '@rr/integrations',
        '@rr/events',
        '@rr/command-service',
        '@rr/query-service',
        '@rr/projections',
        '@rr/server',
      ],
      'The platform serves the modules and imports none of them.',
    ),
  },
  {
    files: ['identity/{src,migrations}/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: importsNone(
      [
        '@rr/insights',
        '@rr/integrations',
        '@rr/events',
        '@rr/command-service',
        '@rr/query-service',
        '@rr/projections',
        '@rr/server',
      ],
      'Identity builds on the platform alone.',
    ),
  },
  {
    files: ['insights/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'insights/src/replay/**'],
    rules: importsNone(
      [
        '@rr/identity',
        '@rr/integrations',
        '@rr/command-service',
        '@rr/query-service',
        '@rr/projections',
        '@rr/projections/*',
        '@rr/server',
      ],
      'Insights build on the platform, the domain and the log.',
    ),
  },
  {
    // The what-if replay is pure like the domain whose decider it replays with: it reads the
    // history it is handed, nothing else.
    files: ['insights/src/replay/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!(@rr/domain|@rr/events/catalogue|@rr/contracts)$|\\./)',
              message:
                'The what-if replay is pure: it imports only @rr/domain, @rr/events/catalogue and @rr/contracts.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['command-service/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          // The insights' package by its name alone: its refusal record (@rr/insights/refusals)
          // is the command side's to call.
          paths: [
            {
              name: '@rr/insights',
              message: "The command side reaches the insights' refusal record only.",
            },
          ],
          patterns: [
            {
              group: ['@rr/query-service', '@rr/projections', '@rr/server'],
              message: 'The command side does not import the read side.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['query-service/src/**/*.ts'],
    rules: importsNone(
      ['@rr/command-service', '@rr/server'],
      'The query side does not import the command side.',
    ),
  },
  {
    files: ['integrations/{src,migrations}/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: importsNone(
      [
        '@rr/identity',
        '@rr/insights',
        '@rr/command-service',
        '@rr/query-service',
        '@rr/projections',
        '@rr/server',
      ],
      'Integrations build on the platform and the log alone.',
    ),
  },
  {
    // A source file says one thing and a function does one job: past these sizes a reader splits
    // them by meaning. Tests, benchmarks, scripts and generated code are outside it.
    files: ['*/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'frontend/src/api/schema.d.ts'],
    rules: {
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 150 }],
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
