/**
 * The human check on forms the auth service protects when the server has a captcha configured
 * (public config `captchaSiteKey`; the server verifies with hCaptcha's siteverify by default).
 * hCaptcha's script loads only here and only then, so no other page talks to hCaptcha. Tokens
 * are single-use: the form bumps `resetKey` after each attempt to get a fresh one.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button } from '../../ui/button.tsx';

export interface CaptchaWidgetApi {
  render(
    container: HTMLElement,
    options: {
      sitekey: string;
      callback: (token: string) => void;
      'expired-callback': () => void;
      'error-callback': () => void;
    },
  ): string;
  reset(widgetId?: string): void;
  remove(widgetId?: string): void;
}

export type LoadCaptcha = () => Promise<CaptchaWidgetApi>;

const SCRIPT_URL = 'https://js.hcaptcha.com/1/api.js?render=explicit&recaptchacompat=off';
let loading: Promise<CaptchaWidgetApi> | null = null;

/** Adds hCaptcha's script once per page; a failed load may be retried. */
export const loadHCaptcha: LoadCaptcha = () => {
  loading ??= new Promise<CaptchaWidgetApi>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SCRIPT_URL;
    script.async = true;
    script.onload = () => {
      const api = (window as unknown as { hcaptcha?: CaptchaWidgetApi }).hcaptcha;
      if (api) resolve(api);
      else reject(new Error('hCaptcha did not start'));
    };
    script.onerror = () => {
      script.remove();
      reject(new Error('hCaptcha could not load'));
    };
    document.head.append(script);
  }).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
};

export interface HCaptchaFieldProps {
  siteKey: string;
  /** The current token, or null when there is none (not solved yet, expired, used). */
  onToken: (token: string | null) => void;
  /** Change it to get a fresh challenge (after each submit: tokens are single-use). */
  resetKey: number;
  load?: LoadCaptcha;
}

export function HCaptchaField({
  siteKey,
  onToken,
  resetKey,
  load = loadHCaptcha,
}: HCaptchaFieldProps) {
  const container = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [attempt, setAttempt] = useState(0);
  const tokenListener = useRef(onToken);
  useEffect(() => {
    tokenListener.current = onToken;
  });

  useEffect(() => {
    let widgetId: string | null = null;
    let api: CaptchaWidgetApi | null = null;
    let active = true;
    setState('loading');
    load().then(
      (loaded) => {
        if (!active || !container.current) return;
        api = loaded;
        widgetId = loaded.render(container.current, {
          sitekey: siteKey,
          callback: (token) => tokenListener.current(token),
          'expired-callback': () => tokenListener.current(null),
          'error-callback': () => tokenListener.current(null),
        });
        setState('ready');
      },
      () => {
        if (active) setState('failed');
      },
    );
    return () => {
      active = false;
      if (api && widgetId !== null) api.remove(widgetId);
      tokenListener.current(null);
    };
  }, [siteKey, load, attempt, resetKey]);

  return (
    <div className="flex flex-col gap-2">
      <div ref={container} aria-label="Human check" role="group" className="min-h-[78px]" />
      {state === 'loading' ? (
        <p role="status" className="text-sm text-fg-muted">
          Loading the human check…
        </p>
      ) : null}
      {state === 'failed' ? (
        <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-danger">
          The human check could not load. Check your connection, then try again.
          <Button variant="secondary" onPress={() => setAttempt((n) => n + 1)}>
            Try again
          </Button>
        </div>
      ) : null}
    </div>
  );
}

export interface CaptchaGate {
  /** The widget and its message, or null when the server wants no captcha. */
  field: ReactNode;
  /** The options auth-js takes (`{captchaToken}`), empty when there is no captcha. */
  tokenOptions: () => { captchaToken?: string };
  /** False (and says so beside the widget) while a captcha is wanted and not solved. */
  check: () => boolean;
  /** After a request: the token is spent, a fresh challenge is shown. */
  spent: () => void;
}

/**
 * Every form the auth service guards with a captcha (sign-in, sign-up, recovery, resend) uses
 * this: one widget, one token per request, the same message when it is missing.
 */
export function useCaptchaGate(
  siteKey: string | null,
  load: LoadCaptcha = loadHCaptcha,
): CaptchaGate {
  const [token, setToken] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  const field = siteKey ? (
    <div className="flex flex-col gap-1">
      <HCaptchaField
        siteKey={siteKey}
        resetKey={round}
        load={load}
        onToken={(next) => {
          setToken(next);
          if (next) setError(null);
        }}
      />
      {error ? (
        <p role="alert" className="text-sm font-medium text-danger">
          {error}
        </p>
      ) : null}
    </div>
  ) : null;
  return {
    field,
    tokenOptions: () => (siteKey && token ? { captchaToken: token } : {}),
    check: () => {
      if (!siteKey || token) return true;
      setError('Complete the human check first.');
      return false;
    },
    spent: () => {
      if (siteKey) setRound((n) => n + 1);
    },
  };
}
