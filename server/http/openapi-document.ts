/**
 * OpenAPI 3.1 document derived from the contract registry: one path item per operation, keyed
 * `/api/<resource>?endpoint=<operation>` as the API is really called.
 */
import { toJsonSchema, type JsonSchema } from '@valibot/to-json-schema';
import type { EndpointDefinition } from '#contract/define-endpoint.ts';
import { endpointRegistry } from '#contract/endpoint-registry.ts';
import { answersFile } from '#contract/file-answer.ts';

const errorSchema: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'requestId'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        details: {},
        requestId: { type: 'string' },
      },
    },
  },
};

/**
 * The success answer's content. An operation declared with a file answer (contract/file-answer.ts)
 * sends bytes with an attachment Content-Disposition, not JSON; its content type is decided when
 * the handler answers, and every such operation today sends a PDF.
 */
function successContent(def: EndpointDefinition): Record<string, { schema: JsonSchema }> {
  if (answersFile(def)) {
    return {
      'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } },
    };
  }
  return { 'application/json': { schema: schemaOf(def.output, 'output') } };
}

function schemaOf(schema: EndpointDefinition['output'], typeMode: 'input' | 'output'): JsonSchema {
  return toJsonSchema(schema, { errorMode: 'ignore', typeMode, target: 'draft-2020-12' });
}

export function createOpenApiDocument(options: { version: string; serverUrl: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const def of endpointRegistry as readonly EndpointDefinition[]) {
    const query = schemaOf(def.query, 'input') as {
      properties?: Record<string, JsonSchema>;
      required?: string[];
    };
    const parameters = [
      { name: 'endpoint', in: 'query', required: true, schema: { const: def.operation } },
      ...Object.entries(query.properties ?? {}).map(([name, schema]) => ({
        name,
        in: 'query',
        required: query.required?.includes(name) ?? false,
        schema,
      })),
    ];
    paths[`/api/${def.resource}?endpoint=${def.operation}`] = {
      [def.method.toLowerCase()]: {
        operationId: `${def.resource}.${def.operation}`,
        summary: def.summary,
        tags: [def.resource],
        security:
          def.auth === 'user' ? [{ bearer: [] }] : def.auth === 'portal' ? [{ portal: [] }] : [],
        parameters,
        ...(def.body
          ? {
              requestBody: {
                required: true,
                content: { 'application/json': { schema: schemaOf(def.body, 'input') } },
              },
            }
          : {}),
        responses: {
          [String(def.status)]: {
            description: answersFile(def) ? 'The file, as an attachment' : 'Success',
            ...(answersFile(def)
              ? { headers: { 'Content-Disposition': { schema: { type: 'string' } } } }
              : {}),
            content: successContent(def),
          },
          default: {
            description: 'Error',
            content: { 'application/json': { schema: errorSchema } },
          },
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Satchel API', version: options.version },
    servers: [{ url: options.serverUrl }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        portal: { type: 'apiKey', in: 'cookie', name: 'satchel_portal' },
      },
    },
    paths,
  };
}
