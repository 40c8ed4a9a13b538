import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import type { WorkspaceSubscription } from '#contract/endpoints/subscription.ts';
import {
  checkPlanLimit,
  knownWorkspacePlan,
  onSubscriptionSaved,
  refreshSubscription,
  saveSubscription,
} from './workspace-plan.ts';

const WORKSPACE = '0192f3a0-0000-7000-8000-00000000000b';
const onPlan = (plan: WorkspaceSubscription['plan']) =>
  ({ workspaceId: WORKSPACE, plan }) as WorkspaceSubscription;
/** Room for a third active project. */
const third = ({ limits }: { limits: { activeProjects: number | null } }) =>
  limits.activeProjects === null || 2 < limits.activeProjects;

beforeEach(() => localStorage.clear());
afterEach(() => {
  Object.defineProperty(navigator, 'onLine', { value: true, configurable: true });
});

describe('checkPlanLimit', () => {
  it('answers from the known plan without asking when it fits', async () => {
    saveSubscription(onPlan('pro'));
    const server = vi.fn();
    const result = await checkPlanLimit(server, WORKSPACE, third);
    expect(result).toMatchObject({ fits: true, plan: { id: 'pro' } });
    expect(server).not.toHaveBeenCalled();
  });

  it('asks the server before refusing, and remembers the answer', async () => {
    const server = vi.fn(() => Promise.resolve(onPlan('pro')));
    expect(knownWorkspacePlan(WORKSPACE)).toBe('free');
    const result = await checkPlanLimit(server, WORKSPACE, third);
    expect(result).toMatchObject({ fits: true, plan: { id: 'pro' } });
    expect(knownWorkspacePlan(WORKSPACE)).toBe('pro');
  });

  it('refuses on the known plan offline, or when the server cannot say', async () => {
    Object.defineProperty(navigator, 'onLine', { value: false, configurable: true });
    const server = vi.fn(() => Promise.resolve(onPlan('pro')));
    expect(await checkPlanLimit(server as unknown as CallEndpoint, WORKSPACE, third)).toMatchObject(
      { fits: false, plan: { id: 'free' } },
    );
    expect(server).not.toHaveBeenCalled();
    Object.defineProperty(navigator, 'onLine', { value: true, configurable: true });
    const failing = vi.fn(() => Promise.reject(new Error('503')));
    expect(
      await checkPlanLimit(failing as unknown as CallEndpoint, WORKSPACE, third),
    ).toMatchObject({ fits: false, plan: { id: 'free' } });
  });
});

describe('refreshSubscription (the hub said the plan changed)', () => {
  it('reads the plan again, keeps it and tells who listens', async () => {
    const heard: string[] = [];
    const stop = onSubscriptionSaved((data) => heard.push(data.plan));
    const server = vi.fn(() => Promise.resolve(onPlan('agency')));
    await refreshSubscription(server, WORKSPACE);
    expect(knownWorkspacePlan(WORKSPACE)).toBe('agency');
    expect(heard).toEqual(['agency']);
    stop();
    saveSubscription(onPlan('pro'));
    expect(heard).toEqual(['agency']);
  });

  it('keeps the saved plan when the server cannot answer', async () => {
    saveSubscription(onPlan('pro'));
    const failing = vi.fn(() => Promise.reject(new Error('offline')));
    await refreshSubscription(failing, WORKSPACE);
    expect(knownWorkspacePlan(WORKSPACE)).toBe('pro');
  });
});
