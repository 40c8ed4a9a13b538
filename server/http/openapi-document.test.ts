import { describe, expect, it } from 'vitest';
import type { EndpointDefinition } from '#contract/define-endpoint.ts';
import { endpointRegistry } from '#contract/endpoint-registry.ts';
import { answersFile } from '#contract/file-answer.ts';
import { createOpenApiDocument } from './openapi-document.ts';

interface Operation {
  responses: Record<string, { content: Record<string, { schema?: unknown }>; headers?: unknown }>;
}

const doc = createOpenApiDocument({ version: 'test', serverUrl: 'http://localhost' });
const operation = (resource: string, name: string, method = 'get'): Operation => {
  const item = doc.paths[`/api/${resource}?endpoint=${name}`] as Record<string, Operation>;
  return item[method]!;
};

describe('OpenAPI document', () => {
  it('describes the two invoice PDF calls as PDF files, not JSON', () => {
    for (const [resource, name] of [
      ['payment', 'get-invoice-pdf'],
      ['client-portal', 'get-invoice-pdf'],
    ] as const) {
      const success = operation(resource, name).responses['200']!;
      expect(Object.keys(success.content), `${resource}/${name}`).toEqual(['application/pdf']);
      expect(success.content['application/pdf']?.schema).toEqual({
        type: 'string',
        contentMediaType: 'application/pdf',
      });
      expect(success.headers).toHaveProperty('Content-Disposition');
      // A refusal is still the contract's JSON error body.
      expect(Object.keys(operation(resource, name).responses.default!.content)).toEqual([
        'application/json',
      ]);
    }
  });

  it('describes every operation declared with a file answer as a file, and only those', () => {
    const defs = endpointRegistry as readonly EndpointDefinition[];
    expect(defs.filter(answersFile).length).toBeGreaterThanOrEqual(2);
    for (const def of defs) {
      const success = operation(def.resource, def.operation, def.method.toLowerCase()).responses[
        String(def.status)
      ]!;
      expect(Object.keys(success.content), `${def.resource}/${def.operation}`).toEqual([
        answersFile(def) ? 'application/pdf' : 'application/json',
      ]);
    }
  });

  it('keeps JSON answers described by their schema', () => {
    const success = operation('client-portal', 'get-invoices').responses['200']!;
    expect(success.content['application/json']?.schema).toMatchObject({
      type: 'object',
      properties: { invoices: { type: 'array' } },
    });
  });
});
