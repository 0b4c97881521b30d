/**
 * A concrete path for an OpenAPI path template: a well-formed value for each parameter (the
 * room order's position, an e-mail address, an id) that names nothing stored.
 */
export const samplePath = (path: string): string =>
  path.replace(/\{(\w+)\}/g, (_m, name: string) =>
    name === 'order'
      ? '0'
      : name === 'email'
        ? 'someone%40example.com'
        : '00000000-0000-4000-8000-000000000000',
  );
