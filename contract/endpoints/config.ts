import * as v from 'valibot';
import { text } from '../text.ts';
import { defineEndpoint, emptyQuerySchema } from '../define-endpoint.ts';

/** What the app needs at boot to reach auth: one build serves any deployment. */
export const publicConfigSchema = v.object({
  /** Base URL for supabase-js (`createClient(supabaseUrl, supabaseAnonKey)`); the auth API is at `<supabaseUrl>/auth/v1`. */
  supabaseUrl: text(),
  supabaseAnonKey: text(),
  googleEnabled: v.boolean(),
  captchaSiteKey: v.nullable(text()),
});
export type PublicConfig = v.InferOutput<typeof publicConfigSchema>;

export const getPublicConfig = defineEndpoint({
  resource: 'config',
  operation: 'get-public-config',
  method: 'GET',
  auth: 'public',
  summary: 'Runtime configuration the app reads at boot (auth URL and anon key, Google, captcha).',
  query: emptyQuerySchema,
  output: publicConfigSchema,
});
