import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { plans } from '#contract/entities/plan.ts';
import { BillingSettings } from './billing-settings.tsx';

afterEach(cleanup);

describe('BillingSettings', () => {
  it('shows Free as the current plan and says plainly that paid plans cannot be bought', () => {
    render(<BillingSettings />);
    const yourPlan = screen.getByRole('region', { name: 'Your plan' });
    expect(within(yourPlan).getByText('Free')).toBeTruthy();
    expect(within(yourPlan).getByText('2 active projects')).toBeTruthy();
    expect(within(yourPlan).getByText(/Paid plans cannot be bought yet/)).toBeTruthy();
    // No checkout, upgrade or cancel control pretends to work.
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('link', { name: /upgrade|checkout|cancel/i })).toBeNull();
  });

  it('lists every plan of the contract with its prices, Free marked current', () => {
    render(<BillingSettings />);
    const items = within(screen.getByRole('region', { name: 'Plans' })).getAllByRole('listitem', {
      name: (name) => plans.some((plan) => plan.name === name),
    });
    expect(items.map((item) => within(item).getByRole('heading').textContent)).toEqual(
      plans.map((plan) => plan.name),
    );
    const [free, pro] = items;
    expect(within(free!).getByText('Current plan')).toBeTruthy();
    expect(pro!.textContent).toContain('$15 / month, or $150 / year ($12.50 a month, save $30)');
    expect(within(pro!).getByText('Not on sale yet')).toBeTruthy();
  });

  it('acknowledges the plan picked on the pricing page', () => {
    render(<BillingSettings requested={{ planId: 'agency', interval: 'year' }} />);
    expect(screen.getByText(/You picked Agency \(yearly\) on the pricing page/)).toBeTruthy();
    const agency = screen.getByRole('listitem', { name: 'Agency' });
    expect(within(agency).getByText('Your pick')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'write to us' }).getAttribute('href')).toBe('/contact');
  });
});
