// The words of the client's mail: money in the currency's own minor units, the quote's terms and
// the portal link only when there is one.
import { describe, expect, it } from 'vitest';
import { answerMail, moneyWords } from './change-request.ts';

describe('change request mail', () => {
  it('writes money in the currency’s minor units', () => {
    expect(moneyWords(125_000, 'USD')).toBe('USD 1,250.00');
    expect(moneyWords(-8_000, 'EUR')).toBe('-EUR 80.00');
    expect(moneyWords(5_000, 'JPY')).toBe('JPY 5,000');
    expect(moneyWords(1_500, 'KWD')).toBe('KWD 1.500');
  });

  it('says what a quote costs and where to answer it', () => {
    const target = {
      email: 'owner@acme.test',
      client_name: 'Acme',
      client_id: 'c1',
      project_name: 'Shop front',
      workspace_name: 'Studio Ada',
      portal_on: true,
    };
    const quoted = answerMail(
      target,
      {
        status: 'quoted',
        title: 'Blog',
        costImpact: 50_000,
        currency: 'USD',
        scheduleImpactDays: -1,
        answer: ' Sure. ',
      },
      'http://app/client/c1/project/p1',
    );
    expect(quoted.subject).toBe('Quote for your change request: Blog');
    expect(quoted.text).toContain('Cost: USD 500.00');
    expect(quoted.text).toContain('Timeline: -1 day\n');
    expect(quoted.text).toContain('\nSure.\n');
    expect(quoted.text).toContain(
      "Accept or decline the quote in the project's portal: http://app/client/c1/project/p1",
    );
    const declined = answerMail(
      target,
      { status: 'declined', title: 'Blog', currency: 'USD' },
      null,
    );
    expect(declined.subject).toBe('Your change request was declined: Blog');
    expect(declined.text).not.toContain('portal:');
    expect(declined.text).not.toContain('Cost:');
  });
});
