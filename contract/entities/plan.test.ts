import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  getPlan,
  monthlyEquivalent,
  planIdSchema,
  planIds,
  plans,
  yearlySavings,
  type Plan,
} from './plan.ts';

const unlimited = (value: number | null) => value ?? Number.POSITIVE_INFINITY;

describe('plans', () => {
  it('lists every plan id once, in price order', () => {
    expect(plans.map((plan) => plan.id)).toEqual([...planIds]);
    const monthly = plans.map((plan) => plan.prices.month);
    expect(monthly).toEqual([...monthly].sort((a, b) => a - b));
  });

  it('never gives less on a dearer plan', () => {
    for (let i = 1; i < plans.length; i += 1) {
      const [cheaper, dearer] = [plans[i - 1] as Plan, plans[i] as Plan];
      expect(unlimited(dearer.limits.activeProjects)).toBeGreaterThanOrEqual(
        unlimited(cheaper.limits.activeProjects),
      );
      expect(dearer.limits.members).toBeGreaterThanOrEqual(cheaper.limits.members);
      expect(dearer.limits.storageBytes).toBeGreaterThan(cheaper.limits.storageBytes);
    }
  });

  it('prices in whole cents, a paid year at ten months (two months free)', () => {
    for (const plan of plans) {
      expect(Number.isInteger(plan.prices.month)).toBe(true);
      expect(plan.prices.year).toBe(plan.prices.month * 10);
    }
    expect(getPlan('free').prices).toEqual({ month: 0, year: 0 });
    expect(yearlySavings(getPlan('pro'))).toBe(3000);
    expect(yearlySavings(getPlan('free'))).toBe(0);
    expect(monthlyEquivalent(getPlan('pro'), 'year')).toBe(1250);
    expect(monthlyEquivalent(getPlan('pro'), 'month')).toBe(1500);
  });

  it('validates plan ids for billing', () => {
    expect(v.parse(planIdSchema, 'agency')).toBe('agency');
    expect(v.safeParse(planIdSchema, 'enterprise').success).toBe(false);
  });
});
