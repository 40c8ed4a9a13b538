import { createContext, use, type ReactNode } from 'react';
import type { AuthServices } from './auth-client.ts';

const AuthServicesContext = createContext<AuthServices | null>(null);

export interface AuthServicesProviderProps {
  /** Null when the server has no sign-in configured: screens say so instead of failing. */
  services: AuthServices | null;
  children: ReactNode;
}

export function AuthServicesProvider({ services, children }: AuthServicesProviderProps) {
  return <AuthServicesContext value={services}>{children}</AuthServicesContext>;
}

/** The supabase-js client and boot-time auth options, or null when sign-in is unavailable. */
export function useAuthServices(): AuthServices | null {
  return use(AuthServicesContext);
}
