import { useCallback, useEffect, useState } from 'react';

/**
 * Seconds left of a cooldown (resend after 60 s, rate limits), ticking once a second. `start(0)`
 * or reaching zero ends it.
 */
export function useCountdown(initialSeconds = 0): {
  secondsLeft: number;
  start: (seconds: number) => void;
} {
  const [endsAt, setEndsAt] = useState(() =>
    initialSeconds > 0 ? Date.now() + initialSeconds * 1000 : 0,
  );
  const [now, setNow] = useState(() => Date.now());
  const secondsLeft = Math.max(0, Math.ceil((endsAt - now) / 1000));

  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [secondsLeft]);

  const start = useCallback((seconds: number) => {
    const at = Date.now();
    setNow(at);
    setEndsAt(seconds > 0 ? at + seconds * 1000 : 0);
  }, []);

  return { secondsLeft, start };
}
