/**
 * The workspace's plan as this device knows it, for the checks a screen makes before writing
 * (the server enforces the same limits on every operation; the device only says so sooner). The
 * subscription is not synced: it is read online (Settings > Billing, the Checkout result page)
 * and the last answer is kept in localStorage per workspace. A check that would refuse asks the
 * server once more when online, so a plan bought a minute ago on another device is not refused
 * here on a stale copy. When Stripe's webhook stores a new state, the hub says so
 * (subscriptionChanged) and the open app reads it again at once (refreshSubscription); screens
 * showing the plan follow every saved answer (onSubscriptionSaved).
 */
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { getSubscription, type WorkspaceSubscription } from '#contract/endpoints/subscription.ts';
import {
  DEFAULT_PLAN_ID,
  getPlan,
  planIds,
  type Plan,
  type PlanId,
} from '#contract/entities/plan.ts';

const key = (workspaceId: string) => `satchel:subscription:${workspaceId}`;

export interface SavedSubscription {
  data: WorkspaceSubscription;
  savedAt: string;
}

export function readSavedSubscription(workspaceId: string): SavedSubscription | null {
  try {
    const raw = globalThis.localStorage?.getItem(key(workspaceId));
    const saved = raw ? (JSON.parse(raw) as SavedSubscription) : null;
    return saved && planIds.includes(saved.data?.plan) ? saved : null;
  } catch {
    return null;
  }
}

const saved = new EventTarget();

/** Calls `listener` with each subscription this tab saves (any workspace); answers the unsubscribe. */
export function onSubscriptionSaved(listener: (data: WorkspaceSubscription) => void): () => void {
  const handle = (event: Event) => listener((event as CustomEvent<WorkspaceSubscription>).detail);
  saved.addEventListener('saved', handle);
  return () => saved.removeEventListener('saved', handle);
}

export function saveSubscription(data: WorkspaceSubscription): void {
  try {
    globalThis.localStorage?.setItem(
      key(data.workspaceId),
      JSON.stringify({ data, savedAt: new Date().toISOString() } satisfies SavedSubscription),
    );
  } catch {
    // A full or blocked storage only loses the offline copy.
  }
  saved.dispatchEvent(new CustomEvent('saved', { detail: data }));
}

/**
 * Reads the workspace's subscription from the server and saves it (the hub said it changed).
 * A failure keeps the saved copy: the next check that refuses asks again.
 */
export async function refreshSubscription(
  callEndpoint: CallEndpoint,
  workspaceId: string,
): Promise<void> {
  try {
    saveSubscription(await callEndpoint(getSubscription, { query: { workspaceId } }));
  } catch {
    // Offline or refused (no longer a member): nothing newer to keep.
  }
}

/** The plan last seen for the workspace; Free when none was. */
export function knownWorkspacePlan(workspaceId: string): PlanId {
  return readSavedSubscription(workspaceId)?.data.plan ?? DEFAULT_PLAN_ID;
}

/**
 * Whether `fits` holds on the workspace's plan: first on the known plan, and when that refuses,
 * on the server's answer (online only; offline, or when the server cannot say, the known plan's
 * answer stands and the server decides when the change syncs).
 */
export async function checkPlanLimit(
  callEndpoint: CallEndpoint | null,
  workspaceId: string,
  fits: (plan: Plan) => boolean,
): Promise<{ plan: Plan; fits: boolean }> {
  const known = getPlan(knownWorkspacePlan(workspaceId));
  if (fits(known)) return { plan: known, fits: true };
  if (!callEndpoint || globalThis.navigator?.onLine === false) return { plan: known, fits: false };
  try {
    const data = await callEndpoint(getSubscription, { query: { workspaceId } });
    saveSubscription(data);
    const plan = getPlan(data.plan);
    return { plan, fits: fits(plan) };
  } catch {
    return { plan: known, fits: false };
  }
}
