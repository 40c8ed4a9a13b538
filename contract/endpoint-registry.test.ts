import { describe, expect, it } from 'vitest';
import { endpointKey, endpointRegistry } from './endpoint-registry.ts';

describe('endpointRegistry', () => {
  it('declares each resource/operation once', () => {
    const keys = endpointRegistry.map(endpointKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('names operations in kebab-case and resources as URL segments', () => {
    for (const def of endpointRegistry) {
      expect(def.operation).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(def.resource).toMatch(/^[a-z][a-z-]*$/);
    }
  });

  it('never gives a GET a body', () => {
    for (const def of endpointRegistry) {
      if (def.method === 'GET') expect(def.body).toBeUndefined();
    }
  });
});
