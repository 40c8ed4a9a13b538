import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import type { WorkspaceSubscription } from '#contract/endpoints/subscription.ts';
import { checkPlanLimit, knownWorkspacePlan, saveSubscription } from './workspace-plan.ts';

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
