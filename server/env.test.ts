import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from './env.ts';

describe('parseEnv', () => {
  it('gives the embedded defaults', () => {
    expect(parseEnv({})).toMatchObject({
      port: 8080,
      dataDir: './data',
      databaseUrl: undefined,
      publicUrl: 'http://localhost:8080',
      logLevel: 'info',
    });
  });

  it('treats empty values as unset and trims a trailing slash from PUBLIC_URL', () => {
    expect(parseEnv({ PORT: '', PUBLIC_URL: 'https://app.example.com/' })).toMatchObject({
      port: 8080,
      publicUrl: 'https://app.example.com',
    });
  });

  it('fails fast naming each bad variable', () => {
    const attempt = () =>
      parseEnv({
        PORT: '80a',
        DATABASE_URL: 'mysql://x',
        LOG_LEVEL: 'loud',
        PUBLIC_URL: 'ftp://x',
      });
    expect(attempt).toThrow(EnvError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'PUBLIC_URL'])
        expect(message).toContain(name);
    }
  });

  it('rejects a port out of range', () => {
    expect(() => parseEnv({ PORT: '70000' })).toThrow(/PORT: must be 0-65535/);
  });
});
