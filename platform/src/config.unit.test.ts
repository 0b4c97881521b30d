import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('applies the spec defaults', () => {
    const c = loadConfig({}, '/srv/app');
    expect(c.PORT).toBe(8080);
    expect(c.TIME_ZONE).toBe('Europe/Vienna');
    expect(c.DATA_DIR).toBe('/srv/app/data');
    expect(c.DATABASE_URL).toBeUndefined();
  });

  it('stops with a message naming each bad variable', () => {
    expect(() =>
      loadConfig({ PORT: 'eighty', TIME_ZONE: 'Mars/Olympus', DATABASE_URL: 'mysql://x' }),
    ).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', TIME_ZONE: 'Mars/Olympus' });
    } catch (err) {
      expect((err as Error).message).toMatch(/PORT/);
      expect((err as Error).message).toMatch(/TIME_ZONE/);
    }
  });

  it('accepts a PostgreSQL URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/rr' }).DATABASE_URL).toBe(
      'postgres://u:p@db:5432/rr',
    );
  });
});
